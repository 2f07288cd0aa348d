"""A classic decision as people type it: its one canonical reading.

Phones capitalise the first letter and people type colour letters in any case, apart or
run together, with commas (``Take wbg``, ``take w b g``, ``take w,b,g``), shout (``BUY
1-5 =WWY``), or leave out a payment's ``=`` (``buy 1-05 wwy``).  Each of these stands
for one canonical text, which the ordinary reader then reads; canonical texts never come
here (the reader tries a text as it is first), so game files keep their one strict
reading.

>>> reading("Take wbg")
'take WBG'
>>> reading("take w, b, g"), reading("BUY 1-5 wwy"), reading("res l2 +y")
('take WBG', 'buy 1-05 =WWY', 'res L2 +Y')
>>> reading("3. Ann: buy 1.05 =- Reveal 1-7 {at last}")
'3. Ann: buy 1-05 =- reveal 1-07 {at last}'
>>> reading("noble n3"), reading("id 2-7 @2"), reading("pass") is None
('noble N-03', 'id 2-07 @2', True)
"""

from __future__ import annotations

import re

from ...corrections import UNDO
from ...notation.lexer import TYPED_TURN_RE
from .decisions import KEYWORDS

_CARD_RE = re.compile(r"([1-3])[-.](\d{1,2})")
_NOBLE_RE = re.compile(r"[nN]-?(\d{1,2})")
_DECK_RE = re.compile(r"[lL]([1-3])")
_LETTERS_RE = re.compile(r"=?[wbgrkyWBGRKY]+|=?-")
_WORDS = set(KEYWORDS) | {UNDO}


def reading(text: str) -> str | None:
    """The canonical text ``text`` stands for, when it differs from ``text`` and has one
    (the words of each decision put in canonical form); None otherwise."""
    m = TYPED_TURN_RE.match(text)  # kept as written
    prefix = text[: m.end()] if m else ""
    body, brace, comment = text[len(prefix) :].partition("{")
    words = [w for w in re.split(r"[\s,;]+", body) if w]
    if not words or words[0].lower() not in _WORDS:
        return None
    out: list[str] = []
    decision: list[str] = []
    for word in words:
        if word.lower() in _WORDS and decision:
            out.append(_decision(decision))
            decision = []
        decision.append(word)
    out.append(_decision(decision))
    canonical = prefix + " ".join(out) + (f" {brace}{comment}" if brace else "")
    return canonical if canonical != text else None


def _decision(words: list[str]) -> str:
    key, args = words[0].lower(), words[1:]
    if key in ("take", "ret"):
        if args and all(_LETTERS_RE.fullmatch(a) and "=" not in a for a in args):
            args = ["".join(args).upper()]
    elif key == "buy" and args:
        rest = args[1:]
        if rest and all(_LETTERS_RE.fullmatch(a) for a in rest):
            paid = "".join(a.lstrip("=") for a in rest).upper()
            rest = ["=" + paid]
        args = [_card(args[0]), *rest]
    else:
        args = [_argument(a) for a in args]
    return " ".join([key, *args])


def _argument(word: str) -> str:
    if word.lower() == "+y":
        return "+Y"
    if _DECK_RE.fullmatch(word):
        return word.upper()
    noble = _NOBLE_RE.fullmatch(word)
    if noble:
        return f"N-{int(noble.group(1)):02d}"
    return _card(word)


def _card(word: str) -> str:
    card = _CARD_RE.fullmatch(word)
    return f"{card.group(1)}-{int(card.group(2)):02d}" if card else word
