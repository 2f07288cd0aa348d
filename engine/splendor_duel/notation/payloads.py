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

from ...corrections import Retraction, check_retraction, effective_steps, fold
from ...errors import EventFormatError, IllegalMoveError
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
    state = State(names)
    flagged: list[Flagged] = []
    metas = list(meta or [])
    events: list[Any] = []
    for number, payload in enumerate(payloads, start=1):
        m = metas[number - 1] if number - 1 < len(metas) else None
        try:
            event = event_from_dict(payload)
        except EventFormatError as err:
            return state, PayloadProblem(number, str(err), err.field, [], state.turn, None), flagged
        events.append(event)
        if isinstance(event, Retraction):
            problems = check_retraction(effective_steps(events[:-1]), number, event)
            if problems:
                problem = PayloadProblem(
                    number,
                    f"the retraction back to step {event.back_to} cannot stand here",
                    "back_to",
                    problems,
                    state.turn,
                    position_string(state),
                )
                return state, problem, flagged
            marks = [isinstance(mm, Mapping) and bool(mm.get("played_illegally")) for mm in metas]
            state = fold(game(), events, names, marks).state
            continue
        if isinstance(m, Mapping) and m.get("played_illegally"):
            before = position_string(state)
            text = move_text_safe(state, event, names)
            turn = state.turn
            try:
                violations = _game.force(state, event)
            except IllegalMoveError as err:
                problem = PayloadProblem(
                    number, "cannot be replayed even as played", None, err.violations, turn, before
                )
                return state, problem, flagged
            flagged.append(Flagged(number, 0, 0, turn, text, violations, before))
            continue
        violations = _game.check(state, event)
        if violations:
            problem = PayloadProblem(
                number,
                f"{move_text_safe(state, event, names)} is not allowed here",
                None,
                violations,
                state.turn,
                position_string(state),
            )
            return state, problem, flagged
        _game.apply_unchecked(state, event)
    return state, None, flagged
