"""Scoring (rulebook, Game end and scoring; the brown side of the summary card).

Each player chooses three colours that score plus; every other colour scores minus, by
the same table (1, 3, 6, 10, 15, 21 for 1 .. 6 or more cards).  Each joker is assigned
to a colour at the end, and a "+2" card scores 2.  The program makes both choices as
best for the player: every assignment of the jokers is tried (at most three jokers over
the colours in play: a few dozen assignments), the three largest colours score plus.

A joker may be assigned to a colour the player holds no card of (it then makes that
colour's one card): the rulebook lets a joker be any colour, and with fewer than three
colours held that is the best use of it.

>>> best(4 * [0] + [0, 0, 0] + [0, 0], (0, 1, 2, 3, 4, 5, 6)).total
0
>>> s = best([6, 0, 4, 3, 2, 0, 0, 1, 1], (0, 1, 2, 3, 4, 5, 6))
>>> s.total, s.plus, s.jokers
(41, (0, 2, 3), (2,))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER, PLUS, PLUS_COLOURS, PLUS_POINTS, value


@dataclass(frozen=True, slots=True)
class Score:
    """A player's best score: the ``total``, the colours scoring plus, the colour each
    joker is assigned to, and each colour's count with its jokers."""

    total: int
    plus: tuple[int, ...]
    jokers: tuple[int, ...]
    counts: tuple[tuple[int, int], ...]


def best(hand: Sequence[int], colours: Sequence[int]) -> Score:
    """The best score of ``hand`` (counts by kind) with the ``colours`` in play."""
    return _best(tuple(hand), tuple(colours))


@functools.lru_cache(maxsize=4096)
def _best(hand: tuple[int, ...], colours: tuple[int, ...]) -> Score:
    bonus = PLUS_POINTS * hand[PLUS]
    top: Score | None = None
    for jokers in itertools.combinations_with_replacement(colours, hand[JOKER]):
        counts = {c: hand[c] for c in colours}
        for c in jokers:
            counts[c] += 1
        # the largest colours score plus (ties kept in the colours' order: one answer)
        ranked = sorted(colours, key=lambda c: (-counts[c], c))
        plus = tuple(sorted(ranked[:PLUS_COLOURS]))
        total = bonus
        for c in colours:
            total += value(counts[c]) if c in plus else -value(counts[c])
        if top is None or total > top.total:
            held = tuple((c, counts[c]) for c in colours if counts[c])
            top = Score(total, tuple(c for c in plus if counts[c]), jokers, held)
    assert top is not None
    return top
