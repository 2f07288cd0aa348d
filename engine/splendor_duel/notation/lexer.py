"""Splendor Duel's decision keywords over the shared lexer (:mod:`engine.notation.lexer`),
and the pattern of its plain turn lines."""

from __future__ import annotations

from ...corrections import UNDO
from ...notation.lexer import (
    COMMENT_RE,
    GLYPHS,
    HEADER_RE,
    ILLEGAL_MARK,
    LINE_NAME,
    PLAIN_ARG,
    SIMPLE_NAME,
    TAG_NAME,
    TOKEN_RE,
    TURN_FAST_RE,
    TURN_RE,
    Line,
    LogicalLines,
    comment_text,
    did_you_mean,
    escape,
    logical_line,
    logical_lines,
    long_turn_number,
    no_decision,
    normalize,
    plain_turns_re,
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

#: A payment in brackets as :func:`.arguments.is_payment` has it, spaces for blanks.
_PAYMENT = r"\( *(?:-|(?:[WBGRKPY]\d{0,2})+(?: +(?:[WBGRKPY]\d{0,2})+)*)? *\)"
#: One plain decision: ``buy`` takes one payment among its arguments (a second bracket
#: is a note); the others take no bracket.  (No argument is a keyword: giving one back
#: never helps a match, so the arguments are taken possessively.)
_DECISION = (
    rf"buy(?: {PLAIN_ARG})*+(?: {_PAYMENT})?(?: {PLAIN_ARG})*+"
    rf"|(?:{'|'.join(sorted((k for k in KEYWORDS if k != 'buy'), key=len, reverse=True))})"
    rf"(?: {PLAIN_ARG})*+"
)
#: Plain turn lines, one decision a match (:func:`engine.notation.lexer.plain_turns_re`);
#: an ``undo`` ends the decision before it but is not plain itself.
PLAIN_TURNS_RE = plain_turns_re((*KEYWORDS, UNDO), _DECISION)

__all__ = [
    "COMMENT_RE",
    "GLYPHS",
    "HEADER_RE",
    "ILLEGAL_MARK",
    "KEYWORDS",
    "LINE_NAME",
    "PLAIN_TURNS_RE",
    "SIMPLE_NAME",
    "TAG_NAME",
    "TOKEN_RE",
    "TURN_FAST_RE",
    "TURN_RE",
    "did_you_mean",
    "Line",
    "LogicalLines",
    "comment_text",
    "escape",
    "logical_line",
    "logical_lines",
    "long_turn_number",
    "no_decision",
    "normalize",
    "unescape",
]
