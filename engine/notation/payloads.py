"""A game given as JSON event payloads, folded as the store imports it, for any game: every
event parsed and checked, those whose meta says ``played_illegally`` forced and listed.
Each game hands in its own parser, rules and texts (:class:`PayloadGame`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..corrections import Retraction, check_retraction, effective_steps
from ..errors import EventFormatError, IllegalMoveError, Violation
from .results import Flagged, PayloadProblem


@dataclass(frozen=True, slots=True)
class PayloadGame:
    """What folding payloads needs of a game: parse a payload, check, force and apply an
    event, the text of an event (never raising), the position string of a state, and the
    state after a game's events with retractions (``refold(events, played_illegally)``,
    the standing steps folded again: :func:`engine.corrections.fold`)."""

    parse: Callable[[Any], Any]
    check: Callable[[Any, Any], list[Violation]]
    force: Callable[[Any, Any], list[Violation]]
    apply: Callable[[Any, Any], None]
    text: Callable[[Any, Any], str]
    position: Callable[[Any], str]
    refold: Callable[[Sequence[Any], Sequence[bool]], Any]


def fold_payloads(
    game: PayloadGame,
    state: Any,
    payloads: Sequence[Any],
    meta: Sequence[Mapping[str, Any] | None] | None = None,
) -> tuple[Any, PayloadProblem | None, list[Flagged]]:
    """Fold ``payloads`` onto ``state`` (the empty table, changed in place): the state
    after the legal prefix, the first problem (or None) and the flagged events."""
    flagged: list[Flagged] = []
    metas = list(meta or [])
    events: list[Any] = []
    for number, payload in enumerate(payloads, start=1):
        m = metas[number - 1] if number - 1 < len(metas) else None
        try:
            event = game.parse(payload)
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
                    game.position(state),
                )
                return state, problem, flagged
            marks = [isinstance(mm, Mapping) and bool(mm.get("played_illegally")) for mm in metas]
            state = game.refold(events, marks)
            continue
        if isinstance(m, Mapping) and m.get("played_illegally"):
            before = game.position(state)
            text = game.text(state, event)
            turn = state.turn
            try:
                violations = game.force(state, event)
            except IllegalMoveError as err:
                problem = PayloadProblem(
                    number, "cannot be replayed even as played", None, err.violations, turn, before
                )
                return state, problem, flagged
            flagged.append(Flagged(number, 0, 0, turn, text, violations, before))
            continue
        violations = game.check(state, event)
        if violations:
            problem = PayloadProblem(
                number,
                f"{game.text(state, event)} is not allowed here",
                None,
                violations,
                state.turn,
                game.position(state),
            )
            return state, problem, flagged
        game.apply(state, event)
    return state, None, flagged
