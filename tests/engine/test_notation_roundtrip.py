"""Round trips over many seeded random games, and fuzzing: the notation and the position
string never lose anything, and no damaged input raises anything but a positioned error."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.splendor_duel import GAME, simulate
from engine.splendor_duel.catalogue import GOLD, SEGMENT_SET
from engine.splendor_duel.events import TokensTaken
from engine.splendor_duel.game import consistent
from engine.splendor_duel.notation import (
    NotationError,
    parse_game,
    parse_move,
    write_game,
)
from engine.splendor_duel.position import (
    PositionError,
    parse_position,
    position_string,
    state_differences,
)

GAMES = 1000
HEADERS = {"players": ["Alice", "Bob"], "date": "2024-01-01", "place": "Lyon"}


@cache
def seeded_games() -> tuple[tuple, ...]:
    return tuple(tuple(simulate.random_game(random.Random(seed))) for seed in range(GAMES))


@cache
def sample_text() -> str:
    return write_game(HEADERS, list(seeded_games()[0]))


def test_a_thousand_games_round_trip_through_the_notation():
    for seed, events in enumerate(seeded_games()):
        events = list(events)
        text = write_game(HEADERS, events)
        parsed = parse_game(text, f"seed-{seed}")
        assert parsed.errors == [], (seed, str(parsed.errors[0]))
        assert parsed.events == events, seed
        assert write_game(parsed.headers, parsed.events, parsed.meta) == text, seed


def test_position_strings_round_trip_on_many_states():
    checked = 0
    for seed, events in enumerate(seeded_games()[:300]):
        for n, state in enumerate(GAME.states(events)):
            if (n + seed) % 4:
                continue
            text = position_string(state)
            back = parse_position(text)
            assert state_differences(state, back) == [], (seed, n, text)
            assert position_string(back) == text
            checked += 1
    assert checked > 10_000


def test_a_forced_move_keeps_the_position_string_complete():
    events = list(seeded_games()[1])
    state = next(s for n, s in enumerate(GAME.states(events)) if n > 20 and s.awaiting == "action")
    gems = [s for s in range(25) if 0 <= state.board[s] < GOLD]
    pair = next((a, b) for a in gems for b in gems if a < b and (a, b) not in SEGMENT_SET)
    assert GAME.force(state, TokensTaken(pair))
    back = parse_position(position_string(state))
    assert state_differences(state, back) == []


# --- fuzzing ---------------------------------------------------------------------------


def _assert_positioned(parsed, text: str) -> None:
    lines = text.count("\n") + 2
    for err in parsed.errors:
        assert err.kind in ("syntax", "unknown", "illegal")
        assert 1 <= err.line <= lines, str(err)
        assert err.column >= 1, str(err)
        assert str(err).startswith(f"fuzz:{err.line}:{err.column}: ")


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


@FUZZ
@given(st.data())
def test_mutated_files_never_raise_and_errors_have_a_place(data):
    text = sample_text()
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["delete", "insert", "replace", "swap", "token"]))
        at = data.draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "delete":
            text = text[:at] + text[at + data.draw(st.integers(1, 12)) :]
        elif kind == "insert":
            chunk = data.draw(st.text(alphabet='abc12345WBGRKPY{}()"[]!?@=.:- \n#\\', max_size=6))
            text = text[:at] + chunk + text[at:]
        elif kind == "replace":
            ch = data.draw(st.characters(blacklist_categories=("Cs",)))
            text = text[:at] + ch + text[at + 1 :]
        elif kind == "swap":
            lines = text.split("\n")
            i = data.draw(st.integers(0, len(lines) - 1))
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            words = text.split(" ")
            i = data.draw(st.integers(0, len(words) - 1))
            words[i] = data.draw(
                st.sampled_from(["take", "buy", "c9", "3-14", "R-7", "(", "{", "!illegal", ""])
            )
            text = " ".join(words)
    for stop in (True, False):
        parsed = parse_game(text, "fuzz", stop_at_first_error=stop)
        _assert_positioned(parsed, text)


@FUZZ
@given(st.integers(0, 10**6))
def test_truncated_files_never_raise_and_errors_have_a_place(cut):
    text = sample_text()
    text = text[: cut % len(text)]
    parsed = parse_game(text, "fuzz")
    _assert_positioned(parsed, text)
    # A truncated finished game always says something: its Result header is "1-0" or
    # "0-1" and the moves stop short, or the cut broke a line.
    if text.count("\n") > 12:
        assert parsed.errors


@FUZZ
@given(st.text(max_size=40))
def test_parse_move_raises_only_notation_errors(text):
    state = GAME.replay(list(seeded_games()[2])[:25])
    try:
        parse_move(state, text)
    except NotationError as err:
        assert err.line == 1 and err.column >= 1


@FUZZ
@given(st.data())
def test_parse_position_raises_only_position_errors(data):
    events = list(seeded_games()[3])
    state = GAME.replay(events[: data.draw(st.integers(0, len(events)))])
    text = position_string(state)
    at = data.draw(st.integers(0, len(text) - 1))
    chunk = data.draw(st.text(alphabet="WBGRKPY.-/,:=0123456789 _rxL?", max_size=4))
    damaged = text[:at] + chunk + text[at + data.draw(st.integers(0, 3)) :]
    try:
        back = parse_position(damaged)
    except PositionError as err:
        assert err.column >= 1 and err.kind in ("syntax", "unknown")
    else:
        assert parse_position(position_string(back)) is not None
        # what reads is a table one game can reach: every token and card once
        assert back.awaiting == "setup" or consistent(back), damaged


#: A position of turn 1 (its fields: board, bag, pyramid, decks, player 1, player 2,
#: Privileges, Royal cards, ...), with a field to change in each case below.
_TURN_1 = (
    "WRRBW/WKBKG/GYYRK/PBPKB/RGWYG - 1-12,1-21,1-10,1-16,1-04/2-20,2-17,2-11,2-02/"
    "3-08,3-02,3-13 25/20/10 -/-/-/1/-/0 -/-/-/0/-/0 2 R-1,R-2,R-3,R-4 2 2 1 action - - - - -"
)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "1-12,1-21",
            "1-12,1-12",
            "1-12 is twice in the pyramid's level 1: a card is in one place",
        ),
        ("-/-/-/0/-/0", "-/1-21/-/0/-/0", "1-21 is in the pyramid's level 1 and player 2's cards"),
        (
            "-/-/-/0/-/0",
            "-/-/L1=1-21/0/-/0",
            "1-21 is in the pyramid's level 1 and player 2's reserve",
        ),
        ("-/-/-/1/-/0", "-/-/-/1/R-1/0", "R-1 is in the table and player 1's Royal cards"),
        (
            "25/20/10",
            "25/20/9",
            "decks: the level-3 deck holds 9 cards, but the position leaves 10",
        ),
        ("-/-/-/1/-/0", "-/-/L1?/1/-/0", "decks: the level-1 deck holds 25 cards and 1 reserved"),
    ],
)
def test_a_position_with_a_card_twice_or_decks_that_do_not_add_up_is_refused(old, new, message):
    assert consistent(parse_position(_TURN_1))
    with pytest.raises(PositionError) as refused:
        parse_position(_TURN_1.replace(old, new, 1))
    assert message in str(refused.value)


def _summary(parsed):
    return (parsed.events, parsed.meta, [str(e) for e in parsed.errors], parsed.headers)


@FUZZ
@given(st.data())
def test_the_cache_of_decision_texts_never_changes_a_result(data):
    """Decisions are read once by their text and then taken from a cache of decision
    texts; reading with the cache emptied must give exactly the same events, meta and
    errors."""
    from engine.splendor_duel.notation import GRAMMAR

    text = sample_text()
    lines = text.split("\n")
    i = data.draw(st.integers(10, len(lines) - 2))
    words = lines[i].split(" ")
    j = data.draw(st.integers(0, len(words) - 1))
    words[j] = data.draw(st.sampled_from(["take", "c3", "=WWB", "(B1)", "1-05", "res", "L2"]))
    lines[i] = " ".join(words)
    damaged = "\n".join(lines)
    warm = _summary(parse_game(damaged, "fuzz", stop_at_first_error=False))
    GRAMMAR.cache.clear()
    cold = _summary(parse_game(damaged, "fuzz", stop_at_first_error=False))
    assert warm == cold


#: What a hand-edited turn line may hold that the writer does not put there: comments
#: (one left open), marks, notes, descriptions, ``by``, colons, spaces and line breaks
#: more or fewer, words that are no keyword, corrections, stray brackets, turn numbers.
_EDITS = (
    " {c}", " {open\n", "{a\nb}", " !", " ?!", " !illegal", " (note)", " by Bob", ":",
    ": ", "  ", " ", "\t", "\n", "\n\n", "\n ", " foo", " re", " undo", " undo to 3",
    " take", " c3", " =W", " take c3 =G", "take ", " (G1)", " (-)", " ( )", " (W1) (B1)",
    ' "desc"', "[", "\\", "}", ")", " x:", "Bob: ", "99. ", "3. ", "\n7. ", "\n5. Bob: ",
    "1234567890. ", " buy", " res", " reveal 1-01", " id 1-05", " resign", " priv a1", "é",
)  # fmt: skip


@FUZZ
@given(st.data())
def test_edited_lines_read_the_same_with_the_cache_of_decision_texts_empty(data):
    """Any edits of the turn lines (up to three, anywhere in a long game) give exactly
    the events, meta, errors and position with the cache of decision texts warm as with
    it emptied, every error asked for or the first."""
    from engine.splendor_duel.notation import GRAMMAR

    text = sample_text()
    first = text.index("\n1. ")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(first, len(text)))
        if data.draw(st.booleans()):
            text = text[:at] + data.draw(st.sampled_from(_EDITS)) + text[at:]
        else:
            text = text[:at] + text[at + data.draw(st.integers(1, 4)) :]
    every = data.draw(st.booleans())
    parse_game(text, "fuzz", stop_at_first_error=not every)  # the cache filled
    warm = parse_game(text, "fuzz", stop_at_first_error=not every)
    GRAMMAR.cache.clear()
    cold = parse_game(text, "fuzz", stop_at_first_error=not every)
    assert _summary(warm) == _summary(cold)
    assert position_string(warm.state) == position_string(cold.state)
