"""tablelog's recorder: the append-only SQLite event store and what crosses its boundary.

>>> from recorder import EventStore, GameImport, ConcurrencyError, StoreError, ImportRejected

* :class:`EventStore` — open a database file, import and append events (each checked by
  the engine), read events and the state at any step, list games;
* :mod:`recorder.io` — JSON and notation game files in, canonical JSON out;
* :mod:`recorder.schemas` — marshmallow schemas for payloads, headers, meta and files.
"""

from .errors import (
    AppendRejected,
    ConcurrencyError,
    CorruptEvent,
    EventIdConflict,
    EventRejected,
    GameNotFound,
    ImportRejected,
    SchemaVersionError,
    StepOutOfRange,
    StoreError,
)
from .store import (
    AppendResult,
    EventStore,
    GameImport,
    GameRow,
    ImportResult,
    StoredEvent,
    default_db_path,
)

__all__ = [
    "AppendRejected",
    "AppendResult",
    "ConcurrencyError",
    "CorruptEvent",
    "EventIdConflict",
    "EventRejected",
    "EventStore",
    "GameImport",
    "GameNotFound",
    "GameRow",
    "ImportRejected",
    "ImportResult",
    "SchemaVersionError",
    "StepOutOfRange",
    "StoreError",
    "StoredEvent",
    "default_db_path",
]
