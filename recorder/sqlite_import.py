"""The SQLite store's writer of new games: whole games from the import pipeline
(:mod:`recorder.pipeline`) and empty games for live logging, written in batches with a
few statements per batch.  :class:`recorder.sqlite.EventStore` mixes it in.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from engine.games import get_game

from . import projections
from .prepare import HASH, Prepared, dumps
from .projections import json_columns
from .records import time_ms
from .writer import GameWriter

#: SQLite's page cache while importing, as ``PRAGMA cache_size`` takes it (negative: KiB).
IMPORT_CACHE_SIZE = -65536
#: Games whose events go into the database in one statement.
GAMES_PER_STATEMENT = 8


def _insert_events_sql(games: int) -> str:
    """New games' events in one statement: SQLite's ``json_each`` turns the games' events
    JSON (their arrays of payload texts each followed by a newline and the event's text,
    see :class:`Prepared`, joined into one) into rows, numbered from 1 in each game,
    splits each at its first newline (compact JSON holds none), and takes each event's
    chain hash from the games' hashes (their :attr:`Prepared.hashes` joined into one
    blob: ``substr`` of a blob is a slice at a byte offset).  The time goes on each
    game's first event (the others share it), and no event id (each is derived from its
    place).  Parameters: payload version, recorded-at time (ms), the JSON, the hashes,
    the first game's id, then per further game its id and the index of its first event in
    the JSON.

    One call per few games instead of eight parameters per event, so the writer does
    almost nothing in Python, and nothing per event.  Several games per call, because the
    writer thread needs Python's global lock back after every statement: fewer
    statements, fewer waits for it (a few games a statement are enough; more gain
    nothing once the statement's own work dominates).

    ``json_each`` walks an array in order, so each game's events arrive in sequence; were
    it ever not to, the append trigger would refuse the insert (nothing would be stored
    out of order), so they are not sorted here: sorting would cost every import something
    for a case the trigger already refuses."""
    game, first = "?5", "0"
    for i in range(1, games):
        game = f"CASE WHEN key >= ?{5 + 2 * i} THEN ?{4 + 2 * i} ELSE {game} END"
        first = f"CASE WHEN key >= ?{5 + 2 * i} THEN ?{5 + 2 * i} ELSE {first} END"
    return (
        "INSERT INTO events (game_id, sequence, payload, payload_version, recorded_at, hash,"
        " text) SELECT game, sequence, substr(item, 1, cut - 1), ?1,"
        " CASE WHEN sequence = 1 THEN ?2 END, hash, substr(item, cut + 1) FROM (SELECT"
        f" {game} AS game, key + 1 - {first} AS sequence, value AS item,"
        " instr(value, char(10)) AS cut,"
        f" substr(?4, key * {HASH} + 1, {HASH}) AS hash FROM json_each(?3))"
    )


_INSERT_EVENTS = {n: _insert_events_sql(n) for n in range(1, GAMES_PER_STATEMENT + 1)}
#: One event, every column (:meth:`Prepared.rows`).
_INSERT_EVENT = (
    "INSERT INTO events (game_id, sequence, event_id, payload, payload_version, meta,"
    " recorded_at, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


#: The rows of new games, one statement for a whole batch (from the JSON list of
#: :attr:`Prepared.game_row`); their summaries and players follow the same way
#: (:data:`recorder.projections.INSERT_SUMMARIES`, ``INSERT_PLAYERS``).
_INSERT_GAMES = (
    "INSERT INTO games (id, kind, players, date, place, tags, headers, status, head,"
    f" created_at, last_activity) SELECT {json_columns(9)}, ?2, ?3 FROM json_each(?1)"
)
#: The same for a game whose events carry meta: ``[[payload, text, meta], ...]``, and
#: its hashes (``?5``).
_INSERT_EVENTS_WITH_META = (
    "INSERT INTO events (game_id, sequence, payload, payload_version, meta, recorded_at, hash,"
    " text) SELECT ?1, key + 1, json_extract(value, '$[0]'), ?2, json_extract(value, '$[2]'),"
    f" CASE WHEN key = 0 THEN ?3 END, substr(?5, key * {HASH} + 1, {HASH}),"
    " json_extract(value, '$[1]') FROM json_each(?4)"
)


#: Snapshots from a JSON list of (game id, step, position) rows.
_INSERT_SNAPSHOTS = (
    "INSERT INTO snapshots (game_id, step, position)"
    f" SELECT {json_columns(3)} FROM json_each(?1) WHERE true"
    " ON CONFLICT (game_id, step) DO NOTHING"
)


def _players_json(games: Sequence[Prepared]) -> str:
    """:data:`recorder.projections.INSERT_PLAYERS`' parameter for ``games``."""
    return dumps(projections.player_rows((p.game_id, p.game_row[2]) for p in games))


class SqliteImports(GameWriter):
    """SQLite's way of inserting new games (mixed into :class:`recorder.sqlite.EventStore`):
    a few statements per batch, SQLite's ``json_each`` turning JSON into rows."""

    _conn: sqlite3.Connection
    _lock: threading.RLock

    @contextmanager
    def _import_settings(self, *, threaded: bool) -> Iterator[None]:
        with self._lock:
            cache_size = self._conn.execute("PRAGMA cache_size").fetchone()[0]
            # A bigger page cache for the import: each game's rows land at their own
            # place in the event table, and the pages stay at hand for the next ones.
            self._conn.execute(f"PRAGMA cache_size = {IMPORT_CACHE_SIZE}")
        try:
            with super()._import_settings(threaded=threaded):
                yield
        finally:
            with self._lock:
                self._conn.execute(f"PRAGMA cache_size = {int(cache_size)}")

    def _insert_games(self, conn: sqlite3.Connection, games: Sequence[Prepared], now: str) -> None:
        """Insert new games: their rows, events and projections (no checks here: the
        triggers and constraints still refuse anything out of place)."""
        for p in [p for p in games if p.times is not None]:
            # A game that keeps its times (a copy): its own statements.
            created, last = p.created_and_last(now)
            one = dumps([p.game_row])
            conn.execute(_INSERT_GAMES, (one, created, last))
            conn.executemany(_INSERT_EVENT, p.rows(now))
            conn.execute(projections.INSERT_SUMMARIES, (dumps([p.summary_row]), last))
            conn.execute(projections.INSERT_PLAYERS, (_players_json([p]),))
        games = [p for p in games if p.times is None]
        if not games:
            return
        games_json = dumps([p.game_row for p in games])
        conn.execute(_INSERT_GAMES, (games_json, now, now))
        now_ms = time_ms(now)
        plain: dict[str, list[Prepared]] = {}
        for p in games:
            version = get_game(p.kind).payload_version
            if p.event_ids is None and not p.with_meta:
                plain.setdefault(p.kind, []).append(p)
            elif p.event_ids is None:
                conn.execute(
                    _INSERT_EVENTS_WITH_META, (p.game_id, version, now_ms, p.events_json, p.hashes)
                )
            else:
                conn.executemany(_INSERT_EVENT, p.rows(now))
        for kind, same in plain.items():
            version = get_game(kind).payload_version
            for start in range(0, len(same), GAMES_PER_STATEMENT):
                part = same[start : start + GAMES_PER_STATEMENT]
                events = ",".join([p.events_json[1:-1] for p in part if p.event_count])
                hashes = b"".join([p.hashes for p in part])
                params: list[Any] = [version, now_ms, f"[{events}]", hashes, part[0].game_id]
                first = part[0].event_count
                for p in part[1:]:
                    params += (p.game_id, first)
                    first += p.event_count
                conn.execute(_INSERT_EVENTS[len(part)], params)
        summaries = dumps([p.summary_row for p in games])
        conn.execute(projections.INSERT_SUMMARIES, (summaries, now))
        conn.execute(projections.INSERT_PLAYERS, (_players_json(games),))

    def _insert_snapshot_rows(
        self, conn: sqlite3.Connection, rows: list[tuple[str, int, str]]
    ) -> None:
        """Snapshots in one statement (one row at a time, each would wait for the
        interpreter's lock while another thread checks)."""
        conn.execute(_INSERT_SNAPSHOTS, (dumps(rows),))
