"""One test per rule of Splendor Duel, named after the rule.

Page numbers are those of the printed rulebook (splendor_duel_rulebook_print.txt).
Positions start from a real setup event; a few fields are set by hand (tests/engine/
duel_positions.py) where reaching the position by play would take many turns.
"""

from __future__ import annotations

import pytest
from duel_positions import (
    DEFAULT_PYRAMID,
    board_text,
    buy,
    codes,
    copy_color,
    discard,
    do,
    empty_deck,
    hold,
    own,
    privilege,
    put,
    refusal,
    replenish,
    reserve,
    reserved_for,
    reveal,
    royal,
    setup_dict,
    show,
    start,
    steal,
    take,
)
from duel_positions import bonus_token as bonus_token_event
from duel_positions import ev as event

from engine.splendor_duel import game
from engine.splendor_duel.catalogue import (
    BLACK,
    BLUE,
    CARDS,
    EMPTY,
    GOLD,
    PEARL,
    RED,
    WHITE,
    space_index,
)
from engine.splendor_duel.events import BoardReplenished, CardPurchased, TokensTaken
from engine.splendor_duel.state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    STEAL,
    State,
)


def at(state: State, space: str) -> int:
    return state.board[space_index(space)]


# --- setup (p.2) ------------------------------------------------------------------------


def test_setup_pyramid_has_three_four_and_five_cards():
    """Setup step 2 (p.2): 3 level-3, 4 level-2 and 5 level-1 cards form the pyramid."""
    state = start()
    assert [len(row) for row in state.pyramid] == [5, 4, 3]
    assert state.decks == [25, 20, 10]
    short = setup_dict(pyramid=(DEFAULT_PYRAMID[0][:4], DEFAULT_PYRAMID[1], DEFAULT_PYRAMID[2]))
    assert refusal(State(), event(short)).code == "setup.pyramid"
    wrong_level = setup_dict(
        pyramid=(DEFAULT_PYRAMID[0], DEFAULT_PYRAMID[1], ("3-01", "3-02", "2-05"))
    )
    assert refusal(State(), event(wrong_level)).code == "setup.card_level"


def test_setup_places_all_25_tokens_on_the_spiral_from_the_centre():
    """Setup step 3 (p.2): the 25 tokens go on the board from the central space along the
    printed spiral (c3, c4, b4, b3, b2, ... e5)."""
    board = "PWBGRKWBGRKWBGRKWBGRKPYYY"
    state = start(board=board)
    assert at(state, "c3") == PEARL  # the first token drawn: the centre
    assert at(state, "c4") == WHITE  # the second: one step down
    assert at(state, "b4") == BLUE  # then left
    assert at(state, "e5") == GOLD  # the 25th: the bottom-right corner
    assert EMPTY not in state.board and state.bag == [0] * 7
    assert refusal(State(), event(setup_dict(board=board[:24]))).code == "setup.board_size"


def test_setup_gives_the_second_player_one_of_the_three_privileges():
    """Setup steps 4 and 6 (p.2): 3 Privileges above the board; the first player's
    opponent takes 1."""
    state = start(first_player=1)
    assert state.current == 1
    assert [p.privileges for p in state.players] == [1, 0]
    assert state.table_privileges == 2
    stated = start(first_player=1, privileges=[1, 0])
    assert [p.privileges for p in stated.players] == [1, 0]
    wrong = event(setup_dict(first_player=1, privileges=[0, 1]))
    assert refusal(State(), wrong).code == "setup.privileges"


def test_setup_makes_the_four_royal_cards_available():
    """Setup step 5 (p.2): the 4 Royal cards are placed below the board."""
    assert start().royals == ["R-1", "R-2", "R-3", "R-4"]


# --- optional actions (p.4) -------------------------------------------------------------


def test_spending_privileges_returns_each_to_the_table_for_one_non_gold_token():
    """Optional action 1, Use a Privilege (p.4): return 1 or more Privileges; for each,
    take 1 Gem or Pearl token of your choice from the board, never Gold."""
    state = start()
    state.players[0].privileges, state.players[1].privileges, state.table_privileges = 2, 1, 0
    do(state, privilege("c3"), privilege("e1"))
    p = state.players[0]
    assert p.privileges == 0 and state.table_privileges == 2
    assert p.tokens[WHITE] == 1 and p.tokens[PEARL] == 1
    assert at(state, "c3") == EMPTY and at(state, "e1") == EMPTY
    assert (state.awaiting, state.current) == (ACTION, 0)  # still player 0's turn
    assert refusal(state, privilege("c4")).code == "privilege.none_held"
    state.players[0].privileges, state.table_privileges = 1, 1
    v = refusal(state, privilege("e3"))
    assert v.code == "privilege.gold" and "e3 holds a Gold token" in v.message
    assert refusal(state, privilege("c3")).code == "privilege.empty_space"


def test_replenish_only_when_the_bag_is_not_empty():
    """Optional action 2 (p.4): you cannot replenish the board if the bag is empty."""
    state = start()
    v = refusal(state, BoardReplenished(None))
    assert v.code == "replenish.bag_empty" and v.rule.page == 4
    do(state, take("c3"))  # player 0 holds a white token; nothing went into the bag
    assert refusal(state, BoardReplenished(None)).code == "replenish.bag_empty"
    state.players[0].tokens[WHITE] = 0
    put(state, board_text(state))  # the white token goes back into the bag
    assert state.bag[WHITE] == 1
    assert game.check(state, BoardReplenished((WHITE,))) == []
    wrong = BoardReplenished((BLUE,))
    assert refusal(state, wrong).code == "replenish.tokens"


def test_replenish_puts_the_bag_on_the_empty_spaces_in_spiral_order():
    """Optional action 2 (p.4): the tokens from the bag go onto the empty spaces, starting
    with the central space and following the printed spiral."""
    state = start()
    for space in ("c3", "b2", "e5"):  # spiral positions 1, 5 and 25
        state.board[space_index(space)] = EMPTY
    put(state, board_text(state))
    drawn = (GOLD, BLACK, WHITE)  # the order the logger saw them come out of the bag
    assert sorted(drawn) == sorted(c for c, n in enumerate(state.bag) for _ in range(n))
    do(state, BoardReplenished(drawn))
    assert (at(state, "c3"), at(state, "b2"), at(state, "e5")) == (GOLD, BLACK, WHITE)
    assert state.bag == [0] * 7


def test_replenish_gives_the_opponent_a_privilege():
    """Optional action 2 (p.4): after replenishing, your opponent takes 1 Privilege."""
    state = start()
    put(state, "a1=W b1=B")
    do(state, replenish(state))
    assert [p.privileges for p in state.players] == [0, 2]
    assert state.table_privileges == 1


def test_no_privilege_may_be_spent_after_a_replenish_in_the_same_turn():
    """Player turn (p.4): the optional actions happen in the indicated order, so a
    Privilege cannot be spent after a Replenish (the rulebook's page is cited, not the BGA
    summary that spells it out)."""
    state = start(first_player=1)  # player 0 holds the Privilege; player 1 starts
    do(state, take("c3"))
    put(state, "a1=W b1=B c1=G")
    do(state, privilege("a1"), replenish(state))  # Privilege then Replenish: fine
    state.players[0].privileges = 1
    state.table_privileges -= 1
    v = refusal(state, privilege("c1"))
    assert v.code == "privilege.after_replenish"
    assert v.rule.cite().startswith("p.4, Player turn")
    assert "Board Game Arena" not in v.rule.cite()


# --- taking a Privilege (p.4, Important) --------------------------------------------------


def test_taking_a_privilege_comes_from_the_table():
    """Important (p.4): a Privilege taken, for any reason, comes from above the board."""
    state = start()
    put(state, "a1=R b1=R c1=R")
    do(state, take("a1 b1 c1"))
    assert state.players[1].privileges == 2 and state.table_privileges == 1


def test_taking_a_privilege_when_none_is_on_the_table_comes_from_the_opponent():
    """Important (p.4) and ability Privilege (p.8): when none are left above the board,
    take 1 from your opponent."""
    state = start()
    state.players[0].privileges, state.players[1].privileges, state.table_privileges = 0, 3, 0
    show(state, "2-03")  # white, privilege ability: W4 K2 P1
    hold(state, 0, "WWWWKKP")
    do(state, buy("2-03", "WWWWKKP"))
    assert [p.privileges for p in state.players] == [1, 2]
    assert state.table_privileges == 0


def test_a_privilege_for_the_opponent_with_an_empty_table_comes_from_the_current_player():
    """Important (p.4): the opponent's Privilege (replenish, 3 of a colour, 2 Pearls) is
    taken from the current player when the table has none."""
    state = start()
    state.players[0].privileges, state.players[1].privileges, state.table_privileges = 2, 1, 0
    put(state, "a1=R b1=R c1=R")
    do(state, take("a1 b1 c1"))
    assert [p.privileges for p in state.players] == [1, 2]


def test_holding_all_three_privileges_taking_one_does_nothing():
    """Important (p.4): if you already have all 3 Privileges, nothing happens."""
    state = start()
    state.players[0].privileges, state.players[1].privileges, state.table_privileges = 0, 3, 0
    put(state, "a1=W c3=B")
    do(state, replenish(state))
    assert [p.privileges for p in state.players] == [0, 3]
    assert state.table_privileges == 0


# --- the mandatory action (p.5-7) ---------------------------------------------------------


def test_exactly_one_mandatory_action_ends_the_turn():
    """Player turn (p.4) and Mandatory Action (p.5): optional actions leave the turn
    open; one mandatory action is performed, then the turn ends."""
    state = start(first_player=1)
    do(state, take("c3 c4"))
    assert (state.current, state.turn) == (0, 2)
    do(state, privilege("b4"))
    assert (state.current, state.awaiting) == (0, ACTION)  # an optional action only
    do(state, take("e1 e2"))
    assert (state.current, state.turn) == (1, 3)


def test_take_one_to_three_adjacent_tokens_in_one_straight_line():
    """Take up to 3 tokens (p.5): 1, 2 or 3 adjacent Gem/Pearl tokens in an
    uninterrupted horizontal, vertical or diagonal line."""
    state = start()
    for spaces in ("c3", "c3 d3", "a1 b1 c1", "a1 a2 a3", "a1 b2 c3", "a5 b4 c3", "e1 e2"):
        assert game.check(state, take(spaces)) == [], spaces
    assert refusal(state, take("a1 b1 c1 d1")).code == "take.count"
    assert refusal(state, take("a1 c1")).code == "take.not_a_line"
    assert refusal(state, take("a1 b1 b2")).code == "take.not_a_line"
    assert refusal(state, take("a1 c3")).code == "take.not_a_line"
    do(state, take("a5 b4 c3"))
    assert state.players[0].tokens[:5] == [1, 0, 2, 0, 0]


def test_an_empty_space_interrupts_the_line():
    """Take up to 3 tokens (p.5): an empty space interrupting a group cannot be jumped."""
    state = start()
    put(state, "c2=W c4=B b3=R d3=G")
    v = refusal(state, take("c2 c3 c4"))
    assert v.code == "take.empty_space" and "c3 is empty" in v.message


def test_a_gold_token_interrupts_the_line_and_is_never_taken():
    """Take up to 3 tokens (p.5): this action cannot take a Gold token, and a Gold
    token interrupts a group."""
    state = start()
    put(state, "c2=W c3=Y c4=B")
    v = refusal(state, take("c2 c3 c4"))
    assert v.code == "take.gold"
    assert str(v) == (
        "c3 holds a Gold token; Gold is only taken by reserving a card (p.5, Take up to 3 tokens)"
    )


def test_take_three_of_one_colour_gives_opponent_a_privilege():
    """Take up to 3 tokens (p.5): taking 3 tokens of the same colour gives your opponent
    1 Privilege."""
    state = start()
    put(state, "a1=R b1=R c1=R a2=R b2=W c2=W")
    do(state, take("a1 b1 c1"))
    assert state.players[1].privileges == 2
    do(state, take("b2 c2"))  # 2 of a colour: nothing
    assert state.players[0].privileges == 0


def test_take_both_pearls_gives_opponent_a_privilege():
    """Take up to 3 tokens (p.5): taking the 2 Pearls gives your opponent 1 Privilege."""
    state = start()
    do(state, take("e1 e2"))
    assert state.players[1].privileges == 2
    do(state, take("a1 b1 c1"))  # blue, green, red: nothing
    assert state.players[0].privileges == 0


def test_reserve_takes_one_gold_of_the_players_choice():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): first take 1 Gold of your
    choice, then reserve a card."""
    state = start()
    do(state, reserve("e4", card="1-02"))
    p = state.players[0]
    assert at(state, "e4") == EMPTY and at(state, "e3") == GOLD and at(state, "e5") == GOLD
    assert p.tokens[GOLD] == 1 and p.reserved == [(1, "1-02")]
    do(state, reveal("1-20"))
    v = refusal(state, reserve("e1", card="1-01"))
    assert v.code == "reserve.not_gold" and "e1 holds a Pearl token" in v.message


def test_reserve_needs_a_gold_token_on_the_board():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): not possible with no Gold token
    on the board."""
    state = start()
    put(state, "a1=W c3=B")
    v = refusal(state, reserve("a1", card="1-01"))
    assert v.code == "reserve.no_gold" and v.rule.page == 6


def test_reserve_needs_fewer_than_three_reserved_cards():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): not possible with 3 reserved
    cards already."""
    state = start()
    reserved_for(state, 0, "1-10", "2-10", "3-10")
    v = refusal(state, reserve("e5", card="1-01"))
    assert v.code == "reserve.limit" and "already has 3 reserved cards" in v.message


def test_reserve_any_pyramid_card():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): take 1 card of your choice from
    the pyramid."""
    state = start()
    for row in state.pyramid:
        for cid in row:
            assert game.check(state, reserve("e5", card=cid)) == []
    assert refusal(state, reserve("e5", card="1-20")).code == "reserve.not_in_pyramid"


def test_reserve_blind_from_the_top_of_a_non_empty_deck():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): or draw the top card of one of
    the 3 decks."""
    state = start()
    do(state, reserve("e3", deck=2))
    assert state.players[0].reserved == [(2, None)]
    assert state.decks[1] == 19
    assert state.pyramid[1] == list(DEFAULT_PYRAMID[1])  # nothing to refill
    assert state.current == 1
    empty_deck(state, 3)
    assert refusal(state, reserve("e4", deck=3)).code == "reserve.deck_empty"


def test_purchase_pays_the_cost_minus_bonuses_never_below_zero():
    """Purchase 1 Jewel card (p.6-7): each bonus reduces the cost by 1 token of its
    colour; the cost cannot go below 0, and no tokens are gained."""
    state = start()
    own(state, 0, "1-06", "1-07", "1-09", "1-10")  # 4 blue bonuses; 1-02 costs 3 blue
    hold(state, 0, "BB")
    assert game.payments(state.players[0], "1-02") == [(0, 0, 0, 0, 0, 0, 0)]
    assert refusal(state, buy("1-02", "B")).code == "purchase.payment"
    do(state, buy("1-02"))
    assert state.players[0].tokens[BLUE] == 2


def test_a_two_bonus_card_counts_twice():
    """Purchase 1 Jewel card (p.7): some Jewel cards have 2 bonuses, a 2-token
    reduction."""
    state = start()
    own(state, 0, "2-08")  # blue x2
    assert state.players[0].bonuses[BLUE] == 2
    hold(state, 0, "B")
    do(state, buy("1-02", "B"))  # 3 blue - 2


def test_there_are_no_pearl_bonuses():
    """Purchase 1 Jewel card (p.7): there are no Pearl bonuses; a Pearl in a cost is
    always paid (with a Pearl or a Gold)."""
    assert all(card.color != PEARL for card in CARDS.values())
    state = start()
    own(state, 0, "1-06", "1-07", "1-11", "1-12")  # 2 blue, 2 green bonuses
    hold(state, 0, "")
    v = refusal(state, buy("1-03"))  # B2 G2 P1: the Pearl remains
    assert v.code == "purchase.unaffordable" and "costs Player 1 P after bonuses" in v.message
    hold(state, 0, "P")
    do(state, buy("1-03", "P"))


def test_gold_stands_in_for_any_gem_or_pearl():
    """Purchase 1 Jewel card (p.7): Gold tokens are wild and replace any Gem or Pearl."""
    state = start()
    hold(state, 0, "BGYYY")
    payments = game.payments(state.players[0], "1-03")  # B2 G2 P1
    assert payments == [(0, 1, 1, 0, 0, 0, 3)]  # 1 blue, 1 green and 3 Gold
    assert refusal(state, buy("1-03", "BGYY")).code == "purchase.payment"
    do(state, buy("1-03", "BGYYY"))
    assert state.players[0].tokens == [0] * 7


def test_paid_tokens_go_to_the_bag():
    """Purchase 1 Jewel card (p.7): place spent tokens in the bag."""
    state = start()
    hold(state, 0, "RRKKY")
    bag_before = state.bag[:]
    do(state, buy("1-04", "RRKK"))
    assert state.bag[RED] == bag_before[RED] + 2
    assert state.players[0].tokens[GOLD] == 1


def test_purchase_a_pyramid_card_or_one_of_your_reserved_cards():
    """Purchase 1 Jewel card (p.6): a card from the pyramid or from your reserve."""
    state = start()
    reserved_for(state, 0, "1-12")  # R3
    reserved_for(state, 1, "1-22")  # K3, player 1's
    hold(state, 0, "RRRKKK")
    v = refusal(state, buy("1-22", "KKK"))
    assert v.code == "purchase.not_available" and "Player 2 reserved it" in v.message
    assert refusal(state, buy("1-20", "")).code == "purchase.not_available"
    do(state, buy("1-12", "RRR"))
    assert state.players[0].reserved == [] and state.players[0].bonuses[2] == 1
    assert state.current == 1  # nothing to refill: the card came from the reserve


# --- the pyramid refill (publisher ruling) ------------------------------------------------


def test_pyramid_slot_is_refilled_from_its_deck_at_the_end_of_the_turn():
    """Publisher ruling (BGA): the space left by a purchased or reserved card is refilled
    at the end of the turn, not at once."""
    state = start()
    hold(state, 0, "RRKK")
    do(state, buy("1-04", "RRKK"))  # white, token ability
    assert state.awaiting == BONUS_TOKEN
    assert state.pyramid[0][3] is None  # still empty while the turn goes on
    do(state, bonus_token_event("c3"))
    assert state.awaiting == REVEAL and state.current == 0
    assert refusal(state, reveal("2-10")).code == "reveal.level"
    assert refusal(state, reveal("1-05")).code == "reveal.seen"
    assert refusal(state, take("a1")).code == "turn.reveal_due"
    do(state, reveal("1-20"))
    assert state.pyramid[0][3] == "1-20" and state.decks[0] == 24
    assert (state.current, state.awaiting) == (1, ACTION)


def test_an_empty_deck_leaves_the_pyramid_slot_empty():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): if the corresponding deck is
    empty, the card is not replaced."""
    state = start()
    empty_deck(state, 1)
    do(state, reserve("e5", card="1-02"))
    assert state.pyramid[0][1] is None
    assert (state.current, state.awaiting) == (1, ACTION)


# --- forced replenish and the empty-bag ruling ----------------------------------------------


def test_forced_replenish_when_no_mandatory_action_is_possible():
    """Mandatory Action, special case (p.5): if you cannot perform any mandatory action,
    you must replenish the board first; your opponent takes a Privilege as usual."""
    state = start()
    reserved_for(state, 0, "1-10", "2-10", "3-10")
    put(state, "e5=Y")  # only Gold on the board, and 3 reserved cards: no reserve
    assert game.legal_moves(state) == [BoardReplenished(None)]
    assert refusal(state, reserve("e5", deck=1)).code == "reserve.limit"
    assert refusal(state, buy("1-10", "")).code == "purchase.unaffordable"
    do(state, replenish(state))
    assert state.players[1].privileges == 2
    assert state.awaiting == ACTION and state.current == 0
    assert any(isinstance(m, TokensTaken) for m in game.legal_moves(state))


def test_no_mandatory_action_and_an_empty_bag_ends_the_turn_without_one():
    """The rulebook is silent when no mandatory action is possible and the bag is empty
    (p.5, special case); tablelog's ruling (docs/rules.md): the turn ends without one,
    then the discard and the victory check happen as usual."""
    state = start()
    reserved_for(state, 0, "1-10", "2-10", "3-10")
    put(state, "a1=R b1=R e3=Y e4=Y e5=Y")
    hold(state, 0, "WWWWPPGGGG")
    hold(state, 1, "BBBBRRKKKK")  # 5 + 10 + 10 = 25 tokens
    state.players[0].privileges, state.table_privileges = 2, 0
    assert state.bag == [0] * 7
    assert not any(isinstance(m, CardPurchased) for m in game.legal_moves(state))
    do(state, privilege("a1"))
    assert state.awaiting == ACTION  # a red token remains on the board
    do(state, privilege("b1"))
    # Only Gold on the board, an empty bag, 3 reserved cards, nothing affordable:
    # the turn ends; player 0 holds 12 tokens and must discard 2 first.
    assert (state.current, state.awaiting) == (0, DISCARD)
    assert not game.mandatory_action_possible(state)
    do(state, discard("RR"))
    assert (state.current, state.awaiting, state.turn) == (1, ACTION, 2)


# --- card abilities (p.8) ---------------------------------------------------------------------


def test_again_gives_another_turn_after_this_one():
    """Card abilities (p.8): take another turn immediately after this one ends."""
    state = start()
    hold(state, 0, "BBGGP")
    do(state, buy("1-03", "BBGGP"))  # white, again
    do(state, reveal("1-20"))  # the end of this turn still refills the pyramid
    assert (state.current, state.turn, state.awaiting) == (0, 2, ACTION)
    do(state, take("c3"))
    assert state.current == 1


def test_again_victory_is_still_checked_at_the_end_of_this_turn():
    """Card abilities (p.8) and End of player turn (p.9): the extra turn comes after
    this one ends, and the victory check ends this turn."""
    state = start()
    own(state, 0, "3-10", "3-02", "3-04", "3-06", "1-05")  # 17 points, 1 red bonus
    show(state, "3-11")  # joker: wild + again, 3 points, costs R8
    hold(state, 0, "RRRRYYY")
    do(state, buy("3-11", "RRRRYYY"), copy_color("red"))
    assert state.awaiting == OVER
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.outcome.condition == "points"


def test_wild_card_needs_a_card_with_a_bonus():
    """Card abilities (p.8): if you do not have a card with a bonus, you cannot purchase
    a joker card."""
    state = start()
    show(state, "1-26")  # joker, K4 P1
    hold(state, 0, "KKKKP")
    v = refusal(state, buy("1-26", "KKKKP"))
    assert v.code == "purchase.joker_without_bonus" and v.rule.page == 8
    own(state, 0, "1-28")  # 3 points, no bonus: still no bonus card
    assert refusal(state, buy("1-26", "KKKKP")).code == "purchase.joker_without_bonus"
    own(state, 0, "1-11")  # green
    assert game.check(state, buy("1-26", "KKKKP")) == []


def test_wild_takes_the_colour_of_one_of_your_bonus_cards():
    """Card abilities (p.8): the joker overlaps a card with a bonus and counts as that
    colour, for bonuses and for the one-colour victory (p.9)."""
    state = start()
    own(state, 0, "1-21", "3-10", "2-19")  # red: 0 + 4 + 2 points
    own(state, 0, "1-11")  # green
    show(state, "2-21")  # joker, 2 points, G6 P1
    hold(state, 0, "GGGGYP")
    do(state, buy("2-21", "GGGGYP"))
    assert state.awaiting == COLOR
    assert sorted(m.color for m in game.legal_moves(state)) == [2, RED]  # type: ignore[union-attr]
    assert refusal(state, copy_color("blue")).code == "ability.color"
    assert refusal(state, copy_color("pearl")).code == "ability.color"
    do(state, copy_color("red"))
    p = state.players[0]
    assert p.bonuses[RED] == 4 and p.color_points[RED] == 8
    assert ("2-21", RED) in p.cards
    assert state.outcome is None  # 8 points on red cards: not yet


def test_token_ability_takes_a_token_of_the_cards_colour_if_there_is_one():
    """Card abilities (p.8): take 1 token matching the colour of this card from the
    board; if there are no such tokens left, ignore this effect."""
    state = start()
    put(state, "a1=W c3=W c4=B e5=Y")
    hold(state, 0, "RRKK")
    do(state, buy("1-04", "RRKK"))  # white, token
    assert state.awaiting == BONUS_TOKEN
    assert sorted(game.legal_moves(state), key=str) == sorted(
        [bonus_token_event("a1"), bonus_token_event("c3")], key=str
    )
    v = refusal(state, bonus_token_event("c4"))
    assert v.code == "ability.token" and "c4 holds a blue token" in v.message
    do(state, bonus_token_event("a1"))
    assert state.players[0].tokens[WHITE] == 1

    skipped = start()
    put(skipped, "c4=B e5=Y")
    hold(skipped, 0, "RRKK")
    do(skipped, buy("1-04", "RRKK"))
    assert skipped.awaiting == REVEAL  # no white token: the ability is ignored


def test_privilege_ability_takes_a_privilege():
    """Card abilities (p.8): take 1 Privilege (from your opponent if none is available)."""
    state = start()
    show(state, "2-07")  # blue, privilege: W2 B4 P1
    hold(state, 0, "WWBBBBP")
    do(state, buy("2-07", "WWBBBBP"))
    assert state.players[0].privileges == 1 and state.table_privileges == 1


def test_steal_ability_takes_a_non_gold_token_from_the_opponent_if_they_have_one():
    """Card abilities (p.8): take 1 Gem or Pearl token from your opponent, never Gold;
    if they have none, ignore this effect."""
    state = start()
    show(state, "2-02")  # white, steal: B4 R3
    hold(state, 0, "BBBBRRR")
    hold(state, 1, "PYY")
    do(state, buy("2-02", "BBBBRRR"))
    assert state.awaiting == STEAL
    assert game.legal_moves(state) == [steal("pearl")]
    assert refusal(state, steal("gold")).code == "ability.steal_gold"
    assert refusal(state, steal("red")).code == "ability.steal_missing"
    do(state, steal("pearl"))
    assert state.players[0].tokens[PEARL] == 1 and state.players[1].tokens[PEARL] == 0

    only_gold = start()
    show(only_gold, "2-02")
    hold(only_gold, 0, "BBBBRRR")
    hold(only_gold, 1, "YY")
    do(only_gold, buy("2-02", "BBBBRRR"))
    assert only_gold.awaiting == REVEAL  # nothing to steal: ignored


def test_card_3_11_has_both_wild_and_again():
    """Card abilities (p.8): card 3-11 is a joker that also gives another turn."""
    assert CARDS["3-11"].abilities == ("wild", "again")
    state = start()
    own(state, 0, "1-21")  # red
    show(state, "3-11")
    hold(state, 0, "RRRRYYY")
    do(state, buy("3-11", "RRRRYYY"))
    assert state.awaiting == COLOR
    do(state, copy_color("red"), reveal("3-13"))
    assert (state.current, state.awaiting) == (0, ACTION)
    assert state.players[0].bonuses[RED] == 2


# --- crowns and Royal cards (p.8) ------------------------------------------------------------


def test_third_and_sixth_crowns_each_take_one_royal_card_once():
    """Crowns (p.8): on acquiring your 3rd crown, and again your 6th, take 1 available
    Royal card and resolve its ability."""
    state = start()
    own(state, 0, "2-05")  # blue, 2 points, 1 crown
    hold(state, 0, "BBRRRRKKKPY")
    v = refusal(state, royal("R-4"))
    assert v.code == "royal.not_due" and v.rule.page == 8
    do(state, buy("3-01", "BBRRRRKKKPY"))  # 2 crowns: 1 -> 3
    assert state.awaiting == ROYAL
    assert game.legal_moves(state) == [royal(r) for r in ("R-1", "R-2", "R-3", "R-4")]
    assert refusal(state, take("a1")).code == "turn.royal_due"
    do(state, royal("R-4"), reveal("3-13"))
    assert state.players[0].royals == ["R-4"] and state.players[0].points == 2 + 3 + 3
    assert state.royals == ["R-1", "R-2", "R-3"]
    # Back to player 0 (set by hand): 3 -> 5 crowns crosses no threshold; 5 -> 7 crosses
    # the 6th and brings the second Royal card.
    state.current = 0
    own(state, 0, "1-02", "1-07")  # 1 crown each
    show(state, "2-22")  # joker, 2 crowns, G6 P1
    hold(state, 0, "GGGGYYP")
    do(state, buy("2-22", "GGGGYYP"), copy_color("blue"))
    assert state.awaiting == ROYAL and state.players[0].crowns == 7
    assert refusal(state, royal("R-4")).code == "royal.not_available"
    do(state, royal("R-2"))
    assert state.players[0].royals == ["R-4", "R-2"]


def test_royal_card_abilities_steal_again_and_privilege():
    """Crowns (p.8): resolve the Royal card's ability (steal, again, privilege)."""
    after = {}
    for royal_id in ("R-1", "R-2", "R-3"):
        state = start()
        own(state, 0, "2-05")
        hold(state, 0, "BBRRRRKKKPY")
        hold(state, 1, "W")
        do(state, buy("3-01", "BBRRRRKKKPY"), royal(royal_id))
        after[royal_id] = state
    assert after["R-1"].awaiting == STEAL
    do(after["R-1"], steal("white"))
    assert after["R-1"].players[0].tokens[WHITE] == 1
    do(after["R-2"], reveal("3-13"))
    assert (after["R-2"].current, after["R-2"].awaiting) == (0, ACTION)  # another turn
    assert after["R-3"].players[0].privileges == 1
    assert after["R-3"].players[0].points == 2 + 3 + 2


# --- end of turn (p.9) -------------------------------------------------------------------------


def test_discard_down_to_ten_tokens_at_the_end_of_the_turn():
    """End of player turn (p.9): with more than 10 tokens, discard down to exactly 10,
    chosen, back to the bag."""
    state = start()
    put(state, "a1=K b1=K c1=P e1=W")
    hold(state, 0, "WWBBGGRRY")
    do(state, take("a1 b1 c1"))  # 12 tokens (1 Gold)
    assert state.awaiting == DISCARD and state.current == 0
    assert refusal(state, discard("W")).code == "discard.count"
    assert refusal(state, discard("WWB")).code == "discard.count"
    assert refusal(state, discard("PP")).code == "discard.not_held"
    assert refusal(state, take("e1")).code == "turn.discard_due"
    bag_gold = state.bag[GOLD]
    do(state, discard("WY"))
    assert sum(state.players[0].tokens) == 10 and state.bag[GOLD] == bag_gold + 1
    assert state.current == 1


def test_victory_with_twenty_prestige_points():
    """Victory conditions (p.9): 20 or more Prestige points, Royal cards included."""
    state = start()
    own(state, 0, "3-02", "3-04", "3-06")  # 12 points, one of each of white, blue, green
    state.players[0].royals, state.royals = ["R-4"], ["R-1", "R-2", "R-3"]
    state.players[0].points += 3
    show(state, "2-24")  # 5 points, no bonus, B6 P1
    hold(state, 0, "BBBBYP")
    do(state, buy("2-24", "BBBBYP"))
    assert state.players[0].points == 20
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.condition) == (0, "points")


def test_victory_with_ten_crowns():
    """Victory conditions (p.9): 10 or more Crowns."""
    state = start()
    own(state, 0, "3-12", color="black")  # 3 crowns
    own(state, 0, "3-03", "3-05", "1-07")  # 2 + 2 + 1: 8 crowns, 2 blue bonuses
    hold(state, 0, "BRRRRKKPY")
    do(state, buy("3-01", "BRRRRKKPY"))  # 2 crowns: 8 -> 10
    assert state.players[0].crowns == 10 and state.players[0].points < 20
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.condition) == (0, "crowns")


def test_victory_with_ten_points_on_cards_of_one_colour():
    """Victory conditions (p.9): 10 or more Prestige points on cards of the same colour;
    a joker counts in the colour it copies; Royal and no-bonus cards count for none."""
    state = start()
    own(state, 0, "3-10", "2-19", "1-21")  # red: 4 + 2 + 0 points, 3 red bonuses
    own(state, 0, "3-13")  # 6 points, no bonus
    state.players[0].royals, state.royals = ["R-4"], ["R-1", "R-2", "R-3"]
    state.players[0].points += 3
    show(state, "3-11")  # joker, 3 points, wild + again, R8
    hold(state, 0, "RRRRY")
    do(state, buy("3-11", "RRRRY"), copy_color("red"))
    p = state.players[0]
    assert (p.color_points[RED], p.points) == (9, 18)
    do(state, reveal("3-01"))
    assert state.outcome is None and state.current == 0  # the extra turn of 3-11
    show(state, "1-25")  # red, 1 point, W2 B3
    hold(state, 0, "WWBBB")
    do(state, buy("1-25", "WWBBB"))
    assert (p.color_points[RED], p.points) == (10, 19)
    assert state.outcome is not None
    assert (state.outcome.condition, state.outcome.color) == ("color", RED)


def test_the_game_ends_at_once_when_a_victory_condition_is_met():
    """Victory conditions (p.9): the game ends immediately; no pyramid refill, no
    further turn."""
    state = start()
    own(state, 0, "3-02", "3-04", "3-06", "3-08", "2-05")  # 18 points, 1 crown
    hold(state, 0, "BRRRRKKPY")
    do(state, buy("3-01", "BRRRRKKPY"))  # 3 points, 2 crowns
    do(state, royal("R-3"))
    assert state.outcome is not None and state.outcome.condition == "points"
    assert state.pyramid[2][0] is None  # not refilled
    assert state.awaiting == OVER and state.players[0].points == 23


def test_a_finished_game_accepts_no_further_move():
    """Victory conditions (p.9): the game has ended; nothing more can be played."""
    state = start()
    do(state, event({"type": "player_resigned", "player": 1}))
    assert state.outcome is not None and state.outcome.winner == 0
    assert game.legal_moves(state) == []
    for move in (take("c3"), privilege("c3"), reserve("e5", deck=1), buy("1-01", "")):
        v = refusal(state, move)
        assert v.code == "game.over"
        assert v.message == "the game is over: Player 1 won: Player 2 resigned"
    assert refusal(state, event({"type": "player_resigned", "player": 0})).code == "game.over"


@pytest.mark.parametrize("who", [0, 1])
def test_either_player_may_resign_at_any_time(who):
    """Resignation ends the game: the other player wins (not a rulebook rule; the
    record needs it)."""
    state = start()
    hold(state, 0, "RRKK")
    do(state, buy("1-04", "RRKK"))  # in the middle of player 0's turn
    assert state.awaiting == BONUS_TOKEN
    do(state, event({"type": "player_resigned", "player": who}))
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.condition) == (1 - who, "resignation")
    assert codes(state, take("c3")) == ["game.over"]


def test_resolutions_follow_ability_royal_discard_victory_refill():
    """Card abilities (p.8), Crowns (p.8), End of player turn (p.9) and the publisher's
    refill ruling: the card's ability, then the Royal card (and its ability), then the
    discard, then the victory check, then the pyramid refill."""
    state = start()
    own(state, 0, "1-02")  # white, 1 crown
    show(state, "2-22")  # joker, 2 crowns, G6 P1
    hold(state, 0, "GGGGYYPWWWWBBBBKK")
    hold(state, 1, "R")
    seen = []
    for move in (
        buy("2-22", "GGGGYYP"),
        copy_color("white"),
        royal("R-1"),
        steal("red"),
        discard("K"),
        reveal("2-24"),
    ):
        seen.append(state.awaiting)
        do(state, move)
    assert seen == [ACTION, COLOR, ROYAL, STEAL, DISCARD, REVEAL]
    assert (state.current, state.awaiting) == (1, ACTION)


# --- the rulebook's worked examples ------------------------------------------------------------


def test_julies_purchase_page_7():
    """Purchase 1 Jewel card, example (p.7): with 3 red, 2 blue and 1 green bonuses,
    Julie pays 1 blue, 2 red, 3 black and 1 Pearl for the white card that costs 3 blue,
    5 red, 3 black and 1 Pearl; the spent tokens go to the bag."""
    state = start()
    own(state, 0, "1-21", "1-24", "1-25", "1-06", "1-09", "1-11")
    p = state.players[0]
    assert p.bonuses == [0, 2, 1, 3, 0]
    assert CARDS["3-01"].cost == (0, 3, 0, 5, 3, 1)
    hold(state, 0, "BRRKKKP")
    assert game.payments(p, "3-01") == [(0, 1, 0, 2, 3, 1, 0)]
    bag = state.bag[:]
    do(state, buy("3-01", "BRRKKKP"))
    assert p.tokens == [0] * 7
    assert state.bag == [bag[0], bag[1] + 1, bag[2], bag[3] + 2, bag[4] + 3, bag[5] + 1, bag[6]]
    assert ("3-01", WHITE) in p.cards


def test_julies_third_crown_page_9():
    """Crowns, example (p.9): buying the crowned white card takes Julie to 3 crowns; she
    takes the Royal card that grants 1 Privilege and 2 Prestige points."""
    state = start()
    own(state, 0, "1-21", "1-22", "1-25", "1-06", "1-09", "1-11")  # 1-22: 1 crown
    p = state.players[0]
    assert p.crowns == 1
    hold(state, 0, "BRRKKKP")
    do(state, buy("3-01", "BRRKKKP"))
    assert p.crowns == 3 and state.awaiting == ROYAL
    points, privileges = p.points, p.privileges
    do(state, royal("R-3"))
    assert p.points == points + 2 and p.privileges == privileges + 1
    assert p.royals == ["R-3"] and "R-3" not in state.royals
