"""Splendor Duel in words: what a step changed (what is due and the victory are worded
in describe.py too, and tested through the notation and the CLI)."""

from __future__ import annotations

from test_notation import HEAD

from engine.splendor_duel import GAME, describe
from engine.splendor_duel.events import CardRevealed
from engine.splendor_duel.notation import parse_game, parse_move


def state_after(body: str):
    parsed = parse_game(HEAD + body, "t.tl")
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    return parsed.state


def test_the_changes_of_a_purchase_and_a_reveal():
    body = (
        "1. Alice: take a3 a4 a5 =RRR\n2. Bob: take b3 b4 b5 =KKK\n"
        "3. Alice: take e2 e3 e4 =GGG\n4. Bob: take a1 b1 =WB\n"
    )
    state = state_after(body)
    after = GAME.after(state, parse_move(state, "buy 1-05"))
    changes = describe.changes(state, after)
    assert "Alice gains 1-05 (L1 white 1pt cost G2 R3)" in changes
    assert "Alice's Prestige points: 0 → 1" in changes
    assert any(c.startswith("pyramid level 1: 1-05 leaves its slot") for c in changes)
    assert changes[-1] == "next: A level-1 card is revealed into the empty pyramid slot"
    revealed = GAME.after(after, CardRevealed("1-06"))
    assert "pyramid level 1: 1-06 revealed" in describe.changes(after, revealed)


def test_the_changes_name_the_seats_from_the_state():
    state = state_after("")
    renamed = state.copy()
    renamed.names = ("Ann", "Bo")
    after = GAME.after(renamed, parse_move(renamed, "take a1 b1 c1"))
    changes = describe.changes(renamed, after)
    assert "Ann's tokens: +1 white, +1 blue, +1 green (now 3)" in changes
    assert changes[-1] == "next: " + describe.due(after)


def test_an_unobserved_replenish_is_described_from_the_bag():
    body = (
        "1. Alice: take a3 a4 a5 =RRR\n2. Bob: take b3 b4 b5 =KKK\n"
        "3. Alice: take e2 e3 e4 =GGG\n4. Bob: take a1 b1 =WB\n5. Alice: buy 1-05 reveal 1-06\n"
    )
    lines = describe.replenish_changes(state_after(body))
    assert lines[0].startswith("the 5 tokens in the bag (G2 R3) go onto the empty spaces")
    assert lines[1] == "Alice takes a Privilege from Bob (none is left on the table)"


# --- the wordings issue 13 corrects ------------------------------------------------------


def test_a_jokers_colour_lists_no_card_as_gained():
    """Choosing a joker's colour changes one card's colour; the cards the player already
    owned are not listed as gained."""
    from duel_positions import buy, copy_color, do, hold, own, show, start

    state = start()
    show(state, "1-26")  # joker, K4 P1
    hold(state, 0, "KKKKP")
    own(state, 0, "1-11", "1-05")
    do(state, buy("1-26", "KKKKP"))
    after = GAME.after(state, copy_color("green"))
    changes = describe.changes(state, after)
    assert not any(" gains " in c for c in changes), changes
    assert "Player 1's 1-26 copies green" in changes


def test_a_reserve_from_the_pyramid_with_its_deck_empty_says_the_slot_stays_empty():
    from duel_positions import empty_deck, reserve, start

    state = empty_deck(start(), 2)
    card = state.pyramid[1][0]
    after = GAME.after(state, reserve("e5", card=card))
    changes = describe.changes(state, after)
    assert f"pyramid level 2: {card} leaves its slot (not refilled: the level-2 deck is empty)" in (
        changes
    )
    assert not any("refilled at the end of the turn" in c for c in changes)
    refilled = GAME.after(start(), reserve("e5", card=start().pyramid[1][0]))
    assert any(
        "(refilled at the end of the turn)" in c for c in describe.changes(start(), refilled)
    )


def test_the_privilege_of_a_replenish_is_worded_from_where_it_comes():
    """p.4, Important: from the table, else from the other player, else nothing."""
    from duel_positions import put, start

    state = put(start(), "a1=W e5=Y")  # Player 1 to play; the bag holds the rest
    assert describe.replenish_changes(state)[1] == "Player 2 takes a Privilege from the table"
    state.table_privileges, state.players[0].privileges, state.players[1].privileges = 0, 2, 1
    assert describe.replenish_changes(state)[1] == (
        "Player 2 takes a Privilege from Player 1 (none is left on the table)"
    )
    state.players[0].privileges, state.players[1].privileges = 0, 3
    assert describe.replenish_changes(state)[1] == (
        "Player 2 already holds all 3 Privileges: nothing happens"
    )
