"""Open a store from a spec string, in a child process: ``sqlite:/path/to/file.db`` or a
PostgreSQL URL, as :func:`recorder.open_store` reads them."""

from __future__ import annotations

from recorder import Recorder, open_store


def open_store_spec(spec: str) -> Recorder:
    store: Recorder = open_store(spec)
    return store
