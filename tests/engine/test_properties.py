"""Property tests over seeded random games played to the end.

Hypothesis picks the seeds and the simulator's biases; the profile is deterministic
(derandomized, no example database) so that CI runs the same games every time.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.splendor_duel import GAME, game, simulate
from engine.splendor_duel.catalogue import CARDS, EMPTY, GOLD, ROYALS, TOKEN_COUNTS
from engine.splendor_duel.events import (
    CardPurchased,
    CardReserved,
    Event,
    PrivilegeSpent,
    TokensTaken,
)
from engine.splendor_duel.state import ACTION, State

DETERMINISTIC = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

games = st.builds(
    lambda seed, bias, known: simulate.random_game(
        random.Random(seed), purchase_bias=bias, blind_known=known
    ),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    bias=st.floats(min_value=0.5, max_value=1.0),
    known=st.floats(min_value=0.0, max_value=1.0),
)


def assert_invariants(state: State) -> None:
    # 25 tokens in all (board, bag, players): 4 of each gem colour, 2 Pearls, 3 Gold.
    assert state.token_totals() == list(TOKEN_COUNTS)
    where = sum(t != EMPTY for t in state.board) + sum(state.bag)
    where += sum(sum(p.tokens) for p in state.players)
    assert where == 25
    assert min(state.bag) >= 0 and all(min(p.tokens) >= 0 for p in state.players)
    # 3 Privileges.
    assert state.table_privileges + sum(p.privileges for p in state.players) == 3
    assert state.table_privileges >= 0 and all(p.privileges >= 0 for p in state.players)
    # 67 cards: pyramid, decks, bought, reserved.
    assert state.card_locations() == len(CARDS)
    assert len(state.royals) + sum(len(p.royals) for p in state.players) == len(ROYALS)
    for p in state.players:
        assert p.points == p.card_points + p.royal_points
        assert p.crowns == sum(CARDS[cid].crowns for cid, _ in p.cards)
        bonuses, color_points = [0] * 5, [0] * 5
        for cid, color in p.cards:
            if color is not None:
                bonuses[color] += CARDS[cid].bonus
                color_points[color] += CARDS[cid].points
        if state.awaiting != "color":  # a joker's colour is chosen just after its purchase
            assert (p.bonuses, p.color_points) == (bonuses, color_points)
        assert len(p.reserved) <= 3


@settings(DETERMINISTIC, max_examples=120)
@given(events=games)
def test_invariants_hold_after_every_event_and_every_game_ends(events):
    state = State()
    for event in events:
        GAME.play(state, event)  # checked: every simulated event is legal
        assert_invariants(state)
    assert state.outcome is not None
    assert state.awaiting == "over" and game.legal_moves(state) == []


@DETERMINISTIC
@given(events=games)
def test_the_fold_gives_the_same_state_as_stepping(events):
    stepped = list(GAME.states(events))
    final = GAME.replay(events)
    assert stepped[-1].outcome == final.outcome
    assert stepped[-1].board == final.board
    assert [p.cards for p in stepped[-1].players] == [p.cards for p in final.players]
    middle = len(events) // 2
    assert GAME.replay(events, upto=middle).board == stepped[middle].board


def mutations(state: State, move: Event) -> list[tuple[Event, str]]:
    """Illegal variants of a legal mandatory action, each with the code it must get."""
    out: list[tuple[Event, str]] = []
    board = state.board
    golds = [s for s, t in enumerate(board) if t == GOLD]
    empties = [s for s, t in enumerate(board) if t == EMPTY]
    if isinstance(move, TokensTaken):
        spaces = move.spaces
        if len(spaces) == 3:  # a gap in the line: leave out the middle token
            out.append((TokensTaken((spaces[0], spaces[2])), "take.not_a_line"))
        if golds:  # a Gold in the take
            out.append((TokensTaken((*spaces[:-1], golds[0])), "take.gold"))
        if empties:  # a wrong space: an empty one
            out.append((TokensTaken((*spaces[:-1], empties[0])), "take.empty_space"))
    elif isinstance(move, CardReserved):
        wrong = next(s for s in range(25) if board[s] != GOLD)
        out.append((CardReserved(wrong, move.card, move.deck), "reserve.not_gold"))
    elif isinstance(move, PrivilegeSpent):
        if golds:
            out.append((PrivilegeSpent(golds[0]), "privilege.gold"))
        if empties:
            out.append((PrivilegeSpent(empties[0]), "privilege.empty_space"))
    return out


def unaffordable_purchases(state: State) -> list[CardPurchased]:
    p = state.player
    out = []
    for cid in (c for row in state.pyramid for c in row if c is not None):
        card = CARDS[cid]
        if card.is_joker and not any(p.bonuses):
            continue
        if not game.payments(p, cid):
            pay = tuple(
                min(p.tokens[c], card.cost[c]) if c < 6 else p.tokens[GOLD] for c in range(7)
            )
            out.append(CardPurchased(cid, pay))  # type: ignore[arg-type]
    return out


@settings(DETERMINISTIC, max_examples=25)
@given(events=games, pick=st.randoms(use_true_random=False))
def test_mutated_legal_moves_are_refused_with_the_right_code(events, pick):
    tried = 0
    for state in GAME.states(events):
        if state.awaiting != ACTION:
            continue
        moves = game.legal_moves(state)
        legal = set(moves)
        for move in pick.sample(moves, min(4, len(moves))):
            for bad, code in mutations(state, move):
                assert bad not in legal
                assert [v.code for v in game.check(state, bad)][:1] == [code], (bad, code)
                tried += 1
        for bad_buy in unaffordable_purchases(state)[:2]:
            assert [v.code for v in game.check(state, bad_buy)] == ["purchase.unaffordable"]
            tried += 1
    assert tried > 0


def test_the_mutations_cover_every_kind():
    """The mutations above, over a few fixed games, produce every intended refusal."""
    seen = set()
    for seed in range(6):
        for state in GAME.states(simulate.random_game(random.Random(seed))):
            if state.awaiting != ACTION:
                continue
            for move in game.legal_moves(state):
                for bad, _ in mutations(state, move):
                    seen.add(game.check(state, bad)[0].code)
            for bad_buy in unaffordable_purchases(state):
                seen.add(game.check(state, bad_buy)[0].code)
    assert seen == {
        "take.not_a_line",
        "take.gold",
        "take.empty_space",
        "reserve.not_gold",
        "privilege.gold",
        "privilege.empty_space",
        "purchase.unaffordable",
    }
