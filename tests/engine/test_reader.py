"""The reader every game shares (``engine/notation/``): its one-pass scanner of the turn
lines splits a line into the items the token grammar defines, for each game's grammar;
and both games report the layout's errors alike."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.corrections import UNDO
from engine.games import get_game
from engine.notation.lexer import TOKEN_RE
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
    for nl, number, _name, start, plain, decision, marks, item in grammar.turns.findall(body):
        assert not (nl or number or start), body  # the body starts with a comment
        if plain:
            items.append(("decision", TOKEN_RE.findall(plain), []))
        elif decision:
            items.append(("decision", TOKEN_RE.findall(decision), TOKEN_RE.findall(marks)))
        elif item:
            items.append(("item", TOKEN_RE.findall(item)))
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


def _rng(seed: int):
    import random

    return random.Random(seed)
