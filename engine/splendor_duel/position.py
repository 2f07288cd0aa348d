"""The position string: one line of text that describes a Splendor Duel state completely,
as FEN does for chess, so a dispute can be checked without the whole game.

Seventeen fields separated by single spaces (``docs/notation.md`` documents each one)::

    board bag pyramid decks player1 player2 privileges royals first to_move turn
    awaiting pending flags refill last_card outcome

>>> from engine.splendor_duel.state import State
>>> text = position_string(State())
>>> text.split()[:4]
['...../...../...../...../.....', '-', '_/_/_', '30/24/13']
>>> states_equal(parse_position(text), State())
True

Fields the fold derives (bonuses, points per colour, points, crowns, the set of unseen
cards) are left out; in the rare state where the stored value differs from the derived
one (a move forced through although illegal), it is appended as ``key=value``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..decks import decks_problem, twice
from ..errors import EngineError
from .catalogue import (
    CARDS,
    CARDS_BY_LEVEL,
    COLOR_LETTERS,
    EMPTY,
    PRIVILEGES,
    ROYALS,
    TOKEN_COUNTS,
)
from .state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    SETUP,
    STEAL,
    Outcome,
    PlayerState,
    State,
)

AWAITING = (SETUP, ACTION, COLOR, BONUS_TOKEN, STEAL, ROYAL, DISCARD, REVEAL, OVER)
RESOLUTIONS = (COLOR, BONUS_TOKEN, STEAL, ROYAL)
CONDITIONS = ("points", "crowns", "color", "resignation")
FIELDS = (
    "board",
    "bag",
    "pyramid",
    "decks",
    "player1",
    "player2",
    "privileges",
    "royals",
    "first",
    "to_move",
    "turn",
    "awaiting",
    "pending",
    "flags",
    "refill",
    "last_card",
    "outcome",
)


class PositionError(EngineError, ValueError):
    """A position string that cannot be read; ``column`` is 1-based, ``kind`` is
    ``syntax`` or ``unknown`` (an unknown card, royal or colour)."""

    def __init__(self, message: str, column: int, kind: str = "syntax"):
        self.message = message
        self.column = column
        self.kind = kind
        super().__init__(f"column {column}: {message}")


# --- writing ---------------------------------------------------------------------------


def counts_text(counts: Sequence[int], sep: str = "", empty: str = "-") -> str:
    """``W2B1Y1`` for two white, one blue and one Gold; ``-`` for none.  The notation
    writes the same counts apart (``sep=" "``: ``W2 B1 Y1``) and nothing for none."""
    out = sep.join([f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(counts) if n])
    return out or empty


#: A board space's letter, by the colour index it holds; an empty one (EMPTY, -1) is the
#: last letter, ``.``.
_SPACE_LETTERS = COLOR_LETTERS + "."
assert _SPACE_LETTERS[EMPTY] == "."


#: Each card's colour when the position does not write it: its printed bonus (None for
#: a joker, whose colour is chosen when bought, and for a card without bonus).
_DEFAULT_COLOR: dict[str, int | None] = {
    cid: None if card.is_joker else card.color for cid, card in CARDS.items()
}
#: Per level, the ids of its cards.
_LEVEL_IDS: tuple[set[str], ...] = tuple(set(ids) for ids in CARDS_BY_LEVEL)


def _player_text(p: PlayerState) -> str:
    default = _DEFAULT_COLOR
    cards = [
        cid if color == default[cid] else f"{cid}={'-' if color is None else COLOR_LETTERS[color]}"
        for cid, color in p.cards
    ]
    reserved = [cid if cid is not None else f"L{lv}?" for lv, cid in p.reserved]
    if any(cid is not None and CARDS[cid].level != lv for lv, cid in p.reserved):
        reserved = [f"L{lv}={cid}" if cid is not None else f"L{lv}?" for lv, cid in p.reserved]
    return "/".join(
        (
            counts_text(p.tokens),
            ",".join(cards) or "-",
            ",".join(reserved) or "-",
            str(p.privileges),
            ",".join(p.royals) or "-",
            str(p.royals_due),
        )
    )


def derived_unseen(state: State) -> list[set[str]]:
    """Per level, the cards whose place the position does not show: in the deck or
    reserved blind.  The fold keeps exactly this set in ``State.unseen``."""
    seen = {cid for row in state.pyramid for cid in row}
    for p in state.players:
        seen.update([cid for cid, _ in p.cards])
        seen.update([rid for _, rid in p.reserved])
    return [ids - seen for ids in _LEVEL_IDS]


def _derived(p: PlayerState) -> tuple[list[int], list[int], int, int]:
    """Bonuses, points per colour, points and crowns as the fold derives them from the
    player's cards and royals."""
    bonuses = [0] * 5
    color_points = [0] * 5
    points = crowns = 0
    for cid, color in p.cards:
        card = CARDS[cid]
        points += card.points
        crowns += card.crowns
        if color is not None:
            bonuses[color] += card.bonus
            color_points[color] += card.points
    return bonuses, color_points, points + sum(ROYALS[r].points for r in p.royals), crowns


def _overrides(state: State) -> list[str]:
    out: list[str] = []
    for seat, p in enumerate(state.players, start=1):
        bonuses, color_points, points, crowns = _derived(p)
        if bonuses != p.bonuses:
            out.append(f"{seat}.bonuses={','.join(map(str, p.bonuses))}")
        if color_points != p.color_points:
            out.append(f"{seat}.color_points={','.join(map(str, p.color_points))}")
        if points != p.points:
            out.append(f"{seat}.points={p.points}")
        if crowns != p.crowns:
            out.append(f"{seat}.crowns={p.crowns}")
    derived = derived_unseen(state)
    for level in range(3):
        if derived[level] != state.unseen[level]:
            out.append(f"unseen{level + 1}={','.join(sorted(state.unseen[level])) or '-'}")
    return out


def position_string(state: State) -> str:
    """The position string of ``state`` (see the module docstring and docs/notation.md)."""
    board = "".join(map(_SPACE_LETTERS.__getitem__, state.board))
    rows = f"{board[0:5]}/{board[5:10]}/{board[10:15]}/{board[15:20]}/{board[20:25]}"
    pyramid = "/".join([",".join([c or "-" for c in row]) if row else "_" for row in state.pyramid])
    flags = ("r" if state.replenished else "") + ("x" if state.extra_turn else "")
    refill = "-" if state.refill is None else f"{state.refill[0] + 1}.{state.refill[1] + 1}"
    o = state.outcome
    if o is None:
        outcome = "-"
    else:
        outcome = f"{o.winner + 1}:{o.condition}"
        if o.color is not None:
            outcome += f":{COLOR_LETTERS[o.color]}"
    fields = [
        rows,
        counts_text(state.bag),
        pyramid,
        "/".join(str(n) for n in state.decks),
        _player_text(state.players[0]),
        _player_text(state.players[1]),
        str(state.table_privileges),
        ",".join(state.royals) or "-",
        str(state.first_player + 1),
        str(state.current + 1),
        str(state.turn),
        state.awaiting,
        ",".join(state.pending) or "-",
        flags or "-",
        refill,
        state.last_card or "-",
        outcome,
    ]
    fields.extend(_overrides(state))
    return " ".join(fields)


# --- reading ---------------------------------------------------------------------------

_COUNTS_RE = re.compile(r"(?:[WBGRKPY]\d{1,2})+")
_COUNT_ITEM_RE = re.compile(r"([WBGRKPY])(\d{1,2})")
_CARD_RE = re.compile(r"[123]-\d\d")
_FIELD_RE = re.compile(r"\S+")
#: A reserved card as written: ``L2?`` (face down, not identified) or ``L2=2-05``.
_BLIND_RE = re.compile(r"L([123])(?:\?|=(.+))")


class _Reader:
    """Reads the fields of one position string, keeping the column for error messages."""

    def __init__(self, text: str):
        self.text = text
        self.fields: list[tuple[str, int]] = [
            (m.group(), m.start() + 1) for m in _FIELD_RE.finditer(text)
        ]

    def fail(self, message: str, column: int, kind: str = "syntax") -> PositionError:
        return PositionError(message, column, kind)

    def counts(self, value: str, column: int, what: str) -> list[int]:
        counts = [0] * 7
        if value == "-":
            return counts
        if not _COUNTS_RE.fullmatch(value):
            raise self.fail(
                f"{what}: expected token counts such as W2B1Y1 (letters WBGRKPY), or -, "
                f"got {value!r}",
                column,
            )
        for m in _COUNT_ITEM_RE.finditer(value):
            counts[COLOR_LETTERS.index(m.group(1))] += int(m.group(2))
        return counts

    def card(self, value: str, column: int, what: str) -> str:
        if value not in CARDS:
            kind = "unknown" if _CARD_RE.fullmatch(value) else "syntax"
            raise self.fail(
                f"{what}: no Jewel card {value!r} in the catalogue (ids 1-01 .. 3-13)",
                column,
                kind,
            )
        return value

    def number(self, value: str, column: int, what: str, low: int, high: int) -> int:
        if not value.isdigit() or not low <= int(value) <= high:
            raise self.fail(
                f"{what}: expected a number from {low} to {high}, got {value!r}", column
            )
        return int(value)

    def color(self, value: str, column: int, what: str) -> int:
        if len(value) != 1 or value not in COLOR_LETTERS:
            raise self.fail(f"{what}: expected a colour letter (WBGRKPY), got {value!r}", column)
        return COLOR_LETTERS.index(value)


def _split(value: str, sep: str, column: int) -> list[tuple[str, int]]:
    """Split ``value`` at ``sep``, keeping each part's column."""
    out = []
    for part in value.split(sep):
        out.append((part, column))
        column += len(part) + 1
    return out


def parse_position(text: str) -> State:
    """Rebuild the state a position string describes; PositionError names the column.

    The result is checked for what a typo would break: every token of the game is
    somewhere (4 of each gem colour, 2 Pearls, 3 Gold) and the 3 Privileges too.
    """
    r = _Reader(text)
    fields = r.fields
    if len(fields) < len(FIELDS):
        column = fields[-1][1] + len(fields[-1][0]) if fields else 1
        missing = FIELDS[len(fields)]
        raise r.fail(
            f"the position has {len(fields)} fields, {len(FIELDS)} are needed "
            f"(the next is {missing})",
            column,
        )
    s = State()
    (value, col) = fields[0]
    rows = _split(value, "/", col)
    if len(rows) != 5 or any(len(row) != 5 for row, _ in rows):
        raise r.fail("board: expected 5 rows of 5 letters (WBGRKPY or .) separated by /", col)
    for ri, (row_text, rcol) in enumerate(rows):
        for ci, ch in enumerate(row_text):
            if ch == ".":
                continue
            if ch not in COLOR_LETTERS:
                raise r.fail(
                    f"board: {ch!r} is not a token letter (WBGRKPY, . for empty)", rcol + ci
                )
            s.board[ri * 5 + ci] = COLOR_LETTERS.index(ch)
    value, col = fields[1]
    s.bag = r.counts(value, col, "bag")
    value, col = fields[2]
    levels = _split(value, "/", col)
    if len(levels) != 3:
        raise r.fail("pyramid: expected 3 levels (1/2/3) separated by /", col)
    pyramid: list[list[str | None]] = []
    for lv, (level_text, lcol) in enumerate(levels, start=1):
        row: list[str | None] = []
        if level_text != "_":
            what = f"pyramid level {lv}"
            for slot, scol in _split(level_text, ",", lcol):
                if slot == "-":
                    row.append(None)
                    continue
                cid = r.card(slot, scol, what)
                if CARDS[cid].level != lv:
                    raise r.fail(f"pyramid: {cid} is not a level-{lv} card", scol)
                row.append(cid)
        pyramid.append(row)
    s.pyramid = pyramid
    value, col = fields[3]
    decks = _split(value, "/", col)
    if len(decks) != 3:
        raise r.fail("decks: expected the 3 deck sizes as n/n/n", col)
    s.decks = [
        r.number(n, c, f"deck {lv}", 0, len(CARDS_BY_LEVEL[lv - 1]))
        for lv, (n, c) in enumerate(decks, start=1)
    ]
    for seat in (0, 1):
        value, col = fields[4 + seat]
        s.players[seat] = _parse_player(r, value, col, seat)
    value, col = fields[6]
    s.table_privileges = r.number(value, col, "privileges on the table", 0, PRIVILEGES)
    value, col = fields[7]
    royals: list[str] = []
    if value != "-":
        for rid, rcol in _split(value, ",", col):
            if rid not in ROYALS:
                raise r.fail(f"royals: no Royal card {rid!r} (R-1 .. R-4)", rcol, "unknown")
            royals.append(rid)
    s.royals = royals
    s.first_player = r.number(*fields[8], "first player", 1, 2) - 1
    s.current = r.number(*fields[9], "player to move", 1, 2) - 1
    s.turn = r.number(*fields[10], "turn", 0, 100000)
    value, col = fields[11]
    if value not in AWAITING:
        raise r.fail(f"awaiting: expected one of {', '.join(AWAITING)}, got {value!r}", col)
    s.awaiting = value
    value, col = fields[12]
    pending: list[str] = []
    if value != "-":
        for kind, kcol in _split(value, ",", col):
            if kind not in RESOLUTIONS:
                raise r.fail(
                    f"pending: expected resolutions among {', '.join(RESOLUTIONS)}, got {kind!r}",
                    kcol,
                )
            pending.append(kind)
    s.pending = pending
    value, col = fields[13]
    if value != "-" and (not set(value) <= {"r", "x"} or len(set(value)) != len(value)):
        raise r.fail(f"flags: expected -, r, x or rx, got {value!r}", col)
    s.replenished = "r" in value
    s.extra_turn = "x" in value
    value, col = fields[14]
    if value != "-":
        m = re.fullmatch(r"([123])\.([1-5])", value)
        if not m:
            raise r.fail(f"refill: expected - or level.slot such as 2.3, got {value!r}", col)
        s.refill = (int(m.group(1)) - 1, int(m.group(2)) - 1)
    value, col = fields[15]
    s.last_card = None if value == "-" else r.card(value, col, "last card")
    value, col = fields[16]
    if value != "-":
        parts = value.split(":")
        if len(parts) not in (2, 3) or parts[0] not in ("1", "2") or parts[1] not in CONDITIONS:
            raise r.fail(
                "outcome: expected - or winner:condition such as 1:points or 2:color:R, "
                f"got {value!r}",
                col,
            )
        color = None
        if len(parts) == 3:
            color = r.color(parts[2], col + len(parts[0]) + len(parts[1]) + 2, "outcome")
        s.outcome = Outcome(int(parts[0]) - 1, parts[1], color)
    for p in s.players:
        p.bonuses, p.color_points, p.points, p.crowns = _derived(p)
    s.unseen = derived_unseen(s)
    for value, col in fields[17:]:
        _apply_override(r, s, value, col)
    if s.awaiting != SETUP:
        _check_totals(r, s)
        _check_cards(r, s)
    _check_point(r, s)
    return s


def _check_point(r: _Reader, s: State) -> None:
    """The point of the turn must be one the fold can reach (what the engine relies on)."""
    aw, col = s.awaiting, r.fields[11][1]
    if aw in RESOLUTIONS and (not s.pending or s.pending[0] != aw):
        raise r.fail(f"awaiting {aw}: the pending resolutions must start with {aw}", col)
    if aw in (COLOR, BONUS_TOKEN) and s.last_card is None:
        raise r.fail(f"awaiting {aw}: the last card (field 16) must be given", col)
    if aw == BONUS_TOKEN and CARDS[s.last_card or "1-01"].color is None:
        raise r.fail(f"awaiting {aw}: {s.last_card} has no colour to take a token of", col)
    if aw == REVEAL and s.refill is None:
        raise r.fail("awaiting reveal: the pyramid slot to refill (field 15) must be given", col)
    if s.refill is not None:
        level, slot = s.refill
        if slot >= len(s.pyramid[level]):
            raise r.fail(
                f"refill: level {level + 1} of the pyramid has no slot {slot + 1}",
                r.fields[14][1],
            )
    if (aw == OVER) != (s.outcome is not None):
        raise r.fail("awaiting over goes with an outcome (field 17), and only it", col)


def _parse_player(r: _Reader, value: str, column: int, seat: int) -> PlayerState:
    who = f"player {seat + 1}"
    parts = _split(value, "/", column)
    if len(parts) != 6:
        raise r.fail(
            f"{who}: expected tokens/cards/reserved/privileges/royals/royals_due "
            f"(6 parts separated by /), got {len(parts)}",
            column,
        )
    p = PlayerState()
    p.tokens = r.counts(parts[0][0], parts[0][1], f"{who} tokens")
    text, col = parts[1]
    if text != "-":
        what = f"{who} cards"
        for item, icol in _split(text, ",", col):
            cid, _, color_text = item.partition("=")
            cid = r.card(cid, icol, what)
            color = _DEFAULT_COLOR[cid]
            if color_text:
                color = None if color_text == "-" else r.color(color_text, icol + 5, what)
                if color is not None and color >= 5:
                    raise r.fail(
                        f"{who} cards: a card counts as a gem colour (WBGRK), not {color_text!r}",
                        icol + 5,
                    )
            p.cards.append((cid, color))
    text, col = parts[2]
    if text != "-":
        for item, icol in _split(text, ",", col):
            m = _BLIND_RE.fullmatch(item)
            if m:
                level = int(m.group(1))
                rid = None
                if m.group(2) is not None:
                    rid = r.card(m.group(2), icol + 3, f"{who} reserved")
                p.reserved.append((level, rid))
            else:
                rid = r.card(item, icol, f"{who} reserved (an id, or L1? .. L3? for a blind one)")
                p.reserved.append((CARDS[rid].level, rid))
    p.privileges = r.number(parts[3][0], parts[3][1], f"{who} privileges", 0, PRIVILEGES)
    text, col = parts[4]
    if text != "-":
        for rid, rcol in _split(text, ",", col):
            if rid not in ROYALS:
                raise r.fail(f"{who} royals: no Royal card {rid!r} (R-1 .. R-4)", rcol, "unknown")
            p.royals.append(rid)
    p.royals_due = r.number(parts[5][0], parts[5][1], f"{who} royals due", 0, 2)
    return p


def _apply_override(r: _Reader, s: State, value: str, column: int) -> None:
    key, sep, data = value.partition("=")
    if not sep:
        raise r.fail(f"unexpected field {value!r} after the outcome", column)
    m = re.fullmatch(r"([12])\.(bonuses|color_points|points|crowns)", key)
    try:
        if m:
            p = s.players[int(m.group(1)) - 1]
            if m.group(2) in ("bonuses", "color_points"):
                numbers = [int(x) for x in data.split(",")]
                if len(numbers) != 5:
                    raise ValueError
                setattr(p, m.group(2), numbers)
            else:
                setattr(p, m.group(2), int(data))
            return
        m = re.fullmatch(r"unseen([123])", key)
        if m:
            level = int(m.group(1))
            ids = set() if data == "-" else set(data.split(","))
            for cid in ids:
                if cid not in CARDS or CARDS[cid].level != level:
                    raise r.fail(f"{key}: {cid!r} is not a level-{level} card", column, "unknown")
            s.unseen[level - 1] = ids
            return
    except ValueError:
        raise r.fail(f"{key}: malformed value {data!r}", column) from None
    raise r.fail(f"unknown field {key!r} after the outcome", column)


def _check_totals(r: _Reader, s: State) -> None:
    totals = s.token_totals()
    for c, n in enumerate(totals):
        if n != TOKEN_COUNTS[c]:
            raise r.fail(
                f"the position holds {n} {_COLOR_WORDS[c]} token{'s' if n != 1 else ''} in all "
                f"(board, bag and players); the game has {TOKEN_COUNTS[c]}",
                1,
            )
    held = s.table_privileges + s.players[0].privileges + s.players[1].privileges
    if held != PRIVILEGES:
        raise r.fail(
            f"the position holds {held} Privileges in all (table and players); the game has 3",
            r.fields[6][1],
        )


def _check_cards(r: _Reader, s: State) -> None:
    """Each card and Royal card in one place at most (:func:`engine.decks.twice`), and the
    decks as many cards as the position leaves unseen (:func:`engine.decks.decks_problem`)."""
    pyramid = r.fields[1][1]
    places: list[tuple[str, int, Sequence[str | None]]] = [
        (where, pyramid, row) for where, row in zip(_PYRAMID_PLACES, s.pyramid, strict=True)
    ]
    places.append(("the table", r.fields[7][1], s.royals))
    for seat, (p, (cards, reserve, royals)) in enumerate(
        zip(s.players, _PLAYER_PLACES, strict=True)
    ):
        column = r.fields[4 + seat][1]
        places.append((cards, column, [cid for cid, _ in p.cards]))
        places.append((reserve, column, [cid for _, cid in p.reserved]))
        places.append((royals, column, p.royals))
    found = twice(places, "a card")
    if found is not None:
        raise r.fail(*found)
    problem = decks_problem(s)
    if problem is not None:
        raise r.fail(problem, r.fields[3][1])


_COLOR_WORDS = ("white", "blue", "green", "red", "black", "pearl", "gold")
#: Where a card lies, in the words of :func:`_check_cards`'s messages.
_PYRAMID_PLACES = tuple(f"the pyramid's level {level}" for level in (1, 2, 3))
_PLAYER_PLACES = tuple(
    (f"player {n}'s cards", f"player {n}'s reserve", f"player {n}'s Royal cards") for n in (1, 2)
)


# --- equality --------------------------------------------------------------------------


def state_differences(a: State, b: State) -> list[str]:
    """The fields in which two states differ (``players[1].tokens``, ``unseen`` ...).

    The players' names only word messages and are not part of the position."""
    out: list[str] = []
    for slot in State.__slots__:
        if slot in ("players", "names"):
            continue
        if getattr(a, slot) != getattr(b, slot):
            out.append(slot)
    for i in (0, 1):
        pa, pb = a.players[i], b.players[i]
        for slot in PlayerState.__slots__:
            if getattr(pa, slot) != getattr(pb, slot):
                out.append(f"players[{i}].{slot}")
    return out


def states_equal(a: State, b: State) -> bool:
    """True when the two states agree in every field of State and PlayerState."""
    return not state_differences(a, b)
