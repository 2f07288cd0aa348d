"""Moves as people type them (issue 13): case, spacing and separators forgiven where the
reading is unambiguous, the canonical text echoed back, ambiguous texts listing their
readings; a replenish checked without its draws; a purchase echoing its payment."""

from __future__ import annotations

import pytest
from duel_positions import do, hold, put, start, take

from engine.splendor_duel.notation import check_move, parse_game
from engine.splendor_duel.notation.typed import readings


def holding_privilege():
    return do(start(first_player=1), take("c3"))  # Player 1 to play, holding a Privilege


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Take b4 c4", "take b4 c4 =GB"),
        ("take B4 C4", "take b4 c4 =GB"),
        ("take b4,c4", "take b4 c4 =GB"),
        ("take b4, c4", "take b4 c4 =GB"),
        ("take b4c4", "take b4 c4 =GB"),
        ("takeb4c4", "take b4 c4 =GB"),
        ("  take   b4    c4  ", "take b4 c4 =GB"),
        ("TAKE b4 c4 =gb", "take b4 c4 =GB"),
        ("b4 c4", "take b4 c4 =GB"),
        ("Priv B4", "priv b4"),
        ("RES 1-02 @E5", "res 1-02 @e5"),
        ("res l1 e5", "res L1 @e5"),
    ],
)
def test_typed_moves_read_as_their_canonical_text(typed, canonical):
    verdict = check_move(holding_privilege(), typed)
    assert verdict.error is None, verdict.error
    assert verdict.legal
    assert verdict.text == canonical


def test_a_take_written_without_spaces_is_judged_by_the_takes_rule():
    state = put(start(), "c2=W c4=B")
    verdict = check_move(state, "take c2c3c4")
    assert verdict.error is None
    assert verdict.text == "take c2 c3 c4"
    assert [v.code for v in verdict.violations] == ["take.empty_space"]
    assert check_move(state, "take c2,c3,c4").violations == verdict.violations


def test_an_ambiguous_text_lists_its_readings():
    verdict = check_move(holding_privilege(), "B4")
    assert verdict.event is None
    assert verdict.error.kind == "syntax"
    assert "'take b4' or 'priv b4'" in verdict.error.message
    # Without a Privilege to spend, the same text has one reading.
    assert check_move(start(), "B4").text == "take b4 =G"


def test_colour_letters_and_space_names_are_read_by_the_decision():
    assert readings("disc b4", None) == ["disc B4"]  # 4 blue tokens
    assert readings("take b4", None) == ["take b4"]  # the space b4
    assert readings("steal r", None) == ["steal R"]


def test_canonical_files_are_read_as_written_only():
    """The forgiving reader is for moves typed one at a time; a game file's lines keep
    their one reading."""
    from test_notation import HEAD

    parsed = parse_game(HEAD + "1. Alice: Take a3 a4 a5\n", "t.tl")
    assert parsed.errors and parsed.errors[0].kind == "syntax"


def test_a_replenish_without_its_draws_is_checked_by_the_rules_that_do_not_need_them():
    state = put(holding_privilege(), "a1=W e5=Y")  # the bag holds many colours
    verdict = check_move(state, "repl")
    assert verdict.error is None
    assert verdict.legal and verdict.text == "repl"
    assert verdict.changes[1] == "Player 2 takes a Privilege from the table"
    do(state, take("a1"))  # the turn passes; Player 2 now plays
    state.replenished = True
    after = check_move(state, "Priv a1")
    assert [v.code for v in after.violations] or after.error  # read, then judged


def test_a_replenish_after_one_is_refused_without_its_draws():
    state = put(holding_privilege(), "a1=W b1=B e5=Y")
    state.replenished = True
    state.bag = [0] * 7
    verdict = check_move(state, "repl")
    assert [v.code for v in verdict.violations] == ["replenish.bag_empty"]


def test_a_purchase_echoes_the_payment_it_would_use_not_the_printed_cost():
    from duel_positions import own

    state = own(hold(start(), 0, "BBRRKKY"), 0, "1-10")  # a blue bonus
    verdict = check_move(state, "buy 3-01")  # printed B3 R5 K3 P1
    assert verdict.text == "buy 3-01 (B2 R5 K3 P1)"
    assert "3-01 costs Player 1 B2 R5 K3 P after bonuses" in verdict.violations[0].message
    rich = own(hold(start(), 0, "BBRRRRKKKPY"), 0, "1-10")
    verdict = check_move(rich, "buy 3-01")
    assert verdict.legal and verdict.text == "buy 3-01 (B2 R4 K3 P1 Y1)"


def test_a_move_logged_as_typed_is_read_by_its_one_reading():
    from engine.splendor_duel.notation import read_moves

    state = start()
    got = read_moves(state, "Take b4,c4")
    assert got.errors == [] and [e.type for e in got.events] == ["tokens_taken"]
    assert got.events == read_moves(state, "take b4 c4").events
    ambiguous = read_moves(holding_privilege(), "B4")
    assert ambiguous.events == []
    assert "'take b4' or 'priv b4'" in ambiguous.errors[0].message


def test_the_position_says_which_decision_a_bare_argument_is():
    from test_violations import choosing_colour, discarding, stealing, taking_bonus_token

    state = taking_bonus_token()  # 1-04's ability: a white token
    white = next(s for s, t in enumerate(state.board) if t == 0)
    space = "abcde"[white % 5] + str(white // 5 + 1)
    assert check_move(state, space.upper()).text == f"token {space}"
    assert check_move(choosing_colour(), "g").text == "copy G"
    assert check_move(stealing(), "w").text == "steal W"
    assert check_move(discarding(), "w b").text == "disc W1 B1"
