"""Card abilities (p.8) resolved after a purchase: a joker copies a bonus colour, the
token ability takes a token of the card's colour, the steal takes one from the opponent."""

from __future__ import annotations

from ...errors import Violation
from .. import rules
from ..catalogue import CARDS, COLOR_NAMES, EMPTY, GEMS, GOLD
from ..events import BonusTokenTaken, ColorCopied, TokenStolen
from ..state import State
from .facts import refuse, token_on
from .turn import advance


def check_color(state: State, e: ColorCopied) -> list[Violation]:
    """Why the joker may not copy that colour."""
    if e.color >= len(GEMS) or not state.player.bonuses[e.color]:
        return refuse(
            "ability.color",
            f"{state.names[state.current]} has no card with a {COLOR_NAMES[e.color]} bonus to copy",
            rules.ABILITIES,
        )
    return []


def apply_color(state: State, e: ColorCopied) -> None:
    """The joker counts as the chosen colour from now on."""
    p = state.player
    cid = state.last_card or ""
    card = CARDS[cid]
    for i in range(len(p.cards) - 1, -1, -1):
        if p.cards[i][0] == cid:
            p.cards[i] = (cid, e.color)
            break
    p.bonuses[e.color] += card.bonus
    p.color_points[e.color] += card.points
    state.pending.pop(0)
    advance(state)


def check_bonus_token(state: State, e: BonusTokenTaken) -> list[Violation]:
    """Why the token on that space is not the one the ability gives."""
    card = CARDS[state.last_card or ""]
    token = state.board[e.space]
    if token != card.color:
        return refuse(
            "ability.token",
            f"{token_on(e.space, token)}; the ability of {card.id} takes a "
            f"{COLOR_NAMES[card.color or 0]} token",
            rules.ABILITIES,
        )
    return []


def apply_bonus_token(state: State, e: BonusTokenTaken) -> None:
    """The token goes to the player."""
    state.player.tokens[state.board[e.space]] += 1
    state.board[e.space] = EMPTY
    state.pending.pop(0)
    advance(state)


def check_steal(state: State, e: TokenStolen) -> list[Violation]:
    """Why that token may not be stolen."""
    if e.color == GOLD:
        return refuse(
            "ability.steal_gold",
            f"{state.names[1 - state.current]}'s Gold tokens cannot be taken; the steal ability "
            "takes 1 Gem or Pearl token",
            rules.ABILITIES,
        )
    if not state.opponent.tokens[e.color]:
        return refuse(
            "ability.steal_missing",
            f"{state.names[1 - state.current]} holds no {COLOR_NAMES[e.color]} token",
            rules.ABILITIES,
        )
    return []


def apply_steal(state: State, e: TokenStolen) -> None:
    """The token goes from the opponent to the player."""
    state.opponent.tokens[e.color] -= 1
    state.player.tokens[e.color] += 1
    state.pending.pop(0)
    advance(state)
