"""Checking a stored record: its chain, its projections and the database itself.

:class:`Verification` is each store's ``verification``.  For each game it recomputes the chain
from the stored events (:mod:`recorder.chain`) and names every
step whose stored hash does not follow from the step before it and its own content, and a
head that is not the last step's; it folds the events afresh and compares the summary,
the players, the game's columns, each event's text and the snapshots with what the fold
gives; and for the database, each store's own findings: for SQLite the file's ``PRAGMA
integrity_check``, the foreign keys and the triggers that keep the record append-only; for
PostgreSQL the triggers (there and enabled) and the constraints (validated).  Each
:class:`Finding` names its game and step.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.errors import EngineError, Violation
from engine.fold import SNAPSHOT_EVERY, Fold
from engine.games import UnknownGameKind, get_game
from engine.protocol import GameRules, seat_names

from . import chain, projections, review
from .access import SqlAccess
from .errors import CorruptEvent, GameNotFound
from .prepare import stored_texts
from .records import time_text
from .stored import EVENTS_OF_GAMES, GAME_NO, PAYLOAD, parse_stored, unpack_position

#: The triggers that keep the record append-only and the games whole (migrations 2, 6),
#: and each event type's number (migration 9).
TRIGGERS = (
    "events_no_update",
    "events_no_delete",
    "events_append_in_sequence",
    "games_keep_identity",
    "games_no_delete",
    "games_no_replace",
    "event_types_no_update",
    "event_types_no_delete",
    "event_types_no_replace",
    "review_events_no_update",
    "review_events_no_delete",
    "review_events_in_sequence",
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing that does not hold: in which game (None for the file) and at which step
    (None for the game as a whole), which check (``chain``, ``head``, ``fold``,
    ``projection``, ``text``, ``violations``, ``snapshot``, ``review``, ``integrity``,
    ``foreign_key``, ``trigger``), and what."""

    game: str | None
    step: int | None
    check: str
    message: str

    def __str__(self) -> str:
        where = [] if self.game is None else [f"game {self.game}"]
        if self.step is not None:
            where.append(f"step {self.step}")
        return ": ".join([*where, self.message]) if where else self.message

    def to_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready data."""
        return {"game": self.game, "step": self.step, "check": self.check, "message": self.message}


def chain_findings(
    game_id: str,
    kind: str,
    headers: dict[str, Any],
    head: str | None,
    rows: Sequence[tuple[int, str, str | None, bytes | None]],
) -> list[Finding]:
    """The chain's findings for one game from its stored rows (sequence, payload JSON,
    stored meta JSON, stored hash) in order, and its stored head: every step whose stored
    hash does not follow from the step before it and its own content (the first is where
    the record was first changed), a missing step, and a head that is not the last
    step's hash."""
    out: list[Finding] = []
    previous = chain.origin(kind, headers)
    expected_seq = 1
    for seq, payload, meta, stored in rows:
        if seq != expected_seq:
            out.append(
                Finding(
                    game_id,
                    expected_seq,
                    "chain",
                    f"missing: the stored steps go from {expected_seq - 1} to {seq}",
                )
            )
            expected_seq = seq
        own = chain.link(previous, chain.content(payload, chain.logger_meta(meta)))
        if stored is None or own != stored:
            what = (
                "the game's kind or headers, or this event, were changed"
                if seq == 1
                else "this event (payload, comment, annotations or played-illegally mark) "
                "was changed, or the one before it was, its stored hash made again to match, "
                "or events before it were reordered or removed"
            )
            out.append(Finding(game_id, seq, "chain", f"the stored hash does not follow: {what}"))
        previous = bytes(stored) if isinstance(stored, bytes) and len(stored) == 32 else own
        expected_seq += 1
    last = previous.hex()
    if head != last:
        n = rows[-1][0] if rows else 0
        out.append(
            Finding(
                game_id,
                None,
                "head",
                f"the game's head {chain.short(head or '(none)')} is not the hash of its last "
                f"stored step ({n}: {chain.short(last)}): steps after it were removed, or "
                "the head was changed",
            )
        )
    return out


def kept_head_findings(
    store: Any, kept: Iterable[tuple[str, str]], key: str | None = None
) -> list[Finding]:
    """Each game's head as someone kept it outside the store (``tablelog heads``, a
    published list; keyed with ``key`` or not) against the stored record: a kept head
    must be the hash of one of the game's stored steps (the game may have grown since).
    A record cut short together with its stored head verifies on its own; against a
    head kept elsewhere it does not."""
    out: list[Finding] = []
    for game_id, head in kept:
        try:
            hashes = store.verification.step_hashes(game_id)
        except GameNotFound:
            out.append(Finding(game_id, None, "kept-head", "the game is no longer stored"))
            continue
        wanted = head.strip().lower()
        known = set(hashes)
        if key:
            known |= {chain.keyed(h, key) for h in hashes}
        if wanted not in known:
            out.append(
                Finding(
                    game_id,
                    None,
                    "kept-head",
                    f"the head kept for it, {chain.short(wanted)}, is not the hash of any of "
                    f"its {len(hashes) - 1} stored steps: steps were removed, or the record "
                    "was changed",
                )
            )
    return out


class VerifiedStore(SqlAccess, Protocol):
    """What :class:`Verification` needs of a store besides its connections."""

    def fold_rows(
        self,
        game_id: str,
        kind: str,
        rules: GameRules,
        rows: Sequence[Any],
        names: Sequence[str] | None = None,
        start: Any = None,
        start_step: int = 0,
        earlier: Any = None,
        every: int | None = None,
    ) -> Fold:
        """Fold stored rows (:meth:`recorder.core.SqlStore.fold_rows`)."""
        ...

    def storage_findings(self) -> list[Finding]:
        """What does not hold in the database itself (its storage, its guards)."""
        ...


class Verification:
    """Verifying a store's record (``store.verification``): each game's chain, its fold
    and projections against a fresh fold, its snapshots, and what the store finds wrong
    with its database itself (``storage_findings``, the backend's own)."""

    def __init__(self, store: VerifiedStore) -> None:
        self._store = store

    def step_hash(self, game_id: str, step: int | None = None) -> str:
        """The chain hash stored at ``step`` (default the last), hex: the game's head
        at that step (the origin's for step 0).  :class:`GameNotFound` for an unknown
        game; a step beyond the last has no hash (``""``)."""
        with self._store.reading() as conn:
            row = conn.execute(
                "SELECT kind, headers, head FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            if step is None:
                return str(row[2] or "")
            if step == 0:
                return chain.origin(row[0], json.loads(row[1])).hex()
            found = conn.execute(
                f"SELECT hash FROM events WHERE game_no = {GAME_NO} AND sequence = ?",
                (game_id, step),
            ).fetchone()
        return bytes(found[0]).hex() if found else ""

    def chain_findings(self, game_id: str) -> list[Finding]:
        """The chain's findings for one game (:func:`chain_findings`): cheap enough to
        run at each showing of a game."""
        with self._store.reading() as conn:
            game = conn.execute(
                "SELECT kind, headers, head FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if game is None:
                raise GameNotFound(game_id)
            rows = conn.execute(
                f"SELECT e.sequence, {PAYLOAD}, e.meta, e.hash FROM {EVENTS_OF_GAMES}"
                " WHERE g.id = ? ORDER BY e.sequence",
                (game_id,),
            ).fetchall()
        try:
            headers = json.loads(game[1])
        except ValueError:
            headers = None
        if not isinstance(headers, dict):
            return [Finding(game_id, 1, "chain", "the stored headers are not a JSON object")]
        return chain_findings(game_id, game[0], headers, game[2], rows)

    def step_hashes(self, game_id: str) -> list[str]:
        """The game's chain as stored, hex: the origin's hash, then each step's (so item
        ``n`` is the head after step ``n``).  :class:`GameNotFound` for an unknown game."""
        with self._store.reading() as conn:
            row = conn.execute(
                "SELECT kind, headers FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            hashes = [
                bytes(r[0]).hex()
                for r in conn.execute(
                    f"SELECT hash FROM events WHERE game_no = {GAME_NO} ORDER BY sequence",
                    (game_id,),
                )
            ]
        return [chain.origin(row[0], json.loads(row[1])).hex(), *hashes]

    def heads(self, game_ids: Iterable[str] | None = None) -> list[tuple[str, int, str]]:
        """(game id, stored steps, head) of the given games (default: every game, by
        id), read from the games and events tables alone.  :class:`GameNotFound` for an
        unknown game."""
        sql = (
            "SELECT g.id, (SELECT count(*) FROM events AS e WHERE e.game_no = g.no),"
            " COALESCE(g.head, '') FROM games AS g"
        )
        with self._store.reading() as conn:
            if game_ids is None:
                return [tuple(r) for r in conn.execute(sql + " ORDER BY g.id")]
            out = []
            for game_id in game_ids:
                row = conn.execute(sql + " WHERE g.id = ?", (game_id,)).fetchone()
                if row is None:
                    raise GameNotFound(game_id)
                out.append(tuple(row))
        return out

    def verify(self, game_ids: Iterable[str] | None = None) -> list[Finding]:
        """Everything that does not hold in the file (its integrity, foreign keys and
        append-only triggers) and in the given games (default: every game): each game's
        chain, its fold and projections against a fresh fold, its snapshots.  An empty
        list: the record verifies.  :class:`GameNotFound` for an unknown game."""
        out = self._store.storage_findings()
        if game_ids is None:
            with self._store.reading() as conn:
                ids = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
        else:
            ids = list(game_ids)
        for game_id in ids:
            out += self._game_findings(game_id)
        return out

    def _game_findings(self, game_id: str) -> list[Finding]:
        out = self.chain_findings(game_id)
        with self._store.reading() as conn:
            kind, players, date, place, tags, headers_json, status, created, no = conn.execute(
                "SELECT kind, players, date, place, tags, headers, status, created_at, no"
                " FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            rows = conn.execute(
                f"SELECT e.sequence, {PAYLOAD}, e.payload_version, e.meta, e.recorded_at,"
                f" e.text FROM {EVENTS_OF_GAMES} WHERE g.id = ? ORDER BY e.sequence",
                (game_id,),
            ).fetchall()
            summary = conn.execute(
                f"SELECT {', '.join(projections.SUMMARY_COLUMNS)}, last_activity, game_no"
                " FROM game_summaries WHERE game_id = ?",
                (game_id,),
            ).fetchone()
            seats = conn.execute(
                "SELECT seat, name FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
            voided = conn.execute(
                "SELECT reason FROM game_voids WHERE game_id = ?", (game_id,)
            ).fetchone()
            last_activity = conn.execute(
                "SELECT last_activity FROM games WHERE id = ?", (game_id,)
            ).fetchone()[0]
            snapshots = conn.execute(
                f"SELECT step, position FROM snapshots WHERE game_no = {GAME_NO} ORDER BY step",
                (game_id,),
            ).fetchall()
            reviewed = conn.execute(
                "SELECT seq, kind, body, author, recorded_at FROM review_events"
                " WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        try:
            rules = get_game(kind)
            headers = json.loads(headers_json)
            if not isinstance(headers, dict):
                return out  # named by the chain's findings
            names = seat_names(headers, rules.seats)
        except (UnknownGameKind, ValueError, EngineError, TypeError, AttributeError) as err:
            return [*out, Finding(game_id, None, "projection", f"the game cannot be read: {err}")]

        def differs(what: str, stored: Any, expected: Any) -> None:
            if stored != expected:
                out.append(
                    Finding(
                        game_id,
                        None,
                        "projection",
                        f"{what} is {stored!r}, the record says {expected!r}",
                    )
                )

        differs("the games row's players", players, projections_dumps(names))
        differs("the games row's date", date, headers.get("date"))
        differs("the games row's place", place, headers.get("place"))
        differs(
            "the games row's tags",
            tags,
            None if headers.get("tags") is None else chain.dumps_sorted(headers["tags"]),
        )
        fold_rows = [(r[0], r[1], r[2], r[3]) for r in rows]
        try:
            fold = self._store.fold_rows(
                game_id, kind, rules, fold_rows, names, every=SNAPSHOT_EVERY
            )
        except CorruptEvent as err:
            message = str(err).split(": ", 1)[-1]
            return [*out, Finding(game_id, err.sequence, "fold", message)]
        state = fold.head
        record = projections.summary_record(rules, state, names)
        flagged = sum(1 for r in rows if r[3] and _marked(r[3]))
        expected = projections.summary_row(
            game_id,
            kind,
            headers.get("date"),
            record,
            len(rows),
            flagged,
            void=projections.void_reason(headers, voided[0] if voided else None) is not None,
        )
        times = [r[4] for r in rows if isinstance(r[4], int)]
        last = time_text(max(times)) if times else created
        if summary is None:
            out.append(Finding(game_id, None, "projection", "the game has no summary row"))
        else:
            for column, stored, want in zip(
                (*projections.SUMMARY_COLUMNS, "last_activity", "game_no"),
                summary,
                (*expected, last, no),
                strict=True,
            ):
                differs(f"the summary's {column}", stored, want)
        differs("the game's status", status, record["status"])
        differs("the game's last activity", last_activity, last)
        differs("the players index", [tuple(s) for s in seats], list(enumerate(names)))
        out += _text_findings(game_id, rules, rows, names)
        out += _violation_findings(game_id, rows, fold.flagged)
        for step, position in snapshots:
            if step > len(rows):
                out.append(Finding(game_id, step, "snapshot", "a snapshot past the last step"))
                continue
            at = fold.state_at(step)
            try:
                kept = unpack_position(position)
            except ValueError:
                out.append(Finding(game_id, step, "snapshot", "the snapshot cannot be read"))
                continue
            if rules.position(at) != kept:
                out.append(Finding(game_id, step, "snapshot", "the snapshot differs from the fold"))
        if reviewed:
            # the review, apart from the record: each saved line replays from where it
            # branches, each mark names a step that exists
            events = [
                review.ReviewEvent(
                    seq, k, body if isinstance(body, dict) else json.loads(body), by, at
                )
                for seq, k, body, by, at in reviewed
            ]
            try:
                review.fold_review(rules, review.RecordFold.of(rules, fold), events)
            except review.ReviewRefused as err:
                out.append(Finding(game_id, None, "review", str(err)))
        return out


def _text_findings(
    game_id: str, rules: GameRules, rows: Sequence[Any], names: Sequence[str]
) -> list[Finding]:
    """Each event whose stored text is not the one a fresh fold gives (derived data, like
    the summaries: not chained, so checked against the record)."""
    current = rules.payload_version
    events = [parse_stored(game_id, r[0], rules, r[1], r[2], current) for r in rows]
    marks = [bool(r[3]) and _marked(r[3]) for r in rows]
    return [
        Finding(
            game_id,
            row[0],
            "text",
            f"the stored text {row[5]!r} is not the event's text: {text!r}",
        )
        for row, text in zip(rows, stored_texts(rules, events, marks, names), strict=False)
        if row[5] != text
    ]


def _violation_findings(
    game_id: str, rows: Sequence[Any], flagged: Mapping[int, Sequence[Violation]]
) -> list[Finding]:
    """Each event whose stored violations (kept in its meta, outside the chain, for a
    decision played though illegal) are not the ones a fresh fold finds."""
    out = []
    for row in rows:
        sequence, meta_text = row[0], row[3]
        stored = _stored_violations(meta_text)
        found = [v.to_dict() for v in flagged.get(sequence, ())]
        if stored != found:
            out.append(
                Finding(
                    game_id,
                    sequence,
                    "violations",
                    f"the stored violations ({_codes(stored)}) are not the ones the rules"
                    f" find ({_codes(found)})",
                )
            )
    return out


def _stored_violations(meta_text: str | None) -> Any:
    if not meta_text or '"violations"' not in meta_text:
        return []
    try:
        meta = json.loads(meta_text)
    except ValueError:
        return None
    return meta.get("violations", []) if isinstance(meta, dict) else None


def _codes(violations: Any) -> str:
    """The violations' codes in a few words ("none" for none; what a list is not)."""
    if not isinstance(violations, list):
        return "unreadable"
    if not violations:
        return "none"
    return ", ".join(
        str(v.get("code")) if isinstance(v, dict) and v.get("code") else repr(v)[:40]
        for v in violations
    )


def _marked(meta_text: str) -> bool:
    try:
        meta = json.loads(meta_text)
    except ValueError:
        return False
    return isinstance(meta, dict) and bool(meta.get("played_illegally"))


def projections_dumps(names: Sequence[str]) -> str:
    """The ``games.players`` text of seat names (compact JSON, as the store writes it)."""
    return json.dumps(list(names), separators=(",", ":"), ensure_ascii=False)
