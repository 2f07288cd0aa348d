"""Each decision's words: the canonical text of an event and the event a text means.

A turn is written as the table plays it, its decisions one after the other on its line:
``draw`` (the player draws), the card the table then sees as its own word (a colour,
``joker``, ``plus`` for a "+2" card, ``last`` for the last-round card, after which the
player draws again: ``draw last green row 2``), ``row 2`` (the card laid next to row 2),
or ``take 2`` (row 2 taken).  A card may be written by its letter (``b`` blue, ``n``
brown, ``g`` green, ``r`` grey, ``o`` orange, ``p`` pink, ``y`` yellow, ``j`` joker,
``l`` last); the writer writes the word.

>>> parse_decision(["row", "2"])
CardPlaced(row=1)
>>> [move_text(e) for e in (CardDrawn(), CardRevealed(2), CardRevealed(8), RowTaken(0))]
['draw', 'green', 'plus', 'take 1']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.corrections import UNDO, Retraction
from engine.errors import EventFormatError
from engine.notation.grammar import Fail, Grammar

from ..cards import KIND_BY_WORD, LETTERS, WORDS
from ..describe import result_problem
from ..events import MAX_ROWS, CardDrawn, CardPlaced, CardRevealed, Event, GameSetUp, RowTaken
from ..game import RULES
from ..position import position_string

#: The card words and letters, each a decision of its own: what the card drawn is.
CARD_WORDS: dict[str, int] = {
    **KIND_BY_WORD,
    **{letter: k for k, letter in enumerate(LETTERS) if letter.isalpha()},
}
#: The decision keywords, in the order the docs list them.
KEYWORDS = ("draw", "row", "take", *CARD_WORDS)


def move_text(event: Event | Retraction) -> str:
    """The canonical notation of a decision or observation (the setup on one line, for a
    move list; a game writes :func:`.setup.setup_lines`)."""
    match event:
        case CardDrawn():
            return "draw"
        case CardRevealed(card=card):
            return WORDS[card]
        case CardPlaced(row=row):
            return f"row {row + 1}"
        case RowTaken(row=row):
            return f"take {row + 1}"
        case GameSetUp():
            from .setup import setup_lines

            return f"setup first @{event.first_player + 1} " + " ".join(setup_lines(event))
        case Retraction(back_to=back_to):
            return f"{UNDO} to step {back_to}"
    raise ValueError(f"no notation for {event.type}")


def _row(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= MAX_ROWS:
        raise EventFormatError(f"expected a row number from 1 to {MAX_ROWS}, got {word!r}")
    return int(word) - 1


def parse_decision(words: Sequence[str]) -> Event:
    """The event a decision's words mean (keyword first); EventFormatError says why not."""
    key, args = words[0], list(words[1:])
    if key in CARD_WORDS or key == "draw":
        if args:
            what = "a card drawn" if key != "draw" else "draw"
            hint = " (a +2 card is written plus)" if "+2" in args else ""
            raise EventFormatError(
                f"{what} takes no argument: the card drawn follows draw as its own word, "
                f"then its row (draw green row 2){hint}"
            )
        return CardDrawn() if key == "draw" else CardRevealed(CARD_WORDS[key])
    if key in ("row", "take"):
        if len(args) != 1:
            raise EventFormatError(f"'{key}' takes a row number ({key} 2)")
        row = _row(args[0])
        return CardPlaced(row) if key == "row" else RowTaken(row)
    raise EventFormatError(f"unknown decision {key!r}")


def _reader(keyword: str) -> Any:
    def read(args: list[str], state: Any, names: Sequence[str]) -> Event:
        try:
            return parse_decision([keyword, *args])
        except EventFormatError as err:
            raise Fail("syntax", 0 if args else -1, str(err)) from None

    read.__doc__ = f"``{keyword} ...``: the event its words mean (:func:`parse_decision`)."
    return read


#: Each keyword's reader (every decision is read from its words alone).
READERS = {keyword: _reader(keyword) for keyword in KEYWORDS}


def _move_text(state: Any, event: Event, names: Sequence[str]) -> str:
    return move_text(event)


def _grammar() -> Grammar:
    from . import setup

    return Grammar(
        RULES,
        KEYWORDS,
        READERS,
        _move_text,
        setup.read_setup_line,
        position=position_string,
        setup_words=setup.SETUP_WORDS,
        setup_missing=setup.setup_missing,
        numbered=False,
        result_problem=result_problem,
    )


#: Coloretto's notation for the shared reader (:mod:`engine.notation.reader`): a turn
#: line's prefix may be left out.
GRAMMAR = _grammar()
