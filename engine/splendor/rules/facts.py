"""The rulebook sections violations cite, and small facts several rule modules share.

The classic rulebook's text has no page numbers: a citation names its section.

>>> RULES["take_two"].cite()
'GAME RULES: Take 2 gem tokens of the same color'
"""

from __future__ import annotations

from ...errors import Rule, Violation
from ..catalogue import REQUIRE_ITEMS
from ..state import State

#: Every rule a violation may cite, by a short key.
RULES: dict[str, Rule] = {
    "setup": Rule("Game setup"),
    "setup_players": Rule("Game setup: Game with 2 or 3 players"),
    "one_action": Rule("GAME RULES: perform only one of the following four actions"),
    "take_three": Rule("GAME RULES: Take 3 gem tokens of different colors"),
    "take_two": Rule("GAME RULES: Take 2 gem tokens of the same color"),
    "gold_by_reserving": Rule(
        "Reserve a development card: reserving a card is the only way to get a gold token"
    ),
    "ten_tokens": Rule("Selecting tokens: never more than 10 tokens at the end of a turn"),
    "reserve": Rule("Reserve a development card"),
    "reserve_limit": Rule("Reserve a development card: no more than three reserved cards"),
    "reserve_gold": Rule("Reserve a development card: take 1 gold token (joker)"),
    "buy": Rule("Buying a development card"),
    "bonuses": Rule("The bonuses"),
    "refill": Rule("The development cards: a card acquired or reserved is replaced at once"),
    "nobles": Rule("The nobles"),
    "end": Rule("END OF THE GAME"),
    "no_action": Rule(
        "GAME RULES: a turn passes only when none of the four actions is possible", None, "tablelog"
    ),
}


def violation(code: str, message: str, rule: str) -> list[Violation]:
    """A one-violation list (the usual answer of a check)."""
    return [Violation(code, message, RULES[rule])]


def not_set_up() -> list[Violation]:
    return violation("turn.not_set_up", "the table is not set up yet", "setup")


def need(cost: tuple[int, ...], bonuses: list[int]) -> list[int]:
    """What a card still costs per gem colour once the bonuses are counted."""
    return [max(0, cost[c] - bonuses[c]) for c in range(5)]


def plural(n: int, word: str) -> str:
    """``1 token``, ``2 tokens``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def qualifying_nobles(state: State) -> list[str]:
    """The nobles on the table whose requirement the current player's bonuses meet."""
    bonuses = state.players[state.current].bonuses
    out = []
    for n in state.nobles:
        for c, k in REQUIRE_ITEMS[n]:
            if bonuses[c] < k:
                break
        else:
            out.append(n)
    return out
