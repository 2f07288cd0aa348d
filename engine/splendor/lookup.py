"""Cards by what is printed on them: colour, level, points, cost.

>>> [c.id for c in find("level 3 white 5 points")]
['3-04']
>>> [c.id for c in find("2-05")]
['2-05']
>>> [c.id for c in find("L1 black 1pt")]
['1-40']
>>> [c.id for c in find("noble 4 white 4 black")], [c.id for c in find("white 4 points 7 black")]
(['N-07'], ['3-03'])
>>> find("purple")
Traceback (most recent call last):
...
engine.splendor.lookup.CardQueryError: 'purple' is not something printed on a card \
(colours, level 2 / L2, 3 points / 3pt, noble, cost W3 B1, requires B4 G4, or an id)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import EngineError
from ..notation.lexer import did_you_mean
from ..protocol import Card
from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, NOBLES
from .state import State


def _by_name(counts: tuple[int, ...]) -> dict[str, int]:
    """Counts per colour by the colour's name, zeros left out (``{"white": 3}``)."""
    return {COLOR_NAMES[c]: n for c, n in enumerate(counts) if n}


#: Every card and noble as a look-up record (the words are the card's description).
CATALOGUE: dict[str, Card] = {
    **{
        cid: Card(
            cid,
            c.level,
            c.describe(),
            {
                "color": COLOR_NAMES[c.color],
                "bonus": 1,
                "points": c.points,
                "cost": _by_name(c.cost),
            },
        )
        for cid, c in CARDS.items()
    },
    **{
        nid: Card(nid, 0, n.describe(), {"points": n.points, "requires": _by_name(n.requires)})
        for nid, n in NOBLES.items()
    },
}


class CardQueryError(EngineError, ValueError):
    """A query word that is not something printed on a card or a noble."""


#: A count of a colour as people say it (``4 white``), read as it is printed (``W4``).
_COUNT_RE = re.compile(rf"\b(\d{{1,2}}) ({'|'.join(COLOR_NAMES)})\b")


def _words(text: str) -> list[str]:
    """Lower-case words with ``level 3`` (or ``L3``) and ``5 points`` (``1 point``,
    ``5pt``) each read as one word, and a count of a colour (``4 white``) as its letter and
    count (``w4``), as a cost or a noble's requirement is printed."""
    text = re.sub(r"\b(?:level |l)(\d)\b", r"level\1", text.lower())
    text = re.sub(r"\b(\d+) ?(?:points?|pts?)\b", r"\1points", text)
    return _COUNT_RE.sub(_count_word, text).split()


def _count_word(m: re.Match[str]) -> str:
    return COLOR_LETTERS[COLOR_NAMES.index(m.group(2))].lower() + m.group(1)


#: Every word of every card's and noble's description.
_VOCABULARY = frozenset(w for c in CATALOGUE.values() for w in _words(c.words))
_HELP = "colours, level 2 / L2, 3 points / 3pt, noble, cost W3 B1, requires B4 G4, or an id"


def _matches(words: str, query: list[str]) -> bool:
    have = _words(words)
    return all(q in have for q in query)


def cards() -> Mapping[str, Card]:
    """Every card by id, as :meth:`engine.protocol.GameRules.cards` gives them."""
    return CATALOGUE


def find(query: str, state: State | None = None) -> list[Card]:
    """Cards whose printed facts match every word of ``query`` (an id matches itself);
    with ``state``, only the development cards that can still be revealed there."""
    q = query.strip()
    if q in CATALOGUE:
        return [CATALOGUE[q]]
    words = _words(q)
    for word in words:
        if word not in _VOCABULARY:
            hint = did_you_mean(word, sorted(w for w in _VOCABULARY if w.isalpha()))
            raise CardQueryError(f"{word!r} is not something printed on a card{hint} ({_HELP})")
    found = [c for c in CATALOGUE.values() if _matches(c.words, words)]
    if state is not None:
        unseen = set().union(*state.unseen)
        found = [c for c in found if c.id in unseen]
    return found
