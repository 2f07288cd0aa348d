"""Reading Coloretto notation: the shared reader and builder
(:mod:`engine.notation.reader`, :mod:`engine.notation.builder`) with this game's grammar
(:data:`.decisions.GRAMMAR`), reading on after an error as
:class:`engine.notation.builder.ReadOnBuilder` does (a line in error skipped, a refused
decision kept as played when it can be, the table followed again from the turn due), and
what only this game's builder knows: the setup event its setup lines make."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.corrections import Retraction
from engine.notation import builder as _builder
from engine.notation import visitor as _visitor
from engine.notation.visitor import Decision
from engine.protocol import ParsedGame

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
    """Folds a Coloretto game as it is read, every decision checked against the rules.
    A turn's decisions may go on after its line; the ``Result`` header is checked
    against how the moves end."""

    grammar = GRAMMAR
    setup_first = "the setup (removed, start) comes first"
    setup_refused = "the setup is not allowed"

    def said(self, decision: Decision, event: Any) -> str:
        return move_text(event)

    def setup_event(self, parts: dict[str, Any], first: int) -> tuple[Any, int]:
        start, line = parts["start"]
        removed, removed_line = parts.get("removed", ((), line))
        return GameSetUp(first, removed, start), max(line, removed_line)


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
    return _builder.read_typed_moves(GameBuilder, state, text, events, meta, reading)
