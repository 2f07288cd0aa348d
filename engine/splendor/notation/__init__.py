"""Classic Splendor notation (``docs/notation-splendor.md``): the reader every game shares
(:mod:`engine.notation`) reads it with this game's grammar: its decisions
(:mod:`.decisions`, :data:`.decisions.GRAMMAR`) and setup lines (:mod:`.setup`); its
builder (:mod:`.builder`) checks a turn line's number and player; the writer
(:mod:`.writer`) writes the canonical text back.

>>> import random
>>> from engine.splendor import simulate
>>> events = simulate.random_game(random.Random(3), players=3)
>>> text = write_game({"players": ["Ann", "Bob", "Cid"]}, events)
>>> parsed = parse_game(text)
>>> parsed.errors, parsed.events == events, write_game(parsed.headers, parsed.events) == text
([], True, True)
"""

from __future__ import annotations

from ...errors import EventFormatError
from ...notation.grammar import Fail
from ...notation.results import NotationError
from ..events import Event
from ..state import State
from .builder import GameBuilder, HeadersBuilder, SyntaxChecker, parse_game, read_moves
from .decisions import GRAMMAR, KEYWORDS, completed, move_text, parse_decision
from .typed import reading
from .writer import write_game


def parse_move(state: State, text: str) -> Event:
    """The decision ``text`` means in ``state``, read as people type it (``Take wbg``:
    :mod:`.typed`); NotationError says why not."""
    words = text.split()
    if not words:
        raise NotationError("syntax", "<move>", 1, 1, "an empty decision")
    try:
        return completed(state, words) or parse_decision(words, len(state.players))
    except Fail as err:
        raise NotationError(err.kind, "<move>", 1, 1, err.message) from None
    except EventFormatError as err:
        canonical = reading(text)
        if canonical is not None:
            try:
                return parse_decision(canonical.split(), len(state.players))
            except EventFormatError:
                pass
        raise NotationError("syntax", "<move>", 1, 1, str(err)) from None


__all__ = [
    "GRAMMAR",
    "KEYWORDS",
    "GameBuilder",
    "HeadersBuilder",
    "SyntaxChecker",
    "NotationError",
    "move_text",
    "parse_game",
    "parse_move",
    "read_moves",
    "write_game",
]
