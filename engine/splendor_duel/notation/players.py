"""How the notation names the seats: the names from the headers (``[Player1 "..."]``,
``[Player2 "..."]``, ...), the default names, and a player as a decision refers to one
(a bare name, a quoted name, or ``#1``, ``#2``...).

>>> player_ref(("Alice", "Bob"), 1), player_ref(("Ann Lee", "Bob"), 0), player_ref(("A", "A"), 1)
('Bob', '"Ann Lee"', '#2')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from ...notation.lexer import SIMPLE_NAME, escape, unescape
from ...notation.visitor import SEAT_TAG as SEAT_TAG
from ...notation.visitor import listing as listing
from ...notation.visitor import seat_number as seat_number
from ...notation.visitor import seat_tag as seat_tag
from ...protocol import Seats
from ..state import SEATS
from .keywords import KEYWORDS


def seats() -> Seats:
    """How many players Splendor Duel seats and their default names (the game's one
    :class:`engine.protocol.Seats`)."""
    return SEATS


@cache
def default_names() -> tuple[str, ...]:
    """``Player 1``, ``Player 2``: the seats when nobody named them."""
    return seats().default_names()


def header_names(headers: Mapping[str, Any] | None) -> tuple[tuple[str, ...], bool]:
    """The seat names and whether the headers gave them (every seat, each a name)."""
    players = (headers or {}).get("players")
    s = seats()
    if (
        isinstance(players, (list, tuple))
        and s.minimum <= len(players) <= s.maximum
        and all(isinstance(p, str) and p.strip() for p in players)
    ):
        return tuple(players), True
    return default_names(), False


def distinct(names: Sequence[str]) -> bool:
    """No two seats share a name (else decisions name seats by number)."""
    return len(set(names)) == len(names)


def numbers(count: int) -> str:
    """``#1 and #2`` (``#1, #2 and #3`` ...)."""
    refs = [f"#{i + 1}" for i in range(count)]
    return ", ".join(refs[:-1]) + " and " + refs[-1]


def player_ref(names: Sequence[str], seat: int) -> str:
    """How a decision names a player: the name when it is one distinct word, else ``#1``."""
    name = names[seat]
    if distinct(names) and SIMPLE_NAME.fullmatch(name) and name not in KEYWORDS:
        return name
    if distinct(names) and "\n" not in name:
        return '"' + escape(name, '"') + '"'
    return f"#{seat + 1}"


def find_player(names: Sequence[str], tok: str) -> int | None:
    """The seat a decision's ``PLAYER`` argument names (exact name first, then any case,
    then ``#N``), None if none."""
    if tok.startswith('"') and tok.endswith('"') and len(tok) >= 2:
        tok = unescape(tok[1:-1])
    for seat, name in enumerate(names):
        if tok == name:
            return seat
    for seat, name in enumerate(names):
        if tok.lower() == name.lower():
            return seat
    return seat_number(tok, len(names))
