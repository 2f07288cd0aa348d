"""Splendor Duel notation: the text format players write at the table (``docs/notation.md``).

A game is tag-pair headers, the setup (the board as drawn in spiral order and the
pyramid), then one numbered line per turn listing its decisions in order::

    [Game "Splendor Duel"]
    [Player1 "Alice"]
    [Player2 "Bob"]
    [First "Alice"]

    board   RGWBK PYWBG RKWBG RKWBG RKPYY
    level3  3-01 3-07 3-12
    ...
    1. Alice: take c2 c3 c4 =WWB
    2. Bob: priv a1 take b2 b3 =RG {a greedy start}

Everything here is pure: :func:`parse_game` turns text into events (checking each one
against the rules as it goes), :func:`write_game` writes the canonical text back, and
:func:`move_text` / :func:`parse_move` convert one decision.  The position string lives
in :mod:`engine.splendor_duel.position`; it is re-exported here.

>>> import random
>>> from engine.splendor_duel import simulate
>>> events = simulate.random_game(random.Random(3))
>>> text = write_game({"players": ["Alice", "Bob"]}, events)
>>> parsed = parse_game(text)
>>> parsed.errors, parsed.events == events, write_game(parsed.headers, parsed.events) == text
([], True, True)
"""

from __future__ import annotations

import bisect
import contextlib
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError, IllegalMoveError, Rule, Violation
from . import game as _game
from . import rules
from .catalogue import (
    CARDS,
    COLOR_LETTERS,
    COLOR_NAMES,
    EMPTY,
    GOLD,
    MAX_TOKENS,
    PYRAMID_SIZES,
    ROYALS,
    SPACE_NAMES,
    SPIRAL_SPACES,
    color_index,
)
from .events import (
    BoardReplenished,
    BonusTokenTaken,
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ColorCopied,
    Counts,
    Event,
    GameSetUp,
    PlayerResigned,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
)
from .position import (
    PositionError,
    parse_position,
    position_string,
    state_differences,
    states_equal,
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
    State,
)

__all__ = [
    "GLYPHS",
    "KEYWORDS",
    "Flagged",
    "NotationError",
    "ParsedGame",
    "PositionError",
    "Verdict",
    "check_move",
    "describe_changes",
    "legal_move_texts",
    "move_text",
    "parse_game",
    "parse_move",
    "parse_position",
    "position_string",
    "state_differences",
    "states_equal",
    "validate_payloads",
    "write_game",
]

#: The decision keywords, in the order the docs list them.
KEYWORDS = (
    "priv",
    "repl",
    "take",
    "res",
    "buy",
    "copy",
    "token",
    "steal",
    "royal",
    "disc",
    "reveal",
    "id",
    "resign",
)
#: Move assessments, as in chess annotation.
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
#: The mark of a decision that stood at the table although the rules refuse it.
ILLEGAL_MARK = "!illegal"
GAME_TITLE = "Splendor Duel"
ERROR_KINDS = ("syntax", "unknown", "illegal")
_KIND_WORDS = {"syntax": "syntax error", "unknown": "unknown name", "illegal": "illegal move"}

#: Citation for notation-level inconsistencies (what the log says against the position).
_NOTATION_RULE = Rule("the log must agree with the position", None, "tablelog notation")


# --- results ---------------------------------------------------------------------------


class NotationError(EngineError, ValueError):
    """A problem in a text log, with its place.

    ``kind`` is ``syntax`` (the text cannot be read), ``unknown`` (an unknown card, space,
    colour, Royal or player) or ``illegal`` (a well-formed decision the rules refuse;
    ``violations`` say why, each citing the rulebook).  For illegal decisions ``turn``,
    ``event_number`` (1-based, the setup is event 1) and ``position`` (the position
    string before the decision) are filled in.
    """

    def __init__(
        self,
        kind: str,
        source: str,
        line: int,
        column: int,
        message: str,
        violations: Sequence[Violation] = (),
        *,
        turn: int | None = None,
        event_number: int | None = None,
        position: str | None = None,
    ):
        self.kind = kind
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        self.violations = list(violations)
        self.turn = turn
        self.event_number = event_number
        self.position = position
        super().__init__(str(self))

    def __str__(self) -> str:
        what = _KIND_WORDS.get(self.kind, self.kind)
        head = f"{self.source}:{self.line}:{self.column}: {what}: {self.message}"
        if self.violations:
            head += " — " + "; ".join(str(v) for v in self.violations)
        return head

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (used by ``tablelog validate --json`` and the web API)."""
        return {
            "kind": self.kind,
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "violations": [v.to_dict() for v in self.violations],
            "turn": self.turn,
            "event_number": self.event_number,
            "position": self.position,
        }


@dataclass
class Flagged:
    """A decision marked ``!illegal``: kept as played, with the rules it broke."""

    event_number: int
    line: int
    column: int
    turn: int
    text: str
    violations: list[Violation]
    position: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "event_number": self.event_number,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "text": self.text,
            "violations": [v.to_dict() for v in self.violations],
            "position": self.position,
        }


@dataclass
class ParsedGame:
    """What :func:`parse_game` read: headers (``players``, ``date``, ``place``, ``event``,
    ``result``, ``tags``), the events of the legal prefix with their meta (``comment``,
    ``annotations``, ``played_illegally``), the errors and the state after the prefix."""

    headers: dict[str, Any]
    events: list[Event]
    meta: list[dict[str, Any] | None]
    errors: list[NotationError]
    state: State
    flagged: list[Flagged] = field(default_factory=list)
    names: tuple[str, str] = ("Player 1", "Player 2")

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class Verdict:
    """The answer to "is this move legal here?": the parsed ``event`` (None if the text
    could not be read, then ``error`` says why), its ``violations``, and when legal the
    ``changes`` it makes, in plain sentences."""

    legal: bool
    event: Event | None
    violations: list[Violation]
    changes: list[str]
    error: NotationError | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "event": None if self.event is None else _events_to_dict(self.event),
            "violations": [v.to_dict() for v in self.violations],
            "changes": list(self.changes),
            "error": None if self.error is None else self.error.to_dict(),
        }


def _events_to_dict(event: Event) -> dict[str, Any]:
    from .events import event_to_dict

    return event_to_dict(event)


# --- small text helpers ----------------------------------------------------------------

_SIMPLE_NAME = re.compile(r"[^\s:{}()\"\[\]#@=!?]+")


def _counts_text(counts: Sequence[int]) -> str:
    """``B1 R2 Y1`` (colour letter and count, in WBGRKPY order)."""
    return " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(counts) if n)


def _escape(text: str, closer: str) -> str:
    return text.replace("\\", "\\\\").replace(closer, "\\" + closer)


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)


def _player_names(headers: dict[str, Any] | None) -> tuple[tuple[str, str], bool]:
    """The two names and whether the headers gave them."""
    players = (headers or {}).get("players")
    if (
        isinstance(players, (list, tuple))
        and len(players) == 2
        and all(isinstance(p, str) and p.strip() for p in players)
    ):
        return (players[0], players[1]), True
    return ("Player 1", "Player 2"), False


def _player_ref(names: tuple[str, str], seat: int) -> str:
    """How a decision names a player: the name when it is one distinct word, else ``#1``."""
    name = names[seat]
    if names[0] != names[1] and _SIMPLE_NAME.fullmatch(name) and name not in KEYWORDS:
        return name
    if names[0] != names[1] and "\n" not in name:
        return '"' + _escape(name, '"') + '"'
    return f"#{seat + 1}"


# --- one decision as text --------------------------------------------------------------


def _spiral_text(board: Sequence[int]) -> str:
    letters = "".join(COLOR_LETTERS[c] if 0 <= c < len(COLOR_LETTERS) else "?" for c in board)
    return " ".join(letters[i : i + 5] for i in range(0, len(letters), 5))


def move_text(state_before: State, event: Event, names: tuple[str, str] | None = None) -> str:
    """The canonical notation of ``event`` in the position before it.

    >>> from engine.splendor_duel.events import TokensTaken, CardPurchased
    >>> s = parse_position(
    ...     "WBGRK/PPWBG/RKWBG/RKWBG/RKYYY - 1-01,1-02,1-03,1-04,1-05/2-01,2-02,2-03,2-04/"
    ...     "3-01,3-02,3-03 25/20/10 -/-/-/0/-/0 -/-/-/1/-/0 2 R-1,R-2,R-3,R-4 1 1 1 action"
    ...     " - - - - -")
    >>> move_text(s, TokensTaken((0, 1, 2)))
    'take a1 b1 c1 =WBG'
    """
    t = event.type
    if t == "tokens_taken":
        e: Any = event
        board = state_before.board
        spaces = " ".join(SPACE_NAMES[s] for s in e.spaces)
        colors = [board[s] for s in e.spaces]
        if all(0 <= c < GOLD for c in colors):
            return f"take {spaces} ={''.join(COLOR_LETTERS[c] for c in colors)}"
        return f"take {spaces}"
    if t == "card_purchased":
        e = event
        return f"buy {e.card} ({_counts_text(e.payment)})"
    if t == "card_revealed":
        return f"reveal {event.card}"  # type: ignore[union-attr]
    if t == "privilege_spent":
        return f"priv {SPACE_NAMES[event.space]}"  # type: ignore[union-attr]
    if t == "card_reserved":
        e = event
        gold = SPACE_NAMES[e.gold]
        if e.deck is None:
            return f"res {e.card} @{gold}"
        if e.card is None:
            return f"res L{e.deck} @{gold}"
        return f"res L{e.deck}={e.card} @{gold}"
    if t == "board_replenished":
        tokens = event.tokens  # type: ignore[union-attr]
        if tokens is None:
            return "repl"
        return f"repl {''.join(COLOR_LETTERS[c] for c in tokens)}" if tokens else "repl -"
    if t == "color_copied":
        return f"copy {COLOR_LETTERS[event.color]}"  # type: ignore[union-attr]
    if t == "bonus_token_taken":
        return f"token {SPACE_NAMES[event.space]}"  # type: ignore[union-attr]
    if t == "token_stolen":
        return f"steal {COLOR_LETTERS[event.color]}"  # type: ignore[union-attr]
    if t == "royal_taken":
        return f"royal {event.royal}"  # type: ignore[union-attr]
    if t == "tokens_discarded":
        e = event
        return f"disc {_counts_text(e.tokens)}".rstrip()
    if t == "card_identified":
        e = event
        if e.player == state_before.current:
            return f"id {e.card}"
        return f"id {e.card} by {_player_ref(names or ('Player 1', 'Player 2'), e.player)}"
    if t == "player_resigned":
        e = event
        if e.player == state_before.current and state_before.awaiting != SETUP:
            return "resign"
        return f"resign by {_player_ref(names or ('Player 1', 'Player 2'), e.player)}"
    if t == "game_set_up":
        e = event
        levels = " / ".join(" ".join(row) for row in e.pyramid)
        return f"setup first #{e.first_player + 1} board {_spiral_text(e.board)} pyramid {levels}"
    raise ValueError(f"unknown event type {t!r}")


def _meta_suffix(meta: dict[str, Any] | None) -> str:
    if not meta:
        return ""
    parts: list[str] = []
    if meta.get("played_illegally"):
        parts.append(ILLEGAL_MARK)
    for note in meta.get("annotations") or ():
        note = str(note)
        if note in GLYPHS:
            parts.append(note)
        elif note:
            parts.append("(" + _escape(note, ")").replace("\n", " ") + ")")
    comment = meta.get("comment")
    if comment:
        parts.append("{" + _escape(str(comment), "}") + "}")
    return (" " + " ".join(parts)) if parts else ""


# --- the canonical text of a game ------------------------------------------------------

_KNOWN_TAGS = (("Event", "event"), ("Date", "date"), ("Place", "place"))


def _tag(name: str, value: Any) -> str:
    return f'[{name} "{_escape(str(value), chr(34)).replace(chr(10), " ")}"]'


def _result_tags(state: State, names: tuple[str, str]) -> tuple[str, str | None]:
    o = state.outcome
    if o is None:
        return "*", None
    result = "1-0" if o.winner == 0 else "0-1"
    victory = o.condition
    if o.condition == "color" and o.color is not None:
        victory = f"color {COLOR_NAMES[o.color]}"
    return result, victory


def write_game(
    headers: dict[str, Any] | None,
    events: Sequence[Event],
    meta: Sequence[dict[str, Any] | None] | None = None,
) -> str:
    """The canonical text of a game: headers, setup, one line per turn.

    ``meta`` (parallel to ``events``) carries each decision's ``comment``,
    ``annotations`` and ``played_illegally`` flag; a decision flagged as played
    illegally is written with ``!illegal`` and folded as played (``game.force``).
    A ``Result`` (and ``Victory``) header is computed from the events when the headers
    give none.  Raises ValueError if the events cannot be folded even as played.
    """
    headers = dict(headers or {})
    names, named = _player_names(headers)
    meta = list(meta) if meta is not None else []
    meta += [None] * (len(events) - len(meta))
    state = State()
    body: list[str] = []
    if events:
        setup = events[0]
        if not isinstance(setup, GameSetUp):
            raise ValueError("a game starts with its setup (game_set_up)")
        body.extend(_setup_lines(setup, meta[0]))
        _fold(state, setup, meta[0], 1)
        line: list[str] = []
        line_turn = -1
        show_names = named and names[0] != names[1] and all(_name_fits_line(n) for n in names)
        for number, (event, m) in enumerate(zip(events[1:], meta[1:], strict=True), start=2):
            if isinstance(event, GameSetUp):
                raise ValueError(f"event {number}: a game has one setup")
            if state.turn != line_turn:
                if line:
                    body.append(" ".join(line))
                line_turn = state.turn
                prefix = f"{line_turn}."
                if show_names:
                    prefix += f" {names[state.current]}:"
                line = [prefix]
            line.append(move_text(state, event, names) + _meta_suffix(m))
            _fold(state, event, m, number)
        if line:
            body.append(" ".join(line))
    out = [_tag("Game", GAME_TITLE)]
    for tag, key in _KNOWN_TAGS:
        if headers.get(key) not in (None, ""):
            out.append(_tag(tag, headers[key]))
    if named:
        out.append(_tag("Player1", names[0]))
        out.append(_tag("Player2", names[1]))
    if events:
        first = events[0].first_player  # type: ignore[union-attr]
        ref = names[first] if named and names[0] != names[1] else str(first + 1)
        out.append(_tag("First", ref))
    raw_tags = headers.get("tags")
    tags: dict[str, Any] = raw_tags if isinstance(raw_tags, dict) else {}
    result, victory = _result_tags(state, names)
    out.append(_tag("Result", headers["result"] if headers.get("result") else result))
    if "Victory" in tags:
        out.append(_tag("Victory", tags["Victory"]))
    elif victory is not None:
        out.append(_tag("Victory", victory))
    for key, value in tags.items():
        if key != "Victory" and _TAG_NAME.fullmatch(str(key)):
            out.append(_tag(str(key), value))
    for key, value in headers.items():
        if key in ("players", "tags", "result", "event", "date", "place"):
            continue
        if isinstance(value, (str, int, float)) and _TAG_NAME.fullmatch(key):
            out.append(_tag(key[:1].upper() + key[1:], value))
    text = "\n".join(out) + "\n"
    if body:
        text += "\n" + "\n".join(body) + "\n"
    return text


def _name_fits_line(name: str) -> bool:
    return (
        bool(_LINE_NAME.fullmatch(name)) and name == name.strip() and not re.match(r"\d+\.", name)
    )


_LINE_NAME = re.compile(r"[^\s:{}()\"\[\]][^:{}()\"\[\]\n]*")


def _setup_lines(setup: GameSetUp, meta: dict[str, Any] | None) -> list[str]:
    lines = [f"board   {_spiral_text(setup.board)}"]
    for level in (3, 2, 1):
        row = setup.pyramid[level - 1] if level - 1 < len(setup.pyramid) else ()
        lines.append(f"level{level}  {' '.join(row)}".rstrip())
    if setup.privileges is not None:
        lines.append(f"privileges {setup.privileges[0]} {setup.privileges[1]}")
    suffix = _meta_suffix(meta).strip()
    if suffix:
        lines.append(suffix)
    return lines


def _fold(state: State, event: Event, meta: dict[str, Any] | None, number: int) -> None:
    """Apply an event while writing: as played when flagged, else checked."""
    try:
        if meta and meta.get("played_illegally"):
            _game.force(state, event)
        else:
            _game.play(state, event)
    except IllegalMoveError as err:
        raise ValueError(
            f"event {number} ({event.type}) cannot be written: {err}; mark it as played "
            "illegally in its meta if it stood at the table"
        ) from None


# --- reading: tokens -------------------------------------------------------------------

_TOKEN_RE = re.compile(
    r"""\{(?:[^}\\]|\\.)*\}?|"(?:[^"\\\n]|\\.)*"?|\((?:[^)\\\n]|\\.)*\)?|[!?]+[a-z]*"""
    r"""|[^\s{}()"!?]+|[})]""",
    re.S,
)
_COMMENT_RE = re.compile(r"\{(?:[^}\\]|\\.)*\}", re.S)
_HEADER_RE = re.compile(r'\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TURN_RE = re.compile(r"\s*(\d+)\.(?=\s|$)\s*(?:([^\s:{}()\"\[\]][^:{}()\"\[\]\n]*?)\s*:(?=\s|$))?")
#: The turn prefix as the writer puts it (``12. Alice: ``); anything else goes through
#: the general _TURN_RE, which gives the same result on these lines.
_TURN_FAST_RE = re.compile(r"(\d+)\. (?:([^\s:{}()\"\[\]]+): )?")
_CARD_RE = re.compile(r"(\d)-(\d{1,2})")
_LEVEL_RE = re.compile(r"[Ll]([123])")
_COUNTS_RE = re.compile(r"(?:[WBGRKPY]\d{0,2})+")
_COUNT_ITEM_RE = re.compile(r"([WBGRKPY])(\d{0,2})")
_LETTERS_RE = re.compile(r"[WBGRKPY]+")
_SPACE_RE = re.compile(r"[a-z]\d+")
_GRID_ROW_RE = re.compile(r"\s*(?:([1-5])\s+)?((?:[WBGRKPY.]\s*){5})")
_GRID_HEAD_RE = re.compile(r"\s*a\s+b\s+c\s+d\s+e\s*")
_SPACES = {name: i for i, name in enumerate(SPACE_NAMES)}
_LETTER = {c: i for i, c in enumerate(COLOR_LETTERS)}
_SETUP_WORDS = ("board", "pyramid", "level1", "level2", "level3", "privileges")


class _Fail(Exception):
    """Raised inside a decision handler: ``arg`` is the index of the offending argument
    (-1 for the keyword itself)."""

    def __init__(self, kind: str, arg: int, message: str, violations: Sequence[Violation] = ()):
        super().__init__(message)
        self.kind = kind
        self.arg = arg
        self.message = message
        self.violations = list(violations)


class _Stop(Exception):
    """Ends parsing at the first error."""


def _space(args: list[str], i: int, what: str = "a board space") -> int:
    tok = args[i]
    s = _SPACES.get(tok)
    if s is not None:
        return s
    if _SPACE_RE.fullmatch(tok.lower()):
        raise _Fail("unknown", i, f"no space {tok!r} on the board (columns a-e, rows 1-5)")
    raise _Fail("syntax", i, f"expected {what} such as c3, got {tok!r}")


def _card(args: list[str], i: int) -> str:
    tok = args[i]
    if tok in CARDS:
        return tok
    m = _CARD_RE.fullmatch(tok)
    if m:
        cid = f"{m.group(1)}-{int(m.group(2)):02d}"
        if cid in CARDS:
            return cid
        raise _Fail("unknown", i, f"no Jewel card {tok!r} in the catalogue (ids 1-01 .. 3-13)")
    raise _Fail("syntax", i, f"expected a card id such as 2-05, got {tok!r}")


def _color(args: list[str], i: int) -> int:
    tok = args[i]
    c = _LETTER.get(tok)
    if c is not None:
        return c
    try:
        return color_index(tok)
    except KeyError:
        raise _Fail(
            "unknown", i, f"unknown colour {tok!r} (a letter among WBGRKPY, or a name)"
        ) from None


def _check_description(args: list[str], i: int, cid: str) -> None:
    """A quoted description after a card must describe it: every word must fit."""
    text = args[i][1:-1].lower()
    card = CARDS[cid]
    allowed = set(card.describe().lower().split())
    allowed.update(
        {
            f"{card.points}pt",
            f"{card.points}pts",
            f"{card.crowns}cr",
            f"l{card.level}",
            f"level{card.level}",
            "cost",
            "bonus",
        }
    )
    if card.color is not None:
        allowed.add(COLOR_NAMES[card.color])
        allowed.add(COLOR_LETTERS[card.color].lower())
    if card.bonus == 2:
        allowed.update({"x2", "double"})
    for word in re.split(r"[\s,;/]+", text):
        if word and word not in allowed:
            raise _Fail(
                "unknown",
                i,
                f"{args[i]} does not describe {cid} ({card.describe()}): {word!r} does not fit",
            )


def _counts(args: list[str], start: int, stop: int) -> Counts:
    counts = [0] * 7
    for i in range(start, stop):
        tok = args[i]
        if not _COUNTS_RE.fullmatch(tok):
            raise _Fail("syntax", i, f"expected tokens such as B1 R2 Y1 or BRRY, got {tok!r}")
        for m in _COUNT_ITEM_RE.finditer(tok):
            counts[_LETTER[m.group(1)]] += int(m.group(2)) if m.group(2) else 1
    return tuple(counts)  # type: ignore[return-value]


def _paren_counts(args: list[str], i: int) -> Counts:
    inner = args[i][1:-1].split()
    if not inner or inner == ["-"]:
        return (0, 0, 0, 0, 0, 0, 0)
    try:
        return _counts(inner, 0, len(inner))
    except _Fail as f:
        raise _Fail("syntax", i, f.message) from None


def _expect(args: list[str], count: int, usage: str) -> None:
    if len(args) != count:
        raise _Fail(
            "syntax",
            min(len(args), count) if len(args) > count else -1,
            f"expected {usage}",
        )


class _Context:
    """What a decision handler may need besides its arguments."""

    __slots__ = ("names",)

    def __init__(self, names: tuple[str, str]):
        self.names = names

    def player(self, args: list[str], i: int) -> int:
        tok = args[i]
        if tok.startswith('"') and tok.endswith('"') and len(tok) >= 2:
            tok = _unescape(tok[1:-1])
        for seat, name in enumerate(self.names):
            if tok == name:
                return seat
        for seat, name in enumerate(self.names):
            if tok.lower() == name.lower():
                return seat
        if tok in ("#1", "#2"):
            return int(tok[1]) - 1
        raise _Fail(
            "unknown",
            i,
            f"no player {tok!r} (the players are {self.names[0]!r} and {self.names[1]!r},"
            " or #1 and #2)",
        )


_NO_NAMES = _Context(("Player 1", "Player 2"))


# Each handler reads one decision's arguments; with ``state`` None it only checks the
# syntax (used after the first error when the caller wants every problem reported).


def _h_priv(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    _expect(args, 1, "priv SPACE, e.g. priv c3")
    return PrivilegeSpent(_space(args, 0))


def _h_repl(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    if args == ["-"]:
        return BoardReplenished(())
    letters = "".join(args)
    for i, tok in enumerate(args):
        if not _LETTERS_RE.fullmatch(tok):
            raise _Fail(
                "syntax", i, f"expected the drawn tokens as letters such as WBRKP, got {tok!r}"
            )
    if letters:
        return BoardReplenished(tuple(_LETTER[c] for c in letters))
    if state is None:
        return None
    bag = state.bag
    colors = [c for c in range(7) if bag[c]]
    if len(colors) <= 1:
        return BoardReplenished(tuple(c for c in colors for _ in range(bag[c])))
    raise _Fail(
        "syntax",
        -1,
        f"list the {sum(bag)} tokens drawn from the bag ({_counts_text(bag)}) in the spiral "
        "order of the empty spaces, e.g. repl "
        + "".join(COLOR_LETTERS[c] * bag[c] for c in range(7)),
    )


def _h_take(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    spaces: list[int] = []
    written = None
    for i, tok in enumerate(args):
        if tok.startswith("="):
            if i != len(args) - 1 or not _LETTERS_RE.fullmatch(tok[1:]):
                raise _Fail("syntax", i, "the colours come last, as =WWB")
            written = i
            break
        spaces.append(_space(args, i))
    if not spaces:
        raise _Fail("syntax", -1, "expected take SPACE [SPACE [SPACE]], e.g. take c2 c3 c4")
    if written is not None:
        letters = args[written][1:]
        if len(letters) != len(spaces):
            raise _Fail("syntax", written, f"{len(spaces)} spaces but {len(letters)} colours")
        if state is not None:
            _take_colors(state, args)
    return TokensTaken(tuple(spaces))


def _take_colors(state: State, args: list[str]) -> None:
    """``take c2 c3 c4 =WWB``: the written colours must be those on the board."""
    board = state.board
    letters = args[-1][1:]
    for k, letter in enumerate(letters):
        s = _SPACES[args[k]]
        token = board[s]
        if 0 <= token < GOLD and COLOR_LETTERS[token] != letter:
            raise _Fail(
                "illegal",
                len(args) - 1,
                "the colours do not match the board",
                [
                    Violation(
                        "notation.colors",
                        f"{SPACE_NAMES[s]} holds a {COLOR_NAMES[token]} token, not "
                        f"{COLOR_NAMES[_LETTER[letter]]} as written",
                        _NOTATION_RULE,
                    )
                ],
            )


def _h_res(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    gold: int | None = None
    card: str | None = None
    deck: int | None = None
    seen_target = False
    for i, tok in enumerate(args):
        if tok.startswith("@"):
            if gold is not None:
                raise _Fail("syntax", i, "one Gold per reserve")
            gold = _space([tok[1:]], 0, "the Gold's space") if len(tok) > 1 else -1
            if gold < 0:
                raise _Fail("syntax", i, "expected @SPACE, the Gold taken, e.g. @a1")
            continue
        if tok.startswith('"'):
            if card is None:
                raise _Fail("syntax", i, "a description follows a known card")
            _check_description(args, i, card)
            continue
        if seen_target:
            raise _Fail("syntax", i, f"unexpected {tok!r} in a reserve")
        seen_target = True
        level, _, known = tok.partition("=")
        m = _LEVEL_RE.fullmatch(level)
        if m:
            deck = int(m.group(1))
            if known:
                try:
                    card = _card([known], 0)
                except _Fail as f:
                    raise _Fail(f.kind, i, f.message) from None
                if CARDS[card].level != deck:
                    raise _Fail(
                        "syntax", i, f"{card} is a level-{CARDS[card].level} card, not level {deck}"
                    )
        elif known:
            raise _Fail("syntax", i, f"expected L1, L2 or L3 before '=', got {level!r}")
        else:
            card = _card(args, i)
    if not seen_target:
        raise _Fail(
            "syntax", -1, "expected res CARD @SPACE or res L2 @SPACE (blind), e.g. res 2-05 @a1"
        )
    if gold is None:
        if state is None:
            return None
        golds = [s for s, t in enumerate(state.board) if t == GOLD]
        if len(golds) > 1:
            raise _Fail(
                "syntax",
                -1,
                "say which Gold is taken: " + " or ".join(f"@{SPACE_NAMES[s]}" for s in golds),
            )
        gold = golds[0] if golds else 0
    return CardReserved(gold, card, deck)


def _h_buy(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    if not args:
        raise _Fail("syntax", -1, "expected buy CARD (PAYMENT), e.g. buy 2-05 (B1 R2 Y1)")
    card = _card(args, 0)
    payment: Counts | None = None
    for i in range(1, len(args)):
        tok = args[i]
        if tok.startswith('"') and i == 1:
            _check_description(args, i, card)
        elif tok.startswith("(") and payment is None:
            payment = _paren_counts(args, i)
        else:
            raise _Fail("syntax", i, f"unexpected {tok!r} after buy {card}")
    if payment is not None:
        return CardPurchased(card, payment)
    if state is None:
        return None
    ways = _game.payments(state.player, card) if state.awaiting == ACTION else []
    if len(ways) == 1:
        return CardPurchased(card, ways[0])
    if len(ways) > 1:
        probe = _game.check(state, CardPurchased(card, ways[0]))
        if probe and probe[0].code == "purchase.not_available":
            return CardPurchased(card, ways[0])
        shown = ", ".join(f"({_counts_text(w)})" for w in ways[:4])
        more = f" and {len(ways) - 4} more" if len(ways) > 4 else ""
        raise _Fail(
            "syntax",
            0,
            f"{card} can be paid in {len(ways)} ways ({shown}{more}); write the payment",
        )
    # No payment possible: let the rules say why (not available, unaffordable ...).
    need = [0] * 7
    for c, n in enumerate(CARDS[card].cost):
        need[c] = n
    return CardPurchased(card, tuple(need))  # type: ignore[arg-type]


def _h_copy(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    _expect(args, 1, "copy COLOUR, e.g. copy B")
    return ColorCopied(_color(args, 0))


def _h_token(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    if len(args) > 1:
        raise _Fail("syntax", 1, "expected token SPACE, e.g. token c4")
    if args:
        return BonusTokenTaken(_space(args, 0))
    if state is None:
        return None
    color = CARDS[state.last_card].color if state.last_card else None
    spaces = [s for s, t in enumerate(state.board) if t == color and color is not None]
    if len(spaces) > 1:
        raise _Fail(
            "syntax",
            -1,
            "say which token: " + " or ".join(f"token {SPACE_NAMES[s]}" for s in spaces),
        )
    return BonusTokenTaken(spaces[0] if spaces else 0)


def _h_steal(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    _expect(args, 1, "steal COLOUR, e.g. steal R")
    return TokenStolen(_color(args, 0))


def _h_royal(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    _expect(args, 1, "royal R-1 .. R-4")
    tok = args[0]
    rid = tok if tok in ROYALS else None
    if rid is None:
        m = re.fullmatch(r"[Rr]-?(\d)", tok)
        if not m:
            raise _Fail("syntax", 0, f"expected a Royal card R-1 .. R-4, got {tok!r}")
        rid = f"R-{m.group(1)}"
        if rid not in ROYALS:
            raise _Fail("unknown", 0, f"no Royal card {tok!r} (R-1 .. R-4)")
    return RoyalTaken(rid)


def _h_disc(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    if args:
        return TokensDiscarded(_counts(args, 0, len(args)))
    if state is None:
        return None
    options = _game.legal_moves(state) if state.awaiting == DISCARD else []
    if len(options) == 1:
        return options[0]
    if not options:
        return TokensDiscarded((0, 0, 0, 0, 0, 0, 0))
    raise _Fail(
        "syntax",
        -1,
        f"say which {state.player.token_count - MAX_TOKENS} token(s) are discarded, e.g. disc "
        + _counts_text(options[0].tokens),  # type: ignore[union-attr,arg-type]
    )


def _h_reveal(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    if not args or len(args) > 2 or (len(args) == 2 and not args[1].startswith('"')):
        raise _Fail(
            "syntax", min(len(args), 2) if args else -1, "expected reveal CARD, e.g. reveal 1-17"
        )
    card = _card(args, 0)
    if len(args) == 2:
        _check_description(args, 1, card)
    return CardRevealed(card)


def _by(args: list[str], start: int, ctx: _Context) -> int | None:
    if len(args) == start:
        return None
    if args[start] != "by" or len(args) != start + 2:
        raise _Fail("syntax", start, "expected by PLAYER (a name, or #1 / #2)")
    return ctx.player(args, start + 1)


def _h_id(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    if not args:
        raise _Fail("syntax", -1, "expected id CARD [by PLAYER], e.g. id 2-07")
    card = _card(args, 0)
    rest = 1
    if len(args) > 1 and args[1].startswith('"'):
        _check_description(args, 1, card)
        rest = 2
    who = _by(args, rest, ctx)
    if who is None:
        if state is None:
            return None
        who = state.current
        level = CARDS[card].level
        mine = any(c is None and lv == level for lv, c in state.players[who].reserved)
        theirs = any(c is None and lv == level for lv, c in state.players[1 - who].reserved)
        if not mine and theirs:
            who = 1 - who
    return CardIdentified(who, card)


def _h_resign(args: list[str], state: State | None, ctx: _Context) -> Event | None:
    who = _by(args, 0, ctx)
    if who is None:
        if state is None:
            return None
        who = state.current
    return PlayerResigned(who)


_HANDLERS = {
    "priv": _h_priv,
    "repl": _h_repl,
    "take": _h_take,
    "res": _h_res,
    "buy": _h_buy,
    "copy": _h_copy,
    "token": _h_token,
    "steal": _h_steal,
    "royal": _h_royal,
    "disc": _h_disc,
    "reveal": _h_reveal,
    "id": _h_id,
    "resign": _h_resign,
}
assert tuple(_HANDLERS) == KEYWORDS
#: Events read from decisions that need no position (most of them), by their text:
#: events are immutable, so the same text always stands for the same event.  A take
#: written with its colours keeps the (space, colour) pairs to check against the board.
_TEXT_CACHE: dict[str, tuple[Event, tuple[tuple[int, int], ...] | None]] = {}
_UNCACHED = frozenset({"id", "resign"})
#: The plain-line path of parse_game; tests turn it off to check that reading every line
#: token by token gives exactly the same result.
_PLAIN_LINES = True
# A plain line's decisions: a lowercase keyword, then arguments, each with at least one
# character that is not a lowercase letter (c3, 1-05, =WWB, @a1, L2, WBRKP, a payment).
_DECISION_RE = re.compile(
    r"""\s*([a-z]+(?:\s+[^\s{}()!?"]*[^a-z\s{}()!?"][^\s{}()!?"]*|\s*\([^()]*\))*)\s*|(\S+)"""
)


_Entry = tuple[Event, tuple[tuple[int, int], ...] | None]


def _remember(keyword: str, args: list[str], event: Event, text: str | None = None) -> _Entry:
    """Keep the event a decision text stands for (not a replenish: its draws rarely
    repeat), with the (space, colour) pairs a take's written colours claim."""
    colors = None
    if keyword == "take" and args and args[-1][0] == "=":
        colors = tuple((_SPACES[args[k]], _LETTER[letter]) for k, letter in enumerate(args[-1][1:]))
    entry = (event, colors)
    if keyword != "repl":
        if len(_TEXT_CACHE) > 100_000:
            _TEXT_CACHE.clear()
        _TEXT_CACHE[text or (keyword + " " + " ".join(args) if args else keyword)] = entry
    return entry


def _learn(text: str) -> _Entry | None:
    """Read a decision of a plain line that needs no position; None if it needs one (or
    is wrong: the token-by-token path then reports it with its place)."""
    tokens = _TOKEN_RE.findall(text)
    keyword = tokens[0]
    handler = _HANDLERS.get(keyword)
    if handler is None or keyword in _UNCACHED:
        return None
    try:
        event = handler(tokens[1:], None, _NO_NAMES)
    except _Fail:
        return None
    if event is None:
        return None
    return _remember(keyword, tokens[1:], event, text)


def _is_payment(tok: str) -> bool:
    inner = tok[1:-1].strip()
    return tok.endswith(")") and (
        not inner or inner == "-" or all(_COUNTS_RE.fullmatch(part) for part in inner.split())
    )


# --- reading: a whole game -------------------------------------------------------------


class _Line:
    """One logical line: a physical line, or several joined by a multi-line comment."""

    __slots__ = ("text", "number", "starts")

    def __init__(self, text: str, number: int):
        self.text = text
        self.number = number
        self.starts: list[int] | None = None

    def place(self, offset: int) -> tuple[int, int]:
        """(line, column), both 1-based, of a character offset into ``text``."""
        if "\n" not in self.text:
            return self.number, offset + 1
        if self.starts is None:
            self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        k = bisect.bisect_right(self.starts, offset) - 1
        return self.number + k, offset - self.starts[k] + 1


class _GameParser:
    def __init__(self, text: str, source: str, stop: bool):
        if text.startswith("\ufeff"):
            text = text[1:]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.text = text
        self.source = source
        self.stop = stop
        self.live = True
        self.state = State()
        self.events: list[Event] = []
        self.meta: list[dict[str, Any] | None] = []
        self.errors: list[NotationError] = []
        self.flagged: list[Flagged] = []
        self.headers: dict[str, Any] = {}
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, tuple[int, int]] = {}
        self.names: tuple[str, str] = ("Player 1", "Player 2")
        self.state.names = self.names
        self.ctx = _Context(self.names)
        self.first: tuple[str, int] | None = None
        self.pending_comments: list[str] = []
        self.pending_notes: list[str] = []

    # -- errors ------------------------------------------------------------------------

    def error(
        self,
        kind: str,
        line: int,
        column: int,
        message: str,
        violations: Sequence[Violation] = (),
        *,
        with_position: bool = False,
    ) -> None:
        state = self.state
        err = NotationError(
            kind,
            self.source,
            line,
            column,
            message,
            violations,
            turn=state.turn if with_position else None,
            event_number=len(self.events) + 1 if with_position else None,
            position=position_string(state) if with_position else None,
        )
        self.errors.append(err)
        if self.stop:
            raise _Stop
        self.live = False

    # -- lines -------------------------------------------------------------------------

    def logical_lines(self) -> list[_Line]:
        raw = self.text.split("\n")
        out: list[_Line] = []
        i = 0
        n = len(raw)
        while i < n:
            text = raw[i]
            number = i + 1
            i += 1
            if "{" in text:
                while i < n and self._unclosed(text):
                    text += "\n" + raw[i]
                    i += 1
            out.append(_Line(text, number))
        return out

    @staticmethod
    def _unclosed(text: str) -> bool:
        for tok in _TOKEN_RE.findall(text):
            if tok[0] == "{" and not _COMMENT_RE.fullmatch(tok):
                return True
        return False

    def token_place(self, line: _Line, offset: int, body: str, k: int) -> tuple[int, int]:
        """Where the k-th token of ``body`` (starting at ``offset`` in the line) is."""
        for j, m in enumerate(_TOKEN_RE.finditer(body)):
            if j == k:
                return line.place(offset + m.start())
        return line.place(offset + len(body.rstrip()))

    # -- the whole text ----------------------------------------------------------------

    def run(self) -> ParsedGame:
        with contextlib.suppress(_Stop):
            self._run()
        self.headers["tags"] = self.tags
        if not self.tags:
            del self.headers["tags"]
        return ParsedGame(
            self.headers,
            self.events,
            self.meta,
            self.errors,
            self.state,
            self.flagged,
            self.names,
        )

    def _run(self) -> None:
        lines = self.logical_lines()
        k = 0
        n = len(lines)
        # Headers.
        while k < n:
            line = lines[k]
            stripped = line.text.strip()
            if not stripped:
                k += 1
                continue
            if not stripped.startswith("["):
                break
            self.header(line)
            k += 1
        self.finish_headers()
        # Setup.
        setup_parts: dict[str, Any] = {}
        setup_line = lines[k] if k < n else None
        while k < n:
            line = lines[k]
            stripped = line.text.strip()
            if not stripped:
                k += 1
                continue
            if _TURN_RE.match(line.text):
                break
            if stripped.startswith("["):
                self.error(
                    "syntax",
                    line.number,
                    line.text.index("[") + 1,
                    "headers come first, before the setup",
                )
                k += 1
                continue
            k = self.setup_line(lines, k, setup_parts)
        end_line = lines[k] if k < n else None
        self.finish_setup(setup_parts, end_line or setup_line, end_line is None)
        # Turns.  Most lines are plain (no comment, mark, description or player named in
        # a decision) and made of decisions read before: those are checked and applied
        # straight from the cache of decision texts; anything else goes to decisions().
        current: int | None = None
        state = self.state
        events = self.events
        meta = self.meta
        names = self.names
        check = _game.check
        apply = _game.apply_unchecked
        cache = _TEXT_CACHE
        split = _DECISION_RE.findall
        fast_turn = _TURN_FAST_RE.match
        while k < n:
            line = lines[k]
            k += 1
            text = line.text
            if not text or text.isspace():
                continue
            m = fast_turn(text)
            if m is None or (m.group(2) is None and ":" in text):
                m = _TURN_RE.match(text)
            if m:
                current = int(m.group(1))
                name = m.group(2)
                if not (
                    current == state.turn
                    and self.live
                    and (name is None or name == names[state.current])
                    and state.awaiting != OVER
                ):
                    self.turn_start(line, m, current)
                body_at = m.end()
            else:
                if text.lstrip().startswith("["):
                    self.error(
                        "syntax",
                        line.number,
                        text.index("[") + 1,
                        "headers come first, before the setup",
                    )
                    continue
                body_at = 0
                if current is None:
                    self.error(
                        "syntax",
                        line.number,
                        1,
                        "expected a turn number such as '1.' before the decisions",
                    )
            skip = 0
            if self.live and current is not None and _PLAIN_LINES:
                body = text[body_at:]
                if not ("{" in body or "!" in body or "?" in body or '"' in body or " by " in body):
                    board = state.board
                    for decision, junk in split(body):
                        if junk:
                            break
                        entry = cache.get(decision)
                        if entry is None:
                            entry = _learn(decision)
                        if entry is None or state.turn != current:
                            break
                        event, colors = entry
                        if colors is not None:
                            for sp, c in colors:
                                if board[sp] != c:
                                    break
                            else:
                                colors = None
                            if colors is not None:
                                break
                        if check(state, event):
                            break
                        apply(state, event)
                        events.append(event)
                        meta.append(None)
                        skip += 1
                    else:
                        continue
            self.decisions(line, body_at, current, skip)
        if self.live:
            self.check_result()

    # -- headers -----------------------------------------------------------------------

    def header(self, line: _Line) -> None:
        m = _HEADER_RE.fullmatch(line.text)
        if not m:
            self.error(
                "syntax",
                line.number,
                line.text.index("[") + 1,
                'expected a header such as [Date "2024-03-12"]',
            )
            return
        name, value = m.group(1), _unescape(m.group(2))
        self.tag_lines[name] = (line.number, m.start(2))
        if name == "Game":
            if value.strip().lower() not in ("splendor duel", "splendor-duel"):
                self.error(
                    "unknown",
                    line.number,
                    m.start(2) + 1,
                    f"this log is for {value!r}; this parser reads Splendor Duel",
                )
            return
        if name in ("Player1", "Player2"):
            players = self.headers.setdefault("players", ["", ""])
            players[0 if name == "Player1" else 1] = value
            return
        if name == "First":
            self.first = (value, line.number)
            return
        for tag, key in _KNOWN_TAGS + (("Result", "result"),):
            if name == tag:
                self.headers[key] = value
                return
        self.tags[name] = value

    def finish_headers(self) -> None:
        players = self.headers.get("players")
        if players is not None:
            names = (players[0] or "Player 1", players[1] or "Player 2")
            self.headers["players"] = list(names)
            self.names = names
            self.state.names = names
            self.ctx = _Context(names)

    # -- setup -------------------------------------------------------------------------

    def setup_line(self, lines: list[_Line], k: int, parts: dict[str, Any]) -> int:
        line = lines[k]
        text = line.text
        tokens = _TOKEN_RE.findall(text)
        word = tokens[0]
        if word in ("}", ")"):
            self.error(
                "syntax", line.number, text.index(word) + 1, f"a {word!r} without its opening"
            )
            return k + 1
        if word[0] in "{(!?":
            self.setup_notes(line, 0, text, tokens)
            return k + 1
        if word not in _SETUP_WORDS:
            near = difflib.get_close_matches(word, _SETUP_WORDS, 1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            self.error(
                "syntax",
                line.number,
                text.index(word) + 1,
                f"expected the setup (board, level3, level2, level1, privileges) or turn 1, "
                f"got {word!r}{hint}",
            )
            return k + 1
        args: list[str] = []
        notes_at = len(tokens)
        for j in range(1, len(tokens)):
            if tokens[j][0] in "{(!?":
                notes_at = j
                break
            args.append(tokens[j])
        if word == "board":
            if not args:
                return self.board_grid(lines, k, parts)
            letters = "".join(args)
            bad = next((j for j, c in enumerate(letters) if c not in _LETTER), None)
            if bad is not None:
                col = self.nth_char_column(text, tokens, 1, bad)
                self.error(
                    "unknown",
                    line.number,
                    col,
                    f"{letters[bad]!r} is not a token letter (W B G R K P Y)",
                )
                return k + 1
            parts["board"] = (tuple(_LETTER[c] for c in letters), line.number)
        elif word in ("level1", "level2", "level3"):
            level = int(word[-1])
            cards = self.setup_cards(line, tokens, args, 1)
            if cards is not None:
                parts.setdefault("levels", {})[level] = cards
        elif word == "pyramid":
            levels: list[list[str]] = [[]]
            for tok in args:
                if tok == "/":
                    levels.append([])
                else:
                    levels[-1].append(tok)
            if len(levels) != 3:
                self.error(
                    "syntax",
                    line.number,
                    text.index(word) + 1,
                    "expected pyramid LEVEL1 / LEVEL2 / LEVEL3 (cards separated by /)",
                )
                return k + 1
            got = {}
            offset = 1
            for lv, row in enumerate(levels, start=1):
                cards = self.setup_cards(line, tokens, row, offset)
                offset += len(row) + 1
                if cards is None:
                    return k + 1
                got[lv] = cards
            parts["levels"] = got
        elif word == "privileges":
            if len(args) != 2 or not all(a.isdigit() and len(a) == 1 for a in args):
                self.error(
                    "syntax",
                    line.number,
                    text.index(word) + 1,
                    "expected privileges N N (Player1's, then Player2's), e.g. privileges 0 1",
                )
                return k + 1
            parts["privileges"] = (int(args[0]), int(args[1]))
        if notes_at < len(tokens):
            self.setup_notes(line, notes_at, text, tokens)
        return k + 1

    def nth_char_column(self, text: str, tokens: list[str], first: int, index: int) -> int:
        """Column of the ``index``-th character of the tokens from ``first`` on."""
        for j, m in enumerate(_TOKEN_RE.finditer(text)):
            if j < first:
                continue
            if index < len(m.group()):
                return m.start() + index + 1
            index -= len(m.group())
        return len(text) + 1

    def setup_cards(
        self, line: _Line, tokens: list[str], row: list[str], first: int
    ) -> list[str] | None:
        out = []
        for j in range(len(row)):
            try:
                out.append(_card(row, j))
            except _Fail as f:
                col = self.token_place(line, 0, line.text, first + j)[1]
                self.error(f.kind, line.number, col, f.message)
                return None
        return out

    def board_grid(self, lines: list[_Line], k: int, parts: dict[str, Any]) -> int:
        start = lines[k]
        k += 1
        rows: list[str] = []
        while k < len(lines) and len(rows) < 5:
            text = lines[k].text
            if not text.strip():
                k += 1
                continue
            if not rows and _GRID_HEAD_RE.fullmatch(text):
                k += 1
                continue
            m = _GRID_ROW_RE.fullmatch(text)
            if not m or (m.group(1) and int(m.group(1)) != len(rows) + 1):
                self.error(
                    "syntax",
                    lines[k].number,
                    1,
                    f"expected row {len(rows) + 1} of the board grid: 5 letters (WBGRKPY, "
                    ". for empty), optionally after the row number",
                )
                return k + 1
            rows.append(re.sub(r"\s+", "", m.group(2)))
            k += 1
        if len(rows) < 5:
            self.error("syntax", start.number, 1, "the board grid needs 5 rows of 5 letters")
            return k
        grid = "".join(rows)
        if "." in grid:
            self.error(
                "syntax", start.number, 1, "the board at setup holds 25 tokens, no empty space"
            )
            return k
        parts["board"] = (tuple(_LETTER[grid[s]] for s in SPIRAL_SPACES), start.number)
        return k

    def setup_notes(self, line: _Line, j0: int, text: str, tokens: list[str]) -> None:
        for j in range(j0, len(tokens)):
            tok = tokens[j]
            if tok[0] == "{":
                self.pending_comments.append(self.comment_text(line, text, tokens, j))
            elif tok[0] == "(" and tok.endswith(")"):
                self.pending_notes.append(_unescape(tok[1:-1]).strip())
            elif tok in GLYPHS:
                self.pending_notes.append(tok)
            else:
                col = self.token_place(line, 0, text, j)[1]
                self.error("syntax", line.number, col, f"unexpected {tok!r} in the setup")
                return

    def comment_text(
        self, line: _Line, text: str, tokens: list[str], j: int, offset: int = 0
    ) -> str:
        tok = tokens[j]
        if not _COMMENT_RE.fullmatch(tok):
            where = self.token_place(line, offset, text, j)
            self.error("syntax", where[0], where[1], "this comment is never closed with }")
            return ""
        return _unescape(tok[1:-1]).strip()

    def finish_setup(self, parts: dict[str, Any], line: _Line | None, at_end: bool) -> None:
        number = line.number if line is not None else 1
        if not self.live and not self.stop:
            return
        missing = []
        if "board" not in parts:
            missing.append("board")
        levels = parts.get("levels", {})
        missing += [f"level{lv}" for lv in (3, 2, 1) if lv not in levels]
        if missing:
            if at_end and not parts:
                if not self.tag_lines and not self.errors:
                    self.error(
                        "syntax", 1, 1, "no game here: expected headers, the setup and turns"
                    )
                return  # headers only: a game not set up yet

            self.error(
                "syntax",
                number,
                1,
                f"the setup is incomplete: {', '.join(missing)} missing before turn 1",
            )
            return
        if self.first is None:
            self.error(
                "syntax",
                number,
                1,
                'the First header names the first player, e.g. [First "Alice"]',
            )
            return
        value, first_line = self.first
        first = None
        for seat, name in enumerate(self.names):
            if value == name:
                first = seat
        if first is None and value in ("1", "2", "#1", "#2"):
            first = int(value[-1]) - 1
        if first is None:
            col = self.tag_lines["First"][1] + 1
            self.error(
                "unknown",
                first_line,
                col,
                f"First names {value!r}, who is neither player "
                f"({self.names[0]!r}, {self.names[1]!r})",
            )
            return
        pyramid = (tuple(levels[1]), tuple(levels[2]), tuple(levels[3]))
        event = GameSetUp(first, parts["board"][0], pyramid, parts.get("privileges"))
        violations = _game.check(self.state, event)
        if violations:
            self.error(
                "illegal",
                parts["board"][1],
                1,
                "the setup breaks the rules",
                violations,
                with_position=True,
            )
            return
        _game.apply_unchecked(self.state, event)
        self.events.append(event)
        self.meta.append(self.take_pending())

    def take_pending(self) -> dict[str, Any] | None:
        m: dict[str, Any] = {}
        if self.pending_comments:
            m["comment"] = " ".join(c for c in self.pending_comments if c)
            if not m["comment"]:
                del m["comment"]
        if self.pending_notes:
            m["annotations"] = list(self.pending_notes)
        self.pending_comments = []
        self.pending_notes = []
        return m or None

    # -- turns -------------------------------------------------------------------------

    def turn_start(self, line: _Line, m: re.Match[str], number: int) -> None:
        if not self.live:
            return
        state = self.state
        if not self.events:
            self.error("syntax", line.number, 1, "the game has no setup before turn 1")
            return
        if number != state.turn and state.awaiting != OVER:
            if number > state.turn:
                self.error(
                    "illegal",
                    line.number,
                    m.start(1) + 1,
                    f"turn {number} starts here, but turn {state.turn} is not over",
                    [_due_violation(state)],
                    with_position=True,
                )
                return
            msg = (
                f"this is turn {state.turn}, not {number} (turns are numbered from 1; an "
                "extra turn counts as a turn)"
            )
            self.error("syntax", line.number, m.start(1) + 1, msg, with_position=True)
            return
        if number != state.turn:
            self.error(
                "syntax",
                line.number,
                m.start(1) + 1,
                f"the game ended on turn {state.turn}; turn {number} cannot follow",
                with_position=True,
            )
            return
        name = m.group(2)
        if name is not None:
            name = name.strip()
            seat = self.names.index(name) if name in self.names else None
            if seat is None and name in ("#1", "#2"):
                seat = int(name[1]) - 1
            if seat is None:
                self.error(
                    "unknown",
                    line.number,
                    m.start(2) + 1,
                    f"no player {name!r} (the players are {self.names[0]!r} and {self.names[1]!r})",
                )
                return
            if seat != state.current and state.awaiting != OVER:
                self.error(
                    "illegal",
                    line.number,
                    m.start(2) + 1,
                    f"turn {number} is {self.names[state.current]}'s, not {name}'s",
                    [
                        Violation(
                            "turn.player",
                            f"it is {self.names[state.current]}'s turn",
                            rules.PLAYER_TURN,
                        )
                    ],
                    with_position=True,
                )

    def decisions(self, line: _Line, body_at: int, turn: int | None, skip: int = 0) -> None:
        """Read the decisions of one line token by token, after the first ``skip`` (the
        plain-line path in :meth:`_run` already applied those)."""
        body = line.text[body_at:] if body_at else line.text
        tokens = _TOKEN_RE.findall(body)
        n = len(tokens)
        i = 0
        handlers = _HANDLERS
        while i < n:
            tok = tokens[i]
            c0 = tok[0]
            if c0 == "{":
                self.attach_comment(self.comment_text(line, body, tokens, i, body_at))
                i += 1
                continue
            handler = handlers.get(tok)
            if handler is None:
                self.stray(line, body_at, body, tokens, i)
                i += 1
                while i < n and tokens[i] not in handlers and tokens[i][0] != "{":
                    i += 1  # the arguments of an unknown decision
                continue
            # The decision's arguments, then its marks (!illegal, glyphs, (notes)).
            j = i + 1
            paid = tok != "buy"
            while j < n:
                t = tokens[j]
                c = t[0]
                if c == "{" or c == "!" or c == "?" or c == "}" or c == ")":
                    break
                if t in handlers and tokens[j - 1] != "by":
                    break
                if c == "(":
                    if paid or not _is_payment(t):
                        break
                    paid = True
                j += 1
            args = tokens[i + 1 : j]
            illegal = False
            notes: list[str] | None = None
            while j < n:
                t = tokens[j]
                c = t[0]
                if t == ILLEGAL_MARK:
                    illegal = True
                elif t in GLYPHS:
                    (notes := notes or []).append(t)
                elif c == "(":
                    if not t.endswith(")") or t.endswith("\\)"):
                        where = self.token_place(line, body_at, body, j)
                        self.error("syntax", where[0], where[1], "this note is never closed with )")
                    (notes := notes or []).append(_unescape(t[1:-1]).strip())
                elif c == "!" or c == "?":
                    where = self.token_place(line, body_at, body, j)
                    self.error(
                        "syntax",
                        where[0],
                        where[1],
                        f"unknown mark {t!r} (assessments {' '.join(GLYPHS)}, or {ILLEGAL_MARK})",
                    )
                else:
                    break
                j += 1
            if skip:
                skip -= 1
            else:
                self.decision(line, body_at, body, i, tok, args, illegal, notes, turn)
            i = j

    def stray(self, line: _Line, body_at: int, body: str, tokens: list[str], i: int) -> None:
        tok = tokens[i]
        where = self.token_place(line, body_at, body, i)
        if tok in ("}", ")"):
            msg = f"a {tok!r} without its opening"
        elif tok[0] == "(":
            msg = f"a note {tok} must follow a decision"
        elif tok[0] in "!?":
            msg = f"the mark {tok!r} must follow a decision"
        elif tok[0] == '"':
            msg = f"a description {tok} must follow a card"
        else:
            near = difflib.get_close_matches(tok, KEYWORDS, 1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            msg = f"unknown decision {tok!r}{hint}; expected one of {', '.join(KEYWORDS)}"
        self.error("syntax", where[0], where[1], msg)

    def attach_comment(self, text: str) -> None:
        if not text or not self.live:
            return
        if not self.events:
            self.pending_comments.append(text)
            return
        m = self.meta[-1]
        if m is None:
            m = self.meta[-1] = {}
        old = m.get("comment")
        m["comment"] = f"{old} {text}" if old else text

    def decision(
        self,
        line: _Line,
        body_at: int,
        body: str,
        i: int,
        keyword: str,
        args: list[str],
        illegal: bool,
        notes: list[str] | None,
        turn: int | None,
    ) -> None:
        state = self.state if self.live else None
        try:
            handler = _HANDLERS[keyword]
            event = handler(args, None, self.ctx)
            if event is not None and keyword not in _UNCACHED:
                _remember(keyword, args, event)
                if keyword == "take" and state is not None and args[-1][0] == "=":
                    _take_colors(state, args)
            elif state is not None:
                event = handler(args, state, self.ctx)
        except _Fail as f:
            where = self.token_place(line, body_at, body, i + 1 + f.arg if f.arg >= 0 else i)
            self.error(
                f.kind,
                where[0],
                where[1],
                f.message,
                f.violations,
                with_position=f.kind == "illegal",
            )
            return
        if state is None or event is None:
            return
        if not self.events:
            where = self.token_place(line, body_at, body, i)
            self.error("syntax", where[0], where[1], "the game has no setup")
            return
        if turn is not None and state.turn != turn and state.awaiting != OVER:
            where = self.token_place(line, body_at, body, i)
            self.error(
                "syntax",
                where[0],
                where[1],
                f"turn {turn} ended before {keyword!r}; turn {state.turn} starts on a new "
                f"line ('{state.turn}.')",
                with_position=True,
            )
            return
        if illegal:
            before = position_string(state)
            try:
                violations = _game.force(state, event)
            except IllegalMoveError as err:
                where = self.token_place(line, body_at, body, i)
                self.error(
                    "illegal",
                    where[0],
                    where[1],
                    "marked !illegal, but it cannot be replayed even as played",
                    err.violations,
                    with_position=True,
                )
                return
            where = self.token_place(line, body_at, body, i)
            self.flagged.append(
                Flagged(
                    len(self.events) + 1,
                    where[0],
                    where[1],
                    turn or state.turn,
                    " ".join([keyword, *args]),
                    violations,
                    before,
                )
            )
        else:
            violations = _game.check(state, event)
            if violations:
                where = self.token_place(line, body_at, body, i)
                self.error(
                    "illegal",
                    where[0],
                    where[1],
                    f"{' '.join([keyword, *args])} is not allowed here",
                    violations,
                    with_position=True,
                )
                return
            _game.apply_unchecked(state, event)
        self.events.append(event)
        if illegal or notes:
            m: dict[str, Any] = {}
            if notes:
                m["annotations"] = notes
            if illegal:
                m["played_illegally"] = True
            self.meta.append(m)
        else:
            self.meta.append(None)

    def check_result(self) -> None:
        result = self.headers.get("result")
        if not self.events:
            return
        o = self.state.outcome
        if result in ("1-0", "0-1"):
            winner = 0 if result == "1-0" else 1
            if o is None or o.winner != winner:
                if o is None:
                    actual = f"the moves end on turn {self.state.turn} with the game still going"
                else:
                    actual = f"{self.names[o.winner]} won by {o.condition}"
                line, col = self.tag_lines.get("Result", (1, 0))
                self.error(
                    "illegal",
                    line,
                    col + 1,
                    f"the Result header says {result} ({self.names[winner]} won)",
                    [Violation("result.mismatch", actual, rules.VICTORY)],
                    with_position=True,
                )
                return
        victory = self.tags.get("Victory")
        if victory is not None and o is not None:
            expected = o.condition if o.color is None else f"color {COLOR_NAMES[o.color]}"
            said = " ".join(victory.lower().replace("colour", "color").split())
            if said not in (expected, o.condition):
                line, col = self.tag_lines.get("Victory", (1, 0))
                self.error(
                    "illegal",
                    line,
                    col + 1,
                    f"the Victory header says {victory!r}, but the game was won by {expected}",
                    [Violation("result.mismatch", f"won by {expected}", rules.VICTORY)],
                    with_position=True,
                )


def _due_violation(state: State) -> Violation:
    """What the state waits for, as the engine words it (``turn.discard_due`` ...)."""
    if state.awaiting == ACTION:
        return Violation(
            "turn.action_due",
            f"{state.names[state.current]} has not played turn {state.turn} yet: the "
            "mandatory action is due",
            rules.MANDATORY,
        )
    probe: Event = TokensTaken((0,)) if state.awaiting == REVEAL else CardRevealed("1-01")
    found = _game.check(state, probe)
    if found:
        return found[0]
    return Violation("turn.not_over", "the turn is not over", rules.PLAYER_TURN)


def parse_game(
    text: str, source: str = "<string>", *, stop_at_first_error: bool = True
) -> ParsedGame:
    """Read a game written in notation, checking every decision against the rules.

    With ``stop_at_first_error`` (the default) reading ends at the first problem; without
    it, the events stop at the first problem (the legal prefix is kept) and the rest of
    the text is still read for syntax errors and unknown names, each reported.  A
    decision marked ``!illegal`` is applied as played (``game.force``) and listed in
    ``flagged`` instead of being an error.  Never raises for bad input.
    """
    return _GameParser(text, source, stop_at_first_error).run()


# --- one decision ----------------------------------------------------------------------


def parse_move(state: State, text: str, names: tuple[str, str] | None = None) -> Event:
    """The event one decision written in notation stands for, in ``state``.

    Raises NotationError (source ``<move>``, line 1) if the text cannot be read.  The
    event is not checked against the rules: use ``game.check`` or :func:`check_move`.
    """
    names = names or ("Player 1", "Player 2")
    tokens = _TOKEN_RE.findall(text)
    spots = [m.start() + 1 for m in _TOKEN_RE.finditer(text)]

    def fail(
        kind: str, k: int, message: str, violations: Sequence[Violation] = ()
    ) -> NotationError:
        column = spots[k] if 0 <= k < len(spots) else len(text) + 1
        return NotationError(kind, "<move>", 1, column, message, violations)

    if not tokens:
        raise fail("syntax", 0, f"expected a decision ({', '.join(KEYWORDS)})")
    keyword = tokens[0]
    handler = _HANDLERS.get(keyword)
    if handler is None:
        near = difflib.get_close_matches(keyword, KEYWORDS, 1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise fail(
            "syntax",
            0,
            f"unknown decision {keyword!r}{hint}; expected one of {', '.join(KEYWORDS)}",
        )
    end = len(tokens)
    for k in range(1, len(tokens)):
        t = tokens[k]
        if t in _HANDLERS and tokens[k - 1] != "by":
            raise fail("syntax", k, "one decision at a time")
        if t[0] in "{!?})" or (t[0] == "(" and not (keyword == "buy" and _is_payment(t))):
            end = k
            break
    args = tokens[1:end]
    try:
        event = handler(args, state, _Context(names))
    except _Fail as f:
        raise fail(f.kind, f.arg + 1, f.message, f.violations) from None
    assert event is not None
    return event


def check_move(state: State, text: str, names: tuple[str, str] | None = None) -> Verdict:
    """Is the decision ``text`` legal in ``state``?  If not, why (violations citing the
    rulebook); if so, what it changes.  Never raises for bad input."""
    names = names or ("Player 1", "Player 2")
    if state.names != names:
        state = state.copy()
        state.names = names  # the engine's messages name the players
    try:
        event = parse_move(state, text, names)
    except NotationError as err:
        return Verdict(False, None, err.violations, [], err)
    violations = _game.check(state, event)
    if violations:
        return Verdict(False, event, violations, [])
    if isinstance(event, BoardReplenished) and event.tokens is None:
        return Verdict(True, event, [], _replenish_changes(state, names))
    after = state.copy()
    _game.apply_unchecked(after, event)
    return Verdict(True, event, [], describe_changes(state, after, names))


def _replenish_changes(state: State, names: tuple[str, str] | None) -> list[str]:
    names = names or ("Player 1", "Player 2")
    opp = names[1 - state.current]
    return [
        f"the {sum(state.bag)} tokens in the bag ({_counts_text(state.bag)}) go onto the "
        "empty spaces in spiral order, from c3",
        f"{opp} takes a Privilege",
    ]


def legal_move_texts(state: State, names: tuple[str, str] | None = None) -> list[str]:
    """Every legal next decision in notation (for ``tablelog moves``).  Observations are
    listed as what may be entered: ``repl`` (then the drawn tokens), a blind reserve
    ``res L2 @SPACE`` (its card unknown) and, when a card must be revealed, each card
    that may come from the deck."""
    if state.awaiting == REVEAL:
        level = (state.refill or (0, 0))[0]
        return [f"reveal {cid}" for cid in sorted(state.unseen[level])]
    return [move_text(state, event, names) for event in _game.legal_moves(state)]


# --- what a move changes ---------------------------------------------------------------


def _delta_text(before: Sequence[int], after: Sequence[int]) -> str:
    parts = []
    for c in range(min(len(before), len(after))):
        d = after[c] - before[c]
        if d:
            parts.append(f"{d:+d} {COLOR_NAMES[c]}")
    return ", ".join(parts)


def describe_changes(
    before: State, after: State, names: tuple[str, str] | None = None
) -> list[str]:
    """What differs between two states, as short sentences (for "what does this move
    change?"); pure, so the web's legality form and ``tablelog check`` share it."""
    names = names or ("Player 1", "Player 2")
    out: list[str] = []
    taken = [s for s in range(25) if before.board[s] != EMPTY and after.board[s] == EMPTY]
    placed = [s for s in range(25) if before.board[s] == EMPTY and after.board[s] != EMPTY]
    if taken:
        out.append(
            "off the board: "
            + ", ".join(f"{SPACE_NAMES[s]} ({COLOR_NAMES[before.board[s]]})" for s in taken)
        )
    if placed:
        out.append(
            "onto the board: "
            + ", ".join(f"{SPACE_NAMES[s]} ({COLOR_NAMES[after.board[s]]})" for s in placed)
        )
    if before.bag != after.bag:
        out.append(f"bag: {_delta_text(before.bag, after.bag)} (now {sum(after.bag)})")
    for seat in (0, 1):
        pb, pa = before.players[seat], after.players[seat]
        name = names[seat]
        if pb.tokens != pa.tokens:
            out.append(
                f"{name}'s tokens: {_delta_text(pb.tokens, pa.tokens)} (now {sum(pa.tokens)})"
            )
        new_cards = pa.cards[len(pb.cards) :] if pa.cards[: len(pb.cards)] == pb.cards else pa.cards
        for cid, color in new_cards:
            how = f" as {COLOR_NAMES[color]}" if color is not None and CARDS[cid].is_joker else ""
            out.append(f"{name} gains {cid}{how} ({CARDS[cid].describe()})")
        if pb.cards != pa.cards and len(pa.cards) == len(pb.cards):
            for (cid, cb), (_, ca) in zip(pb.cards, pa.cards, strict=True):
                if cb != ca and ca is not None:
                    out.append(f"{name}'s {cid} copies {COLOR_NAMES[ca]}")
        if pb.reserved != pa.reserved:
            gone = [r for r in pb.reserved if r not in pa.reserved]
            new = [r for r in pa.reserved if r not in pb.reserved]
            for lv, rid in new:
                if rid is None:
                    out.append(f"{name} reserves a level-{lv} card blind")
                elif (lv, None) in gone:
                    out.append(f"{name}'s blind reserve is {rid}")
                else:
                    out.append(f"{name} reserves {rid}")
            for _, rid in gone:
                if rid is not None and not any(c == rid for c, _ in pa.cards):
                    out.append(f"{name} no longer holds reserved {rid}")
        if pb.privileges != pa.privileges:
            out.append(f"{name}'s Privileges: {pb.privileges} → {pa.privileges}")
        for rid in pa.royals:
            if rid not in pb.royals:
                out.append(f"{name} takes Royal card {rid} ({ROYALS[rid].points} points)")
        if pb.points != pa.points:
            out.append(f"{name}'s Prestige points: {pb.points} → {pa.points}")
        if pb.crowns != pa.crowns:
            out.append(f"{name}'s Crowns: {pb.crowns} → {pa.crowns}")
    if before.table_privileges != after.table_privileges:
        out.append(f"Privileges on the table: {before.table_privileges} → {after.table_privileges}")
    for level in range(3):
        rb = before.pyramid[level]
        ra = after.pyramid[level]
        for slot in range(max(len(rb), len(ra))):
            was = rb[slot] if slot < len(rb) else None
            now = ra[slot] if slot < len(ra) else None
            if was == now:
                continue
            if now is None:
                out.append(
                    f"pyramid level {level + 1}: {was} leaves its slot "
                    "(refilled at the end of the turn)"
                )
            else:
                out.append(f"pyramid level {level + 1}: {now} revealed")
    if before.decks != after.decks:
        out.append("decks: " + "/".join(str(n) for n in after.decks) + " cards left")
    o = after.outcome
    if o is not None and before.outcome is None:
        how = o.condition if o.color is None else f"{o.condition} ({COLOR_NAMES[o.color]})"
        out.append(f"game over: {names[o.winner]} wins by {how}")
    elif (after.awaiting, after.turn, after.current) != (
        before.awaiting,
        before.turn,
        before.current,
    ):
        out.append("next: " + _next_text(after, names))
    return out


def _next_text(state: State, names: tuple[str, str]) -> str:
    name = names[state.current]
    aw = state.awaiting
    if aw == ACTION:
        return f"turn {state.turn}, {name} to play"
    if aw == COLOR:
        return f"{name} chooses the colour {state.last_card} copies"
    if aw == BONUS_TOKEN:
        return f"{name} takes the token {state.last_card}'s ability gives"
    if aw == STEAL:
        return f"{name} takes a token from {names[1 - state.current]}"
    if aw == ROYAL:
        return f"{name} takes a Royal card"
    if aw == DISCARD:
        return f"{name} discards down to 10 tokens"
    if aw == REVEAL:
        return f"a level-{(state.refill or (0, 0))[0] + 1} card is revealed into the pyramid"
    return aw


# --- JSON games ------------------------------------------------------------------------


@dataclass
class PayloadProblem:
    """The first problem of a game given as JSON payloads: ``event_number`` (1-based),
    the ``field`` when a payload is malformed, the message and violations."""

    event_number: int
    message: str
    field: str | None
    violations: list[Violation]
    turn: int | None
    position: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "event_number": self.event_number,
            "message": self.message,
            "field": self.field,
            "violations": [v.to_dict() for v in self.violations],
            "turn": self.turn,
            "position": self.position,
        }


def validate_payloads(
    payloads: Sequence[Any],
    meta: Sequence[dict[str, Any] | None] | None = None,
    names: tuple[str, str] = ("Player 1", "Player 2"),
) -> tuple[State, PayloadProblem | None, list[Flagged]]:
    """Fold a game given as JSON event payloads (``event_to_dict`` form), as the store
    imports it: events whose meta says ``played_illegally`` are forced.  Returns the
    state after the legal prefix, the first problem (or None) and the flagged events."""
    from ..errors import EventFormatError
    from .events import event_from_dict

    state = State(names)
    flagged: list[Flagged] = []
    meta = list(meta or [])
    for number, payload in enumerate(payloads, start=1):
        m = meta[number - 1] if number - 1 < len(meta) else None
        try:
            event = event_from_dict(payload)
        except EventFormatError as err:
            return state, PayloadProblem(number, str(err), err.field, [], state.turn, None), flagged
        if isinstance(m, dict) and m.get("played_illegally"):
            before = position_string(state)
            text = move_text_safe(state, event, names)
            turn = state.turn
            try:
                violations = _game.force(state, event)
            except IllegalMoveError as err:
                return (
                    state,
                    PayloadProblem(
                        number,
                        "cannot be replayed even as played",
                        None,
                        err.violations,
                        turn,
                        before,
                    ),
                    flagged,
                )
            flagged.append(Flagged(number, 0, 0, turn, text, violations, before))
            continue
        violations = _game.check(state, event)
        if violations:
            return (
                state,
                PayloadProblem(
                    number,
                    f"{move_text_safe(state, event, names)} is not allowed here",
                    None,
                    violations,
                    state.turn,
                    position_string(state),
                ),
                flagged,
            )
        _game.apply_unchecked(state, event)
    return state, None, flagged


def move_text_safe(state: State, event: Event, names: tuple[str, str] | None = None) -> str:
    """:func:`move_text`, falling back to the event type if the text cannot be made."""
    try:
        return move_text(state, event, names)
    except (IndexError, KeyError, ValueError, TypeError):
        return event.type


assert sum(PYRAMID_SIZES) == 12
