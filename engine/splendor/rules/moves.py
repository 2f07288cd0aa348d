"""Every legal next decision, built from the same facts the checks use.

Observations are enumerated too where the state knows them (every card the deck may
reveal); a blind reserve comes back as a template whose card is unknown.  Purchases of a
blind reserve wait until the card is shown.  The hot lists (takes, reserves) are built
once and picked from.
"""

from __future__ import annotations

from itertools import combinations, product

from ..catalogue import CARDS, GOLD, MAX_RESERVED, MAX_TOKENS, TWO_OF_A_COLOR_MINIMUM
from ..events import (
    CardPurchased,
    CardReserved,
    CardRevealed,
    Counts,
    Event,
    NobleVisited,
    TokensReturned,
    TokensTaken,
    TurnPassed,
)
from ..state import ACTION, NOBLE, RETURN, REVEAL, State
from .turn import qualifying_nobles

_THREES = tuple((combo, TokensTaken(combo)) for combo in combinations(range(5), 3))
_TWOS = tuple((c, TokensTaken((c, c))) for c in range(5))
_RESERVE = {(cid, gold): CardReserved(gold, cid) for cid in CARDS for gold in (True, False)}
_BLIND = {(d, gold): CardReserved(gold, None, d) for d in (1, 2, 3) for gold in (True, False)}
_PASS = TurnPassed()


def payments(cost: tuple[int, ...], bonuses: list[int], tokens: list[int]) -> list[Counts]:
    """Every exact payment of ``cost`` with these bonuses and tokens (Gold for any colour)."""
    owed = [max(0, cost[c] - bonuses[c]) for c in range(5)]
    gold = tokens[GOLD]
    short = sum(max(0, owed[c] - tokens[c]) for c in range(5))
    if short > gold:
        return []
    if gold == 0 or not any(owed):
        return [(*owed, 0)]  # type: ignore[list-item]
    ranges = [range(max(0, owed[c] - gold), min(owed[c], tokens[c]) + 1) for c in range(5)]
    total = sum(owed)
    out: list[Counts] = []
    for pay in product(*ranges):
        g = total - sum(pay)
        if g <= gold:
            out.append((*pay, g))  # type: ignore[arg-type]
    return out


def _affordable(cost: tuple[int, ...], bonuses: list[int], tokens: list[int]) -> bool:
    short = 0
    for c in range(5):
        d = cost[c] - bonuses[c] - tokens[c]
        if d > 0:
            short += d
    return short <= tokens[GOLD]


def action_possible(state: State) -> bool:
    """Whether any of the four actions can be taken (a turn passes only when none can)."""
    bank = state.bank
    if sum(1 for c in range(5) if bank[c]) >= 3:
        return True
    if any(bank[c] >= TWO_OF_A_COLOR_MINIMUM for c in range(5)):
        return True
    p = state.player
    if len(p.reserved) < MAX_RESERVED and (
        any(state.decks) or any(c is not None for row in state.display for c in row)
    ):
        return True
    for row in state.display:
        for cid in row:
            if cid is not None and _affordable(CARDS[cid].cost, p.bonuses, p.tokens):
                return True
    for level, cid in p.reserved:
        ids = [cid] if cid is not None else sorted(state.unseen[level - 1])
        if any(_affordable(CARDS[i].cost, p.bonuses, p.tokens) for i in ids):
            return True
    return False


def _actions(state: State) -> list[Event]:
    bank = state.bank
    out: list[Event] = [
        e for combo, e in _THREES if bank[combo[0]] and bank[combo[1]] and bank[combo[2]]
    ]
    out += [e for c, e in _TWOS if bank[c] >= TWO_OF_A_COLOR_MINIMUM]
    p = state.player
    if len(p.reserved) < MAX_RESERVED:
        gold = bank[GOLD] > 0
        for row in state.display:
            for cid in row:
                if cid is not None:
                    out.append(_RESERVE[cid, gold])
        for d in range(3):
            if state.decks[d]:
                out.append(_BLIND[d + 1, gold])
    bonuses, tokens = p.bonuses, p.tokens
    for row in state.display:
        for cid in row:
            if cid is not None:
                cost = CARDS[cid].cost
                if _affordable(cost, bonuses, tokens):
                    out += [CardPurchased(cid, pay) for pay in payments(cost, bonuses, tokens)]
    for _, cid in p.reserved:
        if cid is not None:
            cost = CARDS[cid].cost
            if _affordable(cost, bonuses, tokens):
                out += [CardPurchased(cid, pay) for pay in payments(cost, bonuses, tokens)]
    if not out and not action_possible(state):
        out.append(_PASS)
    return out


def _returns(state: State) -> list[Event]:
    tokens = state.player.tokens
    excess = sum(tokens) - MAX_TOKENS
    pool = [c for c in range(6) for _ in range(min(tokens[c], excess))]
    seen = set()
    out: list[Event] = []
    for combo in combinations(pool, excess):
        if combo in seen:
            continue
        seen.add(combo)
        counts = [0] * 6
        for c in combo:
            counts[c] += 1
        out.append(TokensReturned(tuple(counts)))  # type: ignore[arg-type]
    return out


def legal_moves(state: State) -> list[Event]:
    """Every legal next decision (and every card a due reveal may show)."""
    aw = state.awaiting
    if aw == ACTION:
        return _actions(state)
    if aw == REVEAL:
        assert state.refill is not None
        return [CardRevealed(cid) for cid in sorted(state.unseen[state.refill[0]])]
    if aw == RETURN:
        return _returns(state)
    if aw == NOBLE:
        return [NobleVisited(n) for n in qualifying_nobles(state)]
    return []
