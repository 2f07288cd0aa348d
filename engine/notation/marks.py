"""How every game's writer puts a decision's marks, notes and comment, a header tag and a
seat name in a turn prefix."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .lexer import GLYPHS, ILLEGAL_MARK, LINE_NAME, escape


def meta_suffix(meta: Mapping[str, Any] | None) -> str:
    """A decision's marks, notes and comment as written after it (`` !illegal (note)
    {comment}``), or the empty string.  The review's part (``meta["review"]``, which
    :func:`engine.review.meta_for_writing` puts in) follows: the saved lines, written,
    then the marks and notes added after the game (after ``{}`` when no line is there
    to tell them from what was played)."""
    if not meta:
        return ""
    parts: list[str] = []
    if meta.get("played_illegally"):
        parts.append(ILLEGAL_MARK)
    _notes(parts, meta)
    review = meta.get("review")
    if review:
        lines = review.get("lines") or ()
        parts.extend(lines)
        after: list[str] = []
        _notes(after, review)
        if after and not lines:
            parts.append("{}")
        parts.extend(after)
    return (" " + " ".join(parts)) if parts else ""


#: A note that would open as a saved line does (``(3. Bob: ...)``): written with its first
#: character escaped, so that it reads back as the note it is.
_LIKE_A_LINE = re.compile(r"\s*\d{1,9}\.\s")


def _notes(parts: list[str], meta: Mapping[str, Any]) -> None:
    for note in meta.get("annotations") or ():
        note = str(note)
        if note in GLYPHS:
            parts.append(note)
        elif note:
            written = escape(note, ")").replace("\n", " ")
            if _LIKE_A_LINE.match(written):
                written = "\\" + written
            parts.append("(" + written + ")")
    comment = meta.get("comment")
    if comment:
        parts.append("{" + escape(str(comment), "}") + "}")


def correction_suffix(meta: Mapping[str, Any] | None) -> str:
    """A correction's notes and comment (it is no move: never ``!illegal``)."""
    if meta and meta.get("played_illegally"):
        meta = {k: v for k, v in meta.items() if k != "played_illegally"}
    return meta_suffix(meta)


def tag(name: str, value: Any) -> str:
    """A header line: ``[Name "value"]``, the value escaped and on one line."""
    return f'[{name} "{escape(str(value), chr(34)).replace(chr(10), " ")}"]'


def name_fits_line(name: str) -> bool:
    """Whether a seat name can stand in a turn prefix (``12. Ann:``)."""
    return bool(LINE_NAME.fullmatch(name)) and name == name.strip() and not re.match(r"\d+\.", name)
