"""A game's review, for every game: lines of play saved after the game, marks and notes,
stored as review events apart from the record (``review_events``, migration 12), so that
the record's events, chain and head never change with the review.

A review event is one of

* ``line``: a saved line, ``{"from": ADDRESS, "moves": [payload...], "texts": [text...]}``:
  the decisions played from the position after the step ADDRESS names instead of the
  decision that followed it (its number is the event's ``seq``);
* ``mark``: ``{"at": ADDRESS, "mark": "!?" | null, "note": TEXT | null}``: a mark (the last
  one given a step stands) and a note (they add up) on the decision of step ADDRESS;
* ``withdraw``: ``{"line": N}``: saved line N is withdrawn, as an undo takes back a move
  (it stays in the review's history; the lines nested in it and its marks go with it).

An ADDRESS is ``STEP`` (the record's step: after STEP events, as ``tablelog check
GAME:STEP`` reads it) or ``STEP/LINE.K`` (the K-th decision of saved line LINE, which goes
off the record after STEP), the same on the command line and in the API.

Each event is checked when it is added (:func:`check_new`) and again by ``verify``
(:func:`fold_review`): a line's decisions are folded by the rules from where it branches
(observations included), a mark names a step that exists.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EventFormatError
from engine.fold import SNAPSHOT_EVERY, Fold
from engine.games import get_game
from engine.protocol import seat_names
from engine.review import (
    MARKS,
    MAX_DEPTH,
    MAX_LINE,
    format_address,
    meta_for_writing,
    parse_address,
)
from engine.review import Line as EngineLine

from .errors import StoreError

#: The kinds of review events.
KINDS = ("line", "mark", "withdraw")
#: The longest author's name and note.
MAX_AUTHOR = 100
MAX_NOTE = 2000


class ReviewRefused(StoreError):
    """A review event that cannot be added (nothing was written): ``field`` names what is
    wrong (``at``, ``mark``, ``note``, ``moves``, ``line``, ``by``), ``move`` the number of
    the move of a line that is refused (from 1), ``violations`` the rules it breaks."""

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        move: int | None = None,
        violations: Sequence[Any] = (),
    ):
        self.field = field
        self.move = move
        self.violations = list(violations)
        super().__init__(message)


class ReviewConflict(StoreError):
    """Another reviewer added to the review first: the expected length is stale."""

    def __init__(self, game_id: str, expected: int, actual: int):
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game {game_id}: expected a review of {expected} events, but it has {actual};"
            " nothing was written"
        )


@dataclass(frozen=True)
class ReviewEvent:
    """One stored review event."""

    seq: int
    kind: str
    body: dict[str, Any]
    author: str
    recorded_at: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            **self.body,
            "by": self.author,
            "recorded_at": self.recorded_at,
        }


@dataclass
class SavedLine:
    """A saved line as the review stands: its number, where it goes from (``origin``,
    its address; ``root`` the record step its first ancestor goes from; ``parent`` the
    line it goes from, None for the record), the position it branches at in the step
    numbering of the record (``at``: its K-th decision is step ``at`` + K), its events and
    their canonical texts, who saved it and when, and whether it was withdrawn."""

    number: int
    origin: str
    root: int
    parent: int | None
    at: int
    events: list[Any]
    texts: list[str]
    author: str
    recorded_at: str
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.number,
            "from": self.origin,
            "texts": list(self.texts),
            "by": self.author,
            "recorded_at": self.recorded_at,
            "withdrawn": self.withdrawn,
            "steps": [
                format_address(self.root, self.number, k) for k in range(1, len(self.texts) + 1)
            ],
        }


@dataclass
class Review:
    """A game's review as its events leave it: the lines (withdrawn ones too), and the
    mark and notes of each address."""

    length: int = 0
    lines: dict[int, SavedLine] = field(default_factory=dict)
    marks: dict[str, dict[str, Any]] = field(default_factory=dict)

    def standing(self, number: int) -> bool:
        """Whether line ``number`` stands: saved, not withdrawn, nor any line it goes from."""
        line = self.lines.get(number)
        while line is not None:
            if line.withdrawn:
                return False
            if line.parent is None:
                return True
            line = self.lines.get(line.parent)
        return False

    def standing_marks(self) -> dict[str, dict[str, Any]]:
        """The marks and notes of the steps that stand (a withdrawn line's go with it)."""
        out = {}
        for address, m in self.marks.items():
            _, line, _ = parse_address(address)
            if line is None or self.standing(line):
                out[address] = m
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "lines": [line.to_dict() for line in self.lines.values()],
            "marks": [
                {"at": address, "mark": m.get("mark"), "notes": list(m.get("notes") or ())}
                for address, m in self.standing_marks().items()
            ],
        }


class RecordFold:
    """The record of a game folded once, for its review: the state after any step."""

    def __init__(self, rules: Any, names: Sequence[str], events: Sequence[Any], metas: Any):
        self.rules = rules
        marks = [bool(m and m.get("played_illegally")) for m in metas]
        self.fold = Fold(rules, names, every=SNAPSHOT_EVERY).extend(events, marks)
        self.steps = len(events)

    @classmethod
    def of(cls, rules: Any, fold: Fold) -> RecordFold:
        """The record as a fold already made of it (``verify``'s) has it."""
        record = cls.__new__(cls)
        record.rules, record.fold, record.steps = rules, fold, fold.step
        return record


def fold_review(rules: Any, record: RecordFold, events: Sequence[ReviewEvent]) -> Review:
    """The review its ``events`` make, each checked as it was when added; ReviewRefused
    (its message starting with the review event's number) at the first that does not
    hold (``verify`` reports it)."""
    review = Review()
    for number, ev in enumerate(events, start=1):
        if ev.seq != number:
            raise ReviewRefused(f"review event {number} is missing (the next stored is {ev.seq})")
        try:
            apply_event(rules, record, review, ev)
        except ReviewRefused as err:
            raise ReviewRefused(f"review event {ev.seq} ({ev.kind}): {err}", err.field) from None
    return review


def apply_event(rules: Any, record: RecordFold, review: Review, ev: ReviewEvent) -> None:
    """Add one review event to ``review``, checked (ReviewRefused when it does not hold)."""
    body = ev.body
    if ev.kind == "line":
        origin = str(body.get("from", ""))
        state, root, parent, at = position_at(record, review, origin)
        moves = body.get("moves")
        if not isinstance(moves, list) or not moves:
            raise ReviewRefused("a saved line holds at least one decision", "moves")
        try:
            events = [rules.event_from_dict(m) for m in moves]
        except (EventFormatError, TypeError, ValueError, KeyError, AttributeError) as err:
            # a payload the game cannot read (what an import refuses alike)
            raise ReviewRefused(f"a move of the line cannot be read: {err}", "moves") from None
        texts = _fold_line(rules, state, events)
        review.lines[ev.seq] = SavedLine(
            ev.seq, origin, root, parent, at, events, texts, ev.author, ev.recorded_at
        )
    elif ev.kind == "mark":
        address = str(body.get("at", ""))
        check_step(record, review, address)
        mark, note = body.get("mark"), body.get("note")
        m = review.marks.setdefault(_canonical(address), {"mark": None, "notes": []})
        if mark is not None:
            m["mark"] = mark
        if note:
            m["notes"].append(note)
    elif ev.kind == "withdraw":
        number = body.get("line")
        if not isinstance(number, int) or not review.standing(number):
            raise ReviewRefused(f"there is no standing saved line {number!r}", "line")
        review.lines[number].withdrawn = True
    else:
        raise ReviewRefused(f"unknown review event kind {ev.kind!r}", "kind")
    review.length = ev.seq


def _canonical(address: str) -> str:
    return format_address(*parse_address(address))


def _fold_line(rules: Any, state: Any, events: Sequence[Any]) -> list[str]:
    """The canonical texts of a line's events folded from ``state`` (changed), each
    checked by the rules; ReviewRefused naming the move and its violations."""
    texts = []
    for k, event in enumerate(events, start=1):
        text = rules.move_text(state, event)
        violations = rules.check(state, event)
        if violations:
            raise ReviewRefused(
                f"move {k} of the line, {text}, is not allowed here: "
                + "; ".join(f"{v.code}: {v.message} ({_citation(v)})" for v in violations),
                "moves",
                move=k,
                violations=violations,
            )
        rules.apply(state, event)
        texts.append(text)
    return texts


def _citation(v: Any) -> str:
    rule = getattr(v, "rule", None)
    if rule is None:
        return "the rules"
    page = getattr(rule, "page", None)
    return f"p.{page}, {rule.section}" if page else str(rule.section)


def position_at(
    record: RecordFold, review: Review, address: str
) -> tuple[Any, int, int | None, int]:
    """The state after the step ``address`` names, from which a line goes: with the record
    step its first ancestor goes from, the line it goes from (None: the record) and the
    position in the record's numbering.  A line replaces a decision: one must follow."""
    step, number, k = _parse(address)
    if number is None:
        if not 1 <= step < record.steps:
            raise ReviewRefused(
                f"a saved line goes from a step followed by the decision it replaces:"
                f" steps 1 to {record.steps - 1}, not {step}",
                "at",
            )
        return record.fold.state_at(step), step, None, step
    line = _line_of(review, step, number)
    assert k is not None
    # (K = 0: the position line LINE goes from, a line in place of its first decision)
    if not 0 <= k < len(line.events):
        raise ReviewRefused(
            f"a saved line goes from a step followed by the decision it replaces: line"
            f" {number}'s steps {step}/{number}.0 to {step}/{number}.{len(line.events) - 1},"
            f" not {address}",
            "at",
        )
    if _depth(review, line) >= MAX_DEPTH:
        raise ReviewRefused(f"saved lines nest {MAX_DEPTH} deep at most", "at")
    state = line_state(record, review, line, k)
    return state, line.root, number, line.at + k


def line_state(record: RecordFold, review: Review, line: SavedLine, k: int) -> Any:
    """The state after the first ``k`` decisions of ``line``."""
    if line.parent is None:
        state = record.fold.state_at(line.at)
    else:
        parent = review.lines[line.parent]
        state = line_state(record, review, parent, line.at - parent.at)
    for event in line.events[:k]:
        record.rules.apply(state, event)
    return state


def _depth(review: Review, line: SavedLine) -> int:
    depth = 1
    while line.parent is not None:
        line = review.lines[line.parent]
        depth += 1
    return depth


def _parse(address: str) -> tuple[int, int | None, int | None]:
    try:
        return parse_address(address)
    except ValueError as err:
        raise ReviewRefused(str(err), "at") from None


def _line_of(review: Review, step: int, number: int) -> SavedLine:
    line = review.lines.get(number)
    if line is None or not review.standing(number):
        raise ReviewRefused(f"there is no standing saved line {number}", "at")
    if line.root != step:
        raise ReviewRefused(
            f"saved line {number} goes off the record after step {line.root}, not {step}:"
            f" its steps are {line.root}/{number}.K",
            "at",
        )
    return line


def check_step(record: RecordFold, review: Review, address: str) -> None:
    """That ``address`` names a decision a mark may be given: a step of the record but the
    setup, or a decision of a standing line."""
    step, number, k = _parse(address)
    if number is None:
        if not 2 <= step <= record.steps:
            raise ReviewRefused(
                f"a mark goes on a decision: steps 2 to {record.steps} (step 1 is the"
                f" setup), not {step}",
                "at",
            )
        return
    line = _line_of(review, step, number)
    if not 1 <= (k or 0) <= len(line.events):
        raise ReviewRefused(
            f"saved line {number} has steps {step}/{number}.1 to"
            f" {step}/{number}.{len(line.events)}, not {address}",
            "at",
        )


def check_mark(mark: str | None, note: str | None) -> None:
    if mark is not None and mark not in MARKS:
        raise ReviewRefused(f"a mark is one of {' '.join(MARKS)}, not {mark!r}", "mark")
    if note is not None and (not note.strip() or len(note) > MAX_NOTE):
        raise ReviewRefused(f"a note is 1 to {MAX_NOTE} characters", "note")
    if mark is None and not note:
        raise ReviewRefused("a mark or a note (or both)", "mark")


def check_author(author: str) -> str:
    name = " ".join(str(author).split())
    if not name or len(name) > MAX_AUTHOR:
        raise ReviewRefused(f"the author's name is 1 to {MAX_AUTHOR} characters", "by")
    return name


def read_line(
    rules: Any, state: Any, moves: Sequence[str]
) -> tuple[list[Any], list[str], list[Any]]:
    """The decisions ``moves`` (each as a turn line's decision reads: ``take a1 b2 c3``,
    ``reveal 1-17``, several in one text too) played from ``state`` (not changed): their
    events, canonical texts and the state after each.  ReviewRefused at the first that
    does not read or that the rules refuse, naming the move (from 1), its place in the
    text, the rule and its page; a line longer than :data:`MAX_LINE` is refused before
    any is read."""
    if not moves:
        raise ReviewRefused("a saved line holds at least one decision", "moves")
    if len(moves) > MAX_LINE:
        raise ReviewRefused(
            f"a saved line holds {MAX_LINE} decisions at most; this one has {len(moves):,}",
            "moves",
        )
    events: list[Any] = []
    texts: list[str] = []
    states: list[Any] = []
    state = state.copy()
    for k, move in enumerate(moves, start=1):
        parsed = rules.read_moves(state, move)
        if parsed.errors:
            err = parsed.errors[0]
            raise ReviewRefused(
                f"move {k}: {err}",
                "moves",
                move=k,
                violations=getattr(err, "violations", ()) or (),
            )
        if any(type(e).__name__ == "Retraction" for e in parsed.events):
            raise ReviewRefused(f"move {k}: a saved line holds decisions only, no undo", "moves")
        if parsed.flagged:
            raise ReviewRefused(
                f"move {k}: a saved line is what could have been played: its decisions are"
                " legal ones (no !illegal)",
                "moves",
                move=k,
            )
        events += parsed.events
        texts += parsed.texts
        state = parsed.state
        states.extend(state.copy() for _ in parsed.events)
        if len(events) > MAX_LINE:
            raise ReviewRefused(f"a saved line holds {MAX_LINE} decisions at most", "moves")
    return events, texts, states


# --- the notation: writing and reading the review with the record -------------------------


def for_writing(
    review: Review,
) -> tuple[dict[int, list[EngineLine]], dict[int, dict[str, Any]]]:
    """The review as the notation's writer takes it (:func:`engine.review.meta_for_writing`):
    the standing lines as trees by the record position they branch at, and the marks and
    notes of the record's steps."""
    marks = review.standing_marks()
    built: dict[int, EngineLine] = {}
    tops: dict[int, list[EngineLine]] = {}
    for number, line in review.lines.items():  # (in the order they were saved)
        if not review.standing(number):
            continue
        meta: list[dict[str, Any] | None] = []
        for k in range(1, len(line.events) + 1):
            meta.append(_meta(marks.get(format_address(line.root, number, k))))
        engine_line = EngineLine(line.at, list(line.events), meta, {})
        built[number] = engine_line
        if line.parent is None:
            tops.setdefault(line.at, []).append(engine_line)
        else:
            built[line.parent].lines.setdefault(line.at, []).append(engine_line)
    record: dict[int, dict[str, Any]] = {}
    for address, m in marks.items():
        step, on_line, _ = parse_address(address)
        if on_line is None:
            found = _meta(m)
            if found:
                record[step] = found
    return tops, record


def _meta(m: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not m:
        return None
    out: dict[str, Any] = {}
    if m.get("mark"):
        out["annotations"] = [m["mark"]]
    if m.get("notes"):
        out["comment"] = " ".join(m["notes"])
    return out or None


def from_parsed(rules: Any, parsed: Any) -> list[tuple[str, dict[str, Any]]]:
    """The review events a game read from notation holds (its saved lines, and the marks
    and notes of the review), in the order of the text: ``(kind, body)``, numbered from 1
    in that order as a store appends them to a game without a review."""
    out: list[tuple[str, dict[str, Any]]] = []
    fold = parsed.fold

    def add_line(line: EngineLine, origin: str, root: int, state: Any) -> None:
        state = state.copy()
        texts = []
        states = [state.copy()]  # the position after none, one, two ... of its decisions
        for event in line.events:
            texts.append(rules.move_text(state, event))
            rules.apply(state, event)
            states.append(state.copy())
        out.append(
            (
                "line",
                {
                    "from": origin,
                    "moves": [rules.event_to_dict(e) for e in line.events],
                    "texts": texts,
                },
            )
        )
        number = len(out)
        for k, m in enumerate(line.padded_meta(), start=1):
            add_marks(format_address(root, number, k), m)
        for at in sorted(line.lines):
            k = at - line.at  # the decision of the line it goes from (after k of them)
            for nested in line.lines[at]:
                add_line(nested, format_address(root, number, k), root, states[k])

    def add_marks(address: str, m: Mapping[str, Any] | None) -> None:
        if not m:
            return
        for note in m.get("annotations") or ():
            if note in MARKS:
                out.append(("mark", {"at": address, "mark": note, "note": None}))
            else:
                out.append(("mark", {"at": address, "mark": None, "note": note}))
        if m.get("comment"):
            out.append(("mark", {"at": address, "mark": None, "note": m["comment"]}))

    steps = sorted({*(at + 1 for at in parsed.lines), *parsed.review})
    for step in steps:
        for line in parsed.lines.get(step - 1, ()):
            add_line(line, str(step - 1), step - 1, fold.state_at(step - 1))
        add_marks(str(step), parsed.review.get(step))
    return out


def body_json(body: Mapping[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# --- a stored game's review ---------------------------------------------------------------


@dataclass
class Reviewed:
    """A stored game with its review folded: its rules, the record folded, the review."""

    game_id: str
    rules: Any
    kind: str
    headers: dict[str, Any]
    stored: list[Any]
    record: RecordFold
    review: Review
    events: list[ReviewEvent]


def load(store: Any, game_id: str) -> Reviewed:
    """A stored game and its review, folded (ReviewRefused when a review event no longer
    holds: ``verify`` names it)."""
    kind, headers, stored = store.stored_content(game_id)
    rules = get_game(kind)
    names = seat_names(headers, rules.seats)
    record = RecordFold(rules, names, [e.event for e in stored], [e.meta for e in stored])
    events = store.review_events(game_id)
    return Reviewed(
        game_id, rules, kind, headers, stored, record, fold_review(rules, record, events), events
    )


def _expect(game: Reviewed, expected: int | None) -> int:
    return game.review.length if expected is None else expected


def save_line(
    store: Any,
    game_id: str,
    address: str,
    moves: Sequence[str],
    author: str,
    expected: int | None = None,
) -> tuple[SavedLine, ReviewEvent]:
    """Save a line of ``moves`` from the step ``address`` names into the game's review
    (one event, one transaction): each move read and checked by the rules as a turn
    line's decisions are.  ReviewRefused (nothing written), ReviewConflict."""
    author = check_author(author)
    game = load(store, game_id)
    checked = check_line(game, address, moves)
    body = {
        "from": _canonical(address),
        "moves": [game.rules.event_to_dict(e) for e in checked[0]],
        "texts": checked[1],
    }
    (written,) = store.append_review(game_id, _expect(game, expected), [("line", body)], author)
    apply_event(game.rules, game.record, game.review, written)
    return game.review.lines[written.seq], written


def check_line(
    game: Reviewed, address: str, moves: Sequence[str]
) -> tuple[list[Any], list[str], list[Any]]:
    """A line of ``moves`` from ``address`` read and checked, writing nothing: its events,
    texts and the state after each (:func:`read_line`)."""
    state, _, _, _ = position_at(game.record, game.review, address)
    return read_line(game.rules, state, moves)


def add_mark(
    store: Any,
    game_id: str,
    address: str,
    mark: str | None,
    note: str | None,
    author: str,
    expected: int | None = None,
) -> ReviewEvent:
    """Give the decision of step ``address`` a mark (one of :data:`MARKS`) and/or a note."""
    author = check_author(author)
    check_mark(mark, note)
    game = load(store, game_id)
    check_step(game.record, game.review, address)
    body = {"at": _canonical(address), "mark": mark, "note": note}
    written: ReviewEvent
    (written,) = store.append_review(game_id, _expect(game, expected), [("mark", body)], author)
    return written


def withdraw_line(
    store: Any, game_id: str, number: int, author: str, expected: int | None = None
) -> ReviewEvent:
    """Withdraw saved line ``number`` (it stays in the review's history)."""
    author = check_author(author)
    game = load(store, game_id)
    if not game.review.standing(number):
        raise ReviewRefused(f"there is no standing saved line {number}", "line")
    written: ReviewEvent
    (written,) = store.append_review(
        game_id, _expect(game, expected), [("withdraw", {"line": number})], author
    )
    return written


def write_notation(store: Any, game_id: str, headers: dict[str, Any], main_line: bool) -> str:
    """The game in notation with its review (lines, marks, notes), or without it
    (``main_line``): the record as it was played."""
    game = load(store, game_id)
    meta: list[Mapping[str, Any] | None] = [
        {k: v for k, v in ev.meta.items() if k != "violations"} or None for ev in game.stored
    ]
    events = [ev.event for ev in game.stored]
    if not main_line:
        lines, marks = for_writing(game.review)
        names = seat_names(headers, game.rules.seats)
        meta = meta_for_writing(game.rules, names, events, meta, lines, marks)
    return str(game.rules.write_game(headers, events, meta))


def verify_review(store: Any, game_id: str) -> str | None:
    """Why the game's review does not hold (a saved line that no longer replays, a mark on
    a step that does not exist), None when it does."""
    try:
        load(store, game_id)
    except ReviewRefused as err:
        return str(err)
    return None
