"""A game's review, for every game: lines of play saved after the game (what-ifs, each
branching from a position of the record or of another line), and the marks and notes
added to any step of them.  The review is kept apart from the record of what was played:
it never changes the record's events, their meta or its chain.

In notation a saved line is written in brackets after the decision it replaces, opening
with its turn number (``(21. Bob: take a1 b2 c3 22. Alice: ...)``); lines nest.  The
marks and notes the review adds to a decision of the record follow its saved lines, or
``{}`` when it has none (what was played at the table comes first, as it was logged);
those of a line's decisions are written after each, as at the table.

>>> from engine.review import parse_address
>>> parse_address("40"), parse_address("40/3.2")
((40, None, None), (40, 3, 2))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .fold import SNAPSHOT_EVERY, Fold
from .notation.lexer import GLYPHS
from .notation.marks import meta_suffix, name_fits_line

#: The marks the review may give a step: the assessments of chess annotation.
MARKS = GLYPHS
#: The most decisions a saved line holds (a whole game is a few hundred steps): a longer
#: one is refused, so that a review cannot grow without bound.
MAX_LINE = 400
#: How deep saved lines nest (a line in a line in a line ...).
MAX_DEPTH = 8


@dataclass
class Line:
    """A saved line: the decisions played from the position after step ``at`` (of the
    record, or of the line it branches from, in that line's step numbering: ``at`` + K is
    its K-th decision) instead of the decision of step ``at`` + 1; each decision's marks
    and notes (``meta``: ``annotations``, ``comment``), and the lines nested in it, by
    the position they branch at (in this line's numbering)."""

    at: int
    events: list[Any]
    meta: list[dict[str, Any] | None] = field(default_factory=list)
    lines: dict[int, list[Line]] = field(default_factory=dict)

    def padded_meta(self) -> list[dict[str, Any] | None]:
        return [*self.meta, *[None] * (len(self.events) - len(self.meta))][: len(self.events)]


#: An address of a step: ``STEP`` (the record's) or ``STEP/LINE.K`` (the K-th decision of
#: saved line LINE, which goes off the record at STEP).
ADDRESS_RE = re.compile(r"(\d{1,9})(?:/(\d{1,9})\.(\d{1,9}))?")


def parse_address(text: str) -> tuple[int, int | None, int | None]:
    """``STEP`` or ``STEP/LINE.K`` as numbers; ValueError saying what is expected."""
    m = ADDRESS_RE.fullmatch(text.strip())
    if m is None:
        raise ValueError(
            f"{text!r} is not a step: expected STEP (the record's) or STEP/LINE.K "
            "(the K-th decision of saved line LINE, which goes off the record at STEP)"
        )
    line, k = m.group(2), m.group(3)
    return int(m.group(1)), int(line) if line else None, int(k) if k else None


def format_address(step: int, line: int | None = None, k: int | None = None) -> str:
    return str(step) if line is None else f"{step}/{line}.{k}"


def line_text(rules: Any, state: Any, line: Line) -> str:
    """A saved line as the notation writes it, in brackets: its decisions from ``state``
    (the position it branches at, not changed), a turn number (and its player, when the
    names can stand in a turn prefix) where each turn starts, each decision's marks,
    notes and nested lines after it."""
    state = state.copy()
    names = list(state.names)
    show = len(set(names)) == len(names) and all(name_fits_line(str(n)) for n in names)
    parts: list[str] = []
    turn = None
    for k, (event, m) in enumerate(zip(line.events, line.padded_meta(), strict=True)):
        if state.turn != turn:
            turn = state.turn
            parts.append(f"{turn}. {names[state.current]}:" if show else f"{turn}.")
        nested = line.lines.get(line.at + k)
        meta = dict(m or {})
        if nested:
            meta["review"] = {"lines": [line_text(rules, state, n) for n in nested]}
        parts.append(rules.move_text(state, event) + meta_suffix(meta))
        rules.play(state, event)
    return "(" + " ".join(parts) + ")"


def meta_for_writing(
    rules: Any,
    names: Sequence[str],
    events: Sequence[Any],
    metas: Sequence[Mapping[str, Any] | None],
    lines: Mapping[int, Sequence[Line]],
    marks: Mapping[int, Mapping[str, Any]],
) -> list[Mapping[str, Any] | None]:
    """The record's meta with the review put in, for the game's writer: each decision's
    saved lines (written, in the position before it) and the marks and notes the review
    gave it (``marks``, by step: ``annotations``, ``comment``), under ``review``."""
    out: list[Mapping[str, Any] | None] = list(metas) + [None] * (len(events) - len(metas))
    if not lines and not marks:
        return out
    forced = [bool(m and m.get("played_illegally")) for m in out]
    fold = Fold(rules, names, every=SNAPSHOT_EVERY).extend(events, forced)
    for step in sorted({*(at + 1 for at in lines), *marks}):
        if not 1 <= step <= len(events):
            raise ValueError(f"the review names step {step}; the game has {len(events)}")
        review: dict[str, Any] = dict(marks.get(step) or {})
        if lines.get(step - 1):
            state = fold.state_at(step - 1)
            review["lines"] = [line_text(rules, state, line) for line in lines[step - 1]]
        out[step - 1] = {**(out[step - 1] or {}), "review": review}
    return out
