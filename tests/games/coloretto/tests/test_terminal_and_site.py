"""Coloretto end to end outside the browser: the 2-player sample game started with
``tablelog new`` and logged turn line by turn line with ``tablelog log`` (the real
command, each in a process of its own, which finds the game by its entry point), then
exported and imported again byte-identical, verified, drawn with ``tablelog show
--image``; and the site over that same SQLite file: every replay step, the step's
``.svg`` and ``.png``, the JSON API's game and state routes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from coloretto import GAME

from web import create_app

HERE = Path(__file__).resolve().parents[1]
SAMPLE = HERE / "games" / "2-players.tl"
ARTIFACTS = Path(__file__).resolve().parents[4] / "test-artifacts"
TABLELOG = Path(sys.executable).parent / "tablelog"


def _tablelog(*args: str) -> str:
    """Run the real command (PYTHONPATH names the test games: tests/conftest.py)."""
    done = subprocess.run([str(TABLELOG), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def _setup_and_turns(text: str) -> tuple[str, list[str]]:
    """The sample's headers and setup (its result left out: the game is to be played),
    and its turn lines."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = [line for line in lines[:first] if not line.startswith("[Result")]
    return "\n".join(setup) + "\n", lines[first:]


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The sample game logged from the terminal: the database and the game's id."""
    db = str(tmp_path_factory.mktemp("coloretto") / "terminal.db")
    setup, turns = _setup_and_turns(SAMPLE.read_text(encoding="utf-8"))
    setup_file = Path(db).with_name("setup.tl")
    setup_file.write_text(setup, encoding="utf-8")
    gid = _tablelog("new", str(setup_file), "--db", db).strip()
    assert len(gid) == 12, gid
    for line in turns:
        _tablelog("log", gid, line, "--db", db)
    return db, gid


def test_a_game_logged_from_the_terminal_is_the_sample_game(logged: tuple[str, str]) -> None:
    db, gid = logged
    exported = _tablelog("export", gid, "--db", db)
    sample = GAME.read_game(SAMPLE.read_text(encoding="utf-8"))
    again = GAME.read_game(exported)
    assert again.ok and again.events == sample.events
    assert GAME.status(again.state).phase == "finished"
    # the store's summary is the rules' (the sample says Ann won: [Result "1"])
    (row,) = [line for line in _tablelog("games", "--db", db).splitlines() if gid in line]
    assert "finished" in row and "Ann won on points" in row


def test_exported_and_imported_again_byte_identical(
    logged: tuple[str, str], tmp_path: Path
) -> None:
    db, gid = logged
    exported = _tablelog("export", gid, "--db", db)
    path = tmp_path / "again.tl"
    path.write_text(exported, encoding="utf-8")
    other = str(tmp_path / "other.db")
    said = _tablelog("import", str(path), "--db", other)
    match = re.search(r"imported game ([0-9a-f]{12})", said)
    assert match, said
    assert _tablelog("export", match.group(1), "--db", other) == exported
    verified = _tablelog("verify", "--db", db)
    assert "1 game" in verified or gid in verified, verified


def test_show_draws_the_table_as_an_image(logged: tuple[str, str], tmp_path: Path) -> None:
    db, gid = logged
    svg, png = tmp_path / "step.svg", tmp_path / "step.png"
    _tablelog("show", gid, "--step", "40", "--image", str(svg), "--db", db)
    _tablelog("show", gid, "--step", "40", "--image", str(png), "--db", db)
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") or "<svg" in text[:200]
    assert "Ann" in text and "Bob" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "coloretto-show-step40.png").write_bytes(png.read_bytes())


@pytest.fixture(scope="module")
def client(logged: tuple[str, str]) -> Any:
    db, _ = logged
    return create_app({"DATABASE": db, "TESTING": True}).test_client()


def test_every_replay_step_and_its_pictures(client: Any, logged: tuple[str, str]) -> None:
    _, gid = logged
    sample = GAME.read_game(SAMPLE.read_text(encoding="utf-8"))
    steps = len(sample.events)
    for step in range(steps + 1):
        page = client.get(f"/games/{gid}/step/{step}")
        assert page.status_code == 200, step
        html = page.get_data(as_text=True)
        assert 'class="board-area clr-table"' in html
        assert "/games-static/coloretto/game.css" in html
    last = client.get(f"/games/{gid}/step/{steps}").get_data(as_text=True)
    assert "Ann won" in last and 'class="crow' in last
    svg = client.get(f"/games/{gid}/step/{steps}.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert b"Ann" in svg.data
    png = client.get(f"/games/{gid}/step/20.png")
    assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_api_gives_the_game_and_its_state(client: Any, logged: tuple[str, str]) -> None:
    _, gid = logged
    game = client.get(f"/api/games/{gid}").get_json()
    assert json.dumps(game).count('"coloretto"') >= 1 and "Ann" in json.dumps(game)
    state = client.get(f"/api/games/{gid}/state?step=20").get_json()
    sample = GAME.read_game(SAMPLE.read_text(encoding="utf-8"))
    expected = GAME.new_state(sample.names)
    for event in sample.events[:20]:
        GAME.play(expected, event)
    body = state.get("state", state)
    assert body == json.loads(json.dumps(GAME.state_json(expected)))


def test_check_and_moves_answer_from_the_stored_game(logged: tuple[str, str]) -> None:
    """``tablelog moves`` lists the rules' decisions at a step; ``check`` says a legal
    one is legal and cites the rule a refused one breaks (exit 1)."""
    db, gid = logged
    sample = GAME.read_game(SAMPLE.read_text(encoding="utf-8"))
    state = sample.fold.state_at(6)
    listed = _tablelog("moves", f"{gid}:6", "--db", db).splitlines()
    assert listed == GAME.legal_move_texts(state)
    assert _tablelog("check", f"{gid}:6", listed[0], "--db", db)
    refused = subprocess.run(
        [str(TABLELOG), "check", f"{gid}:6", "take 3", "--db", db, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    verdict = GAME.check_move(state, "take 3")
    assert not verdict.legal and refused.returncode == 1, refused.stdout + refused.stderr
    said = json.loads(refused.stdout)
    assert said["legal"] is False
    assert said["violations"][0]["code"] == verdict.violations[0].code


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_record_through_a_terminal(tmp_path: Path) -> None:
    """``tablelog record`` at the table: the card drawn is asked after a draw (alone
    when a draw is the only decision), then its row; the turns logged are the sample's."""
    pexpect = pytest.importorskip("pexpect")
    setup, turns = _setup_and_turns(SAMPLE.read_text(encoding="utf-8"))
    setup_file = tmp_path / "setup.tl"
    setup_file.write_text(setup, encoding="utf-8")
    db = str(tmp_path / "record.db")
    gid = _tablelog("new", str(setup_file), "--db", db).strip()
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm", "COLUMNS": "150"}
    child = pexpect.spawn(
        str(TABLELOG),
        ["record", "--db", db, gid],
        env=env,
        encoding="utf-8",
        dimensions=(50, 150),
        timeout=60,
    )
    try:
        # (prompt numbered by the step it logs, answer): Ann must draw (nothing to take
        # yet), Bob takes the +2, Ann draws again (alone at the table, nothing to take)
        for prompt, answer in [
            ("draw>", "+2"),
            ("4 Ann>", "row 3"),
            ("5 Bob>", "take 3"),
            ("draw>", "pink"),
            ("8 Ann>", "row 2"),
            ("9 Ann>", None),
        ]:
            child.expect_exact(prompt)
            if answer is not None:
                child.send(answer + "\r")
        child.sendintr()  # Ctrl-C: what was logged stays
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    exported = _tablelog("export", gid, "--db", db)
    assert exported.splitlines()[-3:] == turns[:3]
