"""Coloretto's part of the analysis (:class:`engine.protocol.Playouts`): worlds dealt
from what a position has not revealed, and the default policy of the playouts.

A position knows how many cards the supply holds and which (the unseen cards: the game's
cards in play that nobody has seen), never their order, and whether the last-round card
is still in it.  A world shuffles the unseen cards and, while the last-round card is in
the supply, lays it with 15 cards under it, where the table laid it; a draw due is then
made from that order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.policy import policy_choice

from .events import CardDrawn, CardPlaced, CardRevealed, Event, RowTaken
from .rules import APPLIERS, legal_moves
from .scoring import best
from .simulate import supply_order
from .state import REVEAL, State

#: How often the policy plays a decision other than its best scored one.
EXPLORE = 0.15


class World:
    """A Coloretto position with its hidden side guessed: the supply's order, the next
    card last."""

    __slots__ = ("state", "supply", "rng")

    def __init__(self, state: State, supply: list[int], rng: random.Random) -> None:
        self.state = state
        self.supply = supply
        self.rng = rng


def deal(state: State, rng: random.Random) -> World:
    """A world of ``state``: the unseen cards shuffled, the last-round card among them
    while it has not been drawn; a draw due is then made."""
    s = state.copy()
    world = World(s, supply_order(s.unseen, rng, not s.last_drawn), rng)
    _settle(world)
    return world


def _settle(world: World) -> None:
    """Make the observations due: the card drawn (the last-round card, then another)."""
    s = world.state
    while s.awaiting == REVEAL and s.outcome is None and world.supply:
        APPLIERS["card_revealed"](s, CardRevealed(world.supply.pop()))


def decisions(world: World) -> list[Event]:
    return legal_moves(world.state)


def mover(world: World) -> int:
    return world.state.current


def advance(world: World, decision: Event) -> None:
    """Play ``decision``; a draw then shows the supply's next card(s)."""
    APPLIERS[decision.type](world.state, decision)
    _settle(world)


def shares(world: World) -> tuple[float, ...] | None:
    s = world.state
    outcome = s.outcome
    if outcome is None:
        return None
    won = 1.0 / len(outcome.winners)
    return tuple(won if seat in outcome.winners else 0.0 for seat in range(len(s.names)))


def _gain(s: State, cards: Sequence[int]) -> int:
    """What ``cards`` add to the score of the player to move."""
    hand = s.hands[s.current]
    after = hand[:]
    for k in cards:
        after[k] += 1
    return best(after, s.colours).total - best(hand, s.colours).total


def scores(world: World, moves: Sequence[Event]) -> list[float]:
    """The default policy's liking of each decision: a row taken by what it adds to the
    player's score; a draw as worth a row of about 2 points; a card placed on the row
    where it adds most to the player (who may take that row later)."""
    s = world.state
    out: list[float] = []
    for m in moves:
        if isinstance(m, RowTaken):
            out.append(10.0 + 3 * _gain(s, s.rows[m.row]))
        elif isinstance(m, CardDrawn):
            out.append(16.0)
        elif isinstance(m, CardPlaced) and s.drawn is not None:
            row = s.rows[m.row]
            out.append(10.0 + _gain(s, [*row, s.drawn]) - _gain(s, row))
        else:
            out.append(0.0)
    return out


def choose(world: World) -> Event:
    """Mostly the best scored decision (a tie drawn at random), now and then any
    (:func:`engine.policy.policy_choice`)."""
    return policy_choice(
        world.rng, EXPLORE, lambda moves: scores(world, moves), lambda: decisions(world)
    )


def decision(event: Event) -> Event:
    """A recorded decision is the decision itself (a draw names no card)."""
    return event
