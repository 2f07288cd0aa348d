"""Splendor Duel's part of the analysis (:class:`engine.protocol.Playouts`): worlds dealt
from what a position has not revealed (the cards: :mod:`engine.decks`; the tokens a
replenish draws are the bag's, in an order drawn when it happens), and the default
policy of the playouts.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..decks import Decks, World, mover
from ..policy import policy_choice
from .catalogue import CARDS, GOLD, PEARL, ROYALS
from .events import (
    BoardReplenished,
    BonusTokenTaken,
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ColorCopied,
    Event,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
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

#: A playout still going after this many turns is called a draw (the policy buys
#: whatever it can, so real playouts end long before).
TURN_LIMIT = 200
#: How often the policy plays a decision other than its best scored one.
EXPLORE = 0.15
#: The share of each seat in a drawn playout, and a win.
_DRAW = (0.5, 0.5)
_WINS = ((1.0, 0.0), (0.0, 1.0))
_REPLENISH = BoardReplenished(None)
_COSTS = {cid: card.cost for cid, card in CARDS.items()}
_CARD_SCORE = {
    cid: 100.0
    + 12 * card.points
    + 8 * card.crowns
    + 4 * card.bonus
    + (8 if "again" in card.abilities else 0)
    + (3 if "steal" in card.abilities or "privilege" in card.abilities else 0)
    for cid, card in CARDS.items()
}


_DECKS = Decks(APPLIERS, CardReserved, CardIdentified, CardRevealed, REVEAL)
deal = _DECKS.deal


def decisions(world: World) -> list[Event]:
    return legal_moves(world.state)


def advance(world: World, decision: Event) -> None:
    """Play ``decision`` (:meth:`engine.decks.Decks.play`), a replenish drawing the bag
    in a shuffled order."""
    if isinstance(decision, BoardReplenished) and decision.tokens is None:
        tokens = [c for c, n in enumerate(world.state.bag) for _ in range(n)]
        world.rng.shuffle(tokens)
        decision = BoardReplenished(tuple(tokens))
    _DECKS.play(world, decision)


def shares(world: World) -> tuple[float, ...] | None:
    s = world.state
    if s.outcome is not None:
        return _WINS[s.outcome.winner]
    if s.turn > TURN_LIMIT:
        return _DRAW
    return None


def _space_values(s: State) -> list[int]:
    """What each board space adds to a take: 3 for a colour the player to move lacks for
    the cards in reach (the pyramid and their reserve), 2 more for a Pearl."""
    p = s.player
    tokens = p.tokens
    bonuses = p.bonuses
    have = [bonuses[0] + tokens[0], bonuses[1] + tokens[1], bonuses[2] + tokens[2]]
    have += [bonuses[3] + tokens[3], bonuses[4] + tokens[4], tokens[PEARL]]
    costs = [_COSTS[cid] for row in s.pyramid for cid in row if cid is not None]
    costs += [_COSTS[cid] for _, cid in p.reserved if cid is not None]
    # a colour is lacking when some card in reach costs more of it than the player has
    columns = zip(*costs, strict=True)
    lacking = [max(col) > h for col, h in zip(columns, have, strict=True)] if costs else [False] * 6
    lacking.append(False)  # Gold is never taken
    return [(3 if lacking[t] else 0) + (2 if t == PEARL else 0) if t >= 0 else 0 for t in s.board]


def scores(world: World, moves: Sequence[Event]) -> list[float]:
    """The default policy's liking of each decision: a purchase first (points, crowns, an
    extra turn; never below 91, above anything else), a Privilege spent, then a take of
    three tokens the player lacks (a Pearl most), a reserve with a Gold; a replenish last."""
    s = world.state
    p = s.player
    board = s.board
    values: list[int] | None = None
    out: list[float] = []
    for m in moves:
        if isinstance(m, TokensTaken):
            if values is None:
                values = _space_values(s)
            score = 20.0
            for space in m.spaces:
                score += 10 + values[space]
            out.append(score)
        elif isinstance(m, CardPurchased):
            out.append(_CARD_SCORE[m.card] - 3 * m.payment[GOLD])
        elif isinstance(m, PrivilegeSpent):
            out.append(60.0 + (3 if board[m.space] == PEARL else 0))
        elif isinstance(m, CardReserved):
            if m.card is None:
                out.append(22.0)
            else:
                card = CARDS[m.card]
                out.append(20.0 + 6 * card.points + 4 * card.crowns)
        elif isinstance(m, BoardReplenished):
            out.append(1.0)
        elif isinstance(m, RoyalTaken):
            out.append(10.0 + 3 * ROYALS[m.royal].points)
        elif isinstance(m, TokenStolen):
            out.append(10.0 + (10 if m.color == GOLD else 6 if m.color == PEARL else 0))
        elif isinstance(m, ColorCopied):
            out.append(10.0 + 2 * p.color_points[m.color])
        elif isinstance(m, TokensDiscarded):
            out.append(10.0 - 5 * m.tokens[GOLD] - 3 * m.tokens[PEARL])
        elif isinstance(m, BonusTokenTaken):
            out.append(10.0 + (3 if board[m.space] == PEARL else 0))
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
            return moves or options(s)

    return policy_choice(
        world.rng, EXPLORE, lambda moves: scores(world, moves), lambda: legal_moves(s), likely
    )


def decision(event: Event) -> Event:
    """A blind reserve as a decision names no card; a replenish no tokens."""
    if isinstance(event, BoardReplenished):
        return _REPLENISH
    return _DECKS.decision(event)  # type: ignore[no-any-return]
