"""The SQLite store's writer of new games: whole games from the import pipeline
(:mod:`recorder.pipeline`) and empty games for live logging, written in batches with a
few statements per batch.  :class:`recorder.sqlite.EventStore` mixes it in.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
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


def type_case(name: str, codes: tuple[tuple[str, int], ...]) -> str:
    """SQL for the number of the event type named by the expression ``name``, from
    ``codes`` (name, number) of the game's kind: NULL for any other (a payload kept
    whole; a name is letters, digits and ``_``, so it is written as it is)."""
    if not codes:
        return "NULL"
    whens = " ".join(f"WHEN '{type_name}' THEN {int(code)}" for type_name, code in codes)
    return f"CASE {name} {whens} END"


@cache
def insert_events_sql(games: int, codes: tuple[tuple[str, int], ...]) -> str:
    """New games' events in one statement: SQLite's ``json_each`` turns the games' events
    JSON (their arrays of payloads as stored, each followed by a newline and the event's
    text, see :class:`Prepared`, joined into one) into rows, numbered from 1 in each
    game, splits each at its first ``{`` (the type's name before it: its number from
    ``codes``, the game kind's, see :func:`type_case`) and at its first newline (compact
    JSON holds none), and takes each event's chain hash from the games' hashes (their
    :attr:`Prepared.hashes` joined into one blob: ``substr`` of a blob is a slice at a
    byte offset).  The time goes on each game's first event (the others share it), and
    no event id (each is derived from its place).  Parameters: payload version,
    recorded-at time (ms), the JSON, the hashes, the first game's number, then per
    further game its number and the index of its first event in the JSON.

    One call per few games instead of ten parameters per event, so the writer does
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
        "INSERT INTO events (game_no, sequence, type, payload, payload_version, recorded_at,"
        f" hash, text) SELECT game, sequence, {type_case('substr(item, 1, open - 1)', codes)},"
        " substr(item, open, cut - open), ?1, CASE WHEN sequence = 1 THEN ?2 END, hash,"
        f" substr(item, cut + 1) FROM (SELECT {game} AS game, key + 1 - {first} AS sequence,"
        " value AS item, instr(value, '{') AS open, instr(value, char(10)) AS cut,"
        f" substr(?4, key * {HASH} + 1, {HASH}) AS hash FROM json_each(?3))"
    )


#: One event, every column (:meth:`Prepared.rows`).
_INSERT_EVENT = (
    "INSERT INTO events (game_no, sequence, event_id, type, payload, payload_version, meta,"
    " recorded_at, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


#: The rows of new games, one statement for a whole batch (from a JSON list of each
#: game's number and :attr:`Prepared.game_row`); their summaries and players follow the
#: same way (:data:`recorder.projections.INSERT_SUMMARIES`, ``INSERT_PLAYERS``).
_INSERT_GAMES = (
    "INSERT INTO games (no, id, kind, players, date, place, tags, headers, status, head,"
    f" created_at, last_activity) SELECT {json_columns(10)}, ?2, ?3 FROM json_each(?1)"
)


@cache
def insert_events_with_meta_sql(codes: tuple[tuple[str, int], ...]) -> str:
    """The same for a game whose events carry meta: ``[[type, rest of the payload,
    text, meta], ...]`` (``?4``), and its hashes (``?5``); the game's number ``?1``."""
    type_number = type_case("json_extract(value, '$[0]')", codes)
    return (
        "INSERT INTO events (game_no, sequence, type, payload, payload_version, meta,"
        f" recorded_at, hash, text) SELECT ?1, key + 1, {type_number},"
        " json_extract(value, '$[1]'), ?2, json_extract(value, '$[3]'),"
        f" CASE WHEN key = 0 THEN ?3 END, substr(?5, key * {HASH} + 1, {HASH}),"
        " json_extract(value, '$[2]') FROM json_each(?4)"
    )


#: Snapshots from a JSON list of (game number, step, offset, length) rows (``?1``) and
#: their packed positions one after the other (``?2``: ``substr`` of a blob is a slice).
_INSERT_SNAPSHOTS = (
    "INSERT INTO snapshots (game_no, step, position)"
    " SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " substr(?2, json_extract(value, '$[2]'), json_extract(value, '$[3]'))"
    " FROM json_each(?1) WHERE true ON CONFLICT (game_no, step) DO NOTHING"
)


def _sorted(codes: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """A kind's type numbers as :func:`insert_events_sql` takes them (a key of its cache)."""
    return tuple(sorted(codes.items()))


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

    def _insert_games(
        self, conn: sqlite3.Connection, games: Sequence[Prepared], now: str
    ) -> list[int]:
        """Insert new games: their rows, events and projections (no checks here: the
        triggers and constraints still refuse anything out of place); returns their
        numbers, in order."""
        numbers = self._new_game_numbers(conn, len(games))
        for p, no in [(p, no) for p, no in zip(games, numbers, strict=True) if p.times is not None]:
            # A game that keeps its times (a copy): its own statements.
            created, last = p.created_and_last(now)
            conn.execute(_INSERT_GAMES, (dumps([[no, *p.game_row]]), created, last))
            conn.executemany(_INSERT_EVENT, p.rows(now, no, self._codes.get(p.kind, {})))
            conn.execute(projections.INSERT_SUMMARIES, (dumps([p.summary_row]), last))
            conn.execute(projections.INSERT_PLAYERS, (_players_json([p]),))
        new = [(p, no) for p, no in zip(games, numbers, strict=True) if p.times is None]
        if not new:
            return numbers
        games_json = dumps([[no, *p.game_row] for p, no in new])
        conn.execute(_INSERT_GAMES, (games_json, now, now))
        now_ms = time_ms(now)
        plain: dict[str, list[tuple[Prepared, int]]] = {}
        for p, no in new:
            version = get_game(p.kind).payload_version
            codes = self._codes.get(p.kind, {})
            if p.event_ids is not None or not p.types <= codes.keys():
                # Given event ids, or a type without its number (its payloads kept whole).
                conn.executemany(_INSERT_EVENT, p.rows(now, no, codes))
            elif p.with_meta:
                conn.execute(
                    insert_events_with_meta_sql(_sorted(codes)),
                    (no, version, now_ms, p.events_json, p.hashes),
                )
            else:
                plain.setdefault(p.kind, []).append((p, no))
        for kind, same in plain.items():
            version = get_game(kind).payload_version
            codes_sql = _sorted(self._codes.get(kind, {}))
            for start in range(0, len(same), GAMES_PER_STATEMENT):
                part = same[start : start + GAMES_PER_STATEMENT]
                events = ",".join([p.events_json[1:-1] for p, _ in part if p.event_count])
                hashes = b"".join([p.hashes for p, _ in part])
                params: list[Any] = [version, now_ms, f"[{events}]", hashes, part[0][1]]
                first = part[0][0].event_count
                for p, no in part[1:]:
                    params += (no, first)
                    first += p.event_count
                conn.execute(insert_events_sql(len(part), codes_sql), params)
        summaries = dumps([p.summary_row for p, _ in new])
        conn.execute(projections.INSERT_SUMMARIES, (summaries, now))
        conn.execute(projections.INSERT_PLAYERS, (_players_json([p for p, _ in new]),))
        return numbers

    def _insert_snapshot_rows(
        self, conn: sqlite3.Connection, rows: list[tuple[int, int, bytes]]
    ) -> None:
        """Snapshots in one statement (one row at a time, each would wait for the
        interpreter's lock while another thread checks)."""
        places = []
        offset = 1
        for no, step, packed in rows:
            places.append((no, step, offset, len(packed)))
            offset += len(packed)
        conn.execute(_INSERT_SNAPSHOTS, (dumps(places), b"".join([r[2] for r in rows])))
