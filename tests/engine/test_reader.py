"""The reader every game shares (``engine/notation/``): its one-pass scanner of the turn
lines splits a line into the items the token grammar defines, for each game's grammar;
and both games report the layout's errors alike."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import splendor, splendor_duel
from engine.corrections import UNDO
from engine.games import get_game
from engine.notation.builder import parse_game
from engine.notation.lexer import TOKEN_RE
from engine.notation.visitor import Visitor
from engine.splendor.notation import GRAMMAR as CLASSIC
from engine.splendor_duel.notation import GRAMMAR as DUEL
from engine.splendor_duel.notation.arguments import is_payment

FUZZ = settings(
    max_examples=int(os.environ.get("TABLELOG_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

#: Words and marks a turn line's body is made of, right and wrong.
PIECES = (
    "take", "buy", "res", "reveal", "royal", "id", "resign", "ret", "noble", "pass", "undo",
    "by", "to", "3", "c3", "=WB", "WBG", "+Y", "@2", "L2", "1-05", "(B1)", "(B1 R2)", "(x)",
    "(-)", "( )", "(B123)", "(- B1)", "{c}", "{open", "!", "!!", "!illegal", "!x", "?",
    '"d e"', '"open', "}", ")", "Bob", "bob", "takes", "t", "é", "\\", ":", "byx", "(B1",
)  # fmt: skip


def _expected(tokens: list[str], keywords: set[str], bracketed: set[str]) -> list[tuple]:
    """The items of a line's tokens as the token grammar defines them: a decision is its
    keyword, its arguments (up to the next keyword but right after ``by``, a mark, note,
    comment or closing bracket; a keyword in ``bracketed`` takes one payment in brackets)
    and its marks (``!``/``?`` marks and notes); a comment; stray tokens up to the next
    keyword or comment."""
    items: list[tuple] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok[0] == "{":
            items.append(("item", [tok]))
            i += 1
            continue
        if tok not in keywords:
            j = i + 1
            while j < n and tokens[j] not in keywords and tokens[j][0] != "{":
                j += 1
            items.append(("item", tokens[i:j]))
            i = j
            continue
        j, paid = i + 1, tok not in bracketed
        while j < n:
            t, c = tokens[j], tokens[j][0]
            if c in "{!?})" or (t in keywords and tokens[j - 1] != "by"):
                break
            if c == "(":
                if paid or not is_payment(t):
                    break
                paid = True
            j += 1
        k = j
        while k < n and tokens[k][0] in "!?(":
            k += 1
        items.append(("decision", tokens[i:j], tokens[j:k]))
        i = k
    return items


def _scanned(grammar, body: str) -> list[tuple]:
    items: list[tuple] = []
    for m in grammar.turns.finditer(body):
        g = m.groupdict("")
        assert not (g["nl"] or g["number"] or g["start"] or g["turn"]), body  # (a comment first)
        if g["next"] or g["plain"]:
            items.append(("decision", TOKEN_RE.findall(g["next"] or g["plain"]), []))
        elif g["decision"]:
            items.append(
                ("decision", TOKEN_RE.findall(g["decision"]), TOKEN_RE.findall(g["marks"]))
            )
        elif g["item"]:
            items.append(("item", TOKEN_RE.findall(g["item"])))
    return items


@FUZZ
@given(
    st.lists(st.sampled_from(PIECES), max_size=12),
    st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=12, max_size=12),
)
def test_the_scanner_splits_a_line_as_the_token_grammar_does(pieces, spaces):
    body = "{x} " + "".join(p + (spaces[k] or " ") for k, p in enumerate(pieces))
    for grammar, bracketed in ((DUEL, {"buy"}), (CLASSIC, set())):
        keywords = {*grammar.keywords, UNDO}
        expected = _expected(TOKEN_RE.findall(body), keywords, bracketed)
        assert _scanned(grammar, body) == expected, (body, grammar.keywords)


def test_both_games_report_the_layout_alike():
    """A stray word, a mark with no decision, a note never closed, a late header: the
    same words, line and column in both games (only the keywords listed differ)."""
    duel, classic = get_game("splendor-duel"), get_game("splendor")
    duel_text = duel.write_game({"players": ["Ann", "Bob"]}, duel.random_game(_rng(1))[:3])
    classic_text = classic.write_game({"players": ["Ann", "Bob"]}, classic.random_game(_rng(1))[:3])
    for tail, message in (
        ("tkae", "unknown decision 'tkae'"),
        ("!!", "the mark '!!' must follow a decision"),
        ("}", "a '}' without its opening"),
        ('"white"', 'a description "white" must follow a card'),
        ("(note)", "a note (note) must follow a decision"),
    ):
        for rules, text in ((duel, duel_text), (classic, classic_text)):
            line = text.rstrip("\n").split("\n")[-1]
            parsed = rules.read_game(text.rstrip("\n") + " {c} " + tail + "\n", "t.tl")
            (error,) = parsed.errors
            assert error.message.startswith(message), (rules.kind, error.message)
            assert (error.line, error.column) == (text.count("\n"), len(line) + 6)
    for rules, text in ((duel, duel_text), (classic, classic_text)):
        (error,) = rules.read_game(text + '[Date "2024"]\n', "t.tl").errors
        assert error.message == "headers come first, before the setup"


def test_a_turn_prefix_written_loosely_is_named_for_what_it_misses():
    """``9 Bob: ...`` (no dot) and ``9. Bob take ...`` (no colon), in the setup's place
    or after other turns: both games say what the prefix misses, at its place; a number
    or a name further on the line is an unknown decision as any other word."""
    for kind in ("splendor-duel", "splendor"):
        rules = get_game(kind)
        full = rules.write_game({"players": ["Ann", "Bob"]}, rules.random_game(_rng(3))[:3])
        setup = full[: full.index("\n1. ")]
        due = rules.status(rules.read_game(full, "t.tl").state).turn
        for text, turn in ((setup, 1), (full.rstrip("\n"), due)):
            n = len(text.split("\n")) + 1
            for line, column, message in (
                (f"{turn} Bob: x", 1, f"a turn's number ends with a dot: '{turn}.'"),
                (f"  {turn} Bob: x", 3, "a turn's number ends with a dot"),
                (f"{turn}. Bob take a1", 3 + len(str(turn)), "a player's name before the"),
            ):
                (error, *_) = rules.read_game(f"{text}\n{line}\n", "t.tl").errors
                assert (error.line, error.column) == (n, column), (kind, line, error)
                assert error.message.startswith(message), (kind, line, error.message)
        (error, *_) = rules.read_game(full.rstrip("\n") + " {c} 9 Bob\n", "t.tl").errors
        assert error.message.startswith("unknown decision '9'"), (kind, error.message)


@pytest.mark.parametrize(
    ("header", "column", "message"),
    [
        ('[Players "Ann" "Bo"]', 16, "a header holds one value (the players: [Player1"),
        ("[Date 2024-03-14]", 7, 'the value of Date goes in double quotes: [Date "..."]'),
        ('[Date"2024"]', 6, 'a space goes between the tag and its value: [Date "..."]'),
        ('[Date "2024-03-14"', 19, "the header Date is never closed with ]"),
        ('[Date "2024]', 7, 'this value is never closed with " (a quote inside it is written'),
        ('[Event "x"] [Date "2024"]', 13, "one header a line: this one goes on a line of"),
        ('[Date "2024"] {c}', 15, "nothing follows a header on its line"),
        ('[1st "x"]', 2, 'a header opens with its tag, a letter first, as [Date "2024-03-14"]'),
    ],
)
def test_a_broken_header_is_reported_where_it_breaks(header: str, column: int, message: str):
    """A header that is not ``[Tag "value"]`` alone on its line: both games name the
    column of the first thing wrong and the rule there, and read no header from it."""
    for kind in ("splendor-duel", "splendor"):
        rules = get_game(kind)
        text = rules.write_game({"players": ["Ann", "Bob"]}, rules.random_game(_rng(2))[:3])
        parsed = rules.read_game(f'[Event "club"]\n{header}\n' + text, "t.tl")
        error = parsed.errors[0]
        assert (error.line, error.column) == (2, column), (kind, error)
        assert error.message.startswith(message), (kind, error.message)
        assert parsed.headers["event"] == "club" and "date" not in parsed.headers


def _rng(seed: int):
    import random

    return random.Random(seed)


# --- the usual lines, folded together -----------------------------------------------


def _one_by_one(builder: type) -> type:
    """The game's builder, visiting the lines as the writer puts them one turn and one
    decision at a time (the base class's ``visit_lines``), not in its fold loop."""
    return type(f"OneByOne{builder.__name__}", (builder,), {"visit_lines": Visitor.visit_lines})


def _texts(kind: str) -> list[str]:
    rules = get_game(kind)
    names = ["Ann", "Bob"] if kind == "splendor-duel" else ["Ann", "Bob", "Cid"]
    return [
        rules.write_game({"players": names}, rules.random_game(_rng(seed), names))
        for seed in range(3)
    ]


#: What a line may be given: the usual and the unusual (errors, marks, notes, comments,
#: turn numbers, spacing, line breaks), in either game's words.
_EDITS = (
    " {c}", " {open\n", " !", " !illegal", " (note)", " ?!", "  ", " ", "\t", "\n", "\n\n",
    " foo", " undo", " undo to 3", " take", " c3", " =W", " take c3 =G", " take WBG", " buy",
    " res", " reveal 1-01", " id 1-05", " pass", " ret W", " priv a1", " resign", "}", ")",
    " x:", "Bob: ", "Ann: ", "99. ", "3. ", "\n7. ", "\n5. Bob: ", "é", "[", ' "desc"',
)  # fmt: skip


@FUZZ
@given(st.data())
def test_lines_folded_together_read_as_visited_one_at_a_time(data):
    """The builder's fold of the usual lines gives exactly what visiting each of their
    turns and decisions in turn gives: events, meta, errors and their places, flags and
    the table, every error asked for or the first, whatever the edits, in both games."""
    kind = data.draw(st.sampled_from(["splendor-duel", "splendor"]))
    builder = (splendor_duel if kind == "splendor-duel" else splendor).notation.GameBuilder
    text = data.draw(st.sampled_from(_texts(kind)))
    first = text.index("\n1. ")
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(first, len(text)))
        if data.draw(st.booleans()):
            text = text[:at] + data.draw(st.sampled_from(_EDITS)) + text[at:]
        else:
            text = text[:at] + text[at + data.draw(st.integers(1, 6)) :]
    stop = data.draw(st.booleans())
    results = []
    for cls in (builder, _one_by_one(builder)):
        parsed = parse_game(cls, text, "t.tl", stop_at_first_error=stop)
        results.append(
            (
                parsed.events,
                parsed.meta,
                [(e.kind, e.line, e.column, e.message) for e in parsed.errors],
                [(f.event_number, f.line, f.column, f.text) for f in parsed.flagged],
                get_game(kind).position(parsed.state),
            )
        )
    assert results[0] == results[1], text


@pytest.mark.parametrize("between", [": ", ":  ", ": {c} ", ": {c}  "])
def test_an_error_in_a_line_points_at_its_decision(between):
    """A decision of a line (the first, second, third or a later one; the line as the
    writer puts it, or its decisions after more spaces or a comment) that its words
    refuse is reported where its word stands."""
    text = _texts("splendor-duel")[0]
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if not line[:1].isdigit():
            continue
        prefix, _, body = line.partition(": ")
        decisions = _split(body)
        for i in range(len(decisions)):
            damaged = [*decisions[:i], "take z9", *decisions[i + 1 :]]
            new = f"{prefix}{between}{' '.join(damaged)}"
            parsed = get_game("splendor-duel").read_game("\n".join([*lines[:k], new]), "t.tl")
            (error,) = parsed.errors
            assert (error.line, error.column) == (k + 1, new.index("take z9") + 6), new
            assert error.message.startswith("no space 'z9'"), error.message


def _split(body: str) -> list[str]:
    """A line's decisions as the writer puts them: a keyword and its words."""
    out: list[list[str]] = []
    for word in body.split(" "):
        if word in DUEL.keywords or not out:
            out.append([word])
        else:
            out[-1].append(word)
    return [" ".join(words) for words in out]
