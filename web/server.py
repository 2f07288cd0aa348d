"""Serving the site with waitress, a production WSGI server with a fixed pool of worker
threads (each keeps its own store connection, see :mod:`web.db`)."""

from __future__ import annotations

import gc
import logging
import threading
from typing import Any

import waitress
from flask import Flask

log = logging.getLogger("tablelog.web")


#: Collect young objects every 100,000 allocations instead of every 700: the cache of
#: folded games keeps many long-lived objects, and frequent collections cost about a
#: sixth of the serving time with pauses of up to 100 ms (measured by bench/web.py).
GC_THRESHOLDS = (100_000, 50, 100)


def tune_gc() -> None:
    """Fewer garbage collections in the serving process (see :data:`GC_THRESHOLDS`);
    what exists at start-up (modules, templates) is frozen out of their way."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 4) -> None:
    """Serve ``app`` until interrupted."""
    tune_gc()
    waitress.serve(app, host=host, port=port, threads=threads, ident="tablelog",
                   clear_untrusted_proxy_headers=True)


class BackgroundServer:
    """The real server on a background thread, for tests and benchmarks.

    >>> from web import create_app
    >>> server = BackgroundServer(create_app({"DATABASE": ":memory:"}))
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.stop()
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 8):
        self._server: Any = waitress.create_server(
            app, host=host, port=port, threads=threads, ident="tablelog",
            clear_untrusted_proxy_headers=True,
        )
        self.host = host
        self.port = int(self._server.effective_port)
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self._server.run, name="tablelog-server",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the listening socket and every connection, then wait for the loop."""
        server = self._server
        server.task_dispatcher.shutdown()
        for channel in list(server._map.values()):
            channel.close()
        self._thread.join(timeout=5)

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
