"""Finding Splendor Duel cards by what is printed on them.

At the table nobody knows a card's catalogue id; they see "a green card, 3 points, a
crown".  :func:`find_cards` reads such a query into constraints and returns the cards that
meet every one of them.

>>> [c.id for c in find_cards("green 3 points crown")]
['3-05']
>>> [c.id for c in find_cards("level 2 joker")][:3]
['2-21', '2-22', '2-23']
>>> find_cards("1-5")[0].id
'1-05'
>>> find_cards("purple")
Traceback (most recent call last):
...
engine.splendor_duel.lookup.CardQueryError: 'purple' is not something printed on a card \
(colours, joker, level 2 / L2, 3 points / 3pt, crown / 2 crowns, again, token, privilege, \
steal, double, cost B3 R2, or a card id; royal or R-4 for Royal cards)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import EngineError
from ..notation.lexer import did_you_mean
from ..protocol import Card
from .catalogue import ABILITIES, CARDS, COLOR_LETTERS, COLOR_NAMES, ROYALS, JewelCard, RoyalCard

_HELP = (
    "colours, joker, level 2 / L2, 3 points / 3pt, crown / 2 crowns, again, token, "
    "privilege, steal, double, cost B3 R2, or a card id; royal or R-4 for Royal cards"
)


class CardQueryError(EngineError, ValueError):
    """A query word that is not something printed on a card."""


Test = Callable[[JewelCard], bool]

_ID = re.compile(r"([123])-(\d{1,2})")
_LEVEL = re.compile(r"(?:l|lv|lvl|level)([123])")
_POINTS = re.compile(r"(\d{1,2})(?:pt|pts|p|points?|prestige)")
_CROWNS = re.compile(r"(\d)(?:cr|crowns?)")
_COST_ITEM = re.compile(r"([wbgrkp])(\d)")
_NUMBER = re.compile(r"\d{1,2}")
#: A colour may be written as its token letter (``w`` white ... ``k`` black).
_COLOR_LETTERS = COLOR_LETTERS[:5].lower()

#: Words naming an ability, as players say them (rulebook p.8).
_ABILITY_WORDS = {
    "again": "again",
    "replay": "again",
    "extra": "again",
    "turn": "again",
    "wild": "wild",
    "joker": "wild",
    "token": "token",
    "privilege": "privilege",
    "scroll": "privilege",
    "steal": "steal",
}
#: The words a mistyped one is likely meant as (``greem``: green).
_HINTS = [
    *COLOR_NAMES[:5],
    *_ABILITY_WORDS,
    "crown",
    "crowns",
    "points",
    "point",
    "double",
    "level",
]
#: Words that carry no constraint of their own.
_FILLER = {"a", "an", "the", "card", "cards", "with", "and", "of", "bonus", "ability", "play"}


def _words(query: str) -> list[str]:
    """Lower-case words, numbers glued to the unit that follows them (``3 points`` →
    ``3points``, ``level 2`` → ``level2``)."""
    raw = [w for w in re.split(r"[\s,;/+]+", query.strip().lower()) if w]
    out: list[str] = []
    i = 0
    while i < len(raw):
        w = raw[i]
        nxt = raw[i + 1] if i + 1 < len(raw) else None
        if nxt is not None and _NUMBER.fullmatch(w) and re.fullmatch(r"[a-z]+", nxt):
            out.append(w + nxt)  # "3 points", "2 crowns"
            i += 2
            continue
        if nxt is not None and w in ("level", "lvl", "lv", "l") and _NUMBER.fullmatch(nxt):
            out.append(w + nxt)  # "level 2"
            i += 2
            continue
        if nxt is not None and w in ("points", "crowns") and _NUMBER.fullmatch(nxt):
            out.append(nxt + w)  # "points 3"
            i += 2
            continue
        out.append(w)
        i += 1
    return out


def _test(word: str, in_cost: bool) -> Test | None:
    """The constraint one query word puts on a card, or None for a filler word."""
    if in_cost:
        m = _COST_ITEM.fullmatch(word)
        if m:
            color, n = COLOR_LETTERS.lower().index(m.group(1)), int(m.group(2))
            return lambda c: c.cost[color] == n
    if word in _FILLER:
        return None
    if word in COLOR_NAMES[:5] or (len(word) == 1 and word in _COLOR_LETTERS):
        color = COLOR_NAMES.index(word) if len(word) > 1 else _COLOR_LETTERS.index(word)
        return lambda c: c.color == color and not c.is_joker
    if word in _ABILITY_WORDS:
        ability = _ABILITY_WORDS[word]
        if ability == "wild":
            return lambda c: c.is_joker
        return lambda c: ability in c.abilities
    if word in ("crown", "crowns"):
        return lambda c: c.crowns > 0
    if word in ("points", "point", "prestige"):
        return lambda c: c.points > 0
    if word in ("double", "x2"):
        return lambda c: c.bonus == 2
    if word in ("nobonus", "no-bonus"):
        return lambda c: c.bonus == 0
    m = _LEVEL.fullmatch(word)
    if m:
        level = int(m.group(1))
        return lambda c: c.level == level
    m = _POINTS.fullmatch(word)
    if m:
        points = int(m.group(1))
        return lambda c: c.points == points
    m = _CROWNS.fullmatch(word)
    if m:
        crowns = int(m.group(1))
        return lambda c: c.crowns == crowns
    hint = did_you_mean(word, _HINTS)
    raise CardQueryError(f"{word!r} is not something printed on a card{hint} ({_HELP})")


def card_id(text: str) -> str | None:
    """The catalogue id ``text`` names (``2-5`` → ``2-05``), or None."""
    m = _ID.fullmatch(text.strip())
    if m is None:
        return None
    cid = f"{m.group(1)}-{int(m.group(2)):02d}"
    return cid if cid in CARDS else None


def query_tests(query: str) -> list[tuple[str, Test]]:
    """Each word of ``query`` that constrains a card, with its test (filler words
    dropped); CardQueryError names a word that fits nothing printed on a card.  ``cost``
    makes the colour-and-count words after it (``B3``) cost items; a colour-and-count
    word is a cost item anywhere (no other word reads the same)."""
    tests: list[tuple[str, Test]] = []
    in_cost = False
    for word in _words(query):
        if word == "cost":
            in_cost = True
            continue
        if word.endswith("x2") and len(word) > 2:  # "whitex2": a white card, double bonus
            tests.append((word, lambda c: c.bonus == 2))
            word = word[:-2]
        test = _test(word, in_cost or _COST_ITEM.fullmatch(word) is not None)
        if test is not None:
            tests.append((word, test))
    return tests


def find_cards(query: str, candidates: Iterable[str] | None = None) -> list[JewelCard]:
    """The cards (of ``candidates``, default all) that fit every word of ``query``, by id.

    An id matches its card; ``cost`` makes the colour-and-count words after it (``B3``)
    cost items.  CardQueryError names a word that fits nothing printed on a card."""
    pool = [CARDS[cid] for cid in (CARDS if candidates is None else candidates)]
    exact = card_id(query)
    if exact is not None:
        return [c for c in pool if c.id == exact]
    tests = [t for _, t in query_tests(query)]
    return sorted((c for c in pool if all(t(c) for t in tests)), key=lambda c: c.id)


_ROYAL_ID = re.compile(r"r-([1-4])")
_ROYAL_HELP = "royal, R-1 .. R-4, 2 points / 3pt, again, privilege, steal"


def royal_words(royal: RoyalCard) -> str:
    """What is printed on a Royal card, as :func:`find_royals` reads it back: ``royal
    2pt steal``.

    >>> [royal_words(r) for r in ROYALS.values()]
    ['royal 2pt steal', 'royal 2pt again', 'royal 2pt privilege', 'royal 3pt']
    """
    return " ".join(["royal", f"{royal.points}pt", *([royal.ability] if royal.ability else [])])


def find_royals(query: str, candidates: Iterable[str] | None = None) -> list[RoyalCard] | None:
    """The Royal cards (of ``candidates``, default all four) that fit every word of
    ``query``, when it asks for Royal cards (the word ``royal``, or an id ``R-4``); None
    when it does not (a query for jewel cards).  CardQueryError names a word that fits
    nothing printed on a Royal card.

    >>> [r.id for r in find_royals("royal steal")], [r.id for r in find_royals("R-4")]
    (['R-1'], ['R-4'])
    >>> [r.id for r in find_royals("royal 2 points")], find_royals("green 3 points")
    (['R-1', 'R-2', 'R-3'], None)
    """
    words = _words(query)
    if not any(w in ("royal", "royals") or _ROYAL_ID.fullmatch(w) for w in words):
        return None
    tests: list[Callable[[RoyalCard], bool]] = []
    for word in words:
        if word in ("royal", "royals", "points", "point", "prestige") or word in _FILLER:
            continue
        m = _ROYAL_ID.fullmatch(word)
        if m:
            rid = f"R-{m.group(1)}"
            tests.append(_royal_test("id", rid))
            continue
        m = _POINTS.fullmatch(word)
        if m:
            points = int(m.group(1))
            tests.append(_royal_test("points", points))
            continue
        ability = _ABILITY_WORDS.get(word)
        if ability is None or ability == "wild":
            raise CardQueryError(
                f"{word!r} is not something printed on a Royal card ({_ROYAL_HELP})"
            )
        tests.append(_royal_test("ability", ability))
    pool = [ROYALS[rid] for rid in (ROYALS if candidates is None else candidates)]
    return [r for r in pool if all(t(r) for t in tests)]


def _royal_test(name: str, value: object) -> Callable[[RoyalCard], bool]:
    """Whether a Royal card's ``name`` (id, points, ability) is ``value``."""
    return lambda r: bool(getattr(r, name) == value)


def misfit(query: str, card: JewelCard) -> str | None:
    """The first word of ``query`` that ``card`` does not fit (None: it fits them all).

    >>> misfit("white 3pt 2cr", CARDS["3-01"]), misfit("L3 red 3pt", CARDS["3-01"])
    (None, 'red')
    """
    exact = card_id(query)
    if exact is not None:
        return None if exact == card.id else query.strip()
    for word, test in query_tests(query):
        if not test(card):
            return word
    return None


def card_words(card: JewelCard) -> str:
    """What is printed on a card, as :func:`find_cards` reads it back: ``L3 white 3pt 2cr
    cost B3 R5 K3 P1`` (the catalogue's own description)."""
    return card.describe()


__all__ = [
    "ABILITIES",
    "CardQueryError",
    "card_id",
    "card_words",
    "find_cards",
    "misfit",
    "query_tests",
]


@functools.cache
def cards() -> Mapping[str, Card]:
    """Every jewel card by id, as :meth:`engine.protocol.GameRules.cards` gives them."""
    return {cid: _card(c) for cid, c in CARDS.items()}


def find(query: str, state: Any | None = None) -> list[Card]:
    """The cards that fit every word of ``query`` (``green 3 points crown``, ``level 2
    joker``, ``steal``, an id), by id; with ``state``, only those still unseen there
    (in a deck or reserved blind).  A query with ``royal`` or a Royal card's id
    (``R-4``) finds Royal cards (with ``state``, those still to be taken).  A word that
    fits nothing printed on a card raises :class:`CardQueryError` (a ValueError) naming
    it."""
    royals = find_royals(query, None if state is None else state.royals)
    if royals is not None:
        return [
            Card(
                r.id,
                0,
                royal_words(r),
                {"points": r.points, "abilities": [r.ability] if r.ability else []},
            )
            for r in royals
        ]
    candidates = None if state is None else set().union(*state.unseen)
    return [_card(c) for c in find_cards(query, candidates)]


def _card(c: JewelCard) -> Card:
    """A catalogue card as the protocol's :class:`engine.protocol.Card`."""
    color = "joker" if c.is_joker else (COLOR_NAMES[c.color] if c.color is not None else None)
    facts = {
        "color": color,
        "bonus": c.bonus,
        "points": c.points,
        "crowns": c.crowns,
        "abilities": list(c.abilities),
        "cost": {COLOR_NAMES[i]: n for i, n in enumerate(c.cost) if n},
    }
    return Card(c.id, c.level, c.describe(), facts)
