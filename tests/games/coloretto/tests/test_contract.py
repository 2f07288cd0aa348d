"""Coloretto behind the game contract: at every step of random games the choices are the
legal decisions' texts, each of which the rules accept and the notation reads back; the
position string, the payloads, the view, the table as text and the picture hold the
position; cards are found by what is printed on them; playouts deal only the unseen
cards; and the analysis' own tests, written for every game, run on this one."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from coloretto import GAME
from coloretto.cards import LAST, UNDER_LAST, WORDS
from coloretto.events import CardRevealed
from coloretto.state import REVEAL

from engine import analysis
from engine.contract import Game
from engine.errors import EventFormatError
from engine.picture import svg_size

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def _steps(players: int, seed: int) -> tuple[list[Any], list[Any]]:
    names = NAMES[:players]
    events = GAME.random_game(random.Random(seed), names)
    return events, list(GAME.states(events, names))


def test_it_is_a_game() -> None:
    assert isinstance(GAME, Game)
    assert (GAME.kind, GAME.title, GAME.seats.minimum, GAME.seats.maximum) == (
        "coloretto",
        "Coloretto",
        2,
        5,
    )
    assert GAME.observation_types == frozenset({"card_revealed"})
    assert set(GAME.conditions) == {"points", "shared"}
    assert [line.word for line in GAME.setup_lines] == ["removed", "start"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_at_every_step_the_choices_are_the_legal_moves_and_read_back(players: int) -> None:
    for seed in range(12):
        events, states = _steps(players, seed)
        for k, state in enumerate(states[1:-1], start=1):
            moves = GAME.legal_moves(state)
            texts = GAME.legal_move_texts(state)
            choices = GAME.choices(state)
            assert [c.text for c in choices] == texts == [GAME.move_text(state, m) for m in moves]
            assert len(set(texts)) == len(texts) and texts
            for m, text, c in zip(moves, texts, choices, strict=True):
                assert GAME.check(state, m) == []
                assert GAME.parse_move(state, text) == m
                assert c.targets and c.group in {"draw", "reveal", "place", "take"} and c.label
            assert events[k] in moves  # the game played is made of legal moves
            assert GAME.observations(state) == []
            assert GAME.consistent(state)


def test_the_choices_name_the_pieces_a_phone_taps() -> None:
    events, states = _steps(3, 1)
    state = states[1]
    (draw,) = GAME.choices(state)
    assert (draw.text, draw.targets, draw.group) == ("draw", ("deck",), "draw")
    state = GAME.after(state, events[1])
    reveals = GAME.choices(state)
    assert {c.group for c in reveals} == {"reveal"}
    assert all(c.targets[0] == "deck" and c.targets[1] == c.text for c in reveals)
    state = GAME.after(state, events[2])
    places = GAME.choices(state)
    assert [c.targets[0] for c in places] == ["row-1", "row-2", "row-3"]
    assert all(c.group == "place" and c.targets[1] == WORDS[state.drawn] for c in places)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_position_string_holds_every_step(players: int) -> None:
    for seed in range(3):
        _, states = _steps(players, seed)
        for state in states:
            text = GAME.position(state)
            again = GAME.parse_position(text)
            assert GAME.position(again) == text
            if state.awaiting != "setup":
                assert GAME.legal_move_texts(again) == GAME.legal_move_texts(state)
                assert GAME.status(again).phase == GAME.status(state).phase
                if state.outcome is not None:
                    assert again.outcome == state.outcome


def test_a_position_that_does_not_add_up_is_refused() -> None:
    _, states = _steps(3, 2)
    text = GAME.position(states[20])
    fields = text.split()
    fields[6] = str(int(fields[6]) + 1)  # a card more in the supply than the game has
    with pytest.raises(ValueError, match="add up"):
        GAME.parse_position(" ".join(fields))
    with pytest.raises(ValueError, match="starts with"):
        GAME.parse_position("splendor 2 action")


def test_payloads_round_trip_and_bad_fields_are_named() -> None:
    events, _ = _steps(4, 3)
    for e in events:
        payload = GAME.event_to_dict(e)
        assert GAME.event_from_dict(json.loads(json.dumps(payload))) == e
    for bad, field in (
        ({"type": "card_placed", "row": 6}, "row"),
        ({"type": "card_revealed", "card": "red-ish"}, "card"),
        ({"type": "card_drawn", "card": "green"}, "card"),
        ({"type": "game_set_up", "first_player": 0, "start": [["purple"]]}, "start[0][0]"),
    ):
        with pytest.raises(EventFormatError) as err:
            GAME.event_from_dict(bad)
        assert err.value.field == field
    state, problem, flagged = GAME.validate_payloads(
        [GAME.event_to_dict(e) for e in events], None, NAMES[:4]
    )
    assert problem is None and flagged == [] and GAME.status(state).phase == "finished"


def test_a_game_with_a_refused_move_is_reported_at_that_step() -> None:
    events, _ = _steps(3, 3)
    payloads = [GAME.event_to_dict(e) for e in events]
    k = next(i for i, e in enumerate(events) if e.type == "card_placed" and i > 20)
    payloads[k] = {"type": "row_taken", "row": 1}  # a take where a card must be placed
    _, problem, _ = GAME.validate_payloads(payloads, None, NAMES[:3])
    assert problem is not None and problem.event_number == k + 1
    assert problem.violations[0].code == "turn.out_of_order.place"


def test_status_progress_words_and_card_actions_over_a_game() -> None:
    events, states = _steps(5, 4)
    for k, (before, after) in enumerate(zip(states, states[1:], strict=False)):
        event = events[k]
        assert GAME.progress(after) == (GAME.status(after).phase, GAME.status(after).turn)
        assert GAME.event_lines(before, event, after)
        assert GAME.changes(before, after)
        seat = GAME.acting_seat(before, event)
        assert (seat is None) == (event.type in ("game_set_up", "card_revealed"))
        bought = GAME.card_actions(before, event)
        if event.type == "row_taken":
            assert [card for _, card in bought] == [WORDS[c] for c in before.rows[event.row]]
        else:
            assert bought == ()
    result = GAME.status(states[-1]).result
    assert (
        result is not None
        and result.text in GAME.event_lines(states[-2], events[-1], states[-1])[-1]
    )


def test_the_view_and_the_state_are_plain_data() -> None:
    events, states = _steps(4, 5)
    for before, state in zip(states, states[1:], strict=False):
        v = GAME.view(state, before)
        json.dumps(v)
        json.dumps(GAME.state_json(state))
        assert [p["seat"] for p in v["players"]] == [0, 1, 2, 3]
        assert sum(p["to_move"] for p in v["players"]) == (0 if state.outcome else 1)
        assert {"name", "winner", "out", "cards", "score"} <= set(v["players"][0])
        assert len(v["rows"]) == 4 and v["supply"] == state.supply
    assert v["players"][state.outcome.winners[0]]["winner"]


def test_the_compact_table_fits_a_terminal() -> None:
    names = ["Annabelle-Marguerite", "Bartholomew the Third", "Cid", "Dee", "Evangeline Long"]
    events = GAME.random_game(random.Random(6), names)
    for state in GAME.states(events, names):
        lines = GAME.text_view(state, compact=True).split("\n")
        assert len(lines) <= 19 and max(map(len, lines)) <= 80
    assert GAME.status(state).due in GAME.text_view(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_picture_is_svg_of_a_fixed_size(players: int) -> None:
    events, states = _steps(players, 7)
    sizes = set()
    for k in (0, 1, 2, 3, len(states) // 2, len(states) - 1):
        before = states[k - 1] if k else None
        svg = GAME.picture(states[k], before, f"Step {k}")
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg")
        sizes.add(svg_size(svg))
    assert len(sizes) == 1
    hostile = GAME.picture(GAME.new_state(["<script>", "a&b", "x"][:players] + NAMES[3:players]))
    assert "<script>" not in hostile.split("</title>", 1)[1]
    ET.fromstring(hostile)


def test_cards_are_found_by_what_is_printed_on_them() -> None:
    assert set(GAME.cards()) == set(WORDS)
    assert [c.id for c in GAME.find_cards("green")] == ["green"]
    assert [c.id for c in GAME.find_cards("Joker")] == ["joker"]
    assert [c.id for c in GAME.find_cards("+2")] == ["plus"]
    assert [c.id for c in GAME.find_cards("2 points")] == ["plus"]
    assert [c.id for c in GAME.find_cards("last round")] == ["last"]
    assert [c.id for c in GAME.find_cards("red")] == ["pink"]
    assert len(GAME.find_cards("chameleon")) == 8  # the seven colours and the joker
    with pytest.raises(ValueError, match="not something printed"):
        GAME.find_cards("purple")
    assert GAME.card_view("yellow")["letter"] == "y"
    events, states = _steps(3, 8)
    state = states[-1]
    assert [c.id for c in GAME.find_cards("last", state)] == []  # drawn already
    removed = WORDS[state.removed[0]]
    assert GAME.find_cards(removed, state) == []  # not in the game
    with pytest.raises(KeyError):
        GAME.card_view("mauve")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_world_deals_exactly_the_unseen_cards_with_the_last_card_in_its_place(
    players: int,
) -> None:
    events, states = _steps(players, 9)
    for state in (states[1], states[len(states) // 3], states[len(states) * 2 // 3]):
        before = GAME.position(state)
        orders = set()
        for seed in range(20):
            world = GAME.playouts.deal(state, random.Random(seed))
            dealt = world.state
            # the observations due are made from the world's supply
            assert dealt.awaiting != REVEAL
            drawn = state.supply - dealt.supply
            supply = list(world.supply)
            # what the world holds in its supply and drew is exactly what was unseen
            shown = Counter(k for k in (dealt.drawn,) if k is not None and drawn)
            unseen = Counter({k: n for k, n in enumerate(state.unseen) if n})
            held = Counter(k for k in supply if k != LAST) + shown
            assert held == unseen
            if not dealt.last_drawn:
                assert supply.index(LAST) == UNDER_LAST  # 15 cards under it
            orders.add(tuple(supply))
        assert GAME.position(state) == before  # the position itself is left as it was
        assert len(orders) > 10  # drawn from the seed, not read from the record


def test_a_playout_plays_to_the_end_with_shares() -> None:
    _, states = _steps(4, 10)
    world = GAME.playouts.deal(states[30], random.Random(1))
    while GAME.playouts.shares(world) is None:
        moves = GAME.playouts.decisions(world)
        assert len(GAME.playouts.scores(world, moves)) == len(moves)
        chosen = GAME.playouts.choose(world)
        assert chosen in moves
        GAME.playouts.advance(world, chosen)
    shares = GAME.playouts.shares(world)
    assert shares is not None and sum(shares) == pytest.approx(1.0)
    assert GAME.playouts.decision(CardRevealed(2)) == CardRevealed(2)


def _analysis_tests() -> Any:
    """The analysis' tests of tests/engine, which take a game as their argument."""
    path = Path(__file__).resolve().parents[3] / "engine" / "test_analysis.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("_analysis_tests_for_coloretto", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_analysis_tests_written_for_every_game_pass_on_coloretto() -> None:
    shared = _analysis_tests()
    shared.test_the_evaluator_and_the_search_are_deterministic_for_a_seed(GAME)
    shared.test_a_finished_game_is_certain_and_the_setup_even(GAME)


def test_the_analysis_reads_a_recorded_game() -> None:
    events, states = _steps(3, 11)
    state = states[40]
    rules: Any = GAME  # (the analysis takes any game through its contract)
    estimate = analysis.estimate(rules, state, random.Random(2), 20)
    assert estimate.playouts == 20 and sum(estimate.chances) == pytest.approx(1.0)
