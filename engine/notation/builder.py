"""The visitor that builds a game, for every game: each decision read is folded with the
game's rules through the one fold (:class:`engine.fold.Fold`: checked and applied,
forced when marked ``!illegal``, a correction making the game stand as after an earlier
step), the meta (comments, notes, ``!illegal``) kept beside the events, and what was read
is an :class:`engine.protocol.ParsedGame`, with the fold.

A game's builder names its grammar and says what only it knows: how a turn line's number
and player are checked against the position (:meth:`GameBuilder.visit_turn`) and the
setup event its setup lines make (:meth:`GameBuilder.setup_event`).  A game whose turns
may run over several lines and whose reading goes on after an error builds on
:class:`ReadOnBuilder`, which checks a turn line's number and player as such games do.

The lines as the writer puts them (:meth:`GameBuilder.visit_lines`) are read into events
while each is as the state awaits it (the turn due, its player, a decision whose words
read), and the fold takes each as it comes (:meth:`engine.fold.Fold.extend`); what is not
so, and a decision the rules refuse, is visited as any other, where the errors and flags
are made.  A decision is read once by its text, then taken from the grammar's cache
(:attr:`.grammar.Grammar.cache`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from ..corrections import UNDO, CorrectionRefused, retraction_at
from ..errors import IllegalMoveError
from ..fold import Fold
from ..protocol import ParsedGame
from ..review import MAX_DEPTH, MAX_LINE
from ..review import Line as SavedLine
from .grammar import Entry, Fail
from .lexer import TOKEN_RE, Line, line_body
from .reader import read_game, read_turns
from .results import Flagged
from .visitor import (
    Decision,
    OffsetPlaces,
    Run,
    SkipLine,
    Stop,
    SyntaxChecker,
    Where,
    read_undo,
    seat_number,
)

#: What the state awaits before the setup, and once the game is over (every game's
#: states name them so).
SETUP = "setup"
OVER = "over"


class GameBuilder(SyntaxChecker):
    """Folds the game as it is read, with full rule checks.  After the first error (when
    every error is asked for) it only checks the syntax, as :class:`SyntaxChecker`
    (a game may go on with the table instead: :meth:`after_error`)."""

    #: Whether the ``Result`` header is checked against how the moves end.
    checks_result: ClassVar[bool] = True
    #: Whether a turn's decisions must stand on its own line (one turn, one line).
    one_turn_a_line: ClassVar[bool] = True
    #: What a setup the rules refuse is told (the game's own words).
    setup_refused: ClassVar[str] = "the setup breaks the rules"

    def __init__(
        self,
        source: str = "<string>",
        *,
        stop_at_first_error: bool = True,
        texts: bool = False,
        every: int | None = None,
        resume: tuple[Any, int, Any] | None = None,
    ):
        super().__init__(source, stop_at_first_error=stop_at_first_error)
        #: Whether the fold keeps each event's canonical text, and how often a snapshot.
        self.texts = texts
        self.every = every
        #: The game folded so far (its events, a correction as a Retraction): from the
        #: new table, or from ``resume`` (:meth:`new_fold`'s state, step and earlier).
        self.fold = self.new_fold(*resume) if resume else self.new_fold()
        self.cache = self.grammar.cache
        #: The meta of each event of the game, from its first (with :meth:`continuing`,
        #: None for each event before the text).  The usual decision (legal, without
        #: marks) appends none: ``meta`` may end short of the fold's events, the events
        #: past its end having none (:meth:`padded`).
        self.meta: list[dict[str, Any] | None] = []
        #: How many of the game's events come before the text.
        self.read_from = 0
        #: Whether the fold holds the whole game (its steps are then numbered).
        self.whole = True
        self.flagged: list[Flagged] = []
        self.pending_comments: list[str] = []
        self.pending_notes: list[str] = []
        #: The review read: the saved lines by the position they branch at, and the
        #: marks and notes added to the record's decisions, by step.
        self.lines: dict[int, list[SavedLine]] = {}
        self.review: dict[int, dict[str, Any]] = {}
        #: How deep in saved lines this builder reads (0: the record).
        self.depth = 0

    def new_fold(self, state: Any = None, step: int = 0, earlier: Any = None) -> Fold:
        """The fold of the game from the new table of the seats named (or from ``state``,
        the table after ``step`` events, ``earlier`` reading those events)."""
        writer = self.grammar.write if self.texts else None
        if state is None:
            fold = Fold(self.rules, self.names, every=self.every, texts=self.texts, writer=writer)
            fold.head.names = self.names
            return fold
        return Fold.resume(
            self.rules,
            state,
            step,
            earlier,
            every=self.every,
            texts=self.texts,
            writer=writer,
        )

    @property
    def state(self) -> Any:
        """The table after the events folded so far (the fold's own)."""
        return self.fold.head

    @classmethod
    def continuing(
        cls,
        state: Any,
        events: Sequence[Any] | None = None,
        meta: Sequence[Mapping[str, Any] | None] | None = None,
        source: str = "<move>",
    ) -> GameBuilder:
        """A builder for what is played next in ``state`` (read with
        :func:`.reader.read_turns`), which it does not change; each event read is kept
        with its canonical text.  ``events`` (and their ``meta``) are the game's so far,
        ``state`` their fold: an ``undo`` needs them, and they number the steps."""
        if events is None:
            builder = cls(source, texts=True, resume=(state.copy(), 0, None))
            builder.whole = False
        else:
            n = len(events)
            given = list(meta or ())[:n]

            def earlier() -> tuple[Sequence[Any], list[bool]]:
                marks = [bool(m and m.get("played_illegally")) for m in given]
                return events, marks + [False] * (n - len(marks))

            builder = cls(source, texts=True, resume=(state.copy(), n, earlier))
            # (the meta of the events before the text: only their marks are read, above)
            builder.meta = [None] * n
            builder.read_from = n
        builder.names = tuple(state.names)
        builder.ctx = cls.grammar.context(builder.names)
        return builder

    def padded(self) -> list[dict[str, Any] | None]:
        """``meta``, one for each event (those the usual decisions left out: None)."""
        meta = self.meta
        missing = self.fold.step - len(meta)
        if missing:
            meta += [None] * missing
        return meta

    def step(self) -> int | None:
        """The step number of the next event (None when the game before is not known)."""
        return self.fold.step + 1 if self.whole else None

    def position_facts(self) -> tuple[int | None, int | None, str | None]:
        state = self.state
        return state.turn, self.step(), self.grammar.position(state)

    def parsed(self) -> ParsedGame:
        """What was read: the headers, the events and meta of the legal prefix, the
        errors, the state after the prefix, the decisions kept as played illegally, and
        the fold of the events (with each one's canonical text when asked for)."""
        fold = self.fold
        first = self.read_from
        events = fold.events
        if first:  # (the fold's events start with the text's, or with the game's first)
            events = events[len(events) - (fold.step - first) :]
        meta = self.padded()[first:] if first else self.padded()
        return ParsedGame(
            self.result(),
            events,
            meta,
            self.errors,
            fold.head,
            self.flagged,
            self.names,
            fold.texts or [],
            fold,
            self.lines,
            self.review,
        )

    def said(self, decision: Decision, event: Any) -> str:
        """A decision as an error or a flag quotes it: as it is written."""
        return decision.text

    # -- headers and setup -------------------------------------------------------------

    def end_headers(self) -> bool:
        try:
            super().end_headers()
        finally:  # named even when a header error ends the reading
            if len(self.names) != len(self.state.names):
                self.fold = self.new_fold()
            else:
                self.state.names = self.names
        return True

    def visit_setup_comment(self, text: str) -> None:
        self.pending_comments.append(text)

    def visit_setup_note(self, text: str) -> None:
        self.pending_notes.append(text)

    def end_setup(self, parts: dict[str, Any], line: Line | None, at_end: bool) -> None:
        number = line.number if line is not None else 1
        if not self.live and not self.stop:
            return
        missing = self.grammar.setup_missing(parts)
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
                fatal=True,
            )
            return
        first = self.first_seat(number)
        if first is None:
            return
        event, at = self.setup_event(parts, first)
        meta = self.padded()
        try:
            self.fold.push(event)
        except IllegalMoveError as err:
            self.error(
                "illegal",
                at,
                1,
                self.setup_refused,
                err.violations,
                with_position=True,
                fatal=True,
            )
            return
        meta.append(self._take_pending())

    def first_seat(self, number: int) -> int | None:
        """The seat the ``First`` header names (a name, a seat number, ``#2``), or None
        after an error (reported on line ``number`` when the header is missing)."""
        if self.first is None:
            self.error(
                "syntax",
                number,
                1,
                'the First header names the first player, e.g. [First "Alice"]',
                fatal=True,
            )
            return None
        value, first_line = self.first
        first = None
        for seat, name in enumerate(self.names):
            if value == name:
                first = seat
        if first is None:
            first = seat_number(value if value.startswith("#") else "#" + value, len(self.names))
        if first is None:
            who = "neither player" if len(self.names) == 2 else "none of the players"
            self.error(
                "unknown",
                first_line,
                self.tag_lines["First"][1] + 1,
                f"First names {value!r}, who is {who} ({', '.join(repr(n) for n in self.names)})",
                fatal=True,
            )
        return first

    def setup_event(self, parts: dict[str, Any], first: int) -> tuple[Any, int]:
        """The setup event the setup lines' ``parts`` make, the seat ``first`` playing
        first, and the line where a setup the rules refuse is reported."""
        raise NotImplementedError

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

    def visit_comment(self, text: str) -> None:
        if not text or not self.live:
            return
        if self.fold.step == self.read_from:  # before the setup, or the first move read
            self.pending_comments.append(text)
            return
        meta = self.padded()
        m = meta[-1]
        if m is None:
            m = meta[-1] = {}
        old = m.get("comment")
        m["comment"] = f"{old} {text}" if old else text

    def read(self, text: str) -> Any:
        """The event a decision's text stands for in the state (None when its words are
        read for their syntax only); raises Fail.  A decision that needs no position is
        read once by its text and then taken from the grammar's cache."""
        grammar = self.grammar
        entry = grammar.cache.get(text)
        if entry is None:
            keyword, *args = TOKEN_RE.findall(text)
            reader = grammar.readers[keyword]
            event = reader(args, None, self.ctx)
            if event is None or keyword in grammar.uncached:
                return reader(args, self.state, self.ctx)
            entry = (event, grammar.claim(keyword, args))
            if keyword not in grammar.unkept:
                grammar.remember(text, entry)
        event, claim = entry
        if claim is not None:
            table = getattr(self.state, grammar.claimed)
            if any(table[place] != value for place, value in claim):
                grammar.refute(self.state, TOKEN_RE.findall(text)[1:])
        return event

    def learn(self, text: str) -> Entry | None:
        """The event of a decision as the writer puts it, read from its words alone and
        kept by its text (unless the grammar says not to); None when its words alone do
        not say (it is read where it stands, then, as any other)."""
        grammar = self.grammar
        # (one space between the words, but in a bracketed argument)
        words = text.split(" ") if "(" not in text else TOKEN_RE.findall(text)
        keyword = words[0]
        if keyword in grammar.uncached:
            return None
        args = words[1:]
        try:
            event = grammar.readers[keyword](args, None, self.ctx)
        except Fail:
            return None
        if event is None:
            return None
        entry = (event, grammar.claim(keyword, args))
        if keyword not in grammar.unkept:
            grammar.remember(text, entry)
        return entry

    def visit_lines(self, runs: list[Run]) -> None:
        """The usual lines read into events and folded as they come
        (:meth:`engine.fold.Fold.extend` of :meth:`usual`); what the quick way leaves
        (a turn or a decision not as the state awaits it, a decision the rules refuse)
        is visited as :class:`.visitor.Visitor` does it (:meth:`visit_turn`,
        :meth:`visit_decision`), and so is everything after an error."""
        if not self.live or self.state.awaiting == SETUP:
            self.visit_each(runs)
            return
        fold = self.fold
        n = len(runs)
        run, at = 0, -1  # where the quick way goes on: a run, its turn (-1) or a decision
        while True:
            before = fold.step
            left = [n, -1]
            try:
                fold.extend(self.usual(runs, run, at, left))
                run, at = left
            except IllegalMoveError:  # refused: the decision is visited, where it stands
                run, at = _decision_after(runs, run, at, fold.step - before)
            if run == n:
                return
            m, number, name, decisions, turn = runs[run]
            try:
                if at < 0:
                    at = 0
                    if number is not None:
                        self.visit_turn(number, name, m)
                else:
                    self.visit_decision(decisions[at], (m, at) if at else m, turn)
                    at += 1
                    if at == len(decisions):
                        run, at = run + 1, -1
            except SkipLine:
                if run == n - 1:
                    raise
                run, at = run + 1, -1
            if not self.live:
                self.visit_each(runs, run, at)
                return
            if run == n:
                return

    def usual(self, runs: list[Run], run: int, at: int, left: list[int]) -> Iterator[Any]:
        """The events of the decisions of ``runs`` from run ``run`` on (its turn, when
        ``at`` is -1, else its decision ``at``) while each is as the state awaits it: its
        turn (and player) due, its words read (from the grammar's cache, or learnt), the
        table as it claims.  Each is given after the one before is folded; ``left``
        is set to the first one that is not so (``[len(runs), -1]``: none)."""
        state = self.state
        names = self.names
        cached = self.cache.get
        learn = self.learn
        read = self.read
        claimed = self.grammar.claimed
        for r in range(run, len(runs)):
            m, number, name, decisions, turn = runs[r]
            if at < 0:
                if number is not None and (
                    number != state.turn or (name is not None and name != names[state.current])
                ):
                    left[0], left[1] = r, -1
                    return
                at = 0
            for text in decisions[at:] if at else decisions:
                if turn == state.turn:
                    entry = cached(text) or learn(text)
                    if entry is not None:
                        event, claim = entry
                        if claim is None:
                            yield event
                            continue
                        table = getattr(state, claimed)
                        for place, value in claim:
                            if table[place] != value:
                                break  # (not as claimed: visited as any other)
                        else:
                            yield event
                            continue
                    else:  # its words alone do not say: read in the position
                        try:
                            event = read(text)
                        except Fail:
                            event = None
                        if event is not None:
                            yield event
                            continue
                # (each text a string of its own, as the scan made it)
                left[0], left[1] = r, next(i for i, t in enumerate(decisions) if t is text)
                return
            at = -1

    def visit_decision(
        self,
        text: str,
        at: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> None:
        if not self.live:
            super().visit_decision(text, at, turn, illegal, notes)
            return
        try:
            event = self.read(text)
        except Fail as f:
            self.fail(f, self.decision(text, at, turn, illegal, notes))
            return
        if event is None:
            return
        state = self.state
        if (turn != state.turn or state.awaiting == SETUP) and self.misplaced(text, at, turn):
            return
        self.fold_decision(self.decision(text, at, turn, illegal, notes), event)

    def misplaced(self, text: str, at: Where, turn: int | None) -> bool:
        """Whether a decision stands where none may (an error): before the setup, or
        after its line's turn is over (when a turn's decisions are on its own line)."""
        state = self.state
        if state.awaiting == SETUP:
            where = self.decision(text, at, turn).place()
            self.error("syntax", where[0], where[1], "the game has no setup")
            return True
        if turn is None or not self.one_turn_a_line or state.awaiting == OVER:
            return False
        decision = self.decision(text, at, turn)
        where = decision.place()
        self.error(
            "syntax",
            where[0],
            where[1],
            f"turn {turn} ended before {decision.keyword!r}; turn {state.turn} "
            f"starts on a new line ('{state.turn}.')",
            with_position=True,
        )
        return True

    def fold_decision(self, decision: Decision, event: Any) -> None:
        """Fold the event of a decision: forced when marked ``!illegal``, else checked and
        applied (refused: :meth:`refused`); kept with its meta."""
        if decision.illegal:
            if not self.forced(decision, event):
                return
            illegal = True
        else:
            try:
                self.fold.push(event)
                illegal = False
            except IllegalMoveError as err:
                if not self.refused(decision, event, err.violations):
                    return
                illegal = True
        notes = decision.notes
        meta = self.padded()
        if illegal or notes:
            m: dict[str, Any] = {}
            if notes:
                m["annotations"] = notes
            if illegal:
                m["played_illegally"] = True
            meta[-1] = m

    def forced(self, decision: Decision, event: Any) -> bool:
        """A decision marked ``!illegal``: forced as played and flagged with its
        violations; False (an error) when it cannot be replayed even as played."""
        state = self.state
        where = decision.place()
        if self.depth:
            self.error(
                "illegal",
                where[0],
                where[1],
                "a saved line is what could have been played: its decisions are legal "
                "ones (no !illegal)",
            )
            return False
        before = self.grammar.position(state)
        step = self.step()
        try:
            violations = self.fold.push(event, forced=True)
        except IllegalMoveError as err:
            self.error(
                "illegal",
                where[0],
                where[1],
                "marked !illegal, but it cannot be replayed even as played",
                err.violations,
                with_position=True,
                fatal=True,
            )
            return False
        turn = decision.turn
        # one turn a line: the line's turn; else the turn the decision was played on
        played_on = (turn or state.turn) if self.one_turn_a_line else state.turn
        self.flagged.append(
            Flagged(
                step or 0,
                where[0],
                where[1],
                played_on,
                self.said(decision, event),
                violations,
                before,
            )
        )
        return True

    def refused(self, decision: Decision, event: Any, violations: list[Any]) -> bool:
        """A decision the rules refuse: an error.  True when it is kept as played all
        the same (forced), so that the reading goes on with the table."""
        where = decision.place()
        self.error(
            "illegal",
            where[0],
            where[1],
            f"{self.said(decision, event)} is not allowed here",
            violations,
            with_position=True,
        )
        return False

    def visit_correction(
        self,
        text: str,
        at: Where,
        turn: int | None,
        illegal: bool = False,
        notes: list[str] | None = None,
    ) -> None:
        """``undo`` / ``undo to K``: a Retraction appended, the standing steps folded
        again (those played illegally forced again)."""
        if not self.live:
            super().visit_correction(text, at, turn, illegal, notes)
            return
        decision = self.decision(text, at, turn, illegal, notes)
        try:
            back_to = read_undo(decision.args, decision.illegal)
        except Fail as f:
            self.fail(f, decision)
            return
        where = decision.place()
        if self.state.awaiting == SETUP:
            self.error("syntax", where[0], where[1], "the game has no setup")
            return
        if self.depth:
            self.error(
                "syntax", where[0], where[1], f"a saved line holds decisions only, no {UNDO}"
            )
            return
        if not self.whole:
            self.error(
                "syntax",
                where[0],
                where[1],
                f"{decision.text} takes back logged steps: it is read with the game's events",
            )
            return
        fold = self.fold
        meta = self.padded()
        try:
            fold.standing  # noqa: B018  (the events before the text read, when they are needed)
            retraction = retraction_at(self.rules, fold.events, back_to)
            fold.push(retraction)
        except CorrectionRefused as refused:
            self.error(
                "illegal",
                where[0],
                where[1],
                f"{decision.text} cannot stand here",
                refused.violations,
                with_position=True,
                fatal=True,
            )
            return
        meta.append({"annotations": decision.notes} if decision.notes else None)

    # -- the review --------------------------------------------------------------------

    def visit_review_note(self, text: str) -> None:
        if not self.live or not text or self.fold.step <= self.read_from:
            return
        if self.depth:  # a line is all review: its decisions' own marks and notes
            meta = self.padded()
            m = meta[-1] = dict(meta[-1] or {})
            m.setdefault("annotations", []).append(text)
            return
        self.review.setdefault(self.fold.step, {}).setdefault("annotations", []).append(text)

    def visit_review_comment(self, text: str) -> None:
        if not self.live or not text or self.fold.step <= self.read_from:
            return
        if self.depth:
            self.visit_comment(text)
            return
        m = self.review.setdefault(self.fold.step, {})
        m["comment"] = f"{m['comment']} {text}" if m.get("comment") else text

    def visit_line(self, number: int) -> None:
        """A saved line after the decision just read: read from the position before that
        decision, each of its decisions checked by the rules (observations included) as
        a turn line's are, by a builder of the same game that goes on from there (the
        fold forked at that step); its errors are the text's, with their places."""
        if not self.live:
            return
        span = self.line_spans[number]
        root = self.places.root_at
        at = self.fold.step - 1
        if at < max(self.read_from, 1):
            self.error("syntax", *root(span.start), "a saved line follows the decision it replaces")
            return
        if not span.closed:
            self.error("syntax", *root(span.start), "this saved line is never closed with )")
            return
        if self.depth >= MAX_DEPTH:
            self.error("syntax", *root(span.start), f"saved lines nest {MAX_DEPTH} deep at most")
            return
        body, base = line_body(self.line_source, span, self.line_spans)
        sub = self.branch(at)
        read_turns(body, sub, sub.state.turn, OffsetPlaces(body, self.places, base))
        if sub.errors:
            self.errors.extend(sub.errors)
            if self.stop:
                raise Stop
            return
        count = sub.fold.step - at
        problem = None
        if not count:
            problem = "a saved line holds at least one decision"
        elif count > MAX_LINE:
            problem = f"a saved line holds {MAX_LINE} decisions at most; this one holds {count:,}"
        if problem:
            self.error("syntax", *root(span.start), problem)
            return
        line = SavedLine(at, list(sub.fold.events), sub.padded()[at:], sub.lines)
        self.lines.setdefault(at, []).append(line)

    def branch(self, at: int) -> GameBuilder:
        """A builder of this game for a saved line from the position after step ``at``
        of what this one read (its fold forked there)."""
        sub = type(self)(self.source, stop_at_first_error=self.stop)
        sub.fold = self.fold.fork(at)
        sub.names = self.names
        sub.ctx = self.ctx
        sub.meta = [None] * at
        sub.read_from = at
        sub.whole = self.whole
        sub.depth = self.depth + 1
        sub.line_spans = self.line_spans
        sub.line_source = self.line_source
        return sub

    # -- the end -----------------------------------------------------------------------

    def end_game(self) -> None:
        if not self.live or self.depth:  # (a saved line's end is its reader's)
            return
        if self.read_from or not self.whole:
            self._end_moves()
        elif self.fold.step and self.checks_result:
            self._check_result()

    def _end_moves(self) -> None:
        """What was read after a game's events: a comment before the first event goes
        with it; a text with no event at all is an error."""
        if self.fold.step == self.read_from:
            self.error(
                "syntax",
                1,
                1,
                f"expected a turn or a decision ({', '.join(self.grammar.keywords)}), or {UNDO}",
            )
            return
        if self.pending_comments:
            comment = " ".join(self.pending_comments)
            meta = self.padded()
            m = meta[self.read_from] or {}
            m["comment"] = f"{comment} {m['comment']}" if m.get("comment") else comment
            meta[self.read_from] = m
            self.pending_comments = []

    def _check_result(self) -> None:
        """The Result (and Victory) headers must agree with how the moves end."""
        problem = self.grammar.result_problem({**self.headers, "tags": self.tags}, self.state)
        if problem is not None:
            header, message, violation = problem
            line, col = self.tag_lines.get("Result" if header == "result" else header, (1, 0))
            self.error("illegal", line, col + 1, message, [violation], with_position=True)


class ReadOnBuilder(GameBuilder):
    """A builder for a game whose turn may go on after its line, and whose reading goes on
    after an error when every error is asked for: a line in error is skipped (the table
    no longer follows the text, so the lines after it are read for their words only
    until a line of the turn due: the skipped one, written again), and a decision the
    rules refuse is reported and kept as played when it can be replayed at all.  A turn
    line's number must be the turn due, and its player, when named, the one to move."""

    one_turn_a_line = False
    #: What a turn line before the setup is told (the game's setup lines by name).
    setup_first: ClassVar[str] = "the setup comes first"

    def after_error(self, fatal: bool) -> None:
        if fatal:
            raise Stop
        self.live = False
        raise SkipLine

    def refused(self, decision: Decision, event: Any, violations: list[Any]) -> bool:
        where = decision.place()
        self.record(
            "illegal",
            where[0],
            where[1],
            f"{self.said(decision, event)} is not allowed here",
            violations,
            with_position=True,
        )
        if self.stop:
            raise Stop
        try:  # read on from the table as it stood after the refused decision
            self.fold.push(event, forced=True)
        except IllegalMoveError:
            raise Stop from None
        return True

    def visit_turn(self, number: int, name: str | None, m: re.Match[str]) -> None:
        state = self.state
        if not self.live:
            if number != state.turn:
                return  # the table is not known here: the decisions' words only
            self.live = True  # the turn due written again (the line skipped, corrected)
        line, _, name_column = self.turn_places(m)
        if state.awaiting == SETUP:
            self.error("syntax", line, 1, self.setup_first)
        if number != state.turn and state.awaiting == OVER:
            # (the turn after the last is not due: the game is over, as a plain move is told)
            self.error(
                "syntax",
                line,
                1,
                f"the game ended on turn {state.turn}; turn {number} cannot follow",
            )
        elif number != state.turn:
            self.error("syntax", line, 1, f"turn {state.turn} is due here, not {number}")
        if name is not None and name != state.names[state.current]:
            self.error(
                "unknown",
                line,
                name_column,
                f"{name!r} is not the player to move ({state.names[state.current]})",
            )


def _decision_after(runs: list[Run], run: int, at: int, count: int) -> tuple[int, int]:
    """Where the decision stands that comes ``count`` decisions after decision ``at`` of
    run ``run`` (-1: its first) in ``runs``: (run, decision)."""
    at = max(at, 0)
    while count >= len(runs[run][3]) - at:
        count -= len(runs[run][3]) - at
        run, at = run + 1, 0
    return run, at + count


def parse_game(
    builder: type[GameBuilder],
    text: str,
    source: str = "<string>",
    *,
    stop_at_first_error: bool = True,
    texts: bool = False,
    every: int | None = None,
) -> ParsedGame:
    """Read a game written in notation with ``builder`` (a game's), checking every
    decision against the rules; with ``texts``, its fold (``ParsedGame.fold``) keeps each
    event's canonical text, and a snapshot every ``every`` steps.

    With ``stop_at_first_error`` (the default) reading ends at the first problem; without
    it, every problem is reported (what the reading does after one is the builder's:
    :meth:`GameBuilder.after_error`).  A decision marked ``!illegal`` is applied as played
    (``game.force``) and listed in ``flagged`` instead of being an error.  Never raises
    for bad input.
    """
    visitor = builder(source, stop_at_first_error=stop_at_first_error, texts=texts, every=every)
    read_game(text, visitor)
    return visitor.parsed()


def read_moves(
    builder: type[GameBuilder],
    state: Any,
    text: str,
    events: Sequence[Any] | None = None,
    meta: Sequence[Mapping[str, Any] | None] | None = None,
    source: str = "<move>",
) -> ParsedGame:
    """What was played next in ``state``, read with ``builder`` (a game's) exactly as
    the turn lines of a game read, with or without the turn number and player; ``state``
    is not changed.  ``events`` (with their ``meta``) are the game's so far, ``state``
    their fold: ``undo`` needs them, and errors and flags then carry the game's step
    numbers.  Each event read comes with its canonical text (``texts``)."""
    prefix, text = _turn_of_named_player(state, text)
    visitor = builder.continuing(state, events, meta, source)
    read_turns(text, visitor, state.turn)
    parsed = visitor.parsed()
    if prefix:
        # (the places are the text's as typed, without the turn number put before it)
        for where in [*parsed.errors, *parsed.flagged]:
            if where.line == 1 and where.column > len(prefix):
                where.column -= len(prefix)
    return parsed


def read_typed_moves(
    builder: type[GameBuilder],
    state: Any,
    text: str,
    events: Sequence[Any] | None,
    meta: Sequence[Mapping[str, Any] | None] | None,
    reading: Callable[[str], str | None],
) -> ParsedGame:
    """:func:`read_moves` (source ``<moves>``, the headers naming ``state``'s seats) of
    a text typed by hand: one that does not read as it is is read by its canonical
    ``reading`` (None: it has none) when that reads, the rules accepting it or refusing
    it (it is then the rules' error, not the reading's)."""

    def moves(text: str) -> ParsedGame:
        parsed = read_moves(builder, state, text, events, meta, "<moves>")
        parsed.headers = {"players": list(state.names)}
        return parsed

    parsed = moves(text)
    if parsed.events or not parsed.errors or parsed.errors[0].kind == "illegal":
        return parsed
    canonical = reading(text)
    if canonical is not None:
        again = moves(canonical)
        if not again.errors or again.errors[0].kind == "illegal":
            return again
    return parsed


#: A text that starts with a player's name and a colon, without a turn number
#: (``Alice: take c2 c3 c4``): the name as written, and its end.
_NAMED_TURN_RE = re.compile(r"\s*([^\s\d.:{}()\"\[\]][^:{}()\"\[\]\n]*?)\s*:(?=\s)")


def _turn_of_named_player(state: Any, text: str) -> tuple[str, str]:
    """``text`` read as a turn line when it starts with the name of one of the game's
    players (any case) and a colon but no number, as docs allow a turn to be typed:
    ``Alice: take c2 c3 c4`` reads as ``12. Alice: take c2 c3 c4`` (the turn's checks
    then say whose turn it is).  The number put before it ("" when none) and the text."""
    m = _NAMED_TURN_RE.match(text)
    if m is None:
        return "", text
    typed = m.group(1).casefold()
    name = next(
        (str(n) for n in getattr(state, "names", ()) or () if str(n).casefold() == typed), None
    )
    if name is None:
        return "", text
    prefix = f"{state.turn}. "
    return prefix, text[: m.start(1)] + prefix + name + text[m.end(1) :]


__all__ = ["GameBuilder", "parse_game", "read_moves"]
