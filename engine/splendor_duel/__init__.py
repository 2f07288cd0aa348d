"""Splendor Duel (2 players): catalogue, state, events, rules, legal moves.

>>> import random
>>> from engine.splendor_duel import simulate, game
>>> events = simulate.random_game(random.Random(7))
>>> state = game.replay(events)
>>> state.outcome is not None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import IllegalMoveError, Violation
from . import events as _events
from . import game as _game
from .state import OVER, SETUP, State


class SplendorDuel:
    """The :class:`engine.protocol.GameRules` implementation for Splendor Duel."""

    kind = "splendor-duel"
    title = "Splendor Duel"
    payload_version = _events.PAYLOAD_VERSION

    def new_state(self, names: tuple[str, str] | None = None) -> State:
        return State(names) if names else State()

    # The hot calls (an import parses and plays ~150 events a game) are the engine's own
    # functions, not wrappers: a wrapper's extra call cost about a tenth of the checking.
    event_from_dict = staticmethod(_events.event_from_dict)
    event_to_dict = staticmethod(_events.event_to_dict)

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        return _events.upcast(payload, version)

    check = staticmethod(_game.check)
    play = staticmethod(_game.play)

    def force(self, state: State, event: _events.Event) -> list[Violation]:
        return _game.force(state, event)

    def legal_moves(self, state: State) -> list[_events.Event]:
        return _game.legal_moves(state)

    def summary(self, state: State) -> dict[str, Any]:
        o = state.outcome
        if state.awaiting == SETUP:
            status = "setup"
        else:
            status = "finished" if state.awaiting == OVER else "playing"
        return {
            "status": status,
            "winner": None if o is None else o.winner,
            "condition": None if o is None else o.condition,
            "turns": state.turn,
            "to_move": None if status != "playing" else state.current,
        }


GAME = SplendorDuel()

__all__ = ["GAME", "IllegalMoveError", "SplendorDuel", "State"]
