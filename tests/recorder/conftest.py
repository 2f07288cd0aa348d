"""Fixtures for the recorder's contract tests.

Every contract test talks to the store through the ``recorder`` fixture (a
:class:`recorder.Recorder` opened by the ``backend`` fixture), which is parametrized by
store implementation, as pyeventsourcing runs one test case per backend: SQLite (a real
file) and PostgreSQL (a fresh schema of a throwaway cluster, tests/pgcluster.py).  A
backend opens a store, runs raw SQL on a separate connection, changes the record behind
the store's back, and names itself to a child process.  A test that holds only for one
backend by nature (a file's PRAGMAs) says so with ``@pytest.mark.backends("sqlite")``.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import psycopg
import pytest

from engine.splendor_duel import simulate
from recorder import EventStore, Recorder, open_store
from recorder.io import game_import_from_events
from recorder.migrations import LIST_INDEXES

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def _identity_updates(g: str, other: str) -> list[str]:
    """Plain UPDATEs of what a stored game is (kind, players, headers, date, place, tags,
    creation time), the same SQL on every backend."""
    return [
        f"UPDATE games SET kind = 'splendor' WHERE id = '{g}'",
        f"UPDATE games SET players = '[\"Eve\",\"Bo\"]' WHERE id = '{g}'",
        f"UPDATE games SET headers = {other} WHERE id = '{g}'",
        f"UPDATE games SET date = '1999-01-01' WHERE id = '{g}'",
        f"UPDATE games SET place = 'elsewhere' WHERE id = '{g}'",
        f"UPDATE games SET tags = '{{}}' WHERE id = '{g}'",
        f"UPDATE games SET created_at = 'then' WHERE id = '{g}'",
        f"UPDATE games SET no = no + 1000 WHERE id = '{g}'",
    ]


def _no(g: str) -> str:
    """SQL for the number of the game whose (quoted) id is ``g``."""
    return f"(SELECT no FROM games WHERE id = '{g}')"


def _event_type_tampers() -> list[str]:
    """Plain statements that would renumber or remove an event type (every stored
    payload of the type would change), the same SQL on every backend."""
    return [
        "UPDATE event_types SET name = 'tokens_stolen' WHERE name = 'tokens_taken'",
        "UPDATE event_types SET code = code + 100",
        "DELETE FROM event_types",
    ]


class SqliteBackend:
    """The SQLite store in a real database file under the test's tmp_path."""

    name = "sqlite"
    #: What a refused raw statement raises.
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, tmp_path: Path):
        self.path = tmp_path / "data" / "tablelog.db"

    @property
    def spec(self) -> str:
        """How a child process opens the same store (see store_spec.py)."""
        return f"sqlite:{self.path}"

    def open(self) -> EventStore:
        return EventStore.open(self.path)

    def raw(
        self, sql: str, params: tuple[Any, ...] = (), *, recursive_triggers: bool = False
    ) -> list[tuple[Any, ...]]:
        """Run SQL on a plain connection, as a SQLite shell would (no foreign keys; no
        recursive triggers unless asked for)."""
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        try:
            if recursive_triggers:
                conn.execute("PRAGMA recursive_triggers = ON")
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def tamper(self, *statements: str, keep_triggers_off: bool = False) -> None:
        """Change the record behind the store's back, as anyone holding the file can:
        drop every trigger, run ``statements`` (CHECK constraints ignored) and make the
        triggers again (unless ``keep_triggers_off``), in one transaction."""
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            triggers = conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
            ).fetchall()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("PRAGMA ignore_check_constraints = ON")
            for name, _ in triggers:
                conn.execute(f"DROP TRIGGER {name}")
            for statement in statements:
                conn.execute(statement)
            if not keep_triggers_off:
                for _, sql in triggers:
                    conn.execute(sql)
            conn.execute("COMMIT")
        finally:
            conn.close()

    def game_tamper_statements(self, game_id: str) -> list[str]:
        """Raw statements that would replace or delete a stored game, or change what it
        is (its id, kind, players, headers or creation time)."""
        g = game_id.replace("'", "''")
        other = """'{"players":["Eve","Bo"]}'"""
        return [
            f"INSERT OR REPLACE INTO games SELECT * FROM games WHERE id = '{g}'",
            f"REPLACE INTO games (id, kind, players, headers, status, created_at,"
            f" last_activity) VALUES ('{g}', 'splendor-duel', '[\"Eve\",\"Bo\"]', {other},"
            " 'finished', 'then', 'then')",
            f"REPLACE INTO games (no, id, kind, players, headers, status, created_at,"
            f" last_activity) VALUES ({_no(g)}, 'other', 'splendor-duel', '[\"Eve\",\"Bo\"]',"
            f" {other}, 'finished', 'then', 'then')",
            f"INSERT OR IGNORE INTO games (id, kind, players, headers, status, created_at,"
            f" last_activity) VALUES ('{g}', 'splendor-duel', '[\"Eve\",\"Bo\"]', {other},"
            " 'finished', 'then', 'then')",
            f"DELETE FROM games WHERE id = '{g}'",
            f"UPDATE games SET id = 'other' WHERE id = '{g}'",
            f"UPDATE OR REPLACE games SET id = 'other' WHERE id = '{g}'",
            *_identity_updates(g, other),
        ]

    def tamper_statements(self, game_id: str) -> list[str]:
        """Raw statements that would change, remove or replace a stored event."""
        g = game_id.replace("'", "''")
        no = _no(g)
        return [
            f"UPDATE events SET payload = '{{}}' WHERE game_no = {no} AND sequence = 2",
            f"UPDATE events SET type = NULL WHERE game_no = {no} AND sequence = 2",
            f"UPDATE events SET recorded_at = 'x' WHERE game_no = {no}",
            f"DELETE FROM events WHERE game_no = {no} AND sequence = 2",
            f"DELETE FROM events WHERE game_no = {no}",
            f"INSERT OR REPLACE INTO events SELECT * FROM events WHERE game_no = {no}"
            " AND sequence = 2",
            f"REPLACE INTO events (game_no, sequence, event_id, payload,"
            f" payload_version, recorded_at, text) VALUES ({no}, 2, 'other-id',"
            """ '{"type":"tokens_taken","spaces":["c3"]}', 1, 0, 'take c3')""",
            f"INSERT OR IGNORE INTO events (game_no, sequence, event_id, payload,"
            f" payload_version, recorded_at, text) VALUES ({no}, 2, 'other-id',"
            """ '{"type":"tokens_taken","spaces":["c3"]}', 1, 0, 'take c3')""",
            f"INSERT INTO events (game_no, sequence, event_id, payload,"
            f" payload_version, recorded_at, text) VALUES ({no}, 999, 'gap-id',"
            """ '{"type":"tokens_taken","spaces":["c3"]}', 1, 0, 'take c3')""",
            f"DELETE FROM games WHERE id = '{g}'",
            *_event_type_tampers(),
            "INSERT OR REPLACE INTO event_types SELECT * FROM event_types",
            "INSERT OR REPLACE INTO event_types (kind, code, name)"
            " SELECT kind, code, 'renamed' FROM event_types",
        ]

    def damage_payload(self, game_id: str, sequence: int, text: str) -> None:
        """Simulate a damaged file: overwrite one stored payload behind the store's back
        (the append-only trigger has to be lifted to do it, as it would be by a disk
        fault)."""
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            (trigger_sql,) = conn.execute(
                "SELECT sql FROM sqlite_master WHERE name = 'events_no_update'"
            ).fetchone()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("PRAGMA ignore_check_constraints = ON")
            conn.execute("DROP TRIGGER events_no_update")
            conn.execute(
                "UPDATE events SET type = NULL, payload = ?"
                " WHERE game_no = (SELECT no FROM games WHERE id = ?) AND sequence = ?",
                (text, game_id, sequence),
            )
            conn.execute(trigger_sql)
            conn.execute("COMMIT")
        finally:
            conn.close()

    def integrity_check(self) -> str:
        return str(self.raw("PRAGMA integrity_check")[0][0])

    def blob(self, data: bytes) -> str:
        """``data`` as an SQL literal."""
        return f"X'{data.hex()}'"

    def columns(self, table: str) -> set[str]:
        return {r[1] for r in self.raw(f"PRAGMA table_info({table})")}

    def views(self) -> set[str]:
        return {r[0] for r in self.raw("SELECT name FROM sqlite_master WHERE type = 'view'")}


class PostgresBackend:
    """The PostgreSQL store in a fresh schema of this test process's cluster."""

    name = "postgresql"
    integrity_errors: tuple[type[BaseException], ...] = (psycopg.errors.IntegrityError,)

    def __init__(self, url: str):
        self.url = url

    @property
    def spec(self) -> str:
        return self.url

    def open(self) -> Recorder:
        store: Recorder = open_store(self.url)
        return store

    def raw(
        self, sql: str, params: tuple[Any, ...] = (), *, recursive_triggers: bool = False
    ) -> list[tuple[Any, ...]]:
        """Run SQL on a connection of its own (``?`` parameters, as the SQLite backend
        takes them); ``recursive_triggers`` is SQLite's and means nothing here."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            cur = conn.execute(sql.replace("%", "%%").replace("?", "%s").encode(), params)
            return cur.fetchall() if cur.description else []

    def tamper(self, *statements: str, keep_triggers_off: bool = False) -> None:
        """Change the record behind the store's back, as the tables' owner can: disable
        the triggers and drop the CHECK constraints, run ``statements``, then enable the
        triggers again (unless ``keep_triggers_off``) and restore the constraints
        (validated where the rows still keep them, else NOT VALID), in one transaction."""
        with psycopg.connect(self.url, autocommit=True) as conn, conn.transaction():
            checks = conn.execute(
                "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
                " FROM pg_constraint WHERE contype = 'c'"
                " AND connamespace = current_schema()::regnamespace"
            ).fetchall()
            for table in ("events", "games", "event_types"):
                conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            for table, name, _ in checks:
                conn.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
            for statement in statements:
                conn.execute(statement.replace("%", "%%").encode())
            if not keep_triggers_off:
                for table in ("events", "games", "event_types"):
                    conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
            for table, name, definition in checks:
                try:
                    with conn.transaction():
                        conn.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
                except (psycopg.errors.CheckViolation, psycopg.errors.DataError):
                    conn.execute(
                        f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition} NOT VALID"
                    )

    def game_tamper_statements(self, game_id: str) -> list[str]:
        """Raw statements that would replace or delete a stored game, or change what it
        is (its id, kind, players, headers or creation time)."""
        g = game_id.replace("'", "''")
        other = """'{"players":["Eve","Bo"]}'"""
        return [
            f"INSERT INTO games (id, kind, players, headers, status, created_at,"
            f" last_activity) VALUES ('{g}', 'splendor-duel', '[\"Eve\",\"Bo\"]', {other},"
            " 'finished', 'then', 'then') ON CONFLICT (id) DO UPDATE SET"
            " players = excluded.players, headers = excluded.headers",
            f"DELETE FROM games WHERE id = '{g}'",
            "TRUNCATE games CASCADE",
            f"UPDATE games SET id = 'other' WHERE id = '{g}'",
            *_identity_updates(g, other),
        ]

    def tamper_statements(self, game_id: str) -> list[str]:
        """Raw statements that would change, remove or replace a stored event."""
        g = game_id.replace("'", "''")
        no = _no(g)
        take = """'{"type":"tokens_taken","spaces":["c3"]}'"""
        return [
            f"UPDATE events SET payload = '{{}}' WHERE game_no = {no} AND sequence = 2",
            f"UPDATE events SET type = NULL WHERE game_no = {no} AND sequence = 2",
            f"UPDATE events SET recorded_at = 0 WHERE game_no = {no}",
            f"DELETE FROM events WHERE game_no = {no} AND sequence = 2",
            f"DELETE FROM events WHERE game_no = {no}",
            "TRUNCATE events",
            f"INSERT INTO events SELECT * FROM events WHERE game_no = {no} AND sequence = 2"
            " ON CONFLICT (game_no, sequence) DO UPDATE SET payload = excluded.payload",
            f"INSERT INTO events (game_no, sequence, event_id, payload, payload_version,"
            f" recorded_at, hash, text) VALUES ({no}, 2, 'other-id', {take}, 1,"
            f" 0, sha256('x'), 'take c3') ON CONFLICT DO NOTHING",
            f"INSERT INTO events (game_no, sequence, event_id, payload, payload_version,"
            f" recorded_at, hash, text) VALUES ({no}, 999, 'gap-id', {take}, 1,"
            " 0, sha256('x'), 'take c3')",
            f"DELETE FROM games WHERE id = '{g}'",
            *_event_type_tampers(),
            "TRUNCATE event_types",
            "INSERT INTO event_types SELECT * FROM event_types"
            " ON CONFLICT (kind, code) DO UPDATE SET name = 'renamed'",
        ]

    def damage_payload(self, game_id: str, sequence: int, text: str) -> None:
        """Overwrite one stored payload behind the store's back."""
        literal = text.replace("'", "''")
        self.tamper(
            f"UPDATE events SET type = NULL, payload = '{literal}'"
            f" WHERE game_no = {_no(game_id)} AND sequence = {int(sequence)}"
        )

    def blob(self, data: bytes) -> str:
        return f"'\\x{data.hex()}'::bytea"

    def columns(self, table: str) -> set[str]:
        return {
            r[0]
            for r in self.raw(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ?",
                (table,),
            )
        }

    def integrity_check(self) -> str:
        with self.open() as store:
            return str(store.integrity_check())

    def views(self) -> set[str]:
        return {
            r[0]
            for r in self.raw(
                "SELECT table_name FROM information_schema.views"
                " WHERE table_schema = current_schema()"
            )
        }


BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test using ``backend`` runs once per backend, or on those its
    ``backends`` mark names."""
    if "backend" in metafunc.fixturenames:
        mark = metafunc.definition.get_closest_marker("backends")
        names = mark.args if mark else BACKENDS
        metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        return SqliteBackend(tmp_path)
    return PostgresBackend(request.getfixturevalue("pg_url"))


@pytest.fixture
def recorder(backend: Any) -> Iterator[Recorder]:
    """An open store of the backend under test (closed after the test)."""
    with backend.open() as s:
        yield s


@pytest.fixture
def store(recorder: Recorder) -> Recorder:
    """The same store, by the name the older tests use."""
    return recorder


@cache
def simulated(seed: int) -> tuple[Any, ...]:
    """A complete seeded random game's events (cached per test session)."""
    return tuple(simulate.random_game(random.Random(seed)))


def record(seed: int, players: tuple[str, str] = ("Ann", "Bo"), **headers: Any) -> Any:
    """A GameImport of simulated game ``seed``."""
    return game_import_from_events(simulated(seed), {"players": list(players), **headers})


@pytest.fixture
def games() -> Any:
    return simulated


def without_list_indexes(path: Path) -> Path:
    """A copy of the file without the games list's indexes (migration 10: each at least a
    page, which in a file of a few games weighs on each event as it never does in a
    real one)."""
    copy = path.with_name(f"unlisted-{path.name}")
    conn = sqlite3.connect(path)
    conn.execute("VACUUM INTO ?", (str(copy),))
    conn.close()
    conn = sqlite3.connect(copy)
    for statement in LIST_INDEXES.splitlines():
        conn.execute(f"DROP INDEX {statement.split()[2]}")
    conn.commit()
    conn.close()
    return copy
