"""The rules of classic Splendor: check an event, apply it, fold a game, list legal moves.

* :func:`check` returns the violations of an event in a state (empty when legal);
* :func:`play` checks an event and applies it in place (the fold's step);
* :func:`apply` does the same on a copy and returns the new state;
* :func:`replay` folds a list of events from the start, checking each;
* :func:`force` applies an event played at the table although the rules refuse it;
* :func:`legal_moves` lists every legal next decision.

A turn (rulebook, "GAME RULES"): one action (take tokens, reserve, buy), the display
refilled at once, tokens returned down to 10, a noble's visit; each family of decisions
has its checks and effects in one module of :mod:`.rules`, and the tables below dispatch
an event to them by what the state awaits and the event's type.

>>> from engine.splendor.catalogue import CARDS_BY_LEVEL
>>> from engine.splendor.events import GameSetUp, TokensTaken
>>> display = tuple(ids[:4] for ids in CARDS_BY_LEVEL)
>>> state = replay([GameSetUp(0, display, ("N-01", "N-02", "N-03"))], names=["Ann", "Bob"])
>>> for v in check(state, TokensTaken((0, 0))):
...     print(v.code, "-", v)
>>> state.bank[0]
4
>>> play(state, TokensTaken((0, 0)))
>>> for v in check(state, TokensTaken((0, 0))):
...     print(v.code, "-", v)
take.two_from_fewer_than_four - 2 white taken from a pile of 2; two of one colour need at \
least 4 there (GAME RULES: Take 2 gem tokens of the same color)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .. import fold as _fold
from ..errors import IllegalMoveError, Violation
from .catalogue import CARDS, token_counts
from .events import Event
from .rules import cards, start, tokens, turn
from .rules.facts import not_set_up
from .rules.moves import action_possible, legal_moves, payments
from .state import ACTION, NOBLE, OVER, RETURN, REVEAL, SETUP, State

__all__ = [
    "APPLIERS",
    "CHECKERS",
    "action_possible",
    "apply",
    "apply_unchecked",
    "check",
    "consistent",
    "force",
    "legal_moves",
    "new_game",
    "payments",
    "play",
    "replay",
    "states",
]


def new_game(names: Sequence[str] | None = None) -> State:
    """The empty table, waiting for the ``game_set_up`` event."""
    return State(names)


_Checker = Callable[[State, Any], list[Violation]]
#: What the state awaits -> event type -> the check of an event of that type.
CHECKERS: dict[str, dict[str, _Checker]] = {
    ACTION: {
        "tokens_taken": tokens.check_take,
        "card_reserved": cards.check_reserve,
        "card_purchased": cards.check_purchase,
        "turn_passed": cards.check_pass,
    },
    REVEAL: {"card_revealed": cards.check_reveal},
    RETURN: {"tokens_returned": turn.check_return},
    NOBLE: {"noble_visited": turn.check_noble},
    OVER: {},
}

#: Event type -> its effect on the state (the event already checked).
APPLIERS: dict[str, Callable[[State, Any], None]] = {
    "game_set_up": start.apply_setup,
    "tokens_taken": tokens.apply_take,
    "card_reserved": cards.apply_reserve,
    "card_purchased": cards.apply_purchase,
    "turn_passed": cards.apply_pass,
    "card_revealed": cards.apply_reveal,
    "card_identified": cards.apply_identify,
    "tokens_returned": turn.apply_return,
    "noble_visited": turn.apply_noble,
}


def check(state: State, event: Event) -> list[Violation]:
    """Every reason why ``event`` may not happen in ``state``; an empty list if it may."""
    t = event.type
    aw = state.awaiting
    if aw == SETUP:
        if t != "game_set_up":
            return not_set_up()
        return start.check_setup(state, event)  # type: ignore[arg-type]
    if t == "card_identified":
        return cards.check_identify(state, event)  # type: ignore[arg-type]
    if state.outcome is not None:
        return turn.game_over(state)
    checker = CHECKERS[aw].get(t)
    if checker is None:
        return turn.out_of_order(state, event)
    return checker(state, event)


def play(state: State, event: Event) -> None:
    """Check ``event`` and apply it to ``state`` in place; IllegalMoveError if refused."""
    violations = check(state, event)
    if violations:
        raise IllegalMoveError(violations)
    APPLIERS[event.type](state, event)


def apply(state: State, event: Event) -> State:
    """The state after ``event``; ``state`` itself is left unchanged."""
    new = state.copy()
    play(new, event)
    return new


def replay(
    events: Iterable[Event], upto: int | None = None, names: Sequence[str] | None = None
) -> State:
    """Fold ``events`` (all, or the first ``upto``) from the empty table, checking each.

    IllegalMoveError carries the 1-based number of the refused event in ``step``;
    ``names`` are the players' names used in violation messages.
    """
    return _fold.replay(State(names), events, check, APPLIERS, upto)  # type: ignore[no-any-return]


def states(events: Iterable[Event], names: Sequence[str] | None = None) -> Iterator[State]:
    """The state before the first event, then after each event (independent copies)."""
    return _fold.states(State(names), events, check, APPLIERS)


def apply_unchecked(state: State, event: Event) -> None:
    """Apply an event already known to be legal (for example, one from legal_moves)."""
    APPLIERS[event.type](state, event)


def consistent(state: State) -> bool:
    """No negative holdings, and every token and card accounted for exactly once."""
    if min(state.bank) < 0 or any(min(p.tokens) < 0 for p in state.players):
        return False
    if state.token_totals() != list(token_counts(len(state.players))):
        return False
    seen: list[str] = []
    for level, row in enumerate(state.display, start=1):
        for cid in row:
            if cid is not None:
                if CARDS[cid].level != level:
                    return False
                seen.append(cid)
    for p in state.players:
        seen.extend(p.cards)
        seen.extend(cid for _, cid in p.reserved if cid is not None)
    seen_set = set(seen)
    if len(seen_set) != len(seen):
        return False
    for level in (1, 2, 3):
        unseen = state.unseen[level - 1]
        if state.decks[level - 1] < 0 or unseen & seen_set:
            return False
        if len(unseen) != state.decks[level - 1] + state.hidden_reserved(level):
            return False
    return state.card_locations() == len(CARDS)


CONSISTENT = consistent


def force(state: State, event: Event) -> list[Violation]:
    """Apply an event that stood at the table although the rules refuse it; returns its
    violations (empty if the event was legal after all).  The event must be of a kind due
    at this point and must leave the table consistent (nobody pays tokens they do not
    hold, no card in two places); otherwise it cannot be replayed even as played, and
    IllegalMoveError is raised with its violations.  So an observation the table cannot
    hold is never forced: it is a logging error, not a move played against the rules."""
    return _fold.force(state, event, check, APPLIERS, CHECKERS.get(state.awaiting, {}), CONSISTENT)
