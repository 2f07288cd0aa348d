"""What the reader calls while it walks a game: the :class:`Visitor` hooks and the light
visitors (skip the game, collect its headers, check the syntax of every decision).  The
visitor that folds the game with the rules is :class:`.builder.GameBuilder`.

>>> from .reader import read_game
>>> v = HeadersBuilder()
>>> read_game('[Game "Splendor Duel"]\\n[Player1 "Ann"]\\n\\nboard nonsense', v)
>>> v.headers, v.names, v.errors
({'players': ['Ann', 'Player 2']}, ('Ann', 'Player 2'), [])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import Violation
from ...protocol import SeatsError
from ..game import RULES
from .arguments import Context, Fail
from .corrections import read_undo
from .decisions import READERS
from .lexer import Line
from .players import SEAT_TAG, default_names, seat_tag, seats
from .results import NotationError

#: The headers kept under their own key (the rest go to ``tags``).
KNOWN_TAGS = (("Event", "event"), ("Date", "date"), ("Place", "place"))
_READ_TAGS = KNOWN_TAGS + (("Result", "result"),)


class Stop(Exception):
    """Ends the reading at the first error."""


@dataclass(slots=True)
class Decision:
    """One decision as written: its ``keyword`` (the ``index``-th token of ``body``, the
    line's text from ``body_at`` on), its arguments, the ``!illegal`` mark and the notes
    after it, on the turn its line starts (None before any turn number)."""

    line: Line
    body_at: int
    body: str
    index: int
    keyword: str
    args: list[str]
    illegal: bool
    notes: list[str] | None
    turn: int | None

    @property
    def text(self) -> str:
        """The keyword and arguments as one text (``take c2 c3``)."""
        return " ".join([self.keyword, *self.args])

    def place(self, arg: int = -1) -> tuple[int, int]:
        """(line, column) of argument ``arg`` (-1: the keyword)."""
        k = self.index + 1 + arg if arg >= 0 else self.index
        return self.line.token_place(self.body_at, self.body, k)


class Visitor:
    """The hooks the reader calls, in order: ``begin_game``, ``visit_header``...,
    ``end_headers``, ``visit_setup_comment`` / ``visit_setup_note``..., ``end_setup``,
    then ``plain_lines`` and per line not taken ``visit_turn``, ``visit_comment`` /
    ``visit_decision`` / ``visit_correction``..., and ``end_game``.  This base class
    collects the errors and does nothing else."""

    def __init__(self, source: str = "<string>", *, stop_at_first_error: bool = True):
        self.source = source
        self.stop = stop_at_first_error
        #: False once an error was met (with every error asked for, reading goes on).
        self.live = True
        self.errors: list[NotationError] = []

    # -- errors ------------------------------------------------------------------------

    def error(
        self,
        kind: str,
        line: int,
        column: int,
        message: str,
        violations: Sequence[Violation] = (),
        *,
        with_position: bool = False,
    ) -> None:
        """Record an error; raises :class:`Stop` when reading ends at the first one.
        ``with_position`` adds the turn, event number and position string it occurs at."""
        turn, number, position = self.position_facts() if with_position else (None, None, None)
        self.errors.append(
            NotationError(
                kind,
                self.source,
                line,
                column,
                message,
                violations,
                turn=turn,
                event_number=number,
                position=position,
            )
        )
        if self.stop:
            raise Stop
        self.live = False

    def position_facts(self) -> tuple[int | None, int | None, str | None]:
        """The turn, the number of the next event and the position string, where known."""
        return None, None, None

    def fail(self, f: Fail, decision: Decision) -> None:
        """Report a decision reader's failure at the argument it names."""
        where = decision.place(f.arg)
        self.error(
            f.kind, where[0], where[1], f.message, f.violations, with_position=f.kind == "illegal"
        )

    # -- the hooks ---------------------------------------------------------------------

    def begin_game(self) -> bool:
        """False skips the game."""
        return True

    def visit_header(self, name: str, value: str, line: int, offset: int) -> None:
        """A header ``[name "value"]``; ``offset`` is where the value starts."""

    def end_headers(self) -> bool:
        """False ends the reading after the headers."""
        return True

    def visit_setup_comment(self, text: str) -> None:
        """A comment among the setup lines."""

    def visit_setup_note(self, text: str) -> None:
        """A note or assessment among the setup lines."""

    def end_setup(self, parts: dict[str, Any], line: Line | None, at_end: bool) -> None:
        """The setup read (``board``, ``levels``, ``privileges``); ``at_end`` when no
        turn follows."""

    def visit_turn(self, line: Line, m: re.Match[str], number: int) -> None:
        """A turn line starts (``m`` is its prefix: number, and name when written)."""

    def plain_lines(self, text: str, pos: int, turn: int | None) -> tuple[int, int, int | None]:
        """Take what can be taken of the plain turn lines of ``text`` from offset ``pos``
        (a line's start) on, ``turn`` being the turn so far: where the first line not
        taken whole starts, how many of its decisions were taken (its turn number
        visited when any), and the turn then.  This base class takes nothing."""
        return pos, 0, turn

    def visit_comment(self, text: str) -> None:
        """A comment after a decision."""

    def visit_decision(self, decision: Decision) -> None:
        """A decision as written, with its marks and notes."""

    def visit_correction(self, decision: Decision) -> None:
        """An ``undo`` (``undo to K``) as written, with its marks and notes."""

    def end_game(self) -> None:
        """The text is read."""


class SkipVisitor(Visitor):
    """Reads nothing: the game is skipped."""

    def begin_game(self) -> bool:
        return False


class HeadersBuilder(Visitor):
    """Collects the headers (``players``, ``event``, ``date``, ``place``, ``result``,
    ``tags``) and the seat names, and stops after them."""

    def __init__(self, source: str = "<string>", *, stop_at_first_error: bool = True):
        super().__init__(source, stop_at_first_error=stop_at_first_error)
        self.headers: dict[str, Any] = {}
        self.tags: dict[str, str] = {}
        #: Where each header's value starts: (line, offset).
        self.tag_lines: dict[str, tuple[int, int]] = {}
        self.seat_names: dict[int, tuple[str, int, int]] = {}
        self.names: tuple[str, ...] = default_names()
        self.first: tuple[str, int] | None = None

    def visit_header(self, name: str, value: str, line: int, offset: int) -> None:
        self.tag_lines[name] = (line, offset)
        if name == "Game":
            if value.strip().lower() not in (RULES.title.lower(), RULES.kind):
                self.error(
                    "unknown",
                    line,
                    offset + 1,
                    f"this log is for {value!r}; this parser reads {RULES.title}",
                )
            return
        seat = SEAT_TAG.fullmatch(name)
        if seat:
            self.headers.setdefault("players", [])  # keeps the headers' order
            self.seat_names[int(seat.group(1)) - 1] = (value, line, offset)
            return
        if name == "First":
            self.first = (value, line)
            return
        for tag, key in _READ_TAGS:
            if name == tag:
                self.headers[key] = value
                return
        self.tags[name] = value

    def end_headers(self) -> bool:
        self.finish_headers()
        return False

    def finish_headers(self) -> None:
        """Name the seats from their headers (the default name where one is missing)."""
        if not self.seat_names:
            return
        count = max(max(self.seat_names) + 1, seats().minimum)
        try:
            seats().check(count)
            problem = None
        except SeatsError as err:
            _, line, offset = self.seat_names[count - 1]
            problem = (line, offset + 1, f"{seat_tag(count - 1)} names seat {count}: {err}")
            count = seats().maximum
        defaults = seats().default_names(count)
        given = {seat: value for seat, (value, _, _) in self.seat_names.items()}
        self.names = tuple(given.get(seat) or defaults[seat] for seat in range(count))
        self.headers["players"] = list(self.names)
        if problem is not None:
            self.error("unknown", *problem)

    def result(self) -> dict[str, Any]:
        """The headers read, ``tags`` last (absent when there are none)."""
        if self.tags:
            self.headers["tags"] = self.tags
        return self.headers


class SyntaxChecker(HeadersBuilder):
    """Reads every decision for its syntax and names only, without the rules (what is
    still checked after the first illegal decision when every error is asked for)."""

    def __init__(self, source: str = "<string>", *, stop_at_first_error: bool = True):
        super().__init__(source, stop_at_first_error=stop_at_first_error)
        self.ctx = Context(self.names)

    def end_headers(self) -> bool:
        self.finish_headers()
        self.ctx = Context(self.names)
        return True

    def visit_decision(self, decision: Decision) -> None:
        try:
            READERS[decision.keyword](decision.args, None, self.ctx)
        except Fail as f:
            self.fail(f, decision)

    def visit_correction(self, decision: Decision) -> None:
        try:
            read_undo(decision.args, decision.illegal)
        except Fail as f:
            self.fail(f, decision)
