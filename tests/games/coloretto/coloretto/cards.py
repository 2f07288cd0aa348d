"""Coloretto's cards: the kinds in the box, how many of each, their words and letters,
and the scoring table.

A card is known by its kind only (nine green cards cannot be told apart), so a kind is
a small integer inside the engine and its word outside: ``blue`` .. ``yellow`` (the seven
colours), ``joker``, ``plus`` (a "+2" card) and ``last`` (the "last round" card).

>>> KIND_BY_WORD["green"], WORDS[JOKER], LETTERS[PLUS]
(2, 'joker', '+')
>>> [value(n) for n in range(8)]
[0, 1, 3, 6, 10, 15, 21, 21]
"""

from __future__ import annotations

#: The seven colours of chameleon, in the engine's order.
COLOURS = ("blue", "brown", "green", "grey", "orange", "pink", "yellow")
#: How many cards of each colour the box holds.
PER_COLOUR = 9
JOKER = 7
PLUS = 8
LAST = 9
#: Every kind's word, by kind: the notation's word and the payload's value.
WORDS = (*COLOURS, "joker", "plus", "last")
#: One letter per kind (``+`` for a "+2" card), as players abbreviate them.
LETTERS = ("b", "n", "g", "r", "o", "p", "y", "j", "+", "l")
#: How the box counts each kind that is shuffled into the supply (the last-round card is
#: laid under the supply's first cards, never shuffled with them).
BOX = (*(PER_COLOUR,) * len(COLOURS), 3, 10)
#: The cards under the last-round card when the supply is made (rulebook, Preparation).
UNDER_LAST = 15
#: What a "+2" card scores.
PLUS_POINTS = 2
#: How many colours score plus at the end (the rest score minus).
PLUS_COLOURS = 3

KIND_BY_WORD: dict[str, int] = {word: k for k, word in enumerate(WORDS)}
#: The other ways a kind is written: its letter, "+2", "gray", and "red" (the English
#: rulebook's scoring example calls the pink chameleons red).
ALIASES: dict[str, int] = {
    **{letter: k for k, letter in enumerate(LETTERS) if letter != "+"},
    "+2": PLUS,
    "gray": KIND_BY_WORD["grey"],
    "red": KIND_BY_WORD["pink"],
}

#: The scoring table of the brown side, for 1 .. 6 cards of a colour (more count as 6).
TABLE = (0, 1, 3, 6, 10, 15, 21)


def value(n: int) -> int:
    """What ``n`` cards of one colour score (brown side): 1, 3, 6, 10, 15, 21 for six or
    more."""
    return TABLE[min(n, len(TABLE) - 1)]


def kind_of(word: str) -> int | None:
    """The kind a word names (a kind's word, its letter, ``+2``, ``gray``), any case."""
    w = word.lower()
    k = KIND_BY_WORD.get(w)
    return ALIASES.get(w) if k is None else k


def title(kind: int) -> str:
    """The card as players say it: ``a green card``, ``a joker``, ``a +2 card``."""
    if kind < len(COLOURS):
        return f"a {WORDS[kind]} card"
    return {JOKER: "a joker", PLUS: "a +2 card", LAST: "the last-round card"}[kind]


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def row_capacities(players: int) -> tuple[int, ...]:
    """How many cards each row takes: one brown row card (3 cards) per player at 3 to 5;
    the three green row cards (1, 2 and 3 cards) at 2 (rulebook, For two players)."""
    return (1, 2, 3) if players == 2 else (3,) * players


def removed_count(players: int) -> int:
    """How many colours leave the box before the game: two at 2 players, one at 3."""
    return {2: 2, 3: 1}.get(players, 0)


def start_count(players: int) -> int:
    """How many start cards each player takes: two at 2 players, else one."""
    return 2 if players == 2 else 1
