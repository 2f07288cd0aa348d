"""How the notation names the seats: the names from the headers (``[Player1 "..."]``,
``[Player2 "..."]``, ...), the default names, and a player as a decision refers to one
(a bare name, a quoted name, or ``#1``, ``#2``...).

>>> player_ref(("Alice", "Bob"), 1), player_ref(("Ann Lee", "Bob"), 0), player_ref(("A", "A"), 1)
('Bob', '"Ann Lee"', '#2')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from ...protocol import Seats
from ..state import SEATS
from .lexer import KEYWORDS, SIMPLE_NAME, escape, unescape

#: A header that names a seat: ``Player1`` .. ``PlayerN``.
SEAT_TAG = re.compile(r"Player([1-9][0-9]?)")


def seats() -> Seats:
    """How many players Splendor Duel seats and their default names (the game's one
    :class:`engine.protocol.Seats`)."""
    return SEATS


@cache
def default_names() -> tuple[str, ...]:
    """``Player 1``, ``Player 2``: the seats when nobody named them."""
    return seats().default_names()


def seat_tag(seat: int) -> str:
    """The header naming seat ``seat`` (0-based): ``Player1``..."""
    return f"Player{seat + 1}"


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


def listing(names: Sequence[str]) -> str:
    """``'Ann' and 'Bob'`` (``'Ann', 'Bob' and 'Cid'`` for more seats)."""
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def numbers(count: int) -> str:
    """``#1 and #2`` (``#1, #2 and #3`` ...)."""
    refs = [f"#{i + 1}" for i in range(count)]
    return ", ".join(refs[:-1]) + " and " + refs[-1]


def seat_number(ref: str, count: int) -> int | None:
    """The seat ``#2`` stands for (0-based), None if it names no seat."""
    for seat in range(count):
        if ref == f"#{seat + 1}":
            return seat
    return None


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
