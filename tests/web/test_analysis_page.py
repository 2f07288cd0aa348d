"""A game's analysis on the site (web.analysis): asked for, done by a background process
of its own at a low priority (a few playouts a step, to be quick), kept by the game's
head, then drawn by every step page: the chances over the game, the turning points
linked to their steps, the step's own chances; the figures are those ``tablelog analyse
GAME --playouts N --json`` prints with the site's playouts.  Real SQLite file, real
background processes."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore
from recorder.io import load_file
from web import create_app

ROOT = Path(__file__).resolve().parents[2]
PLAYOUTS = 6


@pytest.fixture(scope="module")
def crowns(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    path = str(tmp_path_factory.mktemp("analysis") / "a.db")
    with EventStore.open(path) as store:
        gid = store.import_game(load_file(ROOT / "fixtures" / "games" / "crowns.tl")[0]).game_id
    return path, gid


def make_client(path: str, folder: Path) -> Any:
    app = create_app(
        {"DATABASE": path, "TESTING": True, "DRAWINGS": str(folder), "ANALYSIS_PLAYOUTS": PLAYOUTS}
    )
    return app.test_client()


def _json(output: str) -> Any:
    """The JSON document a command printed (its progress went to stderr)."""
    import json

    return json.loads(output[output.index("{") :])


def wait_ready(client: Any, gid: str) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while True:
        answer = client.get(f"/api/games/{gid}/analysis")
        if answer.status_code == 200:
            return answer.json  # type: ignore[no-any-return]
        assert answer.status_code == 202, answer.get_data(as_text=True)
        assert answer.json["state"] in ("working", "waiting")
        assert 0 <= answer.json["done"] <= answer.json["total"] == 100
        assert time.monotonic() < deadline, "the analysis never ended"
        time.sleep(0.5)


def test_the_analysis_is_done_in_the_background_then_drawn_on_every_step(
    crowns: tuple[str, str], tmp_path: Path
) -> None:
    path, gid = crowns
    client = make_client(path, tmp_path / "work")
    before = client.get(f"/games/{gid}/step/10").get_data(as_text=True)
    assert "Analyse this game" in before and 'class="chances"' not in before
    started = client.get(f"/games/{gid}/analysis")
    assert started.status_code == 202 and started.headers["Retry-After"]
    assert '<meta http-equiv="refresh"' in started.get_data(as_text=True)
    figures = wait_ready(client, gid)
    # the command gives the same figures with the site's playouts
    said = CliRunner().invoke(
        cli, ["analyse", gid, "--db", path, "--playouts", str(PLAYOUTS), "--json"]
    )
    assert said.exit_code == 0, said.output
    printed = {k: v for k, v in _json(said.output).items() if k != "seconds"}
    assert {k: v for k, v in figures.items() if k != "state"} == printed
    with EventStore.open(path) as store:
        row = store.game(gid)
    last, winner = row.event_count, row.winner
    assert figures["playouts_per_step"] == PLAYOUTS and len(figures["steps"]) == last + 1
    for s in figures["steps"]:
        assert abs(sum(s["chances"]) - 1) < 0.01
    assert figures["steps"][-1]["chances"][winner] == 1.0
    points = figures["turning_points"]
    assert points and all(p["after"] < p["before"] for p in points)
    # every step page now draws it (the kept page was drawn again)
    for n in (10, points[0]["step"]):
        page = client.get(f"/games/{gid}/step/{n}").get_data(as_text=True)
        assert page.count('<svg class="chances"') == 1
        assert page.count('<circle class="turn"') == len(points)
        here = figures["steps"][n]["chances"]
        shown = re.findall(r"</i>[^<]+ <b>(\d+)%</b></span>", page)
        assert [int(v) for v in shown[: len(here)]] == [round(100 * c) for c in here]
        listed = re.findall(r'<a href="[^"]*/step/(\d+)#analysis">Step \d+</a>', page)
        assert [int(v) for v in listed] == [p["step"] for p in points]
        assert "Analyse this game" not in page
    # asked again: ready at once, the replay where the game turned most
    again_page = client.get(f"/games/{gid}/analysis")
    worst = max(points, key=lambda p: p["loss"])["step"]
    assert again_page.status_code == 302
    assert again_page.headers["Location"].endswith(f"/step/{worst}#analysis")


def test_an_unknown_game_and_a_changed_game(crowns: tuple[str, str], tmp_path: Path) -> None:
    path, gid = crowns
    client = make_client(path, tmp_path / "work")
    assert client.get("/api/games/nosuchgame/analysis").status_code == 404
    assert client.get("/games/nosuchgame/analysis").status_code == 404


def test_the_analysis_runs_in_a_process_of_its_own_at_the_lowest_priority(
    crowns: tuple[str, str], tmp_path: Path
) -> None:
    """The request only starts the work: a process of its own, which lowers its priority
    to the lowest (the pages go first) before it folds the game."""
    import os

    from web import background

    path, gid = crowns
    client = make_client(path, tmp_path / "work")
    assert client.get(f"/api/games/{gid}/analysis").status_code == 202
    child = [p for p in background._children if p.poll() is None][-1]
    assert child.pid != os.getpid()

    def niceness() -> int:
        with open(f"/proc/{child.pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[16])

    deadline = time.monotonic() + 60
    while niceness() < min(19, os.nice(0) + background.ANALYSIS.niceness):
        assert child.poll() is None, "the analysis ended before its priority was seen"
        assert time.monotonic() < deadline, "the process never lowered its priority"
        time.sleep(0.05)
    assert background.ANALYSIS.niceness == 19
    wait_ready(client, gid)
