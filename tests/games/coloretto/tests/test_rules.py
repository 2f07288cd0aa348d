"""Coloretto's rules one by one: each refusal with its code and the rule it cites, the
round's end and who starts the next, the two-player rows, the last-round card, the
scoring (jokers assigned as best for the player, the minus colours) and ties."""

from __future__ import annotations

import random
from typing import Any

import pytest
from coloretto import GAME
from coloretto.cards import JOKER, KIND_BY_WORD, LAST, PLUS
from coloretto.events import CardDrawn, CardPlaced, CardRevealed, GameSetUp, RowTaken
from coloretto.rules import outcome
from coloretto.scoring import best
from coloretto.state import OVER, REVEAL, TURN

from engine.errors import IllegalMoveError, Violation
from engine.fold import Fold

B, N, G, R, OR, P, Y = range(7)
ALL = tuple(range(7))
NAMES3 = ["Ann", "Bob", "Cid"]


def table(
    names: list[str], start: tuple[tuple[int, ...], ...], removed: tuple[int, ...] = ()
) -> Fold:
    fold = GAME.fold([GameSetUp(0, removed, start)], names)
    return fold


def three() -> Fold:
    return table(NAMES3, ((B,), (N,), (G,)), (P,))


def place(fold: Fold, card: int, row: int) -> None:
    """The player to move draws ``card`` and lays it next to ``row`` (from 1)."""
    fold.extend([CardDrawn(), CardRevealed(card), CardPlaced(row - 1)])


def only(violations: list[Violation], code: str, section: str, page: int) -> None:
    assert [v.code for v in violations] == [code]
    assert section in violations[0].rule.section and violations[0].rule.page == page


def test_a_full_row_is_refused_with_its_rule() -> None:
    fold = three()
    for card in (Y, Y, Y):
        place(fold, card, 1)  # Ann, Bob, Cid each lay a yellow next to row 1
    fold.extend([CardDrawn(), CardRevealed(OR)])
    state = fold.head
    only(GAME.check(state, CardPlaced(0)), "place.full", "A. Draw and place a card", 2)
    assert [m.row for m in GAME.legal_moves(state)] == [1, 2]
    assert GAME.legal_move_texts(state) == ["row 2", "row 3"]


def test_every_row_full_the_player_must_take_one() -> None:
    fold = three()
    for row in (1, 1, 1, 2, 2, 2, 3, 3, 3):
        place(fold, OR, row)
    state = fold.head
    assert state.awaiting == TURN
    only(GAME.check(state, CardDrawn()), "draw.rows_full", "a row must be taken", 2)
    assert GAME.legal_move_texts(state) == ["take 1", "take 2", "take 3"]
    assert "must take a row" in GAME.status(state).due


def test_an_empty_row_cannot_be_taken_and_a_row_not_there_neither() -> None:
    state = three().head
    only(GAME.check(state, RowTaken(1)), "take.empty", "B. Take a card row", 2)
    only(GAME.check(state, RowTaken(3)), "row.unknown", "Game play", 2)
    assert GAME.legal_move_texts(state) == ["draw"]  # a round starts with every row empty


def test_a_player_who_took_a_row_sits_the_round_out() -> None:
    fold = three()
    place(fold, Y, 1)  # Ann
    fold.push(RowTaken(0))  # Bob takes row 1 and is out
    state = fold.head
    assert state.out == [False, True, False] and state.current == 2
    place(fold, OR, 2)  # Cid
    assert fold.head.current == 0  # Ann, then Cid: Bob is skipped
    place(fold, OR, 2)  # Ann
    assert fold.head.current == 2
    only(GAME.check(fold.head, RowTaken(0)), "row.taken", "out of the round", 2)
    with pytest.raises(IllegalMoveError):
        GAME.play(fold.head.copy(), CardPlaced(0))  # (a place is not due: a turn is)


def test_the_round_ends_when_everyone_has_a_row_and_the_last_taker_starts() -> None:
    fold = three()
    place(fold, Y, 1)  # Ann
    place(fold, OR, 2)  # Bob
    place(fold, G, 3)  # Cid
    fold.push(RowTaken(1))  # Ann takes orange
    fold.push(RowTaken(0))  # Bob takes yellow
    assert fold.head.current == 2 and fold.head.round == 1
    fold.push(RowTaken(2))  # Cid takes the last row
    state = fold.head
    assert state.round == 2 and state.current == 2 and state.awaiting == TURN
    assert state.open == [True, True, True] and state.rows == [[], [], []]
    assert state.out == [False, False, False]
    assert state.hands[0][OR] == 1 and state.hands[1][Y] == 1 and state.hands[2][G] == 2
    assert "round 2 begins: Cid starts" in GAME.changes(
        GAME.replay(fold.events[:-1], NAMES3), state
    )


def test_two_players_have_green_rows_of_1_2_and_3_and_the_third_leaves_the_game() -> None:
    fold = table(["Ann", "Bob"], ((B, G), (N, Y)), (OR, P))
    state = fold.head
    assert state.capacity == (1, 2, 3)
    place(fold, R, 1)  # Ann: row 1 (holds one) is full
    fold.extend([CardDrawn(), CardRevealed(R)])
    only(GAME.check(fold.head, CardPlaced(0)), "place.full", "For two players", 4)
    fold.push(CardPlaced(2))  # Bob: row 3
    place(fold, JOKER, 3)  # Ann
    fold.push(RowTaken(0))  # Bob takes row 1 (the grey)
    place(fold, B, 2)  # Ann
    fold.push(RowTaken(1))  # Ann takes row 2: both have a row
    state = fold.head
    assert state.round == 2 and state.current == 0  # Ann took the last row
    assert state.discarded[R] == 1 and state.discarded[JOKER] == 1  # row 3 left the game
    assert state.rows == [[], [], []] and GAME.consistent(state)


def test_two_players_start_with_two_cards_of_four_colours() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    bad = GAME.check(state, GameSetUp(0, (OR, P), ((B,), (N,))))
    assert {v.code for v in bad} == {"setup.start"}
    assert all(v.rule.page == 4 for v in bad)
    same = GAME.check(state, GameSetUp(0, (OR, P), ((B, G), (G, Y))))
    assert [v.code for v in same] == ["setup.start"]
    removed = GAME.check(state, GameSetUp(0, (OR,), ((B, G), (N, Y))))
    assert [v.code for v in removed] == ["setup.removed"]
    three_players = GAME.new_state(NAMES3)
    only(
        GAME.check(three_players, GameSetUp(0, (P,), ((B,), (P,), (G,)))),
        "setup.start",
        "Preparation",
        1,
    )


def _before_last(players: int) -> tuple[Fold, list[Any]]:
    """A seeded game's fold up to the draw that shows the last-round card, and the
    events after it."""
    events = GAME.random_game(random.Random(players), [f"P{i}" for i in range(players)])
    k = next(i for i, e in enumerate(events) if e == CardRevealed(LAST))
    return GAME.fold(events[:k], [f"P{i}" for i in range(players)]), events[k:]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_last_round_card_lies_under_its_15_and_ends_the_game_with_the_round(
    players: int,
) -> None:
    fold, rest = _before_last(players)
    state = fold.head
    assert state.awaiting == REVEAL and state.supply == 16 and not state.last_drawn
    left = next(k for k in state.colours if state.unseen[k])
    only(GAME.check(state, CardRevealed(left)), "reveal.last_next", "Preparation", 1)
    fold.push(CardRevealed(LAST))
    state = fold.head
    assert state.last_drawn and state.awaiting == REVEAL and state.supply == 15  # draws again
    assert "again" in GAME.status(state).due
    only(GAME.check(state, CardRevealed(LAST)), "reveal.last_twice", "Special cards", 3)
    round_ = state.round
    fold.extend(rest[1:])
    end = fold.head
    assert end.awaiting == OVER and end.round == round_ and end.outcome is not None


def test_the_last_round_card_cannot_come_early_nor_a_card_that_is_not_left() -> None:
    fold = three()
    fold.push(CardDrawn())
    state = fold.head
    only(GAME.check(state, CardRevealed(LAST)), "reveal.last_early", "Preparation", 1)
    only(GAME.check(state, CardRevealed(P)), "reveal.removed", "Preparation", 1)
    fold.extend([CardRevealed(JOKER), CardPlaced(0)])
    place(fold, JOKER, 1)
    place(fold, JOKER, 2)  # the three jokers are on the table
    fold.push(CardDrawn())
    assert fold.head.unseen[JOKER] == 0
    only(GAME.check(fold.head, CardRevealed(JOKER)), "reveal.none_left", "Contents", 1)


def test_a_decision_out_of_turn_names_what_is_due() -> None:
    fold = three()
    state = fold.head
    only(GAME.check(state, CardPlaced(0)), "turn.out_of_order.turn", "Game play", 2)
    fold.push(CardDrawn())
    v = GAME.check(fold.head, RowTaken(0))
    assert v[0].code == "turn.out_of_order.reveal" and "what Ann drew" in v[0].message
    assert "draws the top-most card" in v[0].rule.section
    fold.push(CardRevealed(Y))
    v = GAME.check(fold.head, CardRevealed(Y))
    assert v[0].code == "turn.out_of_order.place" and "next to a row card" in v[0].rule.section


# --- scoring ------------------------------------------------------------------------


def hand(**counts: int) -> list[int]:
    out = [0] * 9
    for word, n in counts.items():
        out[KIND_BY_WORD[word]] = n
    return out


def test_the_rulebook_example_the_joker_goes_where_it_scores_most() -> None:
    # 1 joker, 1 "+2", 6 green, 4 yellow, 3 red (pink here), 2 blue: green scores its
    # most already, so the joker makes the yellows five: 21 + 15 + 6 - 3 + 2
    s = best(hand(joker=1, plus=1, green=6, yellow=4, pink=3, blue=2), ALL)
    assert s.total == 41 and s.jokers == (Y,) and set(s.plus) == {G, Y, P}


def test_colours_beyond_three_score_minus_and_more_than_six_count_as_six() -> None:
    assert best(hand(blue=1, brown=1, green=1, grey=1, orange=2), ALL).total == 3 + 1 + 1 - 1 - 1
    assert best(hand(blue=9), ALL).total == 21
    assert best(hand(plus=3), ALL).total == 6
    # three jokers, no colour: each joker may make a colour of its own, or join one
    assert best(hand(joker=3), ALL).total == 6
    # a joker spares a minus colour nothing: it goes to a plus colour
    s = best(hand(blue=3, green=3, yellow=3, pink=1, joker=1), ALL)
    assert s.total == 10 + 6 + 6 - 1 and s.jokers[0] in (B, G, Y)


def test_the_best_assignment_is_found_over_every_one() -> None:
    rng = random.Random(5)
    from itertools import combinations, product

    from coloretto.cards import value

    for _ in range(200):
        h = [rng.randrange(0, 6) for _ in range(7)] + [rng.randrange(0, 4), rng.randrange(0, 3)]
        brute = -10_000
        for assign in product(range(7), repeat=h[JOKER]):
            counts = h[:7]
            for c in assign:
                counts[c] += 1
            for plus in combinations(range(7), 3):
                total = 2 * h[PLUS] + sum(
                    value(counts[c]) if c in plus else -value(counts[c]) for c in range(7)
                )
                brute = max(brute, total)
        assert best(h, ALL).total == brute


def test_a_tie_shares_the_win() -> None:
    fold, rest = _before_last(3)
    fold.extend(rest)
    state = fold.head.copy()
    state.hands = [hand(blue=3), hand(green=3), hand(grey=2)]
    o = outcome(state)
    assert o.winners == (0, 1) and o.condition == "shared"
    state.outcome = o
    result = GAME.status(state).result
    assert result is not None and result.winner is None and "shared the win" in result.text
    assert GAME.result_short(0, "shared", NAMES3) == "Ann shared the win"
    state.hands[2] = hand(grey=4)
    assert outcome(state).winners == (2,) and outcome(state).condition == "points"


def test_a_card_laid_on_a_full_row_may_stand_as_played_illegally() -> None:
    fold = three()
    for card in (Y, Y, Y):
        place(fold, card, 1)
    fold.extend([CardDrawn(), CardRevealed(OR)])
    violations = fold.push(CardPlaced(0), forced=True)
    assert [v.code for v in violations] == ["place.full"]
    state = fold.head
    assert len(state.rows[0]) == 4 and state.room(0) == 0 and GAME.consistent(state)
    # a card the supply does not hold is a logging error, never forced
    fold.push(CardDrawn())
    state = fold.head.copy()
    state.unseen[JOKER] = 0
    with pytest.raises(IllegalMoveError):
        GAME.force(state, CardRevealed(JOKER))
