"""A decision as people type it: the readings of a text that is not canonical notation.

Phones capitalise the first letter (``Take b4 c4``, ``B4``), people separate spaces with
commas or nothing (``take c2,c3,c4``, ``take c2c3c4``), shout (``BUY 2-05``) or leave out
the keyword when the position says what is due (``b4`` while a bonus token is due).  Each
reading is a canonical text for the ordinary reader; :func:`readings` gives every one the
text may stand for in a position, and the caller keeps those that read.  Canonical texts
never come here (:func:`engine.splendor_duel.notation.moves.parse_move` tries them as
they are first), so game files are read as they are written.

>>> readings("Take b4 C4", None)
['take b4 c4']
>>> readings("take c2c3c4", None), readings("BUY 2-05 (b1 r2)", None)
(['take c2 c3 c4'], ['buy 2-05 (B1 R2)'])
>>> readings("res l2 @A1", None)
['res L2 @a1']
"""

from __future__ import annotations

import re

from ..state import ACTION, BONUS_TOKEN, COLOR, DISCARD, REVEAL, ROYAL, STEAL, State
from .keywords import KEYWORDS

_SPACE = r"[a-eA-E][1-5]"
#: Board spaces written together or apart: ``c2c3c4``, ``C2 c3``.
_SPACES_RE = re.compile(rf"(?:{_SPACE})+")
_ONE_SPACE_RE = re.compile(_SPACE)
#: Token letters or counts in any case: ``wwb``, ``b1r2y1``.
_COUNTS_RE = re.compile(r"(?:[wbgrkpyWBGRKPY]\d{0,2})+")
_CARD_RE = re.compile(r"\d[-.]\d{1,2}")
_ROYAL_RE = re.compile(r"[rR]-?[1-4]")
#: Separators people put between arguments, outside quotes and brackets.
_SEPARATORS = ",;/"


def _words(text: str) -> list[str]:
    """The words of ``text``, commas and semicolons read as spaces (not inside a quoted
    description or brackets, whose words the ordinary reader splits itself)."""
    out: list[str] = []
    word = ""
    depth = ""
    for ch in text:
        if depth:
            word += ch
            if ch == depth:
                depth = ""
            continue
        if ch == '"':
            depth = '"'
            word += ch
        elif ch == "(":
            depth = ")"
            word += ch
        elif ch.isspace() or ch in _SEPARATORS:
            if word:
                out.append(word)
            word = ""
        else:
            word += ch
    if word:
        out.append(word)
    return out


def _spaces(word: str) -> list[str] | None:
    """``c2c3c4`` as ``['c2', 'c3', 'c4']``; None if the word is not board spaces."""
    if not _SPACES_RE.fullmatch(word):
        return None
    return [m.lower() for m in _ONE_SPACE_RE.findall(word)]


def _argument(keyword: str, word: str) -> list[str]:
    """One argument of ``keyword`` in canonical case."""
    if word[0] in '"{':
        return [word]
    if word[0] == "(":
        inner = _words(word[1:-1] if word.endswith(")") else word[1:])
        return ["(" + " ".join(w.upper() for w in inner) + ")"]
    if keyword in ("take", "priv", "token"):
        spaces = _spaces(word)
        if spaces is not None:
            return spaces
        if word[0] == "=":
            return ["=" + word[1:].upper()]
    if keyword == "res":
        if word[0] == "@":
            return ["@" + word[1:].lower()]
        if word[0] in "lL" and word[1:2].isdigit():
            return ["L" + word[1:]]
        if _ONE_SPACE_RE.fullmatch(word):
            return ["@" + word.lower()]
    if _CARD_RE.fullmatch(word):
        return [word.replace(".", "-")]
    if keyword == "royal" and _ROYAL_RE.fullmatch(word):
        return [f"R-{word[-1]}"]
    if keyword in ("repl", "disc", "copy", "steal") and _COUNTS_RE.fullmatch(word):
        return [word.upper()]
    return [word]


def _keywords_for(state: State | None, words: list[str]) -> list[str]:
    """The decisions a text without its keyword may be, in ``state``."""
    if state is None or not words:
        return []
    first = words[0]
    aw = state.awaiting
    if all(_spaces(w) for w in words):
        if aw == BONUS_TOKEN:
            return ["token"]
        if aw == ACTION:
            single = len(_spaces("".join(words)) or ()) == 1
            if single and state.player.privileges and not state.replenished:
                return ["take", "priv"]
            return ["take"]
        return []
    if len(words) == 1 and _COUNTS_RE.fullmatch(first) and not any(c.isdigit() for c in first):
        if aw == COLOR and len(first) == 1:
            return ["copy"]
        if aw == STEAL and len(first) == 1:
            return ["steal"]
    if aw == DISCARD and all(_COUNTS_RE.fullmatch(w) for w in words):
        return ["disc"]
    if aw == ROYAL and len(words) == 1 and _ROYAL_RE.fullmatch(first):
        return ["royal"]
    if _CARD_RE.fullmatch(first):
        if aw == REVEAL:
            return ["reveal"]
        if aw == ACTION:
            return ["buy", "res"]
    return []


def readings(text: str, state: State | None) -> list[str]:
    """Every canonical text ``text`` may stand for in ``state`` (None: the position is
    unknown, so a keyword cannot be guessed), in order, without repeats."""
    words = _words(text.strip())
    if not words:
        return []
    keyword = words[0].lower()
    if keyword in KEYWORDS:
        candidates = [(keyword, words[1:])]
    else:
        glued = next((k for k in KEYWORDS if keyword.startswith(k) and len(keyword) > len(k)), None)
        if glued is not None and _spaces(words[0][len(glued) :]) is not None:
            candidates = [(glued, [words[0][len(glued) :], *words[1:]])]
        else:
            candidates = [(k, words) for k in _keywords_for(state, words)]
    out: list[str] = []
    for key, args in candidates:
        parts = [key]
        for word in args:
            parts.extend(_argument(key, word))
        reading = " ".join(parts)
        if reading not in out:
            out.append(reading)
    return out
