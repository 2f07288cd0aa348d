"""Reading classic Splendor notation: the shared reader and builder
(:mod:`engine.notation.reader`, :mod:`engine.notation.builder`) with this game's grammar
(:data:`.decisions.GRAMMAR`), reading on after an error as
:class:`engine.notation.builder.ReadOnBuilder` does (a line in error skipped, a refused
decision kept as played, the table followed again from the turn due), and what only this
game's builder knows: the setup event its setup lines make, the first seat when no
header names it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...corrections import Retraction
from ...notation import builder as _builder
from ...notation import visitor as _visitor
from ...notation.visitor import Decision
from ...protocol import ParsedGame
from ..events import Event, GameSetUp
from ..state import State
from .decisions import GRAMMAR, move_text
from .typed import reading


class HeadersBuilder(_visitor.HeadersBuilder):
    """Collects the headers and the seat names, and stops after them."""

    grammar = GRAMMAR


class SyntaxChecker(_visitor.SyntaxChecker):
    """Reads every decision for its words only, without the rules."""

    grammar = GRAMMAR


class GameBuilder(_builder.ReadOnBuilder):
    """Folds a classic Splendor game as it is read, every decision checked against the
    rules (:class:`engine.notation.builder.ReadOnBuilder`).  A turn's decisions may go on
    after its line; the ``Result`` header is checked against how the moves end, as in
    every game (a violation, ``result.mismatch``, citing the end of the game)."""

    grammar = GRAMMAR
    setup_first = "the setup (nobles, level3, level2, level1) comes first"
    setup_refused = "the setup is not allowed"

    def said(self, decision: Decision, event: Any) -> str:
        return move_text(event)

    def first_seat(self, number: int) -> int | None:
        if self.first is None:
            return 0  # the first seat, when no First header says otherwise
        return super().first_seat(number)

    def setup_event(self, parts: dict[str, Any], first: int) -> tuple[Any, int]:
        levels = parts["levels"]
        nobles, line = parts["nobles"]
        display = (levels[1][0], levels[2][0], levels[3][0])
        last = max(line, *(levels[lv][1] for lv in (1, 2, 3)))
        return GameSetUp(first, display, nobles), last


def parse_game(
    text: str,
    source: str = "<text>",
    *,
    stop_at_first_error: bool = True,
    texts: bool = False,
    every: int | None = None,
) -> ParsedGame:
    """Read one game; never raises for bad input.  The reading stops at the first error,
    or, when every error is asked for, skips a line in error and keeps a refused decision
    as played (marked so) when it can be replayed at all.  With ``texts``, the fold keeps
    each event's canonical text, and a snapshot every ``every`` steps."""
    return _builder.parse_game(
        GameBuilder, text, source, stop_at_first_error=stop_at_first_error, texts=texts, every=every
    )


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
    return _builder.read_typed_moves(GameBuilder, state, text, events, meta, reading)
