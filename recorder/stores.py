"""Opening the store a place names (:mod:`recorder.places`): a PostgreSQL URL opens
:class:`recorder.postgres.PostgresStore`, anything else the SQLite file
:class:`recorder.sqlite.EventStore`.

Each backend is imported when a store of its kind is opened: naming a store never imports
the PostgreSQL driver (a server that patches for gevent names its store first, and the
driver chooses how to wait on its sockets when it is imported), and a command on an SQLite
file does not load it at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .places import where
from .sqlite import EventStore


def open_store(
    place: str | os.PathLike[str] | None = None, *, clock: Callable[[], str] | None = None
) -> Any:
    """Open the store that ``place`` names (see the module's text): a
    :class:`recorder.Recorder`, its schema created or brought up to date."""
    target = where(place)
    if isinstance(target, Path):
        return EventStore.open(target, clock=clock)
    from .postgres import PostgresStore

    return PostgresStore.open(target, clock=clock)
