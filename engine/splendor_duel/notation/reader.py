"""The walk through one game in notation, calling a visitor (as python-chess reads PGN).

The reader knows the layout of a game (headers, setup lines, numbered turn lines of
decisions, comments and marks) and where each token stands; what a header, the setup or
a decision means is the visitor's business (:mod:`.visitor`, :mod:`.builder`).  Errors
go to ``visitor.error``, which raises :class:`Stop` to end the reading at the first one.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ...corrections import UNDO
from .arguments import is_payment
from .lexer import (
    GLYPHS,
    HEADER_RE,
    ILLEGAL_MARK,
    KEYWORDS,
    TOKEN_RE,
    TURN_FAST_RE,
    TURN_RE,
    Line,
    LogicalLines,
    did_you_mean,
    logical_line,
    long_turn_number,
    no_decision,
    normalize,
    unescape,
)
from .setup import closed_comment, read_setup_line
from .visitor import Decision, Stop, Visitor

#: The plain-line path: the turn lines are offered to ``visitor.plain_lines`` straight
#: from the text, and only those it does not take whole are made Lines and read token by
#: token.  Tests turn it off to check that reading every line token by token gives
#: exactly the same result.
PLAIN_LINES = True

#: What ends a decision's arguments: the next decision or a correction.
_KEYWORD_SET = frozenset((*KEYWORDS, UNDO))


def read_game(text: str, visitor: Visitor) -> None:
    """Walk the game written in ``text``, calling ``visitor``; never raises for bad
    input (the visitor collects the errors)."""
    if not visitor.begin_game():
        return
    with contextlib.suppress(Stop):
        _walk(LogicalLines(normalize(text)), visitor)


def read_turns(text: str, visitor: Visitor, turn: int) -> None:
    """Walk turn lines only, as they follow the setup of a game now at ``turn``: what was
    played next, with or without its turn number (the visitor knows the game so far).
    Never raises for bad input."""
    with contextlib.suppress(Stop):
        _turns(normalize(text), 0, 1, visitor, turn)


def _walk(lines: LogicalLines, visitor: Visitor) -> None:
    k = 0
    # Headers.
    while (line := lines.get(k)) is not None:
        stripped = line.text.strip()
        if not stripped:
            k += 1
            continue
        if not stripped.startswith("["):
            break
        _header(line, visitor)
        k += 1
    if not visitor.end_headers():
        return
    # Setup.
    parts: dict[str, Any] = {}
    setup_line = lines.get(k)
    while (line := lines.get(k)) is not None:
        stripped = line.text.strip()
        if not stripped:
            k += 1
            continue
        if TURN_RE.match(line.text) or long_turn_number(line.text):
            break
        if stripped.startswith("["):
            _late_header(line, visitor)
            k += 1
            continue
        k = read_setup_line(visitor, lines, k, parts)
    end_line = lines.get(k)
    visitor.end_setup(parts, end_line or setup_line, end_line is None)
    _turns(lines.text, *lines.start(k), visitor, None)


def _turns(text: str, pos: int, number: int, visitor: Visitor, current: int | None) -> None:
    """The turn lines from offset ``pos`` of ``text`` (the start of line ``number``) on;
    ``current`` is the turn a line without a number continues (None: such a line is an
    error)."""
    # Most lines are plain (as the writer puts them): the visitor may take them straight
    # from the text (see GameBuilder.plain_lines); the others are read token by token.
    end = len(text)
    while pos <= end:
        skip = 0
        if PLAIN_LINES:
            stop, skip, current = visitor.plain_lines(text, pos, current)
            if stop > pos:
                number += text.count("\n", pos, stop)
                pos = stop
        line, pos, number = logical_line(text, pos, number)
        current = _line(visitor, line, current, skip)
    visitor.end_game()


def _line(visitor: Visitor, line: Line, current: int | None, skip: int) -> int | None:
    """Read one turn line token by token, after its first ``skip`` decisions (taken from
    the plain line already, its turn number visited); returns the turn it is on."""
    text = line.text
    if not text or text.isspace():
        return current
    m = TURN_FAST_RE.match(text)
    if m is None or (m.group(2) is None and ":" in text):
        m = TURN_RE.match(text)
    if m:
        current = int(m.group(1))
        if not skip:
            visitor.visit_turn(line, m, current)
        body_at = m.end()
        if not skip and not text[body_at:].strip():  # a line cut short, or left unfinished
            visitor.error(
                "syntax", line.number, len(text.rstrip()) + 1, no_decision(current, m.group(2))
            )
            return current
    else:
        if text.lstrip().startswith("["):
            _late_header(line, visitor)
            return current
        too_long = long_turn_number(text)
        if too_long:
            visitor.error("syntax", line.number, 1, too_long)
            return current
        body_at = 0
        if current is None:
            visitor.error(
                "syntax",
                line.number,
                1,
                "expected a turn number such as '1.' before the decisions",
            )
    _decisions(visitor, line, body_at, current, skip)
    return current


def _header(line: Line, visitor: Visitor) -> None:
    m = HEADER_RE.fullmatch(line.text)
    if not m:
        visitor.error(
            "syntax",
            line.number,
            line.text.index("[") + 1,
            'expected a header such as [Date "2024-03-12"]',
        )
        return
    visitor.visit_header(m.group(1), unescape(m.group(2)), line.number, m.start(2))


def _late_header(line: Line, visitor: Visitor) -> None:
    visitor.error(
        "syntax", line.number, line.text.index("[") + 1, "headers come first, before the setup"
    )


def _decisions(visitor: Visitor, line: Line, body_at: int, turn: int | None, skip: int) -> None:
    """Read the decisions of one line token by token, after the first ``skip`` (the
    visitor took those from the plain line already)."""
    body = line.text[body_at:] if body_at else line.text
    tokens = TOKEN_RE.findall(body)
    n = len(tokens)
    i = 0
    keywords = _KEYWORD_SET
    while i < n:
        tok = tokens[i]
        if tok[0] == "{":
            visitor.visit_comment(closed_comment(visitor, line, body_at, body, tokens, i))
            i += 1
            continue
        if tok not in keywords:
            _stray(visitor, line, body_at, body, tokens, i)
            i += 1
            while i < n and tokens[i] not in keywords and tokens[i][0] != "{":
                i += 1  # the arguments of an unknown decision
            continue
        # The decision's arguments, then its marks (!illegal, glyphs, (notes)).
        j = i + 1
        paid = tok != "buy"
        while j < n:
            t = tokens[j]
            c = t[0]
            if c == "{" or c == "!" or c == "?" or c == "}" or c == ")":
                break
            if t in keywords and tokens[j - 1] != "by":
                break
            if c == "(":
                if paid or not is_payment(t):
                    break
                paid = True
            j += 1
        args = tokens[i + 1 : j]
        illegal = False
        notes: list[str] | None = None
        while j < n:
            t = tokens[j]
            c = t[0]
            if t == ILLEGAL_MARK:
                illegal = True
            elif t in GLYPHS:
                (notes := notes or []).append(t)
            elif c == "(":
                if not t.endswith(")") or t.endswith("\\)"):
                    where = line.token_place(body_at, body, j)
                    visitor.error("syntax", where[0], where[1], "this note is never closed with )")
                (notes := notes or []).append(unescape(t[1:-1]).strip())
            elif c == "!" or c == "?":
                where = line.token_place(body_at, body, j)
                visitor.error(
                    "syntax",
                    where[0],
                    where[1],
                    f"unknown mark {t!r} (assessments {' '.join(GLYPHS)}, or {ILLEGAL_MARK})",
                )
            else:
                break
            j += 1
        if tok == UNDO:
            visitor.visit_correction(
                Decision(line, body_at, body, i, tok, args, illegal, notes, turn)
            )
        elif skip:
            skip -= 1
        else:
            visitor.visit_decision(
                Decision(line, body_at, body, i, tok, args, illegal, notes, turn)
            )
        i = j


def _stray(
    visitor: Visitor, line: Line, body_at: int, body: str, tokens: list[str], i: int
) -> None:
    tok = tokens[i]
    where = line.token_place(body_at, body, i)
    if tok in ("}", ")"):
        msg = f"a {tok!r} without its opening"
    elif tok[0] == "(":
        msg = f"a note {tok} must follow a decision"
    elif tok[0] in "!?":
        msg = f"the mark {tok!r} must follow a decision"
    elif tok[0] == '"':
        msg = f"a description {tok} must follow a card"
    else:
        hint = did_you_mean(tok, (*KEYWORDS, UNDO))
        msg = f"unknown decision {tok!r}{hint}; expected one of {', '.join(KEYWORDS)}, or {UNDO}"
    visitor.error("syntax", where[0], where[1], msg)
