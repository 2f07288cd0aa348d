"""Open a store from a spec string, in a child process (``sqlite:/path/to/file.db``).

A PostgreSQL store would add its own prefix here, so the process tests run against it too.
"""

from __future__ import annotations

from recorder import EventStore, Recorder


def open_store(spec: str) -> Recorder:
    kind, _, where = spec.partition(":")
    if kind == "sqlite":
        return EventStore.open(where)
    raise SystemExit(f"unknown store spec {spec!r}")
