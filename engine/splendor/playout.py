"""Classic Splendor's part of the analysis (:class:`engine.protocol.Playouts`): worlds
dealt from what a position has not revealed (:mod:`engine.decks`), and the default
policy of the playouts.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..decks import Decks, World, mover
from ..policy import policy_choice
from .catalogue import CARDS, GOLD, NOBLES
from .events import (
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    Event,
    NobleVisited,
    TokensReturned,
    TokensTaken,
)
from .game import APPLIERS, legal_moves
from .rules.moves import options, purchases
from .state import ACTION, REVEAL, State

#: The members of :class:`engine.protocol.Playouts` (and the world they play), some from
#: :mod:`engine.decks`.
__all__ = [
    "World",
    "advance",
    "choose",
    "deal",
    "decision",
    "decisions",
    "mover",
    "scores",
    "shares",
]

#: A playout still going after this many turns (every seat's counted) is called a draw.
TURN_LIMIT = 300
#: How often the policy plays a decision other than its best scored one.
EXPLORE = 0.15
_CARD_SCORE = {cid: 100.0 + 15 * card.points - 2 * card.level for cid, card in CARDS.items()}


_DECKS = Decks(APPLIERS, CardReserved, CardIdentified, CardRevealed, REVEAL)
deal = _DECKS.deal
advance = _DECKS.play
decision = _DECKS.decision


def decisions(world: World) -> list[Event]:
    return legal_moves(world.state)


def shares(world: World) -> tuple[float, ...] | None:
    s = world.state
    outcome = s.outcome
    if outcome is not None:
        won = 1.0 / len(outcome.winners)
        return tuple(won if seat in outcome.winners else 0.0 for seat in range(len(s.players)))
    if s.turn > TURN_LIMIT:
        return tuple(1.0 / len(s.players) for _ in s.players)
    return None


def _needs(s: State) -> list[int]:
    """Per gem colour, how many tokens the player to move lacks for the cards in reach
    (the display and their reserve), summed: what a take should bring."""
    p = s.player
    have = [p.bonuses[c] + p.tokens[c] for c in range(5)]
    need = [0] * 5
    ids = [cid for row in s.display for cid in row if cid is not None]
    ids += [cid for _, cid in p.reserved if cid is not None]
    for cid in ids:
        cost = CARDS[cid].cost
        for c in range(5):
            d = cost[c] - have[c]
            if d > 0:
                need[c] += d
    return need


def _noble_colours(s: State) -> list[int]:
    """Per gem colour, how many bonuses the nobles on the table still want of the player
    to move."""
    bonuses = s.player.bonuses
    want = [0] * 5
    for nid in s.nobles:
        for c, n in enumerate(NOBLES[nid].requires):
            if n > bonuses[c]:
                want[c] += 1
    return want


def scores(world: World, moves: Sequence[Event]) -> list[float]:
    """The default policy's liking of each decision: a purchase first (points, a colour
    a noble wants, cheap levels early), then a take of three gems the player lacks, a
    reserve with a Gold."""
    s = world.state
    need: list[int] | None = None
    want: list[int] | None = None
    out: list[float] = []
    for m in moves:
        if isinstance(m, CardPurchased):
            if want is None:
                want = _noble_colours(s)
            out.append(_CARD_SCORE[m.card] + 4 * want[CARDS[m.card].color] - 3 * m.payment[GOLD])
        elif isinstance(m, TokensTaken):
            if need is None:
                need = _needs(s)
            score = 20.0 + 8 * len(m.colors)
            for c in m.colors:
                if need[c]:
                    score += 3
            out.append(score)
        elif isinstance(m, CardReserved):
            gold = 6.0 if m.gold else 0.0
            if m.card is None:
                out.append(8.0 + gold)
            else:
                out.append(10.0 + gold + 4 * CARDS[m.card].points)
        elif isinstance(m, TokensReturned):
            out.append(10.0 - 6 * m.tokens[GOLD])
        elif isinstance(m, NobleVisited):
            out.append(10.0)
        else:
            out.append(0.0)
    return out


def choose(world: World) -> Event:
    """The default policy's decision (:func:`engine.policy.policy_choice`): mostly the
    best scored, now and then (:data:`EXPLORE`) any legal one.  A purchase outscores
    every other decision of a turn's action, so the others are listed only when there is
    none to make."""
    s = world.state
    likely = None
    if s.awaiting == ACTION:

        def likely() -> list[Event]:
            moves: list[Event] = []
            purchases(s, moves)
            return moves or options(s) or legal_moves(s)

    return policy_choice(
        world.rng, EXPLORE, lambda moves: scores(world, moves), lambda: legal_moves(s), likely
    )
