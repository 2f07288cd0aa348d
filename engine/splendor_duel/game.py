"""The rules of Splendor Duel: check an event, apply it, list legal moves.

* :func:`check` returns the violations of an event in a state (empty when legal);
* :func:`apply` is the effect of a checked event on the state, in place;
* :func:`due` and :func:`consistent` say what may be forced as played, and when the
  table it leaves holds together;
* :func:`legal_moves` lists every legal next decision (observations such as the tokens
  drawn from the bag or a revealed card are not enumerated: a replenish and a blind
  reserve come back as templates whose drawn tokens or card are unknown).

The turn (rulebook p.4-9): optional actions in order (spend Privileges, then replenish),
one mandatory action (take tokens, reserve with a Gold, or purchase), the abilities and
Royal cards it triggers, a discard down to 10 tokens, the victory check and, by the
publisher's ruling, the refill of the pyramid slot emptied during the turn.  Each family
of decisions has its checks and effects in one module of :mod:`.rules`; this module
dispatches an event to them by what the state awaits and the event's type.  Playing,
forcing and folding are the same in every game: :class:`engine.contract.Game` does them.

A table set up with the tokens in colour order along the spiral (the 3 Gold last, on
e3, e4 and e5):

>>> from engine.splendor_duel.catalogue import CARDS_BY_LEVEL, PYRAMID_SIZES, TOKEN_COUNTS
>>> from engine.splendor_duel.events import GameSetUp, event_from_dict
>>> board = tuple(c for c, n in enumerate(TOKEN_COUNTS) for _ in range(n))
>>> pyramid = tuple(ids[:n] for ids, n in zip(CARDS_BY_LEVEL, PYRAMID_SIZES))
>>> from engine.splendor_duel import GAME
>>> state = GAME.replay([GameSetUp(0, board, pyramid)])
>>> for v in check(state, event_from_dict({"type": "tokens_taken", "spaces": ["d3", "e3"]})):
...     print(v.code, "-", v)
take.gold - e3 holds a Gold token; Gold is only taken by reserving a card (p.5, Take up to 3 tokens)
>>> len(legal_moves(state))   # 121 takes; 3 Gold x (12 pyramid cards + 3 decks) reserves
166
>>> GAME.play(state, event_from_dict({"type": "tokens_taken", "spaces": ["b3", "c3", "d3"]}))
>>> state.players[0].tokens[:2], state.current   # 2 white, 1 blue; player 1's turn
([2, 1], 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..contract import Game
from ..errors import Violation
from .catalogue import CARDS, COLOR_LETTERS, PRIVILEGES, TOKEN_COUNTS
from .events import Event
from .rules import abilities, cards, start, take, turn
from .rules.cards import check_identify
from .rules.facts import not_set_up
from .rules.moves import legal_moves, payments
from .rules.start import check_setup
from .rules.turn import check_resign, game_over, mandatory_action_possible, out_of_order
from .state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    SEATS,
    SETUP,
    STEAL,
    State,
)

__all__ = [
    "APPLIERS",
    "CHECKERS",
    "RULES",
    "DuelRules",
    "apply",
    "check",
    "consistent",
    "describe_state",
    "due",
    "legal_moves",
    "mandatory_action_possible",
    "payments",
]


# --- dispatch --------------------------------------------------------------------------
#
# The tables hold the rule modules' functions themselves: the fold calls them with no
# layer in between.

_Checker = Callable[[State, Any], list[Violation]]
#: What the state awaits -> event type -> the check of an event of that type.
CHECKERS: dict[str, dict[str, _Checker]] = {
    ACTION: {
        "privilege_spent": take.check_privilege,
        "board_replenished": take.check_replenish,
        "tokens_taken": take.check_take,
        "card_reserved": cards.check_reserve,
        "card_purchased": cards.check_purchase,
    },
    COLOR: {"color_copied": abilities.check_color},
    BONUS_TOKEN: {"bonus_token_taken": abilities.check_bonus_token},
    STEAL: {"token_stolen": abilities.check_steal},
    ROYAL: {"royal_taken": turn.check_royal},
    DISCARD: {"tokens_discarded": turn.check_discard},
    REVEAL: {"card_revealed": cards.check_reveal},
    OVER: {},
}

#: Event type -> its effect on the state (the event already checked).
APPLIERS: dict[str, Callable[[State, Any], None]] = {
    "game_set_up": start.apply_setup,
    "privilege_spent": take.apply_privilege,
    "board_replenished": take.apply_replenish,
    "tokens_taken": take.apply_take,
    "card_reserved": cards.apply_reserve,
    "card_purchased": cards.apply_purchase,
    "color_copied": abilities.apply_color,
    "bonus_token_taken": abilities.apply_bonus_token,
    "token_stolen": abilities.apply_steal,
    "royal_taken": turn.apply_royal,
    "tokens_discarded": turn.apply_discard,
    "card_revealed": cards.apply_reveal,
    "card_identified": cards.apply_identify,
    "player_resigned": turn.apply_resign,
}


#: Events checked whatever the state awaits and whether or not the game is over (their
#: checks say why not themselves), and the setup, checked only before it.
_ANY_TIME: dict[str, _Checker] = {
    "player_resigned": check_resign,
    "card_identified": check_identify,
}
#: What the state awaits -> event type -> its check: CHECKERS with the events of any
#: time, so that the check of an event is found with one lookup (the fold asks for every
#: event).  A type missing here is refused by :func:`_refusal`.
_DISPATCH: dict[str, dict[str, _Checker]] = {
    SETUP: {"game_set_up": check_setup, **_ANY_TIME},
    **{aw: {**table, **_ANY_TIME} for aw, table in CHECKERS.items()},
}
_PAST_THE_END = frozenset({"game_set_up", *_ANY_TIME})


def check(state: State, event: Event) -> list[Violation]:
    """Every reason why ``event`` may not happen in ``state``; an empty list if it may."""
    t = event.type
    checker = _DISPATCH[state.awaiting].get(t)
    if checker is None:
        return _refusal(state, event)
    if state.outcome is not None and t not in _PAST_THE_END:
        return game_over(state)
    return checker(state, event)


def _refusal(state: State, event: Event) -> list[Violation]:
    """Why an event with no check at this point is refused: the table is not set up,
    the game is over, or another kind of event is due."""
    if state.awaiting == SETUP:
        return not_set_up()
    if state.outcome is not None:
        return game_over(state)
    return out_of_order(state, event)


# --- play, apply, replay ---------------------------------------------------------------


def apply(state: State, event: Event) -> None:
    """The effect of an event already checked (or forced as played), in place."""
    APPLIERS[event.type](state, event)


def describe_state(state: State) -> str:
    """A compact one-line summary, handy in error messages and the REPL."""
    if state.awaiting == SETUP:
        return "not set up"
    board = "".join(COLOR_LETTERS[t] if t >= 0 else "." for t in state.board)
    return f"turn {state.turn}, {state.names[state.current]} to {state.awaiting}, board {board}"


def consistent(state: State) -> bool:
    """No negative holdings, and every token, Privilege and card accounted for once."""
    for p in state.players:
        if min(p.tokens) < 0 or p.privileges < 0:
            return False
    if min(state.bag) < 0 or state.table_privileges < 0:
        return False
    if state.token_totals() != list(TOKEN_COUNTS):
        return False
    held = state.players[0].privileges + state.players[1].privileges
    if state.table_privileges + held != PRIVILEGES:
        return False
    seen: list[str] = []
    for level, row in enumerate(state.pyramid, start=1):
        for cid in row:
            if cid is not None:
                if CARDS[cid].level != level:
                    return False
                seen.append(cid)
    for p in state.players:
        seen.extend(cid for cid, _ in p.cards)
        seen.extend(cid for _, cid in p.reserved if cid is not None)
    seen_set = set(seen)
    if len(seen_set) != len(seen):
        return False
    for level in (1, 2, 3):
        unseen = state.unseen[level - 1]
        if unseen & seen_set or len(unseen) != state.decks[level - 1] + state.hidden_reserved(
            level
        ):
            return False
    return state.card_locations() == len(CARDS)


def due(state: State) -> Iterable[str]:
    """The event types that may happen now (what :func:`check` dispatches on): only an
    event of these can be forced as played."""
    return CHECKERS.get(state.awaiting, {}).keys()


class DuelRules(Game):
    """Splendor Duel's rules as the fold plays them: its table, :func:`check`,
    :func:`apply`, what may be forced (:func:`due`, :func:`consistent`) and what the table
    observes; :class:`engine.contract.Game` adds ``play``, ``force``, ``fold`` and
    ``is_observation``.  The package's ``GAME`` (:class:`engine.splendor_duel.SplendorDuel`)
    is these rules with the notation and the presentation added; the notation, which
    ``GAME`` reads and writes through, plays and folds with :data:`RULES`, below it."""

    kind = "splendor-duel"
    title = "Splendor Duel"
    seats = SEATS
    #: What the table observes rather than decides: the card turned into the pyramid, a blind
    #: reserve shown (rulebook p.6: the pyramid is refilled; a reserved card stays hidden).
    observation_types = frozenset({"card_revealed", "card_identified"})

    def new_state(self, names: Sequence[str] | None = None) -> State:
        return State(self.seats.names(names, 2))

    # The rules' hot calls are the rule modules' own functions, bound here without a
    # wrapper: the fold calls them for every event of every game.
    check = staticmethod(check)
    appliers = APPLIERS
    due = staticmethod(due)
    consistent = staticmethod(consistent)


#: The rules alone, for the notation (see :class:`DuelRules`).
RULES = DuelRules()
