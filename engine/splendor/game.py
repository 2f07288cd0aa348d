"""The rules of classic Splendor: check an event, apply it, list legal moves.

* :func:`check` returns the violations of an event in a state (empty when legal);
* :func:`apply` is the effect of a checked event on the state, in place;
* :func:`due` and :func:`consistent` say what may be forced as played, and when the
  table it leaves holds together;
* :func:`legal_moves` lists every legal next decision.

Playing, forcing and folding are the same in every game: :class:`engine.contract.Game`
does them.

A turn (rulebook, "GAME RULES"): one action (take tokens, reserve, buy), the display
refilled at once, tokens returned down to 10, a noble's visit; each family of decisions
has its checks and effects in one module of :mod:`.rules`, and the tables below dispatch
an event to them by what the state awaits and the event's type.

>>> from engine.splendor.catalogue import CARDS_BY_LEVEL
>>> from engine.splendor.events import GameSetUp, TokensTaken
>>> display = tuple(ids[:4] for ids in CARDS_BY_LEVEL)
>>> from engine.splendor import GAME
>>> state = GAME.replay([GameSetUp(0, display, ("N-01", "N-02", "N-03"))], ["Ann", "Bob"])
>>> for v in check(state, TokensTaken((0, 0))):
...     print(v.code, "-", v)
>>> state.bank[0]
4
>>> GAME.play(state, TokensTaken((0, 0)))
>>> for v in check(state, TokensTaken((0, 0))):
...     print(v.code, "-", v)
take.two_from_fewer_than_four - 2 white taken from a pile of 2; two of one colour need at \
least 4 there (GAME RULES: Take 2 gem tokens of the same color)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..contract import Game
from ..errors import Violation
from .catalogue import CARDS, token_counts
from .events import Event
from .rules import cards, start, tokens, turn
from .rules.facts import not_set_up
from .rules.moves import action_possible, legal_moves, payments
from .state import ACTION, NOBLE, OVER, RETURN, REVEAL, SEATS, SETUP, State

__all__ = [
    "APPLIERS",
    "CHECKERS",
    "RULES",
    "SplendorRules",
    "action_possible",
    "apply",
    "check",
    "consistent",
    "due",
    "legal_moves",
    "payments",
]


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


def apply(state: State, event: Event) -> None:
    """The effect of an event already checked (or forced as played), in place."""
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


def due(state: State) -> Iterable[str]:
    """The event types that may happen now (what :func:`check` dispatches on): only an
    event of these can be forced as played."""
    return CHECKERS.get(state.awaiting, {}).keys()


class SplendorRules(Game):
    """Classic Splendor's rules as the fold plays them: its table, :func:`check`,
    :func:`apply`, what may be forced (:func:`due`, :func:`consistent`) and what the table
    observes; :class:`engine.contract.Game` adds ``play``, ``force``, ``fold`` and
    ``is_observation``.  The package's ``GAME`` (:class:`engine.splendor.Splendor`) is
    these rules with the notation and the presentation added; the notation, which ``GAME``
    reads and writes through, plays and folds with :data:`RULES`, below it."""

    kind = "splendor"
    title = "Splendor"
    seats = SEATS
    #: What the table observes rather than decides: the card turned face up to refill the
    #: display, a blind reserve shown (rulebook, "The development cards").
    observation_types = frozenset({"card_revealed", "card_identified"})

    def new_state(self, names: Sequence[str] | None = None) -> State:
        return State(self.seats.names(names))

    check = staticmethod(check)
    appliers = APPLIERS
    due = staticmethod(due)
    consistent = staticmethod(consistent)


#: The rules alone, for the notation (see :class:`SplendorRules`).
RULES = SplendorRules()
