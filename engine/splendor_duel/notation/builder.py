"""The visitor that builds a game: each decision read is checked against the rules and
applied, the meta (comments, notes, ``!illegal``) kept beside the events, and the result
of :func:`parse_game` is an :class:`engine.protocol.ParsedGame`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...corrections import UNDO, CorrectionRefused, Retraction, retraction_at, undo_text
from ...errors import IllegalMoveError, Violation
from ...fold import fold
from ...protocol import ParsedGame
from .. import describe, rules
from .. import game as _game
from ..events import CardRevealed, Event, GameSetUp, TokensTaken
from ..position import position_string
from ..state import ACTION, OVER, REVEAL, SETUP, State
from .arguments import Context, Fail
from .corrections import read_undo
from .decisions import READERS, TEXT_CACHE, UNCACHED, Entry, learn, move_text, remember
from .lexer import KEYWORDS, PLAIN_TURNS_RE, TOKEN_RE, Line
from .players import listing, seat_number
from .reader import read_game
from .results import Flagged
from .setup import setup_parts_missing
from .tokens import check_take_colors
from .visitor import Decision, SyntaxChecker

#: The characters of the first window of plain turn lines scanned at once (a line or two:
#: all that is scanned in vain when the line is read token by token).
_FIRST_WINDOW = 64


class GameBuilder(SyntaxChecker):
    """Folds the game as it is read, with full rule checks.  After the first error (when
    every error is asked for) it only checks the syntax, as :class:`SyntaxChecker`."""

    def __init__(self, source: str = "<string>", *, stop_at_first_error: bool = True):
        super().__init__(source, stop_at_first_error=stop_at_first_error)
        self.state = State(self.names)
        #: The game's events (a correction as a Retraction) and their meta: with
        #: :meth:`continuing`, those before the text first (from ``first`` on: read).
        self.events: list[Event | Retraction] = []
        self.meta: list[dict[str, Any] | None] = []
        self.read_from = 0
        #: Whether ``events`` holds the whole game (its steps are then numbered).
        self.whole = True
        self.flagged: list[Flagged] = []
        #: The canonical text of each event read, when reading what is played next
        #: (:meth:`continuing`); None for a whole game, which has no use for them.
        self.texts: list[str] | None = None
        self.pending_comments: list[str] = []
        self.pending_notes: list[str] = []

    @classmethod
    def continuing(
        cls,
        state: State,
        events: Sequence[Any] | None = None,
        meta: Sequence[Mapping[str, Any] | None] | None = None,
        source: str = "<move>",
    ) -> GameBuilder:
        """A builder for what is played next in ``state`` (read with
        :func:`.reader.read_turns`), which it does not change.  ``events`` (and their
        ``meta``) are the game's so far, ``state`` their fold: an ``undo`` needs them,
        and they number the steps."""
        builder = cls(source)
        builder.names = tuple(state.names)
        builder.ctx = Context(builder.names)
        builder.state = state.copy()
        builder.texts = []
        if events is not None:
            builder.events = list(events)
            builder.meta = [dict(m) if m else None for m in meta or ()][: len(events)]
            builder.meta += [None] * (len(events) - len(builder.meta))
            builder.read_from = len(events)
        else:
            builder.whole = False
        return builder

    def step(self) -> int | None:
        """The step number of the next event (None when the game before is not known)."""
        return len(self.events) + 1 if self.whole else None

    def position_facts(self) -> tuple[int | None, int | None, str | None]:
        state = self.state
        return state.turn, self.step(), position_string(state)

    def parsed(self) -> ParsedGame:
        """What was read: the headers, the events and meta of the legal prefix, the
        errors, the state after the prefix, the decisions kept as played illegally."""
        first = self.read_from
        events = self.events[first:] if first else self.events
        meta = self.meta[first:] if first else self.meta
        return ParsedGame(
            self.result(),
            events,
            meta,
            self.errors,
            self.state,
            self.flagged,
            self.names,
            self.texts or [],
        )

    # -- headers and setup -------------------------------------------------------------

    def end_headers(self) -> bool:
        try:
            super().end_headers()
        finally:  # named even when a header error ends the reading
            self.state.names = self.names  # type: ignore[assignment]
        return True

    def visit_setup_comment(self, text: str) -> None:
        self.pending_comments.append(text)

    def visit_setup_note(self, text: str) -> None:
        self.pending_notes.append(text)

    def end_setup(self, parts: dict[str, Any], line: Line | None, at_end: bool) -> None:
        number = line.number if line is not None else 1
        if not self.live and not self.stop:
            return
        missing = setup_parts_missing(parts)
        if missing:
            if at_end and not parts:
                if not self.tag_lines and not self.errors:
                    self.error(
                        "syntax", 1, 1, "no game here: expected headers, the setup and turns"
                    )
                return  # headers only: a game not set up yet
            self.error(
                "syntax",
                number,
                1,
                f"the setup is incomplete: {', '.join(missing)} missing before turn 1",
            )
            return
        if self.first is None:
            self.error(
                "syntax",
                number,
                1,
                'the First header names the first player, e.g. [First "Alice"]',
            )
            return
        value, first_line = self.first
        first = None
        for seat, name in enumerate(self.names):
            if value == name:
                first = seat
        if first is None:
            first = seat_number(value if value.startswith("#") else "#" + value, len(self.names))
        if first is None:
            col = self.tag_lines["First"][1] + 1
            self.error(
                "unknown",
                first_line,
                col,
                f"First names {value!r}, who is neither player "
                f"({', '.join(repr(n) for n in self.names)})",
            )
            return
        levels = parts["levels"]
        pyramid = (tuple(levels[1]), tuple(levels[2]), tuple(levels[3]))
        event = GameSetUp(first, parts["board"][0], pyramid, parts.get("privileges"))
        violations = _game.check(self.state, event)
        if violations:
            self.error(
                "illegal",
                parts["board"][1],
                1,
                "the setup breaks the rules",
                violations,
                with_position=True,
            )
            return
        _game.apply(self.state, event)
        self.events.append(event)
        self.meta.append(self._take_pending())

    def _take_pending(self) -> dict[str, Any] | None:
        m: dict[str, Any] = {}
        if self.pending_comments:
            m["comment"] = " ".join(c for c in self.pending_comments if c)
            if not m["comment"]:
                del m["comment"]
        if self.pending_notes:
            m["annotations"] = list(self.pending_notes)
        self.pending_comments = []
        self.pending_notes = []
        return m or None

    # -- turns -------------------------------------------------------------------------

    def visit_turn(self, line: Line, m: re.Match[str], number: int) -> None:
        state = self.state
        name = m.group(2)
        if (
            number == state.turn
            and self.live
            and (name is None or name == self.names[state.current])
            and state.awaiting != OVER
        ):
            return  # the usual case: the turn the game is at, its player named or not
        if not self.live:
            return
        if state.awaiting == SETUP:
            self.error("syntax", line.number, 1, "the game has no setup before turn 1")
            return
        if number != state.turn and state.awaiting != OVER:
            if number > state.turn:
                self.error(
                    "illegal",
                    line.number,
                    m.start(1) + 1,
                    f"turn {number} starts here, but turn {state.turn} is not over",
                    [_due_violation(state)],
                    with_position=True,
                )
                return
            msg = (
                f"this is turn {state.turn}, not {number} (turns are numbered from 1; an "
                f"extra turn counts as a turn): {describe.due(state)}"
            )
            self.error("syntax", line.number, m.start(1) + 1, msg, with_position=True)
            return
        if number != state.turn:
            self.error(
                "syntax",
                line.number,
                m.start(1) + 1,
                f"the game ended on turn {state.turn}; turn {number} cannot follow",
                with_position=True,
            )
            return
        if name is not None:
            self._turn_player(line, m, number, name.strip())

    def _turn_player(self, line: Line, m: re.Match[str], number: int, name: str) -> None:
        state = self.state
        names = self.names
        seat = names.index(name) if name in names else seat_number(name, len(names))
        if seat is None:
            self.error(
                "unknown",
                line.number,
                m.start(2) + 1,
                f"no player {name!r} (the players are {listing(names)})",
            )
            return
        if seat != state.current and state.awaiting != OVER:
            self.error(
                "illegal",
                line.number,
                m.start(2) + 1,
                f"turn {number} is {names[state.current]}'s, not {name}'s: {describe.due(state)}",
                [
                    Violation(
                        "turn.player", f"it is {names[state.current]}'s turn", rules.PLAYER_TURN
                    )
                ],
                with_position=True,
            )

    def plain_lines(self, text: str, pos: int, turn: int | None) -> tuple[int, int, int | None]:
        """Check and apply the decisions of the plain turn lines from offset ``pos`` on
        (:data:`.lexer.PLAIN_TURNS_RE`) straight from the cache of decision texts, up to
        the first one that needs the token-by-token reading: its line's turn number
        not the turn due, a decision not in the cache and not learnt (one that needs
        the position, or a wrong one), a take whose colours are not those on the board,
        a decision the rules refuse, or anything not plain.

        The text is scanned in windows of whole lines, each twice the one before: what
        is scanned past the line read token by token is never more than the first
        window or what was taken before it (linear however many such lines).  What is
        played next (:meth:`continuing`) is read token by token, each event's text
        written as it is folded."""
        if not self.live or self.texts is not None:
            return pos, 0, turn
        state = self.state
        names = self.names
        board = state.board
        events = self.events
        append = events.append
        check = _game.check
        appliers = _game.APPLIERS  # the effects themselves: no layer in between
        cache = TEXT_CACHE
        scan = PLAIN_TURNS_RE.findall
        read = line_read = len(events)
        size = _FIRST_WINDOW
        end = len(text)
        while pos < end:
            window = text.find("\n", pos + size) + 1 or end
            lines = 0  # the lines of the window started
            line_read = len(events)  # the events before the line
            for number, name, decision, not_plain in scan(text, pos, window):
                if not decision:  # not plain: from a line's start, or within it
                    if not_plain:
                        lines += 1
                        line_read = len(events)
                    break
                if number:
                    lines += 1
                    line_read = len(events)
                    turn = int(number)
                    if (
                        turn != state.turn
                        or state.awaiting == OVER
                        or (name and name != names[state.current])
                    ):
                        break
                entry = cache.get(decision)
                if entry is None:
                    entry = learn(decision) or self._read_plain(decision)
                if entry is None or state.turn != turn:
                    break
                event, colors = entry
                if colors is not None:
                    for sp, c in colors:
                        if board[sp] != c:
                            break
                    else:
                        colors = None
                    if colors is not None:
                        break
                if check(state, event):
                    break
                appliers[event.type](state, event)
                append(event)
            else:
                pos = window
                size *= 2
                continue
            for _ in range(lines - 1):  # to the start of the line not taken whole
                pos = text.find("\n", pos) + 1
            break
        else:
            line_read = len(events)
        self.meta += [None] * (len(events) - read)  # no meta: nothing but the decisions
        return pos, len(events) - line_read, turn

    def _read(self, keyword: str, args: list[str]) -> Event | None:
        """The event a decision stands for, read without the position when it needs
        none (and then kept in the cache of decision texts), else in the position;
        raises Fail."""
        reader = READERS[keyword]
        event = reader(args, None, self.ctx)
        if event is not None and keyword not in UNCACHED:
            remember(keyword, args, event)
            if keyword == "take" and args[-1][0] == "=":
                check_take_colors(self.state, args)
            return event
        return reader(args, self.state, self.ctx)

    def _read_plain(self, decision: str) -> Entry | None:
        """A plain decision that is not in the cache of decision texts, read as
        :meth:`visit_decision` reads it; None when that fails (the token-by-token
        reading then says why, at its place)."""
        words = TOKEN_RE.findall(decision)
        try:
            event = self._read(words[0], words[1:])
        except Fail:
            return None
        return None if event is None else (event, None)

    def visit_comment(self, text: str) -> None:
        if not text or not self.live:
            return
        if len(self.events) == self.read_from:  # before the setup, or the first move read
            self.pending_comments.append(text)
            return
        m = self.meta[-1]
        if m is None:
            m = self.meta[-1] = {}
        old = m.get("comment")
        m["comment"] = f"{old} {text}" if old else text

    def visit_decision(self, decision: Decision) -> None:
        if not self.live:
            super().visit_decision(decision)
            return
        keyword, args, turn = decision.keyword, decision.args, decision.turn
        state = self.state
        try:
            event = self._read(keyword, args)
        except Fail as f:
            self.fail(f, decision)
            return
        if event is None:
            return
        if state.awaiting == SETUP:
            where = decision.place()
            self.error("syntax", where[0], where[1], "the game has no setup")
            return
        if turn is not None and state.turn != turn and state.awaiting != OVER:
            where = decision.place()
            self.error(
                "syntax",
                where[0],
                where[1],
                f"turn {turn} ended before {keyword!r}; turn {state.turn} starts on a new "
                f"line ('{state.turn}.')",
                with_position=True,
            )
            return
        text = decision.text
        texts = self.texts
        canonical = "" if texts is None else move_text(state, event, self.names)
        if decision.illegal:
            where = decision.place()
            before = position_string(state)
            try:
                violations = _game.RULES.force(state, event)
            except IllegalMoveError as err:
                self.error(
                    "illegal",
                    where[0],
                    where[1],
                    "marked !illegal, but it cannot be replayed even as played",
                    err.violations,
                    with_position=True,
                )
                return
            self.flagged.append(
                Flagged(
                    self.step() or 0,
                    where[0],
                    where[1],
                    turn or state.turn,
                    text,
                    violations,
                    before,
                )
            )
        else:
            violations = _game.check(state, event)
            if violations:
                where = decision.place()
                self.error(
                    "illegal",
                    where[0],
                    where[1],
                    f"{text} is not allowed here",
                    violations,
                    with_position=True,
                )
                return
            _game.apply(state, event)
        self.events.append(event)
        if texts is not None:
            texts.append(canonical)
        if decision.illegal or decision.notes:
            m: dict[str, Any] = {}
            if decision.notes:
                m["annotations"] = decision.notes
            if decision.illegal:
                m["played_illegally"] = True
            self.meta.append(m)
        else:
            self.meta.append(None)

    def visit_correction(self, decision: Decision) -> None:
        """``undo`` / ``undo to K``: a Retraction appended, the standing steps folded
        again (those played illegally forced again)."""
        if not self.live:
            super().visit_correction(decision)
            return
        try:
            back_to = read_undo(decision.args, decision.illegal)
        except Fail as f:
            self.fail(f, decision)
            return
        where = decision.place()
        if self.state.awaiting == SETUP:
            self.error("syntax", where[0], where[1], "the game has no setup")
            return
        if not self.whole:
            self.error(
                "syntax",
                where[0],
                where[1],
                f"{decision.text} takes back logged steps: it is read with the game's events",
            )
            return
        events = self.events
        try:
            retraction = retraction_at(_game.RULES, events, back_to)
        except CorrectionRefused as refused:
            self.error(
                "illegal",
                where[0],
                where[1],
                f"{decision.text} cannot stand here",
                refused.violations,
                with_position=True,
            )
            return
        if self.texts is not None:
            self.texts.append(undo_text(_game.RULES, events, retraction))
        events.append(retraction)
        self.meta.append({"annotations": decision.notes} if decision.notes else None)
        marks = [bool(m and m.get("played_illegally")) for m in self.meta]
        self.state = fold(_game.RULES, events, self.names, marks).head

    # -- the end -----------------------------------------------------------------------

    def end_game(self) -> None:
        if not self.live:
            return
        if self.read_from or not self.whole:
            self._end_moves()
        elif self.events:
            self._check_result()

    def _end_moves(self) -> None:
        """What was read after a game's events: a comment before the first event goes
        with it; a text with no event at all is an error."""
        if len(self.events) == self.read_from:
            self.error(
                "syntax",
                1,
                1,
                f"expected a turn or a decision ({', '.join(KEYWORDS)}), or {UNDO}",
            )
            return
        if self.pending_comments:
            comment = " ".join(self.pending_comments)
            m = self.meta[self.read_from] or {}
            m["comment"] = f"{comment} {m['comment']}" if m.get("comment") else comment
            self.meta[self.read_from] = m
            self.pending_comments = []

    def _check_result(self) -> None:
        """The Result and Victory headers must agree with how the moves end."""
        problem = describe.result_problem({**self.headers, "tags": self.tags}, self.state)
        if problem is not None:
            header, message, violation = problem
            line, col = self.tag_lines.get("Result" if header == "result" else header, (1, 0))
            self.error("illegal", line, col + 1, message, [violation], with_position=True)


def _due_violation(state: State) -> Violation:
    """What the state waits for, as the engine words it (``turn.discard_due`` ...)."""
    if state.awaiting == ACTION:
        return Violation(
            "turn.action_due",
            f"{state.names[state.current]} has not played turn {state.turn} yet: the "
            "mandatory action is due",
            rules.MANDATORY,
        )
    probe: Event = TokensTaken((0,)) if state.awaiting == REVEAL else CardRevealed("1-01")
    found = _game.check(state, probe)
    if found:
        return found[0]
    return Violation("turn.not_over", "the turn is not over", rules.PLAYER_TURN)


def parse_game(
    text: str, source: str = "<string>", *, stop_at_first_error: bool = True
) -> ParsedGame:
    """Read a game written in notation, checking every decision against the rules.

    With ``stop_at_first_error`` (the default) reading ends at the first problem; without
    it, the events stop at the first problem (the legal prefix is kept) and the rest of
    the text is still read for syntax errors and unknown names, each reported.  A
    decision marked ``!illegal`` is applied as played (``game.force``) and listed in
    ``flagged`` instead of being an error.  Never raises for bad input.
    """
    builder = GameBuilder(source, stop_at_first_error=stop_at_first_error)
    read_game(text, builder)
    return builder.parsed()
