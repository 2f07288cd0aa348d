"""The decisions about Royal cards and resigning, read and written: ``royal``, ``resign``.

>>> from .arguments import Context
>>> read_royal(["r3"], None, Context(("Ann", "Bob")))
RoyalTaken(royal='R-3')
>>> read_resign(["by", "Bob"], None, Context(("Ann", "Bob")))
PlayerResigned(player=1)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..catalogue import ROYALS
from ..events import Event, PlayerResigned, RoyalTaken
from ..state import SETUP, State
from .arguments import Context, Fail, by, expect
from .players import player_ref

_ROYAL_RE = re.compile(r"[Rr]-?(\d)")


def read_royal(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``royal R-2``: the Royal card taken on the 3rd or 6th crown."""
    expect(args, 1, "royal R-1 .. R-4")
    tok = args[0]
    rid = tok if tok in ROYALS else None
    if rid is None:
        m = _ROYAL_RE.fullmatch(tok)
        if not m:
            raise Fail("syntax", 0, f"expected a Royal card R-1 .. R-4, got {tok!r}")
        rid = f"R-{m.group(1)}"
        if rid not in ROYALS:
            raise Fail("unknown", 0, f"no Royal card {tok!r} (R-1 .. R-4)")
    return RoyalTaken(rid)


def read_resign(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``resign [by PLAYER]`` (without ``by``: the player to move)."""
    who = by(args, 0, ctx)
    if who is None:
        if state is None:
            return None
        who = state.current
    return PlayerResigned(who)


def write_royal(state: State, event: Any, names: Sequence[str]) -> str:
    """``royal R-2``."""
    return f"royal {event.royal}"


def write_resign(state: State, event: Any, names: Sequence[str]) -> str:
    """``resign``, with ``by PLAYER`` when it is not the player to move (or before the
    setup)."""
    if event.player == state.current and state.awaiting != SETUP:
        return "resign"
    return f"resign by {player_ref(names, event.player)}"
