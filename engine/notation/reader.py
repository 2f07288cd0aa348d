"""The walk through one game in notation, calling a visitor (as python-chess reads PGN),
for every game.

The reader knows the layout every game shares: headers, the setup lines (read by the
game's ``read_setup_line``), numbered turn lines of decisions, comments, marks and notes,
``undo``, and where each token stands.  What a header, the setup or a decision means is
the visitor's business (:mod:`.visitor`, :mod:`.builder`); the game's
:class:`.grammar.Grammar` (``visitor.grammar``) names its decisions.  Errors go to
``visitor.error``, which raises :class:`.visitor.Stop` to end the reading at the first
one (or :class:`.visitor.SkipLine` to go on with the next line).

A turn line's body is scanned one item at a time (:func:`.lexer.items_re`): a decision
is handed to the visitor as it is written, its words split only when the visitor asks.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..corrections import UNDO
from .lexer import (
    GLYPHS,
    HEADER_RE,
    ILLEGAL_MARK,
    TOKEN_RE,
    TURN_RE,
    Line,
    LogicalLines,
    comment_text,
    did_you_mean,
    logical_line,
    long_turn_number,
    no_decision,
    normalize,
    unescape,
)
from .visitor import Decision, SkipLine, Stop, Visitor


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
        with contextlib.suppress(SkipLine):
            _header(line, visitor)
        k += 1
    go_on = True
    with contextlib.suppress(SkipLine):
        go_on = visitor.end_headers()
    if not go_on:
        return
    # Setup.
    read_setup_line = visitor.grammar.read_setup_line
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
            with contextlib.suppress(SkipLine):
                _late_header(line, visitor)
            k += 1
            continue
        try:
            k = read_setup_line(visitor, lines, k, parts)
        except SkipLine:
            k += 1
    end_line = lines.get(k)
    with contextlib.suppress(SkipLine):
        visitor.end_setup(parts, end_line or setup_line, end_line is None)
    _turns(lines.text, *lines.start(k), visitor, None)


def _turns(text: str, pos: int, number: int, visitor: Visitor, current: int | None) -> None:
    """The turn lines from offset ``pos`` of ``text`` (the start of line ``number``) on;
    ``current`` is the turn a line without a number continues (None: such a line is an
    error in a game whose turn lines are numbered)."""
    end = len(text)
    while pos <= end:
        line, pos, number = logical_line(text, pos, number)
        text_ = line.text
        if not text_ or text_.isspace():
            continue
        try:
            current = _line(visitor, line, current)
        except SkipLine:
            m = TURN_RE.match(text_)
            if m:
                current = int(m.group(1))
    with contextlib.suppress(SkipLine):
        visitor.end_game()


def _line(visitor: Visitor, line: Line, current: int | None) -> int | None:
    """Read one turn line; returns the turn it is on."""
    text = line.text
    m = TURN_RE.match(text)
    if m:
        current = int(m.group(1))
        visitor.visit_turn(line, m, current)
        body_at = m.end()
        if not text[body_at:].strip():  # a line cut short, or left unfinished
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
        if current is None and visitor.grammar.numbered:
            visitor.error(
                "syntax",
                line.number,
                1,
                "expected a turn number such as '1.' before the decisions",
            )
    _decisions(visitor, line, body_at, current)
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


def _decisions(visitor: Visitor, line: Line, body_at: int, turn: int | None) -> None:
    """Hand the items of one line's body to the visitor: each decision and correction
    as written, with its marks and notes; each comment; each stray token (an error)."""
    items = visitor.grammar.items
    text = line.text
    for item, (decision, undo, marks, comment, stray) in enumerate(items.findall(text, body_at)):
        if decision or undo:
            illegal = False
            notes = None
            if marks:
                illegal, notes = _marks(visitor, line, items, body_at, item, marks)
            d = Decision(items, line, body_at, item, decision or undo, illegal, notes, turn)
            if decision:
                visitor.visit_decision(d)
            else:
                visitor.visit_correction(d)
        elif comment:
            body = comment_text(comment)
            if body is None:
                where = _item_place(line, items, body_at, item)
                visitor.error("syntax", where[0], where[1], "this comment is never closed with }")
                body = ""
            visitor.visit_comment(body)
        else:
            _stray(visitor, line, _item_place(line, items, body_at, item), stray)


def _marks(
    visitor: Visitor, line: Line, items: Any, body_at: int, item: int, marks: str
) -> tuple[bool, list[str] | None]:
    """The ``!illegal`` mark and the notes (assessments and ``(text)``) after a decision;
    a note never closed and a mark that is none are errors."""
    illegal = False
    notes: list[str] | None = None
    for k, t in enumerate(TOKEN_RE.findall(marks)):
        if t == ILLEGAL_MARK:
            illegal = True
        elif t in GLYPHS:
            (notes := notes or []).append(t)
        elif t[0] == "(":
            if not t.endswith(")") or t.endswith("\\)"):
                where = _mark_place(line, items, body_at, item, k)
                visitor.error("syntax", where[0], where[1], "this note is never closed with )")
            (notes := notes or []).append(unescape(t[1:-1]).strip())
        else:
            where = _mark_place(line, items, body_at, item, k)
            visitor.error(
                "syntax",
                where[0],
                where[1],
                f"unknown mark {t!r} (assessments {' '.join(GLYPHS)}, or {ILLEGAL_MARK})",
            )
    return illegal, notes


def _item_place(line: Line, items: Any, body_at: int, item: int) -> tuple[int, int]:
    """(line, column) of the first token of the ``item``-th item from ``body_at``."""
    for k, m in enumerate(items.finditer(line.text, body_at)):
        if k == item:
            return line.place(TOKEN_RE.search(line.text, m.start()).start())  # type: ignore[union-attr]
    raise AssertionError("an item outside its line")  # pragma: no cover


def _mark_place(line: Line, items: Any, body_at: int, item: int, k: int) -> tuple[int, int]:
    """(line, column) of the ``k``-th mark of the ``item``-th item from ``body_at``."""
    for j, m in enumerate(items.finditer(line.text, body_at)):
        if j == item:
            found = list(TOKEN_RE.finditer(line.text, m.start("marks"), m.end("marks")))
            return line.place(found[k].start())
    raise AssertionError("a mark outside its line")  # pragma: no cover


def _stray(visitor: Visitor, line: Line, where: tuple[int, int], stray: str) -> None:
    tok = TOKEN_RE.match(stray).group()  # type: ignore[union-attr]
    if tok in ("}", ")"):
        msg = f"a {tok!r} without its opening"
    elif tok[0] == "(":
        msg = f"a note {tok} must follow a decision"
    elif tok[0] in "!?":
        msg = f"the mark {tok!r} must follow a decision"
    elif tok[0] == '"':
        msg = f"a description {tok} must follow a card"
    else:
        keywords = visitor.grammar.keywords
        hint = did_you_mean(tok, (*keywords, UNDO))
        msg = f"unknown decision {tok!r}{hint}; expected one of {', '.join(keywords)}, or {UNDO}"
    visitor.error("syntax", where[0], where[1], msg)


# --- the setup lines' shared pieces ---------------------------------------------------------


def closed_comment(
    visitor: Visitor, line: Line, offset: int, body: str, tokens: list[str], j: int
) -> str:
    """The text of ``tokens[j]``, a comment of ``body`` (an error, and no text, when it is
    never closed)."""
    text = comment_text(tokens[j])
    if text is None:
        where = line.token_place(offset, body, j)
        visitor.error("syntax", where[0], where[1], "this comment is never closed with }")
        return ""
    return text


def setup_notes(visitor: Visitor, line: Line, j0: int, tokens: list[str]) -> None:
    """The comments, notes and assessments of a setup line from its ``j0``-th token on
    (anything else there is an error)."""
    text = line.text
    for j in range(j0, len(tokens)):
        tok = tokens[j]
        if tok[0] == "{":
            visitor.visit_setup_comment(closed_comment(visitor, line, 0, text, tokens, j))
        elif tok[0] == "(" and tok.endswith(")"):
            visitor.visit_setup_note(unescape(tok[1:-1]).strip())
        elif tok in GLYPHS:
            visitor.visit_setup_note(tok)
        else:
            col = line.token_place(0, text, j)[1]
            visitor.error("syntax", line.number, col, f"unexpected {tok!r} in the setup")
            return


def setup_words(
    visitor: Visitor, line: Line, usage: str
) -> tuple[str, list[str], list[str], int] | None:
    """The first word of a setup line, its arguments and tokens, and where its notes
    start; None when the line holds only notes (read here) or a word that starts no setup
    line (an error naming the ``usage``: the setup lines the game has)."""
    text = line.text
    tokens = TOKEN_RE.findall(text)
    word = tokens[0]
    if word in ("}", ")"):
        visitor.error(
            "syntax", line.number, text.index(word) + 1, f"a {word!r} without its opening"
        )
        return None
    if word[0] in "{(!?":
        setup_notes(visitor, line, 0, tokens)
        return None
    if word not in visitor.grammar.setup_words:
        hint = did_you_mean(word, visitor.grammar.setup_words)
        visitor.error(
            "syntax",
            line.number,
            text.index(word) + 1,
            f"expected the setup ({usage}) or turn 1, got {word!r}{hint}",
        )
        return None
    args: list[str] = []
    notes_at = len(tokens)
    for j in range(1, len(tokens)):
        if tokens[j][0] in "{(!?":
            notes_at = j
            break
        args.append(tokens[j])
    return word, args, tokens, notes_at
