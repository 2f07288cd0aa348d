"""Serving the site: gunicorn's pre-fork server with gevent workers (the default), or one
process with waitress's pool of worker threads (where gunicorn cannot run: Windows).

Why gevent workers.  Following a game live keeps a connection open per viewer for
minutes (:mod:`web.live`), and phones on a café's network are slow, idle or gone without
a word.  A worker that gives each connection a thread or a process for its whole life
(gunicorn's sync worker, two per machine here) is frozen by two half-open connections
until its timeout; a pool of threads (gthread, waitress) holds as many streams as it has
threads and then queues everyone else.  A gevent worker gives each connection a
greenlet: a few kilobytes, parked in the event loop while it waits for the client or
for the next step, so hundreds of streams and slow clients cost memory, not turns.  A
replay page is all computation and never waits inside the worker (SQLite is a local file,
read without yielding), so a worker answers its pages one after the other as a sync
worker would, and the cores are used by running several worker processes; SQLite in WAL
mode lets them all read at once.  gunicorn parses requests and bounds a request's
arrival (the keep-alive timeout, 5 s, also bounds a client that sends a byte a second).

Connections are kept alive: a phone stepping through a replay, or following a game and
opening its pages, sends every request on one connection instead of a new one each time
(a round trip less on a slow network, and no connection set up and torn down per
request).  A worker takes its connections in turn: after each answer a connection waits
behind every other one of the worker with a request ready, and behind new connections
(:func:`_take_turns`), so one busy client cannot hold the worker.  A worker that pauses
holds every connection it keeps (a closed connection's next request went to the other
worker), so its pauses are kept short: every few answers it collects its garbage and
freezes what it keeps out of the collector's way (:func:`age_out`): otherwise a
collection over full caches pauses the worker long enough to hold up every connection it
keeps.  waitress's one process ages out its objects the same way (``create_waitress(age=True)``).

Monkey-patching: ``tablelog serve`` has gevent patch the process before it imports the
site (``cli/serve_cmd.py``), so every lock, thread and sleep the app makes (the live
watcher's thread, the caches' locks) is gevent's in the workers; the app is loaded once
before the fork (``preload_app``) and the workers share its memory.  SQLite waits for a
busy lock in C without yielding, up to its busy timeout: the store writes (web.writes) run
on gevent's pool of native threads (:func:`web.db.off_loop`), so a write waiting for
another process's lock (``tablelog import``, a logger at a terminal) holds its request
only; reads never wait for a lock in WAL mode.

Each worker process keeps its own caches and its own store connection (see :mod:`web.db`).
"""

from __future__ import annotations

import gc
import itertools
import logging
import socket
import threading
from typing import Any

import waitress
from flask import Flask
from werkzeug.exceptions import BadRequest

from . import SECURITY_HEADERS
from .watch import stop_hub

log = logging.getLogger("tablelog.web")


#: Collect young objects every 100,000 allocations instead of every 700: the cache of
#: folded games keeps many long-lived objects, which frequent collections would walk
#: over and over, taking serving time and pausing the worker, to free nothing.
GC_THRESHOLDS = (100_000, 50, 100)


def tune_gc() -> None:
    """Fewer garbage collections in the serving process (see :data:`GC_THRESHOLDS`);
    what exists at start-up (modules, templates) is frozen out of their way."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: A worker collects and then freezes what it holds every this many answers (see
#: :func:`age_out`).
AGE_EVERY = 32


def age_out() -> None:
    """Collect the objects made since the last call, then freeze the survivors out of the
    collector's way.  The caches of folded games and parsed events churn: each new entry
    (hundreds of objects) comes in as an old one leaves, so the frees of old objects
    offset the new ones in the young generation's count, the young generation grows far
    past its threshold, and a collection walks it all at once, as does a full collection
    over every cached object: long pauses, which a worker keeping connections alive makes
    every one of them wait through.  Collected every few dozen answers, each collection
    has little to walk (:data:`AGE_EVERY`; much rarer, and the pauses grow again).

    Frozen objects are still freed by their reference counts when nothing refers to
    them (the caches hold no reference cycles).  The collection first frees what became
    unreachable since the last call; only a reference cycle still in use at that moment
    (a request of another connection, waiting on its socket) would stay frozen once
    unreachable; and garbage waits less for the collector than with rare collections, so
    the server's memory stays flat under a long run of requests (bench/soak.py's fuzzing,
    refusals and errors included)."""
    gc.collect()
    gc.freeze()


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
    logging.basicConfig()
    server = create_waitress(app, threads=threads, age=True, **where)
    server.print_listen("Serving on http://{}:{}")
    server.run()


# --- the server's own answers ------------------------------------------------------------
#
# A request the server refuses before the app sees it (a bad request line, headers too
# large, a URI too long) is answered by the server itself, not through the app's hook
# that adds the security headers (web._finish).  Both servers are told to add them.


def _security_header_lines() -> bytes:
    return "".join(f"{name}: {value}\r\n" for name, value in SECURITY_HEADERS).encode("latin-1")


class _SecuredErrorSocket:
    """A client socket as gunicorn's error page is written to it: the security headers go
    in after the status line.  Everything else is the socket's own."""

    def __init__(self, sock: Any):
        self._sock = sock

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def sendall(self, data: bytes) -> Any:
        status, sep, rest = data.partition(b"\r\n")
        return self._sock.sendall(status + sep + _security_header_lines() + rest)


def _gevent_worker_class() -> type:
    """gunicorn's gevent worker, answering the requests it refuses with the security
    headers (imported only where gunicorn serves: it needs gevent)."""
    from gunicorn.workers.ggevent import GeventWorker

    class SecuredGeventWorker(GeventWorker):  # type: ignore[misc]  # no types shipped
        #: The connections this worker holds open (see :func:`_take_turns`).
        connections = 0
        #: The answers this worker has given (see :func:`_after_answer`).
        answered = 0

        def handle(self, listener: Any, client: Any, addr: Any) -> None:
            self.connections += 1
            try:
                super().handle(listener, client, addr)
            finally:
                self.connections -= 1

        def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
            super().handle_error(req, _SecuredErrorSocket(client), addr, exc)

    return SecuredGeventWorker


def create_waitress(app: Flask, *, age: bool = False, **options: Any) -> Any:
    """A waitress server of ``app`` (not yet running) whose own error answers carry the
    security headers.  With ``age``, the server's threads together age out the process's
    objects every :data:`AGE_EVERY` answers (:func:`age_out`), after the answer is sent, as
    gunicorn's workers do: ``tablelog serve --server waitress`` is one process serving
    with the same caches.  (The tests' :class:`BackgroundServer` leaves the collector of
    the process it runs in alone.)"""
    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask, WSGITask

    answers = itertools.count(1)

    class AgingTask(WSGITask):  # type: ignore[misc]
        def service(self) -> None:
            try:
                super().service()
            finally:
                if next(answers) % AGE_EVERY == 0:
                    age_out()

    class SecuredErrorTask(ErrorTask):  # type: ignore[misc]  # no types shipped
        def execute(self) -> None:
            self.response_headers.extend(SECURITY_HEADERS)
            super().execute()

    class SecuredChannel(HTTPChannel):  # type: ignore[misc]
        error_task_class = SecuredErrorTask
        if age:
            task_class = AgingTask

        def send_continue(self) -> None:
            # waitress answers "Expect: 100-continue" even for a request without a body
            # and then marks it unread, so it is never served: such a request needs no
            # go-ahead, only its answer
            if self.request is not None and self.request.completed:
                self.request.expect_continue = False
                return
            super().send_continue()

    server = waitress.create_server(
        app, ident="tablelog", clear_untrusted_proxy_headers=True, **options
    )
    server.channel_class = SecuredChannel
    return server


#: Connections one gevent worker holds at once (streams included).
WORKER_CONNECTIONS = 1000


#: How long a connection waits after each answer before its next request is read, in
#: seconds: any time at all puts it behind what the worker's event loop has ready.
TURN_S = 0.00001


def _after_answer(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """gunicorn's ``post_request``: every :data:`AGE_EVERY` answers the worker ages out
    what it keeps (:func:`age_out`), then the connection takes its turn."""
    worker.answered += 1
    if worker.answered % AGE_EVERY == 0:
        age_out()
    _take_turns(worker)


def _take_turns(worker: Any) -> None:
    """After each answer, while the worker holds other connections, the connection's
    greenlet waits on a timer before it reads its next request, so the event loop first
    serves every other connection with a request ready and accepts new ones.  Without
    it, a client that sends its next request at once (a pipelining client, or a fast one
    under load) is answered again and again while the others wait; ``gevent.sleep(0)`` is
    no cure: it resumes the greenlet from the loop's queue of callbacks, which runs about
    fifty of them before it looks at the sockets again (tens of milliseconds of pages).
    The timer lasts at least a millisecond when the loop has nothing else to do (the
    event loop's resolution), so a worker's only connection waits for it only when a new
    connection is waiting to be accepted.  With these turns, connections kept alive serve
    every client as promptly as closing each connection after its answer would, without
    setting each one up again."""
    if worker.connections > 1 or _connecting(worker.sockets):
        import gevent

        gevent.sleep(TURN_S)


def _connecting(listeners: list[Any]) -> bool:
    """Whether a new connection waits on one of the ``listeners`` (asked of the system
    without waiting: the select that gevent did not patch)."""
    from gevent.monkey import get_original

    ready, _, _ = get_original("select", "select")(listeners, [], [], 0)
    return bool(ready)


def serve_workers(app: Flask, sock: socket.socket, workers: int, timeout: int = 60) -> None:
    """Serve ``app`` with gunicorn: ``workers`` gevent worker processes forked from this
    one (patched by gevent first: see the module's docstring), on the listening ``sock``
    (gunicorn takes it over and closes it), until SIGINT or SIGTERM."""
    from gunicorn.app.base import BaseApplication
    from gunicorn.http.errors import NoMoreData, ParseException

    def unreadable_body(exc: Exception) -> Any:
        # gunicorn reads a chunked body as the view reads it: a malformed one is the
        # client's fault, answered as the site answers a bad request
        what = type(exc).__name__
        return app.handle_user_exception(
            BadRequest(description=f"the request's body cannot be read ({what})")
        )

    app.register_error_handler(ParseException, unreadable_body)
    app.register_error_handler(NoMoreData, unreadable_body)
    settings: dict[str, Any] = {
        "bind": [f"fd://{sock.detach()}"],
        "workers": workers,
        "worker_class": _gevent_worker_class(),
        "worker_connections": WORKER_CONNECTIONS,
        "timeout": timeout,
        # open streams end only at their lifetime: a restart waits this long for them
        "graceful_timeout": 3,
        # a request must arrive within 5 s of the connection (or of the last answer)
        "keepalive": 5,
        "post_request": _after_answer,
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

    # every template compiled once here rather than by each worker at its first page
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)
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

    def __init__(
        self,
        app: Flask,
        host: str = "127.0.0.1",
        port: int = 0,
        threads: int = 8,
        age: bool = False,
    ):
        self._server: Any = create_waitress(app, host=host, port=port, threads=threads, age=age)
        self.app = app
        self.host = host
        self.port = int(self._server.effective_port)
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(
            target=self._server.run, name="tablelog-server", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """End the live streams, close the listening socket and every connection, then
        wait for the loop."""
        stop_hub(self.app)
        server = self._server
        server.task_dispatcher.shutdown()

        def close_all() -> None:  # in the loop's thread: never under its select
            for channel in list(server._map.values()):
                channel.close()

        try:
            server.trigger.pull_trigger(close_all)
        except OSError:  # the loop's trigger is closed already: close from here
            close_all()
        self._thread.join(timeout=5)

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
