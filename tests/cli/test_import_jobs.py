"""``tablelog import --jobs``: processes reading and checking games while one writes, with
the same output and the same database as one process; a sensible default."""

from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate
from recorder.io import PARALLEL_FROM, default_jobs
from recorder.pipeline import fork_is_safe


def write_game(path: Path, seed: int) -> Path:
    doc = {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {"players": ["Ann", "Bo"], "date": f"2024-05-{1 + seed % 28:02d}"},
        "events": [ev.event_to_dict(e) for e in simulate.random_game(random.Random(seed))],
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    folder = tmp_path / "logs"
    folder.mkdir()
    paths = [write_game(folder / f"game{seed:02d}.json", seed) for seed in range(12)]
    bad = json.loads(paths[4].read_text())
    bad["events"][20] = bad["events"][0]
    paths[4].write_text(json.dumps(bad))
    (folder / "broken.json").write_text("{")
    return [str(p) for p in [*paths[:7], folder / "broken.json", *paths[7:]]]


def rows(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT l.game_id, l.sequence, l.event_id, l.type, l.payload, e.meta, e.text"
            " FROM event_log AS l JOIN events AS e"
            " ON e.game_no = (SELECT no FROM games WHERE id = l.game_id)"
            " AND e.sequence = l.sequence ORDER BY l.game_id, l.sequence"
        ).fetchall()
    finally:
        conn.close()


def test_importing_with_processes_reports_and_stores_what_one_process_does(tmp_path, files):
    runner = CliRunner()
    outcomes = {}
    for jobs in ("1", "2"):
        db = tmp_path / f"jobs{jobs}.db"
        result = runner.invoke(cli, ["import", "--jobs", jobs, "--db", str(db), *files])
        assert result.exit_code == 1, result.output
        outcomes[jobs] = (result.stdout, result.stderr.splitlines()[-3:], rows(db))
    assert outcomes["2"] == outcomes["1"]
    stdout, last_lines, stored = outcomes["2"]
    assert "11 imported, 0 already stored, 2 failed" in last_lines[-1]
    assert any(line.startswith(f"{files[4]}: event 21: ") for line in last_lines)
    assert any(line.startswith(f"{files[7]}:1:") for line in last_lines)
    assert len({game for game, *_ in stored}) == 11
    # Again, in processes by default: everything is already stored.
    again = runner.invoke(cli, ["import", "--db", str(tmp_path / "jobs2.db"), *files])
    assert "0 imported, 11 already stored, 2 failed" in again.stderr


@pytest.mark.parametrize("cores", [None, 1, 2, 3, 8])
def test_the_default_checks_in_processes_only_for_many_files_on_many_cores(monkeypatch, cores):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert default_jobs(1) == default_jobs(PARALLEL_FROM - 1) == 1
    many = default_jobs(PARALLEL_FROM)
    if fork_is_safe():  # copies of this process, which start at once
        assert many == (cores if cores and cores > 1 else 1)
    else:
        assert many == ((cores - 1) if cores and cores > 2 else 1)
    assert default_jobs(10 * PARALLEL_FROM) == many


def test_the_help_tells_the_default():
    result = CliRunner().invoke(cli, ["import", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert f"with {PARALLEL_FROM} files or more on 2 cores or more, one per core" in text
    assert "but one, on 3 cores or more, where they cannot be forked" in text
