"""``tablelog validate --jobs``: processes reading and checking game files, with the same
output, in the same order, and the same exit code as one process; a sensible default."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.games import get_game
from recorder.io import PARALLEL_FROM, SPAWNED_FROM, default_jobs
from recorder.pipeline import fork_is_safe

ROOT = Path(__file__).resolve().parents[2]
ILLEGAL = ROOT / "fixtures" / "illegal"
TABLELOG = Path(sys.executable).with_name("tablelog")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Random games in notation and JSON, with every illegal fixture, a file that is not
    UTF-8, broken JSON and a JSON file of several games (one illegal) among them."""
    root = tmp_path_factory.mktemp("club")
    rules = get_game("splendor-duel")
    for seed in range(PARALLEL_FROM):
        events = rules.random_game(random.Random(seed))
        text = rules.write_game({"players": ["Ann", "Bo"], "round": str(seed)}, events)
        (root / f"{seed:02d}-game.tl").write_text(text, encoding="utf-8")
    for path in sorted(ILLEGAL.glob("*.tl")):
        shutil.copy(path, root / f"{len(path.name) % 30:02d}-{path.name}")
    (root / "05-latin1.tl").write_bytes('[Event "Café"]\n'.encode("latin-1"))
    (root / "17-broken.json").write_text("{", encoding="utf-8")
    games = [
        {
            "format": "tablelog-game",
            "version": 1,
            "kind": "splendor-duel",
            "headers": {"players": ["Ann", "Bo"], "round": str(seed)},
            "events": [rules.event_to_dict(e) for e in rules.random_game(random.Random(seed))],
        }
        for seed in (100, 101, 102)
    ]
    games[1]["events"][30] = games[1]["events"][0]  # a second setup: illegal
    (root / "23-several.json").write_text(json.dumps(games), encoding="utf-8")
    return root


@pytest.mark.parametrize("options", [[], ["--json"], ["--all", "--strict"]])
def test_validating_with_processes_prints_what_one_process_prints(folder: Path, options):
    runner = CliRunner()
    outcomes = {}
    for jobs in ("1", "2", "3"):
        result = runner.invoke(cli, ["validate", *options, "--jobs", jobs, str(folder)])
        outcomes[jobs] = (result.exit_code, result.stdout_bytes, result.stderr_bytes)
    assert outcomes["2"] == outcomes["1"] == outcomes["3"]
    exit_code, stdout, _ = outcomes["1"]
    assert exit_code == 1
    text = stdout.decode()
    for name in ("05-latin1.tl", "17-broken.json", "23-several.json", "syntax-error.tl"):
        assert name in text
    if options == ["--json"]:
        games = json.loads(text)["games"]
        order = [(Path(g["file"]).name, g["game"]) for g in games]
        assert order == sorted(order) and len(games) == len(os.listdir(folder)) + 2
        assert [g["ok"] for g in games if g["file"].endswith("several.json")] == [True, False, True]
    else:
        assert "23-several.json (game 2): event 31" in text


def test_the_installed_command_with_processes_prints_what_one_process_prints(folder: Path):
    """As a user runs it: one thread, so its processes are forked copies of it."""
    ran = {
        jobs: subprocess.run(
            [str(TABLELOG), "validate", "--jobs", jobs, str(folder)],
            capture_output=True,
            check=False,
        )
        for jobs in ("1", "2", "0")
    }
    assert ran["1"].returncode == ran["2"].returncode == ran["0"].returncode == 1
    assert ran["2"].stdout == ran["1"].stdout == ran["0"].stdout
    assert ran["2"].stderr == ran["1"].stderr == b""
    lines = ran["1"].stdout.decode().splitlines()
    assert lines[0].startswith(f"{folder / '00-game.tl'}: ok, ")


def test_a_clean_folder_exits_0_with_processes(tmp_path: Path):
    for source in sorted((ROOT / "fixtures" / "games").glob("*.tl")):
        shutil.copy(source, tmp_path / source.name)
    result = CliRunner().invoke(cli, ["validate", "--jobs", "2", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.count(": ok, ") == 5


@pytest.mark.parametrize("cores", [None, 1, 2, 3, 8])
def test_the_default_validates_in_processes_for_many_files_on_two_cores(monkeypatch, cores):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    enough = PARALLEL_FROM if fork_is_safe() else SPAWNED_FROM
    assert default_jobs(1, writing=False) == default_jobs(enough - 1, writing=False) == 1
    many = default_jobs(enough, writing=False)
    assert many == (cores if cores and cores > 1 else 1)
    assert default_jobs(10 * enough, writing=False) == many


def test_the_help_tells_the_default():
    result = CliRunner().invoke(cli, ["validate", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert f"with {PARALLEL_FROM} files or more ({SPAWNED_FROM} where" in text
    assert "on 2 cores or more, one per core" in text
