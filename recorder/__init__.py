"""tablelog's recorder: the append-only event store and what crosses its boundary.

>>> from recorder import EventStore, GameImport, ConcurrencyError, StoreError, ImportRejected

* :func:`open_store` — the store a path or URL names (:mod:`recorder.places`,
  :mod:`recorder.stores`): SQLite for a path or ``sqlite:``, PostgreSQL
  (:mod:`recorder.postgres`) for ``postgresql://``;
* :class:`Recorder` — what the site and the command line use of a store
  (:mod:`recorder.protocol`); :class:`EventStore` is the SQLite one (:mod:`recorder.sqlite`):
  open a database file, import and append events (each checked by the game's rules), read
  events and the state at any step, list games;
* :mod:`recorder.records`, :mod:`recorder.prepare`, :mod:`recorder.projections`,
  :mod:`recorder.pipeline` — the records, the checking of a game, the summaries, imports;
* :mod:`recorder.validate` — a file's games judged, with a report per game;
* :mod:`recorder.io` — JSON and notation game files in, canonical JSON out;
* :mod:`recorder.schemas` — marshmallow schemas for headers, meta and files (payloads
  are the game's own to parse).
"""

from .errors import (
    AppendRejected,
    ConcurrencyError,
    CorruptEvent,
    EventIdConflict,
    EventRejected,
    GameNotFound,
    GameVoid,
    ImportRejected,
    SchemaVersionError,
    StepOutOfRange,
    StoreError,
)
from .protocol import Recorder
from .records import (
    AppendResult,
    GameImport,
    GamePage,
    GameRow,
    ImportResult,
    StoredEvent,
    default_db_path,
)
from .sqlite import EventStore
from .stores import open_store
from .verify import Finding

__all__ = [
    "AppendRejected",
    "AppendResult",
    "ConcurrencyError",
    "CorruptEvent",
    "EventIdConflict",
    "EventRejected",
    "EventStore",
    "Finding",
    "GameImport",
    "GameNotFound",
    "GameVoid",
    "GamePage",
    "GameRow",
    "ImportRejected",
    "ImportResult",
    "Recorder",
    "SchemaVersionError",
    "StepOutOfRange",
    "StoreError",
    "StoredEvent",
    "default_db_path",
    "open_store",
]
