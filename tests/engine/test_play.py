"""Folding, blind reserves and their identification, and events played though illegal."""

from __future__ import annotations

import random

import pytest
from duel_positions import (
    buy,
    do,
    hold,
    identify,
    own,
    put,
    refusal,
    reserve,
    resign,
    reveal,
    start,
    take,
)

from engine.errors import IllegalMoveError
from engine.games import get_game
from engine.protocol import summary_fields
from engine.splendor_duel import GAME, game, simulate
from engine.splendor_duel.events import CardPurchased, RoyalTaken, TokensTaken
from engine.splendor_duel.state import REVEAL

# --- blind reserves -----------------------------------------------------------------------


def test_a_blind_reserve_may_stay_unknown_then_be_identified():
    """Take 1 Gold token and reserve 1 Jewel card (p.6): the top card of a deck, kept
    secret; the log may name it later (card_identified), at any point of the game."""
    state = start()
    do(state, reserve("e5", deck=1))
    assert state.players[0].reserved == [(1, None)]
    assert state.decks[0] == 24 and len(state.unseen[0]) == 25  # deck + the hidden card
    assert refusal(state, identify(1, "1-20")).code == "identify.no_hidden_card"
    assert refusal(state, identify(0, "2-10")).code == "identify.no_hidden_card"
    assert refusal(state, identify(0, "1-03")).code == "identify.seen"  # in the pyramid
    do(state, identify(0, "1-20"))  # during player 1's turn: an observation, not a move
    assert state.players[0].reserved == [(1, "1-20")]
    assert "1-20" not in state.unseen[0] and len(state.unseen[0]) == 24
    assert (state.current, state.awaiting) == (1, "action")
    assert refusal(state, identify(0, "1-21")).code == "identify.no_hidden_card"


def test_a_blind_reserve_with_its_card_known_at_once():
    state = start()
    do(state, reserve("e5", card="1-20", deck=1))
    assert state.players[0].reserved == [(1, "1-20")]
    assert "1-20" not in state.unseen[0]
    state.current = 0
    assert refusal(state, reserve("e4", card="1-20", deck=1)).code == "reserve.card_seen"


def test_buying_a_blind_reserve_identifies_it():
    """Purchase 1 Jewel card (p.6): a reserved card may be bought; buying the unknown
    card names it."""
    state = start()
    do(state, reserve("e5", deck=1), take("a1"))  # player 0 reserves blind; player 1 takes
    hold(state, 0, "RRKKK")
    offered = {m.card for m in game.legal_moves(state) if isinstance(m, CardPurchased)}
    assert "1-10" in offered and "1-22" in offered  # what the hidden card could be
    assert refusal(state, buy("2-10", "")).code == "purchase.not_available"
    do(state, buy("1-10", "RRKKK"))  # blue, 1 point: R2 K3
    p = state.players[0]
    assert p.reserved == [] and ("1-10", 1) in p.cards
    assert "1-10" not in state.unseen[0]
    assert state.current == 1  # bought from the reserve: no pyramid slot to refill


def test_the_opponents_blind_reserve_is_not_yours_to_buy():
    state = start()
    do(state, take("c3"), reserve("e5", deck=1))  # player 1 reserves blind
    hold(state, 0, "RRKKK")
    assert refusal(state, buy("1-10", "RRKKK")).code == "purchase.not_available"


def test_identification_is_accepted_after_the_end_of_the_game():
    """Players often show their reserved cards once the game is over (tablelog ruling,
    docs/rules.md); no move is accepted any more."""
    state = start()
    do(state, reserve("e5", deck=2), resign(1))
    assert state.outcome is not None
    do(state, identify(0, "2-10"))
    assert state.players[0].reserved == [(2, "2-10")]
    assert refusal(state, take("c3")).code == "game.over"


def test_a_revealed_card_must_be_unseen():
    state = start()
    hold(state, 0, "RRKK")
    put(state, "c3=B e5=Y")
    do(state, buy("1-04", "RRKK"))
    assert state.awaiting == REVEAL
    assert refusal(state, reveal("1-01")).code == "reveal.seen"
    do(state, reveal("1-30"))
    assert state.pyramid[0][3] == "1-30"


# --- play, apply, replay, states ------------------------------------------------------------


def test_apply_returns_a_new_state_and_leaves_the_old_one():
    before = start()
    after = GAME.after(before, take("c3"))
    assert before.board[12] != -1 and after.board[12] == -1
    assert before.current == 0 and after.current == 1


def test_states_yields_independent_copies_of_each_step():
    events = simulate.random_game(random.Random(11))
    steps = list(GAME.states(events))
    assert len(steps) == len(events) + 1
    assert steps[0].awaiting == "setup" and steps[-1].outcome is not None
    steps[1].board[0] = 99
    assert steps[2].board[0] != 99


# --- force: played though illegal -----------------------------------------------------------


def test_force_applies_an_illegal_take_and_returns_its_violations():
    """A take that broke the rules at the table still happened: the record keeps it and
    names the rule broken."""
    state = start()
    violations = GAME.force(state, take("a1 c1"))  # not adjacent
    assert [v.code for v in violations] == ["take.not_a_line"]
    assert state.players[0].tokens[1] == 1 and state.players[0].tokens[3] == 1
    assert state.current == 1


def test_force_of_a_legal_event_is_a_plain_play():
    state = start()
    assert GAME.force(state, take("c3")) == []
    assert state.current == 1


def test_force_takes_a_gold_in_a_take():
    state = start()
    violations = GAME.force(state, take("e3"))
    assert [v.code for v in violations] == ["take.gold"]
    assert state.players[0].tokens[6] == 1


def test_force_refuses_what_cannot_have_happened():
    """Nobody pays tokens they do not hold; an event not due cannot be forced; a game
    that is over stays over."""
    state = start()
    before = game.describe_state(state)
    with pytest.raises(IllegalMoveError) as raised:
        GAME.force(state, buy("3-01", "BBBRRRRRKKKP"))  # holds nothing
    assert raised.value.violations[0].code == "purchase.unaffordable"
    assert game.describe_state(state) == before and state.players[0].tokens == [0] * 7
    with pytest.raises(IllegalMoveError):
        GAME.force(state, RoyalTaken("R-1"))
    do(state, resign(0))
    with pytest.raises(IllegalMoveError):
        GAME.force(state, take("c3"))


def test_force_refuses_a_revealed_card_that_is_elsewhere():
    """A card revealed into the pyramid that is already in play is a logging error, not
    a move played against the rules: forcing it would put one card in two places."""
    state = start()
    hold(state, 0, "RRKK")
    put(state, "c3=B e5=Y")
    do(state, buy("1-04", "RRKK"))
    with pytest.raises(IllegalMoveError):
        GAME.force(state, reveal("1-01"))  # 1-01 is in the pyramid already
    with pytest.raises(IllegalMoveError):
        GAME.force(state, reveal("2-10"))  # a level-2 card in the level-1 row
    assert state.pyramid[0][3] is None


def test_force_an_overpaid_purchase():
    state = start()
    own(state, 0, "1-06")  # 1 blue bonus: 1-02 costs 2 blue
    hold(state, 0, "BBB")
    violations = GAME.force(state, buy("1-02", "BBB"))
    assert [v.code for v in violations] == ["purchase.payment"]
    assert state.players[0].tokens[1] == 0 and ("1-02", 0) in state.players[0].cards


def test_the_protocol_object_forwards_to_the_engine():
    rules = get_game("splendor-duel")
    state = rules.new_state()
    events = simulate.random_game(random.Random(2))
    for event in events:
        payload = rules.event_to_dict(event)
        assert rules.event_from_dict(payload) == event
        assert rules.check(state, event) == []
        rules.play(state, event)
    summary = summary_fields(rules.status(state), state.names)
    assert summary["status"] == "finished" and summary["winner"] == state.outcome.winner
    fresh = rules.new_state()
    rules.play(fresh, events[0])
    assert rules.force(fresh, TokensTaken((0, 2))) != []
