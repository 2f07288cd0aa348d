"""Serving the site: several worker processes under gunicorn's pre-fork server (the
default), or one process with waitress's pool of worker threads.

Python runs one thread at a time in a process, so one process uses one core however many
threads it has; a replay step is all computation (folding, rendering), so the cores are
used by processes.  Each worker process keeps its own caches and its own store
connections (see :mod:`web.db`); SQLite in WAL mode lets them all read at once.
gunicorn runs on Unix only; waitress runs everywhere.
"""

from __future__ import annotations

import gc
import logging
import os
import socket
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


def default_workers() -> int:
    """One worker process per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def listen(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free port); ``OSError``
    when the address cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=backlog)


def serve(
    app: Flask,
    host: str = "127.0.0.1",
    port: int = 5000,
    threads: int = 4,
    sock: socket.socket | None = None,
) -> None:
    """Serve ``app`` in this process with waitress's ``threads`` worker threads until
    interrupted (on ``sock`` when given, already listening)."""
    tune_gc()
    where: dict[str, Any] = (
        {"sockets": [sock]} if sock is not None else {"host": host, "port": port}
    )
    waitress.serve(
        app, threads=threads, ident="tablelog", clear_untrusted_proxy_headers=True, **where
    )


def serve_workers(
    app: Flask, sock: socket.socket, workers: int, threads: int = 1, timeout: int = 60
) -> None:
    """Serve ``app`` with gunicorn: ``workers`` processes forked from this one, on the
    listening ``sock`` (gunicorn takes it over and closes it), until SIGINT or SIGTERM.

    With ``threads`` 1 (gunicorn's sync worker) each process answers one request at a
    time and closes the connection: requests wait in the kernel's queue, first come first
    served, for whichever process is free, which keeps the slowest answers close to the
    typical ones when every core is busy (bench/web.py).  More ``threads`` (its gthread
    worker) keep connections alive, so a reader stepping through a game keeps meeting the
    process that folded it, but a process's threads then share one core and its answers
    spread wider.  A sync worker waits for a slow client: on an open network, put a
    buffering proxy in front."""
    from gunicorn.app.base import BaseApplication

    settings: dict[str, Any] = {
        "bind": [f"fd://{sock.detach()}"],
        "workers": workers,
        "worker_class": "sync" if threads == 1 else "gthread",
        "threads": threads,
        "timeout": timeout,
        "graceful_timeout": 10,
        "keepalive": 5,
        "proc_name": "tablelog",
        "preload_app": True,
        # one server does not need gunicorn's runtime control socket (a file in $HOME)
        "control_socket_disable": True,
        "errorlog": "-",
        "loglevel": "info",
    }

    class _Server(BaseApplication):  # type: ignore[misc]  # gunicorn ships no types
        def load_config(self) -> None:
            known = self.cfg.settings
            for key, value in settings.items():
                if key in known:  # an older gunicorn lacks the newer settings
                    self.cfg.set(key, value)

        def load(self) -> Flask:
            return app

    # what exists now (modules, templates) is shared with the workers and frozen out of
    # the collector's way in each of them
    tune_gc()
    _Server().run()


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
            app,
            host=host,
            port=port,
            threads=threads,
            ident="tablelog",
            clear_untrusted_proxy_headers=True,
        )
        self.host = host
        self.port = int(self._server.effective_port)
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(
            target=self._server.run, name="tablelog-server", daemon=True
        )
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
