"""Taking gem tokens (rulebook, "GAME RULES"): 3 of different colours, or 2 of one colour
when at least 4 of it are in the pile; Gold only comes with a reserve."""

from __future__ import annotations

from ...errors import Violation
from ..catalogue import COLOR_NAMES, GOLD, TWO_OF_A_COLOR_MINIMUM
from ..events import TokensTaken
from ..state import State
from .facts import violation
from .turn import after_action


def check_take(state: State, event: TokensTaken) -> list[Violation]:
    colors = event.colors
    bank = state.bank
    if GOLD in colors:
        return violation(
            "take.gold",
            "Gold is not taken with gems; a Gold comes only with a reserved card",
            "gold_by_reserving",
        )
    if len(colors) == 2 and colors[0] == colors[1]:
        c = colors[0]
        if bank[c] < TWO_OF_A_COLOR_MINIMUM:
            return violation(
                "take.two_from_fewer_than_four",
                f"2 {COLOR_NAMES[c]} taken from a pile of {bank[c]}; two of one colour need "
                f"at least {TWO_OF_A_COLOR_MINIMUM} there",
                "take_two",
            )
        return []
    if len(colors) != 3:
        return violation(
            "take.count",
            f"{len(colors)} tokens taken; take 3 of different colours or 2 of one colour",
            "take_three",
        )
    if len(set(colors)) != 3:
        return violation(
            "take.not_different",
            "3 tokens taken must be of 3 different colours",
            "take_three",
        )
    for c in colors:
        if bank[c] < 1:
            return violation(
                "take.empty", f"no {COLOR_NAMES[c]} token is left to take", "take_three"
            )
    return []


def apply_take(state: State, event: TokensTaken) -> None:
    bank = state.bank
    tokens = state.player.tokens
    for c in event.colors:
        bank[c] -= 1
        tokens[c] += 1
    after_action(state)
