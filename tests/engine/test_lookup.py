"""Finding cards by what is printed on them (engine.splendor_duel.lookup)."""

from __future__ import annotations

import pytest

from engine.splendor_duel.catalogue import CARDS, COLOR_NAMES
from engine.splendor_duel.lookup import CardQueryError, card_id, find_cards


@pytest.mark.parametrize("cid", sorted(CARDS))
def test_a_cards_own_description_finds_it(cid):
    card = CARDS[cid]
    found = find_cards(card.describe())
    assert cid in [c.id for c in found]
    assert {c.describe() for c in found} == {card.describe()}


def test_each_word_is_a_constraint():
    greens = find_cards("green")
    assert greens and all(c.color == COLOR_NAMES.index("green") and not c.is_joker for c in greens)
    assert [c.id for c in find_cards("green 3 points crown")] == [
        c.id
        for c in sorted(CARDS.values(), key=lambda c: c.id)
        if c.color == 2 and not c.is_joker and c.points == 3 and c.crowns > 0
    ]
    jokers = find_cards("level 2 joker")
    assert jokers and all(c.is_joker and c.level == 2 for c in jokers)
    assert all("steal" in c.abilities for c in find_cards("steal"))
    assert all(c.crowns == 2 for c in find_cards("2 crowns"))
    assert all(c.points == 3 for c in find_cards("points 3"))


def test_spellings_agree():
    assert find_cards("level 2 joker") == find_cards("L2 wild") == find_cards("lvl 2 joker")
    assert find_cards("3 points") == find_cards("3pt") == find_cards("3 pts")


def test_ids_and_short_ids():
    assert [c.id for c in find_cards("2-5")] == ["2-05"]
    assert card_id("3-13") == "3-13" and card_id("3-14") is None and card_id("green") is None


def test_candidates_limit_the_search():
    assert [c.id for c in find_cards("blue", ["1-06", "1-21"])] == ["1-06"]


def test_an_unknown_word_is_named():
    with pytest.raises(CardQueryError, match="'purple' is not something printed on a card"):
        find_cards("purple 3pt")


def test_classic_cards_and_nobles_are_found_by_counts_as_people_say_them():
    """``tablelog cards`` prints a cost or a requirement as ``4 white 4 black``; said back
    that way (a count, then a colour), it finds the card or noble it describes."""
    from engine.splendor.catalogue import CARDS, COLOR_NAMES, NOBLES
    from engine.splendor.lookup import find

    def said(counts: tuple[int, ...]) -> str:
        return " ".join(f"{n} {COLOR_NAMES[c]}" for c, n in enumerate(counts) if n)

    for nid, noble in NOBLES.items():
        assert [c.id for c in find(f"noble {said(noble.requires)}")] == [nid]
    for cid, card in CARDS.items():
        color, points = COLOR_NAMES[card.color], f"{card.points} points"
        found = [c.id for c in find(f"level {card.level} {color} {points} {said(card.cost)}")]
        assert cid in found, (cid, found)
