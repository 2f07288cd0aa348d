"""Reading Coloretto notation: the shared reader and builder
(:mod:`engine.notation.reader`, :mod:`engine.notation.builder`) with this game's grammar
(:data:`.decisions.GRAMMAR`), and what only this game's builder knows: how a turn line's
number and player are checked, the setup event its setup lines make, and what the
reading does after an error when every error is asked for (a line in error is skipped,
a refused decision kept as played when it can be, and the table followed again from the
turn due), as classic Splendor's builder does."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.corrections import Retraction
from engine.errors import IllegalMoveError
from engine.notation import builder as _builder
from engine.notation import visitor as _visitor
from engine.notation.visitor import Decision, SkipLine, Stop
from engine.protocol import ParsedGame

from ..events import Event, GameSetUp
from ..state import OVER, SETUP, State
from .decisions import GRAMMAR, move_text
from .typed import reading


class HeadersBuilder(_visitor.HeadersBuilder):
    """Collects the headers and the seat names, and stops after them."""

    grammar = GRAMMAR


class SyntaxChecker(_visitor.SyntaxChecker):
    """Reads every decision for its words only, without the rules."""

    grammar = GRAMMAR


class GameBuilder(_builder.GameBuilder):
    """Folds a Coloretto game as it is read, every decision checked against the rules.
    A turn's decisions may go on after its line; the ``Result`` header is checked
    against how the moves end."""

    grammar = GRAMMAR
    one_turn_a_line = False
    setup_refused = "the setup is not allowed"

    def said(self, decision: Decision, event: Any) -> str:
        return move_text(event)

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

    def setup_event(self, parts: dict[str, Any], first: int) -> tuple[Any, int]:
        start, line = parts["start"]
        removed, removed_line = parts.get("removed", ((), line))
        return GameSetUp(first, removed, start), max(line, removed_line)

    def visit_turn(self, number: int, name: str | None, m: re.Match[str]) -> None:
        state = self.state
        if not self.live:
            if number != state.turn:
                return  # the table is not known here: the decisions' words only
            self.live = True  # the turn due written again (the line skipped, corrected)
        line, _, name_column = self.turn_places(m)
        if state.awaiting == SETUP:
            self.error("syntax", line, 1, "the setup (removed, start) comes first")
        if number != state.turn and state.awaiting == OVER:
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


def parse_game(
    text: str,
    source: str = "<text>",
    *,
    stop_at_first_error: bool = True,
    texts: bool = False,
    every: int | None = None,
) -> ParsedGame:
    """Read one game; never raises for bad input (errors are collected)."""
    return _builder.parse_game(
        GameBuilder, text, source, stop_at_first_error=stop_at_first_error, texts=texts, every=every
    )


def read_moves(
    state: State,
    text: str,
    events: Sequence[Event | Retraction] | None = None,
    meta: Sequence[Mapping[str, Any] | None] | None = None,
) -> ParsedGame:
    """Read what was played next in ``state``: one turn line or one or more decisions,
    with or without the turn number and player; never raises for bad input.  A text
    typed by hand that does not read as it is (``Draw G 2``) is read by its canonical
    reading (:mod:`.typed`) when that reads."""
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
    meta: Sequence[Mapping[str, Any] | None] | None,
) -> ParsedGame:
    parsed = _builder.read_moves(GameBuilder, state, text, events, meta, "<moves>")
    parsed.headers = {"players": list(state.names)}
    return parsed
