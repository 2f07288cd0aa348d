"""What the reader calls while it walks a game: the :class:`Visitor` hooks and the light
visitors (skip the game, collect its headers, check the syntax of every decision), for
every game: a game's visitors name its :class:`.grammar.Grammar` (``grammar``).  The
visitor that folds the game with the rules is :class:`.builder.GameBuilder`.

A game's headers read with a game of two to four seats whose only decision is ``pass``:

>>> from types import SimpleNamespace
>>> from engine.notation.grammar import Grammar
>>> from engine.notation.reader import read_game
>>> from engine.protocol import Seats
>>> pairs = SimpleNamespace(kind="pairs", title="Pairs", seats=Seats(2, 4))
>>> class PairsHeaders(HeadersBuilder):
...     grammar = Grammar(pairs, ["pass"], {"pass": lambda args, state, ctx: "pass"},
...                       lambda *a: "pass", lambda *a: 0, position=str)
>>> v = PairsHeaders()
>>> read_game('[Game "Pairs"]\\n[Player1 "Ann"]\\n\\nboard nonsense', v)
>>> v.headers, v.names, v.errors
({'players': ['Ann', 'Player 2']}, ('Ann', 'Player 2'), [])
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from ..corrections import UNDO
from ..errors import Violation
from ..protocol import SeatsError
from .grammar import Fail, Grammar
from .lexer import TOKEN_RE, Line, LineSpan
from .results import NotationError

#: The headers kept under their own key (the rest go to ``tags``).
KNOWN_TAGS = (("Event", "event"), ("Date", "date"), ("Place", "place"))
_READ_TAGS = dict(KNOWN_TAGS + (("Result", "result"),))
#: A header that names a seat: ``Player1`` .. ``PlayerN``.
SEAT_TAG = re.compile(r"Player([1-9][0-9]?)")
_UNDO_USAGE = "expected undo, or undo to STEP (a step number: the setup is step 1)"


class Stop(Exception):
    """Ends the reading (at the first error)."""


class SkipLine(Exception):
    """Ends the reading of a line: the reader goes on with the next one."""


def seat_tag(seat: int) -> str:
    """The header naming seat ``seat`` (0-based): ``Player1``..."""
    return f"Player{seat + 1}"


def seat_number(ref: str, count: int) -> int | None:
    """The seat ``#2`` stands for (0-based), None if it names no seat."""
    for seat in range(count):
        if ref == f"#{seat + 1}":
            return seat
    return None


def listing(names: Sequence[str]) -> str:
    """``'Ann' and 'Bob'`` (``'Ann', 'Bob' and 'Cid'`` for more seats)."""
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def read_undo(args: list[str], illegal: bool = False) -> int | None:
    """The step ``undo to K`` goes back to, None for a plain ``undo``; ``illegal`` when
    it was marked ``!illegal`` (an error: a correction is not a move).

    >>> read_undo([]), read_undo(["to", "12"])
    (None, 12)
    """
    if illegal:
        raise Fail(
            "syntax",
            len(args),
            f"{UNDO} takes steps back: it is not a move, and cannot be marked !illegal",
        )
    if not args:
        return None
    if args[0] != "to" or len(args) != 2:
        raise Fail("syntax", 0, _UNDO_USAGE)
    if not args[1].isdigit() or int(args[1]) < 1:
        raise Fail("syntax", 1, _UNDO_USAGE)
    return int(args[1])


class Places:
    """Where an offset of a text stands: its line and column, both from 1 (the offsets of
    the lines' starts are found when first asked for)."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str):
        self.text = text
        self._starts: list[int] | None = None

    def at(self, offset: int) -> tuple[int, int]:
        """(line, column) of ``offset``."""
        starts = self._starts
        if starts is None:
            starts = self._starts = [0, *(m.end() for m in re.finditer("\n", self.text))]
        k = bisect.bisect_right(starts, offset) - 1
        return k + 1, offset - starts[k] + 1

    def root_at(self, offset: int) -> tuple[int, int]:
        """(line, column) of an offset of the whole text read (the same as :meth:`at`
        but for a part of one, :class:`OffsetPlaces`)."""
        return self.at(offset)


class OffsetPlaces(Places):
    """The places of a part of a larger text (a saved line's body, read on its own):
    offset 0 is offset ``base`` of the text ``root`` reads, and the line and column are
    that text's."""

    __slots__ = ("root", "base")

    def __init__(self, text: str, root: Places, base: int):
        super().__init__(text)
        self.root = root
        self.base = base

    def at(self, offset: int) -> tuple[int, int]:
        return self.root.root_at(self.base + offset)

    def root_at(self, offset: int) -> tuple[int, int]:
        return self.root.root_at(offset)


#: Where a decision stands: its match in the scan of the turn lines (the decision its
#: ``next``, ``plain``, ``first`` or ``decision``), or ``(m, i)``: the ``i``-th decision
#: of the run that starts in match ``m`` (the first ones held by ``m`` itself, each next
#: in a match of its own after it, found by scanning again when asked).
Where = re.Match[str] | tuple[re.Match[str], int]

#: Decisions as the writer puts them, one after the other on a line:
#: ``(m, number, name, decisions, turn)``, the first of them in the scan's match ``m``
#: (the next ones there too, or each in a match of its own), on turn ``turn``; ``number``
#: and ``name`` are the turn line's prefix when they start the line (None when they
#: follow something else).
Run = tuple[re.Match[str], int | None, str | None, list[str], int | None]

#: The groups of a scan's match that hold a decision as the writer puts it, in order.
_RUN_GROUPS = ("next", "plain", "first", "second", "third")


def decision_start(where: Where) -> int:
    """The offset of the decision ``where`` (its keyword)."""
    if isinstance(where, tuple):
        first, i = where
        held = [at for at in map(first.start, _RUN_GROUPS) if at >= 0]
        if i < len(held):
            return held[i]
        scan = first.re.finditer(first.string, first.end())
        where = next(itertools.islice(scan, i - len(held), None))
    return max(
        where.start("next"), where.start("first"), where.start("plain"), where.start("decision")
    )


class Decision:
    """One decision (or correction) as written: its text (``written``: the keyword and
    its arguments as they stand in the text, ``where`` in the scan), the ``!illegal``
    mark and the notes after it, on the turn its line is on (None before any turn
    number).  Its words and places are found when asked for."""

    __slots__ = ("places", "where", "written", "illegal", "notes", "turn")

    def __init__(
        self,
        places: Places,
        where: Where,
        written: str,
        illegal: bool,
        notes: list[str] | None,
        turn: int | None,
    ):
        self.places = places
        self.where = where
        self.written = written
        self.illegal = illegal
        self.notes = notes
        self.turn = turn

    @property
    def words(self) -> list[str]:
        """The keyword and the arguments, each a token."""
        return TOKEN_RE.findall(self.written)

    @property
    def keyword(self) -> str:
        return self.words[0]

    @property
    def args(self) -> list[str]:
        return self.words[1:]

    @property
    def text(self) -> str:
        """The keyword and arguments as one text (``take c2 c3``)."""
        return " ".join(self.words)

    def place(self, arg: int = -1) -> tuple[int, int]:
        """(line, column) of argument ``arg`` (-1: the keyword; past the last
        argument: the marks and what follows on the line, or the line's end)."""
        places = self.places
        text = places.text
        at = decision_start(self.where)
        want = arg + 1 if arg >= 0 else 0
        last = at
        for k, m in enumerate(TOKEN_RE.finditer(text, at)):
            if "\n" in text[last : m.start()]:
                break  # the line ended (a comment over several lines is one token)
            if k == want:
                return places.at(m.start())
            last = m.end()
        return places.at(last)


class Visitor:
    """The hooks the reader calls, in order: ``begin_game``, ``visit_header``...,
    ``end_headers``, ``visit_setup_comment`` / ``visit_setup_note``..., ``end_setup``,
    then per turn line ``visit_turn`` (when it starts with a number), ``visit_comment``
    / ``visit_decision`` / ``visit_correction``..., and ``end_game``.  The lines as the
    writer puts them come together, to ``visit_lines``, which here visits each turn and
    decision in turn (the builder reads them into events as they come, to the same
    effect).  This base
    class collects the errors and does nothing else.

    An error ends the reading (:class:`Stop`) unless every error is asked for; then
    the reading goes on (a visitor may raise :class:`SkipLine` to go on with the next
    line)."""

    #: The game's notation (a game's visitors set it).
    grammar: ClassVar[Grammar]

    def __init__(self, source: str = "<string>", *, stop_at_first_error: bool = True):
        self.source = source
        self.stop = stop_at_first_error
        #: False once an error was met (with every error asked for, reading goes on).
        self.live = True
        self.errors: list[NotationError] = []
        #: The places of the text being read (the reader sets them).
        self.places = Places("")
        #: The saved lines of the text (:func:`.lexer.mask_lines`), by number, and the
        #: text they stand in (the reader sets them).
        self.line_spans: list[LineSpan] = []
        self.line_source = ""

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
        fatal: bool = False,
    ) -> None:
        """Record an error; raises :class:`Stop` when reading ends at the first one.
        ``with_position`` adds the turn, event number and position string it occurs at;
        ``fatal``: the reading cannot go on after it (see :meth:`after_error`)."""
        self.record(kind, line, column, message, violations, with_position=with_position)
        if self.stop:
            raise Stop
        self.after_error(fatal)

    def record(
        self,
        kind: str,
        line: int,
        column: int,
        message: str,
        violations: Sequence[Violation] = (),
        *,
        with_position: bool = False,
    ) -> None:
        """Record an error, and nothing else."""
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

    def after_error(self, fatal: bool) -> None:
        """What follows an error when every error is asked for: here, the rest of the
        text is read for its syntax only."""
        self.live = False

    def position_facts(self) -> tuple[int | None, int | None, str | None]:
        """The turn, the number of the next event and the position string, where known."""
        return None, None, None

    def where(self, offset: int) -> tuple[int, int]:
        """(line, column) of an offset of the text being read."""
        return self.places.at(offset)

    def turn_places(self, m: re.Match[str]) -> tuple[int, int, int]:
        """The line of the turn line that the scan's match ``m`` starts, and the columns
        of its number and of the player's name (the number's when none is written)."""
        line, number = self.where(max(m.start("turn"), m.start("number")))
        name = max(m.start("player"), m.start("name"))
        return line, number, self.where(name)[1] if name >= 0 else number

    def decision(
        self,
        text: str,
        where: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> Decision:
        """A decision the reader handed over (``where`` in the scan), with its words and
        places."""
        return Decision(self.places, where, text, illegal, notes, turn)

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
        """The setup read (the parts the game's setup lines filled in); ``at_end`` when
        no turn follows."""

    def visit_turn(self, number: int, name: str | None, m: re.Match[str]) -> None:
        """A turn line starts (with the scan's match ``m``): turn ``number``, the
        player's ``name`` (None when not written); :meth:`turn_places` says where they
        stand."""

    def visit_comment(self, text: str) -> None:
        """A comment after a decision."""

    def visit_lines(self, runs: list[Run]) -> None:
        """Lines as the writer puts them, one after the other: their runs of decisions
        (:data:`Run`), each its line's start or the rest of its line.  Here each is
        visited in turn (:meth:`visit_each`)."""
        self.visit_each(runs)

    def visit_each(self, runs: list[Run], run: int = 0, at: int = -1) -> None:
        """Visit ``runs`` from run ``run`` on (its turn, when ``at`` is -1, else its
        decision ``at``) one turn and one decision at a time: :meth:`visit_turn` when a
        run starts its line, then :meth:`visit_decision` for each decision.  A
        :class:`SkipLine` ends its run only (the reader is told when it ends the last)."""
        skipped = False
        for r in range(run, len(runs)):
            m, number, name, decisions, turn = runs[r]
            skipped = False
            try:
                if number is not None and at < 0:
                    self.visit_turn(number, name, m)
                for i in range(max(at, 0), len(decisions)):
                    self.visit_decision(decisions[i], (m, i) if i else m, turn)
            except SkipLine:
                skipped = True
            at = -1
        if skipped:
            raise SkipLine

    def visit_decision(
        self,
        text: str,
        at: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> None:
        """A decision as written (``text``, its keyword and arguments, ``at`` where it
        stands in the scan) on turn ``turn`` (the turn its line is on; None before any
        turn number), marked ``!illegal`` or not, with its notes; :meth:`decision` makes
        it a :class:`Decision` (its words and places)."""

    def visit_correction(
        self,
        text: str,
        at: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> None:
        """An ``undo`` (``undo to K``) as written, as :meth:`visit_decision` has it."""

    def visit_line(self, number: int) -> None:
        """A saved line (the ``number``-th of :attr:`line_spans`) after the decision just
        visited: another line of play from the position before it (the review's)."""

    def visit_review_note(self, text: str) -> None:
        """A mark (``!?``) or a note added in the review to the decision just visited."""

    def visit_review_comment(self, text: str) -> None:
        """A comment added in the review to the decision just visited."""

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
        self.rules = self.grammar.rules
        self.headers: dict[str, Any] = {}
        self.tags: dict[str, str] = {}
        #: Where each header's value starts: (line, offset).
        self.tag_lines: dict[str, tuple[int, int]] = {}
        self.seat_names: dict[int, tuple[str, int, int]] = {}
        self.names: tuple[str, ...] = self.rules.seats.default_names()
        self.first: tuple[str, int] | None = None

    def visit_header(self, name: str, value: str, line: int, offset: int) -> None:
        self.tag_lines[name] = (line, offset)
        if name == "Game":
            rules = self.rules
            if value.strip().lower() not in (rules.title.lower(), rules.kind):
                self.error(
                    "unknown",
                    line,
                    offset + 1,
                    f"this log is for {value!r}; this parser reads {rules.title}",
                )
            return
        seat = SEAT_TAG.fullmatch(name) if name[:6] == "Player" else None
        if seat:
            self.headers.setdefault("players", [])  # keeps the headers' order
            self.seat_names[int(seat.group(1)) - 1] = (value, line, offset)
            return
        if name == "First":
            self.first = (value, line)
            return
        key = _READ_TAGS.get(name)
        if key is not None:
            self.headers[key] = value
        else:
            self.tags[name] = value

    def end_headers(self) -> bool:
        self.finish_headers()
        return False

    def finish_headers(self) -> None:
        """Name the seats from their headers (the default name where one is missing)."""
        if not self.seat_names:
            return
        seats = self.rules.seats
        count = max(max(self.seat_names) + 1, seats.minimum)
        try:
            seats.check(count)
            problem = None
        except SeatsError as err:
            _, line, offset = self.seat_names[count - 1]
            problem = (line, offset + 1, f"{seat_tag(count - 1)} names seat {count}: {err}")
            count = seats.maximum
        defaults = seats.default_names(count)
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
        self.ctx = self.grammar.context(self.names)

    def end_headers(self) -> bool:
        self.finish_headers()
        self.ctx = self.grammar.context(self.names)
        return True

    def visit_decision(
        self,
        text: str,
        at: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> None:
        keyword, *args = TOKEN_RE.findall(text)
        try:
            self.grammar.readers[keyword](args, None, self.ctx)
        except Fail as f:
            self.fail(f, self.decision(text, at, turn, illegal, notes))

    def visit_correction(
        self,
        text: str,
        at: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> None:
        decision = self.decision(text, at, turn, illegal, notes)
        try:
            read_undo(decision.args, illegal)
        except Fail as f:
            self.fail(f, decision)
