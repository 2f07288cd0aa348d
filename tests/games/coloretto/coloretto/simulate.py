"""Seeded random games: the table's chance (the colours removed, the start cards, who
starts, the shuffled supply with the last-round card 15 from the bottom) and the players'
choices both come from the ``random.Random`` the caller passes in, so a seed always gives
the same game.  The simulator keeps the supply's order: the cards revealed come from it,
exactly as a logger at a real table would have entered them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import BOX, COLOURS, LAST, UNDER_LAST, removed_count, start_count
from .events import CardRevealed, Event, GameSetUp, RowTaken
from .rules import APPLIERS, legal_moves
from .scoring import best
from .state import HELD, REVEAL, State


def deal_setup(rng: random.Random, players: int) -> GameSetUp:
    """The setup a shuffled box gives: colours removed, start cards, who starts."""
    colours = list(range(len(COLOURS)))
    removed = tuple(sorted(rng.sample(colours, removed_count(players))))
    left = [c for c in colours if c not in removed]
    each = start_count(players)
    starts = rng.sample(left, each * players)
    start = tuple(tuple(starts[s * each : (s + 1) * each]) for s in range(players))
    return GameSetUp(rng.randrange(players), removed, start)


def supply_order(unseen: Sequence[int], rng: random.Random, last_in: bool) -> list[int]:
    """The supply shuffled from the ``unseen`` counts, the next card last (a stack's
    top); with ``last_in``, the last-round card 15 cards from the bottom (or at the top,
    if fewer than 15 lie in it, which a legal game never has)."""
    cards = [k for k in range(HELD) for _ in range(unseen[k])]
    rng.shuffle(cards)
    if last_in:
        cards.insert(min(UNDER_LAST, len(cards)), LAST)
    return cards


def random_game(
    rng: random.Random,
    names: Sequence[str] | None = None,
    *,
    players: int | None = None,
    take_bias: float = 0.6,
) -> list[Event]:
    """Play one game with random legal decisions; returns its events.

    ``names`` name the seats (their number is the number of players; ``players`` alone
    gives default names; 2 by default).  ``take_bias``: the chance of taking the row
    that adds most to the player's score once it adds at least 2 points (random play
    alone takes rows too early or too late to look like a game)."""
    if names is None and players is not None:
        names = [f"Player {i + 1}" for i in range(players)]
    state = State(names)
    n = len(state.names)
    events: list[Event] = []

    def push(event: Event) -> None:
        events.append(event)
        APPLIERS[event.type](state, event)

    push(deal_setup(rng, n))
    assert sum(BOX) > 0
    supply = supply_order(state.unseen, rng, True)
    while state.outcome is None:
        if state.awaiting == REVEAL:
            push(CardRevealed(supply.pop()))
            continue
        moves = legal_moves(state)
        takes = [m for m in moves if isinstance(m, RowTaken)]
        if takes and rng.random() < take_bias:
            top = max(takes, key=lambda m: gain(state, m))
            if gain(state, top) >= 2 or len(takes) == len(moves):
                push(top)
                continue
        push(rng.choice(moves))
    return events


def gain(state: State, take: RowTaken) -> int:
    """What taking a row adds to the score of the player to move."""
    hand = state.hands[state.current]
    after = hand[:]
    for k in state.rows[take.row]:
        after[k] += 1
    return best(after, state.colours).total - best(hand, state.colours).total


__all__ = ["deal_setup", "gain", "random_game", "supply_order"]
