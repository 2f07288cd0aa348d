"""A Coloretto decision as people type it: its one canonical reading.

Phones capitalise the first letter, people shout, write ``+2`` as it is printed, say
``take row 2`` or leave out the ``row`` before the number a card goes to (``draw green
2``).  Each of these stands for one canonical text, which the ordinary reader then
reads; canonical texts never come here (the reader tries a text as it is first), so game
files keep their one strict reading.

>>> reading("Draw Green Row 2"), reading("draw +2 3"), reading("Take row 1")
('draw green row 2', 'draw plus row 3', 'take 1')
>>> reading("4. Ann: draw G, 2 {nice}")
'4. Ann: draw green row 2 {nice}'
>>> reading("draw green row 2") is None, reading("pass") is None
(True, True)
"""

from __future__ import annotations

import re

from engine.corrections import UNDO
from engine.notation.lexer import TYPED_TURN_RE

from ..cards import WORDS, kind_of
from .decisions import KEYWORDS

_WORDS = {*KEYWORDS, UNDO, "+2", "gray", "place", "put"}


def reading(text: str) -> str | None:
    """The canonical text ``text`` stands for, when it differs from ``text`` and has one;
    None otherwise."""
    m = TYPED_TURN_RE.match(text)  # kept as written
    prefix = text[: m.end()] if m else ""
    body, brace, comment = text[len(prefix) :].partition("{")
    words = [w.lower() for w in re.split(r"[\s,;]+", body) if w]
    if not words or words[0] not in _WORDS:
        return None
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("take", "row", "place", "put"):
            rest = words[i + 1 :]
            if w == "take" and rest[:1] == ["row"]:
                rest = rest[1:]  # take row 2
            number = rest[0] if rest and rest[0].isdigit() else None
            out.append(("take " if w == "take" else "row ") + (number or ""))
            i = len(words) - len(rest) + (1 if number else 0)
            continue
        k = kind_of(w) if w != "draw" else None
        if k is not None:
            out.append(WORDS[k])
            if i + 1 < len(words) and words[i + 1].isdigit():
                out.append(f"row {words[i + 1]}")  # the card and the row it goes to
                i += 2
                continue
        else:
            out.append(w)
        i += 1
    canonical = prefix + " ".join(o.strip() for o in out) + (f" {brace}{comment}" if brace else "")
    return canonical if canonical != text else None
