"""Logical lines: a comment left open joins the lines up to its end, in one pass over
the text, whatever the comment's length (hostile files once made this quadratic)."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.games import get_game
from engine.notation.lexer import COMMENT_RE, HEADER_RE, TOKEN_RE, LogicalLines, logical_lines

EVENING = Path(__file__).resolve().parents[2] / "docs" / "examples" / "evening.tl"


def _joined(text: str) -> list[tuple[str, int]]:
    """The definition: join the next line while the text has a comment token left open
    (re-reading everything each time: quadratic, fine for small texts)."""
    raw = text.split("\n")
    out = []
    i = 0
    while i < len(raw):
        line, number = raw[i], i + 1
        i += 1
        while i < len(raw) and any(
            t[0] == "{" and not COMMENT_RE.fullmatch(t) for t in TOKEN_RE.findall(line)
        ):
            line += "\n" + raw[i]
            i += 1
        out.append((line, number))
    return out


#: The bracketed tokens as first written (one character at a time): what the possessive
#: patterns of the lexer must match exactly, in linear time and memory.
_PLAIN_TOKEN = re.compile(
    r"""\{(?:[^}\\]|\\.)*\}?|"(?:[^"\\\n]|\\.)*"?|\((?:[^)\\\n]|\\.)*\)?|[!?]+[a-z]*"""
    r"""|[^\s{}()"!?]+|[})]""",
    re.S,
)
_PLAIN_HEADER = re.compile(r'\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')


@given(st.text(alphabet='ab {}\\"()\n!=[]', max_size=40))
def test_the_token_patterns_match_as_first_written(text: str) -> None:
    assert TOKEN_RE.findall(text) == _PLAIN_TOKEN.findall(text)
    header = f'[Tag "{text}"]'
    plain = _PLAIN_HEADER.fullmatch(header)
    ours = HEADER_RE.fullmatch(header)
    assert (plain and plain.groups()) == (ours and ours.groups())


@given(st.text(alphabet='ab {}\\"()\n!', max_size=40))
def test_logical_lines_join_exactly_as_the_definition_says(text: str) -> None:
    assert [(line.text, line.number) for line in logical_lines(text)] == _joined(text)


@given(st.text(alphabet='ab {}\\"()\n!', max_size=40))
def test_the_lines_made_on_demand_are_the_logical_lines_and_start_where_they_say(
    text: str,
) -> None:
    """A reader goes on from where a line starts, reading the text itself: each line
    made on demand is the logical line, found at the offset its start gives."""
    expected = logical_lines(text)
    lines = LogicalLines(text)
    for k in reversed(range(len(expected))):  # asked for in any order
        line = lines.get(k)
        assert line is not None and (line.text, line.number) == (
            expected[k].text,
            expected[k].number,
        )
        offset, number = lines.start(k)
        assert number == line.number and text[offset:].startswith(line.text)
        assert offset == 0 or text[offset - 1] == "\n"
    assert lines.get(len(expected)) is None
    assert lines.start(len(expected))[0] == len(text) + 1


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("a {b\nc} d\ne", [("a {b\nc} d", 1), ("e", 3)]),
        ("{a\\\n}\nb", [("{a\\\n}", 1), ("b", 3)]),  # the backslash escapes the line break
        ("{a\\}\nb}\nc", [("{a\\}\nb}", 1), ("c", 3)]),  # and an escaped } does not close
        ("{a\nb} {c\nd}", [("{a\nb} {c\nd}", 1)]),  # a second comment opened and closed
        ('"{" x\ny', [('"{" x', 1), ("y", 2)]),  # a brace in quotes opens nothing
        ("{never\nclosed", [("{never\nclosed", 1)]),
    ],
)
def test_comments_spanning_lines(text: str, lines: list[tuple[str, int]]) -> None:
    assert [(line.text, line.number) for line in logical_lines(text)] == lines


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging (a guard, not a measurement)."""

    def _expired(*_: object) -> None:
        raise AssertionError(f"still reading after {seconds} s: not linear in the input")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_comment_of_100_000_lines_reads_in_one_pass() -> None:
    text = EVENING.read_text(encoding="utf-8") + "{" + "x\n" * 100_000 + "}\n"
    with _deadline(60):  # re-reading the comment at each line took hours here
        parsed = get_game("splendor-duel").read_game(text)
    assert parsed.ok and parsed.meta[-1] is not None
    assert parsed.meta[-1]["comment"].count("x") == 100_000


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("splendor-duel", "fixtures/games/reserve-and-discard.tl"),
        ("splendor", "fixtures/splendor/games/two-players.tl"),
    ],
)
def test_a_turn_number_of_thousands_of_digits_is_refused_naming_the_limit(
    kind: str, path: str
) -> None:
    """A turn number over 9 digits is refused by its length at its line (it was once
    read as a setup line or a decision word, and converting one over 4,300 digits to a
    number raised)."""
    text = (Path(__file__).resolve().parents[2] / path).read_text(encoding="utf-8")
    at = text.index("\n2. ")
    line = text[:at].count("\n") + 2
    game = get_game(kind).read_game(text[:at] + "\n" + "9" * 5000 + ". " + text[at + 4 :])
    assert [(e.line, e.column) for e in game.errors[:1]] == [(line, 1)]
    assert game.errors[0].message == "a turn number has at most 9 digits; this one has 5,000"
