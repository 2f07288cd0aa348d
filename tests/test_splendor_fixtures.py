"""The classic Splendor fixtures: six sample games (two each for 2, 3 and 4 players) that
are legal, complete and canonical, import and export byte-identical through the store,
and together show the rules in play; and the illegal logs, each refused with its expected
violation (code, line, rulebook section) or accepted with its expected facts."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from engine.protocol import ParsedGame
from engine.splendor import GAME
from engine.splendor.events import CardReserved
from engine.splendor.notation import parse_game, write_game
from engine.splendor.state import State
from recorder import EventStore
from recorder.io import export_notation, load_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "fixtures" / "splendor" / "games"
ILLEGAL = ROOT / "fixtures" / "splendor" / "illegal"
EXPECTED = json.loads((ILLEGAL / "expected.json").read_text(encoding="utf-8"))
SAMPLES = sorted(p.name for p in GAMES.glob("*.tl"))


@cache
def sample(name: str) -> ParsedGame:
    path = GAMES / name
    return parse_game(path.read_text(encoding="utf-8"), str(path))


def test_two_sample_games_for_each_number_of_players():
    counts = sorted(len(sample(n).names) for n in SAMPLES)
    assert counts == [2, 2, 3, 3, 4, 4]


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_game_is_legal_complete_and_canonical(name):
    parsed = sample(name)
    assert parsed.errors == [] and parsed.state.outcome is not None
    assert parsed.headers["date"] and parsed.headers["place"]
    text = (GAMES / name).read_text(encoding="utf-8")
    assert write_game(parsed.headers, parsed.events, parsed.meta) == text
    assert sum(1 for m in parsed.meta if m and m.get("comment")) >= 3


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_game_imports_and_exports_byte_identical(name, tmp_path):
    path = GAMES / name
    with EventStore.open(str(tmp_path / "games.db")) as store:
        [record] = load_file(path)
        game_id = store.import_game(record).game_id
        assert export_notation(store, game_id) == path.read_text(encoding="utf-8")


def test_the_sample_games_together_show_the_rules_in_play():
    found: set[str] = set()
    for name in SAMPLES:
        parsed = sample(name)
        state = State(parsed.names)
        for event in parsed.events:
            if isinstance(event, CardReserved) and event.deck and event.card is None:
                found.add("blind reserve")
            if isinstance(event, CardReserved) and event.deck is None:
                found.add("face-up reserve")
            if event.type == "card_identified":
                found.add("blind reserve shown")
            if event.type == "tokens_returned":
                found.add("tokens returned")
            if event.type == "noble_visited":
                found.add("noble")
            if event.type == "tokens_taken" and len(event.colors) == 2:
                found.add("two of a colour")
            GAME.play(state, event)
        found.add(f"victory:{state.outcome.condition}")
    wanted = {
        "blind reserve",
        "face-up reserve",
        "blind reserve shown",
        "tokens returned",
        "noble",
        "two of a colour",
        "victory:points",
        "victory:fewest_cards",
    }
    assert wanted <= found, wanted - found


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_illegal_log_gets_its_expected_verdict(name):
    expected = EXPECTED[name]
    path = ILLEGAL / name
    parsed = parse_game(path.read_text(encoding="utf-8"), str(path))
    if expected.get("accepted"):
        assert parsed.errors == []
        assert (parsed.state.outcome is not None) == expected["finished"]
        if "condition" in expected:
            assert parsed.state.outcome.condition == expected["condition"]
        if "to_move" in expected:
            assert parsed.names[parsed.state.current] == expected["to_move"]
        return
    [error] = parsed.errors
    assert error.kind == "illegal" and error.line == expected["line"]
    assert [v.code for v in error.violations] == [expected["code"]]
    assert error.violations[0].rule.section == expected["section"]


def test_every_illegal_log_is_listed():
    assert sorted(p.name for p in ILLEGAL.glob("*.tl")) == sorted(EXPECTED)


def test_the_fixtures_are_what_the_build_script_makes():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "build_splendor", ROOT / "fixtures" / "build_splendor.py"
    )
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert build.main(["--check"]) == 0
