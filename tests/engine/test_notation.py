"""The Splendor Duel notation: each decision form, short forms, comments and marks, the
errors with their places, and the helpers the CLI and the site share."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import random

import pytest

from engine.splendor_duel import GAME, describe, game, notation, position, simulate
from engine.splendor_duel.events import (
    BoardReplenished,
    BonusTokenTaken,
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ColorCopied,
    GameSetUp,
    PlayerResigned,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
    event_to_dict,
)
from engine.splendor_duel.notation import (
    NotationError,
    check_move,
    legal_move_texts,
    move_text,
    parse_game,
    parse_move,
    write_game,
)
from engine.splendor_duel.state import State

# The board as a grid (row 1 on top): Gold on c5, d5 and e5.
#       a b c d e
#   1   W B G R K
#   2   P P W B G
#   3   R K W B G
#   4   R K W B G
#   5   R K Y Y Y
HEAD = """[Game "Splendor Duel"]
[Event "Test night"]
[Date "2024-03-12"]
[Place "Lyon"]
[Player1 "Alice"]
[Player2 "Bob"]
[First "Alice"]

board
    a b c d e
  1 W B G R K
  2 P P W B G
  3 R K W B G
  4 R K W B G
  5 R K Y Y Y
level3  3-01 3-02 3-03
level2  2-01 2-02 2-03 2-04
level1  1-01 1-02 1-03 1-04 1-05
"""
HEAD_LINES = HEAD.count("\n")


def read(body: str, **kw) -> notation.ParsedGame:
    return parse_game(HEAD + body, "t.tl", **kw)


def ok(body: str) -> notation.ParsedGame:
    parsed = read(body)
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    return parsed


def state_after(body: str) -> State:
    return ok(body).state


def only_error(body: str, **kw) -> NotationError:
    parsed = read(body, **kw)
    assert len(parsed.errors) == 1, [str(e) for e in parsed.errors]
    return parsed.errors[0]


# --- setup and headers -----------------------------------------------------------------


def test_grid_board_is_read_row_by_row_and_stored_in_spiral_order():
    setup = ok("").events[0]
    assert isinstance(setup, GameSetUp)
    grid = "".join("WBGRKPY"[t] for t in ok("").state.board)
    assert grid == "WBGRKPPWBGRKWBGRKWBGRKYYY"
    # c3 (spiral 1) holds W, c4 (spiral 2) W, b4 (spiral 3) K.
    assert setup.board[:3] == (0, 0, 4)


def test_spiral_board_and_one_line_pyramid_give_the_same_setup():
    grid = ok("").events[0]
    text = write_game({"players": ["Alice", "Bob"]}, [grid])
    spiral_line = next(x for x in text.splitlines() if x.startswith("board"))
    one_line = (
        '[Player1 "Alice"]\n[Player2 "Bob"]\n[First "1"]\n'
        + spiral_line.replace("  ", " ")
        + "\npyramid 1-01 1-02 1-03 1-04 1-05 / 2-01 2-02 2-03 2-04 / 3-01 3-02 3-03\n"
    )
    parsed = parse_game(one_line)
    assert parsed.errors == []
    assert parsed.events == [grid]


def test_headers_are_read_into_the_store_form_and_written_back():
    text = HEAD.replace("[First", '[Round "3"]\n[First') + "1. Alice: take a1 =W\n"
    parsed = parse_game(text)
    assert parsed.headers == {
        "event": "Test night",
        "date": "2024-03-12",
        "place": "Lyon",
        "players": ["Alice", "Bob"],
        "tags": {"Round": "3"},
    }
    again = write_game(parsed.headers, parsed.events, parsed.meta)
    assert '[Result "*"]' in again and '[Round "3"]' in again
    assert parse_game(again).events == parsed.events


def test_seat_headers_are_a_list_and_a_duel_seats_exactly_two():
    parsed = parse_game(HEAD.replace('[Player1 "Alice"]\n', "").replace("Alice", "Bob"))
    assert parsed.errors == [] and parsed.names == ("Player 1", "Bob")
    assert parsed.headers["players"] == ["Player 1", "Bob"]
    three = HEAD.replace('[First "Alice"]', '[Player3 "Cid"]\n[First "Alice"]')
    parsed = parse_game(three, "t.tl")
    assert parsed.headers["players"] == ["Alice", "Bob"] and parsed.state.names == ("Alice", "Bob")
    err = parsed.errors[0]
    assert (err.kind, err.line, err.column) == ("unknown", 7, 11)
    assert err.message == "Player3 names seat 3: 3 players given; this game seats 2"
    # Every error asked for: the game is still read with the two seats it has.
    parsed = parse_game(three + "1. Alice: take a1 =W\n", "t.tl", stop_at_first_error=False)
    assert [e.line for e in parsed.errors] == [7] and parsed.names == ("Alice", "Bob")
    text = write_game({"players": ["Ann", "Bob"]}, [])
    assert '[Player1 "Ann"]\n[Player2 "Bob"]' in text


def test_visitors_skip_collect_headers_or_check_the_syntax_only():
    from engine.splendor_duel.notation import (
        HeadersBuilder,
        SkipVisitor,
        SyntaxChecker,
        read_game,
    )

    headers = HeadersBuilder("t.tl")
    read_game(HEAD + "1. Alice: take z9\n", headers)
    assert headers.errors == [] and headers.names == ("Alice", "Bob")
    assert headers.result()["date"] == "2024-03-12"
    skip = SkipVisitor()
    read_game("not a game at all", skip)
    assert skip.errors == []
    syntax = SyntaxChecker("t.tl", stop_at_first_error=False)
    # take a1 b5 is not a line (the rules) but reads; z9 and 9-99 do not.
    read_game(HEAD + "1. Alice: take a1 b5 take z9\n2. Bob: buy 9-99\n", syntax)
    assert [(e.kind, e.line) for e in syntax.errors] == [
        ("unknown", HEAD_LINES + 1),
        ("unknown", HEAD_LINES + 2),
    ]


def test_first_player_by_seat_number_and_unknown_first_player():
    parsed = parse_game(HEAD.replace('[First "Alice"]', '[First "2"]'))
    assert parsed.events[0].first_player == 1
    err = parse_game(HEAD.replace('[First "Alice"]', '[First "Zoe"]'), "t.tl").errors[0]
    assert (err.kind, err.line, err.column) == ("unknown", 7, 9)


def test_a_setup_that_breaks_the_rules_is_refused_with_its_codes():
    five_white = HEAD.replace("5 R K Y Y Y", "5 W K Y Y Y")
    err = parse_game(five_white, "t.tl").errors[0]
    assert err.kind == "illegal"
    assert {v.code for v in err.violations} == {"setup.tokens"}
    no_privilege = HEAD + "privileges 0 0\n"
    err = parse_game(no_privilege).errors[0]
    assert [v.code for v in err.violations] == ["setup.privileges"]


def test_missing_setup_parts_and_empty_text():
    err = parse_game(HEAD.replace("level2  2-01 2-02 2-03 2-04\n", "") + "1. take a1\n").errors[0]
    assert err.kind == "syntax" and "level2" in err.message
    assert parse_game("").errors[0].message.startswith("no game here")
    headers_only = parse_game('[Game "Splendor Duel"]\n[Date "2024-01-01"]\n')
    assert headers_only.errors == [] and headers_only.events == []


def test_another_game_is_refused():
    err = parse_game('[Game "Chess"]\n').errors[0]
    assert err.kind == "unknown" and "Chess" in err.message


# --- decisions -------------------------------------------------------------------------


def test_take_with_colours_is_checked_against_the_board():
    parsed = ok("1. Alice: take a1 b1 c1 =WBG\n")
    assert parsed.events[1] == TokensTaken((0, 1, 2))
    err = only_error("1. Alice: take a1 b1 c1 =WBB\n")
    assert err.kind == "illegal"
    assert err.violations[0].code == "notation.colors"
    assert "c1 holds a green token, not blue" in err.violations[0].message
    assert (err.line, err.column) == (HEAD_LINES + 1, 25)


def test_take_without_colours_is_a_short_form():
    assert ok("1. take a1 b1\n").events[1] == TokensTaken((0, 1))


BUYS_1_05 = (
    "1. Alice: take a3 a4 a5 =RRR\n2. Bob: take b3 b4 b5 =KKK\n"
    "3. Alice: take e2 e3 e4 =GGG\n4. Bob: take a1 b1 =WB\n"
)


def test_privilege_then_replenish_then_take_in_one_turn():
    body = BUYS_1_05 + "5. Alice: buy 1-05 reveal 1-06\n6. Bob: priv d1 repl GRGRR take a2 b2 =PP\n"
    parsed = ok(body)
    assert parsed.events[-3:] == [
        PrivilegeSpent(3),
        BoardReplenished((2, 3, 2, 3, 3)),
        TokensTaken((5, 6)),
    ]
    # The drawn tokens went to the empty spaces in spiral order: b4, b3, b5, a5, a4.
    board = parsed.state.board
    assert [board[s] for s in (16, 11, 21, 20, 15)] == [2, 3, 2, 3, 3]
    # Alice took a Privilege for the replenish and another for the two Pearls.
    assert parsed.state.players[0].privileges == 2


def test_replenish_tokens_may_be_omitted_only_when_the_bag_holds_one_colour():
    body = "1. Alice: take e2 e3 e4 =GGG\n2. Bob: take c2 c3 c4 =WWW\n"
    state = state_after(body)
    assert state.bag == [0] * 7
    err = only_error(body + "3. Alice: repl\n")
    assert err.kind == "illegal" and err.violations[0].code == "replenish.bag_empty"


def test_reserve_forms():
    parsed = ok("1. Alice: res 1-01 @c5 reveal 1-06\n")
    assert parsed.events[1:] == [CardReserved(22, "1-01", None), CardRevealed("1-06")]
    assert ok("1. res L2 @d5\n").events[1] == CardReserved(23, None, 2)
    assert ok("1. res L2=2-07 @e5\n").events[1] == CardReserved(24, "2-07", 2)
    err = only_error("1. res 1-01\n")
    assert err.kind == "syntax" and "@c5 or @d5 or @e5" in err.message
    err = only_error("1. res L2=3-01 @c5\n")
    assert err.kind == "syntax" and "level-3" in err.message


def test_reserve_gold_may_be_omitted_when_one_gold_is_left():
    body = "1. res L1 @c5\n2. res L1 @d5\n3. res 1-02 reveal 1-07\n"
    assert ok(body).events[3] == CardReserved(24, "1-02", None)


def test_buy_with_payment_and_with_the_only_payment_omitted():
    state = state_after(BUYS_1_05)
    # 1-05 costs G2 R3: Alice holds exactly that, one way to pay.
    assert parse_move(state, "buy 1-05") == CardPurchased("1-05", (0, 0, 2, 3, 0, 0, 0))
    assert parse_move(state, "buy 1-05 (G2 R3)") == parse_move(state, "buy 1-05 (GGRRR)")
    parsed = ok(BUYS_1_05 + "5. Alice: buy 1-05 reveal 1-06\n")
    assert parsed.events[5] == CardPurchased("1-05", (0, 0, 2, 3, 0, 0, 0))


def test_buy_with_several_payments_must_say_which():
    body = (
        "1. Alice: res 1-01 @c5 reveal 1-06\n2. Bob: take a1 =W\n"
        "3. Alice: take a3 a4 a5 =RRR\n4. Bob: take b3 b4 b5 =KKK\n"
        "5. Alice: take e2 e3 e4 =GGG\n6. Bob: take b1 =B\n"
    )
    state = state_after(body)
    with pytest.raises(NotationError) as caught:
        parse_move(state, "buy 1-05")
    err = caught.value
    assert err.kind == "incomplete" and "paid in 3 ways" in err.message
    assert "(G2 R3)" in err.message and "(G1 R3 Y1)" in err.message
    assert parse_move(state, "buy 1-05 (G1 R3 Y1)") == CardPurchased("1-05", (0, 0, 1, 3, 0, 0, 1))
    unaffordable = check_move(state, "buy 3-01")
    assert not unaffordable.legal
    assert unaffordable.violations[0].code == "purchase.unaffordable"


def test_card_descriptions_are_checked():
    assert ok('1. res 3-01 "white 3pt 2cr" @c5 reveal 3-04\n').events[1].card == "3-01"
    assert ok('1. res 3-01 "L3 white cost B3 R5" @c5 reveal 3-04\n').errors == []
    err = only_error('1. res 3-01 "red 3pt" @c5\n')
    assert err.kind == "unknown" and "'red' does not fit" in err.message


def test_short_card_ids_are_accepted():
    assert ok("1. res 1-1 @c5 reveal 1-6\n").events[1:] == [
        CardReserved(22, "1-01", None),
        CardRevealed("1-06"),
    ]


def test_abilities_royals_and_discards():
    # The position strings make the rare moments direct to set up.
    s = position.parse_position(
        "WBGR./PPWBG/RKWBG/RKWBG/RK... - 1-01,1-02,1-03,1-04,1-05/2-01,2-02,2-03,2-04/"
        "3-01,3-02,3-03 23/20/10 K1Y3/1-16,1-26/-/0/-/0 -/-/-/1/-/0 2 R-1,R-2,R-3,R-4 "
        "1 1 4 color color - - 1-26 -"
    )
    assert parse_move(s, "copy K") == ColorCopied(4)
    assert parse_move(s, "copy black") == ColorCopied(4)
    assert move_text(s, ColorCopied(4)) == "copy K"
    assert parse_move(s, "steal R") == TokenStolen(3)
    assert parse_move(s, "royal R-3") == parse_move(s, "royal R3") == RoyalTaken("R-3")
    assert parse_move(s, "token c3") == BonusTokenTaken(12)
    assert parse_move(s, "disc W1 K1") == TokensDiscarded((1, 0, 0, 0, 1, 0, 0))
    assert parse_move(s, "disc WK") == TokensDiscarded((1, 0, 0, 0, 1, 0, 0))


def test_token_space_may_be_omitted_when_one_token_of_the_colour_is_left():
    s = position.parse_position(
        "WBGR./PP.BG/RK.BG/RK.BG/RKYYY W3 1-01,1-02,1-03,1-05,-/2-01,2-02,2-03,2-04/"
        "3-01,3-02,3-03 24/20/10 K1/1-16,1-04/-/0/-/0 -/-/-/1/-/0 2 R-1,R-2,R-3,R-4 "
        "1 1 4 bonus_token bonus_token - 1.4 1-04 -"
    )
    assert parse_move(s, "token") == BonusTokenTaken(0)
    assert game.check(s, parse_move(s, "token")) == []


def test_identify_and_resign_name_players():
    body = "1. Alice: res L2 @c5\n2. Bob: take a1 =W\n"
    state = state_after(body)
    assert parse_move(state, "id 2-07") == CardIdentified(0, "2-07")  # only Alice has one
    names = ("Alice", "Bob")
    assert parse_move(state, "id 2-07 by Alice", names) == CardIdentified(0, "2-07")
    assert parse_move(state, 'id 2-07 by "Alice"', names) == CardIdentified(0, "2-07")
    assert parse_move(state, "id 2-07 by #1") == CardIdentified(0, "2-07")
    assert parse_move(state, "resign") == PlayerResigned(0)
    assert parse_move(state, "resign by Bob", ("Alice", "Bob")) == PlayerResigned(1)
    parsed = ok(body + "3. Alice: id 2-07 take b1 =B\n4. Bob: resign\n")
    assert parsed.events[3] == CardIdentified(0, "2-07")
    assert parsed.state.outcome.condition == "resignation"
    with pytest.raises(NotationError) as caught:
        parse_move(state, "resign by Zoe", ("Alice", "Bob"))
    assert caught.value.kind == "unknown"


def test_move_text_writes_the_canonical_form_of_every_event():
    body = "1. Alice: res L2 @c5\n"
    state = state_after(body)
    names = ("Alice", "Bob")
    assert move_text(state, CardIdentified(0, "2-07"), names) == "id 2-07 by Alice"
    assert move_text(state, CardIdentified(1, "2-07"), names) == "id 2-07"
    assert move_text(state, PlayerResigned(1), names) == "resign"
    assert move_text(state, PlayerResigned(0), ("Ann Lee", "Bob")) == 'resign by "Ann Lee"'
    assert move_text(state, PlayerResigned(0), ("Sam", "Sam")) == "resign by #1"
    assert move_text(state, BoardReplenished(None)) == "repl"
    assert move_text(state, CardReserved(22, None, 3)) == "res L3 @c5"
    assert move_text(state, CardPurchased("1-01", (0,) * 7)) == "buy 1-01 ()"
    assert move_text(state, TokensDiscarded((0, 2, 0, 0, 0, 0, 1))) == "disc B2 Y1"


# --- comments, marks, meta -------------------------------------------------------------


def test_comments_annotations_and_glyphs_go_to_the_events_meta():
    body = (
        "{shuffled by Bob}\n"
        "1. Alice: take a1 b1 c1 =WBG ?! (disputed) {Bob says\n"
        "  b1 was empty} \n"
        "2. Bob: take a2 b2 =PP! {a \\} brace}\n"
    )
    parsed = ok(body)
    assert parsed.meta[0] == {"comment": "shuffled by Bob"}
    assert parsed.meta[1] == {
        "annotations": ["?!", "disputed"],
        "comment": "Bob says\n  b1 was empty",
    }
    assert parsed.meta[2] == {"annotations": ["!"], "comment": "a } brace"}
    text = write_game(parsed.headers, parsed.events, parsed.meta)
    assert "take a1 b1 c1 =WBG ?! (disputed) {Bob says\n  b1 was empty}" in text
    assert "{a \\} brace}" in text
    again = parse_game(text)
    assert again.meta == parsed.meta
    assert write_game(again.headers, again.events, again.meta) == text


def test_a_move_marked_illegal_is_kept_flagged_and_applied_as_played():
    parsed = ok("1. Alice: take a1 c1 =WG !illegal (disputed) {nobody saw}\n2. Bob: take a2 =P\n")
    assert parsed.meta[1] == {
        "annotations": ["disputed"],
        "played_illegally": True,
        "comment": "nobody saw",
    }
    [flag] = parsed.flagged
    assert flag.event_number == 2 and flag.turn == 1
    assert [v.code for v in flag.violations] == ["take.not_a_line"]
    assert (flag.line, flag.column) == (HEAD_LINES + 1, 11)
    assert parsed.state.players[0].tokens[0] == 1 and parsed.state.players[0].tokens[2] == 1
    text = write_game(parsed.headers, parsed.events, parsed.meta)
    assert "take a1 c1 =WG !illegal (disputed) {nobody saw}" in text


def test_a_move_marked_illegal_that_cannot_stand_is_an_error():
    err = only_error("1. Alice: take a1 =W\n2. Bob: take a1 !illegal\n")
    assert err.kind == "illegal"
    assert [v.code for v in err.violations] == ["take.empty_space"]


def test_a_legal_move_marked_illegal_is_flagged_without_violations():
    parsed = ok("1. Alice: take a1 =W !illegal\n")
    assert parsed.flagged[0].violations == []


# --- errors and their places -----------------------------------------------------------


def test_error_kinds_and_places():
    cases = {
        "1. Alice: tkae a1\n": ("syntax", 11, "did you mean take?"),
        "1. Alice: take f9\n": ("unknown", 16, "no space 'f9'"),
        "1. Alice: buy 1-31\n": ("unknown", 15, "no Jewel card '1-31'"),
        "1. Alice: take a1 =W ! {x}\n  royal R-9\n": ("unknown", 0, "no Royal card"),
        "1. Alice: take a1 b1 c1 d1\n": ("illegal", 11, ""),
    }
    for body, (kind, column, words) in cases.items():
        err = read(body).errors[0]
        assert err.kind == kind, body
        if column:
            assert (err.line, err.column) == (HEAD_LINES + 1, column), (body, str(err))
        assert words in err.message
        assert str(err).startswith(f"t.tl:{err.line}:{err.column}: ")


def test_an_illegal_move_reports_turn_event_position_and_rule():
    err = only_error("1. Alice: take a1 b1 =WB\n2. Bob: take a1\n")
    assert err.kind == "illegal"
    assert (err.turn, err.event_number) == (2, 3)
    assert err.position == position.position_string(read("1. Alice: take a1 b1 =WB\n").state)
    [v] = err.violations
    assert v.code == "take.empty_space" and v.rule.page == 5
    assert "p.5" in str(err)


def test_violation_messages_use_the_players_names():
    err = only_error("1. Alice: priv a1\n")
    assert err.violations[0].code == "privilege.none_held"
    assert "Alice holds no Privilege" in err.violations[0].message


def test_turn_numbers_and_names_are_checked():
    err = only_error("1. Alice: take a1 =W\n1. Bob: take b1\n")
    assert err.kind == "syntax" and "this is turn 2" in err.message
    err = only_error("2. Alice: take a1\n")
    assert err.kind == "illegal" and err.violations[0].code == "turn.action_due"
    err = only_error("1. Alice: take a1 =W\n3. Alice: take b1\n")
    assert err.kind == "illegal" and err.violations[0].code == "turn.action_due"
    err = only_error("1. Bob: take a1\n")
    assert err.kind == "illegal" and err.violations[0].code == "turn.player"
    err = only_error("1. Alice: take a1 =W take b1\n")
    assert err.kind == "syntax" and "turn 2 starts on a new line" in err.message
    err = only_error("1. Alice: res 1-01 @c5\n2. Bob: take a1\n")
    assert err.violations[0].code == "turn.reveal_due"


def test_a_line_without_a_number_continues_the_turn():
    parsed = ok("1. Alice: res 1-01 @c5\n   reveal 1-06 {continued}\n2. Bob: take a1 =W\n")
    assert parsed.events[2] == CardRevealed("1-06")
    assert parsed.meta[2] == {"comment": "continued"}


def test_the_result_header_is_checked_against_the_moves():
    body = "1. Alice: take a1 =W\n2. Bob: resign\n"
    parsed = parse_game(HEAD.replace("[First", '[Result "0-1"]\n[First') + body)
    assert parsed.errors[0].violations[0].code == "result.mismatch"
    parsed = parse_game(HEAD.replace("[First", '[Result "1-0"]\n[First') + body)
    assert parsed.errors == []


def test_stop_at_the_first_error_or_keep_the_legal_prefix_and_report_the_rest():
    body = "1. Alice: take a1 =W\n2. Bob: take a1\n3. Alice: fly c3\n4. Bob: buy 9-99\n"
    first = read(body)
    assert len(first.errors) == 1 and len(first.events) == 2
    every = read(body, stop_at_first_error=False)
    assert [e.kind for e in every.errors] == ["illegal", "syntax", "unknown"]
    assert [e.line for e in every.errors] == [HEAD_LINES + n for n in (2, 3, 4)]
    assert every.events == first.events
    assert position.states_equal(every.state, first.state)


def test_unclosed_comment_and_note_are_errors():
    err = only_error("1. Alice: take a1 =W {never closed\n")
    assert err.kind == "syntax" and "never closed" in err.message


# --- one move: parse_move, check_move, legal_move_texts -------------------------------


def test_parse_move_errors_carry_a_column():
    state = state_after("")
    with pytest.raises(NotationError) as caught:
        parse_move(state, "take c3 z9")
    assert (caught.value.kind, caught.value.line, caught.value.column) == ("unknown", 1, 9)
    with pytest.raises(NotationError):
        parse_move(state, "take a1 take b1")
    with pytest.raises(NotationError):
        parse_move(state, "")


def test_check_move_legal_illegal_and_unreadable():
    state = state_after("")
    verdict = check_move(state, "take a1 b1 c1", ("Alice", "Bob"))
    assert verdict.legal and verdict.error is None
    assert verdict.event == TokensTaken((0, 1, 2))
    assert "off the board: a1 (white), b1 (blue), c1 (green)" in verdict.changes
    assert "Alice's tokens: +1 white, +1 blue, +1 green (now 3)" in verdict.changes
    assert (
        "next: Bob to play: optional actions (Privilege, Replenish), then the mandatory action"
        in verdict.changes
    )
    bad = check_move(state, "take a1 c1", ("Alice", "Bob"))
    assert not bad.legal and bad.violations[0].code == "take.not_a_line"
    unreadable = check_move(state, "take a1 c1 c7")
    assert not unreadable.legal and unreadable.error is not None and unreadable.event is None
    assert check_move(state, "repl").violations[0].code == "replenish.bag_empty"
    assert verdict.to_dict()["event"] == {"type": "tokens_taken", "spaces": ["a1", "b1", "c1"]}
    assert verdict.payload == verdict.to_dict()["event"] and verdict.text == "take a1 b1 c1 =WBG"
    # An illegal decision that reads still has its payload and canonical text.
    assert bad.payload == {"type": "tokens_taken", "spaces": ["a1", "c1"]}
    assert bad.text == "take a1 c1 =WG"
    assert unreadable.payload is None and unreadable.text is None


def test_legal_move_texts_read_back_as_the_legal_moves():
    events = simulate.random_game(random.Random(11))
    for n, state in enumerate(GAME.states(events)):
        if n % 9 or state.is_over or state.awaiting == "setup":
            continue
        texts = legal_move_texts(state)
        if state.awaiting == "reveal":
            assert texts and all(t.startswith("reveal ") for t in texts)
            continue
        moves = game.legal_moves(state)
        assert len(texts) == len(moves)
        for text, move in zip(texts, moves, strict=True):
            if isinstance(move, BoardReplenished):
                assert text == "repl"
                continue
            assert parse_move(state, text) == move


def test_the_examples_in_the_docstrings_run():
    modules = [notation, position, describe] + [
        importlib.import_module(f"{notation.__name__}.{info.name}")
        for info in pkgutil.iter_modules(notation.__path__)
    ]
    for module in modules:
        assert doctest.testmod(module).failed == 0, module.__name__


def test_stray_closing_brackets_are_reported_not_skipped():
    err = only_error("1. Alice: take a1 =W }\n")
    assert err.kind == "syntax" and "'}' without its opening" in err.message
    err = parse_game(HEAD.replace("level3", "}\nlevel3"), "t.tl").errors[0]
    assert err.kind == "syntax" and (err.line, err.column) == (16, 1)


def test_a_position_must_be_one_the_rules_can_work_from():
    start = position.position_string(state_after(""))
    joker_as_gold = start.replace("-/-/-/0/-/0", "-/1-26=Y/-/0/-/0", 1)
    with pytest.raises(position.PositionError, match="gem colour"):
        position.parse_position(joker_as_gold)
    colour_without_card = start.replace(" action - - - - -", " color color - - - -")
    with pytest.raises(position.PositionError, match="last card"):
        position.parse_position(colour_without_card)
    reveal_without_slot = start.replace(" action - - - - -", " reveal - - - - -")
    with pytest.raises(position.PositionError, match="refill"):
        position.parse_position(reveal_without_slot)
    over_without_outcome = start.replace(" action - - - - -", " over - - - - -")
    with pytest.raises(position.PositionError, match="outcome"):
        position.parse_position(over_without_outcome)
    short = " ".join(start.split()[:9])
    with pytest.raises(position.PositionError) as caught:
        position.parse_position(short)
    assert "the next is to_move" in str(caught.value)


def test_the_victory_header_is_checked_and_reads_either_spelling():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "fixtures/games/colour.tl").read_text("utf-8")
    for said in ("colour red", "Color Red", "color"):
        assert parse_game(text.replace('"color red"', f'"{said}"')).errors == []
    err = parse_game(text.replace('"color red"', '"crowns"')).errors[0]
    assert err.violations[0].code == "result.mismatch"


def test_check_move_and_payload_validation_name_the_players():
    state = read("1. Alice: take a1 b1 =WB\n").state
    verdict = notation.check_move(state, "royal R-1", ("Ann", "Bo"))
    assert not verdict.legal
    assert verdict.violations[0].message.startswith("Bo has 0 crowns")
    assert state.names == read("").state.names  # the caller's state is not renamed
    events = simulate.random_game(random.Random(4))
    payloads = [event_to_dict(e) for e in events[:3]] + [{"type": "royal_taken", "royal": "R-1"}]
    _, problem, _ = GAME.validate_payloads(payloads, None, ("Ann", "Bo"))
    assert problem is not None and problem.event_number == 4
    assert any(n in problem.violations[0].message for n in ("Ann has", "Bo has"))


def test_the_game_object_reads_and_writes_through_the_notation():
    from engine import protocol
    from engine.splendor_duel import GAME

    parsed = GAME.read_game(HEAD + "1. Alice: take a1 b1 =WB\n", "t.tl")
    assert isinstance(parsed, protocol.ParsedGame) and parsed.ok
    assert parsed.names == ("Alice", "Bob") and parsed.state.names == parsed.names
    assert GAME.write_game(parsed.headers, parsed.events, parsed.meta) == write_game(
        parsed.headers, parsed.events, parsed.meta
    )
    state = parsed.state
    verdict = GAME.check_move(state, "royal R-1")
    assert isinstance(verdict, protocol.Verdict) and not verdict.legal
    assert verdict.violations[0].message.startswith("Bob has 0 crowns")
    assert verdict.text == "royal R-1" and verdict.payload == {
        "type": "royal_taken",
        "royal": "R-1",
    }
    legal = GAME.check_move(state, "take c3")
    after = GAME.after(state, GAME.parse_move(state, "take c3"))
    assert legal.legal and list(legal.changes) == GAME.changes(state, after)
    assert GAME.move_text(state, legal.event) == legal.text == "take c3 =W"
    assert legal.text in GAME.legal_move_texts(state)
    payloads = [event_to_dict(e) for e in parsed.events]
    _, problem, flagged = GAME.validate_payloads(payloads, [None] * len(payloads), ["Ann", "Bo"])
    assert problem is None and flagged == []
