"""``tablelog analyse``: through click's runner against a real SQLite database holding
the sample games.  Budgets are capped by ``--playouts`` so that the figures are the same
at every run and the tests quick; what is checked is the answer's shape and that its
figures agree with each other and with the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore
from recorder.io import load_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
CLASSIC = ROOT / "fixtures" / "splendor" / "games"


def run(*args: str, db: Path | None = None):
    extra = ["--db", str(db)] if db is not None else []
    return CliRunner().invoke(cli, [*args, *extra], catch_exceptions=False)


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture()
def stored(db: Path) -> dict[str, str]:
    """points.tl (Splendor Duel, Bob wins) and a classic two-player game, imported."""
    ids = {}
    with EventStore.open(db) as store:
        for path in (GAMES / "points.tl", *sorted(CLASSIC.glob("*.tl"))):
            [record] = load_file(path)
            if path.parent == CLASSIC and len(record.headers.get("players", [])) != 2:
                continue
            ids[path.stem] = store.import_game(record).game_id
    return ids


def analyse_json(*args: str, db: Path) -> dict[str, Any]:
    result = run("analyse", *args, "--json", db=db)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    data.pop("seconds")
    return data


def test_a_whole_game_each_steps_chances_and_its_turning_points(
    db: Path, stored: dict[str, str]
) -> None:
    game_id = stored["points"]
    data = analyse_json(game_id, "--playouts", "4", "--budget", "300", db=db)
    with EventStore.open(db) as store:
        events = store.events(game_id)
        winner = store.game(game_id).winner
    steps = data["steps"]
    assert data["players"] == ["Alice", "Bob"] and winner == 1
    assert [s["step"] for s in steps] == list(range(len(events) + 1))
    for s in steps:
        assert len(s["chances"]) == 2
        assert sum(s["chances"]) == pytest.approx(1.0, abs=1e-3)
        assert s["playouts"] in (0, 4)
    assert [s["move"] for s in steps[1:]] == [e.text for e in events]
    # the finished game is certain: the winner's chance is 1, on no playouts
    assert steps[-1]["chances"] == [0.0, 1.0] and steps[-1]["playouts"] == 0
    assert steps[0]["chances"] == [0.5, 0.5] and steps[0]["playouts"] == 0  # not set up
    assert data["playouts_per_step"] == 4
    points = data["turning_points"]
    assert 1 <= len(points) <= 3
    for p in points:
        k, seat = p["step"], p["seat"]
        assert p["player"] == data["players"][seat] and p["move"] == steps[k]["move"]
        assert p["before"] == steps[k - 1]["chances"][seat]
        assert p["after"] == steps[k]["chances"][seat]
        assert p["loss"] == pytest.approx(p["before"] - p["after"], abs=1e-3) and p["loss"] > 0
        assert p["search_playouts"] == 4
        assert p["better"] is None or p["better"]["move"] != p["move"]
    # no decision lost its player more than the least of the turning points, but they
    movers = _movers(db, game_id)
    least = min(p["loss"] for p in points)
    for k, seat in movers.items():
        drop = steps[k - 1]["chances"][seat] - steps[k]["chances"][seat]
        if drop > least + 1e-3:
            assert any(p["step"] == k for p in points), (k, drop)
    # the same seed and playouts give the same figures
    assert analyse_json(game_id, "--playouts", "4", "--budget", "300", db=db) == data


def _movers(db: Path, game_id: str) -> dict[int, int]:
    """Step -> the seat whose decision it was (observations left out)."""
    from engine.games import get_game

    out = {}
    with EventStore.open(db) as store:
        rules = get_game(store.game(game_id).kind)
        for k, stored_event in enumerate(store.events(game_id), start=1):
            if rules.is_observation(stored_event.event):
                continue
            seat = rules.acting_seat(store.state_at(game_id, k - 1), stored_event.event)
            if seat is not None:
                out[k] = seat
    return out


def test_one_step_names_the_best_decisions_among_the_legal_ones(
    db: Path, stored: dict[str, str]
) -> None:
    game_id = stored["points"]
    data = analyse_json(f"{game_id}:41", "--playouts", "60", db=db)
    moves = run("moves", f"{game_id}:41", db=db).output.splitlines()
    assert data["step"] == 41 and data["steps"][0]["step"] == 41
    assert data["steps"][0]["playouts"] == 60
    assert sum(data["steps"][0]["chances"]) == pytest.approx(1.0, abs=1e-3)
    assert data["mover"] == 1 and data["search_playouts"] == 60
    best = data["best"]
    assert best and all(line["move"] in moves for line in best)
    assert all(0.0 <= line["chance"] <= 1.0 for line in best)
    assert sum(line["playouts"] for line in best) == 60
    assert [line["playouts"] for line in best] == sorted(
        (line["playouts"] for line in best), reverse=True
    )


def test_a_classic_game_and_a_position_in_text(db: Path, stored: dict[str, str]) -> None:
    [game_id] = [v for k, v in stored.items() if k != "points"][:1]
    result = run("analyse", game_id, "--playouts", "3", db=db)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "each step's chances rest on at least 3 playouts" in out
    assert "turning points:" in out and "step 0 to" in out
    assert any(set(line.split()[-1]) <= set("▁▂▃▄▅▆▇█") for line in out.splitlines()[1:3])
    assert "(certain)" in out.splitlines()[-1]
    position = run("analyse", f"{game_id}:10", "--playouts", "20", "--json", db=db)
    step = json.loads(position.stdout)
    from engine.games import get_game

    with EventStore.open(db) as store:
        text = get_game("splendor").position(store.state_at(game_id, 10))
    result = run("analyse", text, "--playouts", "20")
    assert result.exit_code == 0, result.output
    assert "win chances:" in result.stdout and "(20 playouts" in result.stdout
    if step["mover"] is not None:
        assert "best decisions for" in result.stdout


def test_a_bad_target_is_refused_with_exit_2(db: Path, stored: dict[str, str]) -> None:
    result = run("analyse", f"{stored['points']}:x", db=db)
    assert result.exit_code == 2
    assert "expected GAME, GAME:STEP" in result.output
    assert run("analyse", "nosuchgame", db=db).exit_code == 2


def test_a_tiny_budget_still_answers_every_step(db: Path, stored: dict[str, str]) -> None:
    game_id = stored["points"]
    data = analyse_json(game_id, "--budget", "0.5", db=db)
    steps = data["steps"]
    assert len(steps) == 99
    assert all(sum(s["chances"]) == pytest.approx(1.0, abs=1e-3) for s in steps)
    assert steps[-1]["chances"] == [0.0, 1.0]
    # the steps played in turn: none is more than one batch ahead of another
    played = [s["playouts"] for s in steps if s["margin"] is not None]
    assert len(played) == 97  # all but the new table and the end, certain
    assert max(played) - min(played) <= 4
    assert data["playouts_per_step"] == min(played)
