"""Reading the arguments of a decision: spaces, cards, colours, token counts, players.

A decision reader raises :class:`engine.notation.grammar.Fail` with the index of the
argument at fault; the reader of the game or of one move turns it into a positioned
NotationError.

>>> space(["c3"], 0), card(["2-5"], 0), counts(["B1", "RRY"], 0, 2)
(12, '2-05', (0, 1, 0, 2, 0, 0, 1))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...errors import Rule
from ...notation.grammar import Fail as Fail
from ...notation.lexer import unescape
from ..catalogue import CARDS, COLOR_LETTERS, SPACE_NAMES, color_index
from ..events import Counts
from ..lookup import CardQueryError, find_cards, misfit
from ..position import counts_text as _counts_text
from .players import find_player, listing, numbers

#: Citation for notation-level inconsistencies (what the log says against the position).
NOTATION_RULE = Rule("the log must agree with the position", None, "tablelog notation")

CARD_RE = re.compile(r"(\d)-(\d{1,2})")
LEVEL_RE = re.compile(r"[Ll]([123])")
COUNTS_RE = re.compile(r"(?:[WBGRKPY]\d{0,2})+")
COUNT_ITEM_RE = re.compile(r"([WBGRKPY])(\d{0,2})")
LETTERS_RE = re.compile(r"[WBGRKPY]+")
SPACE_RE = re.compile(r"[a-z]\d+")
SPACES = {name: i for i, name in enumerate(SPACE_NAMES)}
LETTER = {c: i for i, c in enumerate(COLOR_LETTERS)}


class Context:
    """What a decision reader may need besides its arguments: the seat names, and whether
    an observation may be left out (``unobserved``: a move being checked, not logged; a
    replenish without its draws is then checked by the rules that do not depend on them)."""

    __slots__ = ("names", "unobserved")

    def __init__(self, names: Sequence[str], unobserved: bool = False):
        self.names = tuple(names)
        self.unobserved = unobserved

    def player(self, args: list[str], i: int) -> int:
        """The seat argument ``i`` names (a name, or ``#1`` / ``#2``)."""
        seat = find_player(self.names, args[i])
        if seat is None:
            raise Fail(
                "unknown",
                i,
                f"no player {args[i]!r} (the players are {listing(self.names)},"
                f" or {numbers(len(self.names))})",
            )
        return seat


def counts_text(counts: Sequence[int]) -> str:
    """Token counts as the notation writes them: ``B1 R2 Y1`` (WBGRKPY order)."""
    return _counts_text(counts, " ", "")


def space(args: list[str], i: int, what: str = "a board space") -> int:
    """The board space argument ``i`` names."""
    tok = args[i]
    s = SPACES.get(tok)
    if s is not None:
        return s
    if SPACE_RE.fullmatch(tok.lower()):
        raise Fail("unknown", i, f"no space {tok!r} on the board (columns a-e, rows 1-5)")
    raise Fail("syntax", i, f"expected {what} such as c3, got {tok!r}")


def card(args: list[str], i: int) -> str:
    """The Jewel card argument ``i`` names (``2-5`` reads as ``2-05``)."""
    tok = args[i]
    if tok in CARDS:
        return tok
    m = CARD_RE.fullmatch(tok)
    if m:
        cid = f"{m.group(1)}-{int(m.group(2)):02d}"
        if cid in CARDS:
            return cid
        raise Fail("unknown", i, f"no Jewel card {tok!r} in the catalogue (ids 1-01 .. 3-13)")
    raise Fail("syntax", i, f"expected a card id such as 2-05, got {tok!r}")


def color(args: list[str], i: int) -> int:
    """The colour argument ``i`` names (a letter or a name)."""
    tok = args[i]
    c = LETTER.get(tok)
    if c is not None:
        return c
    try:
        return color_index(tok)
    except KeyError:
        raise Fail(
            "unknown", i, f"unknown colour {tok!r} (a letter among WBGRKPY, or a name)"
        ) from None


def description(args: list[str], i: int) -> str:
    """The text of the quoted description argument ``i`` (``"white 3pt"``)."""
    tok = args[i]
    if len(tok) < 2 or not tok.endswith('"') or tok.endswith('\\"'):
        raise Fail("syntax", i, 'this description is never closed with "')
    return unescape(tok[1:-1])


def check_description(args: list[str], i: int, cid: str) -> None:
    """A quoted description after a card must describe it: every word must fit (the words
    :func:`engine.splendor_duel.lookup.find_cards` reads)."""
    c = CARDS[cid]
    try:
        word = misfit(description(args, i), c)
    except CardQueryError as err:
        raise Fail(
            "unknown", i, f"{args[i]} does not describe {cid} ({c.describe()}): {err}"
        ) from None
    if word is not None:
        raise Fail(
            "unknown",
            i,
            f"{args[i]} does not describe {cid} ({c.describe()}): {word!r} does not fit",
        )


def described_card(
    args: list[str], i: int, candidates: Iterable[str] | None, where: str
) -> str | None:
    """The card the quoted description argument ``i`` names in place of an id: the one
    of ``candidates`` (the cards that may stand ``where``) it fits; None when the position
    is not known yet (``candidates`` None).  A description that fits several cards is an
    ``unknown`` error listing them."""
    query = description(args, i)
    if candidates is None:
        return None
    try:
        found = find_cards(query, candidates)
    except CardQueryError as err:
        raise Fail("unknown", i, str(err)) from None
    if len(found) == 1:
        return found[0].id
    if not found:
        raise Fail("unknown", i, f"no card {where} fits {args[i]}")
    shown = ", ".join(f"{c.id} ({c.describe()})" for c in found[:6])
    more = f" and {len(found) - 6} more" if len(found) > 6 else ""
    raise Fail(
        "unknown",
        i,
        f"{args[i]} fits {len(found)} cards {where}: {shown}{more}; "
        "say which (an id, or more words)",
    )


def counts(args: list[str], start: int, stop: int) -> Counts:
    """Token counts from arguments ``start`` to ``stop`` (``B1 R2 Y1`` or ``BRRY``)."""
    out = [0] * 7
    for i in range(start, stop):
        tok = args[i]
        if not COUNTS_RE.fullmatch(tok):
            raise Fail("syntax", i, f"expected tokens such as B1 R2 Y1 or BRRY, got {tok!r}")
        for m in COUNT_ITEM_RE.finditer(tok):
            out[LETTER[m.group(1)]] += int(m.group(2)) if m.group(2) else 1
    return tuple(out)  # type: ignore[return-value]


def paren_counts(args: list[str], i: int) -> Counts:
    """Token counts in brackets: a payment ``(B1 R2 Y1)``, ``()`` or ``(-)`` for none."""
    inner = args[i][1:-1].split()
    if not inner or inner == ["-"]:
        return (0, 0, 0, 0, 0, 0, 0)
    try:
        return counts(inner, 0, len(inner))
    except Fail as f:
        raise Fail("syntax", i, f.message) from None


def is_payment(tok: str) -> bool:
    """Is this bracketed token a payment (rather than a note)?"""
    inner = tok[1:-1].strip()
    return tok.endswith(")") and (
        not inner or inner == "-" or all(COUNTS_RE.fullmatch(part) for part in inner.split())
    )


def expect(args: list[str], count: int, usage: str) -> None:
    """Exactly ``count`` arguments, else say the ``usage``."""
    if len(args) != count:
        raise Fail(
            "syntax",
            min(len(args), count) if len(args) > count else -1,
            f"expected {usage}",
        )


def by(args: list[str], start: int, ctx: Context) -> int | None:
    """``by PLAYER`` from argument ``start``; None when the decision names nobody."""
    if len(args) == start:
        return None
    if args[start] != "by" or len(args) != start + 2:
        refs = " / ".join(f"#{seat + 1}" for seat in range(len(ctx.names)))
        raise Fail("syntax", start, f"expected by PLAYER (a name, or {refs})")
    return ctx.player(args, start + 1)
