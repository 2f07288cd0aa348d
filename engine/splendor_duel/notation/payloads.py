"""A game given as JSON event payloads, folded as the store imports it: every event
checked, those whose meta says ``played_illegally`` forced and listed.

>>> import random
>>> from engine.splendor_duel import simulate
>>> from engine.splendor_duel.events import event_to_dict
>>> payloads = [event_to_dict(e) for e in simulate.random_game(random.Random(2))[:4]]
>>> state, problem, flagged = validate_payloads(payloads + [{"type": "royal_taken"}])
>>> problem.event_number, problem.field
(5, 'royal')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...corrections import fold
from ...notation.payloads import PayloadGame, fold_payloads
from .. import game as _game
from ..events import event_from_dict
from ..position import position_string
from ..state import State
from .decisions import move_text_safe
from .players import default_names, game
from .results import Flagged, PayloadProblem


def validate_payloads(
    payloads: Sequence[Any],
    meta: Sequence[Mapping[str, Any] | None] | None = None,
    names: Sequence[str] | None = None,
) -> tuple[State, PayloadProblem | None, list[Flagged]]:
    """Fold a game given as JSON event payloads (``event_to_dict`` form), as the store
    imports it: events whose meta says ``played_illegally`` are forced, and a
    ``retraction`` folds the standing steps again (one that does not go back to a
    standing step is the problem, with its event number).  Returns the
    state after the legal prefix, the first problem (or None) and the flagged events;
    messages name the seats ``names`` (default ``Player 1``, ``Player 2``)."""
    names = tuple(names or default_names())
    payload_game = PayloadGame(
        event_from_dict,
        _game.check,
        _game.force,
        _game.apply_unchecked,
        lambda state, event: move_text_safe(state, event, names),
        position_string,
        lambda events, marks: fold(game(), events, names, marks).state,
    )
    return fold_payloads(payload_game, State(names), payloads, meta)
