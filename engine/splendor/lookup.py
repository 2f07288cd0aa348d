"""Cards by what is printed on them: colour, level, points, cost.

>>> [c.id for c in find("level 3 white 5 points")]
['3-04']
>>> [c.id for c in find("2-05")]
['2-05']
"""

from __future__ import annotations

import re

from ..protocol import Card
from .catalogue import CARDS, NOBLES
from .state import State

#: Every card and noble as a look-up record (the words are the card's description).
CATALOGUE: dict[str, Card] = {
    **{
        cid: Card(
            cid,
            c.level,
            c.describe(),
            {"color": c.color, "points": c.points, "cost": c.cost},
        )
        for cid, c in CARDS.items()
    },
    **{nid: Card(nid, 0, n.describe(), {"points": n.points}) for nid, n in NOBLES.items()},
}


def _words(text: str) -> list[str]:
    """Lower-case words with ``level 3`` and ``5 points`` each read as one word."""
    text = re.sub(r"level (\d)", r"level\1", text.lower())
    return re.sub(r"(\d+) points?", r"\1points", text).split()


def _matches(words: str, query: list[str]) -> bool:
    have = _words(words)
    return all(q in have for q in query)


def find(query: str, state: State | None = None) -> list[Card]:
    """Cards whose printed facts match every word of ``query`` (an id matches itself);
    with ``state``, only the development cards that can still be revealed there."""
    q = query.strip()
    if q in CATALOGUE:
        return [CATALOGUE[q]]
    words = _words(q)
    found = [c for c in CATALOGUE.values() if _matches(c.words, words)]
    if state is not None:
        unseen = set().union(*state.unseen)
        found = [c for c in found if c.id in unseen]
    return found
