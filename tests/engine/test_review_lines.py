"""Saved lines, marks and notes of a game's review in notation, for every game: written
after the decision a line replaces, read back with each decision checked by the rules
from where the line branches, and written again byte for byte."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.games import GAMES, get_game
from engine.review import Line, meta_for_writing

KINDS = sorted(GAMES)


def _game(kind: str, seed: int = 5) -> tuple[Any, Any]:
    """A seeded game of ``kind``, written and read back (its ParsedGame)."""
    rules = get_game(kind)
    events = rules.random_game(random.Random(seed))
    names = [f"P{i}" for i in range(len(rules.new_state(None).names))]
    text = rules.write_game({"players": names}, events)
    parsed = rules.read_game(text, "game.tl")
    assert parsed.ok, parsed.errors
    return rules, parsed


def _line(rules: Any, state: Any, at: int, count: int, rng: random.Random) -> Line:
    """``count`` legal decisions (and the observations they call for) from ``state``."""
    state = state.copy()
    events: list[Any] = []
    while len(events) < count:
        texts = rules.legal_move_texts(state)
        rng.shuffle(texts)
        # (a template that needs what the table observes, a bare ``repl``, does not read)
        read = next((r for r in map(lambda t: rules.read_moves(state, t), texts) if r.ok), None)
        if read is None:
            break
        events += read.events
        state = read.state
    return Line(at, events, [None] * len(events), {})


def _reviewed(kind: str) -> tuple[Any, Any, str]:
    """A game with two saved lines, one nested in the other, marks and notes on the
    record and in the lines; and its text."""
    rules, parsed = _game(kind)
    rng = random.Random(7)
    fold = parsed.fold
    outer = _line(rules, fold.state_at(10), 10, 6, rng)
    # a line nested after the outer line's 2nd decision: from the position after its 1st
    inner_state = fold.state_at(10)
    rules.play(inner_state, outer.events[0])
    inner = _line(rules, inner_state, 11, 3, rng)
    outer.lines = {11: [inner]}
    outer.meta[0] = {"annotations": ["!?"], "comment": "what if"}
    other = _line(rules, fold.state_at(20), 20, 2, rng)
    marks = {11: {"annotations": ["??"]}, 15: {"annotations": ["!"], "comment": "a note"}}
    meta = meta_for_writing(
        rules, parsed.names, parsed.events, parsed.meta, {10: [outer], 20: [other]}, marks
    )
    text = rules.write_game(parsed.headers, parsed.events, meta)
    return rules, parsed, text


def _written(rules: Any, parsed: Any) -> str:
    meta = meta_for_writing(
        rules, parsed.names, parsed.events, parsed.meta, parsed.lines, parsed.review
    )
    return rules.write_game(parsed.headers, parsed.events, meta)


@pytest.mark.parametrize("kind", KINDS)
def test_lines_and_marks_round_trip_byte_identical(kind: str) -> None:
    rules, parsed, text = _reviewed(kind)
    assert text.count("(") > parsed.events.__len__() * 0  # (written at all)
    again = rules.read_game(text, "reviewed.tl")
    assert again.ok, again.errors
    # the record is the record: the same events and meta as without the review
    assert again.events == parsed.events
    assert again.meta == parsed.meta
    assert sorted(again.lines) == [10, 20]
    outer = again.lines[10][0]
    assert len(outer.events) >= 6 and outer.meta[0] == {"annotations": ["!?"], "comment": "what if"}
    assert list(outer.lines) == [11] and len(outer.lines[11][0].events) >= 3
    assert again.review == {
        11: {"annotations": ["??"]},
        15: {"annotations": ["!"], "comment": "a note"},
    }
    assert _written(rules, again) == text


@pytest.mark.parametrize("kind", KINDS)
def test_the_review_is_written_where_the_issue_says(kind: str) -> None:
    rules, parsed, text = _reviewed(kind)
    lines = text.splitlines()
    # a line opens with its turn number (and the player), after the decision it replaces
    step11 = parsed.fold.state_at(10)
    opening = f"({step11.turn}. {step11.names[step11.current]}: "
    assert any(opening in line for line in lines)
    # the review's marks follow the decision's saved lines, or ``{}`` when it has none
    assert any(") ??" in line for line in lines)
    assert any(" {} ! {a note}" in line for line in lines)


@pytest.mark.parametrize("kind", KINDS)
def test_an_illegal_decision_in_a_line_is_refused_with_its_rule_and_place(kind: str) -> None:
    rules, parsed, text = _reviewed(kind)
    state = parsed.fold.state_at(20)
    legal = set(rules.legal_move_texts(state))
    # a decision the rules refuse there: the record's own decision of two turns later
    bad = next(
        t
        for t in (rules.move_text(parsed.fold.state_at(s), parsed.events[s]) for s in range(21, 60))
        if t not in legal
        and rules.check_move(state, t).event is not None
        and not rules.check_move(state, t).legal
    )
    status = rules.status(state)
    opening = f"({status.turn}. {parsed.names[status.to_move]}: "
    start = text.index(opening, text.index(f"({status.turn}. ", text.index("\n\n")))
    broken = text[: start + len(opening)] + bad + text[text.index(")", start + len(opening)) :]
    # (the first line at step 20 is the second one written: find it by its step)
    read = rules.read_game(broken, "broken.tl")
    assert not read.ok
    err = read.errors[0]
    assert err.kind == "illegal"
    line = broken[:start].count("\n") + 1
    assert (err.line, err.column) == (line, start - broken.rfind("\n", 0, start) + len(opening))
    # the rule it breaks, named (and its page, where the rulebook gives one)
    assert err.violations and all(v.rule and v.rule.section for v in err.violations)
    assert err.violations[0].rule.section in str(err)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("inside", "message"),
    [
        ("", "has no decision"),
        ("undo", "no undo"),
    ],
)
def test_a_line_that_cannot_stand_is_an_error(kind: str, inside: str, message: str) -> None:
    rules, parsed, text = _reviewed(kind)
    state = parsed.fold.state_at(30)
    legal = rules.legal_move_texts(state)[0]
    status = rules.status(state)
    prefix = f"{status.turn}. {parsed.names[status.to_move]}:"
    body = f"{prefix} {legal} {inside}" if inside else prefix
    written = rules.move_text(state, parsed.events[30])
    at = text.index(written, text.index(f"\n{status.turn}. "))
    # the decision of step 31 (perhaps written twice: the first after the setup)
    broken = text[: at + len(written)] + f" ({body})" + text[at + len(written) :]
    read = rules.read_game(broken, "broken.tl")
    assert not read.ok
    assert message in read.errors[0].message, read.errors[0]


@pytest.mark.parametrize("kind", KINDS)
def test_a_line_never_closed_is_an_error_at_its_bracket(kind: str) -> None:
    rules, parsed, text = _reviewed(kind)
    cut = text.rstrip("\n")
    read = rules.read_game(cut + " (3. P0: take", "open.tl")
    assert not read.ok and "never closed" in read.errors[0].message
    assert (read.errors[0].line, read.errors[0].column) == (
        cut.count("\n") + 1,
        len(cut) - cut.rfind("\n") + 1,
    )


@pytest.mark.parametrize("kind", KINDS)
def test_a_note_and_a_payment_are_no_lines(kind: str) -> None:
    rules, parsed, _ = _reviewed(kind)
    meta = list(parsed.meta) + [None] * (len(parsed.events) - len(parsed.meta))
    meta[12] = {"annotations": ["disputed", "ruling: 3 turns later"]}
    text = rules.write_game(parsed.headers, parsed.events, meta)
    read = rules.read_game(text, "notes.tl")
    assert read.ok and not read.lines and not read.review
    assert read.meta[12] == meta[12]


@pytest.mark.parametrize("kind", KINDS)
def test_a_note_that_opens_as_a_line_does_is_written_so_it_reads_back_a_note(kind: str) -> None:
    rules, parsed = _game(kind)
    meta = list(parsed.meta) + [None] * (len(parsed.events) - len(parsed.meta))
    meta[9] = {"annotations": ["3. Bob: take a1 was what they said"]}
    text = rules.write_game(parsed.headers, parsed.events, meta)
    assert "(\\3. Bob: take a1 was what they said)" in text
    read = rules.read_game(text, "note.tl")
    assert read.ok and not read.lines and read.meta[9] == meta[9]
    assert rules.write_game(read.headers, read.events, read.meta) == text
