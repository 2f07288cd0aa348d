"""The SQLite event store: one file, append-only events, projections for listing.

>>> import random, tempfile, os
>>> from engine.games import DEFAULT_KIND, get_game
>>> from recorder import EventStore
>>> from recorder.io import game_import_from_events
>>> events = get_game(DEFAULT_KIND).random_game(random.Random(3))
>>> with tempfile.TemporaryDirectory() as tmp:
...     with EventStore.open(os.path.join(tmp, "t.db")) as store:
...         result = store.import_game(game_import_from_events(events, {"players": ["Ann", "Bo"]}))
...         again = store.import_game(game_import_from_events(events, {"players": ["Ann", "Bo"]}))
...         (result.created, again.created, result.events == len(events),
...          store.state_at(result.game_id).is_over)
(True, False, True, True)

Writes take the database's write lock first (``BEGIN IMMEDIATE``), so concurrent writers,
in threads or processes, queue behind one another; the expected-sequence check, the rule
checks and the inserts all happen under that lock, and either everything of a call is
committed or nothing is.  See ``docs/store.md`` for the schema and the choices behind it.
"""

from __future__ import annotations

import functools
import itertools
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import SqlStore
from .errors import SchemaVersionError, StoreError, unbindable
from .listing import FOLD_FUNCTION
from .migrations import MIGRATIONS, SCHEMA_VERSION, split_sql
from .projections import fold_name
from .records import default_db_path, utc_now
from .sqlite_import import SqliteImports
from .verify import TRIGGERS, Finding

#: How long a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT_S = 30.0

#: The schema version that brought the snapshots table.
SNAPSHOTS_FROM = 4


#: Numbers the databases opened in memory.
_MEMORY = itertools.count(1)


class EventStore(SqlStore, SqliteImports):
    """An append-only record of games in one SQLite file.  Open with :meth:`open`."""

    _integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Callable[[], str]):
        # (a database in memory is a database of its own, whatever its name)
        memory = str(path) in ("", ":memory:")
        super().__init__(clock, f":memory:{next(_MEMORY)}" if memory else str(path.resolve()))
        self._conn = conn
        self._db: Any = None
        self.path = path
        self._snapshot_table = False

    def __str__(self) -> str:
        return str(self.path)

    @property
    def db(self) -> Any:
        """The connection as a ``sqlite_utils.Database`` (made when first asked for:
        importing sqlite_utils is a good part of a short command's start)."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self._conn)
        return self._db

    # --- opening -----------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], str] | None = None
    ) -> EventStore:
        """Open (creating it and its folder if need be) the database at ``path``
        (default :func:`default_db_path`), in WAL mode with ``synchronous=FULL``, and
        apply pending schema migrations.  ``clock`` returns the recorded-at text."""
        target = Path(path) if path is not None else default_db_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(
                str(target), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise StoreError(f"{target}: cannot open the database: {err}") from None
        try:
            store = cls(conn, target, clock or utc_now)
            store._configure()
            store._migrate()
            store._snapshot_table = store.schema_version >= SNAPSHOTS_FROM
        except sqlite3.DatabaseError as err:
            conn.close()
            raise StoreError(f"{target}: not a usable tablelog database: {err}") from None
        except BaseException:
            conn.close()
            raise
        return store

    def _configure(self) -> None:
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode = wal")
        # FULL: in WAL mode, NORMAL may lose the last commits on power loss; FULL syncs
        # the log at every commit, so an acknowledged event survives it.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.create_function(FOLD_FUNCTION, 1, fold_name, deterministic=True)

    def _migrate(self) -> None:
        conn = self._conn
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.path}: schema version {version} is newer than this tablelog "
                f"understands ({SCHEMA_VERSION}); upgrade tablelog"
            )
        with self.writing():
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if (
                version == 0
                and conn.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                ).fetchone()[0]
            ):
                raise SchemaVersionError(
                    f"{self.path}: this SQLite file holds other tables; it is not a "
                    "tablelog database"
                )
            for number, description, script in MIGRATIONS:
                if number <= version:
                    continue
                if callable(script):
                    script(conn)
                else:
                    for statement in split_sql(script):
                        conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (version, description, applied_at) "
                    "VALUES (?, ?, ?)",
                    (number, description, self.clock()),
                )
                conn.execute(f"PRAGMA user_version = {number}")

    @property
    def schema_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The store's one connection, this thread's for the block."""
        with self._lock:
            try:
                yield self._conn
            except (UnicodeEncodeError, OverflowError) as err:
                raise unbindable(err) from None

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the database's write lock from its start."""
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException as err:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(err, (UnicodeEncodeError, OverflowError)):
                    raise unbindable(err) from None
                raise
            try:
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # --- upkeep -------------------------------------------------------------------------

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``ok`` when the file is sound)."""
        with self._lock:
            rows = self._conn.execute("PRAGMA integrity_check").fetchall()
        return "\n".join(str(r[0]) for r in rows)

    def storage_findings(self) -> list[Finding]:
        """The file's own findings: SQLite's integrity check, the foreign keys, and the
        triggers that keep the record append-only."""
        with self._lock:
            integrity = [str(r[0]) for r in self._conn.execute("PRAGMA integrity_check")]
            foreign = self._conn.execute("PRAGMA foreign_key_check").fetchall()
            triggers = dict(
                self._conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
            )
        out = [Finding(None, None, "integrity", line) for line in integrity if line != "ok"]
        out += [
            Finding(
                None, None, "foreign_key", f"a row of {table} refers to a missing row of {parent}"
            )
            for table, _, parent, _ in foreign
        ]
        created = _triggers_as_created()
        for name in TRIGGERS:
            if name not in triggers:
                said = f"the trigger {name} is missing: the store's refusals are off"
            elif " ".join(str(triggers[name]).split()) != created.get(name):
                said = (
                    f"the trigger {name} is not the one the store creates: the store's "
                    "refusals may be off"
                )
            else:
                continue
            out.append(Finding(None, None, "trigger", said))
        return out


@functools.cache
def _triggers_as_created() -> dict[str, str]:
    """The SQL of each trigger a new store creates (its migrations applied to an empty
    database in memory), whitespace made single: what a file's triggers must still be."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        store = EventStore(conn, Path(":memory:"), utc_now)
        store._configure()
        store._migrate()
        return {
            name: " ".join(sql.split())
            for name, sql in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
            )
        }
    finally:
        conn.close()


if TYPE_CHECKING:
    from .protocol import Recorder

    def _implements_recorder(store: EventStore) -> Recorder:
        return store  # mypy checks that EventStore is a Recorder


def bytes_per_event(path: str | os.PathLike[str]) -> float:
    """What a stored event costs on disk: the file's size after ``VACUUM`` (into a copy,
    removed after) over its events."""
    path = Path(path)
    copy = path.with_name(f"vacuumed-{path.name}")
    for suffix in ("", "-wal", "-shm"):
        Path(str(copy) + suffix).unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM INTO ?", (str(copy),))
        (events,) = conn.execute("SELECT count(*) FROM events").fetchone()
    finally:
        conn.close()
    size = os.path.getsize(copy)
    copy.unlink()
    return size / int(events)
