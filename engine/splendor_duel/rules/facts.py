"""What the rules of several families share: a refusal, a token or a card's place in
words, what a card costs a player, and the Privilege rule (p.4)."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import Rule, Violation
from .. import rules
from ..catalogue import CARDS, COLOR_NAMES, EMPTY, GOLD, PEARL, SPACE_NAMES
from ..describe import tokens_text
from ..state import PlayerState, State


def refuse(code: str, message: str, rule: Rule) -> list[Violation]:
    """The violations of an event refused for one reason."""
    return [Violation(code, message, rule)]


def not_set_up() -> list[Violation]:
    """The refusal of any event but the setup before the table is set up."""
    return refuse("game.not_set_up", "the game has not been set up yet", rules.SETUP)


def tokens_words(counts: Sequence[int]) -> str:
    """Token counts as the messages give them (``R2 P``), ``nothing`` when all are zero."""
    return tokens_text(counts) or "nothing"


def token_on(space: int, token: int) -> str:
    """``c3 holds a red token``, ``c3 is empty``."""
    if token == EMPTY:
        return f"{SPACE_NAMES[space]} is empty"
    if token == GOLD:
        name = "a Gold"
    elif token == PEARL:
        name = "a Pearl"
    else:
        name = f"a {COLOR_NAMES[token]}"
    return f"{SPACE_NAMES[space]} holds {name} token"


def cost_after_bonuses(player: PlayerState, card_id: str) -> list[int]:
    """What ``card_id`` costs ``player`` per colour after bonuses (white..black, pearl)."""
    cost = CARDS[card_id].cost
    b = player.bonuses
    return [
        cost[0] - b[0] if cost[0] > b[0] else 0,
        cost[1] - b[1] if cost[1] > b[1] else 0,
        cost[2] - b[2] if cost[2] > b[2] else 0,
        cost[3] - b[3] if cost[3] > b[3] else 0,
        cost[4] - b[4] if cost[4] > b[4] else 0,
        cost[5],
    ]


def shortfall(player: PlayerState, needed: Sequence[int]) -> int:
    """Gold needed to cover what the player's coloured tokens cannot (``needed`` gives
    the six colours white..pearl).  Written out colour by colour: every purchase check
    and every affordable card in ``legal_moves`` asks, and plain arithmetic on six
    unpacked numbers makes no generator and no iteration for each of them."""
    t0, t1, t2, t3, t4, t5, _ = player.tokens
    n0, n1, n2, n3, n4, n5 = needed
    return (
        (n0 - t0 if n0 > t0 else 0)
        + (n1 - t1 if n1 > t1 else 0)
        + (n2 - t2 if n2 > t2 else 0)
        + (n3 - t3 if n3 > t3 else 0)
        + (n4 - t4 if n4 > t4 else 0)
        + (n5 - t5 if n5 > t5 else 0)
    )


def gain_privilege(state: State, who: int) -> None:
    """Take 1 Privilege: from the table, else from the other player, else nothing (p.4)."""
    if state.table_privileges:
        state.table_privileges -= 1
        state.players[who].privileges += 1
    elif state.players[1 - who].privileges:
        state.players[1 - who].privileges -= 1
        state.players[who].privileges += 1


def refill_rule(state: State) -> Rule:
    """The rulebook's rule that refills the slot emptied this turn: after a purchase
    (p.7) or after a reserve (p.6); both replace the card from the corresponding deck."""
    return rules.REFILL_AFTER_PURCHASE if state.last_card else rules.REFILL_AFTER_RESERVE


def find_in_pyramid(state: State, card_id: str) -> int:
    """The slot of ``card_id`` in its pyramid row, or -1."""
    row = state.pyramid[CARDS[card_id].level - 1]
    return row.index(card_id) if card_id in row else -1


def where_is(state: State, card_id: str) -> str:
    """Where a card that is not available is, for messages."""
    level = CARDS[card_id].level
    if find_in_pyramid(state, card_id) >= 0:
        return "it is in the pyramid"
    for i, p in enumerate(state.players):
        if any(c == card_id for c, _ in p.cards):
            return f"{state.names[i]} bought it"
        if any(c == card_id for _, c in p.reserved):
            return f"{state.names[i]} reserved it"
    if card_id in state.unseen[level - 1]:
        if state.hidden_reserved(level):
            return f"it is still in the level-{level} deck or reserved blind"
        return f"it is still in the level-{level} deck"
    return "it is not in play"
