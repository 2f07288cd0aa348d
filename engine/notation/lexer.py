"""The game-agnostic words of every game's notation: tokens, header and turn prefixes,
escapes, and where a token stands in the text (line and column, across comments that span
several lines).  Each game's notation adds its own decision keywords.

>>> TOKEN_RE.findall('take c2 c3 =WB ! {a \\\\} b} (note)')
['take', 'c2', 'c3', '=WB', '!', '{a \\\\} b}', '(note)']
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Sequence

#: Move assessments, as in chess annotation.
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
#: The mark of a decision that stood at the table although the rules refuse it.
ILLEGAL_MARK = "!illegal"

#: One token: a comment ``{...}``, a quoted text, a note ``(...)`` (each possibly left
#: open), a mark (``!``, ``?!``, ``!illegal``), a word, or a stray closing bracket.
#: Bracketed texts are matched by runs (``[^}\\]*+``) between escapes, possessively: in
#: linear time and constant memory however long (one character at a time, a 10 MB
#: comment took 2 GB of the regex engine's backtracking stack).
TOKEN_RE = re.compile(
    r"""\{[^}\\]*+(?:\\.[^}\\]*+)*+\}?"""
    r"""|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?"""
    r"""|\([^)\\\n]*+(?:\\.[^)\\\n]*+)*+\)?"""
    r"""|[!?]+[a-z]*|[^\s{}()"!?]+|[})]""",
    re.S,
)
COMMENT_RE = re.compile(r"\{[^}\\]*+(?:\\.[^}\\]*+)*+\}", re.S)
HEADER_RE = re.compile(r'\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"([^"\\]*+(?:\\.[^"\\]*+)*+)"\s*\]\s*')
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
TURN_RE = re.compile(
    r"\s*(\d{1,9})\.(?=\s|$)\s*(?:([^\s:{}()\"\[\]][^:{}()\"\[\]\n]*?)\s*:(?=\s|$))?"
)
#: The most digits a turn number has: a longer run of digits before a dot is refused by
#: its length (:func:`long_turn_number`), never converted to a number.
TURN_DIGITS = 9
LONG_TURN_RE = re.compile(rf"\s*(\d{{{TURN_DIGITS + 1},}})\.(?=\s|$)")
#: The turn prefix as the writer puts it (``12. Alice: ``); anything else goes through
#: the general TURN_RE, which gives the same result on these lines.
TURN_FAST_RE = re.compile(r"(\d{1,9})\. (?:([^\s:{}()\"\[\]]+): )?")
#: A player's name as it may stand in a turn prefix.
LINE_NAME = re.compile(r"[^\s:{}()\"\[\]][^:{}()\"\[\]\n]*")
#: A player's name that may stand bare in a decision (``id 2-07 by Alice``).
SIMPLE_NAME = re.compile(r"[^\s:{}()\"\[\]#@=!?]+")
# A plain line's decisions: a lowercase keyword, then arguments, each with at least one
# character that is not a lowercase letter (c3, 1-05, =WWB, @a1, L2, WBRKP, a payment).
DECISION_RE = re.compile(
    r"""\s*([a-z]+(?:\s+[^\s{}()!?"]*[^a-z\s{}()!?"][^\s{}()!?"]*|\s*\([^()]*\))*)\s*|(\S+)"""
)


def long_turn_number(text: str) -> str | None:
    """Why a line that starts with a turn number of too many digits is refused (None
    for any other line).

    >>> long_turn_number("1234567890. Ann: take c3")
    'a turn number has at most 9 digits; this one has 10'
    >>> long_turn_number("12. Ann: take c3") is None
    True
    """
    m = LONG_TURN_RE.match(text)
    if m is None:
        return None
    return f"a turn number has at most {TURN_DIGITS} digits; this one has {len(m.group(1)):,}"


#: Words longer than this get no "did you mean" (no keyword is near, and comparing a
#: hostile 10 MB word with each keyword took seconds).
HINT_LENGTH = 24


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the choice closest to a mistyped ``word``, or ``""``.

    >>> did_you_mean("tkae", ["take", "buy"])
    ' (did you mean take?)'
    """
    if len(word) > HINT_LENGTH:
        return ""
    near = difflib.get_close_matches(word, choices, 1)
    return f" (did you mean {near[0]}?)" if near else ""


def escape(text: str, closer: str) -> str:
    """Backslash the backslashes and ``closer`` (the bracket that would end ``text``)."""
    return text.replace("\\", "\\\\").replace(closer, "\\" + closer)


def unescape(text: str) -> str:
    """Undo :func:`escape`.

    >>> unescape(r"a \\} b")
    'a } b'
    """
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)


def comment_text(tok: str) -> str | None:
    """The text of a comment token ``{...}``, None when it is never closed."""
    if not COMMENT_RE.fullmatch(tok):
        return None
    return unescape(tok[1:-1]).strip()


class Line:
    """One logical line: a physical line, or several joined by a multi-line comment."""

    __slots__ = ("text", "number", "starts")

    def __init__(self, text: str, number: int):
        self.text = text
        self.number = number
        self.starts: list[int] | None = None

    def place(self, offset: int) -> tuple[int, int]:
        """(line, column), both 1-based, of a character offset into ``text``."""
        if "\n" not in self.text:
            return self.number, offset + 1
        if self.starts is None:
            self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        k = bisect.bisect_right(self.starts, offset) - 1
        return self.number + k, offset - self.starts[k] + 1

    def token_place(self, offset: int, body: str, k: int) -> tuple[int, int]:
        """Where the k-th token of ``body`` (starting at ``offset`` in the line) is."""
        for j, m in enumerate(TOKEN_RE.finditer(body)):
            if j == k:
                return self.place(offset + m.start())
        return self.place(offset + len(body.rstrip()))

    def char_column(self, first: int, index: int) -> int:
        """Column of the ``index``-th character of the tokens from the ``first`` on."""
        text = self.text
        for j, m in enumerate(TOKEN_RE.finditer(text)):
            if j < first:
                continue
            if index < len(m.group()):
                return m.start() + index + 1
            index -= len(m.group())
        return len(text) + 1


def normalize(text: str) -> str:
    """The text without a byte-order mark, with ``\\n`` line ends."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def logical_lines(text: str) -> list[Line]:
    """The lines of ``text``, a comment left open joining the lines up to its end.

    Linear in the text: each physical line is scanned once, however many lines a
    comment spans (an open comment is always the last token of its line, since it runs
    to the end of the text; only the lines after it are searched for its end)."""
    raw = text.split("\n")
    out: list[Line] = []
    i = 0
    n = len(raw)
    while i < n:
        line = raw[i]
        number = i + 1
        i += 1
        opened = _open_comment(line, 0) if "{" in line else None
        if opened is None:
            out.append(Line(line, number))
            continue
        parts = [line]
        while i < n:
            segment = raw[i]
            i += 1
            parts.append(segment)
            # the line break is a character of the comment (escaped or not), so the
            # next line is searched from its start
            closed = _comment_end(segment, 0)
            while closed is not None:
                reopened = _open_comment(segment, closed + 1)
                if reopened is None:
                    break
                closed = _comment_end(segment, reopened + 1)
            if closed is not None:
                break
        out.append(Line("\n".join(parts), number))
    return out


#: What may end a comment, or escape the character after it.
_COMMENT_STOP = re.compile(r"[}\\]")


def _comment_end(text: str, start: int) -> int | None:
    """Inside a comment from ``start``: the index of the ``}`` that ends it, or None
    when ``text`` ends first."""
    pos = start
    while True:
        m = _COMMENT_STOP.search(text, pos)
        if m is None:
            return None
        if m.group() == "}":
            return m.start()
        pos = m.end() + 1  # a backslash: the character after it is the comment's


def _open_comment(text: str, start: int) -> int | None:
    """Where a comment opened at or after ``start`` and left open at the end of
    ``text`` begins, or None.  (It is the last token, but for a backslash ending the
    text, which the comment takes only with the line break after it.)"""
    opened = None
    for m in TOKEN_RE.finditer(text, start):
        token = m.group()
        if token[0] == "{" and not COMMENT_RE.fullmatch(token):
            opened = m.start()
    return opened
