"""Splendor Duel's decision keywords over the shared lexer (:mod:`engine.notation.lexer`)."""

from __future__ import annotations

from ...notation.lexer import (
    COMMENT_RE,
    DECISION_RE,
    GLYPHS,
    HEADER_RE,
    ILLEGAL_MARK,
    LINE_NAME,
    SIMPLE_NAME,
    TAG_NAME,
    TOKEN_RE,
    TURN_FAST_RE,
    TURN_RE,
    Line,
    comment_text,
    did_you_mean,
    escape,
    logical_lines,
    long_turn_number,
    normalize,
    unescape,
)

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

__all__ = [
    "COMMENT_RE",
    "DECISION_RE",
    "GLYPHS",
    "HEADER_RE",
    "ILLEGAL_MARK",
    "KEYWORDS",
    "LINE_NAME",
    "SIMPLE_NAME",
    "TAG_NAME",
    "TOKEN_RE",
    "TURN_FAST_RE",
    "TURN_RE",
    "did_you_mean",
    "Line",
    "comment_text",
    "escape",
    "logical_lines",
    "long_turn_number",
    "normalize",
    "unescape",
]
