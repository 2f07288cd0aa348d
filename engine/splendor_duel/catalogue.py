"""Splendor Duel components: colours, board spaces, the spiral, Jewel and Royal cards.

Colours are small integers so the hot paths can index lists:

>>> COLOR_LETTERS
'WBGRKPY'
>>> color_index("R"), color_name(RED), COLOR_LETTERS[GOLD]
(3, 'red', 'Y')

Board spaces are numbered 0..24 row by row; their names are a column letter ``a``..``e``
(left to right) and a row digit ``1``..``5`` (top to bottom), so ``a1`` is the top-left
corner, ``e5`` the bottom-right one and ``c3`` the centre, where the spiral starts.

>>> space_name(12), space_index("c3"), SPIRAL_SPACES[:3]
('c3', 12, (12, 17, 16))
"""

from __future__ import annotations

from dataclasses import dataclass

from . import catalogue_data as _data

WHITE, BLUE, GREEN, RED, BLACK, PEARL, GOLD = range(7)
GEMS = (WHITE, BLUE, GREEN, RED, BLACK)
COLOR_NAMES = ("white", "blue", "green", "red", "black", "pearl", "gold")
COLOR_LETTERS = "WBGRKPY"
EMPTY = -1

_COLOR_BY_NAME = {name: i for i, name in enumerate(COLOR_NAMES)}
_COLOR_BY_LETTER = {letter: i for i, letter in enumerate(COLOR_LETTERS)}


def color_index(text: str) -> int:
    """The colour index of a letter (``W``) or name (``white``); KeyError if neither."""
    if len(text) == 1:
        return _COLOR_BY_LETTER[text.upper()]
    return _COLOR_BY_NAME[text.lower()]


def color_name(color: int) -> str:
    return COLOR_NAMES[color]


# --- the board -------------------------------------------------------------------------

ROWS = COLS = 5
SPACE_NAMES = tuple(f"{'abcde'[c]}{r + 1}" for r in range(ROWS) for c in range(COLS))
_SPACE_BY_NAME = {name: i for i, name in enumerate(SPACE_NAMES)}


def space_index(name: str) -> int:
    """The index of a space name such as ``c3``; KeyError if there is no such space."""
    return _SPACE_BY_NAME[name.lower()]


def space_name(index: int) -> str:
    return SPACE_NAMES[index]


#: The printed spiral as space indices, from the centre outwards (setup and replenish order).
SPIRAL_SPACES: tuple[int, ...] = tuple((r - 1) * COLS + (c - 1) for r, c in _data.SPIRAL)
#: Position of each space on the spiral (1..25), indexed by space.
SPIRAL_ORDER: tuple[int, ...] = tuple(SPIRAL_SPACES.index(i) + 1 for i in range(ROWS * COLS))


def _segments() -> tuple[tuple[int, ...], ...]:
    """Every straight run of 1-3 adjacent spaces: row, column or diagonal (145 in all)."""
    found: set[tuple[int, ...]] = set()
    for r in range(ROWS):
        for c in range(COLS):
            found.add((r * COLS + c,))
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = [r * COLS + c]
                for k in (1, 2):
                    rr, cc = r + dr * k, c + dc * k
                    if not (0 <= rr < ROWS and 0 <= cc < COLS):
                        break
                    run.append(rr * COLS + cc)
                    found.add(tuple(sorted(run)))
    return tuple(sorted(found, key=lambda s: (len(s), s)))


#: All legal shapes of a "take up to 3 tokens" action, each a sorted tuple of spaces.
SEGMENTS: tuple[tuple[int, ...], ...] = _segments()
SEGMENT_SET = frozenset(SEGMENTS)
SEGMENT_MASKS: tuple[int, ...] = tuple(sum(1 << s for s in seg) for seg in SEGMENTS)

# --- tokens, privileges, limits --------------------------------------------------------

#: How many tokens of each colour the game has (index = colour).
TOKEN_COUNTS: tuple[int, ...] = tuple(_data.TOKEN_COUNTS[name] for name in COLOR_NAMES)
TOTAL_TOKENS = sum(TOKEN_COUNTS)
PRIVILEGES = _data.PRIVILEGES
PYRAMID_SIZES: tuple[int, int, int] = (
    _data.PYRAMID_SIZES[1],
    _data.PYRAMID_SIZES[2],
    _data.PYRAMID_SIZES[3],
)
MAX_TOKENS = _data.MAX_TOKENS
MAX_RESERVED = 3
VICTORY_POINTS = _data.VICTORY_POINTS
VICTORY_CROWNS = _data.VICTORY_CROWNS
VICTORY_COLOR_POINTS = _data.VICTORY_COLOR_POINTS
ROYAL_CROWN_THRESHOLDS: tuple[int, ...] = _data.ROYAL_CROWN_THRESHOLDS

# --- cards -----------------------------------------------------------------------------

JOKER = "joker"
ABILITIES = ("again", "wild", "token", "privilege", "steal")


@dataclass(frozen=True, slots=True)
class JewelCard:
    """One Jewel card as printed.

    ``color`` is the bonus colour index, ``None`` for a joker (its colour is chosen when
    bought) and for the three cards with no bonus; ``is_joker`` tells them apart.
    ``cost`` is indexed by colour: white, blue, green, red, black, pearl.
    """

    id: str
    level: int
    color: int | None
    is_joker: bool
    bonus: int
    points: int
    crowns: int
    abilities: tuple[str, ...]
    cost: tuple[int, int, int, int, int, int]

    def describe(self) -> str:
        """A short readable description, e.g. ``L3 white 3pt 2cr cost B3 R5 K3 P1``."""
        kind = (
            "joker"
            if self.is_joker
            else (COLOR_NAMES[self.color] if self.color is not None else "no-bonus")
        )
        parts = [f"L{self.level}", kind if self.bonus < 2 else f"{kind}x2"]
        if self.points:
            parts.append(f"{self.points}pt")
        if self.crowns:
            parts.append(f"{self.crowns}cr")
        parts.extend(self.abilities)
        cost = " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(self.cost) if n)
        parts.append(f"cost {cost}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class RoyalCard:
    id: str
    points: int
    ability: str | None


def _card(row: tuple) -> JewelCard:  # type: ignore[type-arg]
    cid, level, color, bonus, points, crowns, abilities, cost = row
    return JewelCard(
        id=cid,
        level=level,
        color=None if color in (None, JOKER) else _COLOR_BY_NAME[color],
        is_joker=color == JOKER,
        bonus=bonus,
        points=points,
        crowns=crowns,
        abilities=tuple(abilities),
        cost=tuple(cost),
    )


CARDS: dict[str, JewelCard] = {row[0]: _card(row) for row in _data.JEWEL_CARDS}
CARDS_BY_LEVEL: tuple[tuple[str, ...], ...] = tuple(
    tuple(cid for cid, card in CARDS.items() if card.level == level) for level in (1, 2, 3)
)
ROYALS: dict[str, RoyalCard] = {
    rid: RoyalCard(rid, points, ability) for rid, points, ability in _data.ROYAL_CARDS
}
ROYAL_IDS: tuple[str, ...] = tuple(ROYALS)
