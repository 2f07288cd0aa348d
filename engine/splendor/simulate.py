"""Seeded random games: the table's chance (the shuffled decks, the nobles, the first
player) and the players' choices both come from the ``random.Random`` the caller passes
in, so a seed always gives the same game.  The simulator keeps the shuffled decks: the
cards revealed to refill the display and a blind reserve's card come from them, exactly
as a logger at a real table would have entered them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .catalogue import CARDS, CARDS_BY_LEVEL, DISPLAY_SIZE, NOBLE_IDS, nobles_revealed
from .events import (
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    Event,
    GameSetUp,
    TokensTaken,
)
from .game import APPLIERS, legal_moves
from .state import ACTION, REVEAL, State


class SimulatedTable:
    """The hidden side of a simulated game: the shuffled decks and the blind reserves."""

    def __init__(self, rng: random.Random, players: int):
        self.rng = rng
        self.players = players
        self.decks = [list(ids) for ids in CARDS_BY_LEVEL]
        for deck in self.decks:
            rng.shuffle(deck)
        #: Cards each player reserved blind without the log saying which (seat -> ids).
        self.hidden: list[list[str]] = [[] for _ in range(players)]

    def setup(self) -> GameSetUp:
        display = tuple(
            tuple(self.decks[level].pop() for _ in range(DISPLAY_SIZE)) for level in range(3)
        )
        nobles = tuple(self.rng.sample(NOBLE_IDS, nobles_revealed(self.players)))
        first = self.rng.randrange(self.players)
        return GameSetUp(first, display, nobles)  # type: ignore[arg-type]

    def observe(self, state: State, move: Event, blind_known: float) -> Event:
        """The event a logger enters for a decision chosen from ``legal_moves``: a blind
        reserve gets the top card of its deck (logged with a chance of ``blind_known``,
        otherwise kept hidden until shown)."""
        if isinstance(move, CardReserved) and move.deck is not None:
            card = self.decks[move.deck - 1].pop()
            if self.rng.random() < blind_known:
                return CardReserved(move.gold, card, move.deck)
            self.hidden[state.current].append(card)
        return move


def random_game(
    rng: random.Random,
    names: Sequence[str] | None = None,
    *,
    players: int | None = None,
    max_turns: int = 400,
    purchase_bias: float = 0.85,
    blind_known: float = 0.5,
) -> list[Event]:
    """Play one game with random legal decisions; returns its events.

    ``names`` name the seats (their number is the number of players; ``players`` alone
    gives default names; 2 by default).  ``purchase_bias`` is the chance of buying a card
    whenever one can be bought (random play without it rarely finishes); ``blind_known``
    the chance that a blind reserve is logged with its card.  A game still running after
    ``max_turns`` turns is returned unfinished.
    """
    if names is None and players is not None:
        names = [f"Player {i + 1}" for i in range(players)]
    state = State(names)
    table = SimulatedTable(rng, len(state.players))
    events: list[Event] = []

    def push(event: Event) -> None:
        events.append(event)
        APPLIERS[event.type](state, event)

    push(table.setup())
    while state.outcome is None and state.turn <= max_turns:
        if state.awaiting == REVEAL:
            assert state.refill is not None
            push(CardRevealed(table.decks[state.refill[0]].pop()))
            continue
        hidden = table.hidden[state.current]
        if state.awaiting == ACTION and hidden and rng.random() < 0.3:
            push(CardIdentified(state.current, hidden.pop()))
            continue
        moves = legal_moves(state)
        if not moves:
            # Only a blind reserve could be bought: the logger shows it first.
            push(CardIdentified(state.current, hidden.pop()))
            continue
        if state.awaiting == ACTION:
            buys = [m for m in moves if isinstance(m, CardPurchased)]
            if buys and rng.random() < purchase_bias:
                best = max(_points(m) for m in buys)
                moves = [m for m in buys if _points(m) == best]
            elif rng.random() < 0.8:
                takes: list[Event] = [m for m in moves if isinstance(m, TokensTaken)]
                moves = takes or moves
        push(table.observe(state, rng.choice(moves), blind_known))
    return events


def _points(move: CardPurchased) -> int:
    return CARDS[move.card].points


__all__ = ["SimulatedTable", "random_game"]
