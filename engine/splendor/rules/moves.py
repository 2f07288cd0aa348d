"""Every legal next decision, built from the same facts the checks use.

Observations are enumerated too where the state knows them (every card the deck may
reveal); a blind reserve comes back as a template whose card is unknown.  Purchases of a
blind reserve wait until the card is shown.  The hot lists (takes, reserves) are built
once and picked from.
"""

from __future__ import annotations

from itertools import combinations, product

from ..catalogue import CARDS, COST_ITEMS, GOLD, MAX_RESERVED, MAX_TOKENS, TWO_OF_A_COLOR_MINIMUM
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
from .facts import qualifying_nobles

#: By the set of colours left in the bank (a 5-bit mask), the takes of 3 different gems;
#: by the set of colours with at least 4 left, the takes of 2 of one colour.
_THREES: tuple[tuple[Event, ...], ...] = tuple(
    tuple(
        TokensTaken(combo)
        for combo in combinations(range(5), 3)
        if all(mask >> c & 1 for c in combo)
    )
    for mask in range(32)
)
_TWOS: tuple[tuple[Event, ...], ...] = tuple(
    tuple(TokensTaken((c, c)) for c in range(5) if mask >> c & 1) for mask in range(32)
)
#: The reserves of each card, with a Gold (index 1) and without (index 0).
_RESERVE = (
    {cid: CardReserved(False, cid) for cid in CARDS},
    {cid: CardReserved(True, cid) for cid in CARDS},
)
_BLIND = (
    tuple(CardReserved(False, None, d) for d in (1, 2, 3)),
    tuple(CardReserved(True, None, d) for d in (1, 2, 3)),
)
_PASS = TurnPassed()
#: Purchases already built, by card and payment: events are frozen, so they are shared
#: (building a frozen dataclass costs more than the rest of a legal-move call).
_PURCHASES: dict[tuple[str, Counts], CardPurchased] = {}


def payments(cost: tuple[int, ...], bonuses: list[int], tokens: list[int]) -> list[Counts]:
    """Every exact payment of ``cost`` with these bonuses and tokens (Gold for any colour)."""
    gold = tokens[GOLD]
    owed = [0, 0, 0, 0, 0]
    colours = []
    short = 0
    for c in range(5):
        n = cost[c] - bonuses[c]
        if n > 0:
            owed[c] = n
            colours.append(c)
            if n > tokens[c]:
                short += n - tokens[c]
    if short > gold:
        return []
    if gold == 0 or not colours:
        return [(owed[0], owed[1], owed[2], owed[3], owed[4], 0)]
    total = sum(owed)
    ranges = [range(max(0, owed[c] - gold), min(owed[c], tokens[c]) + 1) for c in colours]
    out: list[Counts] = []
    pay = [0, 0, 0, 0, 0, 0]
    for choice in product(*ranges):
        g = total - sum(choice)
        if g <= gold:
            for c, n in zip(colours, choice, strict=True):
                pay[c] = n
            pay[GOLD] = g
            out.append(tuple(pay))  # type: ignore[arg-type]
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


def purchases(state: State, out: list[Event]) -> None:
    """Every exact payment of every face-up or reserved (shown) card the player affords."""
    p = state.player
    bonuses, tokens = p.bonuses, p.tokens
    power = [bonuses[c] + tokens[c] for c in range(5)]
    gold = tokens[GOLD]
    ids = [cid for row in state.display for cid in row if cid is not None]
    ids += [cid for _, cid in p.reserved if cid is not None]
    for cid in ids:
        short = 0
        for c, n in COST_ITEMS[cid]:
            d = n - power[c]
            if d > 0:
                short += d
        if short <= gold:
            for pay in payments(CARDS[cid].cost, bonuses, tokens):
                key = (cid, pay)
                event = _PURCHASES.get(key)
                if event is None:
                    if len(_PURCHASES) > 200_000:  # a bound, never reached in real games
                        _PURCHASES.clear()
                    event = _PURCHASES[key] = CardPurchased(cid, pay)
                out.append(event)


def _actions(state: State) -> list[Event]:
    out = options(state)
    purchases(state, out)
    if not out and not action_possible(state):
        out.append(_PASS)
    return out


def options(state: State) -> list[Event]:
    """The takes and reserves of a turn's action, in :func:`_actions`'s order (the
    playouts' policy, which buys when it can, lists them only when not)."""
    bank = state.bank
    left = (bank[0] > 0) | (bank[1] > 0) << 1 | (bank[2] > 0) << 2 | (bank[3] > 0) << 3
    left |= (bank[4] > 0) << 4
    m = TWO_OF_A_COLOR_MINIMUM
    pairs = (bank[0] >= m) | (bank[1] >= m) << 1 | (bank[2] >= m) << 2 | (bank[3] >= m) << 3
    pairs |= (bank[4] >= m) << 4
    out: list[Event] = [*_THREES[left], *_TWOS[pairs]]
    if len(state.player.reserved) < MAX_RESERVED:
        reserve = _RESERVE[bank[GOLD] > 0]
        out += [reserve[cid] for row in state.display for cid in row if cid is not None]
        blind = _BLIND[bank[GOLD] > 0]
        decks = state.decks
        out += [blind[d] for d in range(3) if decks[d]]
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
