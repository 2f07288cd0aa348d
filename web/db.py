"""The event store behind the site: one connection per request (Flask's ``g``), or, when
``STORE_PER_THREAD`` is set (as ``tablelog serve`` does with its fixed pool of worker
threads), one long-lived connection per worker thread.

Under gevent (``tablelog serve``'s workers) every connection is a greenlet of the worker's
one thread, and they all share that thread's store: a greenlet never yields inside a call
to the store (SQLite is a local file, read and written without a network wait), so they
take turns with it as the requests of a sync worker would, and share its folded states."""

from __future__ import annotations

import contextvars
import functools
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, g

from recorder import EventStore


def _os_thread_local() -> Any:
    """A ``threading.local`` of OS threads, also where gevent patched ``threading``
    to give each greenlet its own (see the module's docstring)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        return monkey.get_original("threading", "local")()
    return threading.local()


_local = _os_thread_local()
T = TypeVar("T")


def get_store() -> Any:
    """The EventStore for the current request."""
    app = current_app
    if app.config.get("STORE_PER_THREAD"):
        return thread_store(str(app.config["DATABASE"]))
    if "store" not in g:
        g.store = EventStore.open(str(app.config["DATABASE"]))
    return g.store


def thread_store(path: str) -> Any:
    """This thread's long-lived EventStore over ``path``."""
    stores: dict[str, Any] | None = getattr(_local, "stores", None)
    if stores is None:
        stores = _local.stores = {}
    store = stores.get(path)
    if store is None:
        store = stores[path] = EventStore.open(path)
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
        return pool.apply(context.run, (func, *args), kwargs)  # type: ignore[no-any-return]

    return run


def _gevent_pool() -> Any:
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("threading"):
        return None
    import gevent

    return gevent.get_hub().threadpool


def close_store(_exc: BaseException | None = None) -> None:
    """Close the request's store (teardown); per-thread stores stay open."""
    store = g.pop("store", None)
    if store is not None:
        store.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_store)
