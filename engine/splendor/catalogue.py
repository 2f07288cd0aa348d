"""Classic Splendor's components: the 90 development cards, the 10 nobles, the tokens.

The cards and nobles come from the generated :mod:`.catalogue_data`; the component counts
are the rulebook's ("Contents", "Game with 2 or 3 players"): 7 tokens of each gem colour
for 4 players, 5 for 3, 4 for 2, always 5 Gold; 4 face-up cards per level; as many nobles
as players plus one.

>>> len(CARDS), len(NOBLES), [len(ids) for ids in CARDS_BY_LEVEL]
(90, 10, [40, 30, 20])
>>> CARDS["1-01"].describe()
'1-01 level 1 white 0 points cost W3 B1 K1'
>>> gem_tokens(2), gem_tokens(3), gem_tokens(4)
(4, 5, 7)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import EventFormatError
from .catalogue_data import DEVELOPMENT_CARDS
from .catalogue_data import NOBLES as NOBLE_ROWS

WHITE, BLUE, GREEN, RED, BLACK, GOLD = range(6)
#: The five gem colours and Gold, in the order every count is kept.
COLOR_NAMES = ("white", "blue", "green", "red", "black", "gold")
#: One letter per colour, as the notation writes them (B blue, K black, Y gold).
COLOR_LETTERS = "WBGRKY"
GEMS = range(5)
_COLOR_BY_NAME = {name: i for i, name in enumerate(COLOR_NAMES)}
_COLOR_BY_LETTER = {letter: i for i, letter in enumerate(COLOR_LETTERS)}

#: Gold tokens in every game (rulebook, "Contents": 5 Gold Joker tokens).
GOLD_TOKENS = 5
#: Face-up cards per level (rulebook, "Game setup": reveal 4 cards from each level).
DISPLAY_SIZE = 4
#: The points that end the game at the end of the round (rulebook, "END OF THE GAME").
END_POINTS = 15
#: Tokens a player may hold at the end of a turn (rulebook, "Selecting tokens").
MAX_TOKENS = 10
#: Reserved cards a player may hold (rulebook, "Reserve a development card").
MAX_RESERVED = 3
#: Gem tokens of one colour needed in the pile to take two of it (rulebook, "GAME RULES").
TWO_OF_A_COLOR_MINIMUM = 4


def gem_tokens(players: int) -> int:
    """Tokens of each gem colour for ``players`` players (rulebook, "Game with 2 or 3
    players": remove 3 of each colour with 2 players, 2 with 3)."""
    return {2: 4, 3: 5}.get(players, 7)


def token_counts(players: int) -> tuple[int, int, int, int, int, int]:
    """Every token of a game for ``players`` players, by colour (Gold last)."""
    n = gem_tokens(players)
    return (n, n, n, n, n, GOLD_TOKENS)


def nobles_revealed(players: int) -> int:
    """Noble tiles revealed at the setup (rulebook, "Game setup": players plus one)."""
    return players + 1


def color_index(text: str) -> int:
    """A colour by name or letter (``red``, ``R``); EventFormatError for anything else."""
    i = _COLOR_BY_NAME.get(text)
    if i is None:
        i = _COLOR_BY_LETTER.get(text)
    if i is None:
        raise EventFormatError(f"unknown colour {text!r}")
    return i


@dataclass(frozen=True, slots=True)
class DevelopmentCard:
    """A development card as printed: level, bonus colour, points, cost per gem colour."""

    id: str
    level: int
    color: int
    points: int
    cost: tuple[int, int, int, int, int]

    def cost_text(self) -> str:
        return " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(self.cost) if n)

    def describe(self) -> str:
        """The card in words: id, level, colour, points and cost."""
        plural = "point" if self.points == 1 else "points"
        return (
            f"{self.id} level {self.level} {COLOR_NAMES[self.color]} "
            f"{self.points} {plural} cost {self.cost_text()}"
        )


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble tile: its points and the bonuses per colour it requires."""

    id: str
    points: int
    requires: tuple[int, int, int, int, int]

    def describe(self) -> str:
        need = " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(self.requires) if n)
        return f"{self.id} noble {self.points} points requires {need}"


CARDS: dict[str, DevelopmentCard] = {
    cid: DevelopmentCard(cid, level, _COLOR_BY_NAME[color], points, cost)
    for cid, level, color, points, cost in DEVELOPMENT_CARDS
}
#: Card ids per level (index 0 is level 1), in catalogue order.
CARDS_BY_LEVEL: tuple[tuple[str, ...], ...] = tuple(
    tuple(cid for cid, c in CARDS.items() if c.level == level) for level in (1, 2, 3)
)
NOBLES: dict[str, Noble] = {nid: Noble(nid, points, req) for nid, points, req in NOBLE_ROWS}
NOBLE_IDS = tuple(NOBLES)
#: Each card's printed cost as (colour, count) pairs, zeros left out (hot loops).
COST_ITEMS: dict[str, tuple[tuple[int, int], ...]] = {
    cid: tuple((col, n) for col, n in enumerate(c.cost) if n) for cid, c in CARDS.items()
}
#: Each noble's requirement as (colour, count) pairs, zeros left out (hot loops).
REQUIRE_ITEMS: dict[str, tuple[tuple[int, int], ...]] = {
    nid: tuple((col, k) for col, k in enumerate(n.requires) if k) for nid, n in NOBLES.items()
}
