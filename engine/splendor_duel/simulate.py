"""Seeded random games: the table's chance (shuffles, draws) and the players' choices both
come from a ``random.Random`` the caller passes in, so a seed always gives the same game.

Used by property tests, benchmarks and the sample data; the events it returns are exactly
what a logger at a real table would have entered.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .catalogue import CARDS_BY_LEVEL, PYRAMID_SIZES, TOKEN_COUNTS
from .events import (
    BoardReplenished,
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    Event,
    GameSetUp,
    PlayerResigned,
)
from .game import APPLIERS, legal_moves
from .state import ACTION, REVEAL, State

#: The reveal of each card, built once (events are frozen): a game reveals dozens.
_REVEALS = {cid: CardRevealed(cid) for ids in CARDS_BY_LEVEL for cid in ids}


class SimulatedTable:
    """The hidden side of a simulated game: the shuffled decks and the bag's contents."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.decks = [list(ids) for ids in CARDS_BY_LEVEL]
        for deck in self.decks:
            rng.shuffle(deck)
        #: Cards each player reserved blind without the log saying which (player -> ids).
        self.hidden: list[list[str]] = [[], []]

    def setup(self) -> GameSetUp:
        tokens = [c for c, n in enumerate(TOKEN_COUNTS) for _ in range(n)]
        self.rng.shuffle(tokens)
        pyramid = tuple(
            tuple(self.decks[level].pop() for _ in range(PYRAMID_SIZES[level]))
            for level in range(3)
        )
        first = self.rng.randrange(2)
        return GameSetUp(first, tuple(tokens), pyramid, (0, 1) if first == 0 else (1, 0))  # type: ignore[arg-type]

    def draw(self, bag: list[int]) -> BoardReplenished:
        tokens = [c for c, n in enumerate(bag) for _ in range(n)]
        self.rng.shuffle(tokens)
        return BoardReplenished(tuple(tokens))

    def observe(self, state: State, move: Event, blind_known: float) -> Event:
        """The event a logger enters for a decision chosen from ``legal_moves``: a
        replenish gets the tokens drawn, a blind reserve the top card of its deck (logged
        with a chance of ``blind_known``, otherwise kept hidden until identified), and a
        purchase from a hidden reserve stops being hidden."""
        hidden = self.hidden[state.current]
        if isinstance(move, BoardReplenished):
            return self.draw(state.bag)
        if isinstance(move, CardReserved) and move.deck is not None:
            card = self.decks[move.deck - 1].pop()
            if self.rng.random() < blind_known:
                return CardReserved(move.gold, card, move.deck)
            hidden.append(card)
        elif isinstance(move, CardPurchased) and move.card in hidden:
            hidden.remove(move.card)
        return move

    def rules_out(self, state: State, move: Event) -> bool:
        """True for a purchase of a card a blind reserve could be but is not:
        legal_moves offers every identity a hidden card could have; the table knows which."""
        if not isinstance(move, CardPurchased):
            return False
        cid = move.card
        pyramid = state.pyramid
        if cid in pyramid[0] or cid in pyramid[1] or cid in pyramid[2]:
            return False
        if any(c == cid for _, c in state.player.reserved):
            return False
        return cid not in self.hidden[state.current]


def _purchases(moves: list[Event]) -> list[Event]:
    """The purchases among ``moves``.  legal_moves lists them last (see
    ``rules.moves._action_moves``), so they are the run of purchases at the end: found
    without testing every move, which took a tenth of a random playout."""
    k = len(moves)
    while k and isinstance(moves[k - 1], CardPurchased):
        k -= 1
    return moves[k:]


def random_game(
    rng: random.Random,
    names: Sequence[str] | None = None,
    *,
    max_turns: int = 400,
    purchase_bias: float = 0.8,
    blind_known: float = 0.5,
) -> list[Event]:
    """Play one complete game with random legal decisions; returns its events.

    ``purchase_bias`` is the chance of buying a card whenever one can be bought (random
    play without it rarely finishes); ``blind_known`` the chance that a blind reserve is
    logged with its card (otherwise it stays unknown until bought or identified).
    A game still running after ``max_turns`` turns ends with a resignation.  ``names``
    name the seats of the state it plays on (``Player 1``, ``Player 2`` by default).
    """
    table = SimulatedTable(rng)
    state = State(names)
    events: list[Event] = []

    def push(event: Event) -> None:
        events.append(event)
        APPLIERS[event.type](state, event)

    push(table.setup())
    while state.outcome is None:
        if state.turn > max_turns:
            push(PlayerResigned(state.current))
            break
        if state.awaiting == REVEAL:
            assert state.refill is not None
            push(_REVEALS[table.decks[state.refill[0]].pop()])
            continue
        hidden = table.hidden[state.current]
        if state.awaiting == ACTION and hidden and rng.random() < 0.05:
            push(CardIdentified(state.current, hidden.pop()))
            continue
        moves = legal_moves(state)
        buys = _purchases(moves)
        if hidden:  # only a purchase can be ruled out
            kept = [m for m in buys if not table.rules_out(state, m)]
            moves = moves[: len(moves) - len(buys)] + kept
            buys = kept
            if not moves:
                # Only purchases of what a blind reserve might be were offered, and the
                # card really there is not affordable: the logger identifies it first.
                push(CardIdentified(state.current, hidden.pop()))
                continue
        move = rng.choice(buys) if buys and rng.random() < purchase_bias else rng.choice(moves)
        push(table.observe(state, move, blind_known))
    return events


__all__ = ["SimulatedTable", "random_game", "CardReserved"]
