"""The walk through one game in notation, calling a visitor (as python-chess reads PGN),
for every game.

The reader knows the layout every game shares: headers, the setup lines (read by the
game's ``read_setup_line``), numbered turn lines of decisions, comments, marks and notes,
``undo``, and where each token stands.  What a header, the setup or a decision means is
the visitor's business (:mod:`.visitor`, :mod:`.builder`); the game's
:class:`.grammar.Grammar` (``visitor.grammar``) names its decisions.  Errors go to
``visitor.error``, which raises :class:`.visitor.Stop` to end the reading at the first
one (or :class:`.visitor.SkipLine` to go on with the next line).

The turn lines are scanned in one pass, one item at a time (:func:`.lexer.turns_re`):
a decision is handed to the visitor as it is written, its words split and its place
found only when the visitor asks.
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
    long_turn_number,
    no_decision,
    normalize,
    unescape,
)
from .visitor import Places, Scan, SkipLine, Stop, Visitor


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
    text = normalize(text)
    visitor.places = Places(text)
    with contextlib.suppress(Stop):
        _turns(text, 0, visitor, turn)


def _walk(lines: LogicalLines, visitor: Visitor) -> None:
    visitor.places = Places(lines.text)
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
                _late_header(visitor, line.number, line.text.index("[") + 1)
            k += 1
            continue
        try:
            k = read_setup_line(visitor, lines, k, parts)
        except SkipLine:
            k += 1
    end_line = lines.get(k)
    with contextlib.suppress(SkipLine):
        visitor.end_setup(parts, end_line or setup_line, end_line is None)
    _turns(lines.text, lines.start(k)[0], visitor, None)


def _turns(text: str, pos: int, visitor: Visitor, current: int | None) -> None:
    """The turn lines of ``text`` from offset ``pos`` (a line's start) on, scanned in
    one pass (:func:`.lexer.turns_re`); ``current`` is the turn a line without a number
    continues (None: such a line is an error in a game whose turn lines are numbered).

    The matches are counted, not placed: the visitor is handed a decision's text and
    the number of its match (:class:`.visitor.Scan` finds where it stands when asked,
    for an error or a flag)."""
    grammar = visitor.grammar
    scan = grammar.turns
    visitor.scan = Scan(visitor.places, scan, pos)
    visit_decision = visitor.visit_decision
    visit_turn = visitor.visit_turn
    numbered = grammar.numbered
    fresh = True  # nothing read on the line yet
    skip = False  # the rest of the line is not read (the visitor said so)
    for k, (nl, number, name, other, plain, decision, marks, item) in enumerate(
        scan.findall(text, pos)
    ):
        if nl:  # a line ends; what follows in the match is on the next
            fresh, skip = True, False
        elif skip:
            continue
        try:
            if fresh:  # the line's first item
                if number:
                    fresh = False
                    current = int(number)
                    visit_turn(current, name or None, k)
                    if not (plain or decision or item):
                        # a line cut short, or left unfinished (``9. Bob:``)
                        _no_decision(visitor, k, current, name or None)
                        continue
                elif other:
                    fresh = False
                    where = visitor.where(visitor.scan.start(k, "start"))
                    if other[0] == "[":
                        _late_header(visitor, *where)
                    else:
                        visitor.error("syntax", where[0], 1, long_turn_number(other) or "")
                    continue
                elif plain or decision or item:  # a line without a turn number
                    fresh = False
                    if current is None and numbered:
                        _no_number(visitor, k)
                else:
                    continue
            if plain:  # the usual item: a decision as the writer puts it
                visit_decision(plain, k, current)
            elif decision:
                illegal, notes = _marks(visitor, k, marks) if marks else (False, None)
                if decision[:4] == UNDO:  # (no other keyword starts so)
                    visitor.visit_correction(decision, k, current, illegal, notes)
                else:
                    visit_decision(decision, k, current, illegal, notes)
            elif item[:1] == "{":
                body = comment_text(item)
                if body is None:
                    line, column = visitor.where(visitor.scan.start(k, "item"))
                    visitor.error("syntax", line, column, "this comment is never closed with }")
                    body = ""
                visitor.visit_comment(body)
            elif item:
                _stray(visitor, visitor.where(visitor.scan.start(k, "item")), item)
        except SkipLine:
            skip = True
    with contextlib.suppress(SkipLine):
        visitor.end_game()


def _no_decision(visitor: Visitor, k: int, turn: int, name: str | None) -> None:
    """A turn line that ends after its prefix: the error points past it."""
    m = visitor.scan.match(k)
    line, column = visitor.where(m.start() + len(m.group().rstrip()))
    visitor.error("syntax", line, column, no_decision(turn, name))


def _no_number(visitor: Visitor, k: int) -> None:
    m = visitor.scan.match(k)
    visitor.error(
        "syntax",
        visitor.where(m.start() + len(m.group("nl") or ""))[0],
        1,
        "expected a turn number such as '1.' before the decisions",
    )


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


def _late_header(visitor: Visitor, line: int, column: int) -> None:
    visitor.error("syntax", line, column, "headers come first, before the setup")


def _marks(visitor: Visitor, k: int, marks: str) -> tuple[bool, list[str] | None]:
    """The ``!illegal`` mark and the notes after a decision (``marks``, of the scan's
    ``k``-th match); a note never closed and a mark that is none are errors."""
    illegal = False
    notes: list[str] | None = None
    for m in TOKEN_RE.finditer(marks):
        t = m.group()
        if t == ILLEGAL_MARK:
            illegal = True
        elif t in GLYPHS:
            (notes := notes or []).append(t)
        elif t[0] == "(":
            if not t.endswith(")") or t.endswith("\\)"):
                line, column = visitor.where(visitor.scan.start(k, "marks") + m.start())
                visitor.error("syntax", line, column, "this note is never closed with )")
            (notes := notes or []).append(unescape(t[1:-1]).strip())
        else:
            line, column = visitor.where(visitor.scan.start(k, "marks") + m.start())
            visitor.error(
                "syntax",
                line,
                column,
                f"unknown mark {t!r} (assessments {' '.join(GLYPHS)}, or {ILLEGAL_MARK})",
            )
    return illegal, notes


def _stray(visitor: Visitor, where: tuple[int, int], stray: str) -> None:
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
