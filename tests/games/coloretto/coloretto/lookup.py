"""Cards by what is printed on them: a colour, a joker, a "+2", the last-round card.

A card's id is its kind's word (``green``, ``joker``, ``plus``, ``last``): the cards of
one kind are alike, and the notation names them so.

>>> [c.id for c in find("green")], [c.id for c in find("+2")], [c.id for c in find("J")]
(['green'], ['plus'], ['joker'])
>>> [c.id for c in find("last round")]
['last']
>>> find("purple")
Traceback (most recent call last):
...
coloretto.lookup.CardQueryError: 'purple' is not something printed on a card \
(a colour: blue, brown, green, grey, orange, pink, yellow; joker; +2; last round; or an id)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import EngineError
from engine.notation.lexer import did_you_mean
from engine.protocol import Card

from .cards import COLOURS, JOKER, LAST, LETTERS, PLUS, PLUS_POINTS, WORDS, kind_of
from .state import SETUP, State


def _words(kind: int) -> str:
    if kind < len(COLOURS):
        return f"{WORDS[kind]} card (a chameleon)"
    return {
        JOKER: "joker (a chameleon of every colour: any colour at the end)",
        PLUS: f"+2 card ({PLUS_POINTS} points)",
        LAST: "last round card",
    }[kind]


def _facts(kind: int) -> dict[str, Any]:
    if kind < len(COLOURS):
        return {"color": WORDS[kind], "letter": LETTERS[kind], "points": 0}
    return {"color": WORDS[kind], "letter": LETTERS[kind], "points": PLUS_POINTS * (kind == PLUS)}


#: Every kind of card as a look-up record (the words are the card's description).
CATALOGUE: dict[str, Card] = {WORDS[k]: Card(WORDS[k], 0, _words(k), _facts(k)) for k in range(10)}

_HELP = f"a colour: {', '.join(COLOURS)}; joker; +2; last round; or an id"


def _split(text: str) -> list[str]:
    """The lower-case words of ``text``, brackets, commas and colons apart."""
    for mark in "(),:":
        text = text.replace(mark, " ")
    return text.lower().split()


#: Every word of every card's description, and the words a kind is known by.
_VOCABULARY = frozenset(w for c in CATALOGUE.values() for w in _split(c.words)) | frozenset(
    {"+2", "plus", "gray", "red", "round", "the"}
)


class CardQueryError(EngineError, ValueError):
    """A query word that is not something printed on a card."""


def _kinds(word: str) -> set[int]:
    """The kinds a query word fits."""
    k = kind_of(word)
    if k is not None:
        return {k}
    return {i for i, c in enumerate(CATALOGUE.values()) if word in _split(c.words)}


def cards() -> Mapping[str, Card]:
    """Every card by id, as :meth:`engine.protocol.GameRules.cards` gives them."""
    return CATALOGUE


def find(query: str, state: State | None = None) -> list[Card]:
    """Cards whose printed facts match every word of ``query`` (an id matches itself);
    with ``state``, only the cards the supply may still show there."""
    q = query.strip()
    if q in CATALOGUE:
        found = [CATALOGUE[q]]
    else:
        kinds = set(range(len(CATALOGUE)))
        for word in _split(q):
            fits = _kinds(word)
            if not fits and word not in _VOCABULARY:
                hint = did_you_mean(word, sorted(w for w in _VOCABULARY if w.isalpha()))
                raise CardQueryError(f"{word!r} is not something printed on a card{hint} ({_HELP})")
            if fits:
                kinds &= fits
        found = [CATALOGUE[WORDS[k]] for k in sorted(kinds)]
    if state is not None and state.awaiting != SETUP:
        found = [c for c in found if _may_show(state, kind_of(c.id))]
    return found


def _may_show(state: State, kind: int | None) -> bool:
    if kind is None:
        return False
    if kind == LAST:
        return not state.last_drawn
    return state.unseen[kind] > 0
