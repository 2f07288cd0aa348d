"""Folding events for any game: replay with checks, every intermediate state, and forcing
an event that stood at the table although the rules refuse it.  A game package hands in
its empty table, its ``check`` and its table of appliers (event type -> effect)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any

from .errors import IllegalMoveError, Violation

Check = Callable[[Any, Any], list[Violation]]
Appliers = Mapping[str, Callable[[Any, Any], None]]


def replay(
    state: Any, events: Iterable[Any], check: Check, appliers: Appliers, upto: int | None = None
) -> Any:
    """Fold ``events`` (all, or the first ``upto``) onto ``state``, checking each;
    IllegalMoveError carries the 1-based number of the refused event in ``step``."""
    if upto is not None:
        events = islice(events, max(upto, 0))
    for n, event in enumerate(events, start=1):
        violations = check(state, event)
        if violations:
            raise IllegalMoveError(violations, step=n)
        try:
            appliers[event.type](state, event)
        except IllegalMoveError as err:  # a template (see legal_moves) cannot be folded
            raise IllegalMoveError(err.violations, step=n) from None
    return state


def states(state: Any, events: Iterable[Any], check: Check, appliers: Appliers) -> Iterator[Any]:
    """``state``, then the state after each event (independent copies), checking each."""
    yield state.copy()
    for n, event in enumerate(events, start=1):
        violations = check(state, event)
        if violations:
            raise IllegalMoveError(violations, step=n)
        try:
            appliers[event.type](state, event)
        except IllegalMoveError as err:
            raise IllegalMoveError(err.violations, step=n) from None
        yield state.copy()


def force(
    state: Any,
    event: Any,
    check: Check,
    appliers: Appliers,
    due: Iterable[str],
    consistent: Callable[[Any], bool],
) -> list[Violation]:
    """Apply an event that stood at the table although the rules refuse it; returns its
    violations (empty if it was legal after all).  It must be of a kind ``due`` now and
    must leave the table ``consistent`` (nobody pays what they do not hold, no card in two
    places); otherwise IllegalMoveError is raised with its violations."""
    violations = check(state, event)
    if not violations:
        appliers[event.type](state, event)
        return []
    if state.outcome is not None or event.type not in due:
        raise IllegalMoveError(violations)
    trial = state.copy()
    try:
        appliers[event.type](trial, event)
    except (IndexError, KeyError, ValueError, AssertionError, TypeError):
        raise IllegalMoveError(violations) from None
    if not consistent(trial):
        raise IllegalMoveError(violations)
    for slot in type(state).__slots__:
        setattr(state, slot, getattr(trial, slot))
    return violations
