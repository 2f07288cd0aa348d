"""Coloretto notation (``docs/notation.md`` for the layout every game shares): the shared
reader (:mod:`engine.notation`) reads it with this game's grammar: its decisions
(:mod:`.decisions`, :data:`.decisions.GRAMMAR`) and setup lines (:mod:`.setup`); its
builder (:mod:`.builder`) checks a turn line's number and player; the writer
(:mod:`.writer`) writes the canonical text back.

>>> import random
>>> from coloretto import simulate
>>> events = simulate.random_game(random.Random(3), players=3)
>>> text = write_game({"players": ["Ann", "Bob", "Cid"]}, events)
>>> parsed = parse_game(text)
>>> parsed.errors, parsed.events == events, write_game(parsed.headers, parsed.events) == text
([], True, True)
"""

from __future__ import annotations

from engine.errors import EventFormatError
from engine.notation.grammar import Fail
from engine.notation.results import NotationError

from ..events import Event
from ..state import State
from .builder import GameBuilder, HeadersBuilder, SyntaxChecker, parse_game, read_moves
from .decisions import GRAMMAR, KEYWORDS, READERS, move_text, parse_decision
from .typed import reading
from .writer import write_game


def parse_move(state: State, text: str) -> Event:
    """The decision ``text`` means in ``state``, read as people type it (``Take row 2``:
    :mod:`.typed`); NotationError says why not."""
    words = text.split()
    if not words:
        raise NotationError("syntax", "<move>", 1, 1, "an empty decision")
    try:
        if words[0] not in READERS:
            raise EventFormatError(
                f"unknown decision {words[0]!r}; expected one of {', '.join(KEYWORDS)}"
            )
        return parse_decision(words)
    except (Fail, EventFormatError) as err:
        canonical = reading(text)
        if canonical is not None and len(canonical.split()) <= 2:
            try:
                return parse_decision(canonical.split())
            except EventFormatError:
                pass
        raise NotationError("syntax", "<move>", 1, 1, str(err)) from None


__all__ = [
    "GRAMMAR",
    "KEYWORDS",
    "GameBuilder",
    "HeadersBuilder",
    "NotationError",
    "SyntaxChecker",
    "move_text",
    "parse_game",
    "parse_move",
    "read_moves",
    "write_game",
]
