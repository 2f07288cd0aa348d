"""The setup, read and written: the board as drawn (in spiral order, or as a grid), the
pyramid (``level3``, ``level2``, ``level1``, or one ``pyramid`` line) and the
Privileges when they do not start on the table.

>>> from engine.splendor_duel.events import GameSetUp
>>> setup_lines(GameSetUp(0, tuple(range(5)) * 5, (("1-01",), ("2-01",), ("3-01",))), None)
['board   WBGRK WBGRK WBGRK WBGRK WBGRK', 'level3  3-01', 'level2  2-01', 'level1  1-01']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...notation.lexer import Line, LogicalLines
from ...notation.reader import setup_notes, setup_words
from ..catalogue import CARDS_BY_LEVEL, COLOR_LETTERS, SPIRAL_SPACES
from ..events import GameSetUp
from ..state import State
from .arguments import LETTER, Fail, card, described_card

if TYPE_CHECKING:
    from ...notation.visitor import Visitor


#: The words that start a setup line, and how an error names them.
SETUP_WORDS = ("board", "pyramid", "level1", "level2", "level3", "privileges")
_USAGE = "board, level3, level2, level1, privileges"
_GRID_ROW_RE = re.compile(r"\s*(?:([1-5])\s+)?((?:[WBGRKPY.]\s*){5})")
_GRID_HEAD_RE = re.compile(r"\s*a\s+b\s+c\s+d\s+e\s*")


# --- writing -----------------------------------------------------------------------------


def spiral_text(board: Sequence[int]) -> str:
    """The board's tokens in spiral order, five letters a group."""
    letters = "".join(COLOR_LETTERS[c] if 0 <= c < len(COLOR_LETTERS) else "?" for c in board)
    return " ".join(letters[i : i + 5] for i in range(0, len(letters), 5))


def write_setup_event(state: State, event: Any, names: Sequence[str]) -> str:
    """The setup on one line (for a move list; a game writes :func:`setup_lines`)."""
    levels = " / ".join(" ".join(row) for row in event.pyramid)
    return (
        f"setup first #{event.first_player + 1} board {spiral_text(event.board)} pyramid {levels}"
    )


def setup_lines(setup: GameSetUp, suffix: str | None) -> list[str]:
    """The setup as a game writes it, with the marks and comment ``suffix`` of its meta."""
    lines = [f"board   {spiral_text(setup.board)}"]
    for level in (3, 2, 1):
        row = setup.pyramid[level - 1] if level - 1 < len(setup.pyramid) else ()
        lines.append(f"level{level}  {' '.join(row)}".rstrip())
    if setup.privileges is not None:
        lines.append(f"privileges {setup.privileges[0]} {setup.privileges[1]}")
    if suffix:
        lines.append(suffix)
    return lines


# --- reading -----------------------------------------------------------------------------


def read_setup_line(visitor: Visitor, lines: LogicalLines, k: int, parts: dict[str, Any]) -> int:
    """Read the setup line ``lines[k]`` into ``parts`` (``board``, ``levels``,
    ``privileges``); returns the index of the next line."""
    line = lines[k]
    text = line.text
    read = setup_words(visitor, line, _USAGE)
    if read is None:
        return k + 1
    word, args, tokens, notes_at = read
    if word == "board":
        if not args:
            return _board_grid(visitor, lines, k, parts)
        letters = "".join(args)
        bad = next((j for j, c in enumerate(letters) if c not in LETTER), None)
        if bad is not None:
            visitor.error(
                "unknown",
                line.number,
                line.char_column(1, bad),
                f"{letters[bad]!r} is not a token letter (W B G R K P Y)",
            )
            return k + 1
        parts["board"] = (tuple(LETTER[c] for c in letters), line.number)
    elif word in ("level1", "level2", "level3"):
        cards = _setup_cards(visitor, line, args, 1, int(word[-1]))
        if cards is not None:
            parts.setdefault("levels", {})[int(word[-1])] = cards
    elif word == "pyramid":
        levels: list[list[str]] = [[]]
        for tok in args:
            if tok == "/":
                levels.append([])
            else:
                levels[-1].append(tok)
        if len(levels) != 3:
            visitor.error(
                "syntax",
                line.number,
                text.index(word) + 1,
                "expected pyramid LEVEL1 / LEVEL2 / LEVEL3 (cards separated by /)",
            )
            return k + 1
        got = {}
        offset = 1
        for lv, row in enumerate(levels, start=1):
            cards = _setup_cards(visitor, line, row, offset, lv)
            offset += len(row) + 1
            if cards is None:
                return k + 1
            got[lv] = cards
        parts["levels"] = got
    elif word == "privileges":
        if len(args) != 2 or not all(a.isdigit() and len(a) == 1 for a in args):
            visitor.error(
                "syntax",
                line.number,
                text.index(word) + 1,
                "expected privileges N N (Player1's, then Player2's), e.g. privileges 0 1",
            )
            return k + 1
        parts["privileges"] = (int(args[0]), int(args[1]))
    if notes_at < len(tokens):
        setup_notes(visitor, line, notes_at, tokens)
    return k + 1


def _setup_cards(
    visitor: Visitor, line: Line, row: list[str], first: int, level: int
) -> list[str] | None:
    """The cards of one level of the pyramid: ids, or descriptions that fit one card of
    the level not named before them."""
    out: list[str] = []
    for j in range(len(row)):
        try:
            if row[j][0] == '"':
                left = [cid for cid in CARDS_BY_LEVEL[level - 1] if cid not in out]
                out.append(described_card(row, j, left, f"of level {level}") or "")
            else:
                out.append(card(row, j))
        except Fail as f:
            col = line.token_place(0, line.text, first + j)[1]
            visitor.error(f.kind, line.number, col, f.message)
            return None
    return out


def _board_grid(visitor: Visitor, lines: LogicalLines, k: int, parts: dict[str, Any]) -> int:
    start = lines[k]
    k += 1
    rows: list[str] = []
    while (line := lines.get(k)) is not None and len(rows) < 5:
        text = line.text
        if not text.strip():
            k += 1
            continue
        if not rows and _GRID_HEAD_RE.fullmatch(text):
            k += 1
            continue
        m = _GRID_ROW_RE.fullmatch(text)
        if not m or (m.group(1) and int(m.group(1)) != len(rows) + 1):
            visitor.error(
                "syntax",
                line.number,
                1,
                f"expected row {len(rows) + 1} of the board grid: 5 letters (WBGRKPY, "
                ". for empty), optionally after the row number",
            )
            return k + 1
        rows.append(re.sub(r"\s+", "", m.group(2)))
        k += 1
    if len(rows) < 5:
        visitor.error("syntax", start.number, 1, "the board grid needs 5 rows of 5 letters")
        return k
    grid = "".join(rows)
    if "." in grid:
        visitor.error(
            "syntax", start.number, 1, "the board at setup holds 25 tokens, no empty space"
        )
        return k
    parts["board"] = (tuple(LETTER[grid[s]] for s in SPIRAL_SPACES), start.number)
    return k


def setup_parts_missing(parts: Mapping[str, Any]) -> list[str]:
    """What the setup still lacks before turn 1 (``board``, ``level3``...)."""
    missing = [] if "board" in parts else ["board"]
    levels = parts.get("levels", {})
    return missing + [f"level{lv}" for lv in (3, 2, 1) if lv not in levels]
