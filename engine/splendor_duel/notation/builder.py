"""Splendor Duel's visitors: the shared ones (:mod:`engine.notation.visitor`,
:mod:`engine.notation.builder`) reading with its grammar (:data:`.decisions.GRAMMAR`),
and what only this game's builder knows: how a turn line's number and player are checked
against the position, and the setup event the setup lines make."""

from __future__ import annotations

import re
from typing import Any

from ...errors import Violation
from ...notation import builder as _builder
from ...notation import visitor as _visitor
from ...protocol import ParsedGame
from .. import describe, rules
from .. import game as _game
from ..events import CardRevealed, Event, GameSetUp, TokensTaken
from ..state import ACTION, OVER, REVEAL, SETUP, State
from .decisions import GRAMMAR
from .players import listing, seat_number


class Visitor(_visitor.Visitor):
    """The hooks the reader calls (:class:`engine.notation.visitor.Visitor`)."""

    grammar = GRAMMAR


class SkipVisitor(_visitor.SkipVisitor):
    """Reads nothing: the game is skipped."""

    grammar = GRAMMAR


class HeadersBuilder(_visitor.HeadersBuilder):
    """Collects the headers and the seat names, and stops after them."""

    grammar = GRAMMAR


class SyntaxChecker(_visitor.SyntaxChecker):
    """Reads every decision for its syntax and names only, without the rules."""

    grammar = GRAMMAR


class GameBuilder(_builder.GameBuilder):
    """Folds a Splendor Duel game as it is read, with full rule checks
    (:class:`engine.notation.builder.GameBuilder`)."""

    grammar = GRAMMAR

    def setup_event(self, parts: dict[str, Any], first: int) -> tuple[Any, int]:
        levels = parts["levels"]
        pyramid = (tuple(levels[1]), tuple(levels[2]), tuple(levels[3]))
        board, line = parts["board"]
        return GameSetUp(first, board, pyramid, parts.get("privileges")), line

    def visit_turn(self, number: int, name: str | None, m: re.Match[str]) -> None:
        state = self.state
        if (
            number == state.turn
            and self.live
            and (name is None or name == self.names[state.current])
            and state.awaiting != OVER
        ):
            return  # the usual case: the turn the game is at, its player named or not
        if not self.live:
            return
        line, column, name_column = self.turn_places(m)
        if state.awaiting == SETUP:
            self.error("syntax", line, 1, "the game has no setup before turn 1")
            return
        if number != state.turn and state.awaiting != OVER:
            if number > state.turn:
                self.error(
                    "illegal",
                    line,
                    column,
                    f"turn {number} starts here, but turn {state.turn} is not over",
                    [_due_violation(state)],
                    with_position=True,
                )
                return
            msg = (
                f"this is turn {state.turn}, not {number} (turns are numbered from 1; an "
                f"extra turn counts as a turn): {describe.due(state)}"
            )
            self.error("syntax", line, column, msg, with_position=True)
            return
        if number != state.turn:
            self.error(
                "syntax",
                line,
                column,
                f"the game ended on turn {state.turn}; turn {number} cannot follow",
                with_position=True,
            )
            return
        if name is not None:
            self._turn_player(number, name.strip(), (line, name_column))

    def _turn_player(self, number: int, name: str, where: tuple[int, int]) -> None:
        state = self.state
        names = self.names
        seat = names.index(name) if name in names else seat_number(name, len(names))
        if seat is None:
            self.error(
                "unknown",
                where[0],
                where[1],
                f"no player {name!r} (the players are {listing(names)})",
            )
            return
        if seat != state.current and state.awaiting != OVER:
            self.error(
                "illegal",
                where[0],
                where[1],
                f"turn {number} is {names[state.current]}'s, not {name}'s: {describe.due(state)}",
                [
                    Violation(
                        "turn.player", f"it is {names[state.current]}'s turn", rules.PLAYER_TURN
                    )
                ],
                with_position=True,
            )


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
    text: str,
    source: str = "<string>",
    *,
    stop_at_first_error: bool = True,
    texts: bool = False,
    every: int | None = None,
) -> ParsedGame:
    """Read a game written in notation, checking every decision against the rules.

    With ``stop_at_first_error`` (the default) reading ends at the first problem; without
    it, the events stop at the first problem (the legal prefix is kept) and the rest of
    the text is still read for syntax errors and unknown names, each reported.  A
    decision marked ``!illegal`` is applied as played (``game.force``) and listed in
    ``flagged`` instead of being an error.  With ``texts``, the fold keeps each event's
    canonical text, and a snapshot every ``every`` steps.  Never raises for bad input.
    """
    return _builder.parse_game(
        GameBuilder, text, source, stop_at_first_error=stop_at_first_error, texts=texts, every=every
    )
