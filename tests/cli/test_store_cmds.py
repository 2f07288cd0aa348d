"""The store commands: init, import, export, games, show, rebuild-projections."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import show_cmds, store_cmds
from cli.main import cli
from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate

ROOT = Path(__file__).resolve().parents[2]


def game_doc(seed: int, players=("Ann", "Bo"), date="2024-05-01") -> dict:
    return {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {"players": list(players), "date": date},
        "events": [ev.event_to_dict(e) for e in simulate.random_game(random.Random(seed))],
    }


def canonical(doc: dict) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "t.db"


@pytest.fixture
def run(db: Path):
    runner = CliRunner()

    def invoke(*args: str, env: dict | None = None):
        return runner.invoke(cli, list(args), env={"TABLELOG_DB": str(db), **(env or {})})

    return invoke


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for seed, players, date in ((1, ("Ann", "Bo"), "2024-05-01"), (2, ("Cy", "Ann"), "2024-06-01")):
        path = tmp_path / f"game{seed}.json"
        path.write_text(canonical(game_doc(seed, players, date)), encoding="utf-8")
        out[f"game{seed}"] = path
    bad = game_doc(3)
    bad["events"][9] = {"type": "tokens_taken", "spaces": ["c3", "z9"]}
    out["bad_field"] = tmp_path / "bad_field.json"
    out["bad_field"].write_text(json.dumps(bad))
    illegal = game_doc(3)
    illegal["events"][9] = dict(illegal["events"][0])
    out["illegal"] = tmp_path / "illegal.json"
    out["illegal"].write_text(json.dumps(illegal))
    return out


def game_ids(run) -> list[str]:
    result = run("games", "--limit", "100")
    return [line.split()[0] for line in result.output.splitlines()[1:-1]]


def test_init_creates_the_database(run, db):
    result = run("init")
    assert result.exit_code == 0, result.output
    assert db.exists()
    assert "schema version 9" in result.output


def test_the_db_option_overrides_the_environment(run, tmp_path):
    other = tmp_path / "elsewhere.db"
    result = run("init", "--db", str(other))
    assert result.exit_code == 0 and other.exists()


def test_import_reports_each_file_and_bad_ones_by_event_and_field(run, files):
    result = run(
        "import",
        str(files["game1"]),
        str(files["bad_field"]),
        str(files["illegal"]),
        str(files["game2"]),
    )
    assert result.exit_code == 1
    assert re.search(rf"^{files['game1']}: imported game \w+ \(\d+ events\)$", result.stdout, re.M)
    assert f"{files['game2']}: imported game" in result.stdout
    err = result.stderr.splitlines()
    assert f"{files['bad_field']}: event 10: spaces[1]: no space 'z9' on the board" in err[0]
    assert err[1].startswith(f"{files['illegal']}: event 10: ")
    assert re.search(r"\(p\.\d+, [^)]+\)$", err[1])
    assert "2 imported, 0 already stored, 2 failed" in result.stderr
    assert len(game_ids(run)) == 2  # the bad files wrote nothing


def test_importing_again_changes_nothing(run, files):
    run("import", str(files["game1"]))
    result = run("import", str(files["game1"]))
    assert result.exit_code == 0
    assert "is already stored" in result.stdout
    assert len(game_ids(run)) == 1


def _many_files(tmp_path: Path) -> list[str]:
    paths = []
    for i in range(12):
        doc = game_doc(1)
        doc["headers"]["round"] = str(i)
        path = tmp_path / f"many{i}.json"
        path.write_text(json.dumps(doc))
        paths.append(str(path))
    return paths


def test_many_files_show_a_progress_bar_and_totals_on_a_terminal(run, files, tmp_path, monkeypatch):
    monkeypatch.setattr(store_cmds, "_stderr_is_terminal", lambda: True)
    result = run("import", *_many_files(tmp_path), str(files["bad_field"]))
    assert result.exit_code == 1
    assert "Importing" in result.stderr
    assert "12 imported, 0 already stored, 1 failed" in result.stderr
    assert "bad_field.json: event 10" in result.stderr
    assert "imported game" not in result.stdout  # the bar stands for the lines


def test_many_files_away_from_a_terminal_print_a_line_each(run, files, tmp_path, monkeypatch):
    """Piped into a log, a bar would show nothing: each file's line is the progress."""
    monkeypatch.setattr(store_cmds, "_stderr_is_terminal", lambda: False)
    paths = _many_files(tmp_path)
    result = run("import", *paths, str(files["bad_field"]))
    assert result.exit_code == 1
    assert "Importing" not in result.stderr
    for path in paths:
        assert f"{path}: imported game " in result.stdout
    assert "12 imported, 0 already stored, 1 failed" in result.stderr


def test_export_json_is_byte_identical_to_the_canonical_import(run, files, tmp_path):
    run("import", str(files["game1"]))
    (gid,) = game_ids(run)
    result = run("export", gid, "--format", "json")
    assert result.exit_code == 0
    assert result.stdout == files["game1"].read_text(encoding="utf-8")
    out = tmp_path / "out.json"  # a file named .json gets JSON without being told
    assert run("export", gid, "-o", str(out)).exit_code == 0
    assert out.read_bytes() == files["game1"].read_bytes()


def test_export_writes_notation_unless_told_otherwise(run, files, tmp_path):
    run("import", str(files["game1"]))
    (gid,) = game_ids(run)
    result = run("export", gid)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith('[Game "Splendor Duel"]')
    assert result.stdout == run("export", gid, "--format", "notation").stdout
    out = tmp_path / "game.tl"
    assert run("export", gid, "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == result.stdout


def test_games_lists_and_filters(run, files):
    run("import", str(files["game1"]), str(files["game2"]))
    listing = run("games")
    assert listing.exit_code == 0
    header = listing.output.splitlines()[0].split()
    assert header == ["id", "game", "date", "players", "status", "result", "turns", "events"]
    assert listing.output.rstrip().endswith("2 games")
    only_cy = run("games", "--player", "cy")
    assert "Cy vs Ann" in only_cy.output and "Ann vs Bo" not in only_cy.output
    assert run("games", "--player", "ANN").output.rstrip().endswith("2 games")
    assert run("games", "--result", "playing").output.rstrip().endswith("0 games")
    assert run("games", "--result", "finished").output.rstrip().endswith("2 games")
    assert run("games", "--from", "2024-05-15").output.rstrip().endswith("1 game")
    assert run("games", "--limit", "1").output.rstrip().endswith("1-1 of 2 games")
    assert run("games", "--result", "draw").exit_code == 2


def test_show_prints_the_state_at_a_step(run, files):
    run("import", str(files["game1"]))
    (gid,) = game_ids(run)
    result = run("show", gid, "--step", "12")
    assert result.exit_code == 0, result.output
    text = result.output
    assert f"Game {gid}: Ann vs Bo" in text
    assert re.search(r"^Turn \d+: (Ann|Bo) ", text, re.M)
    assert "After step 12 of" in text
    assert "    a b c d e" in text and re.search(r"^  5 [WBGRKPY.]( [WBGRKPY.]){4}$", text, re.M)
    for words in ("Bag:", "Pyramid:", "level 3", "Privileges on the table", "Royal cards"):
        assert words in text
    assert re.search(r"^Ann \(seat 1.*points, \d+ crowns, \d+ privileges$", text, re.M)
    assert "  tokens " in text and "  reserved " in text and "  royals " in text
    final = run("show", gid).output
    assert "Game over after turn" in final
    assert "has not been set up" in run("show", gid, "--step", "0").output


def test_show_and_export_name_unknown_games_and_steps(run, files):
    run("import", str(files["game1"]))
    (gid,) = game_ids(run)
    missing = run("show", "nope")
    assert missing.exit_code == 1 and "no game 'nope'" in missing.output
    assert "Traceback" not in missing.output
    beyond = run("show", gid, "--step", "100000")
    assert beyond.exit_code == 1 and "no step 100000" in beyond.output
    assert run("export", "nope").exit_code == 1


def test_rebuild_projections(run, files):
    run("import", str(files["game1"]), str(files["game2"]))
    before = run("games").output
    result = run("rebuild-projections")
    assert result.exit_code == 0 and "2 games" in result.output
    assert run("games").output == before


def test_every_store_command_is_documented_and_has_help(run):
    docs = (ROOT / "docs" / "store.md").read_text(encoding="utf-8")
    for command in store_cmds.COMMANDS + show_cmds.COMMANDS:
        assert f"tablelog {command.name}" in docs, command.name
        result = run(command.name, "--help")
        assert result.exit_code == 0 and "--db" in result.output


def test_games_dates_must_be_dates(run, files):
    run("import", str(files["game1"]), str(files["game2"]))
    assert run("games", "--to", "2024-05-15").output.rstrip().endswith("1 game")
    for option in ("--from", "--to"):
        refused = run("games", option, "last week")
        assert refused.exit_code == 2
        assert f"Invalid value for '{option}'" in refused.output
        assert "'last week' does not match the format '%Y-%m-%d'" in refused.output
