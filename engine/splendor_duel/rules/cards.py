"""Jewel cards: reserving with a Gold token (p.6), purchasing (p.6-7), the card revealed
into an emptied pyramid slot (publisher's ruling) and a blind reserve identified."""

from __future__ import annotations

from ...errors import Violation
from .. import rules
from ..catalogue import (
    CARDS,
    COLOR_NAMES,
    EMPTY,
    GOLD,
    MAX_RESERVED,
    ROYAL_CROWN_THRESHOLDS,
    SPACE_NAMES,
)
from ..events import CardIdentified, CardPurchased, CardReserved, CardRevealed
from ..state import BONUS_TOKEN, COLOR, ROYAL, SETUP, STEAL, State
from .facts import (
    cost_after_bonuses,
    find_in_pyramid,
    gain_privilege,
    not_set_up,
    refill_rule,
    refuse,
    shortfall,
    token_on,
    tokens_words,
    where_is,
)
from .turn import advance


def check_reserve(state: State, e: CardReserved) -> list[Violation]:
    """Why the card may not be reserved with the Gold on that space (none if it may)."""
    p = state.player
    name = state.names[state.current]
    if len(p.reserved) >= MAX_RESERVED:
        return refuse("reserve.limit", f"{name} already has 3 reserved cards", rules.RESERVE)
    if GOLD not in state.board:
        return refuse(
            "reserve.no_gold",
            f"there is no Gold token on the board, so {name} cannot reserve: the action "
            "takes 1 Gold token first",
            rules.RESERVE_NEEDS_GOLD,
        )
    token = state.board[e.gold]
    if token != GOLD:
        golds = ", ".join(SPACE_NAMES[s] for s, t in enumerate(state.board) if t == GOLD)
        return refuse(
            "reserve.not_gold",
            f"{token_on(e.gold, token)}, not Gold; the Gold tokens are on {golds}",
            rules.RESERVE,
        )
    if e.deck is None:
        cid = e.card or ""
        if find_in_pyramid(state, cid) < 0:
            return refuse(
                "reserve.not_in_pyramid",
                f"{cid} is not in the pyramid ({where_is(state, cid)})",
                rules.RESERVE,
            )
        return []
    if state.decks[e.deck - 1] == 0:
        return refuse("reserve.deck_empty", f"the level-{e.deck} deck is empty", rules.RESERVE)
    if e.card is not None and e.card not in state.unseen[e.deck - 1]:
        return refuse(
            "reserve.card_seen",
            f"{e.card} cannot be on top of the level-{e.deck} deck: {where_is(state, e.card)}",
            rules.RESERVE,
        )
    return []


def apply_reserve(state: State, e: CardReserved) -> None:
    """The Gold goes to the player, the card (or a blind one from its deck) to their reserve."""
    p = state.player
    state.board[e.gold] = EMPTY
    p.tokens[GOLD] += 1
    if e.deck is None:
        cid = e.card or ""
        level = CARDS[cid].level - 1
        slot = find_in_pyramid(state, cid)
        state.pyramid[level][slot] = None
        state.refill = (level, slot)
        p.reserved.append((level + 1, cid))
    else:
        state.decks[e.deck - 1] -= 1
        if e.card is not None:
            state.unseen[e.deck - 1].discard(e.card)
        p.reserved.append((e.deck, e.card))
    advance(state)


def _locate_purchase(state: State, cid: str) -> tuple[str, int] | None:
    """Where the current player can buy ``cid`` from: ('pyramid', slot), ('reserve', index)
    or ('hidden', index of an unidentified reserve of its level); None if nowhere."""
    level = CARDS[cid].level
    row = state.pyramid[level - 1]
    if cid in row:
        return ("pyramid", row.index(cid))
    reserved = state.players[state.current].reserved
    for i, (_, c) in enumerate(reserved):
        if c == cid:
            return ("reserve", i)
    if cid in state.unseen[level - 1]:
        for i, (lv, c) in enumerate(reserved):
            if c is None and lv == level:
                return ("hidden", i)
    return None


def check_purchase(state: State, e: CardPurchased) -> list[Violation]:
    """Why the card may not be bought with that payment (none if it may).

    A legal payment is recognised in one expression (each colour no more than the
    player holds and no more than the card costs after bonuses, and Gold exactly for
    the rest, which also proves the card affordable); only a refused one goes through
    the checks one by one, in the order that picks the reason given."""
    cid = e.card
    if _locate_purchase(state, cid) is None:
        name = state.names[state.current]
        return refuse(
            "purchase.not_available",
            f"{cid} is neither in the pyramid nor reserved by {name} ({where_is(state, cid)})",
            rules.PURCHASE,
        )
    p = state.players[state.current]
    if CARDS[cid].is_joker and not p.has_bonus_card():
        return refuse(
            "purchase.joker_without_bonus",
            f"{cid} copies the colour of a card with a bonus, and "
            f"{state.names[state.current]} has none",
            rules.ABILITIES,
        )
    need = cost_after_bonuses(p, cid)
    n0, n1, n2, n3, n4, n5 = need
    t0, t1, t2, t3, t4, t5, t6 = p.tokens
    q0, q1, q2, q3, q4, q5, q6 = e.payment
    if (
        q0 <= n0
        and q0 <= t0
        and q1 <= n1
        and q1 <= t1
        and q2 <= n2
        and q2 <= t2
        and q3 <= n3
        and q3 <= t3
        and q4 <= n4
        and q4 <= t4
        and q5 <= n5
        and q5 <= t5
        and q6 <= t6
        and q6 == n0 + n1 + n2 + n3 + n4 + n5 - q0 - q1 - q2 - q3 - q4 - q5
    ):
        return []
    return _payment_refusal(state, cid, need, e.payment)


def _payment_refusal(
    state: State, cid: str, need: list[int], pay: tuple[int, ...]
) -> list[Violation]:
    """Why a payment for an available card is refused: the card is unaffordable, or the
    payment gives tokens the player does not hold, more than a colour costs, or too few
    or too many Gold."""
    name = state.names[state.current]
    p = state.players[state.current]
    tokens = p.tokens
    if shortfall(p, need) > tokens[GOLD]:
        return refuse(
            "purchase.unaffordable",
            f"{cid} costs {name} {tokens_words(need)} after bonuses; {name} holds "
            f"{tokens_words(tokens)}",
            rules.PURCHASE,
        )
    for c in range(7):
        if pay[c] > tokens[c]:
            return refuse(
                "purchase.tokens_not_held",
                f"the payment gives {pay[c]} {COLOR_NAMES[c]} but {name} holds {tokens[c]}",
                rules.PURCHASE,
            )
    for c in range(6):
        if pay[c] > need[c]:
            return refuse(
                "purchase.payment",
                f"the payment gives {pay[c]} {COLOR_NAMES[c]}; {cid} costs {name} only "
                f"{need[c]} {COLOR_NAMES[c]} after bonuses ({tokens_words(need)})",
                rules.BONUSES,
            )
    gold_due = sum(need) - (sum(pay) - pay[GOLD])  # what the coloured tokens leave unpaid
    if pay[GOLD] < gold_due:
        short = [0] * 7
        for c in range(6):
            short[c] = need[c] - pay[c]
        gold = f", and {pay[GOLD]} Gold stands in for only {pay[GOLD]}" if pay[GOLD] else ""
        return refuse(
            "purchase.payment",
            f"{cid} costs {name} {tokens_words(need)} after bonuses; the payment "
            f"({tokens_words(pay)}) leaves {tokens_words(short)} unpaid ({gold_due} "
            f"token{'s' if gold_due != 1 else ''}){gold}",
            rules.PURCHASE,
        )
    return refuse(
        "purchase.payment",
        f"{cid} costs {name} {tokens_words(need)} after bonuses; the payment "
        f"({tokens_words(pay)}) gives {pay[GOLD]} Gold where {gold_due} "
        f"{'is' if gold_due == 1 else 'are'} needed, overpaying",
        rules.BONUSES,
    )


def apply_purchase(state: State, e: CardPurchased) -> None:
    """The payment goes to the bag, the card to the player; its abilities and crowns fall due."""
    cid = e.card
    card = CARDS[cid]
    p = state.players[state.current]
    level = card.level - 1
    row = state.pyramid[level]
    if cid in row:  # most purchases: from the pyramid
        index = row.index(cid)
        row[index] = None
        state.refill = (level, index)
    else:
        where = _locate_purchase(state, cid)
        assert where is not None
        kind, index = where
        del p.reserved[index]
        if kind == "hidden":
            state.unseen[level].discard(cid)
    tokens, bag = p.tokens, state.bag
    for c, n in enumerate(e.payment):
        if n:
            tokens[c] -= n
            bag[c] += n
    color = card.color
    p.cards.append((cid, color))
    p.points += card.points
    if color is not None:
        p.bonuses[color] += card.bonus
        p.color_points[color] += card.points
    state.last_card = cid
    pending = state.pending
    for ability in card.abilities:
        if ability == "wild":
            pending.append(COLOR)
        elif ability == "again":
            state.extra_turn = True
        elif ability == "privilege":
            gain_privilege(state, state.current)
        elif ability == "token":
            pending.append(BONUS_TOKEN)
        elif ability == "steal":
            pending.append(STEAL)
    if card.crowns:
        before = p.crowns
        p.crowns += card.crowns
        for threshold in ROYAL_CROWN_THRESHOLDS:
            if before < threshold <= p.crowns:
                p.royals_due += 1
                pending.append(ROYAL)
    advance(state)


def check_reveal(state: State, e: CardRevealed) -> list[Violation]:
    """Why the card cannot be the one revealed into the empty slot."""
    level = (state.refill or (0, 0))[0] + 1
    card = CARDS[e.card]
    if card.level != level:
        return refuse(
            "reveal.level",
            f"{e.card} is a level-{card.level} card; the empty slot is in level {level} and "
            f"is refilled from the level-{level} deck",
            refill_rule(state),
        )
    if e.card not in state.unseen[level - 1]:
        return refuse(
            "reveal.seen",
            f"{e.card} cannot come from the level-{level} deck: {where_is(state, e.card)}",
            refill_rule(state),
        )
    return []


def apply_reveal(state: State, e: CardRevealed) -> None:
    """The card fills the empty pyramid slot."""
    level, slot = state.refill or (0, 0)
    state.pyramid[level][slot] = e.card
    state.decks[level] -= 1
    state.unseen[level].discard(e.card)
    state.refill = None
    advance(state)


def check_identify(state: State, e: CardIdentified) -> list[Violation]:
    """Why the card cannot be the player's blind reserve."""
    if state.awaiting == SETUP:
        return not_set_up()
    level = CARDS[e.card].level
    p = state.players[e.player]
    if not any(c is None and lv == level for lv, c in p.reserved):
        return refuse(
            "identify.no_hidden_card",
            f"{state.names[e.player]} has no unidentified level-{level} reserved card",
            rules.RESERVE,
        )
    if e.card not in state.unseen[level - 1]:
        return refuse(
            "identify.seen",
            f"{e.card} cannot be the blind reserve: {where_is(state, e.card)}",
            rules.RESERVE,
        )
    return []


def apply_identify(state: State, e: CardIdentified) -> None:
    """The player's first unidentified reserve of the card's level becomes the card."""
    level = CARDS[e.card].level
    reserved = state.players[e.player].reserved
    for i, (lv, c) in enumerate(reserved):
        if c is None and lv == level:
            reserved[i] = (lv, e.card)
            break
    state.unseen[level - 1].discard(e.card)
