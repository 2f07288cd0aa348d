"""The setup lines: the colours removed from the box (none at four and five players: the
line is left out), then each seat's start cards in seat order, the seats apart by ``/``:

    removed pink grey
    start green yellow / blue orange

with the comments and notes of the setup after them.  A colour may be written by its
letter; the writer writes the word.

>>> from coloretto.events import GameSetUp
>>> setup_lines(GameSetUp(1, (5,), ((2,), (0,), (6,))))
['removed pink', 'start green / blue / yellow']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.notation.lexer import LogicalLines
from engine.notation.reader import setup_notes, setup_words

from ..cards import COLOURS, WORDS, kind_of
from ..events import GameSetUp

if TYPE_CHECKING:
    from engine.notation.visitor import Visitor

#: The words that start a setup line, and how an error names them.
SETUP_WORDS = ("removed", "start")
_USAGE = "removed, start"


def setup_lines(event: GameSetUp) -> list[str]:
    """The setup lines of ``event``, as the writer puts them."""
    out = []
    if event.removed:
        out.append("removed " + " ".join(WORDS[c] for c in event.removed))
    seats = [" ".join(WORDS[c] for c in cards) for cards in event.start]
    out.append("start " + " / ".join(seats))
    return out


def read_setup_line(visitor: Visitor, lines: LogicalLines, k: int, parts: dict[str, Any]) -> int:
    """Read the setup line ``lines[k]`` into ``parts`` (``removed``, ``start``, each with
    its line); returns the index of the next line."""
    line = lines[k]
    read = setup_words(visitor, line, _USAGE)
    if read is None:
        return k + 1
    word, args, tokens, notes_at = read
    seats: list[list[int]] = [[]]
    if word == "removed" and args in (["-"], ["none"]):
        args = []  # (nothing removed, said so: at four and five players)
    for j, w in enumerate(args):
        if w == "/" and word == "start":
            seats.append([])
            continue
        c = kind_of(w)
        if c is None or c >= len(COLOURS):
            col = line.token_place(0, line.text, 1 + j)[1]
            visitor.error(
                "unknown",
                line.number,
                col,
                f"{word}: {w!r} is not a colour ({', '.join(COLOURS)})",
                fatal=True,
            )
            return k + 1
        seats[-1].append(c)
    if word == "removed":
        parts["removed"] = (tuple(seats[0]), line.number)
    else:
        parts["start"] = (tuple(tuple(s) for s in seats), line.number)
    if notes_at < len(tokens):
        setup_notes(visitor, line, notes_at, tokens)
    return k + 1


def setup_missing(parts: Mapping[str, Any]) -> list[str]:
    """What the setup still lacks before turn 1: the start cards (the colours removed
    may be left out: none are, at four and five players)."""
    return [] if "start" in parts else ["start"]
