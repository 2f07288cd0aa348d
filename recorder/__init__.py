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
* :mod:`recorder.checks` — a game's headers, an event's meta and the ids a writer gives,
  checked (payloads are the game's own to parse); :mod:`recorder.schemas` — the
  marshmallow schema of a JSON game file's envelope.
"""

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: The module of each name below: each is imported when first asked for, so that a
#: command imports only the modules it uses (``tablelog validate`` no store, no SQLite).
_HOMES = {
    **dict.fromkeys(
        [
            "AppendRejected",
            "ConcurrencyError",
            "CorruptEvent",
            "EventIdConflict",
            "EventRejected",
            "GameNotFound",
            "GameVoid",
            "ImportRejected",
            "SchemaVersionError",
            "StepOutOfRange",
            "StoreError",
        ],
        "errors",
    ),
    "Recorder": "protocol",
    **dict.fromkeys(
        [
            "AppendResult",
            "GameImport",
            "GamePage",
            "GameRow",
            "ImportResult",
            "StoredEvent",
            "default_db_path",
        ],
        "records",
    ),
    "EventStore": "sqlite",
    "open_store": "stores",
    "Finding": "verify",
}


def __getattr__(name: str) -> Any:
    # (each import written out, so that the import graph shows what the package offers)
    home = _HOMES.get(name)
    if home == "errors":
        from . import errors

        return _kept(name, errors)
    if home == "protocol":
        from . import protocol

        return _kept(name, protocol)
    if home == "records":
        from . import records

        return _kept(name, records)
    if home == "sqlite":
        from . import sqlite

        return _kept(name, sqlite)
    if home == "stores":
        from . import stores

        return _kept(name, stores)
    if home == "verify":
        from . import verify

        return _kept(name, verify)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _kept(name: str, module: ModuleType) -> Any:
    value = globals()[name] = getattr(module, name)
    return value


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
