"""The names ``recorder.store`` has always offered, now kept by the modules that do each job:
:mod:`recorder.records`, :mod:`recorder.prepare`, :mod:`recorder.pipeline` and
:mod:`recorder.sqlite` (the SQLite :class:`EventStore`)."""

from __future__ import annotations

from .pipeline import DEFAULT_BATCH, TASK_GAMES
from .prepare import (
    Prepared,
    content_digest,
    derived_event_id,
    derived_game_id,
    prepare_game,
)
from .records import (
    DEFAULT_DB,
    AppendResult,
    GameImport,
    GameRow,
    ImportResult,
    StoredEvent,
    default_db_path,
)
from .sqlite import _PARSED, BUSY_TIMEOUT_S, RESULT_CONDITIONS, RESULT_STATUSES, EventStore

__all__ = [
    "BUSY_TIMEOUT_S",
    "DEFAULT_BATCH",
    "DEFAULT_DB",
    "RESULT_CONDITIONS",
    "RESULT_STATUSES",
    "TASK_GAMES",
    "_PARSED",
    "AppendResult",
    "EventStore",
    "GameImport",
    "GameRow",
    "ImportResult",
    "Prepared",
    "StoredEvent",
    "content_digest",
    "default_db_path",
    "derived_event_id",
    "derived_game_id",
    "prepare_game",
]
