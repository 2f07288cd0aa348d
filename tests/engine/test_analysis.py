"""The evaluator and the search (engine/analysis.py), through each game's Playouts.

Positions are written as each game's position string (found in seeded random games and
checked here for what makes them a test: one decision wins at once, or most decisions let
the opponent win at once).  Budgets are small: these tests check what the search
chooses, not how fast it is (bench/ai.py measures that).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import analysis
from engine.games import get_game

DUEL = get_game("splendor-duel")
CLASSIC = get_game("splendor")

#: Classic Splendor, the second player to move, 11 points to 13 (a seeded random game's
#: step 96): only buy 1-16 reaches 15 points, and the round ends with it; the policy
#: prefers another purchase.
CLASSIC_WIN = (
    "splendor 2 action 58 1 2 4.3.2.4.2.4 10.16.15 "
    "1-01,1-34,1-38,1-16/2-23,2-18,2-21,2-09/3-01,3-07,3-19,3-02 - N-02 0.1.0.0.2.0;1-36,1-"
    "13,1-30,1-31,1-04,1-10,2-01,2-10,1-39,1-02,2-15,1-18,2-22,2-14,2-16,1-14,1-09;-;N-04 0"
    ".0.2.0.0.1;1-29,1-12,1-21,1-20,2-17,2-08,1-06,1-33,1-05,1-26,1-35,2-03,2-28,1-28,1-03,"
    "1-32,1-37;1-40,1-15,L3?;N-03"
)
#: Classic Splendor, the first player to move, 13 points to 11 (a seeded random game's
#: step 80): every decision but reserving 3-04 lets the second player win at once, the
#: last of the round; the policy prefers a purchase.
CLASSIC_THREAT = (
    "splendor 2 action 51 2 2 4.3.3.3.2.5 14.18.16 "
    "1-01,1-35,1-04,1-27/2-13,2-11,2-17,2-16/3-20,3-04,3-18,3-11 - N-06 "
    "0.0.0.0.2.0;1-15,1-03,2-27,1-26,1-07,1-36,1-24,2-22,1-32,1-39,1-22,1-37,2-30,2-03;-;- "
    "0.1.1.1.0.0;1-25,1-06,1-16,1-17,1-09,1-21,1-40,1-38,2-20,2-02,1-28,1-19,1-13,1-29,2-04"
    ",2-08;-;N-04,N-01"
)
#: Splendor Duel, player 1 to move with 15 points: buying 3-11 or 3-03 wins (or a
#: replenish first, which leaves that purchase open); 14 other decisions do not.
DUEL_WIN = (
    "....P/....W/.P.R./...../..... W2R2Y2 -,-,1-18,1-26,-/2-13,2-15,2-17,2-19/3-04,3-11,3-03 "
    "0/11/8 W1B1G1K1Y1/1-09,1-02,1-17,1-23,1-14,1-29=R,1-05,1-15,1-24,1-01,2-14,1-10,1-19,"
    "1-04,2-16,2-20,1-28,3-10,2-18/1-27,1-08,3-13/0/-/0 B3G3R1K3/1-13,1-12,1-07,1-20,1-03,"
    "1-22,1-16,1-21,1-30=R,1-25,1-06,2-12,1-11,2-01/2-07,2-11,2-09/0/R-4/1 3 R-1,R-2,R-3 2 1 "
    "77 action - - - - -"
)
#: Splendor Duel, player 1 to move (a seeded random game's step 140, a blind reserve of
#: theirs not identified): unless they reserve 3-06 (with either Gold), player 2 wins on
#: their next turn; the policy prefers another decision.
DUEL_THREAT = (
    "...../.YBY./.RR../...../..... W3B3K4P2Y1 "
    "1-30,-,-,1-29,1-08/2-07,2-24,2-09,2-23/3-05,3-01,3-06 0/11/4 W1G2/1-11,1-02,1-19,1-17,"
    "1-07,1-26=K,1-15,1-20,1-03,1-10,1-09,1-23,1-16,1-22,3-08,3-12=B,3-04,2-05/2-13,L2?/1/R"
    "-2,R-4/2 G2R2/1-21,1-05,1-12,1-04,1-18,1-13,1-27=R,1-14,2-08,1-01,1-24,1-25,3-10,1-06,"
    "3-02,2-19,2-10,1-28,2-02/3-09,2-21,2-18/1/-/0 1 R-1,R-3 2 1 83 action - - - - -"
)


def _finish_turn(rules: Any, world: Any, seat: int) -> None:
    """The rest of ``seat``'s turn (a noble, tokens returned, a Royal) by the policy."""
    game = rules.playouts
    while game.shares(world) is None and game.mover(world) == seat:
        game.advance(world, game.choose(world))


def wins_at_once(rules: Any, state: Any, decision: Any, worlds: int = 4) -> bool:
    """Whether ``decision`` ends the game with its mover the winner in every world."""
    seat = rules.playouts.mover(rules.playouts.deal(state, random.Random(0)))
    for seed in range(worlds):
        world = rules.playouts.deal(state, random.Random(seed))
        if decision not in rules.playouts.decisions(world):
            return False
        rules.playouts.advance(world, decision)
        _finish_turn(rules, world, seat)
        shares = rules.playouts.shares(world)
        if shares is None or shares[seat] != 1.0:
            return False
    return True


def lets_opponent_win(rules: Any, state: Any, decision: Any) -> bool:
    """Whether, after ``decision`` and the rest of its mover's turn (one world), the next
    player has a decision that wins at once."""
    game = rules.playouts
    world = game.deal(state, random.Random(0))
    seat = game.mover(world)
    if decision not in game.decisions(world):
        return True  # a purchase of what a blind reserve is not, in this world: unknown
    game.advance(world, decision)
    _finish_turn(rules, world, seat)
    if game.shares(world) is not None:
        return False
    after = world.state
    return any(wins_at_once(rules, after, d, worlds=1) for d in game.decisions(world))


def policy_favourites(rules: Any, state: Any) -> set[Any]:
    """The decisions the default policy scores highest (what it plays but when exploring)."""
    moves = analysis.root_decisions(rules, state)
    scores = rules.playouts.scores(rules.playouts.deal(state, random.Random(0)), moves)
    return {m for m, s in zip(moves, scores, strict=True) if s == max(scores)}


def best_text(rules: Any, state: Any, playouts: int, seed: int = 1) -> tuple[str, float]:
    found = analysis.search(rules, state, random.Random(seed), playouts)
    line = found.best[0]
    return rules.move_text(state, line.decision), line.chance


def test_duel_search_finds_the_one_move_win() -> None:
    state = DUEL.parse_position(DUEL_WIN)
    moves = analysis.root_decisions(DUEL, state)
    winning = {DUEL.move_text(state, m) for m in moves if wins_at_once(DUEL, state, m)}
    assert {"buy 3-11 (Y1)", "buy 3-03 (G1 Y1)"} <= winning
    assert len(moves) - len(winning) > 10
    text, chance = best_text(DUEL, state, 120)
    assert text in winning
    assert chance == 1.0


def test_duel_search_avoids_the_one_move_loss() -> None:
    state = DUEL.parse_position(DUEL_THREAT)
    moves = analysis.root_decisions(DUEL, state)
    safe = {DUEL.move_text(state, m) for m in moves if not lets_opponent_win(DUEL, state, m)}
    assert safe == {"res 3-06 @b2", "res 3-06 @d2"} and len(moves) > 30
    assert not {DUEL.move_text(state, m) for m in policy_favourites(DUEL, state)} & safe
    text, _ = best_text(DUEL, state, 300)
    assert text in safe


def test_classic_search_finds_the_one_move_win() -> None:
    state = CLASSIC.parse_position(CLASSIC_WIN)
    moves = analysis.root_decisions(CLASSIC, state)
    winning = [m for m in moves if wins_at_once(CLASSIC, state, m)]
    assert [CLASSIC.move_text(state, m) for m in winning] == ["buy 1-16 =-"]
    assert len(moves) > 15
    assert policy_favourites(CLASSIC, state) & set(winning) == set()
    text, chance = best_text(CLASSIC, state, 120)
    assert text == "buy 1-16 =-"
    assert chance == 1.0


def test_classic_search_avoids_the_one_move_loss() -> None:
    state = CLASSIC.parse_position(CLASSIC_THREAT)
    moves = analysis.root_decisions(CLASSIC, state)
    safe = {CLASSIC.move_text(state, m) for m in moves if not lets_opponent_win(CLASSIC, state, m)}
    assert safe == {"res 3-04 +Y"} and len(moves) > 20
    assert not {CLASSIC.move_text(state, m) for m in policy_favourites(CLASSIC, state)} & safe
    text, _ = best_text(CLASSIC, state, 300)
    assert text in safe


@pytest.mark.parametrize("rules", [DUEL, CLASSIC], ids=lambda r: r.kind)
def test_the_evaluator_and_the_search_are_deterministic_for_a_seed(rules: Any) -> None:
    events = rules.random_game(random.Random(11))
    state = rules.replay(events[:12])
    if not analysis.root_decisions(rules, state):
        state = rules.replay(events[:13])
    one = analysis.estimate(rules, state, random.Random(3), 30)
    two = analysis.estimate(rules, state, random.Random(3), 30)
    assert one == two and one.playouts == 30
    assert sum(one.chances) == pytest.approx(1.0)
    a = analysis.search(rules, state, random.Random(4), 40)
    b = analysis.search(rules, state, random.Random(4), 40)
    assert a == b and a.playouts == 40
    assert sum(line.playouts for line in a.best) == 40


@pytest.mark.parametrize("rules", [DUEL, CLASSIC], ids=lambda r: r.kind)
def test_the_policy_plays_its_best_scored_decision_but_when_exploring(rules: Any) -> None:
    """``choose`` lists only what it may pick (a purchase outscores the rest of an
    action's decisions): its picks are legal, and all but the explored ones are among the
    best scored of every decision, with each of those tied picked in turn."""
    game = rules.playouts
    events = rules.random_game(random.Random(31))
    positions = 0
    for step in range(6, len(events) - 1, 5):
        state = rules.replay(events[:step])
        if len(analysis.root_decisions(rules, state)) < 2:
            continue
        positions += 1
        world = game.deal(state, random.Random(0))
        moves = game.decisions(world)
        found = game.scores(world, moves)
        best = {m for m, f in zip(moves, found, strict=True) if f == max(found)}
        picks = [game.choose(game.deal(state, random.Random(seed))) for seed in range(120)]
        assert set(picks) <= set(moves)
        assert sum(p in best for p in picks) >= 0.75 * len(picks)
        assert best <= set(picks) or len(best) > 6
    assert positions >= 10


@pytest.mark.parametrize("rules", [DUEL, CLASSIC], ids=lambda r: r.kind)
def test_a_settled_search_names_the_whole_budgets_best_decision(rules: Any) -> None:
    """``settle`` stops once the most tried decision cannot be overtaken: from the same
    seed it names the decision the whole budget names, in fewer playouts somewhere."""
    events = rules.random_game(random.Random(21))
    saved = 0
    positions = 0
    for step in range(8, len(events) - 1, 9):
        state = rules.replay(events[:step])
        if len(analysis.root_decisions(rules, state)) < 2:
            continue
        positions += 1
        whole = analysis.search(rules, state, random.Random(step), 60)
        settled = analysis.search(rules, state, random.Random(step), 60, settle=True)
        assert settled.best[0].decision == whole.best[0].decision
        assert settled.playouts <= whole.playouts == 60
        saved += whole.playouts - settled.playouts
    assert positions >= 5 and saved > 0


@pytest.mark.parametrize("rules", [DUEL, CLASSIC], ids=lambda r: r.kind)
def test_a_finished_game_is_certain_and_the_setup_even(rules: Any) -> None:
    events = rules.random_game(random.Random(5))
    end = rules.replay(events)
    result = rules.status(end).result
    assert result is not None and result.winner is not None
    known = analysis.estimate(rules, end, random.Random(0), 50)
    assert known.playouts == 0
    assert known.chances[result.winner] == 1.0
    assert analysis.estimate(rules, rules.new_state(), random.Random(0), 50).chances == (0.5, 0.5)
    assert analysis.search(rules, end, random.Random(0), 10).best == ()


def _with_hidden_reserve(rules: Any) -> tuple[Any, list[str], int]:
    """A position of a seeded random game holding a blind reserve not yet identified,
    and the card the game's record later shows it to be."""
    for seed in range(200):
        events = rules.random_game(random.Random(seed))
        fold = rules.fold(events[:1])
        for k, event in enumerate(events[1:], start=1):
            fold.push(event)
            state = fold.head
            hidden = [
                (seat, lv)
                for seat, p in enumerate(state.players)
                for lv, cid in p.reserved
                if cid is None
            ]
            if hidden and state.awaiting == "action":
                seat, level = hidden[0]
                later = [
                    e.card for e in events[k:] if e.type == "card_identified" and e.player == seat
                ]
                return state.copy(), later, level
    raise AssertionError("no seeded game holds a blind reserve")


@pytest.mark.parametrize("rules", [DUEL, CLASSIC], ids=lambda r: r.kind)
def test_a_world_deals_exactly_the_unseen_cards(rules: Any) -> None:
    state, later, level = _with_hidden_reserve(rules)
    before = rules.position(state)
    identities = set()
    for seed in range(30):
        world = rules.playouts.deal(state, random.Random(seed))
        dealt = world.state
        for lv in range(3):
            deck = world.decks[lv]
            # the deck holds as many cards as the position's, each unseen there, once
            assert len(deck) == state.decks[lv] == len(set(deck))
            shown = {
                cid
                for p, q in zip(state.players, dealt.players, strict=True)
                for (was, _), (_, cid) in zip(p.reserved, q.reserved, strict=True)
                if was == lv + 1 and cid is not None and cid not in {c for _, c in p.reserved}
            }
            # the blind reserves and the deck are exactly the unseen cards
            assert set(deck) | shown == state.unseen[lv]
            assert not set(deck) & shown
        identities.add(
            next(
                cid
                for p, q in zip(state.players, dealt.players, strict=True)
                for (lv, was), (_, cid) in zip(p.reserved, q.reserved, strict=True)
                if was is None and lv == level
            )
        )
    assert rules.position(state) == before  # the position itself is left as it was
    # the guess is drawn, not read from the record: many cards, not the one shown later
    assert len(identities) > 5
    if later:
        assert identities != {later[0]}
