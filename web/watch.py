"""Which games moved: one watcher per process wakes the live streams of the games that grew.

A move can be logged by any process (a worker of ``tablelog serve``, ``tablelog log`` in a
terminal), so a stream never learns of a new step from a call in its own process: it
learns it from the store.  Each process has one :class:`StepHub` (made on first use, and
made again after a fork: see :func:`hub_for`) and one *source* feeding it.  A stream says
which game it follows (:meth:`StepHub.watch`) and waits (:meth:`StepHub.wait`); the source
tells the hub how many steps a watched game has (:meth:`StepHub.moved`) and the hub wakes
only the streams of that game.

The source for SQLite is :class:`SqlitePoller`: a thread (a greenlet when gevent has
patched the process) with its own connection that asks ``PRAGMA data_version`` every
100 ms (a change means another connection committed) and only then reads the step counts
of the watched games, in one query.  The source for PostgreSQL is
:class:`PostgresListener`: a connection of its own that ``LISTEN``\\s for the store's
notifications (each committed append, from any server on the database, names its game
and step count) and calls :meth:`StepHub.moved` with them.  A source is any object with
``run(hub)`` (loop until ``hub.closed``) — see :class:`StepSource`.

>>> hub = StepHub()
>>> with hub.watch("g1"):
...     hub.moved("g1", 5)
...     hub.wait("g1", 4, timeout=0), hub.wait("g1", 5, timeout=0)
(5, None)
>>> hub.watched()
[]
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger("tablelog.web")

#: How often the SQLite watcher asks whether the database changed, in seconds.
POLL_SECONDS = 0.1


class StepSource(Protocol):
    """What tells a hub that games moved: ``run`` loops, calling ``hub.moved(game, steps)``
    for watched games whose step count it learns, until ``hub.closed``."""

    def run(self, hub: StepHub) -> None: ...


@dataclass
class _Game:
    watchers: int = 0
    #: The step count the source last reported (None until it has).
    steps: int | None = None
    #: Set (and replaced) when the game moves; made on first watch, in the serving
    #: process, so that it is gevent's when gevent patched the process.
    moved: threading.Event = field(default_factory=lambda: threading.Event())


class StepHub:
    """The games followed in this process and their waiting streams."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, _Game] = {}
        self.closed = False
        #: Streams open now in this process (a server with a fixed pool of threads caps
        #: them: see ``LIVE_MAX_STREAMS`` in :mod:`web.live`).
        self.streams = 0

    @contextmanager
    def watch(self, game_id: str) -> Iterator[None]:
        """Follow ``game_id`` for the duration of the block."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                game = self._games[game_id] = _Game()
            game.watchers += 1
            self.streams += 1
        try:
            yield
        finally:
            with self._lock:
                game.watchers -= 1
                self.streams -= 1
                if game.watchers == 0 and self._games.get(game_id) is game:
                    del self._games[game_id]

    def watched(self) -> list[str]:
        """The games some stream follows now."""
        with self._lock:
            return list(self._games)

    def moved(self, game_id: str, steps: int) -> None:
        """A source's news: ``game_id`` has ``steps`` steps.  Wakes its streams."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return
            game.steps = steps
            woken, game.moved = game.moved, threading.Event()
        woken.set()

    def wait(self, game_id: str, seen: int, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds until ``game_id`` (watched) has more than
        ``seen`` steps: its step count as the source reported it, or None on timeout.
        A stream reads the store after this answer; a spurious one costs it one read."""
        with self._lock:
            game = self._games[game_id]
            if game.steps is not None and game.steps > seen:
                return game.steps
            event = game.moved
        event.wait(timeout)
        with self._lock:
            steps = game.steps
        return steps if steps is not None and steps > seen else None

    def close(self) -> None:
        """Stop the source and wake every stream."""
        self.closed = True
        with self._lock:
            games = list(self._games.values())
        for game in games:
            game.moved.set()


class SqlitePoller:
    """A source over a SQLite file: ``PRAGMA data_version`` on a connection of its own
    every ``interval`` seconds, then, only when another connection committed (or a game
    began to be watched), the watched games' step counts in one query."""

    def __init__(self, path: str, interval: float = POLL_SECONDS):
        self.path = path
        self.interval = interval

    def run(self, hub: StepHub) -> None:
        conn = sqlite3.connect(self.path, timeout=1.0, isolation_level=None)
        try:
            self._loop(conn, hub)
        finally:
            conn.close()

    def _loop(self, conn: sqlite3.Connection, hub: StepHub) -> None:
        version: int | None = None
        known: dict[str, int] = {}
        while not hub.closed:
            games = hub.watched()
            if games:
                try:
                    now = conn.execute("PRAGMA data_version").fetchone()[0]
                    fresh = [g for g in games if g not in known]
                    if now != version or fresh:
                        version = now
                        counts = _step_counts(conn, games)
                        for game_id in games:
                            steps = counts.get(game_id)
                            if steps is not None and known.get(game_id) != steps:
                                known[game_id] = steps
                                hub.moved(game_id, steps)
                        for gone in set(known) - set(games):
                            del known[gone]
                except sqlite3.Error as exc:  # a busy or replaced file: try again later
                    log.warning("live watcher: %s", exc)
            time.sleep(self.interval)


class PostgresListener:
    """A source over a PostgreSQL database: the store's notifications of appends
    (:func:`recorder.postgres.listen`), so a move logged through any server wakes the
    streams of every server; every ``interval`` seconds, the step counts of games newly
    followed (and of all followed games after the connection was made again)."""

    def __init__(self, url: str, interval: float = POLL_SECONDS):
        self.url = url
        self.interval = interval

    def run(self, hub: StepHub) -> None:
        from recorder.postgres import listen

        known: set[str] = set()

        def tick(counts: Callable[[list[str]], dict[str, int]]) -> None:
            games = hub.watched()
            known.intersection_update(games)
            fresh = [g for g in games if g not in known]
            if fresh:
                for game_id, steps in counts(fresh).items():
                    hub.moved(game_id, steps)
                known.update(fresh)

        listen(
            self.url,
            hub.moved,
            lambda: hub.closed,
            tick=tick,
            reconnected=known.clear,
            timeout=self.interval,
        )


def _step_counts(conn: sqlite3.Connection, games: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for first in range(0, len(games), 500):
        chunk = games[first : first + 500]
        marks = ",".join("?" * len(chunk))
        out.update(
            conn.execute(
                f"SELECT game_id, event_count FROM game_summaries WHERE game_id IN ({marks})",
                chunk,
            ).fetchall()
        )
    return out


_hubs: weakref.WeakKeyDictionary[Any, tuple[int, StepHub]] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def hub_for(key: Any, make_source: Callable[[], StepSource]) -> StepHub:
    """This process's hub for ``key`` (an app), its source running on a daemon thread.
    A forked child (a gunicorn worker) gets its own hub and source on first use: a thread
    does not survive a fork.  The source stops when ``key`` is collected."""
    pid = os.getpid()
    with _hubs_lock:
        found = _hubs.get(key)
        if found is not None and found[0] == pid:
            return found[1]
        hub = StepHub()
        _hubs[key] = (pid, hub)
        weakref.finalize(key, hub.close)
    source = make_source()
    threading.Thread(target=source.run, args=(hub,), name="tablelog-watcher", daemon=True).start()
    return hub


def stop_hub(key: Any) -> None:
    """Stop the hub of ``key`` in this process, if any."""
    with _hubs_lock:
        found = _hubs.pop(key, None)
    if found is not None:
        found[1].close()


__all__ = [
    "POLL_SECONDS",
    "PostgresListener",
    "SqlitePoller",
    "StepHub",
    "StepSource",
    "hub_for",
    "stop_hub",
]
