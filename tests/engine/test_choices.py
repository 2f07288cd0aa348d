"""``GameRules.choices``: every legal next decision with the things on the table it
involves, for the phone's logging page; checked on every state of seeded random games
of both games against the notation (the same texts, each one reads back as a legal
decision) and against the table (each target is where the page will draw it)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from engine.games import get_game
from engine.protocol import Choice
from engine.splendor_duel.catalogue import COLOR_LETTERS, COLOR_NAMES, EMPTY, GOLD, SPACE_NAMES

DUEL = get_game("splendor-duel")
CLASSIC = get_game("splendor")
NAMES = ("Ann", "Bob")
SPACE = re.compile(r"^[a-e][1-5]$")
CARD = re.compile(r"^\d-\d\d$")


def _states(rules: Any, seed: int, names: tuple[str, ...] = NAMES) -> list[Any]:
    state = rules.new_state(names)
    out = []
    for event in rules.random_game(random.Random(seed), names):
        rules.play(state, event)
        out.append(state.copy())
    return out


def _letter(color: str) -> str:
    return COLOR_LETTERS[COLOR_NAMES.index(color)]


def _duel_places(state: Any) -> dict[str, str]:
    """Every Splendor Duel target the page draws in ``state`` and what it is."""
    places: dict[str, str] = {}
    for s, t in enumerate(state.board):
        if t != EMPTY:
            places[SPACE_NAMES[s]] = "gold" if t == GOLD else "gem"
    for row in state.pyramid:
        for cid in row:
            if cid is not None:
                places[cid] = "pyramid"
    for level in (1, 2, 3):
        if state.decks[level - 1]:
            places[f"deck-{level}"] = "deck"
    for seat, p in enumerate(state.players):
        for level, cid in p.reserved:
            if cid is None:
                places[f"hidden-{seat}-{level}"] = "hidden"
            elif seat == state.current:
                places[cid] = "reserve"
    for r in state.royals:
        places[r] = "royal"
    return places


def _check_duel_choice(state: Any, c: Choice, places: dict[str, str]) -> None:
    verdict = DUEL.check_move(state, c.text)
    assert verdict.legal, (c, verdict.violations, verdict.error)
    # A replenish is listed without its draw (the table observes it); one the bag allows
    # only one way reads back with it.
    assert verdict.text == c.text or (c.text == "repl" and (verdict.text or "").startswith("repl"))
    assert c.label and c.text not in c.label
    payload = verdict.payload or {}
    if c.group == "take":
        assert list(c.targets) == payload["spaces"]
        assert all(places[s] == "gem" for s in c.targets)
    elif c.group == "privilege":
        assert c.targets == ("priv", payload["space"]) and places[payload["space"]] == "gem"
    elif c.group == "token":
        assert c.targets == (payload["space"],) and places[payload["space"]] == "gem"
    elif c.group == "reserve":
        card, gold = c.targets
        assert places[gold] == "gold" and payload["gold"] == gold
        if "deck" in payload:
            assert card == f"deck-{payload['deck']}" and places[card] == "deck"
        else:
            assert card == payload["card"] and places[card] == "pyramid"
    elif c.group == "buy":
        if len(c.targets) == 1:
            assert c.targets == (payload["card"],)
            assert places[payload["card"]] in ("pyramid", "reserve")
        else:
            hidden, card = c.targets
            assert card == payload["card"] and places[hidden] == "hidden"
        assert "paying" in c.label
    elif c.group in ("copy", "steal"):
        assert c.targets == (_letter(payload["color"]),)
    elif c.group == "royal":
        assert c.targets == (payload["royal"],) and places[payload["royal"]] == "royal"
    elif c.group == "discard":
        assert Counter(c.targets) == Counter(
            {_letter(name): n for name, n in payload["tokens"].items()}
        )
    elif c.group == "reveal":
        assert c.targets == (payload["card"],) and CARD.match(c.targets[0])
    elif c.group == "replenish":
        assert c.targets == () and payload["type"] == "board_replenished"
    else:
        pytest.fail(f"unexpected group {c.group!r}")


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_duel_choices_are_the_legal_moves_with_their_targets(seed: int) -> None:
    groups: Counter[str] = Counter()
    for n, state in enumerate(_states(DUEL, seed)):
        found = DUEL.choices(state)
        assert [c.text for c in found] == DUEL.legal_move_texts(state)
        places = _duel_places(state)
        for c in found if n % 3 == 0 else found[:: max(1, len(found) // 12)]:
            _check_duel_choice(state, c, places)
            groups[c.group] += 1
        for c in DUEL.observations(state)[:6]:
            verdict = DUEL.check_move(state, c.text)
            assert verdict.legal and c.group == "identify", (c, verdict.violations)
            assert places[c.targets[0]] == "hidden" and c.targets[1] == verdict.payload["card"]
        # Choices with the same family and targets differ only by a payment.
        same: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        for c in found:
            same.setdefault((c.group, tuple(sorted(c.targets))), []).append(c.text)
        for (group, _), texts in same.items():
            if len(texts) > 1:
                assert group == "buy", texts
                assert len({t.split(" (")[0] for t in texts}) == 1, texts
    assert {"take", "buy", "reveal"} <= set(groups)


def test_duel_choices_cover_every_family_over_many_games() -> None:
    groups: set[str] = set()
    for seed in range(20, 60):
        for state in _states(DUEL, seed):
            groups.update(c.group for c in DUEL.choices(state))
            if state.awaiting in ("discard", "steal", "royal", "color"):
                for c in DUEL.choices(state):
                    _check_duel_choice(state, c, _duel_places(state))
    assert groups >= {
        "take",
        "privilege",
        "replenish",
        "buy",
        "reserve",
        "reveal",
        "token",
        "copy",
        "steal",
        "royal",
        "discard",
    }


def test_duel_labels_say_the_payment_and_the_colours() -> None:
    state = next(
        s
        for s in _states(DUEL, 3)[30:]
        if any(m.startswith("buy") for m in DUEL.legal_move_texts(s))
    )
    labels = {c.text: c.label for c in DUEL.choices(state)}
    buys = [t for t in labels if t.startswith("buy")]
    assert buys and all("paying" in labels[t] for t in buys)
    takes = [t for t in labels if t.startswith("take")]
    assert all(labels[t].startswith("Take ") for t in takes)
    assert Choice("take a1 =R", ("a1",), "take", "Take red (a1)").to_dict() == {
        "text": "take a1 =R",
        "targets": ["a1"],
        "group": "take",
        "label": "Take red (a1)",
    }


@pytest.mark.parametrize("seed", [1, 2])
def test_classic_choices_are_the_legal_moves(seed: int) -> None:
    names = ("Ann", "Bob", "Cid")
    for state in _states(CLASSIC, seed, names):
        found = CLASSIC.choices(state)
        assert [c.text for c in found] == CLASSIC.legal_move_texts(state)
        for c in found[:: max(1, len(found) // 6)]:
            verdict = CLASSIC.check_move(state, c.text)
            assert verdict.legal, (c, verdict.violations)
            assert c.label and c.group
            if c.group == "take":
                assert all(t in "WBGRK" for t in c.targets)
        for c in CLASSIC.observations(state)[:3]:
            assert CLASSIC.check_move(state, c.text).legal
