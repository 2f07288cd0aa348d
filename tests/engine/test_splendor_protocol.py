"""Classic Splendor through the game interface: every GameRules method the layers above
use, the payloads (a retraction included), observations, look-ups, and the docstring
examples of the package."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from engine.corrections import Retraction, effective_steps
from engine.errors import EventFormatError
from engine.games import get_game
from engine.protocol import GameRules
from engine.splendor.events import CardRevealed, TokensTaken

RULES = get_game("splendor")
NAMES = ["Ann", "Bob", "Cid"]

MODULES = [
    "engine.splendor",
    "engine.splendor.catalogue",
    "engine.splendor.describe",
    "engine.splendor.events",
    "engine.splendor.game",
    "engine.splendor.lookup",
    "engine.splendor.notation",
    "engine.splendor.position",
    "engine.splendor.rules.facts",
    "engine.splendor.view",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def _played(seed: int = 2) -> tuple[list, list]:
    events = RULES.random_game(random.Random(seed), NAMES)
    state = RULES.new_state(NAMES)
    states = [state.copy()]
    for e in events:
        RULES.play(state, e)
        states.append(state.copy())
    return events, states


def test_it_is_a_game_interface():
    wanted = [n for n in dir(GameRules) if not n.startswith("_")]
    assert [n for n in wanted if not hasattr(RULES, n)] == []
    assert RULES.title == "Splendor" and RULES.seats.minimum == 2 and RULES.seats.maximum == 4
    assert set(RULES.conditions) == {"points", "fewest_cards", "shared"}


def test_status_result_and_descriptions_over_a_game():
    events, states = _played()
    final = RULES.status(states[-1])
    assert final.phase == "finished" and final.result is not None
    assert final.result.text.startswith(NAMES[final.result.winners[0]])
    assert RULES.result_short(final.result.winners[0], final.result.condition, NAMES)
    assert RULES.status(states[0]).phase == "setup"
    for before, event, after in list(zip(states, events, states[1:], strict=False))[:60]:
        assert RULES.event_lines(before, event, after)
        RULES.changes(before, after)
        view = RULES.view(after, before)
        assert [p["seat"] for p in view["players"]] == [0, 1, 2]
        assert RULES.state_json(after)["players"][0]["name"] == "Ann"
        assert "bank" in RULES.text_view(after)
        assert RULES.is_observation(event) == isinstance(event, CardRevealed) or (
            event.type == "card_identified"
        )


def test_payloads_round_trip_and_bad_fields_are_named():
    events, _ = _played(3)
    for e in events:
        assert RULES.event_from_dict(RULES.event_to_dict(e)) == e
    assert RULES.event_from_dict({"type": "retraction", "back_to": 3}) == Retraction(3)
    assert RULES.event_to_dict(Retraction(3)) == {"type": "retraction", "back_to": 3}
    for bad, field in [
        ({"type": "tokens_taken", "colors": ["pink"]}, "colors[0]"),
        ({"type": "card_purchased", "card": "9-99", "payment": {}}, "card"),
        ({"type": "card_reserved", "gold": "yes", "card": "1-01"}, "gold"),
        ({"type": "noble_visited"}, "noble"),
        ({"type": "nope"}, "type"),
    ]:
        with pytest.raises(EventFormatError) as err:
            RULES.event_from_dict(bad)
        assert err.value.field == field
    assert RULES.upcast({"type": "turn_passed"}, 1) == {"type": "turn_passed"}


def test_a_retraction_folds_back_to_a_standing_step():
    events, _ = _played(4)
    steps = effective_steps([*events[:6], Retraction(4)])
    assert steps == [1, 2, 3, 4]


def test_notation_calls_through_the_interface():
    events, states = _played(5)
    text = RULES.write_game({"players": NAMES}, events)
    parsed = RULES.read_game(text)
    assert parsed.errors == [] and parsed.events == events
    state = states[1]
    texts = RULES.legal_move_texts(state)
    assert "take WBG" in texts
    verdict = RULES.check_move(state, "take WBG")
    assert verdict.legal and verdict.text == "take WBG" and verdict.changes
    assert not RULES.check_move(state, "take YY").legal
    assert RULES.check_move(state, "take !!").error is not None
    assert RULES.parse_move(state, "take GBW") == TokensTaken((0, 1, 2))
    assert RULES.move_text(state, TokensTaken((0, 1, 2))) == "take WBG"
    line = RULES.position(states[30])
    assert RULES.position(RULES.parse_position(line)) == line
    report = RULES.validate_payloads([RULES.event_to_dict(e) for e in events], [], NAMES)
    assert report[1] is None


def test_find_cards_by_what_is_printed():
    assert [c.id for c in RULES.find_cards("level 1 black 1 points")] == [
        c.id
        for c in RULES.cards().values()
        if c.words.startswith("1-") and "black 1 point " in c.words
    ]
    assert RULES.find_cards("N-03")[0].id == "N-03"
    _, states = _played(6)
    unseen = RULES.find_cards("level 3", states[20])
    assert unseen and all(c.id in states[20].unseen[2] for c in unseen)


def test_acting_seat():
    events, states = _played(7)
    assert RULES.acting_seat(states[0], events[0]) is None
    assert RULES.acting_seat(states[1], events[1]) == states[1].current


@pytest.mark.parametrize("kind", ["splendor", "splendor-duel"])
def test_progress_is_the_status_phase_and_turn_at_every_step(kind):
    rules = get_game(kind)
    names = NAMES if kind == "splendor" else NAMES[:2]
    events = rules.random_game(random.Random(11), names)
    state = rules.new_state(names)
    seen = []
    for event in [*events, None]:
        status = rules.status(state)
        assert rules.progress(state) == (status.phase, status.turn)
        seen.append(status.phase)
        if event is not None:
            rules.play(state, event)
    assert seen[0] == "setup" and seen[1] == "playing" and seen[-1] == "finished"
    assert set(seen) == {"setup", "playing", "finished"}


def test_the_replay_tells_each_step_in_words_not_in_notation():
    """Every step of a game is told as a sentence naming who did what, with each card's
    colour and points, never as its notation (as the Splendor Duel replay tells it)."""
    events, states = _played()
    seen: set[str] = set()
    for before, event, after in zip(states, events, states[1:], strict=False):
        (first, *_rest) = RULES.event_lines(before, event, after)
        if event.type == "game_set_up":
            continue
        seen.add(event.type)
        assert RULES.move_text(before, event) not in first, first
        assert first.endswith("."), first
        who = NAMES[event.player] if event.type == "card_identified" else NAMES[before.current]
        if event.type != "card_revealed":
            assert who in first, first
        card = getattr(event, "card", None)
        if card:
            assert f"{card} (" in first and " point" in first, first
        if event.type == "tokens_taken":
            assert first.startswith(f"{who} took "), first
        if event.type == "card_reserved":
            assert first.endswith(" and took a Gold.") == event.gold, first
        if event.type == "card_purchased":
            assert f"{who} bought {card} (" in first and ", paying " in first, first
    assert {"tokens_taken", "card_reserved", "card_purchased", "card_revealed"} <= seen
