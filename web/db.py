"""The event store behind the site: one connection per request (Flask's ``g``), or, when
``STORE_PER_THREAD`` is set (as ``tablelog serve`` does with its fixed pool of worker
threads), one long-lived connection per worker thread.

Under gevent (``tablelog serve``'s workers) every connection is a greenlet of the worker's
one thread, and they all share that thread's store: a greenlet never yields inside a call
to the store (SQLite is a local file, read and written without a network wait), so they
take turns with it as the requests of a sync worker would, and share its folded states."""

from __future__ import annotations

import atexit
import contextvars
import functools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from flask import Flask, current_app, g

from recorder import open_store
from recorder.places import is_postgres


def _patched() -> Any:
    """gevent's ``monkey`` module where it has patched ``threading`` (a gevent worker)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("threading"):
        return None
    return monkey


def _os_thread_local() -> Any:
    """A ``threading.local`` of OS threads, also where gevent patched ``threading``
    to give each greenlet its own (see the module's docstring)."""
    monkey = _patched()
    if monkey is not None:
        return monkey.get_original("threading", "local")()
    return threading.local()


_local = _os_thread_local()
T = TypeVar("T")


#: PostgreSQL stores by URL, one per process: a store is its pool of connections, which
#: every thread and greenlet of the process shares.
_shared: dict[tuple[int, str], Any] = {}
_shared_lock = threading.Lock()


def get_store() -> Any:
    """The store for the current request (``DATABASE``: a path or a URL)."""
    app = current_app
    place = str(app.config["DATABASE"])
    if app.config.get("STORE_PER_THREAD") or is_postgres(place):
        return thread_store(place)
    if "store" not in g:
        g.store = open_store(place)
    return g.store


def thread_store(path: str) -> Any:
    """This thread's long-lived store over ``path`` (an SQLite file); for a PostgreSQL
    URL, the process's one store (:func:`shared_store`)."""
    if is_postgres(path):
        return shared_store(path)
    stores: dict[str, Any] | None = getattr(_local, "stores", None)
    if stores is None:
        stores = _local.stores = {}
    store = stores.get(path)
    if store is None:
        store = stores[path] = open_store(path)
    return store


def shared_store(url: str) -> Any:
    """This process's store over the PostgreSQL database ``url`` (made on first use, and
    again in a forked worker: a pool's connections do not survive a fork)."""
    key = (os.getpid(), url)
    with _shared_lock:
        store = _shared.get(key)
        if store is None:
            store = _shared[key] = open_store(url)
            # closed while the process can still do it (a pool left to the interpreter's
            # end is finalized after gevent's hub is gone)
            atexit.register(store.close)
    return store


def off_loop(func: Callable[..., T]) -> Callable[..., T]:
    """``func`` (a store write) run, in a gevent worker, on a thread of gevent's pool,
    its request's context with it: SQLite waits for another writer's lock inside C
    (up to its busy timeout) and would stop every connection of the worker meanwhile;
    on a native thread only this request waits, on its thread's own store.  Elsewhere
    ``func`` is simply called."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> T:
        pool = _gevent_pool()
        if pool is None:
            return func(*args, **kwargs)
        context = contextvars.copy_context()

        def call() -> tuple[bool, Any]:
            # an exception leaves the thread as a value: gevent's pool would also print
            # its traceback, and a refused write (a WriteError, answered 4xx) is no fault
            try:
                return True, context.run(func, *args, **kwargs)
            except Exception as exc:  # re-raised below, in the request's greenlet
                return False, exc

        ok, value = pool.apply(call)
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    return run


#: How long a turn taken lasts at least, in seconds: a timer this short has run out by the
#: time the worker's loop looks at it, so the loop reads its sockets without waiting and
#: comes back.  (``gevent.sleep(0)`` only runs the greenlets already ready, leaving a
#: request that just arrived unread; ``gevent.idle()`` waits for the loop to be idle,
#: which a busy worker never is.)
TURN_S = 1e-6


def take_turn() -> None:
    """In a gevent worker, let what arrived meanwhile run before going on (between two
    reads of the store by a page of many rows: the store is free then); elsewhere
    nothing."""
    if _patched() is not None:
        import gevent

        gevent.sleep(TURN_S)


class Turns(list[T]):
    """A list that, walked in a gevent worker, lets the worker's other connections run
    between its items: a page of many rows (the games list) is drawn in small steps, and a
    short request that arrives meanwhile (a step of a replay, the state API) is answered
    after the row being drawn rather than after the whole page, so a client paging through
    a long list as fast as it can does not hold up everyone else on its worker (between
    two items, :func:`take_turn`).  Elsewhere (threads, the tests' client) it is a plain
    list.  Only what is already read may be walked so: the store is free while the rows
    are drawn."""

    def __iter__(self) -> Iterator[T]:
        if _patched() is None:
            yield from list.__iter__(self)
            return
        for item in list.__iter__(self):
            yield item
            take_turn()


#: How long a page of many rows that had to wait for its turn rests, in times the page
#: before it took: clients paging as fast as they are answered then hold at most a third
#: of each worker (``bench/scale.py``'s starvation figures chose it).
PACED_REST = 2


def paced(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view of many rows (a page of the games list) that, in a gevent worker, takes its
    turn: one such page at a time per worker, and a page that had to wait for its turn
    first rests :data:`PACED_REST` times as long as the page before it took.  Clients
    paging as fast as they are answered then leave most of each worker to the short
    requests meanwhile (a step, the state API), answered about as if they were alone; a
    client paging on its own, with no one in its way, never rests.  Elsewhere (threads,
    the tests' client) the view as it is."""

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        if _patched() is None:
            return view(*args, **kwargs)
        import gevent

        turn = _turn()
        crowded = turn.lock.locked()
        with turn.lock:
            if crowded:
                gevent.sleep(max(0.0, turn.rest_until - time.perf_counter()))
            started = time.perf_counter()
            try:
                return view(*args, **kwargs)
            finally:
                ended = time.perf_counter()
                turn.rest_until = ended + PACED_REST * (ended - started)

    return run


class _Turn:
    """This worker's turn of pages of many rows: the lock, and until when the next page
    that had to wait for it rests."""

    def __init__(self) -> None:
        import gevent.lock

        self.lock = gevent.lock.Semaphore(1)
        self.rest_until = 0.0


@functools.cache
def _turn() -> _Turn:
    return _Turn()


def _gevent_pool() -> Any:
    if _patched() is None:
        return None
    import gevent

    return gevent.get_hub().threadpool


def close_store(_exc: BaseException | None = None) -> None:
    """Close the request's store (teardown); per-thread stores stay open."""
    store = g.pop("store", None)
    if store is not None and not is_postgres(str(current_app.config["DATABASE"])):
        store.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_store)
