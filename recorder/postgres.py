"""The PostgreSQL event store: the same record, tables and contract as the SQLite one, in a
database server that many processes and machines share.

Everything backend-neutral is :class:`recorder.core.SqlStore` (appending, folding,
reading, listing), :class:`recorder.writer.GameWriter` (importing) and the services
over it (:mod:`recorder.keys`, :mod:`recorder.verify`); this module adds PostgreSQL's connections (a
psycopg 3 connection pool; each call takes a connection for its length), its schema
(:mod:`recorder.pg_schema`), the insertion of new games (``COPY`` for the events), its
own checks for ``verify``, and ``LISTEN``/``NOTIFY`` of appends.

Concurrency: writes run at PostgreSQL's default isolation (read committed).  Two writers
appending at the same step both fold and check, and both insert; the primary key
``(game_no, sequence)`` lets one commit and refuses the other, which is told the game's
new length (:class:`recorder.errors.ConcurrencyError`): the expected-step check is a
unique constraint, so it holds across any number of servers.  A transaction is all or
nothing, so a write cut short (the server stopped, the connection dropped) leaves
nothing of itself; the caller is told which database and what to do.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from . import pg_schema, projections
from .core import SqlStore
from .errors import SchemaVersionError, StoreError, unbindable
from .migrations import SCHEMA_VERSION
from .places import is_postgres, redact
from .prepare import Prepared
from .records import utc_now
from .verify import Finding
from .writer import GameWriter

log = logging.getLogger("tablelog.recorder")
# The pool warns of each failed reconnection; the store's own error says it once.
logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())

assert pg_schema.MIGRATIONS[-1][0] == SCHEMA_VERSION, "both backends at one schema version"

#: Seconds to wait for the server when connecting.
CONNECT_TIMEOUT = 10
#: Seconds a call waits for a connection of the pool (``TABLELOG_PG_TIMEOUT`` overrides):
#: all of them busy, or the server not answering.
POOL_TIMEOUT = 10.0
#: Connections a store keeps at most (``TABLELOG_PG_POOL`` overrides).
POOL_SIZE = 8
#: The server's refusal of what the role may not do, by its SQLSTATE (42501): psycopg's
#: class for it is named with a word tests/test_shared_code.py keeps out of shared code.
_NOT_ALLOWED = pg_errors.lookup("42501")

_PASSWORD_RE = re.compile(r"(password\s*=\s*)(\S+)", re.IGNORECASE)


def _reason(err: BaseException, url: str) -> str:
    """The first line of a driver's error, with any password in it hidden."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    password = urlsplit(url).password
    if password:
        text = text.replace(password, "***")
    return _PASSWORD_RE.sub(r"\1***", text)


def cannot_connect(shown: str, url: str, err: BaseException) -> StoreError:
    """The error for a database that cannot be reached, with what to do."""
    reason = _reason(err, url)
    low = reason.lower()
    if "password" in low or "authentication" in low:
        hint = "check the user and password in the URL (or in ~/.pgpass)"
    elif "does not exist" in low:
        hint = "create it (createdb, or CREATE DATABASE) or correct the URL"
    else:
        hint = "is the server running, and are the URL's host and port right?"
    return StoreError(f"{shown}: cannot connect to PostgreSQL: {reason}; {hint}")


class _Conn:
    """A psycopg connection as the shared code uses it (``?`` parameters, see
    :mod:`recorder.core`); ``raw`` is the connection itself."""

    __slots__ = ("raw",)
    _SQL: dict[str, str] = {}

    def __init__(self, raw: psycopg.Connection[Any]):
        self.raw = raw

    @classmethod
    def _sql(cls, sql: str) -> str:
        out = cls._SQL.get(sql)
        if out is None:
            out = cls._SQL[sql] = sql.replace("%", "%%").replace("?", "%s")
        return out

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> psycopg.Cursor[Any]:
        if params is None:
            return self.raw.execute(sql.encode())
        return self.raw.execute(self._sql(sql).encode(), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.raw.cursor() as cur:
            cur.executemany(self._sql(sql).encode(), rows)


def _migrate(conn: psycopg.Connection[Any], shown: str, clock: Callable[[], str]) -> None:
    """Create the schema or bring it up to date, one process at a time (an advisory lock
    of the schema), in one transaction."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('tablelog:' || current_schema()))")
        (schema,) = conn.execute("SELECT current_schema()").fetchone() or (None,)
        if schema is None:
            raise SchemaVersionError(
                f"{shown}: no schema to create the tables in (the search_path names none "
                "that exists); create it or correct the URL"
            )
        (has,) = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone() or (
            False,
        )
        version = 0
        if has:
            row = conn.execute("SELECT COALESCE(max(version), 0) FROM schema_migrations").fetchone()
            version = int(row[0]) if row else 0
        else:
            row = conn.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = %s",
                (schema,),
            ).fetchone()
            if row and row[0]:
                raise SchemaVersionError(
                    f"{shown}: the schema {schema} holds other tables; it is not a tablelog "
                    "database (give tablelog a database or a schema of its own)"
                )
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{shown}: schema version {version} is newer than this tablelog "
                f"understands ({SCHEMA_VERSION}); upgrade tablelog"
            )
        for number, description, script in pg_schema.MIGRATIONS:
            if number <= version:
                continue
            if callable(script):
                script(conn)
            else:
                conn.execute(script.encode())
            conn.execute(
                "INSERT INTO schema_migrations (version, description, applied_at)"
                " VALUES (%s, %s, %s)",
                (number, description, clock()),
            )


#: A trigger as the database keeps it, by name: whether it is enabled, then what it does
#: (its table, when it fires, its function's name, schema and body with whitespace made
#: single, its arguments and its condition).
_TRIGGERS = """
SELECT t.tgname, t.tgenabled, c.relname, t.tgtype, p.proname,
    p.pronamespace = c.relnamespace, regexp_replace(p.prosrc, '\\s+', ' ', 'g'),
    encode(t.tgargs, 'hex'), COALESCE(pg_get_expr(t.tgqual, t.tgrelid), '')
FROM pg_trigger AS t
    JOIN pg_class AS c ON c.oid = t.tgrelid
    JOIN pg_proc AS p ON p.oid = t.tgfoid
WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
"""


def _triggers(conn: psycopg.Connection[Any]) -> dict[str, tuple[Any, ...]]:
    """The triggers of the store's schema (:data:`_TRIGGERS`), by name."""
    return {row[0]: tuple(row[1:]) for row in conn.execute(_TRIGGERS.encode()).fetchall()}


_CREATED: dict[str, dict[str, tuple[Any, ...]]] = {}


def _triggers_as_created(conn: psycopg.Connection[Any]) -> dict[str, tuple[Any, ...]]:
    """The triggers a new store creates (:data:`_TRIGGERS`): the migrations applied in a
    schema of their own, in a transaction rolled back, once per server version and
    process.  What a store's triggers must still be."""
    version = str(conn.info.server_version)
    if version not in _CREATED:
        with conn.transaction():
            schema = f"tablelog_as_created_{os.getpid()}"
            conn.execute(f"CREATE SCHEMA {schema}".encode())
            conn.execute(f"SET LOCAL search_path TO {schema}".encode())
            for _, _, script in pg_schema.MIGRATIONS:
                if callable(script):
                    script(conn)
                else:
                    conn.execute(script.encode())
            _CREATED[version] = _triggers(conn)
            raise psycopg.Rollback()
    return _CREATED[version]


class PostgresStore(SqlStore, GameWriter):
    """An append-only record of games in a PostgreSQL database.  Open with :meth:`open`."""

    _integrity_errors = (pg_errors.IntegrityError,)

    def __init__(self, pool: ConnectionPool[Any], url: str, clock: Callable[[], str]):
        super().__init__(clock, url)
        self._pool = pool
        self._url = url
        #: The database as it may be shown (without its password).
        self.url = redact(url)
        self.path = None

    def __str__(self) -> str:
        return self.url

    # --- opening -----------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        clock: Callable[[], str] | None = None,
        pool_size: int | None = None,
    ) -> PostgresStore:
        """Connect to the database at ``url`` (``postgresql://user:password@host:port/db``,
        any libpq parameter in the query) and create or migrate its schema."""
        if url is None:
            url = os.environ.get("TABLELOG_DB", "")
        if not is_postgres(url):
            raise StoreError(f"{url!r} is not a PostgreSQL URL (postgresql://...)")
        shown = redact(url)
        clock = clock or utc_now
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                _migrate(conn, shown, clock)
        except psycopg.OperationalError as err:
            raise cannot_connect(shown, url, err) from None
        except psycopg.Error as err:
            raise StoreError(
                f"{shown}: not a usable tablelog database: {_reason(err, url)}"
            ) from None
        size = pool_size or int(os.environ.get("TABLELOG_PG_POOL") or POOL_SIZE)
        pool: ConnectionPool[Any] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, size),
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            timeout=float(os.environ.get("TABLELOG_PG_TIMEOUT") or POOL_TIMEOUT),
            check=ConnectionPool.check_connection,
            name="tablelog",
            open=False,
        )
        try:
            pool.open(wait=True, timeout=CONNECT_TIMEOUT)
        except PoolTimeout as err:
            pool.close()
            raise cannot_connect(shown, url, err) from None
        return cls(pool, url, clock)

    @property
    def schema_version(self) -> int:
        with self.reading() as conn:
            row = conn.execute("SELECT max(version) FROM schema_migrations", ()).fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def close(self) -> None:
        """Close the pool's connections (idempotent)."""
        self._pool.close()

    def _lost(self, err: BaseException, *, writing: bool) -> StoreError:
        reason = _reason(err, self._url)
        if writing:
            return StoreError(
                f"{self.url}: the connection to PostgreSQL was lost during a write ({reason});"
                " a write is stored whole or not at all: once the server is back, read the"
                " game again before logging (an import can simply be run again)"
            )
        return StoreError(
            f"{self.url}: PostgreSQL cannot be reached ({reason}); is the server running?"
        )

    def _connection(self) -> psycopg.Connection[Any]:
        try:
            raw: psycopg.Connection[Any] = self._pool.getconn()
        except PoolTimeout as err:
            raise StoreError(
                f"{self.url}: PostgreSQL cannot be reached ({_reason(err, self._url)}); is the"
                " server running? Nothing was written."
            ) from None
        return raw

    @contextmanager
    def reading(self) -> Iterator[_Conn]:
        """A connection of the pool (each statement its own transaction)."""
        raw = self._connection()
        try:
            yield _Conn(raw)
        except psycopg.OperationalError as err:
            raise self._lost(err, writing=False) from None
        except (UnicodeEncodeError, OverflowError, psycopg.DataError) as err:
            raise self._unusable(err) from None
        finally:
            self._pool.putconn(raw)

    @contextmanager
    def writing(self) -> Iterator[_Conn]:
        """One transaction on a connection of the pool: committed at the end of the
        block, rolled back on an error (by the server too, if the connection drops)."""
        raw = self._connection()
        try:
            with raw.transaction():
                yield _Conn(raw)
        except psycopg.OperationalError as err:
            raise self._lost(err, writing=True) from None
        except (UnicodeEncodeError, OverflowError, psycopg.DataError) as err:
            raise self._unusable(err) from None
        finally:
            self._pool.putconn(raw)

    def _unusable(self, err: UnicodeEncodeError | OverflowError | psycopg.DataError) -> StoreError:
        """The store's error for a value given to a query that the database cannot take
        (psycopg refuses a NUL in a text before sending it; the server, a number past
        its type's range)."""
        if isinstance(err, (UnicodeEncodeError, OverflowError)):
            return unbindable(err)
        return StoreError(f"a value given cannot be taken by the database: {self._describe(err)}")

    def _describe(self, err: BaseException) -> str:
        return _reason(err, self._url)

    def _notify(self, conn: Any, game_id: str, last_sequence: int) -> None:
        # Delivered when the transaction commits, and only then.
        conn.execute("SELECT pg_notify(?, ?)", (pg_schema.CHANNEL, f"{game_id} {last_sequence}"))

    # --- writing new games ---------------------------------------------------------------

    def _lock_event_types(self, conn: Any) -> None:
        # Held until the transaction ends: another writer numbering types waits, then
        # reads the numbers this one stored.
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtext('tablelog-types:' || current_schema()))"
        )

    def _new_game_numbers(self, conn: Any, count: int) -> list[int]:
        """Numbers for ``count`` new games from the games' own sequence (writers in other
        sessions take theirs from it too)."""
        return [
            int(row[0])
            for row in conn.execute(
                "SELECT nextval(pg_get_serial_sequence('games', 'no')) FROM generate_series(1, ?)",
                (count,),
            )
        ]

    def _insert_games(self, conn: Any, games: Sequence[Prepared], now: str) -> list[int]:
        """New games: their rows, their events by ``COPY`` (the triggers and constraints
        check each row as they would an ``INSERT``), summaries and players; returns their
        numbers, in order."""
        raw: psycopg.Connection[Any] = conn.raw
        numbers = self._new_game_numbers(conn, len(games))
        conn.executemany(
            "INSERT INTO games (no, id, kind, players, date, place, tags, headers, status, head,"
            " created_at, last_activity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (no, *p.game_row, *p.created_and_last(now))
                for p, no in zip(games, numbers, strict=True)
            ],
        )
        with (
            raw.cursor() as cur,
            cur.copy(
                "COPY events (game_no, sequence, event_id, type, payload, payload_version, meta,"
                " recorded_at, hash, text) FROM STDIN"
            ) as copy,
        ):
            for p, no in zip(games, numbers, strict=True):
                for row in p.rows(now, no, self._codes.get(p.kind, {})):
                    copy.write_row(row)
        conn.executemany(
            projections.UPSERT_SUMMARY,
            [(*p.summary_row, p.created_and_last(now)[1], p.game_id) for p in games],
        )
        conn.executemany(
            "INSERT INTO game_players (game_id, seat, name, folded) VALUES (?, ?, ?, ?)",
            projections.player_rows((p.game_id, p.game_row[2]) for p in games),
        )
        return numbers

    # --- upkeep ----------------------------------------------------------------------------

    def integrity_check(self) -> str:
        """``ok`` when the database's guards are whole (every trigger there and enabled,
        every constraint validated), else what is not.  The storage itself is the
        server's to check (``amcheck``, checksums)."""
        findings = self.storage_findings()
        return "\n".join(str(f) for f in findings) if findings else "ok"

    def storage_findings(self) -> list[Finding]:
        with self.reading() as conn:
            triggers = _triggers(conn.raw)
            try:
                created = _triggers_as_created(conn.raw)
            except _NOT_ALLOWED as err:
                created = None
                unchecked = Finding(
                    None,
                    None,
                    "trigger",
                    "the triggers could not be compared with the ones the store creates "
                    f"(that needs a schema of its own for a moment): {_reason(err, self._url)}",
                )
            loose = conn.execute(
                "SELECT c.conrelid::regclass::text, c.conname FROM pg_constraint AS c"
                " WHERE NOT c.convalidated AND c.connamespace = current_schema()::regnamespace"
                " ORDER BY 1, 2",
                (),
            ).fetchall()
        out = []
        for name in pg_schema.TRIGGERS:
            found = triggers.get(name)
            if found is None:
                said = f"the trigger {name} is missing: the store's refusals are off"
            elif found[0] == "D":
                said = f"the trigger {name} is disabled: the store's refusals are off"
            elif created is not None and found[1:] != created.get(name, (None,))[1:]:
                said = (
                    f"the trigger {name} is not the one the store creates: the store's "
                    "refusals may be off"
                )
            else:
                continue
            out.append(Finding(None, None, "trigger", said))
        if created is None:
            out.append(unchecked)
        return out + [
            Finding(
                None,
                None,
                "integrity",
                f"the constraint {name} of {table} is not validated: rows may break it",
            )
            for table, name in loose
        ]

    # --- following -------------------------------------------------------------------------

    def listen(self, moved: Callable[[str, int], None], closed: Callable[[], bool]) -> None:
        """Call ``moved(game id, steps)`` for every append committed by any process on
        this database (``LISTEN``), until ``closed()``; a lost connection is made again
        (the caller reads the step counts afresh through ``moved`` of its own)."""
        listen(self._url, moved, closed)


def listen(
    url: str,
    moved: Callable[[str, int], None],
    closed: Callable[[], bool],
    *,
    tick: Callable[[Callable[[list[str]], dict[str, int]]], None] | None = None,
    reconnected: Callable[[], None] | None = None,
    timeout: float = 0.5,
) -> None:
    """The loop of :meth:`PostgresStore.listen`, on a connection of its own: ``moved``
    for each notification; every ``timeout`` seconds ``tick(counts)``, where
    ``counts(game ids)`` reads those games' step counts on the same connection;
    ``reconnected`` after a lost connection is made again (appends may have been missed
    meanwhile)."""
    first = True
    while not closed():
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                conn.execute(f"LISTEN {pg_schema.CHANNEL}")
                if not first and reconnected is not None:
                    reconnected()
                first = False

                def counts(game_ids: list[str]) -> dict[str, int]:
                    rows = conn.execute(
                        "SELECT game_id, event_count FROM game_summaries WHERE game_id = ANY(%s)",
                        (list(game_ids),),
                    ).fetchall()
                    return {str(g): int(n) for g, n in rows}

                while not closed():
                    if tick is not None:
                        tick(counts)
                    for note in conn.notifies(timeout=timeout):
                        game_id, _, steps = note.payload.rpartition(" ")
                        if game_id and steps.isdigit():
                            moved(game_id, int(steps))
        except psycopg.Error as err:
            log.warning("%s: listening for moves: %s", redact(url), _reason(err, url))
            first = False
            time.sleep(1.0)


if TYPE_CHECKING:
    from .protocol import Recorder

    def _implements_recorder(store: PostgresStore) -> Recorder:
        return store  # mypy checks that PostgresStore is a Recorder
