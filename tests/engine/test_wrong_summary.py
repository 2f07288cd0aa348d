"""The wrong rules summary (rules/README.md): one test per row of its table.

Where the summary allows what the rulebook forbids, the move is refused and the refusal
cites the rule; where it forbids what the rulebook allows, the move is accepted.
"""

from __future__ import annotations

from duel_positions import (
    DEFAULT_BOARD,
    buy,
    discard,
    do,
    ev,
    hold,
    own,
    privilege,
    put,
    refusal,
    replenish,
    reserve,
    royal,
    setup_dict,
    show,
    start,
    take,
)

from engine.splendor_duel import game
from engine.splendor_duel.catalogue import GEMS, RED
from engine.splendor_duel.state import ACTION, DISCARD, ROYAL, State


def test_25_gems_5_of_each_colour_a_setup_with_5_of_one_colour_is_refused():
    board = DEFAULT_BOARD.replace("B", "W", 1)  # 5 white, 3 blue
    v = refusal(State(), ev(setup_dict(board=board)))
    assert v.code == "setup.tokens"
    assert "5 white tokens" in v.message
    assert v.rule.cite() == "p.2, Setup"


def test_only_all_different_or_two_alike_taking_three_of_one_colour_is_accepted():
    state = start()
    put(state, "a1=G b1=G c1=G d1=W")
    assert game.check(state, take("a1 b1 c1")) == []
    do(state, take("a1 b1 c1"))
    assert state.players[1].privileges == 2  # the opponent's Privilege


def test_one_gem_plus_one_gold_a_gold_in_a_take_is_refused():
    state = start()
    put(state, "d3=W e3=Y")
    v = refusal(state, take("d3 e3"))
    assert v.code == "take.gold"
    assert v.rule.cite() == "p.5, Take up to 3 tokens"


def test_reserve_without_gold_a_reserve_with_no_gold_on_the_board_is_refused():
    state = start()
    put(state, "c3=W d3=B")
    v = refusal(state, reserve("c3", card="1-01"))
    assert v.code == "reserve.no_gold"
    assert v.rule.cite() == (
        "p.6, Take 1 Gold token and reserve 1 Jewel card: not possible with no Gold token on "
        "the board"
    )


def test_never_more_than_10_tokens_11_during_the_turn_then_a_discard():
    state = start()
    own(state, 0, "1-06", "1-07", "1-09", "1-10")  # 4 blue bonuses: 1-02 (B3) is free
    hold(state, 0, "WWBBGGRRKK")
    state.players[0].privileges, state.players[1].privileges = 1, 0
    do(state, privilege("c3"))  # an 11th token during the turn: accepted
    assert sum(state.players[0].tokens) == 11 and state.awaiting == ACTION
    do(state, buy("1-02"))
    assert state.awaiting == DISCARD and state.current == 0
    v = refusal(state, take("d3"))  # the turn cannot end with 11
    assert v.code == "turn.discard_due"
    assert v.rule.cite() == "p.9, End of player turn: discard down to 10 tokens"
    do(state, discard("K"))
    assert sum(state.players[0].tokens) == 10


def test_a_privilege_immediately_gives_a_gem_gaining_one_changes_no_token_count():
    state = start()
    put(state, "a1=W b1=B c3=G")
    before = [p.tokens[:] for p in state.players]
    do(state, replenish(state))  # player 1 gains a Privilege
    assert state.players[1].privileges == 2
    assert [p.tokens for p in state.players] == before


def test_claim_royal_at_its_printed_crowns_royal_at_2_crowns_refused_3_requires_one():
    state = start()
    own(state, 0, "1-02", "1-07")  # 2 crowns
    v = refusal(state, royal("R-1"))
    assert v.code == "royal.not_due"
    assert v.rule.cite() == "p.8, Crowns"
    show(state, "1-12")  # green, 1 crown, R3
    hold(state, 0, "RRR")
    do(state, buy("1-12", "RRR"))
    assert state.players[0].crowns == 3 and state.awaiting == ROYAL
    v = refusal(state, take("c3"))
    assert v.code == "turn.royal_due" and v.rule.cite() == "p.8, Crowns"


def test_colour_victory_needs_all_5_bonuses_and_pearl_all_5_is_not_a_win_10_in_one_is():
    state = start()
    own(state, 0, "1-01", "1-06", "1-11", "1-16")  # white, blue, green, black bonuses
    show(state, "1-21")  # red, W1 B1 G1 K1: free with those bonuses
    do(state, buy("1-21"), ev({"type": "card_revealed", "card": "1-20"}))
    assert all(state.players[0].bonuses[c] for c in GEMS)
    assert state.outcome is None and state.current == 1  # the turn ended: no win

    state = start()
    own(state, 0, "3-10", "2-19", "1-25", "2-18")  # red: 4 + 2 + 1 + 1 = 8 points
    show(state, "2-17")  # red, 2 points, W2 B2 G2 P1
    hold(state, 0, "WWBBGGP")
    do(state, buy("2-17", "WWBBGGP"))
    assert state.outcome is not None
    assert (state.outcome.condition, state.outcome.color) == ("color", RED)


def test_a_turn_is_exactly_one_action_privilege_replenish_and_a_take_are_accepted():
    state = start(first_player=1)
    do(state, take("c3"))  # player 1; now player 0, who holds a Privilege
    put(state, "a1=W b1=B c1=G d1=R")
    do(state, privilege("a1"), replenish(state), take("b1 c1 d1"))
    assert state.current == 1 and state.players[0].tokens[:5] == [1, 1, 1, 1, 0]


def test_first_player_nothing_special_a_setup_without_the_second_players_privilege_is_refused():
    v = refusal(State(), ev(setup_dict(first_player=0, privileges=[0, 0])))
    assert v.code == "setup.privileges"
    assert "Player 2" in v.message and v.rule.cite() == "p.2, Setup"
