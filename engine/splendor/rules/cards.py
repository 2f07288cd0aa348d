"""Development cards (rulebook, "Reserve a development card", "Buying a development
card", "The development cards"): reserving a face-up card or a deck's top card blind
with a Gold when one is left (at most 3 in hand), buying a face-up or reserved card with
the bonuses reducing the cost and Gold standing for any colour, the display refilled at
once from its deck (an empty deck leaves a gap), a blind reserve shown later."""

from __future__ import annotations

from ...errors import Violation
from ..catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, GOLD, MAX_RESERVED
from ..events import CardIdentified, CardPurchased, CardReserved, CardRevealed, TurnPassed
from ..state import State
from .facts import need, plural, violation
from .moves import action_possible
from .turn import after_action, after_refill


def _display_place(state: State, card: str) -> tuple[int, int] | None:
    level = CARDS[card].level - 1
    row = state.display[level]
    for slot, cid in enumerate(row):
        if cid == card:
            return level, slot
    return None


def _take_from_display(state: State, level: int, slot: int) -> None:
    """The card leaves the display; its space waits for the deck's top card, if any."""
    state.display[level][slot] = None
    if state.decks[level] > 0:
        state.refill = (level, slot)


# --- reserve ---------------------------------------------------------------------------


def check_reserve(state: State, event: CardReserved) -> list[Violation]:
    p = state.player
    name = state.names[state.current]
    if len(p.reserved) >= MAX_RESERVED:
        return violation(
            "reserve.limit",
            f"{name} already holds {MAX_RESERVED} reserved cards",
            "reserve_limit",
        )
    if event.deck is not None:
        level = event.deck - 1
        if state.decks[level] < 1:
            return violation(
                "reserve.empty_deck", f"the level {event.deck} deck is empty", "reserve"
            )
        if event.card is not None and event.card not in state.unseen[level]:
            return violation(
                "reserve.not_in_deck",
                f"{event.card} cannot be in the level {event.deck} deck",
                "reserve",
            )
    elif event.card is None or _display_place(state, event.card) is None:
        return violation(
            "reserve.not_displayed", f"{event.card} is not face up on the table", "reserve"
        )
    left = state.bank[GOLD]
    if event.gold and left == 0:
        return violation(
            "reserve.no_gold", "no Gold is left to take with the reserve", "reserve_gold"
        )
    if not event.gold and left > 0:
        return violation(
            "reserve.gold_left",
            f"{plural(left, 'Gold')} left: the reserve takes one",
            "reserve_gold",
        )
    return []


def apply_reserve(state: State, event: CardReserved) -> None:
    p = state.player
    card = event.card
    if event.deck is not None:
        level = event.deck - 1
        state.decks[level] -= 1
        if card is not None:
            state.unseen[level].discard(card)
        p.reserved.append((event.deck, card))
    else:
        assert card is not None
        place = _display_place(state, card)
        assert place is not None
        _take_from_display(state, *place)
        p.reserved.append((place[0] + 1, card))
    if event.gold:
        state.bank[GOLD] -= 1
        p.tokens[GOLD] += 1
    after_action(state)


# --- purchase --------------------------------------------------------------------------


def _reserve_slot(state: State, card: str) -> int | None:
    """Where ``card`` is in the current player's reserve: its own entry, or a blind
    reserve of its level that may be it."""
    reserved = state.player.reserved
    for i, (_, cid) in enumerate(reserved):
        if cid == card:
            return i
    level = CARDS[card].level
    if card in state.unseen[level - 1]:
        for i, (lv, cid) in enumerate(reserved):
            if cid is None and lv == level:
                return i
    return None


def check_purchase(state: State, event: CardPurchased) -> list[Violation]:
    card = event.card
    p = state.players[state.current]
    info = CARDS[card]
    if card not in state.display[info.level - 1] and _reserve_slot(state, card) is None:
        name = state.names[state.current]
        return violation(
            "purchase.not_available",
            f"{card} is neither face up on the table nor in {name}'s reserve",
            "buy",
        )
    pay = event.payment
    tokens = p.tokens
    owed = need(info.cost, p.bonuses)
    # Each refusal of the payment first asks whether the card is affordable at all (that
    # fact settles it); a legal purchase never pays for the question.
    for c in range(6):
        if pay[c] > tokens[c]:
            name = state.names[state.current]
            return _unaffordable(state, card, owed) or violation(
                "purchase.not_held",
                f"{name} pays {pay[c]} {COLOR_NAMES[c]} but holds {tokens[c]}",
                "buy",
            )
    short = 0
    for c in range(5):
        if pay[c] > owed[c]:
            name = state.names[state.current]
            return _unaffordable(state, card, owed) or violation(
                "purchase.overpaid",
                f"{card} costs {name} {owed[c]} {COLOR_NAMES[c]} after bonuses, not {pay[c]}",
                "bonuses",
            )
        short += owed[c] - pay[c]
    if pay[GOLD] != short:
        unaffordable = _unaffordable(state, card, owed)
        if unaffordable:
            return unaffordable
        name = state.names[state.current]
        due = " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(owed) if n) or "nothing"
        if pay[GOLD] < short:
            wrong = f"this payment is {plural(short - pay[GOLD], 'token')} short"
        else:
            wrong = f"this payment gives {plural(pay[GOLD] - short, 'Gold')} too many"
        return violation(
            "purchase.payment",
            f"{card} costs {name} {due} after bonuses (Gold stands for any colour): {wrong}",
            "buy",
        )
    return []


def _unaffordable(state: State, card: str, owed: list[int]) -> list[Violation]:
    """The refusal of a purchase the player to move cannot afford, whatever the payment
    (their tokens and Gold short of the cost after bonuses); empty when affordable."""
    tokens = state.players[state.current].tokens
    missing = sum(max(0, owed[c] - tokens[c]) for c in range(5)) - tokens[GOLD]
    if missing <= 0:
        return []
    name = state.names[state.current]
    due = " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(owed) if n)
    held = " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(tokens) if n)
    return violation(
        "purchase.unaffordable",
        f"{name} cannot afford {card}: it costs {due} after bonuses, {name} holds "
        f"{held or 'no tokens'} ({plural(missing, 'token')} short, Gold included)",
        "buy",
    )


def apply_purchase(state: State, event: CardPurchased) -> None:
    card = event.card
    p = state.players[state.current]
    tokens, bank = p.tokens, state.bank
    for c, n in enumerate(event.payment):
        if n:
            tokens[c] -= n
            bank[c] += n
    level = CARDS[card].level - 1
    row = state.display[level]
    if card in row:
        _take_from_display(state, level, row.index(card))
    else:
        i = _reserve_slot(state, card)
        assert i is not None
        if p.reserved[i][1] is None:
            state.unseen[CARDS[card].level - 1].discard(card)
        del p.reserved[i]
    info = CARDS[card]
    p.cards.append(card)
    p.bonuses[info.color] += 1
    p.points += info.points
    after_action(state)


# --- the display refilled, a blind reserve shown ---------------------------------------


def check_reveal(state: State, event: CardRevealed) -> list[Violation]:
    assert state.refill is not None
    level = state.refill[0]
    if event.card not in state.unseen[level]:
        where = (
            f"not a level {level + 1} card"
            if CARDS[event.card].level != level + 1
            else "already seen elsewhere"
        )
        return violation(
            "reveal.not_in_deck",
            f"{event.card} cannot come from the level {level + 1} deck: {where}",
            "refill",
        )
    return []


def apply_reveal(state: State, event: CardRevealed) -> None:
    assert state.refill is not None
    level, slot = state.refill
    state.display[level][slot] = event.card
    state.decks[level] -= 1
    state.unseen[level].discard(event.card)
    state.refill = None
    after_refill(state)


def check_identify(state: State, event: CardIdentified) -> list[Violation]:
    if not 0 <= event.player < len(state.players):
        return violation("identify.seat", f"no seat {event.player + 1}", "reserve")
    level = CARDS[event.card].level
    name = state.names[event.player]
    if not any(lv == level and cid is None for lv, cid in state.players[event.player].reserved):
        return violation(
            "identify.no_blind_reserve",
            f"{name} holds no blind reserve of level {level}",
            "reserve",
        )
    if event.card not in state.unseen[level - 1]:
        return violation("identify.seen", f"{event.card} is already seen elsewhere", "reserve")
    return []


def apply_identify(state: State, event: CardIdentified) -> None:
    level = CARDS[event.card].level
    reserved = state.players[event.player].reserved
    for i, (lv, cid) in enumerate(reserved):
        if lv == level and cid is None:
            reserved[i] = (lv, event.card)
            break
    state.unseen[level - 1].discard(event.card)


# --- a turn without an action ----------------------------------------------------------


def check_pass(state: State, event: TurnPassed) -> list[Violation]:
    if action_possible(state):
        return violation(
            "pass.action_possible",
            f"{state.names[state.current]} can still take, reserve or buy",
            "no_action",
        )
    return []


def apply_pass(state: State, event: TurnPassed) -> None:
    after_action(state)
