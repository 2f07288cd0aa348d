"""Coloretto (Michael Schacht, ABACUSSPIELE 2003; Rio Grande Games in English), 2 to 5
players: rules, events, notation, positions, the view, a picture and random games,
behind :class:`engine.protocol.GameRules`.  A game packaged outside tablelog's code: the
registry finds :data:`GAME` by the entry point ``coloretto = "coloretto:GAME"`` of the
group ``tablelog.games``.

>>> import random
>>> from coloretto import GAME
>>> events = GAME.random_game(random.Random(7), ["Ann", "Bob", "Cid"])
>>> state = GAME.new_state(["Ann", "Bob", "Cid"])
>>> for e in events:
...     GAME.play(state, e)
>>> GAME.status(state).phase
'finished'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.contract import LAYOUT
from engine.errors import IllegalMoveError
from engine.protocol import SetupLine, TableQuestion

from . import colours as _colours
from . import describe as _describe
from . import events as _events
from . import game as _game
from . import playout as _playout
from .state import SETUP, State


class Coloretto(_game.ColorettoRules):
    """The :class:`engine.protocol.GameRules` implementation for Coloretto: the rules
    (:class:`coloretto.game.ColorettoRules`) with the notation and the presentation."""

    payload_version = _events.PAYLOAD_VERSION
    conditions: Mapping[str, str] = _describe.SHORT_CONDITIONS
    #: The playout module is the game's :class:`engine.protocol.Playouts`.
    playouts = _playout
    #: The cards' colours (fill, ink, rim): the picture's and the web pieces'.
    palette = _colours.PALETTE

    #: Where the members this class does not define live: the usual places
    #: (:data:`engine.contract.LAYOUT`) and this game's own.
    members = {
        **LAYOUT,
        "legal_moves": "rules:legal_moves",
        "event_text": "notation:move_text",
    }

    #: The setup as the table lays it out (rulebook, Preparation; For two players): the
    #: colours taken out of the box, then each player's start cards.
    setup_lines: Sequence[SetupLine] = (
        SetupLine(
            "removed",
            "Removed colours",
            "Colours removed from the box (2 players: two, 3 players: one; "
            "4 and 5 players: none, write -)",
        ),
        SetupLine(
            "start",
            "Start cards",
            "Each player's start cards in seat order, seats apart by / "
            "(green / blue / pink; 2 players: two each, green yellow / blue pink)",
        ),
    )
    setup_note = (
        "One row card per player (the three green row cards at 2 players); 15 cards "
        "under the last-round card, the rest of the shuffled supply on it."
    )
    #: What only the table sees: the card drawn.  Asked after ``draw`` (``draw`` typed
    #: alone, or the only decision legal at a round's start), its answer logs ``draw
    #: green``: the decision, then the card's own word, the observation.
    table_questions: Sequence[TableQuestion] = (
        TableQuestion(
            "draw", "The card drawn (a colour, joker, +2, or last for the last-round card)"
        ),
    )

    def acting_seat(self, state: State, event: Any) -> int | None:
        if state.awaiting == SETUP or event.type == "card_revealed":
            return None
        return state.current

    def card_actions(self, state: State, event: Any) -> tuple[tuple[str, str], ...]:
        """A row taken: each of its cards collected, counted as ``bought`` (the club's
        statistics count the cards players collect so)."""
        if isinstance(event, _events.RowTaken) and 0 <= event.row < len(state.rows):
            from .cards import WORDS

            return tuple(("bought", WORDS[k]) for k in state.rows[event.row])
        return ()


GAME = Coloretto()

__all__ = ["GAME", "Coloretto", "IllegalMoveError", "State"]
