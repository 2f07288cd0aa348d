"""Every legal next decision of the player to move, and every way to pay for a card.

legal_moves is most of the cost of a random playout, so its moves are prebuilt once and
shared between calls (events are frozen), and the per-colour arithmetic runs on locals.
Observations (the tokens drawn from the bag, a revealed card) are not enumerated: a
replenish and a blind reserve come back as templates whose drawn tokens or card are
unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ..catalogue import CARDS, GOLD, MAX_RESERVED, MAX_TOKENS, ROYALS, TOTAL_TOKENS
from ..events import (
    BoardReplenished,
    BonusTokenTaken,
    CardPurchased,
    CardReserved,
    ColorCopied,
    Counts,
    Event,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
)
from ..state import ACTION, BONUS_TOKEN, COLOR, DISCARD, ROYAL, STEAL, PlayerState, State
from .facts import cost_after_bonuses, shortfall


def _lines_from(space: int) -> tuple[tuple[int, TokensTaken, int, TokensTaken | None], ...]:
    """The straight lines of 2 and 3 spaces whose first (lowest) space is ``space``:
    (bit of the 2nd space, the 2-token take, bit of the 3rd space or 0, the 3-token take
    or None).  Ordered by the 2nd space (right, down-left, down, down-right), so that
    walking them space by space lists the takes in the order of ``SEGMENTS``."""
    row, col = divmod(space, 5)
    lines: list[tuple[int, TokensTaken, int, TokensTaken | None]] = []
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        r1, c1, r2, c2 = row + dr, col + dc, row + 2 * dr, col + 2 * dc
        if not (0 <= r1 < 5 and 0 <= c1 < 5):
            continue
        second = r1 * 5 + c1
        if 0 <= r2 < 5 and 0 <= c2 < 5:
            third = r2 * 5 + c2
            lines.append(
                (
                    1 << second,
                    TokensTaken((space, second)),
                    1 << third,
                    TokensTaken((space, second, third)),
                )
            )
        else:
            lines.append((1 << second, TokensTaken((space, second)), 0, None))
    return tuple(lines)


_SINGLE_TAKES = tuple(TokensTaken((s,)) for s in range(25))
_LINES = tuple(_lines_from(s) for s in range(25))
_PRIVILEGE_MOVES = tuple(PrivilegeSpent(s) for s in range(25))
_BONUS_MOVES = tuple(BonusTokenTaken(s) for s in range(25))
_STEAL_MOVES = tuple(TokenStolen(c) for c in range(6))
_COLOR_MOVES = tuple(ColorCopied(c) for c in range(5))
_ROYAL_MOVES = {r: RoyalTaken(r) for r in ROYALS}
_REPLENISH = BoardReplenished(None)
#: Per Gold space: the reserve of each card from the pyramid, and blind from each deck.
_RESERVE_CARD = tuple({cid: CardReserved(g, cid, None) for cid in CARDS} for g in range(25))
_RESERVE_BLIND = tuple(tuple(CardReserved(g, None, lv) for lv in (1, 2, 3)) for g in range(25))
_PURCHASES: dict[tuple[str, Counts], CardPurchased] = {}
#: Each card's cost by id, one lookup away (purchases() reads it for every candidate).
_COSTS = {cid: card.cost for cid, card in CARDS.items()}
#: Each card as one bit of a set of cards (an int), by id.
_BITS = {cid: 1 << i for i, cid in enumerate(CARDS)}
_JOKERS = sum(_BITS[cid] for cid, card in CARDS.items() if card.is_joker)
#: More than any player can ever put towards one colour (every bonus and token there is).
_HOLDINGS_BOUND = sum(card.bonus for card in CARDS.values()) + TOTAL_TOKENS + 1
#: Per colour (white..black, Pearl) and amount: the cards costing more than that amount
#: of the colour.  A player's bonus plus tokens of each colour picks the cards that need
#: Gold, and the same plus all their Gold the cards out of reach, in six lookups.


def _costing_more(c: int) -> tuple[int, ...]:
    """For each amount of colour ``c``, the cards costing more than that of it: each
    amount's set is the next one's with the cards costing exactly one more."""
    costing = [0] * (_HOLDINGS_BOUND + 1)
    for cid, card in CARDS.items():
        costing[min(card.cost[c], _HOLDINGS_BOUND)] |= _BITS[cid]
    out = [0] * _HOLDINGS_BOUND
    more = 0
    for amount in range(_HOLDINGS_BOUND - 1, -1, -1):
        more |= costing[amount + 1]
        out[amount] = more
    return tuple(out)


_COSTING_MORE = tuple(_costing_more(c) for c in range(6))


def payments(player: PlayerState, card_id: str) -> list[Counts]:
    """Every distinct way ``player`` can pay for ``card_id`` (token counts, Gold last).

    Gold stands in for any missing gem or Pearl; payments differ in which tokens leave
    the player's supply.

    >>> from engine.splendor_duel.state import PlayerState
    >>> p = PlayerState()
    >>> p.tokens = [0, 2, 2, 0, 0, 0, 1]   # 2 blue, 2 green, 1 Gold
    >>> payments(p, "1-03")                # costs 2 blue, 2 green, 1 Pearl
    [(0, 2, 2, 0, 0, 0, 1)]
    """
    need = cost_after_bonuses(player, card_id)
    tokens = player.tokens
    gold = tokens[GOLD]
    if shortfall(player, need) > gold:
        return []
    return _ways_to_pay(need, tokens, gold)


#: The one way to pay for a colour that costs nothing.
_NONE = (0,)


def _ways_to_pay(need: Sequence[int], tokens: Sequence[int], gold: int) -> list[Counts]:
    """:func:`payments` of a cost after bonuses ``need`` (white..Pearl) that the tokens
    (and ``gold`` Gold among them) cover."""
    if not gold:
        return [(need[0], need[1], need[2], need[3], need[4], need[5], 0)]
    # Per colour, the tokens of it paid, from all it costs (or all the player holds) down
    # to what the Gold can cover; of every combination, in that order, those using no
    # more Gold than the player holds.
    total = need[0] + need[1] + need[2] + need[3] + need[4] + need[5]
    out: list[Counts] = []
    for paid in product(
        *[
            range(n if n < t else t, (n - gold if n > gold else 0) - 1, -1) if n else _NONE
            for n, t in zip(need, tokens[:6], strict=True)
        ]
    ):
        used = total - sum(paid)
        if used <= gold:
            out.append((*paid, used))  # type: ignore[arg-type]
    return out


def _purchase_candidates(state: State) -> list[str | None]:
    """The cards the player to move could buy: the pyramid (its empty slots as None),
    then their reserve (for a blind reserve not identified yet, every card it could be)."""
    pyramid = state.pyramid
    out = pyramid[0] + pyramid[1] + pyramid[2]
    hidden_levels: set[int] = set()
    for level, cid in state.player.reserved:
        if cid is not None:
            out.append(cid)
        elif level not in hidden_levels:
            hidden_levels.add(level)
            out.extend(sorted(state.unseen[level - 1]))
    return out


def purchases(state: State, moves: list[Event]) -> None:
    """Append every purchase the player to move can make, one move per distinct payment.

    Most candidates are unaffordable, so the cards are first sorted with sets of cards
    (see ``_COSTING_MORE``), computed once per call from what the player can put towards
    each colour (bonus plus tokens): those out of reach (or a joker without a bonus to
    copy) are skipped at once, those needing Gold have their shortfall added up, and only
    the affordable ones get their payments."""
    p = state.player
    tokens = p.tokens
    t0, t1, t2, t3, t4, t5, gold = tokens
    b0, b1, b2, b3, b4 = p.bonuses
    h0, h1, h2, h3, h4 = b0 + t0, b1 + t1, b2 + t2, b3 + t3, b4 + t4
    m0, m1, m2, m3, m4, m5 = _COSTING_MORE
    need_gold = m0[h0] | m1[h1] | m2[h2] | m3[h3] | m4[h4] | m5[t5]
    skip = 0 if b0 or b1 or b2 or b3 or b4 else _JOKERS
    if gold:
        g = gold
        skip |= m0[h0 + g] | m1[h1 + g] | m2[h2 + g] | m3[h3 + g] | m4[h4 + g] | m5[t5 + g]
    else:
        skip |= need_gold
    bits = _BITS
    cache = _PURCHASES
    for cid in _purchase_candidates(state):
        if cid is None:
            continue
        bit = bits[cid]
        if bit & skip:
            continue
        c0, c1, c2, c3, c4, c5 = _COSTS[cid]
        # the cost after bonuses
        need = (
            c0 - b0 if c0 > b0 else 0,
            c1 - b1 if c1 > b1 else 0,
            c2 - b2 if c2 > b2 else 0,
            c3 - b3 if c3 > b3 else 0,
            c4 - b4 if c4 > b4 else 0,
            c5,
        )
        if gold and bit & need_gold and shortfall(p, need) > gold:
            continue
        pays = _ways_to_pay(need, tokens, gold) if gold else [(*need, 0)]
        for pay in pays:
            key = (cid, pay)
            move = cache.get(key)
            if move is None:
                move = cache[key] = CardPurchased(cid, pay)
            moves.append(move)


def _discards(tokens: Sequence[int], k: int) -> list[Counts]:
    out: list[Counts] = []
    chosen = [0] * 7

    def fill(c: int, left: int) -> None:
        if c == 7:
            if not left:
                out.append(tuple(chosen))  # type: ignore[arg-type]
            return
        for n in range(min(left, tokens[c]), -1, -1):
            chosen[c] = n
            fill(c + 1, left - n)
        chosen[c] = 0

    fill(0, k)
    return out


def legal_moves(state: State) -> list[Event]:
    """Every legal next decision of the player to move (see the module docstring).

    >>> legal_moves(State())             # the setup is an observation, not a decision
    []
    """
    aw = state.awaiting
    if aw == ACTION:
        return _action_moves(state)
    p = state.player
    if aw == COLOR:
        return [_COLOR_MOVES[c] for c in range(5) if p.bonuses[c]]
    if aw == BONUS_TOKEN:
        color = CARDS[state.last_card or ""].color
        return [_BONUS_MOVES[s] for s, t in enumerate(state.board) if t == color]
    if aw == STEAL:
        opp = state.opponent.tokens
        return [_STEAL_MOVES[c] for c in range(6) if opp[c]]
    if aw == ROYAL:
        return [_ROYAL_MOVES[r] for r in state.royals]
    if aw == DISCARD:
        return [TokensDiscarded(d) for d in _discards(p.tokens, p.token_count - MAX_TOKENS)]
    return []


def _action_moves(state: State) -> list[Event]:
    """Optional actions, then the mandatory actions, in a fixed order: privileges by
    space, replenish, takes (as ``SEGMENTS``), reserves by Gold space, purchases."""
    moves = options(state)
    purchases(state, moves)
    return moves


def options(state: State) -> list[Event]:
    """The decisions of an action's turn but its purchases, in :func:`_action_moves`'s
    order (the playouts' policy, which buys when it can, lists the rest only when not)."""
    p = state.player
    mask = 0
    spaces = []  # spaces holding a Gem or Pearl token
    golds = []
    for s, t in enumerate(state.board):
        if t >= 0:
            if t == GOLD:
                golds.append(s)
            else:
                mask |= 1 << s
                spaces.append(s)
    moves: list[Event] = []
    if not state.replenished:
        if p.privileges:
            moves.extend([_PRIVILEGE_MOVES[s] for s in spaces])
        if any(state.bag):
            moves.append(_REPLENISH)
    pairs: list[Event] = []
    triples: list[Event] = []
    for s in spaces:
        moves.append(_SINGLE_TAKES[s])
        for bit2, pair, bit3, triple in _LINES[s]:
            if mask & bit2:
                pairs.append(pair)
                if mask & bit3:
                    triples.append(triple)  # type: ignore[arg-type]
    moves += pairs
    moves += triples
    if golds and len(p.reserved) < MAX_RESERVED:
        pyramid_cards = [c for row in state.pyramid for c in row if c is not None]
        decks = state.decks
        for g in golds:
            by_card = _RESERVE_CARD[g]
            moves.extend([by_card[cid] for cid in pyramid_cards])
            blind = _RESERVE_BLIND[g]
            if decks[0]:
                moves.append(blind[0])
            if decks[1]:
                moves.append(blind[1])
            if decks[2]:
                moves.append(blind[2])
    return moves
