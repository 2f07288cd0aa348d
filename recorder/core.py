"""What every SQL store does the same way, whatever its database: appending checked
events, folding a game to any step, reading rows back, listing and the projections'
rebuild; the keys are a service over it (:mod:`recorder.keys`).

:class:`SqlStore` is written once against a DB-API connection that takes ``?``
parameters (SQLite's own; :mod:`recorder.postgres` hands PostgreSQL's connections through
an adapter), and each backend supplies how a call gets a connection (:meth:`reading`), a
write transaction (:meth:`writing`), what its refused writes raise
(:attr:`_integrity_errors`), and how the game's head moves.  The SQL here is the common
ground of both dialects; anything dialect-specific lives in the backend's own module.
"""

from __future__ import annotations

import abc
import contextlib
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from engine.corrections import CorrectionError
from engine.errors import EngineError, IllegalMoveError, Violation
from engine.fold import SNAPSHOT_EVERY, Earlier, Fold
from engine.games import get_game
from engine.protocol import GameRules, seat_names

from . import projections, snapshots
from .chain import dumps_sorted
from .errors import (
    AppendRejected,
    ConcurrencyError,
    CorruptEvent,
    EventIdConflict,
    GameNotFound,
    GameVoid,
    StepOutOfRange,
    StoreError,
)
from .keys import Keys
from .listing import Listing
from .prepare import (
    CACHE_LIMIT,
    STORED_EVERY,
    Flagged,
    canonical,
    chain_hashes,
    check_event_ids,
    checked_rows,
    clean_meta,
    derived_event_id,
    fold_events,
    parse_payload,
    user_meta_json,
)
from .records import AppendResult, Checked, GameRow, StoredEvent, time_ms, time_text
from .review import ReviewConflict, ReviewEvent
from .review import body_json as review_body_json
from .stored import (
    EVENTS_OF_GAMES,
    GAME_NO,
    PAYLOAD,
    decode,
    pack_position,
    parse_stored,
    stored_payload,
    unpack_position,
    violation_from_dict,
)
from .verify import Finding, Verification

#: Engine events of stored payloads, by (kind, stored version, current version, text):
#: most events recur from game to game, and a replay parses each only once.
_PARSED: dict[tuple[str, int, int, str], Any] = {}

#: A connection as the shared code uses it: ``execute(sql, params)`` with ``?``
#: parameters, returning a cursor (``fetchone``, ``fetchall``, iteration), and
#: ``executemany``.
Conn = Any


def stored_time(game_id: str, seq: int, ms: Any) -> str:
    """A stored time (milliseconds, :func:`recorder.records.time_ms`) as text;
    :class:`CorruptEvent` for one that is not a number of milliseconds."""
    try:
        return time_text(int(ms))
    except (TypeError, ValueError, OverflowError):
        raise CorruptEvent(game_id, seq, f"stored time is not a time: {ms!r}") from None


#: The longest reason a void is given (one line: it is written as a header).
VOID_REASON_MOST = 200


def _headers(text: str) -> dict[str, Any]:
    """A game's stored headers; no header where the row is not a JSON object (a record
    changed by another program: the game still lists and replays)."""
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


class SqlStore(abc.ABC):
    """The backend-neutral part of an event store (see the module's text)."""

    #: What a refused insert raises on this backend's connections.
    _integrity_errors: tuple[type[BaseException], ...] = ()

    def __init__(self, clock: Callable[[], str], place: str):
        self.clock = clock
        #: Which database this is, as no other in the process: its file's resolved path,
        #: or its URL (with the schema it works in); what a cache across stores keys by.
        self.location = place
        #: The game's keys: who may write it over HTTP (:mod:`recorder.keys`).
        self.keys = Keys(self)
        #: Verifying the record: chains, folds, projections, the database
        #: (:mod:`recorder.verify`).
        self.verification = Verification(self)
        #: The games list, filtered and ordered; a player's figures (:mod:`recorder.listing`).
        self.listing = Listing(self)
        self._lock = threading.RLock()
        #: The games folded lately, each with its head, shared by the stores over the
        #: database ``place`` (:mod:`recorder.snapshots`).
        self.snapshots = snapshots.for_database(place)
        #: Whether the schema has the snapshots table (a file kept at an older version
        #: by an older tablelog's migrations has not).
        self._snapshot_table = True
        #: The numbers of event types (``event_types``) by kind and name, as committed:
        #: a write uses only numbers that were stored before it began
        #: (:meth:`_number_types`), so no rollback of it can take one back.
        self._codes: dict[str, dict[str, int]] = {}

    # --- what each backend supplies ----------------------------------------------------

    @abc.abstractmethod
    def reading(self) -> AbstractContextManager[Conn]:
        """A connection to read with, for the length of the ``with`` block."""

    @abc.abstractmethod
    def writing(self) -> AbstractContextManager[Conn]:
        """One write transaction: committed when the block ends, rolled back on an error."""

    @abc.abstractmethod
    def storage_findings(self) -> list[Finding]:
        """What does not hold in the database itself (its storage, its guards), for
        :meth:`recorder.verify.Verification.verify`."""

    def _notify(self, conn: Conn, game_id: str, last_sequence: int) -> None:  # noqa: B027 (a hook)
        """Tell whoever follows ``game_id`` that it grew (inside the write's transaction,
        so only a committed write tells); nothing by default."""

    def _describe(self, err: BaseException) -> str:
        """A refused write's error, as its message says it."""
        return str(err).strip()

    @abc.abstractmethod
    def close(self) -> None:
        """Release the store (idempotent)."""

    def _lock_event_types(self, conn: Conn) -> None:  # noqa: B027 (a hook)
        """Keep other writers from numbering event types until this transaction ends
        (SQLite's write transactions hold the file's write lock already)."""

    # --- event types ---------------------------------------------------------------------

    def _number_types(self, wanted: Mapping[str, Iterable[str]]) -> None:
        """Make sure every event type of ``wanted`` (names by game kind) has its number in
        ``event_types`` and in :attr:`_codes`: the numbers stored are read, and a type
        not numbered yet gets the kind's next number in a transaction of its own, before
        the write that stores events of that type.  Call it outside a transaction."""
        missing = {
            kind: sorted(set(names) - self._codes.get(kind, {}).keys())
            for kind, names in wanted.items()
        }
        missing = {kind: names for kind, names in missing.items() if names}
        if not missing:
            return
        with self.reading() as conn:
            stored = self._stored_codes(conn, missing)
        if all(set(names) <= stored[kind].keys() for kind, names in missing.items()):
            self._codes.update(stored)
            return
        with self.writing() as conn:
            self._lock_event_types(conn)
            stored = self._stored_codes(conn, missing)
            for kind, names in missing.items():
                codes = stored[kind]
                for name in names:
                    if name not in codes:
                        codes[name] = max(codes.values(), default=0) + 1
                        conn.execute(
                            "INSERT INTO event_types (kind, code, name) VALUES (?, ?, ?)",
                            (kind, codes[name], name),
                        )
        self._codes.update(stored)

    @staticmethod
    def _stored_codes(conn: Conn, kinds: Iterable[str]) -> dict[str, dict[str, int]]:
        return {
            kind: {
                str(name): int(code)
                for name, code in conn.execute(
                    "SELECT name, code FROM event_types WHERE kind = ?", (kind,)
                )
            }
            for kind in kinds
        }

    def _now(self) -> tuple[str, int]:
        """Now, as the clock says it, in the two forms the store keeps: the text (as a
        stored time reads back) and its milliseconds (:func:`recorder.records.time_ms`)."""
        ms = time_ms(self.clock())
        return time_text(ms), ms

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- appending -----------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        expected_sequence: int,
        events: Sequence[Mapping[str, Any]] | Checked,
        meta: Sequence[Mapping[str, Any] | None] | None = None,
        event_ids: Sequence[str] | None = None,
    ) -> AppendResult:
        """Append ``events`` (current-version payloads) after event ``expected_sequence``
        of ``game_id``: each is checked by the engine against the state folded so far,
        and all are written in one transaction or none are.  ``events`` may instead be
        :class:`Checked`: events the engine read, checked and applied already after the
        state this store gave for ``expected_sequence`` (a move logged at the table), which
        are stored as they are, not folded again.  The result says what was stored: each
        event's id and canonical text, the events flagged as played illegally.

        * a stale ``expected_sequence`` raises :class:`ConcurrencyError` (expected and
          actual named);
        * ``event_ids`` sent again with the same payloads return the same result and
          write nothing (an idempotent retry); a known id with another payload or in
          another place raises :class:`EventIdConflict`;
        * an illegal event raises :class:`AppendRejected` with its would-be sequence;
          events whose meta says ``played_illegally`` are applied as played and their
          violations kept in the meta.
        """
        checked = events if isinstance(events, Checked) else None
        if checked is not None:
            events = checked.events
        if not isinstance(events, list | tuple) or not events:
            raise AppendRejected(None, "expected a non-empty list of events", "events")
        if (
            not isinstance(expected_sequence, int)
            or isinstance(expected_sequence, bool)
            or expected_sequence < 0
        ):
            raise AppendRejected(
                None, "expected a sequence number of 0 or more", "expected_sequence"
            )
        n = len(events)
        if meta is not None and (not isinstance(meta, list | tuple) or len(meta) != n):
            raise AppendRejected(None, f"expected {n} meta entries, one per event", "meta")
        given = check_event_ids(
            list(event_ids) if event_ids is not None else None, n, AppendRejected
        )
        first = expected_sequence + 1
        metas = [clean_meta(m, first + i, AppendRejected) for i, m in enumerate(meta or [None] * n)]
        kind, names, _ = self._kind_names_head(game_id)
        rules = get_game(kind)
        parsed = (
            checked.events
            if checked is not None
            else [
                parse_payload(rules, raw, first + i, AppendRejected) for i, raw in enumerate(events)
            ]
        )
        self._number_types({kind: {canonical(kind, rules, e)[5] for e in parsed} - {""}})
        try:
            with self.writing() as conn:
                actual, before = self._head(conn, game_id)
                if event_ids is not None:
                    retry = self._idempotent_retry(conn, game_id, kind, rules, parsed, given, metas)
                    if retry is not None:
                        return retry
                if actual != expected_sequence:
                    raise ConcurrencyError(game_id, expected_sequence, actual)
                self._refuse_void(conn, game_id)
                if checked is not None:
                    folded, flagged = checked_rows(kind, rules, checked, metas, first)
                    texts, state = list(checked.texts), checked.state
                else:
                    fold = Fold.resume(
                        rules,
                        self._state_after(
                            conn, game_id, kind, rules, actual, names, actual, before
                        ),
                        actual,
                        lambda: self._history(conn, game_id, kind, rules, actual),
                        every=None,
                        texts=True,
                    )
                    folded, flagged = fold_events(kind, rules, fold, parsed, metas, AppendRejected)
                    texts, state = fold.texts or [], fold.head
                now, now_ms = self._now()
                ids = [g or derived_event_id(game_id, first + i) for i, g in enumerate(given)]
                version = rules.payload_version
                headers_json, game_no = conn.execute(
                    "SELECT headers, no FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                hashes = chain_hashes(kind, json.loads(headers_json), folded, before)
                codes = self._codes.get(kind, {})
                # The batch's time on its first event only: the others share it.
                conn.executemany(
                    "INSERT INTO events (game_no, sequence, event_id, type, payload,"
                    " payload_version, meta, recorded_at, hash, text)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_no,
                            first + i,
                            given[i],
                            *stored_payload(codes, row[0]),
                            version,
                            row[1],
                            None if i else now_ms,
                            hashes[i],
                            texts[i],
                        )
                        for i, row in enumerate(folded)
                    ],
                )
                summary = projections.summary_record(rules, state, names)
                flagged_total = conn.execute(
                    "SELECT flagged_count FROM game_summaries WHERE game_id = ?", (game_id,)
                ).fetchone()
                flagged_count = (flagged_total[0] if flagged_total else 0) + sum(
                    1 for m in metas if m and m.get("played_illegally")
                )
                conn.execute(
                    "UPDATE games SET status = ?, last_activity = ?, head = ? WHERE id = ?",
                    (summary["status"], now, hashes[-1].hex(), game_id),
                )
                projections.write_summary(
                    conn,
                    projections.summary_row(
                        game_id,
                        kind,
                        json.loads(headers_json).get("date"),
                        summary,
                        actual + n,
                        flagged_count,
                        void=False,  # (a void game is refused above)
                    ),
                    now,
                )
                self._write_snapshot(conn, game_id, rules, actual, actual + n, state)
                self._notify(conn, game_id, actual + n)
        except self._integrity_errors as err:
            # Refused by the database: another writer stored these steps first (its
            # unique key or the append trigger), or an event id is taken.
            now_at = self._count(game_id)
            if now_at != expected_sequence:
                raise ConcurrencyError(game_id, expected_sequence, now_at) from None
            raise EventIdConflict(
                ", ".join(i for i in given if i), f"cannot be stored: {self._describe(err)}"
            ) from None
        self._grow(game_id, rules, (actual, before), parsed, metas, flagged, state, hashes[-1])
        return AppendResult(
            last_sequence=actual + n,
            first_sequence=first,
            appended=n,
            event_ids=ids,
            already_stored=False,
            flagged=flagged,
            status=summary["status"],
            texts=texts,
        )

    def _idempotent_retry(
        self,
        conn: Conn,
        game_id: str,
        kind: str,
        rules: GameRules,
        parsed: Sequence[Any],
        given: Sequence[str | None],
        metas: Sequence[dict[str, Any] | None],
    ) -> AppendResult | None:
        ids = [g for g in given if g is not None]
        if not ids:
            return None
        marks = ",".join("?" * len(ids))
        found = {
            row[0]: row[1:]
            for row in conn.execute(
                f"SELECT e.event_id, g.id, e.sequence, {PAYLOAD}, e.meta FROM {EVENTS_OF_GAMES}"
                f" WHERE e.event_id IN ({marks})",
                ids,
            )
        }
        if not found:
            return None
        if len(found) != len(given) or len(ids) != len(given):
            missing = [g for g in given if g not in found]
            raise EventIdConflict(
                next(iter(found)),
                "is already stored, but this batch also holds events that are not "
                f"({len(missing)} of {len(given)}); a retry must resend the same batch",
            )
        sequences: list[int] = []
        flagged: list[tuple[int, list[Violation]]] = []
        for eid, event, sent in zip(ids, parsed, metas, strict=True):
            stored_game, seq, payload, meta = found[eid]
            payload_json = canonical(kind, rules, event)[0]
            if stored_game != game_id:
                raise EventIdConflict(eid, f"is already stored in game {stored_game}")
            if payload != payload_json:
                raise EventIdConflict(
                    eid, f"is already stored as event {seq} with a different payload"
                )
            if user_meta_json(meta) != (None if sent is None else dumps_sorted(sent)):
                raise EventIdConflict(
                    eid,
                    f"is already stored as event {seq} with a different comment, annotations"
                    " or played-illegally mark",
                )
            if sequences and seq != sequences[-1] + 1:
                raise EventIdConflict(eid, "is already stored, out of this batch's order")
            sequences.append(seq)
            if meta:
                violations = json.loads(meta).get("violations")
                if violations:
                    flagged.append((seq, [violation_from_dict(v) for v in violations]))
        status = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        return AppendResult(
            last_sequence=sequences[-1],
            first_sequence=sequences[0],
            appended=0,
            event_ids=list(ids),
            already_stored=True,
            flagged=flagged,
            status=status,
        )

    def _kind(self, game_id: str) -> str:
        return self._kind_names_head(game_id)[0]

    def _kind_names_head(self, game_id: str) -> tuple[str, tuple[str, ...], bytes]:
        """The game's kind, its players' names (for the engine's messages) and its head
        (:attr:`GameRow.head`, raw)."""
        with self.reading() as conn:
            row = conn.execute(
                "SELECT kind, players, head FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        kind = str(row[0])
        names = seat_names({"players": json.loads(row[1])}, get_game(kind).seats)
        return kind, names, bytes.fromhex(row[2] or "")

    @staticmethod
    def _head(conn: Conn, game_id: str) -> tuple[int, bytes | None]:
        """The game's last step and its chain hash ((0, None) before any event), as an
        append chains on from them."""
        row = conn.execute(
            f"SELECT sequence, hash FROM events WHERE game_no = {GAME_NO}"
            " ORDER BY sequence DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        return (0, None) if row is None else (int(row[0]), bytes(row[1]))

    @staticmethod
    def _last_sequence(conn: Conn, game_id: str) -> int:
        """The game's last step, from the events' index alone."""
        row = conn.execute(
            f"SELECT MAX(sequence) FROM events WHERE game_no = {GAME_NO}", (game_id,)
        ).fetchone()
        return int(row[0] or 0)

    def _state_after(
        self,
        conn: Conn,
        game_id: str,
        kind: str,
        rules: GameRules,
        step: int,
        names: Sequence[str],
        last: int,
        head: bytes | None,
    ) -> Any:
        """The state after ``step`` stored events (a copy of its own), the game standing
        at ``last`` events with chain hash ``head``: from the game's fold in
        :attr:`snapshots`, else from the nearest stored snapshot at or before ``step``,
        folding only the events after it, else from the first event.  The fold made for
        the head is kept in :attr:`snapshots`.

        Snapshots are stored only at the head and every :data:`STORED_EVERY` steps, so
        a step short of both has none to find."""
        cached = self.snapshots.get(game_id, last, head) if last else None
        if cached is not None and cached.first <= step:
            return cached.state_at(step)
        start = 0
        state = None
        if step > 0 and self._snapshot_table and (step == last or step >= STORED_EVERY):
            row = conn.execute(
                f"SELECT step, position FROM snapshots WHERE game_no = {GAME_NO} AND step <= ?"
                " ORDER BY step DESC LIMIT 1",
                (game_id, step),
            ).fetchone()
            if row is not None:
                try:
                    state = rules.parse_position(unpack_position(row[1]))
                    state.names = tuple(names)
                    start = int(row[0])
                except (EngineError, ValueError):
                    state = None  # a cache that cannot be read is not used
        rows = conn.execute(
            f"SELECT e.sequence, {PAYLOAD}, e.payload_version, e.meta FROM {EVENTS_OF_GAMES}"
            " WHERE g.id = ? AND e.sequence > ? AND e.sequence <= ? ORDER BY e.sequence",
            (game_id, start, step),
        ).fetchall()
        every = SNAPSHOT_EVERY if step == last else None
        if state is None:
            fold = self.fold_rows(game_id, kind, rules, rows, names, every=every)
        else:
            earlier = self._earlier(game_id, kind, rules, start)
            fold = self.fold_rows(game_id, kind, rules, rows, names, state, start, earlier, every)
        if step != last or not last:
            return fold.head
        self.snapshots.put(game_id, head, fold)
        return fold.state_at(step)

    def _grow(
        self,
        game_id: str,
        rules: GameRules,
        before: tuple[int, bytes | None],
        events: Sequence[Any],
        metas: Sequence[Mapping[str, Any] | None],
        flagged: Flagged,
        state: Any,
        head: bytes,
    ) -> None:
        """Keep the game's fold in :attr:`snapshots` grown by ``events`` just stored after
        the step and hash ``before`` (``state``, the state after them, is its own now),
        or, with no fold of the game at hand that they go on from, one that starts there."""
        step = before[0] + len(events)
        base = self.snapshots.get(game_id, *before)
        fold = None
        if base is not None:
            forced = [
                before[0] + 1 + i for i, m in enumerate(metas) if m and m.get("played_illegally")
            ]
            # (ValueError: an undo back before the kept fold's start)
            with contextlib.suppress(ValueError):
                fold = base.grown(events, state, forced, dict(flagged))
        if fold is None:
            fold = Fold.resume(rules, state, step)
        self.snapshots.put(game_id, head, fold)

    def _earlier(self, game_id: str, kind: str, rules: GameRules, step: int) -> Earlier:
        """What reads the first ``step`` events of the game when a fold from a snapshot
        at ``step`` needs them (in a read of its own, as the fold may outlive the read it
        was made in)."""

        def earlier() -> tuple[list[Any], list[bool]]:
            with self.reading() as conn:
                return self._history(conn, game_id, kind, rules, step)

        return earlier

    def _history(
        self, conn: Conn, game_id: str, kind: str, rules: GameRules, step: int
    ) -> tuple[list[Any], list[bool]]:
        """The first ``step`` stored events of a game with their played-illegally marks
        (what a correction going back before an append's start needs)."""
        rows = conn.execute(
            f"SELECT e.sequence, {PAYLOAD}, e.payload_version, e.meta FROM {EVENTS_OF_GAMES}"
            " WHERE g.id = ? AND e.sequence <= ? ORDER BY e.sequence",
            (game_id, step),
        ).fetchall()
        return self._parsed_rows(game_id, kind, rules, rows)

    def _write_snapshot(
        self,
        conn: Conn,
        game_id: str,
        rules: GameRules,
        before: int,
        step: int,
        state: Any,
    ) -> None:
        """Keep the head's position (and every :data:`STORED_EVERY` steps one more),
        in the caller's transaction."""
        if not self._snapshot_table:
            return
        if before and before % STORED_EVERY:
            conn.execute(
                f"DELETE FROM snapshots WHERE game_no = {GAME_NO} AND step = ?", (game_id, before)
            )
        conn.execute(
            f"INSERT INTO snapshots (game_no, step, position) VALUES ({GAME_NO}, ?, ?)"
            " ON CONFLICT (game_no, step) DO UPDATE SET position = excluded.position",
            (game_id, step, pack_position(rules.position(state))),
        )

    def void_game(self, game_id: str, reason: str) -> GameRow:
        """Void a game started by mistake: its reason is kept (a row no client may change
        or delete; nothing of the game is deleted), the lists leave the game out unless
        asked for every game, an export says ``[Void "reason"]``, and nothing more is
        logged to it.  :class:`GameNotFound`; :class:`GameVoid` when it is void already;
        StoreError for a reason that is empty, longer than :data:`VOID_REASON_MOST`
        characters or more than one line.  Returns the game's row, void."""
        text = " ".join(str(reason).split())
        if not text or len(text) > VOID_REASON_MOST or "\n" in str(reason).strip():
            raise StoreError(
                f"a void's reason is one line of 1 to {VOID_REASON_MOST} characters"
                f" (got {len(str(reason).strip())})"
            )
        with self.writing() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFound(game_id)
            self._refuse_void(conn, game_id, "it is void already")
            conn.execute(
                "INSERT INTO game_voids (game_id, reason, recorded_at) VALUES (?, ?, ?)",
                (game_id, text, self.clock()),
            )
            conn.execute("UPDATE game_summaries SET void = 1 WHERE game_id = ?", (game_id,))
        return self.game(game_id)

    @staticmethod
    def _refuse_void(conn: Conn, game_id: str, message: str = "nothing more can be logged") -> None:
        """:class:`GameVoid` when the game was voided."""
        row = conn.execute(
            "SELECT s.void, g.headers, v.reason FROM games AS g"
            " JOIN game_summaries AS s ON s.game_id = g.id"
            " LEFT JOIN game_voids AS v ON v.game_id = g.id WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is not None and row[0]:
            reason = projections.void_reason(_headers(row[1]), row[2]) or "void"
            raise GameVoid(game_id, reason, message)

    # --- the review ---------------------------------------------------------------------

    def review_events(self, game_id: str) -> list[ReviewEvent]:
        """The game's review events, in order (:mod:`recorder.review`); GameNotFound."""
        with self.reading() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFound(game_id)
            rows = conn.execute(
                "SELECT seq, kind, body, author, recorded_at FROM review_events"
                " WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [
            ReviewEvent(seq, kind, body if isinstance(body, dict) else json.loads(body), a, t)
            for seq, kind, body, a, t in rows
        ]

    def append_review(
        self,
        game_id: str,
        expected: int,
        items: Sequence[tuple[str, Mapping[str, Any]]],
        author: str,
        *,
        recorded_at: Sequence[str] | None = None,
        authors: Sequence[str] | None = None,
    ) -> list[ReviewEvent]:
        """Append review events (``(kind, body)``, checked by the caller:
        :mod:`recorder.review`) after the game's first ``expected``, in one transaction,
        by ``author`` now (or each by ``authors`` at ``recorded_at``, as a copy keeps
        them).  The record is not touched.  :class:`ReviewConflict` when the review has
        another length (nothing written), GameNotFound."""
        written: list[ReviewEvent] = []
        try:
            with self.writing() as conn:
                if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise GameNotFound(game_id)
                (actual,) = conn.execute(
                    "SELECT COALESCE(max(seq), 0) FROM review_events WHERE game_id = ?",
                    (game_id,),
                ).fetchone()
                if actual != expected:
                    raise ReviewConflict(game_id, expected, actual)
                now = self.clock()
                for i, (kind, body) in enumerate(items):
                    seq = expected + 1 + i
                    by = authors[i] if authors is not None else author
                    at = recorded_at[i] if recorded_at is not None else now
                    conn.execute(
                        "INSERT INTO review_events (game_id, seq, kind, body, author,"
                        " recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, seq, kind, review_body_json(body), by, at),
                    )
                    written.append(ReviewEvent(seq, kind, dict(body), by, at))
        except self._integrity_errors:
            # another reviewer's event took the number first (PostgreSQL's writers do not
            # wait for one another before the insert)
            raise ReviewConflict(game_id, expected, expected + 1) from None
        return written

    # --- reading -----------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow:
        """The game's row; :class:`GameNotFound` for an unknown id."""
        rows = self._game_rows("WHERE g.id = ?", [game_id], "", [], review=True)
        if not rows:
            raise GameNotFound(game_id)
        return rows[0]

    def games(self, ids: Sequence[str]) -> list[GameRow]:
        """The rows of the games ``ids``, in that order; an unknown id is left out."""
        if not ids:
            return []
        found = {
            r.id: r
            for r in self._game_rows(
                f"WHERE g.id IN ({','.join('?' * len(ids))})", list(ids), "", []
            )
        }
        return [found[i] for i in ids if i in found]

    def _game_rows(
        self,
        where: str,
        params: list[Any],
        tail: str,
        tail_params: list[Any],
        review: bool = False,
    ) -> list[GameRow]:
        # the review's length in the same query (its primary key's last entry), for one
        # game only: a page learns whether there is a review to draw without another read
        reviewed = (
            ", (SELECT COALESCE(max(r.seq), 0) FROM review_events AS r WHERE r.game_id = g.id)"
            if review
            else ", 0"
        )
        sql = (
            "SELECT g.id, g.kind, g.headers, s.status, s.winner, s.condition, s.turns,"
            " s.event_count, g.created_at, s.last_activity, s.winner_name, s.to_move,"
            " s.flagged_count, g.head, s.void, v.reason" + reviewed + " FROM games AS g"
            " JOIN game_summaries AS s"
            " ON s.game_id = g.id LEFT JOIN game_voids AS v ON v.game_id = g.id " + where + tail
        )
        with self.reading() as conn:
            rows = conn.execute(sql, params + tail_params).fetchall()
        return [
            GameRow(
                id=r[0],
                kind=r[1],
                headers=_headers(r[2]),
                status=r[3],
                winner=r[4],
                condition=r[5],
                turns=r[6],
                event_count=r[7],
                created_at=r[8],
                last_activity=r[9],
                winner_name=r[10],
                to_move=r[11],
                flagged_count=r[12],
                head=r[13] or "",
                void=(projections.void_reason(_headers(r[2]), r[15]) or "void") if r[14] else None,
                review_length=int(r[16] or 0),
            )
            for r in rows
        ]

    def events(self, game_id: str, upto: int | None = None) -> list[StoredEvent]:
        """The game's events in order (the first ``upto`` when given), payloads upcast
        to the current version.  A payload that cannot be read raises
        :class:`CorruptEvent` naming the game and the sequence."""
        kind = self._kind(game_id)
        rules = get_game(kind)
        rows = self._event_rows(game_id, upto, full=True)
        out = []
        recorded = ""
        for seq, eid, payload_text, version, meta_text, ms, text in rows:
            payload = decode(game_id, seq, payload_text, "payload")
            meta = decode(game_id, seq, meta_text, "meta") if meta_text else {}
            if not isinstance(payload, dict) or not isinstance(meta, dict):
                raise CorruptEvent(game_id, seq, "stored payload or meta is not a JSON object")
            try:
                current = (
                    payload if version == rules.payload_version else rules.upcast(payload, version)
                )
                event = rules.event_from_dict(current)
            except EngineError as err:
                raise CorruptEvent(game_id, seq, f"stored payload cannot be read: {err}") from None
            if ms is not None:
                # (a time is stored where it differs from the event before's)
                recorded = stored_time(game_id, seq, ms)
            out.append(
                StoredEvent(
                    seq,
                    eid if eid is not None else derived_event_id(game_id, seq),
                    str(current.get("type", "")),
                    # (the payload is this call's own: decoded here, or upcast from what was)
                    current,
                    version,
                    recorded,
                    meta,
                    event,
                    text,
                    ms is None,
                )
            )
        return out

    def _event_rows(self, game_id: str, upto: int | None, *, full: bool) -> list[Any]:
        cols = (
            f"e.sequence, e.event_id, {PAYLOAD}, e.payload_version, e.meta, e.recorded_at, e.text"
            if full
            else f"e.sequence, {PAYLOAD}, e.payload_version, e.meta"
        )
        sql = f"SELECT {cols} FROM {EVENTS_OF_GAMES} WHERE g.id = ?"
        params: list[Any] = [game_id]
        if upto is not None:
            sql += " AND e.sequence <= ?"
            params.append(upto)
        with self.reading() as conn:
            rows: list[Any] = conn.execute(sql + " ORDER BY e.sequence", params).fetchall()
        return rows

    def state_at(self, game_id: str, step: int | None = None, *, row: GameRow | None = None) -> Any:
        """The engine state after the first ``step`` events (all when None; 0 is the
        empty table).  :class:`StepOutOfRange` for a step beyond the last event.

        ``row``: the game's row (:meth:`game`) when the caller has read it already; its
        kind, seat names (from its headers, as the state's names) and event count then
        stand in for the store's own look-ups."""
        # (the head's hash from the game's row: no event's row is read unless folded)
        if row is None:
            kind, names, head = self._kind_names_head(game_id)
        else:
            kind, head = row.kind, bytes.fromhex(row.head)
            names = seat_names(row.headers, get_game(kind).seats)
        rules = get_game(kind)
        if step is not None and (not isinstance(step, int) or step < 0):
            raise StepOutOfRange(game_id, step, self._count(game_id))
        with self.reading() as conn:
            last = self._last_sequence(conn, game_id) if row is None else row.event_count
            if step is not None and step > last:
                raise StepOutOfRange(game_id, step, last)
            at = last if step is None else step
            state = self._state_after(conn, game_id, kind, rules, at, names, last, head)
        # (a fold kept in memory may have named the seats otherwise)
        state.names = tuple(names)
        return state

    def _count(self, game_id: str) -> int:
        with self.reading() as conn:
            return self._last_sequence(conn, game_id)

    def fold_rows(
        self,
        game_id: str,
        kind: str,
        rules: GameRules,
        rows: Sequence[Any],
        names: Sequence[str] | None = None,
        start: Any = None,
        start_step: int = 0,
        earlier: Earlier | None = None,
        every: int | None = None,
    ) -> Fold:
        """Fold stored rows (sequence, payload, version, meta) with the rules
        (:class:`engine.fold.Fold`: corrections, steps played illegally forced): from the
        first event, or from ``start``, the state after ``start_step`` events (a snapshot;
        ``earlier`` reads the events before it, which only a correction going back before
        it needs); a snapshot kept ``every`` steps.  CorruptEvent names the row that does
        not replay."""
        events, marks = self._parsed_rows(game_id, kind, rules, rows)
        if start is None:
            fold = Fold(rules, names, every=every)
        else:
            fold = Fold.resume(rules, start, start_step, earlier, every=every)
        try:
            fold.extend(events, marks if any(marks) else None)
        except (IllegalMoveError, CorrectionError) as err:
            # (nothing of the refused event is folded: the fold stands before its row)
            seq = rows[fold.step - start_step][0]
            if isinstance(err, IllegalMoveError):
                raise CorruptEvent(game_id, seq, f"stored event no longer replays: {err}") from None
            raise CorruptEvent(game_id, seq, f"stored correction: {err}") from None
        return fold

    def _parsed_rows(
        self, game_id: str, kind: str, rules: GameRules, rows: Sequence[Any]
    ) -> tuple[list[Any], list[bool]]:
        """The events of stored rows (through the parsed-payload cache) and their
        played-illegally marks; CorruptEvent for a payload or meta that does not read."""
        current = rules.payload_version
        parsed = _PARSED
        events = []
        marks = []
        for seq, payload_text, version, meta_text in rows:
            key = (kind, version, current, payload_text)
            event = parsed.get(key)
            if event is None:
                event = parse_stored(game_id, seq, rules, payload_text, version, current)
                if len(parsed) >= CACHE_LIMIT:
                    parsed.clear()
                parsed[key] = event
            events.append(event)
            marked = False
            if meta_text and '"played_illegally"' in meta_text:
                meta = decode(game_id, seq, meta_text, "meta")
                if not isinstance(meta, dict):
                    raise CorruptEvent(game_id, seq, "stored meta is not a JSON object")
                marked = bool(meta.get("played_illegally"))
            marks.append(marked)
        return events, marks

    # --- projections ---------------------------------------------------------------------

    def rebuild_projections(self) -> int:
        """Recompute ``game_summaries``, ``game_players`` and each game's status and last
        activity from the events, in one transaction; returns the number of games."""
        with self.writing() as conn:
            count = projections.rebuild(conn, lambda *row_args: self.fold_rows(*row_args).head)
        with self._lock:
            self.snapshots.clear()
        return count

    def stored_content(self, game_id: str) -> tuple[str, dict[str, Any], list[StoredEvent]]:
        """(kind, headers, events) of a game, for exporting."""
        row = self.game(game_id)
        return row.kind, row.headers, self.events(game_id)
