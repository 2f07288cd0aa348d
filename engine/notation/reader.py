"""The walk through one game in notation, calling a visitor (as python-chess reads PGN),
for every game.

The reader knows the layout every game shares: headers, the setup lines (read by the
game's ``read_setup_line``), numbered turn lines of decisions, comments, marks and notes,
``undo``, and where each token stands.  What a header, the setup or a decision means is
the visitor's business (:mod:`.visitor`, :mod:`.builder`); the game's
:class:`.grammar.Grammar` (``visitor.grammar``) names its decisions.  Errors go to
``visitor.error``, which raises :class:`.visitor.Stop` to end the reading at the first
one (or :class:`.visitor.SkipLine` to go on with the next line).

The turn lines are scanned in one pass (:func:`.lexer.turns_re`): a decision is handed
to the visitor as it is written, with its match in the scan (its words split and its
place found only when the visitor asks).  The lines as the writer puts them (a turn's
number and player, decisions one space apart) are handed over together, as many as
follow one another (:meth:`.visitor.Visitor.visit_lines`), before anything else.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from ..corrections import UNDO
from .lexer import (
    GLYPHS,
    HEADER_RE,
    ILLEGAL_MARK,
    LINE_MARK,
    TOKEN_RE,
    TURN_NUMBERS,
    TURN_RE,
    Line,
    LogicalLines,
    comment_text,
    did_you_mean,
    header_fault,
    line_number,
    long_turn_number,
    mask_lines,
    no_decision,
    normalize,
    unescape,
)
from .visitor import Places, Run, SkipLine, Stop, Visitor


def read_game(text: str, visitor: Visitor) -> None:
    """Walk the game written in ``text``, calling ``visitor``; never raises for bad
    input (the visitor collects the errors)."""
    if not visitor.begin_game():
        return
    text = normalize(text)
    # The saved lines of the review are read apart, each from where it branches (the
    # visitor's ``visit_line``); the turn lines are read with a mark in their place.
    spans = visitor.line_spans = []
    visitor.line_source = text
    with contextlib.suppress(Stop):
        _walk(LogicalLines(mask_lines(text, 0, len(text), spans)), visitor)


def read_turns(text: str, visitor: Visitor, turn: int, places: Places | None = None) -> None:
    """Walk turn lines only, as they follow the setup of a game now at ``turn``: what was
    played next, with or without its turn number (the visitor knows the game so far).
    ``places`` say where the text's offsets stand when it is part of a larger text (a
    saved line's body).  Never raises for bad input."""
    if places is None:
        text = normalize(text)
    visitor.places = places or Places(text)
    with contextlib.suppress(Stop):
        _turns(text, 0, visitor, turn)


def _walk(lines: LogicalLines, visitor: Visitor) -> None:
    visitor.places = Places(lines.text)
    k = 0
    # Headers.
    line = lines.get(0)
    while line is not None:
        stripped = line.text.strip()
        if stripped:
            if stripped[0] != "[":
                break
            try:  # (not contextlib.suppress: no object made for each line)  # noqa: SIM105
                _header(line, visitor)
            except SkipLine:
                pass
        k += 1
        line = lines.get(k)
    try:
        if not visitor.end_headers():
            return
    except SkipLine:
        pass
    # Setup.
    read_setup_line = visitor.grammar.read_setup_line
    parts: dict[str, Any] = {}
    setup_line = line
    while line is not None:
        text = line.text
        stripped = text.strip()
        if not stripped:
            k += 1
        elif TURN_RE.match(text) or long_turn_number(text):
            break
        elif stripped[0] == "[":
            with contextlib.suppress(SkipLine):
                _late_header(visitor, line.number, text.index("[") + 1)
            k += 1
        else:
            try:
                k = read_setup_line(visitor, lines, k, parts)
            except SkipLine:
                k += 1
        line = lines.get(k)
    with contextlib.suppress(SkipLine):
        visitor.end_setup(parts, line or setup_line, line is None)
    _turns(lines.text, lines.start(k)[0], visitor, None)


def _turns(text: str, pos: int, visitor: Visitor, current: int | None) -> None:
    """The turn lines of ``text`` from offset ``pos`` (a line's start) on, scanned in
    one pass (:func:`.lexer.turns_re`); ``current`` is the turn a line without a number
    continues (None: such a line is an error in a game whose turn lines are numbered).

    The scan's usual matches (:func:`.lexer.turns_re`: a turn line's start with its
    first decisions, the next decision within a line) are gathered into runs
    (:data:`.visitor.Run`) and handed over when anything else comes (or the text ends);
    anything else is visited as it comes."""
    grammar = visitor.grammar
    visit_lines = visitor.visit_lines
    visit_decision = visitor.visit_decision
    visit_turn = visitor.visit_turn
    numbered = grammar.numbered
    fresh = True  # nothing read on the line yet
    skip = False  # the rest of the line is not read (the visitor said so)
    # What a comment, mark or saved line after a decision belongs to: 0, no decision
    # yet on the turn; 1, the decision as played (its comment); 2, the review, which
    # starts at the decision's first saved line, or at an empty comment ``{}``.
    phase = 0
    lines: list[Run] = []  # lines as the writer puts them, not visited yet
    run: list[str] = []  # the decisions of the last of them
    for m in grammar.turns.finditer(text, pos):
        first = m[4]
        if first is not None:  # a turn line's start as the writer puts it: the usual
            # (``fresh`` is left: what follows on the line is read with a turn number)
            skip = False
            number = m[2]
            current = TURN_NUMBERS.get(number) or int(number)
            second = m[5]
            if second is None:
                run = [first]
            else:
                third = m[6]
                run = [first, second] if third is None else [first, second, third]
            lines.append((m, current, m[3], run, current))
            phase = 1
            continue
        following = m[1]
        if following is not None:  # the next decision within a line, as the writer puts it
            if run:
                run.append(following)
            elif not skip:
                run = [following]
                lines.append((m, None, None, run, current))
            phase = 1
            continue
        nl, number, name, other, plain, decision, marks, item = m.groups("")[6:]
        if number and plain:  # a turn line's start, its first decision as the writer puts it
            fresh = skip = False
            current = int(number)
            run = [plain]
            lines.append((m, current, name or None, run, current))
            phase = 1
            continue
        run = []
        if lines:
            try:
                visit_lines(lines)
            except SkipLine:
                skip = True  # (the last line's rest)
            lines = []
        if nl:  # a line ends; what follows in the match is on the next
            fresh, skip = True, False
        elif skip:
            continue
        first = fresh
        try:
            if fresh:  # the line's first item
                if number:
                    fresh = False
                    current = int(number)
                    phase = 0
                    visit_turn(current, name or None, m)
                    if not (plain or decision or item):
                        # a line cut short, or left unfinished (``9. Bob:``)
                        line, column = visitor.where(m.start() + len(m.group().rstrip()))
                        visitor.error("syntax", line, column, no_decision(current, name or None))
                        continue
                elif other:
                    fresh = False
                    where = visitor.where(m.start("start"))
                    if other[0] == "[":
                        _late_header(visitor, *where)
                    else:
                        visitor.error("syntax", where[0], 1, long_turn_number(other) or "")
                    continue
                elif plain or decision or item:  # a line without a turn number
                    fresh = False
                    if current is None and numbered:
                        _no_number(visitor, m.start() + len(nl))
                else:
                    continue
            if plain:  # the first of a run (visited with the next ones)
                run = [plain]
                lines.append((m, None, None, run, current))
                phase = 1
            elif decision:
                illegal, notes, review = _marks(visitor, m, marks) if marks else _NO_MARKS
                phase = 1
                if decision[:4] == UNDO:  # (no other keyword starts so)
                    visitor.visit_correction(decision, m, current, illegal, notes)
                else:
                    visit_decision(decision, m, current, illegal, notes)
                if review >= 0:
                    phase = 2
                    _review(visitor, m.start("marks") + review, marks[review:])
            elif item[:1] == "{":
                body = comment_text(item)
                if body is None:
                    line, column = visitor.where(m.start("item"))
                    visitor.error("syntax", line, column, "this comment is never closed with }")
                    body = ""
                if phase == 2:
                    visitor.visit_review_comment(body)
                else:
                    visitor.visit_comment(body)
                    if phase == 1 and not body:  # ``{}``: the review's part follows
                        phase = 2
            elif item and (phase == 2 or (phase == 1 and line_number(item) is not None)):
                phase = 2
                _review(visitor, m.start("item"), item)
            elif item:
                _stray(visitor, visitor.where(m.start("item")), item, first)
        except SkipLine:
            skip = True
    if lines:
        with contextlib.suppress(SkipLine):
            visit_lines(lines)
    with contextlib.suppress(SkipLine):
        visitor.end_game()


def _no_number(visitor: Visitor, at: int) -> None:
    visitor.error(
        "syntax",
        visitor.where(at)[0],
        1,
        "expected a turn number such as '1.' before the decisions",
    )


def _header(line: Line, visitor: Visitor) -> None:
    m = HEADER_RE.fullmatch(line.text)
    if not m:
        at, message = header_fault(line.text)
        visitor.error("syntax", line.number, at + 1, message)
        return
    visitor.visit_header(m.group(1), unescape(m.group(2)), line.number, m.start(2))


def _late_header(visitor: Visitor, line: int, column: int) -> None:
    visitor.error("syntax", line, column, "headers come first, before the setup")


#: A decision without marks: not ``!illegal``, no notes, no review part.
_NO_MARKS: tuple[bool, list[str] | None, int] = (False, None, -1)


def _marks(visitor: Visitor, m: re.Match[str], marks: str) -> tuple[bool, list[str] | None, int]:
    """The ``!illegal`` mark and the notes after a decision (``marks``, of the scan's
    match ``m``), and where in ``marks`` the review's part starts (its first saved
    line; -1 when none is there); a note never closed and a mark that is none are
    errors."""
    illegal = False
    notes: list[str] | None = None
    for t_at in TOKEN_RE.finditer(marks):
        t = t_at.group()
        if t[:2] == "(" + LINE_MARK:
            return illegal, notes, t_at.start()
        if t == ILLEGAL_MARK:
            illegal = True
        elif t in GLYPHS:
            (notes := notes or []).append(t)
        elif t[0] == "(":
            if not t.endswith(")") or t.endswith("\\)"):
                line, column = visitor.where(m.start("marks") + t_at.start())
                visitor.error("syntax", line, column, "this note is never closed with )")
            (notes := notes or []).append(unescape(t[1:-1]).strip())
        else:
            line, column = visitor.where(m.start("marks") + t_at.start())
            visitor.error(
                "syntax",
                line,
                column,
                f"unknown mark {t!r} (assessments {' '.join(GLYPHS)}, or {ILLEGAL_MARK})",
            )
    return illegal, notes, -1


def _review(visitor: Visitor, at: int, text: str) -> None:
    """The review's part after a decision (``text``, at offset ``at``): its saved lines
    (:meth:`.visitor.Visitor.visit_line`), the marks and notes added after the game."""
    for t_at in TOKEN_RE.finditer(text):
        t = t_at.group()
        k = line_number(t) if t[0] == "(" else None
        if k is not None:
            visitor.visit_line(k)
        elif t in GLYPHS:
            visitor.visit_review_note(t)
        elif t[0] == "(" and t.endswith(")") and not t.endswith("\\)"):
            visitor.visit_review_note(unescape(t[1:-1]).strip())
        else:
            line, column = visitor.where(at + t_at.start())
            if t == ILLEGAL_MARK:
                message = (
                    f"{ILLEGAL_MARK} says what was played at the table: it goes before "
                    "the saved lines"
                )
            elif t[0] == "(":
                message = "this note is never closed with )"
            else:
                message = f"expected a mark ({' '.join(GLYPHS)}), a note or a saved line, got {t!r}"
            visitor.error("syntax", line, column, message)


def _stray(visitor: Visitor, where: tuple[int, int], stray: str, first: bool) -> None:
    """The error of ``stray``, what follows no decision (``first``: at a line's start)."""
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
        if tok in getattr(visitor, "names", ()):  # ``7. Bob take ...``
            msg = f"a player's name before the decisions takes a colon: '{tok}:'"
        elif first and tok.isdigit():  # ``7 Bob: take ...``
            msg = f"a turn's number ends with a dot: '{tok}.'"
        else:
            hint = did_you_mean(tok, (*keywords, UNDO))
            msg = (
                f"unknown decision {tok!r}{hint}; expected one of {', '.join(keywords)}, or {UNDO}"
            )
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
        if word.isdigit():  # ``1 Bob: ...``
            message = f"a turn's number ends with a dot: '{word}.'"
        else:
            hint = did_you_mean(word, visitor.grammar.setup_words)
            message = f"expected the setup ({usage}) or turn 1, got {word!r}{hint}"
        visitor.error("syntax", line.number, text.index(word) + 1, message)
        return None
    notes_at = len(tokens)
    if "{" in text or "(" in text or "!" in text or "?" in text:
        for j in range(1, len(tokens)):
            if tokens[j][0] in "{(!?":
                notes_at = j
                break
    return word, tokens[1:notes_at], tokens, notes_at
