"""Corrections: taking back what was logged without deleting anything.

A mistake at the table is undone by a new event, a :class:`Retraction`: after it the game
stands as it stood after step ``back_to`` (steps count a game's events from 1, the setup).
The events in between stay in the record, *retracted*; the fold skips them.  This is the
same for every game, so it lives here and not in a game package: each game's payload parser
hands the ``retraction`` type to :func:`retraction_from_dict`.

>>> from engine.games import DEFAULT_KIND, get_game
>>> rules = get_game(DEFAULT_KIND)
>>> import random
>>> events = rules.random_game(random.Random(1))[:6]
>>> events.append(Retraction(4))          # back to how the game stood after step 4
>>> effective_steps(events)
[1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError, EventFormatError, Rule, Violation

#: The payload type of a correction, the same in every game.
RETRACTION = "retraction"

#: What a correction rests on: nothing is ever deleted from a record.
CORRECTION_RULE = Rule("a correction retracts standing steps; nothing is deleted", None, "tablelog")


@dataclass(frozen=True, slots=True)
class Retraction:
    """After this event the game stands as it stood after step ``back_to``."""

    back_to: int
    type: str = field(default=RETRACTION, init=False)


def is_retraction(event: Any) -> bool:
    """Whether ``event`` (an event object or a payload) is a correction."""
    if isinstance(event, Retraction):
        return True
    return isinstance(event, Mapping) and event.get("type") == RETRACTION


def retraction_from_dict(data: Mapping[str, Any]) -> Retraction:
    """Parse a ``{"type": "retraction", "back_to": K}`` payload; EventFormatError names
    the bad field."""
    unknown = set(data) - {"type", "back_to"}
    if unknown:
        raise EventFormatError(f"unknown field {sorted(unknown)[0]!r} in a retraction")
    k = data.get("back_to")
    if type(k) is not int or k < 1:
        raise EventFormatError(f"a step number (1 or more), got {k!r}", "back_to")
    return Retraction(k)


def retraction_to_dict(event: Retraction) -> dict[str, Any]:
    return {"type": RETRACTION, "back_to": event.back_to}


class CorrectionError(EngineError):
    """A retraction that does not go back to a standing step before it."""


def check_retraction(standing: Sequence[int], step: int, event: Retraction) -> list[Violation]:
    """Why ``event`` at ``step`` cannot stand, given the standing steps before it."""
    if event.back_to >= step or event.back_to not in standing:
        return [
            Violation(
                "correction.not_standing",
                f"step {event.back_to} is not a standing step before step {step} "
                f"(standing: {step_ranges(standing)})",
                CORRECTION_RULE,
            )
        ]
    if event.back_to == standing[-1]:
        return [
            Violation(
                "correction.nothing_retracted",
                f"the game already stands as it did after step {event.back_to}",
                CORRECTION_RULE,
            )
        ]
    return []


def effective_steps(events: Sequence[Any]) -> list[int]:
    """The 1-based steps of the events that stand: neither retracted nor a retraction.
    CorrectionError names a retraction that does not go back to a standing step."""
    standing: list[int] = []
    for step, event in enumerate(events, start=1):
        if is_retraction(event):
            r = event if isinstance(event, Retraction) else retraction_from_dict(event)
            problems = check_retraction(standing, step, r)
            if problems:
                raise CorrectionError(str(problems[0]))
            while standing and standing[-1] > r.back_to:
                standing.pop()
        else:
            standing.append(step)
    return standing


def undo_target(rules: Any, events: Sequence[Any], apart: Collection[int] | None = None) -> int:
    """The step an ``undo`` goes back to: before the last standing decision, together with
    the observations that followed it (a purchase and the card revealed after it go
    together).  ``apart``: the steps that were entered on their own, each the first of
    what a logger stored at once (None when that is not known, as in a file); a standing
    observation last among them goes back alone, since it is what was entered last (a
    wrong card revealed after the purchase was stored).  CorrectionError when only the
    setup stands."""
    standing = effective_steps(events)
    i = len(standing) - 1
    if (
        i > 0
        and apart is not None
        and standing[i] in apart
        and rules.is_observation(events[standing[i] - 1])
    ):
        return standing[i - 1]
    while i > 0 and rules.is_observation(events[standing[i] - 1]):
        i -= 1
    if i <= 0:
        raise CorrectionError("nothing to undo: only the setup stands")
    return standing[i - 1]


def undo_takes(
    rules: Any, events: Sequence[Any], apart: Collection[int] | None = None
) -> list[int]:
    """The standing steps a plain ``undo`` after ``events`` takes back (see
    :func:`undo_target`); empty when there is nothing to undo."""
    try:
        back_to = undo_target(rules, events, apart)
    except CorrectionError:
        return []
    return [step for step in effective_steps(events) if step > back_to]


#: The notation's keyword of a correction, the same in every game: ``undo`` goes back where
#: :func:`undo_target` says, ``undo to K`` to step K.
UNDO = "undo"


def undo_text(rules: Any, events: Sequence[Any], retraction: Retraction) -> str:
    """A correction as the notation writes it after ``events``: ``undo`` when it goes
    back where a plain undo goes, else ``undo to K``."""
    try:
        if undo_target(rules, events) == retraction.back_to:
            return UNDO
    except CorrectionError:
        pass
    return f"{UNDO} to {retraction.back_to}"


class CorrectionRefused(CorrectionError):
    """A correction that cannot stand; ``violations`` say why."""

    def __init__(self, violations: Sequence[Violation]):
        self.violations = list(violations)
        super().__init__("; ".join(str(v) for v in self.violations))


def retraction_at(
    rules: Any, events: Sequence[Any], back_to: int | None, apart: Collection[int] | None = None
) -> Retraction:
    """The Retraction that ``undo`` (``back_to`` None; ``apart`` as for
    :func:`undo_target`) or ``undo to K`` appends to ``events``; CorrectionRefused when it
    cannot stand there."""
    if back_to is None:
        try:
            back_to = undo_target(rules, events, apart)
        except CorrectionError as err:
            raise CorrectionRefused(
                [Violation("correction.nothing_to_undo", str(err), CORRECTION_RULE)]
            ) from None
    retraction = Retraction(back_to)
    problems = check_retraction(effective_steps(events), len(events) + 1, retraction)
    if problems:
        raise CorrectionRefused(problems)
    return retraction


def step_ranges(steps: Sequence[int]) -> str:
    """``1-4, 7`` for [1, 2, 3, 4, 7]."""
    out: list[str] = []
    for s in steps:
        if out and s == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{s}"
        else:
            out.append(str(s))
    return ", ".join(out) or "none"
