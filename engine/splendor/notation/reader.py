"""Reading classic Splendor notation: headers, the setup lines, numbered turn lines of
decisions with their marks, notes and comments; every decision checked against the rules
as it is read (a decision marked ``!illegal`` is forced and listed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...corrections import UNDO, CorrectionRefused, Retraction, retraction_at, undo_text
from ...errors import EventFormatError, IllegalMoveError
from ...fold import fold
from ...notation.lexer import (
    GLYPHS,
    HEADER_RE,
    ILLEGAL_MARK,
    TOKEN_RE,
    TURN_RE,
    Line,
    comment_text,
    logical_lines,
    long_turn_number,
    no_decision,
    normalize,
    unescape,
)
from ...notation.results import Flagged, NotationError
from ...protocol import ParsedGame
from .. import game as _game
from ..catalogue import CARDS, NOBLES
from ..events import Event, GameSetUp
from ..lookup import CardQueryError, find
from ..position import position_string
from ..state import SEATS, SETUP, State
from .decisions import KEYWORDS, move_text, parse_decision
from .typed import reading
from .writer import KNOWN_TAGS

_SETUP_KEYS = ("nobles", "level1", "level2", "level3")


class _Stop(Exception):
    """Ends the reading."""


class _SkipLine(Exception):
    """Ends the reading of a line (every error asked for: the next line is read)."""


class Reader:
    """One game read line by line into events, meta and errors."""

    def __init__(
        self,
        source: str,
        names: Sequence[str] | None,
        state: State | None = None,
        all_errors: bool = False,
    ):
        self.source = source
        #: Every error asked for: a line in error is skipped, a refused decision is kept
        #: as played when it can be, and the reading goes on.
        self.all_errors = all_errors
        #: A line was skipped for an error (reporting every error): the table no longer
        #: follows the text, so the lines after it are checked for their syntax only,
        #: until a line of the turn due (the skipped one, written again).
        self.lost = False
        self.state = state if state is not None else State(names)
        self.names = self.state.names
        self.events: list[Event | Retraction] = []
        self.meta: list[dict[str, Any] | None] = []
        self.errors: list[NotationError] = []
        self.flagged: list[Flagged] = []
        self.number = 0 if state is None else 1  # events so far (the setup is event 1)
        #: The game's events before the text and their meta (for ``undo``, which takes
        #: back logged steps); None when they were not given.
        self.prior: list[Event | Retraction] | None = [] if state is None else None
        self.prior_meta: list[dict[str, Any] | None] = []

    def fail(
        self, kind: str, line: Line, col: int, message: str, *, fatal: bool = False, **kw: Any
    ) -> None:
        self.errors.append(NotationError(kind, self.source, line.number, col, message, **kw))
        if self.all_errors and not fatal:
            raise _SkipLine
        raise _Stop

    # --- one decision -------------------------------------------------------------

    def decide(self, line: Line, col: int, words: list[str], marks: list[str]) -> None:
        if words[0] == UNDO:
            self.correct(line, col, words[1:], marks)
            return
        state = self.state
        if '"' in line.text and not self.lost and any(w[0] == '"' for w in words):
            words = [self._described(line, col, words, w) for w in words]
        try:
            event = parse_decision(words, len(state.players))
        except EventFormatError as err:
            kind = "unknown" if "unknown" in str(err) else "syntax"
            self.fail(kind, line, col, str(err))
        if self.lost:
            return  # read, not played: the table before it is not known
        illegal = ILLEGAL_MARK in marks
        before = position_string(state)
        turn = state.turn
        number = self.number + 1
        if illegal:
            try:
                violations = _game.RULES.force(state, event)
            except IllegalMoveError as err:
                self.fail(
                    "illegal",
                    line,
                    col,
                    f"{' '.join(words)} cannot be replayed even as played",
                    fatal=True,
                    violations=err.violations,
                    turn=turn,
                    event_number=number,
                    position=before,
                )
            self.flagged.append(
                Flagged(number, line.number, col, turn, move_text(event), violations, before)
            )
        else:
            violations = _game.check(state, event)
            if violations:
                error = NotationError(
                    "illegal",
                    self.source,
                    line.number,
                    col,
                    f"{move_text(event)} is not allowed here",
                    violations,
                    turn=turn,
                    event_number=number,
                    position=before,
                )
                self.errors.append(error)
                if not self.all_errors:
                    raise _Stop
                try:  # read on from the table as it stood after the refused decision
                    _game.RULES.force(state, event)
                except IllegalMoveError:
                    raise _Stop from None
                illegal = True
            else:
                _game.apply(state, event)
        meta: dict[str, Any] = {}
        if illegal:
            meta["played_illegally"] = True
        notes = [m for m in marks if m != ILLEGAL_MARK and not m.startswith("{")]
        if notes:
            meta["annotations"] = notes
        comments = [m[1:] for m in marks if m.startswith("{")]
        if comments:
            meta["comment"] = " ".join(c for c in comments if c)
        self.number = number
        self.events.append(event)
        self.meta.append(meta or None)

    def correct(self, line: Line, col: int, args: list[str], marks: list[str]) -> None:
        """``undo`` / ``undo to K``: a Retraction appended and the standing steps folded
        again (those played illegally forced again)."""
        if ILLEGAL_MARK in marks:
            self.fail("syntax", line, col, f"{UNDO} takes steps back: it cannot be marked !illegal")
        back_to: int | None = None
        if args:
            if len(args) != 2 or args[0] != "to" or not args[1].isdigit() or len(args[1]) > 9:
                self.fail(
                    "syntax", line, col, f"expected {UNDO}, or {UNDO} to STEP (a step number)"
                )
            back_to = int(args[1])
        if self.prior is None:
            self.fail(
                "syntax",
                line,
                col,
                f"{UNDO} takes back logged steps: it is read with the game's events",
            )
            return
        events = [*self.prior, *self.events]
        try:
            retraction = retraction_at(_game.RULES, events, back_to)
        except CorrectionRefused as refused:
            self.fail(
                "illegal",
                line,
                col,
                f"{' '.join([UNDO, *args])} cannot stand here",
                fatal=True,
                violations=refused.violations,
                turn=self.state.turn,
                event_number=self.number + 1,
                position=position_string(self.state),
            )
            return
        notes = [m for m in marks if not m.startswith("{")]
        comments = [m[1:] for m in marks if m.startswith("{")]
        meta: dict[str, Any] = {}
        if notes:
            meta["annotations"] = notes
        if comments:
            meta["comment"] = " ".join(c for c in comments if c)
        self.events.append(retraction)
        self.meta.append(meta or None)
        self.number += 1
        played = [bool(m and m.get("played_illegally")) for m in [*self.prior_meta, *self.meta]]
        self.state = fold(_game.RULES, [*events, retraction], self.names, played).head

    def _described(self, line: Line, col: int, words: list[str], word: str) -> str:
        """``word`` itself, or for a quoted description (``reveal "white 1 point"``) the
        id of the one card it fits among those that can stand there: a card to buy on the
        display or in the player's reserve, one to reserve on the display (or, blind, in
        its deck), one to reveal or show among those still unseen."""
        if not word.startswith('"'):
            return word
        query = unescape(word.strip('"'))
        at = line.text.find(word, max(col - 1, 0))
        col = line.place(at)[1] if at >= 0 else col  # errors point at the description
        state = self.state
        key = words[0]
        unseen = state.unseen
        if key == "reveal" and state.refill is not None:
            can = set(unseen[state.refill[0]])
        elif key in ("reveal", "id") or (key == "res" and words[1:2] in (["L1"], ["L2"], ["L3"])):
            can = set().union(*unseen)
        else:
            can = {c for row in state.display for c in row if c}
            if key == "buy":
                can |= {c for _, c in state.player.reserved if c}
        try:
            fits = find(query)
        except CardQueryError as err:
            self.fail("unknown", line, col, str(err))
        cards = [c for c in fits if c.id in can]
        found = sorted(c.id for c in cards)
        printed = {c.id: c.words.split(" ", 1)[1].lower() for c in cards}
        if len(set(printed.values())) == 1:
            return found[0]  # one card, or cards printed alike (the table cannot tell)
        said = " ".join(query.lower().split())
        whole = [cid for cid in found if printed[cid] == said]
        if len(whole) == 1:
            return whole[0]  # all it says, where another card says that and more
        if not found:
            elsewhere = sorted(c.id for c in fits if c.id in CARDS)[:3]
            where = f" ({', '.join(elsewhere)} fits, but cannot be here)" if elsewhere else ""
            self.fail("unknown", line, col, f"no card that can stand here fits {query!r}{where}")
        shown = ", ".join(found[:8]) + (", ..." if len(found) > 8 else "")
        self.fail(
            "unknown", line, col, f"{len(found)} cards fit {query!r} here ({shown}): say more"
        )
        raise AssertionError("unreachable")  # pragma: no cover

    # --- a line of decisions --------------------------------------------------------

    def decisions(self, line: Line, start: int) -> None:
        text = line.text
        words: list[str] = []
        marks: list[str] = []
        col = 0
        for m in TOKEN_RE.finditer(text, start):
            tok = m.group()
            where = line.place(m.start())[1]
            if tok in KEYWORDS or tok == UNDO:
                if words:
                    self.decide(line, col, words, marks)
                words, marks, col = [tok], [], where
            elif tok.startswith("{"):
                body = comment_text(tok)
                if body is None:
                    self.fail("syntax", line, where, "a comment is never closed")
                if not words:
                    self.fail("syntax", line, where, "a comment follows a decision")
                marks.append("{" + (body or ""))
            elif tok.startswith("("):
                if not tok.endswith(")") or not words:
                    self.fail(
                        "syntax", line, where, "a note (...) is closed and follows a decision"
                    )
                marks.append(unescape(tok[1:-1]))
            elif tok == ILLEGAL_MARK or tok in GLYPHS:
                if not words:
                    self.fail("syntax", line, where, f"{tok} follows a decision")
                marks.append(tok)
            elif words and not marks:
                words.append(tok)
            else:
                self.fail(
                    "syntax",
                    line,
                    where,
                    f"expected a decision ({', '.join(KEYWORDS)}), or {UNDO}",
                )
        if words:
            self.decide(line, col, words, marks)

    def turn_line(self, line: Line) -> None:
        m = TURN_RE.match(line.text)
        state = self.state
        if m is None:
            too_long = long_turn_number(line.text)
            if too_long:
                self.fail("syntax", line, 1, too_long)
            self.decisions(line, 0)
            return
        number, name = int(m.group(1)), m.group(2)
        if self.lost and number == state.turn:
            self.lost = False  # the turn due written again (the line skipped, corrected)
        if self.lost:  # the table is not known here: the decisions' words only
            self.decisions(line, m.end())
            return
        if state.awaiting == SETUP:
            self.fail("syntax", line, 1, "the setup (nobles, level3, level2, level1) comes first")
        if number != state.turn:
            self.fail("syntax", line, 1, f"turn {state.turn} is due here, not {number}")
        if name is not None and name != state.names[state.current]:
            self.fail(
                "unknown",
                line,
                m.start(2) + 1,
                f"{name!r} is not the player to move ({state.names[state.current]})",
            )
        if len(line.text.rstrip()) <= m.end():  # a line cut short, or left unfinished
            self.fail("syntax", line, len(line.text.rstrip()) + 1, no_decision(number, name))
        self.decisions(line, m.end())


def _first_seat(value: str | None, names: Sequence[str]) -> int:
    if value is None:
        return 0
    if value.isdigit() and 1 <= int(value) <= len(names):
        return int(value) - 1
    if value in names:
        return list(names).index(value)
    raise EventFormatError(f"[First] names no seat: {value!r}")


def parse_game(
    text: str, source: str = "<text>", *, stop_at_first_error: bool = True
) -> ParsedGame:
    """Read one game; never raises for bad input.  The reading stops at the first error,
    or, when every error is asked for, skips a line in error and keeps a refused decision
    as played (marked so) when it can be replayed at all."""
    lines = logical_lines(normalize(text))
    headers: dict[str, Any] = {}
    tags: dict[str, str] = {}
    players: dict[int, str] = {}
    first: str | None = None
    body_at = len(lines)
    for i, line in enumerate(lines):
        m = HEADER_RE.fullmatch(line.text)
        if m is None:
            if line.text.strip():
                body_at = i
                break
            continue
        tag, value = m.group(1), unescape(m.group(2))
        known = dict(KNOWN_TAGS)
        if tag.startswith("Player") and tag[6:].isdigit():
            players[int(tag[6:])] = value
        elif tag == "First":
            first = value
        elif tag == "Result":
            headers["result"] = value
        elif tag in known:
            headers[known[tag]] = value
        elif tag != "Game":
            tags[tag] = value
    if tags:
        headers["tags"] = tags
    count = max(players, default=2)
    try:
        names = SEATS.names([players.get(i + 1, "") for i in range(count)])
    except ValueError as err:
        err_out = NotationError("syntax", source, 1, 1, str(err))
        return ParsedGame(headers, [], [], [err_out], State(), [], ())
    headers["players"] = list(names)
    reader = Reader(source, names, all_errors=not stop_at_first_error)
    setup: dict[str, list[str]] = {}
    setup_line: Line | None = None
    try:
        for line in lines[body_at:]:
            stripped = line.text.strip()
            if not stripped:
                continue
            key = stripped.split()[0]
            if key in _SETUP_KEYS and reader.state.awaiting == SETUP:
                setup[key] = stripped.split()[1:]
                setup_line = line
                if len(setup) == 4:
                    _setup(reader, setup, setup_line, first)
                continue
            if reader.state.awaiting == SETUP:
                if setup and setup_line is not None:
                    _setup(reader, setup, setup_line, first)
                else:
                    reader.fail(
                        "syntax",
                        line,
                        1,
                        "the setup (nobles, level3..level1) comes first",
                        fatal=True,
                    )
            try:
                reader.turn_line(line)
            except _SkipLine:
                reader.lost = True
                continue
    except _Stop:
        pass
    return ParsedGame(
        headers, reader.events, reader.meta, reader.errors, reader.state, reader.flagged, names
    )


def _setup(reader: Reader, setup: dict[str, list[str]], line: Line, first: str | None) -> None:
    words = setup.get("level1", []), setup.get("level2", []), setup.get("level3", [])
    comment: str | None = None
    rows: list[tuple[str, ...]] = []
    for level, row in enumerate(words, start=1):
        ids = []
        for w in row:
            if w.startswith("{"):
                comment = unescape(" ".join(row[row.index(w) :])[1:-1]).strip()
                break
            if w not in CARDS:
                reader.fail("unknown", line, 1, f"level{level}: unknown card {w!r}", fatal=True)
            ids.append(w)
        rows.append(tuple(ids))
    for n in setup.get("nobles", []):
        if n not in NOBLES:
            reader.fail("unknown", line, 1, f"nobles: unknown noble {n!r}", fatal=True)
    try:
        seat = _first_seat(first, reader.names)
    except EventFormatError as err:
        reader.fail("unknown", line, 1, str(err), fatal=True)
    event = GameSetUp(seat, (rows[0], rows[1], rows[2]), tuple(setup.get("nobles", [])))
    violations = _game.check(reader.state, event)
    if violations:
        reader.fail(
            "illegal",
            line,
            1,
            "the setup is not allowed",
            fatal=True,
            violations=violations,
            turn=0,
            event_number=1,
            position=None,
        )
    _game.apply(reader.state, event)
    reader.number = 1
    reader.events.append(event)
    reader.meta.append({"comment": comment} if comment else None)
    setup.clear()


def read_moves(
    state: State,
    text: str,
    events: Sequence[Event | Retraction] | None = None,
    meta: Sequence[dict[str, Any] | None] | None = None,
) -> ParsedGame:
    """Read what was played next in ``state``: one turn line or one or more decisions,
    with or without the turn number and player; never raises for bad input.  ``undo``
    needs the game's ``events`` (and their ``meta``) so far.  A text typed by hand that
    does not read as it is (``Take wbg``) is read by its canonical reading
    (:mod:`.typed`) when that reads."""
    parsed = _read_moves(state, text, events, meta)
    if parsed.events or not parsed.errors or parsed.errors[0].kind == "illegal":
        return parsed
    canonical = reading(text)
    if canonical is not None:
        again = _read_moves(state, canonical, events, meta)
        if not again.errors or again.errors[0].kind == "illegal":
            return again  # it reads: legal, or refused by the rules (not by the reading)
    return parsed


def _read_moves(
    state: State,
    text: str,
    events: Sequence[Event | Retraction] | None,
    meta: Sequence[dict[str, Any] | None] | None,
) -> ParsedGame:
    reader = Reader("<moves>", None, state.copy())
    reader.number = 0
    if events is not None:
        reader.prior = list(events)
        reader.prior_meta = list(meta) if meta is not None else [None] * len(events)
    try:
        for line in logical_lines(normalize(text)):
            if line.text.strip():
                reader.turn_line(line)
    except _Stop:
        pass
    # a classic decision's text needs no position; an undo's, the events before it
    texts = []
    so_far = list(events or ())
    for event in reader.events:
        if type(event) is Retraction:
            texts.append(undo_text(_game.RULES, so_far, event))
        else:
            texts.append(move_text(event))
        so_far.append(event)
    return ParsedGame(
        {"players": list(state.names)},
        reader.events,
        reader.meta,
        reader.errors,
        reader.state,
        reader.flagged,
        state.names,
        texts,
    )
