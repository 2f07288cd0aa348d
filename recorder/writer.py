"""Writing new games, whatever the database: whole games from the import pipeline
(:mod:`recorder.pipeline`), each whole or not at all, a batch of them per transaction,
compared with a stored game of the same id or setup; and empty games for live logging.
Each store mixes in :class:`GameWriter` and supplies how a batch of new games goes into
its tables (:meth:`GameWriter._insert_games`: :mod:`recorder.sqlite_import`,
:mod:`recorder.postgres`).
"""

from __future__ import annotations

import abc
import json
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from engine.games import DEFAULT_KIND, get_game

from . import chain, pipeline, projections
from .chain import identity_headers
from .errors import ImportRejected
from .pipeline import DEFAULT_BATCH, TASK_GAMES, Tagged, Written
from .prepare import Prepared, prepare_game, user_meta_json
from .records import GameImport, GameRow, ImportResult, time_ms
from .review import body_json as review_body_json
from .stored import EVENTS_OF_GAMES, GAME_NO, PAYLOAD, pack_position, split_type, stored_payload

#: Most ``?`` parameters in one statement.
_MAX_PARAMS = 500

#: A connection as the shared code uses it (see :mod:`recorder.core`).
Conn = Any


def _found(conn: Conn, select: str, values: Sequence[str]) -> set[str]:
    """Which of ``values`` the query ``select`` (ending in ``IN``) finds, one look-up per
    few hundred values."""
    found: set[str] = set()
    for start in range(0, len(values), _MAX_PARAMS):
        part = values[start : start + _MAX_PARAMS]
        found.update(
            row[0] for row in conn.execute(f"{select} ({','.join('?' * len(part))})", part)
        )
    return found


def _stored_game_ids(conn: Conn, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` name stored games."""
    return _found(conn, "SELECT id FROM games WHERE id IN", ids)


def _stored_setups(conn: Conn, setups: Sequence[str]) -> set[str]:
    """Which of ``setups`` (setup payload JSON texts) begin a stored game: looked up by
    the rest of the payload, as the index of setups keeps it (``events_setup``)."""
    rests = sorted({split_type(setup)[1] for setup in setups})
    found = _found(
        conn,
        f"SELECT {PAYLOAD} FROM {EVENTS_OF_GAMES} WHERE e.sequence = 1 AND e.payload IN",
        rests,
    )
    return found & set(setups)


def _types_wanted(games: Iterable[Prepared | ImportRejected]) -> dict[str, set[str]]:
    """The event types of prepared ``games``, by kind."""
    wanted: dict[str, set[str]] = {}
    for p in games:
        if isinstance(p, Prepared) and p.types:
            wanted.setdefault(p.kind, set()).update(p.types)
    return wanted


class GameWriter(abc.ABC):
    """Importing and creating games (a base of each store: :class:`recorder.core.SqlStore`
    gives the store's own methods named here, each backend its connections and how it
    inserts new games)."""

    _lock: threading.RLock
    clock: Callable[[], str]
    _integrity_errors: tuple[type[BaseException], ...]
    #: Whether the store's schema keeps snapshots (every store's since schema 4).
    _snapshot_table: bool
    #: The numbers of event types by kind and name (the store's own, see
    #: :meth:`recorder.core.SqlStore._number_types`).
    _codes: dict[str, dict[str, int]]

    @abc.abstractmethod
    def writing(self) -> AbstractContextManager[Conn]:
        """One write transaction (the store's own)."""

    @abc.abstractmethod
    def _now(self) -> tuple[str, int]:
        """Now, as text and as milliseconds (the store's own, :meth:`SqlStore._now`)."""

    def _notify(self, conn: Conn, game_id: str, last_sequence: int) -> None:  # noqa: B027 (a hook)
        """Tell followers that ``game_id`` grew (the store's own)."""

    @abc.abstractmethod
    def _number_types(self, wanted: Mapping[str, Iterable[str]]) -> None:
        """Number the event types of ``wanted`` that are not yet (the store's own, see
        :meth:`recorder.core.SqlStore._number_types`)."""

    def _types_known(self, games: Iterable[Prepared | ImportRejected]) -> bool:
        """Whether every event type of prepared ``games`` has its number already."""
        codes = self._codes
        return all(
            p.types <= codes.get(p.kind, {}).keys()
            for p in games
            if isinstance(p, Prepared) and p.types
        )

    def _new_game_numbers(self, conn: Conn, count: int) -> list[int]:
        """Numbers for ``count`` new games (``games.no``), in the caller's transaction
        (which holds the database's write lock): the next ones after the last game's, and
        after any event or snapshot left behind without its game (written with foreign
        keys off), so that a number is never given twice."""
        (last,) = conn.execute(
            "SELECT max(COALESCE((SELECT MAX(no) FROM games), 0),"
            " COALESCE((SELECT MAX(game_no) FROM events), 0),"
            " COALESCE((SELECT MAX(game_no) FROM snapshots), 0))"
        ).fetchone()
        return list(range(int(last) + 1, int(last) + 1 + count))

    @abc.abstractmethod
    def _insert_games(self, conn: Conn, games: Sequence[Prepared], now: str) -> list[int]:
        """Insert new games: their rows, events and projections (no checks here: the
        triggers and constraints still refuse anything out of place); returns their
        numbers (``games.no``), in order."""

    def _insert_snapshots(
        self, conn: Conn, games: Sequence[Prepared], numbers: Sequence[int], after: int = 0
    ) -> None:
        """Keep the prepared games' snapshots past step ``after`` (caches: a step is then
        folded from the nearest, not from the first event), under the games' numbers
        (those of the stored games they go into), each position packed here, by the
        writer: deflating lets go of Python's global lock, so an import's checking thread
        goes on meanwhile."""
        if not self._snapshot_table:
            return
        rows = [
            (no, step, pack_position(position))
            for p, no in zip(games, numbers, strict=True)
            for step, position in p.snapshots
            if step > after
        ]
        if rows:
            self._insert_snapshot_rows(conn, rows)

    def _insert_snapshot_rows(self, conn: Conn, rows: list[tuple[int, int, bytes]]) -> None:
        """Insert snapshot rows (game number, step, packed position), keeping any stored
        one."""
        conn.executemany(
            "INSERT INTO snapshots (game_no, step, position) VALUES (?, ?, ?)"
            " ON CONFLICT (game_no, step) DO NOTHING",
            rows,
        )

    @contextmanager
    def _import_settings(self, *, threaded: bool) -> Iterator[None]:
        """The database's settings for a long import, and prompt thread switches when a
        thread of this process writes (:func:`recorder.pipeline.prompt_thread_switches`)."""
        if threaded:
            with pipeline.prompt_thread_switches():
                yield
        else:
            yield

    @abc.abstractmethod
    def game(self, game_id: str) -> GameRow:
        """The game's row (the store's own, :meth:`recorder.core.SqlStore.game`)."""

    # --- importing ---------------------------------------------------------------------

    def import_game(self, record: GameImport) -> ImportResult:
        """Check every event of a whole game with the engine and store it in one
        transaction, or nothing (ImportRejected names the first bad event).  Importing
        the same content again changes nothing and returns ``created=False``."""
        result = self._write_batch([prepare_game(record)])[0]
        if isinstance(result, ImportRejected):
            raise result
        return result

    def import_games(
        self,
        records: Sequence[GameImport],
        *,
        batch_size: int = DEFAULT_BATCH,
        workers: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[ImportResult | ImportRejected]:
        """Import many games: each is stored whole or not at all, as with
        :meth:`import_game`, but up to ``batch_size`` games share one transaction (one
        sync to disk).  With ``workers`` > 1 the validation and rule checking (pure,
        CPU-bound) run in that many processes while this one writes.  ``progress`` is
        called with the number of games done after each batch.  Returns, per record, its
        result or the error that refused it."""
        batch_size = max(1, batch_size)
        if workers <= 1 or len(records) <= batch_size:
            workers = 0
        size = max(1, min(TASK_GAMES, batch_size))
        chunks = (records[i : i + size] for i in range(0, len(records), size))
        out: list[ImportResult | ImportRejected] = []
        ahead = 2 * batch_size // size + workers
        for written in self.import_stream(
            chunks, pipeline.prepare_chunk, workers, batch_size, ahead
        ):
            out.extend(result for _, result in written)
            if progress:
                progress(len(out))
        return out

    def import_stream(
        self,
        tasks: Iterable[Any],
        prepare: Callable[[Any], list[Tagged]],
        workers: int = 0,
        batch_size: int = DEFAULT_BATCH,
        ahead: int = 8,
    ) -> Iterator[list[Written]]:
        """The import pipeline: ``prepare`` turns each task into ``(tag, prepared game or
        the error that refused it)`` pairs, in ``workers`` processes when more than one
        (else here), and this process writes them ``batch_size`` games per transaction;
        yields each written batch as ``(tag, result)`` pairs, in task order.  With
        processes, up to ``ahead`` tasks are in flight: enough to keep them checking while
        a batch is written.

        ``prepare`` must be a module-level function (it is sent to the processes by
        name); :func:`prepare_game` makes a prepared game from a :class:`GameImport`."""
        batch_size = max(1, batch_size)
        groups = pipeline.groups(
            pipeline.prepared_chunks(tasks, prepare, workers, ahead), batch_size
        )
        with self._import_settings(threaded=workers <= 1):
            if workers > 1:
                # The processes check; this thread only writes.
                yield from self._write_stream(iter(groups), batch_size)
            else:
                yield from pipeline.write_in_thread(
                    groups, lambda handed: self._write_stream(handed, batch_size), batch_size
                )

    def _write_stream(
        self, groups: Iterator[Sequence[Tagged]], batch_size: int
    ) -> Iterator[list[Written]]:
        """Write ``groups`` of prepared games ``batch_size`` games per transaction (or
        fewer at the end), each group as soon as it comes; yields each batch's results
        once it is committed.  A group holding an event type the store has not numbered
        yet starts a new transaction, after the numbering's own (rare: a type numbered
        once is numbered for good)."""
        group = next(groups, None)
        while group is not None:
            self._number_types(_types_wanted(item for _, item in group))
            out: list[Written] = []
            with self.writing() as conn:
                now = self._now()[0]
                out += self._write_tagged(conn, group, now)
                group = None
                while len(out) < batch_size and (more := next(groups, None)) is not None:
                    if not self._types_known(item for _, item in more):
                        group = more
                        break
                    out += self._write_tagged(conn, more, now)
            yield out
            if group is None:
                group = next(groups, None)

    def _write_tagged(self, conn: Conn, items: Sequence[Tagged], now: str) -> list[Written]:
        results = self._write_games(conn, [item for _, item in items], now)
        return [(tag, result) for (tag, _), result in zip(items, results, strict=True)]

    def _write_batch(
        self, prepared: Sequence[Prepared | ImportRejected]
    ) -> list[ImportResult | ImportRejected]:
        """Write prepared games in one transaction, each whole or not at all; returns per
        game its result or the error that refused it."""
        self._number_types(_types_wanted(prepared))
        with self.writing() as conn:
            return self._write_games(conn, prepared, self._now()[0])

    def _write_games(
        self,
        conn: Conn,
        prepared: Sequence[Prepared | ImportRejected],
        now: str,
    ) -> list[ImportResult | ImportRejected]:
        results: list[ImportResult | ImportRejected | None] = [None] * len(prepared)
        stored = _stored_game_ids(conn, [p.game_id for p in prepared if isinstance(p, Prepared)])
        setups = _stored_setups(
            conn,
            [
                p.setup_json
                for p in prepared
                if isinstance(p, Prepared) and p.derived and p.setup_json
            ],
        )
        seen: set[str] = set()
        fast: list[int] = []
        slow: list[int] = []
        for i, p in enumerate(prepared):
            if isinstance(p, ImportRejected):
                results[i] = p
                continue
            # New games with derived event ids cannot clash with anything stored or with
            # one another, so they are inserted together; a game already stored (or seen
            # earlier in the batch, or whose setup is: it may be the same game under
            # another id) is compared, and one with given event ids may clash, so those
            # go one by one, each under its own savepoint.
            if (
                p.game_id in stored
                or p.game_id in seen
                or p.event_ids is not None
                or (p.derived and (p.setup_json in setups or p.setup_json in seen))
            ):
                slow.append(i)
            else:
                fast.append(i)
            seen.add(p.game_id)
            if p.derived and p.setup_json is not None:
                seen.add(p.setup_json)
        if fast:
            conn.execute("SAVEPOINT new_games")
            try:
                new_games = [prepared[i] for i in fast]
                numbers = self._insert_games(conn, new_games, now)  # type: ignore[arg-type]
                self._insert_snapshots(conn, new_games, numbers)  # type: ignore[arg-type]
            except self._integrity_errors:
                # Not expected; write them one by one below, where a refusal is one game's.
                conn.execute("ROLLBACK TO new_games")
                slow = sorted(slow + fast)
                fast = []
            conn.execute("RELEASE new_games")
            for i in fast:
                p = prepared[i]
                assert isinstance(p, Prepared)
                results[i] = ImportResult(p.game_id, True, p.event_count, p.flagged)
        for i in slow:
            p = prepared[i]
            assert isinstance(p, Prepared)
            conn.execute("SAVEPOINT game")
            try:
                results[i] = self._write_prepared(conn, p, now)
            except ImportRejected as err:
                conn.execute("ROLLBACK TO game")
                results[i] = err
            conn.execute("RELEASE game")
        for p, result in zip(prepared, results, strict=True):
            if isinstance(p, Prepared) and p.review_json and isinstance(result, ImportResult):
                self._insert_review(conn, result.game_id, p.review_json, now)
        return results  # type: ignore[return-value]

    @staticmethod
    def _insert_review(conn: Conn, game_id: str, review_json: str, now: str) -> None:
        """The review a file held, as the game's review events, in the transaction that
        writes the game; a game that has a review already keeps its own."""
        if conn.execute(
            "SELECT 1 FROM review_events WHERE game_id = ? LIMIT 1", (game_id,)
        ).fetchone():
            return
        for seq, (kind, body, author) in enumerate(json.loads(review_json), start=1):
            conn.execute(
                "INSERT INTO review_events (game_id, seq, kind, body, author, recorded_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, review_body_json(body), author, now),
            )

    def create_game(
        self, headers: dict[str, Any], *, kind: str = DEFAULT_KIND, game_id: str | None = None
    ) -> GameRow:
        """A new game with no events yet, for logging live with :meth:`append`.  Without
        ``game_id`` a fresh random id is chosen; an id already in use is refused."""
        record = GameImport(
            kind=kind, headers=headers, events=[], game_id=game_id or secrets.token_hex(6)
        )
        prepared = prepare_game(record)
        taken = ImportRejected(None, f"game {prepared.game_id} already exists", "id")
        with self.writing() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (prepared.game_id,)).fetchone():
                raise taken
            try:
                self._insert_games(conn, [prepared], self._now()[0])
            except self._integrity_errors:
                # (PostgreSQL: another writer stored the id after the look above)
                raise taken from None
        return self.game(prepared.game_id)

    def _write_prepared(
        self, conn: Conn, p: Prepared, now: str, looked_again: bool = False
    ) -> ImportResult:
        """Write one game, comparing it with a stored game of the same id."""
        gid = p.game_id
        existing = conn.execute("SELECT kind, headers FROM games WHERE id = ?", (gid,)).fetchone()
        if existing is not None and self._same_content(conn, p, existing):
            return ImportResult(gid, False, p.event_count, p.flagged)
        if p.derived and p.setup_json is not None:
            found = self._same_game(conn, p, now)
            if found is not None:
                return found
        if existing is not None:
            raise ImportRejected(None, f"game {gid} is already stored with different content", "id")
        if p.event_ids is not None:
            given = [eid for eid in p.event_ids if eid is not None]
            taken = {
                row[0]: row[1:]
                for start in range(0, len(given), _MAX_PARAMS)
                for row in conn.execute(
                    "SELECT e.event_id, g.id, e.sequence FROM events AS e JOIN games AS g"
                    " ON g.no = e.game_no WHERE e.event_id IN ("
                    + ",".join("?" * len(given[start : start + _MAX_PARAMS]))
                    + ")",
                    given[start : start + _MAX_PARAMS],
                )
            }
            for number, eid in enumerate(p.event_ids, start=1):
                if eid in taken:
                    other, seq = taken[eid]
                    raise ImportRejected(
                        number,
                        f"event id {eid!r} is already stored (game {other}, event {seq})",
                        "event_id",
                    )
        conn.execute("SAVEPOINT insert_game")
        try:
            numbers = self._insert_games(conn, [p], now)
            self._insert_snapshots(conn, [p], numbers)
        except self._integrity_errors as err:
            conn.execute("ROLLBACK TO insert_game")
            conn.execute("RELEASE insert_game")
            if (
                not looked_again
                and conn.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone()
            ):
                # Stored by another writer since the look above (PostgreSQL, where writers
                # do not wait for each other's transactions): compared as any stored game.
                return self._write_prepared(conn, p, now, looked_again=True)
            raise ImportRejected(None, f"game {gid} cannot be stored: {err}") from None
        conn.execute("RELEASE insert_game")
        return ImportResult(gid, True, p.event_count, p.flagged)

    def _same_game(self, conn: Conn, p: Prepared, now: str) -> ImportResult | None:
        """A stored game that ``p`` is a record of (same kind, same headers but those of
        the outcome, its events the same as ``p``'s first ones or ``p``'s the same as its
        first ones): found, with the events ``p`` has beyond it appended; None if none."""
        setup = p.setup_json
        if setup is None:
            return None
        headers = identity_headers(json.loads(p.headers_json))
        rows = p.event_rows()
        for (gid,) in conn.execute(
            f"SELECT g.id FROM {EVENTS_OF_GAMES} WHERE e.sequence = 1 AND e.payload = ?"
            f" AND g.kind = ? AND {PAYLOAD} = ? ORDER BY g.created_at, g.id",
            (split_type(setup)[1], p.kind, setup),
        ).fetchall():
            (stored_headers,) = conn.execute(
                "SELECT headers FROM games WHERE id = ?", (gid,)
            ).fetchone()
            if identity_headers(json.loads(stored_headers)) != headers:
                continue
            payloads = [
                r[0]
                for r in conn.execute(
                    f"SELECT {PAYLOAD} FROM {EVENTS_OF_GAMES} WHERE g.id = ? ORDER BY e.sequence",
                    (gid,),
                )
            ]
            shared = min(len(payloads), len(rows))
            if any(payloads[i] != rows[i][0] for i in range(shared)):
                continue
            if len(rows) <= len(payloads):
                return ImportResult(gid, False, len(payloads), [])
            self._extend(conn, gid, p, rows, len(payloads), now)
            return ImportResult(
                gid,
                False,
                len(rows),
                [(seq, v) for seq, v in p.flagged if seq > len(payloads)],
                appended=len(rows) - len(payloads),
            )
        return None

    def _extend(
        self,
        conn: Conn,
        gid: str,
        p: Prepared,
        rows: Sequence[tuple[str, str, str | None, bytes]],
        stored: int,
        now: str,
    ) -> None:
        """Append to stored game ``gid`` the events of ``p`` after its first ``stored``
        (checked: ``p`` was folded whole: their texts are the stored game's too, the
        same events in the same positions), and bring its summary up to date."""
        version = get_game(p.kind).payload_version
        # The stored game's chain goes on from its own last hash: its events may carry
        # meta that ``p``'s do not (only their payloads were compared).
        no, last = conn.execute(
            f"SELECT game_no, hash FROM events WHERE game_no = {GAME_NO} AND sequence = ?",
            (gid, stored),
        ).fetchone()
        h = bytes(last)
        now_ms = time_ms(now)
        codes = self._codes.get(p.kind, {})
        new = []
        for seq, (payload, text, meta, _) in enumerate(rows[stored:], start=stored + 1):
            h = chain.link(h, chain.content(payload, chain.logger_meta(meta)))
            ms = now_ms if seq == stored + 1 else None
            new.append((no, seq, None, *stored_payload(codes, payload), version, meta, ms, h, text))
        conn.executemany(
            "INSERT INTO events (game_no, sequence, event_id, type, payload, payload_version,"
            " meta, recorded_at, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            new,
        )
        summary = (gid, *p.summary_row[1:])
        conn.execute(
            "UPDATE games SET status = ?, last_activity = ?, head = ? WHERE id = ?",
            (summary[3], now, h.hex(), gid),
        )
        projections.write_summary(conn, summary, now)
        self._insert_snapshots(conn, [p], [no], after=stored)
        self._notify(conn, gid, len(rows))

    def _same_content(self, conn: Conn, p: Prepared, existing: Any) -> bool:
        kind, headers_json = existing
        if kind != p.kind or headers_json != p.headers_json:
            return False
        stored = conn.execute(
            f"SELECT e.sequence, e.event_id, {PAYLOAD}, e.meta FROM {EVENTS_OF_GAMES}"
            " WHERE g.id = ? ORDER BY e.sequence",
            (p.game_id,),
        ).fetchall()
        rows = p.event_rows()
        if len(stored) != len(rows):
            return False
        given = p.event_ids or [None] * len(rows)
        for (_, eid, payload, meta), (ppayload, _, pmeta, _), geid in zip(
            stored, rows, given, strict=True
        ):
            if payload != ppayload or user_meta_json(meta) != user_meta_json(pmeta):
                return False
            if eid != geid:  # (a derived id is stored as NULL)
                return False
        return True
