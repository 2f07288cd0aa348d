"""Splendor Duel (2 players): catalogue, state, events, rules, legal moves.

>>> import random
>>> from engine.splendor_duel import GAME, simulate
>>> events = simulate.random_game(random.Random(7))
>>> state = GAME.replay(events)
>>> state.outcome is not None
True
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

#: Event types made by a seat named in the event itself, not by the player to move.
_ACTOR_IN_EVENT = ("card_identified", "player_resigned")


class SplendorDuel(_game.DuelRules):
    """The :class:`engine.protocol.GameRules` implementation for Splendor Duel: the rules
    (:class:`engine.splendor_duel.game.DuelRules`) with the notation and the presentation."""

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
        "check_move": "notation:check_move",
        "move_text": "notation:move_text",
        "legal_move_texts": "notation:legal_move_texts",
        "text_view": "text:text_view",
    }

    #: The setup as the table lays it out (rulebook p.2): the board, then the pyramid.
    setup_lines: Sequence[SetupLine] = (
        SetupLine(
            "board",
            "Board",
            "The board's 25 tokens in spiral order from the centre (W B G R K P Y)",
            tokens=True,
        ),
        SetupLine("level3", "Level 3", "Level 3 cards in the pyramid, left to right", 3, 3),
        SetupLine("level2", "Level 2", "Level 2 cards, left to right", 2, 4),
        SetupLine("level1", "Level 1", "Level 1 cards, left to right", 1, 5),
    )
    setup_note = "The player who does not start takes a Privilege (rulebook p.2)."
    #: What only the table sees: the card turned into the pyramid, a blind reserve shown,
    #: the tokens drawn from the bag onto the board.
    table_questions: Sequence[TableQuestion] = (
        TableQuestion("reveal", "Card revealed into the pyramid (id or what is printed)"),
        TableQuestion("id", "The blind reserve, shown (id or what is printed)"),
        TableQuestion(
            "repl",
            "Tokens drawn from the bag, in the spiral order of the empty spaces "
            "(W B G R K P Y; - for none)",
            card=False,
        ),
    )

    def setup_after(self, first: int, players: int) -> list[str]:
        """The Privilege the player who does not start holds (rulebook p.2)."""
        held = ["0" if seat == first else "1" for seat in range(players)]
        return ["privileges " + " ".join(held)]

    def acting_seat(self, state: State, event: _events.Event) -> int | None:
        if event.type in _ACTOR_IN_EVENT:
            return event.player  # type: ignore[union-attr]
        return None if state.awaiting == SETUP else state.current

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


GAME = SplendorDuel()

__all__ = ["GAME", "IllegalMoveError", "SplendorDuel", "State"]
