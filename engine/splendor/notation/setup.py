"""The setup lines, read: the nobles revealed, then the face-up cards of each level
(``nobles N-06 N-08 N-01``, ``level3 3-19 3-02 3-16 3-08`` ...), with the comments and
notes of the setup after them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...notation.lexer import LogicalLines
from ...notation.reader import setup_notes, setup_words
from ..catalogue import CARDS, NOBLES

if TYPE_CHECKING:
    from ...notation.visitor import Visitor

#: The words that start a setup line, and how an error names them.
SETUP_WORDS = ("nobles", "level3", "level2", "level1")
_USAGE = "nobles, level3, level2, level1"


def read_setup_line(visitor: Visitor, lines: LogicalLines, k: int, parts: dict[str, Any]) -> int:
    """Read the setup line ``lines[k]`` into ``parts`` (``nobles``, ``levels``, each
    with its line); returns the index of the next line."""
    line = lines[k]
    read = setup_words(visitor, line, _USAGE)
    if read is None:
        return k + 1
    word, args, tokens, notes_at = read
    known, what = (NOBLES, "noble") if word == "nobles" else (CARDS, "card")
    for j, w in enumerate(args):
        if w not in known:
            col = line.token_place(0, line.text, 1 + j)[1]
            visitor.error("unknown", line.number, col, f"{word}: unknown {what} {w!r}", fatal=True)
            return k + 1
    if word == "nobles":
        parts["nobles"] = (tuple(args), line.number)
    else:
        parts.setdefault("levels", {})[int(word[-1])] = (tuple(args), line.number)
    if notes_at < len(tokens):
        setup_notes(visitor, line, notes_at, tokens)
    return k + 1


def setup_missing(parts: Mapping[str, Any]) -> list[str]:
    """What the setup still lacks before turn 1 (``nobles``, ``level3``...)."""
    missing = [] if "nobles" in parts else ["nobles"]
    levels = parts.get("levels", {})
    return missing + [f"level{lv}" for lv in (3, 2, 1) if lv not in levels]
