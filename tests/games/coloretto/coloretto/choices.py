"""Every legal next decision of Coloretto as a :class:`engine.protocol.Choice` (the
texts of ``legal_move_texts``, in its order), with the things on the table
each one involves, the names the game's board templates use:

* ``deck``: the supply (a draw; the card the draw shows, with the card's word);
* ``row-1`` .. ``row-5``: a row card and the cards next to it (a card placed there,
  with the card's word; a row taken);
* ``blue`` .. ``yellow``, ``joker``, ``plus``, ``last``: a card by its kind.

The families (``group``): ``draw``, ``reveal`` (what the card drawn is: the table's
observation, due after a draw), ``place`` and ``take``.

>>> import random
>>> from coloretto import GAME
>>> state = GAME.replay(GAME.random_game(random.Random(2))[:1])
>>> first = choices(state)[0]
>>> first.text, first.targets, first.group, first.label
('draw', ('deck',), 'draw', "Draw the supply's top card")
"""

from __future__ import annotations

from typing import Any

from engine.protocol import Choice

from .cards import WORDS, title
from .describe import row_text
from .events import CardDrawn, CardPlaced, CardRevealed, Event, RowTaken
from .notation import move_text
from .rules import legal_moves
from .state import State

GROUPS = {
    "card_drawn": "draw",
    "card_revealed": "reveal",
    "card_placed": "place",
    "row_taken": "take",
}


def row_target(row: int) -> str:
    """The name of row ``row`` (from 0) on the table: ``row-1`` ..."""
    return f"row-{row + 1}"


def targets(state: State, event: Any) -> tuple[str, ...]:
    """The names of what ``event`` touches on the table (see the module's docstring)."""
    match event:
        case CardDrawn():
            return ("deck",)
        case CardRevealed(card=card):
            return ("deck", WORDS[card])
        case CardPlaced(row=row):
            drawn = () if state.drawn is None else (WORDS[state.drawn],)
            return (row_target(row), *drawn)
        case RowTaken(row=row):
            return (row_target(row),)
    return ()


def label(state: State, event: Any) -> str:
    """The decision in a few words."""
    match event:
        case CardDrawn():
            return "Draw the supply's top card"
        case CardRevealed(card=card):
            return f"The card drawn is {title(card)}"
        case CardPlaced(row=row):
            what = "the card drawn" if state.drawn is None else title(state.drawn)
            return f"Place {what} next to row {row + 1}"
        case RowTaken(row=row):
            return f"Take row {row + 1}: {row_text(state.rows[row])}"
    return str(event.type)


def choice(state: State, event: Event) -> Choice:
    """``event``, legal in ``state``, as a :class:`Choice`."""
    return Choice(
        move_text(event),
        targets(state, event),
        GROUPS.get(event.type, event.type),
        label(state, event),
    )


def choices(state: State) -> list[Choice]:
    """Every legal next decision, as ``legal_move_texts`` lists them (the
    card a due draw may show among them)."""
    return [choice(state, event) for event in legal_moves(state)]


def observations(state: State) -> list[Choice]:
    """What the table may observe besides the decision due: nothing (the card drawn is
    observed when it is due, and :func:`choices` then lists it)."""
    return []
