"""The game-agnostic words of every game's notation: tokens, header and turn prefixes,
escapes, and where a token stands in the text (line and column, across comments that span
several lines).  Each game's notation adds its own decision keywords.

>>> TOKEN_RE.findall('take c2 c3 =WB ! {a \\\\} b} (note)')
['take', 'c2', 'c3', '=WB', '!', '{a \\\\} b}', '(note)']
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence

from ..corrections import UNDO

#: Move assessments, as in chess annotation.
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
#: The mark of a decision that stood at the table although the rules refuse it.
ILLEGAL_MARK = "!illegal"

#: The pieces of a token.  Bracketed texts are matched by runs (``[^}\\]*+``) between
#: escapes, possessively: in linear time and constant memory however long (one character
#: at a time, a 10 MB comment took 2 GB of the regex engine's backtracking stack).
_COMMENT = r"\{[^}\\]*+(?:\\.[^}\\]*+)*+\}?"
_QUOTED = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?'
_NOTE = r"\([^)\\\n]*+(?:\\.[^)\\\n]*+)*+\)?"
_MARK = r"[!?]+[a-z]*"
#: A space within a line.
_SPACE = r"[^\S\n]"
#: A character of a word (anything but a space, a bracket, a quote or a mark).
_WORD_CHAR = r'[^\s{}()"!?]'
_TOKEN = rf"{_COMMENT}|{_QUOTED}|{_NOTE}|{_MARK}|{_WORD_CHAR}+|[}})]"

#: One token: a comment ``{...}`` (which may go on over several lines), a quoted text, a
#: note ``(...)`` (each possibly left open), a mark (``!``, ``?!``, ``!illegal``), a word,
#: or a stray closing bracket.  (An escape takes any character after it, a line break
#: too; the turn lines' scanner, which keeps a note on its line, has its own pattern.)
TOKEN_RE = re.compile(_TOKEN, re.S)
COMMENT_RE = re.compile(r"\{[^}\\]*+(?:\\.[^}\\]*+)*+\}", re.S)
HEADER_RE = re.compile(r'\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"([^"\\]*+(?:\\.[^"\\]*+)*+)"\s*\]\s*')
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: A header's value, its quotes included (read only to say what is wrong with a header).
_HEADER_VALUE = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'


def header_fault(text: str) -> tuple[int, str]:
    """Why ``text``, a line among the headers that opens with ``[``, is not a header
    (``[Tag "value"]``, one a line): the offset in ``text`` of the first thing wrong,
    and what the rule is there.

    >>> header_fault('[Player1 "Ann"] [Player2 "Bo"]')
    (16, 'one header a line: this one goes on a line of its own')
    >>> header_fault('[Date 2024-03-14]')
    (6, 'the value of Date goes in double quotes: [Date "..."]')
    """
    n = len(text)

    def spaces(at: int) -> int:
        while at < n and text[at].isspace():
            at += 1
        return at

    at = spaces(text.index("[") + 1)
    tag = TAG_NAME.match(text, at)
    if tag is None:
        return at, 'a header opens with its tag, a letter first, as [Date "2024-03-14"]'
    name = tag.group()
    at = spaces(tag.end())
    if at == tag.end() and at < n and text[at] == '"':
        return at, f'a space goes between the tag and its value: [{name} "..."]'
    if at == n or text[at] != '"':
        return at, f'the value of {name} goes in double quotes: [{name} "..."]'
    value = re.compile(_HEADER_VALUE).match(text, at)
    if value is None:
        return at, 'this value is never closed with " (a quote inside it is written \\")'
    at = spaces(value.end())
    if at < n and text[at] == '"':
        seats = ' (the players: [Player1 "..."], [Player2 "..."], one a line)'
        plural = name.lower() in ("players", "player", "names")
        return at, "a header holds one value" + (seats if plural else "")
    if at == n or text[at] != "]":
        return at, f"the header {name} is never closed with ]"
    at = spaces(at + 1)
    if at < n and text[at] == "[":
        return at, "one header a line: this one goes on a line of its own"
    return at, "nothing follows a header on its line"


#: A character of a player's name in a turn prefix, but a space.
_NAME_CHAR = r'[^\s:{}()"\[\]]'
#: A turn line's prefix after its first spaces: the ``number``, and the player's ``name``
#: before a colon when written (the words of the name, spaces between them, none
#: around; a line without a colon has none, which a look ahead sees at once).  A name of
#: one word right before its colon, as the writer puts it, is tried first.
_PREFIX = (
    rf"(?P<number>\d{{1,9}})\.(?!\S){_SPACE}*+"
    rf"(?:(?P<name>{_NAME_CHAR}++(?=:)|(?=[^:\n]*+:){_NAME_CHAR}++(?:{_SPACE}++{_NAME_CHAR}++)*+)"
    rf"{_SPACE}*+:(?!\S)|)"
)
#: The turn numbers of the first thousand turns, by their text: every turn line has one,
#: and a look-up costs less than ``int``.
TURN_NUMBERS = {str(n): n for n in range(1000)}
#: A turn line's prefix (``12.``, ``12. Ann:``) at the start of a line.
TURN_RE = re.compile(rf"\s*+{_PREFIX}", re.M)
#: The most digits a turn number has: a longer run of digits before a dot is refused by
#: its length (:func:`long_turn_number`), never converted to a number.
TURN_DIGITS = 9
_LONG_NUMBER = rf"\d{{{TURN_DIGITS + 1},}}"
LONG_TURN_RE = re.compile(rf"\s*({_LONG_NUMBER})\.(?=\s|$)")
#: A player's name as the writer puts it in a turn prefix.
_PREFIX_NAME = r'[^\s:{}()"\[\]]+'

#: A turn line's number and player as people type them before a decision (``12. Ann: ``,
#: spaces as they come): left out when a typed decision is read or completed.
TYPED_TURN_RE = re.compile(
    rf"\s*(?:\d+\.\s+(?:(?P<name>{_PREFIX_NAME}):\s+)?|(?P<alone>{_PREFIX_NAME}):\s+)"
)

#: A player's name as it may stand in a turn prefix.
LINE_NAME = re.compile(r"[^\s:{}()\"\[\]][^:{}()\"\[\]\n]*")
#: A player's name that may stand bare in a decision (``id 2-07 by Alice``).
SIMPLE_NAME = re.compile(r"[^\s:{}()\"\[\]#@=!?]+")


def turns_re(
    keywords: Sequence[str], bracketed: Mapping[str, str] | None = None
) -> re.Pattern[str]:
    """The scanner of the turn lines, over the whole text: each match is what stands at
    a place of the text, in order, each part perhaps missing: a line's end, then what a
    line starts with, then one item.  A comment may go on over several lines (a logical
    line); everything else stays on its line.  Each match starts where the one before
    ends.  A match's groups are

    * ``next``: a decision within a line, after one space, as the writer puts it (one
      space between its words, followed by the next decision or the line's end; no
      marks): its text, as ``decision`` would have it.  Most decisions after a line's
      first are so: this alternative, tried first, is the scan's quick way through
      them (a match with it has no other group);
    * ``turn``, ``player``, ``first``, ``second``, ``third``: a turn line's start as
      the writer puts it (its number, a dot, a space, the player's name when written, a
      colon and a space; no colon on the line when none is) and its first decisions
      (up to three) as ``next`` has them: the usual start of a line, its quick way (a
      match with it has no other group);
    * ``nl``: a line's end (a match that starts a line but the first);
    * ``number``, ``name``: a turn line's prefix (``12.``, ``12. Ann:``; the words of
      the name, spaces between them, none around, and a line without a colon has none,
      which a look ahead sees at once);
    * ``start``: another start of a line, up to the line's end: a header (``[``) or a
      turn number of too many digits;
    * ``plain``: a decision as ``next`` has it, the first of its line or after another
      item (tried before ``decision``);
    * ``decision``: any other decision: a keyword (one of ``keywords``, or ``undo``)
      and its arguments, as written: the tokens after it up to the next keyword (but
      right after ``by``, which names a player), mark, note, comment or closing
      bracket.  ``bracketed`` gives the keywords that take one bracketed argument and
      its pattern (a payment: ``buy 2-05 (B1 R2)``), which a note never matches;
    * ``marks``: the marks and notes after it (``!illegal``, ``!?``, ``(note)``, and
      marks that are none, which the reader reports);
    * ``item``: a comment ``{...}`` (perhaps never closed), or what stands where a
      decision should: a token that starts none, with the tokens after it up to the
      next keyword or comment.

    Tokens are those of :data:`TOKEN_RE`, so the text of a decision splits into its
    keyword and arguments with ``TOKEN_RE.findall``.

    >>> scan = turns_re(["take", "buy"], {"buy": r"\\(B\\d\\)"})
    >>> text = "3. Al: take c3 =W ! (a) {b\\nc} buy 1-05 (B1) (n) tkae x undo\\n4. take c3 buy 1-05"
    >>> for m in scan.finditer(text):
    ...     print({k: v for k, v in m.groupdict().items() if v} or "(end)")
    {'number': '3', 'name': 'Al', 'decision': 'take c3 =W', 'marks': ' ! (a)'}
    {'item': '{b\\nc}'}
    {'decision': 'buy 1-05 (B1)', 'marks': ' (n)'}
    {'item': 'tkae x'}
    {'decision': 'undo'}
    {'turn': '4', 'first': 'take c3', 'second': 'buy 1-05'}
    (end)
    """
    bracketed = dict(bracketed or {})
    words = sorted({*keywords, UNDO}, key=len, reverse=True)
    w = _WORD_CHAR
    keyword = rf"(?:{'|'.join(map(re.escape, words))})(?!{w})"
    # A word with a character no keyword has (a digit, a capital, =, @, -) is never one;
    # an all-lowercase word is an argument when it is no keyword, or follows "by".
    other = rf"[a-z]*+[^\sa-z{{}}()\"!?]{w}*+"
    by = rf"by(?!{w})(?:{_SPACE}*+by(?!{w}))*+(?:{_SPACE}*+{w}++|)"
    args = rf"(?:{_SPACE}*+(?:{other}|(?!{keyword})(?:{by}|[a-z]++(?!{w})|{_QUOTED})))*+"
    simple = [k for k in words if k not in bracketed]
    decisions = [rf"(?:{'|'.join(map(re.escape, simple))})(?!{w}){args}"]
    for word, pattern in bracketed.items():
        decisions.insert(0, rf"{re.escape(word)}(?!{w}){args}(?:{_SPACE}*+{pattern}{args}|)")
    # As the writer puts them: words that are no keyword, one space apart, up to the next
    # decision or the line's end (so exactly what ``decisions`` reads there); their
    # characters printable ASCII (what ``other`` matches of it), checked in one look.
    arg = r"[a-z]*+[#-'*->@-`|~][#-'*->@-z|~]*+"
    end = rf"(?= {keyword}|$)"
    plain = [rf"(?:{'|'.join(map(re.escape, (k for k in simple if k != UNDO)))})"]
    plain[0] += rf"(?: {arg})*+{end}"
    for word, pattern in bracketed.items():
        plain.insert(0, rf"{re.escape(word)}(?: {arg})*+(?: {pattern}(?: {arg})*+|){end}")
    one = f"(?:{'|'.join(plain)})"
    name = rf"(?P<player>{_NAME_CHAR}++): |(?![^:\n]*+:)"  # one word, or none on the line
    token = _TOKEN.replace(_COMMENT, rf"(?s:{_COMMENT})")
    rest = rf"(?:{_SPACE}++|{token})*+"  # the rest of a logical line
    # (What may be missing is an alternative with nothing, ``(?:x|)``, not ``(?:x)?``:
    # the regex engine keeps the groups matched so far at every alternative tried inside
    # a repeat, and ``?`` is one.)
    return re.compile(
        rf"(?<=.) (?P<next>{one})"  # the next decision within a line: the usual
        # a turn line's start and its first decisions as the writer puts them: the usual
        rf"|(?:\n|(?<![^\n]))(?P<turn>\d{{1,9}})\. (?:{name})"
        rf"(?P<first>{one})(?: (?P<second>{one})(?: (?P<third>{one})|)|)"
        rf"|(?:(?P<nl>\n)|)(?:(?<![^\n]){_SPACE}*+(?:{_PREFIX}"  # at a line's start
        rf"|(?P<start>\[{rest}|{_LONG_NUMBER}\.(?!\S){rest}))|){_SPACE}*+"
        rf"(?:(?P<plain>{one})|(?P<decision>{'|'.join(decisions)})"
        rf"(?:(?P<marks>(?={_SPACE}*+[!?(])(?:{_SPACE}*+(?:{_MARK}|{_NOTE}))*+)|)"
        rf"|(?P<item>(?s:{_COMMENT})|(?:{token})(?:{_SPACE}*+(?!{keyword}|\{{)(?:{token}))*+)|)",
        re.M,
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


def no_decision(turn: int, name: str | None) -> str:
    """What a turn line without a decision is told (``9. Bob:``, a file cut short).

    >>> no_decision(9, "Bob ")
    "turn 9 has no decision: the line ends after the player's name (Bob)"
    """
    after = f"the player's name ({name.strip()})" if name else "the turn number"
    return f"turn {turn} has no decision: the line ends after {after}"


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean X?)`` for the choice closest to a mistyped ``word``, or ``""``.

    >>> did_you_mean("tkae", ["take", "buy"])
    ' (did you mean take?)'
    """
    if len(word) > HINT_LENGTH:
        return ""
    import difflib  # (only a mistyped word needs it: every reading would pay its import)

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
    """The lines of ``text``, a comment left open joining the lines up to its end."""
    out = []
    pos, number, end = 0, 1, len(text)
    while pos <= end:
        line, pos, number = logical_line(text, pos, number)
        out.append(line)
    return out


def logical_line(text: str, pos: int, number: int) -> tuple[Line, int, int]:
    """The logical line that starts at offset ``pos`` of ``text`` (the start of physical
    line ``number``), with the offset and number of the line after it.

    Linear in the line: each physical line is scanned once, however many lines a
    comment spans (an open comment is always the last token of its line, since it runs
    to the end of the text; only the lines after it are searched for its end)."""
    end = text.find("\n", pos)
    if end < 0:
        end = len(text)
    line = text[pos:end]
    if "{" not in line or _open_comment(line, 0) is None:
        return Line(line, number), end + 1, number + 1
    after = number + 1
    while end < len(text):
        start = end + 1
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        after += 1
        # the line break is a character of the comment (escaped or not), so the
        # next line is searched from its start
        closed = _comment_end(text, start, end)
        while closed is not None:
            reopened = _open_comment(text, closed + 1, end)
            if reopened is None:
                break
            closed = _comment_end(text, reopened + 1, end)
        if closed is not None:
            break
    return Line(text[pos:end], number), end + 1, after


class LogicalLines:
    """The logical lines of a text, each made when first asked for: a reader may go on
    from where a line starts (:meth:`start`) reading the text itself, without a Line
    for each of the lines after it."""

    __slots__ = ("text", "_lines", "_starts", "_next")

    def __init__(self, text: str):
        self.text = text
        self._lines: list[Line] = []
        self._starts: list[int] = []
        #: The offset and number of the next line to make.
        self._next = (0, 1)

    def get(self, k: int) -> Line | None:
        """The ``k``-th logical line (from 0), None after the last."""
        lines = self._lines
        if k < len(lines):
            return lines[k]
        text = self.text
        while len(lines) <= k:
            pos, number = self._next
            if pos > len(text):
                return None
            line, after, after_number = logical_line(text, pos, number)
            lines.append(line)
            self._starts.append(pos)
            self._next = (after, after_number)
        return lines[k]

    def __getitem__(self, k: int) -> Line:
        line = self.get(k)
        if line is None:
            raise IndexError(k)
        return line

    def start(self, k: int) -> tuple[int, int]:
        """The offset and number of the ``k``-th line's start (after the last line: past
        the end of the text)."""
        line = self.get(k)
        if line is None:
            return len(self.text) + 1, self._next[1]
        return self._starts[k], line.number


#: What may end a comment, or escape the character after it.
_COMMENT_STOP = re.compile(r"[}\\]")


def _comment_end(text: str, start: int, end: int) -> int | None:
    """Inside a comment from ``start``: the index of the ``}`` that ends it, or None
    when the line (up to ``end``) ends first."""
    pos = start
    while True:
        m = _COMMENT_STOP.search(text, pos, end)
        if m is None:
            return None
        if m.group() == "}":
            return m.start()
        pos = m.end() + 1  # a backslash: the character after it is the comment's


def _open_comment(text: str, start: int, end: int | None = None) -> int | None:
    """Where a comment opened at or after ``start`` and left open at the end of the
    line (``text`` up to ``end``) begins, or None.  (It is the last token, but for a
    backslash ending the line, which the comment takes only with the line break after
    it.)"""
    opened = None
    for m in TOKEN_RE.finditer(text, start, len(text) if end is None else end):
        token = m.group()
        if token[0] == "{" and not COMMENT_RE.fullmatch(token):
            opened = m.start()
    return opened


# --- saved lines: (21. Bob: take a1 b2 c3 22. Alice: ...) ------------------------------------

#: What opens a saved line (a line of play from the review, written after the decision it
#: replaces): a bracket, then a turn number and its dot (``(21. Bob: ...``), which tells it
#: from a note (``(disputed)``) and from a payment (``(B1 R2)``).  Comments and quoted
#: texts are matched whole, so that a bracket in one opens nothing.
_LINE_SCAN = re.compile(rf"(?s:{_COMMENT})|{_QUOTED}|\((?=[^\S\n]*+\d{{1,9}}\.\s)")
#: What may open a saved line, wherever it stands: a text without it has none (the quick
#: look that spares every other text the scan).
_LINE_HINT = re.compile(r"\((?=[^\S\n]*+\d{1,9}\.\s)")
#: What a saved line's closing bracket is looked for among: comments and quoted texts
#: (whole), escapes, and brackets (a payment or a nested line opens one).
_BRACKETS = re.compile(rf"(?s:{_COMMENT})|{_QUOTED}|\\.|[()]", re.S)
#: A turn number inside a saved line (a turn starts there): the space before it.
_LINE_TURN = re.compile(r"[^\S\n](?=\d{1,9}\.\s)")
#: The mark a saved line leaves in the text read for the turn lines: a note whose text
#: starts with this character, then the line's number (a private-use character).
LINE_MARK = "\x01"
_LINE_BASE = 0xE000
#: The most saved lines a text may hold (one private-use character a line).
MAX_TEXT_LINES = 6400


class LineSpan:
    """Where one saved line stands in the text read: ``start`` (its opening bracket) and
    ``end`` (after its closing one, or the text's end when it is never closed)."""

    __slots__ = ("start", "end", "closed")

    def __init__(self, start: int, end: int, closed: bool):
        self.start = start
        self.end = end
        self.closed = closed


def mask_lines(text: str, start: int, end: int, spans: list[LineSpan]) -> str:
    """``text[start:end]`` with each saved line at its top level replaced by its mark, a
    note of the same length (``(`` + :data:`LINE_MARK` + the line's number, then spaces,
    then ``)``; a line over several lines keeps its line breaks after the note): every
    other character stays where it was.  Each line found is appended to ``spans`` (its
    number is its place there); a line never closed runs to ``end``.  Linear: the text
    is scanned once (nothing more when no saved line opens in it).

    >>> spans = []
    >>> masked = mask_lines("take a1 (3. Bo: buy 1-05 (B1)) {x (2. y)}", 0, 41, spans)
    >>> masked.replace(LINE_MARK + chr(0xE000), "#"), (spans[0].start, spans[0].end)
    ('take a1 (#                  ) {x (2. y)}', (8, 30))
    """
    if _LINE_HINT.search(text, start, end) is None:
        return text[start:end]
    out: list[str] = []
    at = start
    for m in _LINE_SCAN.finditer(text, start, end):
        if m.group() != "(" or m.start() < at:
            continue
        close, closed = _closing(text, m.start() + 1, end)
        k = len(spans)
        if k >= MAX_TEXT_LINES:
            break
        spans.append(LineSpan(m.start(), close, closed))
        out.append(text[at : m.start()])
        out.append(_line_note(text[m.start() : close], k))
        at = close
    if not out:
        return text[start:end]
    out.append(text[at:end])
    return "".join(out)


def _closing(text: str, pos: int, end: int) -> tuple[int, bool]:
    """After the bracket that closes a saved line opened before ``pos`` (nested brackets
    counted), and whether it closes before ``end``."""
    depth = 1
    for m in _BRACKETS.finditer(text, pos, end):
        c = m.group()
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if not depth:
                return m.end(), True
    return end, False


def _line_note(span: str, k: int) -> str:
    note = f"({LINE_MARK}{chr(_LINE_BASE + k)}"
    if "\n" in span:
        first, _, rest = span.partition("\n")
        # (the text after the line goes on where it stood, on the line it stood on)
        return (
            note
            + ")"
            + " " * max(len(first) - len(note) - 1, 0)
            + "\n"
            + re.sub(r"[^\n]", " ", rest)
        )
    return note + " " * max(len(span) - len(note) - 1, 0) + ")"


def line_number(note: str) -> int | None:
    """The number of the saved line a note token marks (None for any other note)."""
    if len(note) >= 3 and note[1] == LINE_MARK:
        return ord(note[2]) - _LINE_BASE
    return None


def line_body(text: str, span: LineSpan, spans: list[LineSpan]) -> tuple[str, int]:
    """The text inside a saved line's brackets, the lines nested in it masked
    (:func:`mask_lines`, appended to ``spans``) and each turn number in it starting a line
    of its own (the space before it made a line break: every character stays where it
    was), and its offset in ``text``."""
    start = span.start + 1
    body = mask_lines(text, start, span.end - 1 if span.closed else span.end, spans)
    pieces: list[str] = []
    at = 0
    # a turn number inside a comment or a quoted text stays where it is
    for m in _LINE_SCAN.finditer(body):
        pieces.append(_LINE_TURN.sub("\n", body[at : m.start()]))
        pieces.append(m.group())
        at = m.end()
    pieces.append(_LINE_TURN.sub("\n", body[at:]))
    return "".join(pieces), start
