"""legal_moves and check agree, both ways.

* Everything legal_moves returns passes check (and can be played).
* Every decision check accepts is in legal_moves: on many positions from seeded games
  (and a few built by hand), every candidate decision is enumerated exhaustively (all
  spaces, all 1-3 space tuples, every Gold space x every card or deck, every card x every
  payment the player's tokens allow, every discard, colour and Royal card) and checked.

Observations are not decisions: a replenish's drawn tokens and a blind reserve's card
are compared through the templates legal_moves returns (BoardReplenished(None),
CardReserved(gold, None, deck)); revealed and identified cards and resignations are not
enumerated by legal_moves at all.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from duel_positions import buy, do, hold, put, reserve, reserved_for, start

from engine.splendor_duel import GAME, game, simulate
from engine.splendor_duel.catalogue import CARDS, GOLD, ROYAL_IDS, SEGMENTS
from engine.splendor_duel.events import (
    BoardReplenished,
    BonusTokenTaken,
    CardPurchased,
    CardReserved,
    ColorCopied,
    Event,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
)
from engine.splendor_duel.state import ACTION, State

ALL_TAKES = [
    TokensTaken(spaces) for k in (1, 2, 3) for spaces in itertools.combinations(range(25), k)
]
CARD_IDS = sorted(CARDS)


def candidate_decisions(state: State) -> Iterator[Event]:
    """Every decision worth asking check about in ``state``, legal or not."""
    for space in range(25):
        yield PrivilegeSpent(space)
        yield BonusTokenTaken(space)
    yield BoardReplenished(None)
    yield BoardReplenished(tuple(c for c, n in enumerate(state.bag) for _ in range(n)))
    yield from ALL_TAKES
    for gold in range(25):
        for cid in CARD_IDS:
            yield CardReserved(gold, cid, None)
            yield CardReserved(gold, cid, CARDS[cid].level)  # blind, logged with its card
        for deck in (1, 2, 3):
            yield CardReserved(gold, None, deck)
    tokens = state.player.tokens
    for cid in CARD_IDS:
        cost = CARDS[cid].cost
        ranges = [range(min(tokens[c], cost[c]) + 1) for c in range(6)]
        ranges.append(range(tokens[GOLD] + 1))
        for payment in itertools.product(*ranges):
            yield CardPurchased(cid, payment)  # type: ignore[arg-type]
    for color in range(7):
        yield ColorCopied(color)
        yield TokenStolen(color)
    for rid in ROYAL_IDS:
        yield RoyalTaken(rid)
    if sum(tokens) > 10:
        for discard in itertools.product(*(range(n + 1) for n in tokens)):
            yield TokensDiscarded(discard)  # type: ignore[arg-type]


def as_decision(event: Event) -> Event:
    """The template legal_moves uses for an event that carries an observation."""
    if isinstance(event, BoardReplenished):
        return BoardReplenished(None)
    if isinstance(event, CardReserved) and event.deck is not None:
        return CardReserved(event.gold, None, event.deck)
    return event


def seeded_positions(games: int, every: int) -> list[State]:
    positions = []
    for seed in range(games):
        events = simulate.random_game(random.Random(1000 + seed))
        for i, state in enumerate(GAME.states(events)):
            if i % every == seed % every and state.awaiting != "setup":
                positions.append(state)
    return positions


def built_positions() -> list[State]:
    """Positions random games rarely reach."""
    forced = start()
    reserved_for(forced, 0, "1-10", "2-10", "3-10")
    put(forced, "e5=Y")

    hidden = start()
    do(hidden, reserve("e5", deck=1))  # player 0: an unknown level-1 card
    do(hidden, reserve("e4", deck=1))  # player 1 too
    hold(hidden, 0, "WWBBGGRRKKY")  # 11 tokens: can pay for several candidates

    joker = start()
    from duel_positions import own, show

    own(joker, 0, "1-21", "1-11")
    show(joker, "1-26")
    hold(joker, 0, "KKKKPY")
    do(joker, buy("1-26", "KKKKP"))  # awaiting the colour the joker copies

    crowded = start()
    hold(crowded, 0, "WWBBGGRKY")
    do(crowded, reserve("e3", card="3-01"))  # 11 tokens after the Gold: a discard is due
    return [forced, hidden, joker, crowded]


POSITIONS = seeded_positions(games=12, every=5) + built_positions()


def test_the_positions_cover_every_kind_of_decision():
    awaiting = {state.awaiting for state in POSITIONS}
    assert {"action", "discard", "color", "reveal"} <= awaiting
    assert any(state.awaiting == ACTION and state.bag != [0] * 7 for state in POSITIONS)
    assert any(cid is None for state in POSITIONS for p in state.players for _, cid in p.reserved)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_legal_moves_all_pass_check_and_can_be_played(index):
    state = POSITIONS[index]
    moves = game.legal_moves(state)
    assert len(set(moves)) == len(moves), "a move is listed twice"
    for move in moves:
        assert game.check(state, move) == [], move
        if isinstance(move, BoardReplenished):
            continue  # a template: the drawn tokens are an observation
        after = state.copy()
        GAME.play(after, move)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_every_decision_check_accepts_is_a_legal_move(index):
    state = POSITIONS[index]
    legal = set(game.legal_moves(state))
    accepted = {
        as_decision(event) for event in candidate_decisions(state) if not game.check(state, event)
    }
    assert accepted == legal


def test_forced_replenish_is_the_only_legal_move():
    """Special case (p.5): with no mandatory action possible, replenishing is the only
    move, and the opponent takes a Privilege as usual."""
    state = built_positions()[0]
    assert game.legal_moves(state) == [BoardReplenished(None)]


def test_each_distinct_payment_is_a_separate_move():
    state = start()
    hold(state, 0, "BBGGPYY")  # 1-03 costs B2 G2 P1
    buys = [m for m in game.legal_moves(state) if isinstance(m, CardPurchased)]
    payments = sorted(m.payment for m in buys if m.card == "1-03")
    assert payments == sorted(game.payments(state.players[0], "1-03"))
    assert len(payments) == len(set(payments)) == 9  # Gold: 0 (1 way), 1 (3), 2 (5)


def test_purchases_come_last():
    """The random games find the purchases as the run at the end of the moves
    (simulate._purchases): no purchase stands before another kind of move."""
    with_purchases = 0
    for state in POSITIONS:
        kinds = [isinstance(m, CardPurchased) for m in game.legal_moves(state)]
        assert kinds == sorted(kinds)
        with_purchases += any(kinds) and not all(kinds)
    assert with_purchases > 5


def test_takes_on_a_full_board_are_the_145_lines_in_order():
    """With no Gold on the board, every straight line of 1-3 spaces is a take, listed in
    the catalogue's order (by length, then by spaces)."""
    state = start()
    state.board = [0, 1, 2, 3, 4] * 5  # not a real board (5 of a colour): the takes only
    takes = [m.spaces for m in game.legal_moves(state) if isinstance(m, TokensTaken)]
    assert takes == list(SEGMENTS)
