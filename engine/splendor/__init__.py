"""Classic Splendor (2 to 4 players): catalogue, state, events, rules, legal moves,
notation, positions and random games, behind :class:`engine.protocol.GameRules`.

>>> import random
>>> from engine.splendor import GAME
>>> events = GAME.random_game(random.Random(7), ["Ann", "Bob", "Cid"])
>>> state = GAME.new_state(["Ann", "Bob", "Cid"])
>>> for e in events:
...     GAME.play(state, e)
>>> GAME.status(state).phase
'finished'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..contract import LAYOUT
from ..errors import IllegalMoveError
from ..protocol import SetupLine, TableQuestion
from . import colours as _colours
from . import describe as _describe
from . import events as _events
from . import game as _game
from . import playout as _playout
from .state import SETUP, State


class Splendor(_game.SplendorRules):
    """The :class:`engine.protocol.GameRules` implementation for classic Splendor: the
    rules (:class:`engine.splendor.game.SplendorRules`) with the notation and the
    presentation."""

    payload_version = _events.PAYLOAD_VERSION
    conditions: Mapping[str, str] = _describe.SHORT_CONDITIONS
    #: The playout module is the game's :class:`engine.protocol.Playouts`.
    playouts = _playout
    palette = _colours.PALETTE

    #: Where the members this class does not define live: the usual places
    #: (:data:`engine.contract.LAYOUT`) and this game's own.
    members = {
        **LAYOUT,
        "legal_moves": "game:legal_moves",
        "event_text": "notation:move_text",
    }

    #: The setup as the table lays it out (rulebook, "Game setup"): the nobles (one more
    #: than the players), then four face-up cards of each level, level 3 first.
    setup_lines: Sequence[SetupLine] = (
        SetupLine("nobles", "Nobles", "Nobles revealed", 0, 1, per_seat=1, piece="noble"),
        SetupLine("level3", "Level 3", "Level 3 cards face up, left to right", 3, 4),
        SetupLine("level2", "Level 2", "Level 2 cards face up, left to right", 2, 4),
        SetupLine("level1", "Level 1", "Level 1 cards face up, left to right", 1, 4),
    )
    setup_note = (
        "The bank holds the rulebook's tokens for the number of players "
        "(4, 5 or 7 of each gem colour, 5 Gold)."
    )
    #: What only the table sees (the card turned face up to refill the display, a blind
    #: reserve shown) and the noble a player chooses when several may visit.
    table_questions: Sequence[TableQuestion] = (
        TableQuestion("reveal", "Card turned face up into the display (id or what is printed)"),
        TableQuestion("id", "A blind reserve, shown (id or what is printed)"),
        TableQuestion("noble", "The noble who visits (id or what is printed)"),
    )

    def acting_seat(self, state: State, event: _events.Event) -> int | None:
        if isinstance(event, _events.CardIdentified):
            return event.player
        if state.awaiting == SETUP or event.type == "card_revealed":
            return None
        return state.current

    def card_actions(self, state: State, event: _events.Event) -> tuple[tuple[str, str], ...]:
        """A purchase's card; a reservation's card where the table saw it, else when the
        player shows it (``card_identified``)."""
        if isinstance(event, _events.CardPurchased):
            return (("bought", event.card),)
        if isinstance(event, _events.CardReserved) and event.card is not None:
            return (("reserved", event.card),)
        if isinstance(event, _events.CardIdentified):
            return (("reserved", event.card),)
        return ()


GAME = Splendor()

__all__ = ["GAME", "IllegalMoveError", "Splendor", "State"]
