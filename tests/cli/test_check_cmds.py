"""``tablelog validate``, ``check`` and ``moves``: through click's runner and as a real
process, exit codes included, against real files and a real SQLite database."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import cli, commands
from engine.splendor_duel import GAME
from engine.splendor_duel.events import event_to_dict
from engine.splendor_duel.notation import parse_game
from engine.splendor_duel.position import position_string
from recorder import EventStore, ImportRejected
from recorder.io import game_files, load_file, load_text

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
ILLEGAL = ROOT / "fixtures" / "illegal"
TABLELOG = Path(sys.executable).with_name("tablelog")


def run(*args: str, db: Path | None = None):
    runner = CliRunner()
    extra = ["--db", str(db)] if db is not None else []
    return runner.invoke(cli, [*args, *extra], catch_exceptions=False)


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture()
def stored(db: Path) -> dict[str, str]:
    """The sample games imported into a fresh database: file stem -> game id."""
    ids = {}
    with EventStore.open(db) as store:
        for path in sorted(GAMES.glob("*.tl")):
            [record] = load_file(path)
            ids[path.stem] = store.import_game(record).game_id
    return ids


def a_position(game_file: str = "points.tl", step: int = 40) -> str:
    events = parse_game((GAMES / game_file).read_text(encoding="utf-8")).events
    return position_string(GAME.replay(events[:step]))


# --- validate --------------------------------------------------------------------------


def test_validate_sample_games_exits_0():
    result = run("validate", *map(str, sorted(GAMES.glob("*.tl"))))
    assert result.exit_code == 0, result.output
    assert (
        "points.tl: ok, Bob won on Prestige points (20 or more), turn 53, 98 events"
        in result.output
    )
    assert "dispute.tl:25:9: note: take c1 e1 =KP was played illegally" in result.output


def test_validate_reports_the_first_problem_with_place_position_and_rule():
    path = ILLEGAL / "take-not-a-line.tl"
    result = run("validate", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{path}:22:11: illegal move: take a5 e5 is not allowed here"
    assert lines[1] == "  turn 8, event 12"
    assert lines[2].startswith("  position: ...../.KB../")
    assert lines[3].startswith("  - take.not_a_line: a5, e5 are not adjacent")
    assert lines[3].endswith("(p.5, Take up to 3 tokens)")


def test_validate_json_output_for_machines():
    path = ILLEGAL / "summary-take-gold.tl"
    result = run("validate", "--json", str(path), str(GAMES / "colour.tl"))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["ok"] is False
    bad, good = data["games"]
    assert good["ok"] and good["summary"].startswith(
        "Emma won on red (10 or more points in one colour)"
    )
    [err] = bad["errors"]
    assert (err["kind"], err["line"]) == ("illegal", 18)
    assert err["violations"][0]["code"] == "take.gold"
    assert err["violations"][0]["rule"]["page"] == 5
    assert err["position"] and err["turn"] == 4


def test_validate_strict_fails_on_moves_played_illegally():
    assert run("validate", str(GAMES / "dispute.tl")).exit_code == 0
    assert run("validate", "--strict", str(GAMES / "dispute.tl")).exit_code == 1


def test_validate_all_reports_every_problem(tmp_path: Path):
    text = (GAMES / "colour.tl").read_text(encoding="utf-8")
    text = text.replace("\n5. Emma: take", "\n5. Emma: tkae")
    text = text.replace("\n9. Farid: repl", "\n9. Farid: rpl")
    path = tmp_path / "two-typos.tl"
    path.write_text(text, encoding="utf-8")
    first = run("validate", str(path))
    every = run("validate", "--all", str(path))
    assert first.exit_code == every.exit_code == 1
    assert first.output.count("syntax error") == 1
    assert every.output.count("syntax error") == 2


def test_validate_an_unreadable_file(tmp_path: Path):
    result = run("validate", str(tmp_path / "missing.tl"))
    assert result.exit_code == 1
    assert "cannot read the file" in result.output


def test_validate_prints_clean_messages_as_import_does(tmp_path: Path):
    """File name and what is wrong, once: no codec or OS error text, no repeated name."""
    latin = tmp_path / "latin.tl"
    latin.write_bytes(b'[Game "Splendor Duel"]\n' + "été".encode("latin-1"))
    folder = tmp_path / "folder.tl"
    folder.mkdir()
    for path, where, what in (
        (latin, ":2:1", "not UTF-8 text (byte 24, 0xe9)"),
        (folder, "", "a folder holding no game file (*.tl, *.json)"),
        (tmp_path / "missing.tl", "", "cannot read the file"),
    ):
        validated = run("validate", str(path))
        assert validated.exit_code == 1
        (line,) = validated.output.splitlines()
        assert line.startswith(f"{path}{where}: ") and what in line
        assert line.count(str(path)) == 1, line
        assert "codec" not in line and "Errno" not in line and "Traceback" not in line
        imported = run("import", str(path), db=tmp_path / "t.db")
        assert imported.exit_code == 1 and line in imported.output


def _json_game(tmp_path: Path, source: Path, *, break_event: int | None = None) -> Path:
    parsed = parse_game(source.read_text(encoding="utf-8"))
    events = []
    for i, (event, meta) in enumerate(zip(parsed.events, parsed.meta, strict=True)):
        item = event_to_dict(event)
        if meta:
            item["meta"] = meta
        if i == break_event:
            item = {"type": "tokens_taken", "spaces": ["a1", "e5"]}
        events.append(item)
    doc = {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": parsed.headers,
        "events": events,
    }
    path = tmp_path / f"{source.stem}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_validate_json_game_files(tmp_path: Path):
    good = _json_game(tmp_path, GAMES / "dispute.tl")
    result = run("validate", str(good))
    assert result.exit_code == 0, result.output
    assert "ok, Bob won on Prestige points (20 or more), turn 69" in result.output
    assert "event 13: note: take c1 e1 =KP was played illegally (turn 9" in result.output
    (tmp_path / "bad").mkdir()
    bad = _json_game(tmp_path / "bad", GAMES / "points.tl", break_event=5)
    result = run("validate", str(bad))
    assert result.exit_code == 1
    assert "event 6: take a1 e5 is not allowed here" in result.output


# --- check and moves -------------------------------------------------------------------


def test_check_a_legal_move_in_a_position_says_what_changes():
    pos = a_position("points.tl", 41)
    result = run("check", pos, "take", "a1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("legal: take a1 =G (the position, turn 23: Player 2 to play")
    assert "  off the board: a1 (green)" in result.output


def test_check_an_illegal_move_cites_the_rulebook():
    pos = a_position("points.tl", 41)
    result = run("check", pos, "take a1 a5")
    assert result.exit_code == 1
    assert result.output.startswith("illegal: take a1 a5")
    assert "take.not_a_line" in result.output and "(p.5, Take up to 3 tokens)" in result.output


def test_check_unreadable_move_or_position_exits_2():
    pos = a_position()
    result = run("check", pos, "fly c3")
    assert result.exit_code == 2
    assert "unknown decision 'fly'" in result.output
    result = run("check", "R..../..... x", "take a1")
    assert result.exit_code == 2 and "position" in result.output


def test_check_json(db: Path, stored: dict[str, str]):
    result = run("check", "--json", f"{stored['points']}:41", "take a1", db=db)
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["legal"] is True
    assert data["event"] == {"type": "tokens_taken", "spaces": ["a1"]}
    assert data["where"] == (
        "turn 23: Bob to play: optional actions (Privilege, Replenish), then the mandatory action"
    )


def test_check_and_moves_in_a_stored_game(db: Path, stored: dict[str, str]):
    game_id = stored["points"]
    result = run("check", f"{game_id}:41", "take a1", db=db)
    assert result.exit_code == 0, result.output
    assert "legal: take a1 =G (game" in result.output and "Bob's tokens: +1 green" in result.output
    result = run("check", f"{game_id}:41", "priv a3", db=db)
    assert result.exit_code == 1 and "a3 holds a Gold token" in result.output
    assert "privilege.gold" in result.output
    result = run("moves", f"{game_id}:41", db=db)
    assert result.exit_code == 0
    moves = result.output.splitlines()
    assert "take a1 =G" in moves and "res L3 @c3" in moves
    assert "priv a1" in moves and "priv a3" not in moves
    result = run("moves", game_id, db=db)  # the last step: the game is over
    assert result.exit_code == 0 and result.stdout == ""
    assert "no decision is due (turn 53: Bob won on Prestige points (20 or more))" in result.stderr


def test_check_unknown_game_or_step_exits_2(db: Path, stored: dict[str, str]):
    result = run("check", "nosuchgame", "take a1", db=db)
    assert result.exit_code == 2 and "no game 'nosuchgame'" in result.output
    result = run("check", f"{stored['points']}:999", "take a1", db=db)
    assert result.exit_code == 2 and "no step 999" in result.output
    result = run("moves", "whatever", db=db.with_name("absent.db"))
    assert result.exit_code == 2 and "no database" in result.output


def test_moves_json_lists_observations_when_a_card_must_be_revealed():
    pos = a_position("points.tl", 40)  # turn 22, a level-1 slot to refill
    result = run("moves", "--json", pos)
    data = json.loads(result.output)
    assert data["where"] == "turn 22: A level-1 card is revealed into the empty pyramid slot"
    assert data["moves"] and all(m.startswith("reveal 1-") for m in data["moves"])


def test_every_command_is_documented():
    for name in ("validate", "check", "moves"):
        result = run(name, "--help")
        assert result.exit_code == 0 and "--db" in result.output and "--json" in result.output
        assert commands()[name].help


# --- import through the store writes nothing for a rejected game -----------------------

FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(st.data())
def test_a_rejected_import_writes_nothing(tmp_path_factory, data):
    db = tmp_path_factory.mktemp("fuzz") / "games.db"
    text = (GAMES / "crowns.tl").read_text(encoding="utf-8")
    lines = text.split("\n")
    i = data.draw(st.integers(12, len(lines) - 2))
    words = lines[i].split(" ")
    j = data.draw(st.integers(1, len(words) - 1))
    words[j] = data.draw(st.sampled_from(["take", "a1", "c9", "3-13", "=WWW", "(R9)", "{", "R-2"]))
    lines[i] = " ".join(words)
    damaged = "\n".join(lines)
    with EventStore.open(db) as store:
        try:
            [record] = load_text(damaged, "fuzz.tl")
        except ImportRejected as err:
            assert err is not None
            assert store.listing.count() == 0
            assert not parse_game(damaged).ok
            return
        store.import_game(record)
        assert store.listing.count() == 1


def test_importing_an_illegal_log_is_refused_and_nothing_is_written(db: Path):
    result = run("import", str(ILLEGAL / "take-not-a-line.tl"), db=db)
    assert result.exit_code != 0
    with EventStore.open(db) as store:
        assert store.listing.count() == 0


# --- a real process --------------------------------------------------------------------


def test_the_installed_command_runs_as_a_process(tmp_path: Path):
    env_db = str(tmp_path / "p.db")
    ok = subprocess.run(
        [str(TABLELOG), "validate", str(GAMES / "points.tl"), "--db", env_db],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert "ok, Bob won on Prestige points (20 or more), turn 53" in ok.stdout
    bad = subprocess.run(
        [str(TABLELOG), "validate", str(ILLEGAL / "summary-five-of-a-colour.tl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "setup.tokens" in bad.stdout
    pos = a_position("points.tl", 41)
    legal = subprocess.run(
        [str(TABLELOG), "check", pos, "take", "a1"], capture_output=True, text=True, check=False
    )
    assert legal.returncode == 0 and legal.stdout.startswith("legal: take a1 =G")
    illegal = subprocess.run(
        [str(TABLELOG), "check", pos, "take a1 a5"], capture_output=True, text=True, check=False
    )
    assert illegal.returncode == 1 and "take.not_a_line" in illegal.stdout
    moves = subprocess.run(
        [str(TABLELOG), "moves", pos], capture_output=True, text=True, check=False
    )
    assert moves.returncode == 0 and "take a1 =G" in moves.stdout.splitlines()
    unreadable = subprocess.run(
        [str(TABLELOG), "check", pos, "take z9"], capture_output=True, text=True, check=False
    )
    assert unreadable.returncode == 2 and "no space 'z9'" in unreadable.stderr


def test_the_program_ends_with_its_heap_frozen_and_its_handlers_run(tmp_path: Path):
    """``main`` (the installed program) freezes the heap as the process ends, so the
    shutdown's collector passes skip it, yet the exit status, the output and every exit
    handler registered while the command ran are kept, and a store it wrote is whole."""
    code = (
        "import atexit, gc, sys\n"
        "from cli.main import main\n"
        # registered before main: runs after main's own handler
        "atexit.register(lambda: print('frozen at the end:', gc.get_freeze_count() > 0,"
        " file=sys.stderr))\n"
        "main()\n"
    )
    db = tmp_path / "end.db"
    imported = subprocess.run(
        [sys.executable, "-c", code, "import", str(GAMES / "points.tl"), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert imported.returncode == 0, imported.stderr
    assert "frozen at the end: True" in imported.stderr
    assert not Path(f"{db}-wal").exists()  # the store was closed, its log checkpointed
    [game_id] = re.findall(r"imported game (\w+) \(98 events\)", imported.stdout)
    with EventStore.open(db) as store:
        assert store.game(game_id).event_count == 98
    bad = subprocess.run(
        [sys.executable, "-c", code, "validate", str(ILLEGAL / "summary-five-of-a-colour.tl")],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert bad.returncode == 1 and "setup.tokens" in bad.stdout
    assert "frozen at the end: True" in bad.stderr


def test_the_docs_name_exactly_the_commands_with_json():
    """docs/notation.md says which commands print JSON; no other command takes --json."""
    import re

    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    (sentence,) = re.findall(r"\n([^\n]*) print JSON for machines with `--json`", text)
    named = set(re.findall(r"`([a-z-]+)`", sentence))
    with_json = {
        name
        for name, command in commands().items()
        if any("--json" in getattr(p, "opts", ()) for p in command.params)
    }
    assert named == with_json


def test_a_folder_stands_for_the_game_files_in_it(tmp_path: Path):
    """validate and import read a folder's game files, its subfolders' too, in name
    order; the other files in it are left alone."""
    games = tmp_path / "club"
    (games / "2025").mkdir(parents=True)
    sources = sorted((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))[:3]
    for i, source in enumerate(sources):
        target = games / ("2025" if i else "") / source.name
        target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    (games / "notes.txt").write_text("not a game", encoding="utf-8")
    validated = run("validate", str(games))
    assert validated.exit_code == 0, validated.output
    assert [line.split(":")[0] for line in validated.output.splitlines()] == sorted(
        str(p) for p in games.rglob("*.tl")
    )
    imported = run("import", str(games), db=tmp_path / "t.db")
    assert imported.exit_code == 0 and imported.output.count(": imported game ") == 3


def test_a_folder_s_pipes_dead_links_and_links_back_are_passed_over(tmp_path: Path):
    """In a folder, a FIFO named like a game (reading it would wait for ever), a link to
    nothing and a link back to the folder (a loop) are no game files: validate checks
    the one game there, once."""

    games = tmp_path / "club"
    games.mkdir()
    source = sorted((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))[0]
    (games / "a.tl").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    os.mkfifo(games / "pipe.tl")
    (games / "gone.tl").symlink_to(tmp_path / "nowhere.tl")
    (games / "again").symlink_to(games, target_is_directory=True)
    assert game_files([games]) == [str(games / "a.tl")]  # (listed, nothing opened yet)
    validated = run("validate", str(games))
    assert validated.exit_code == 0, validated.output
    assert [line.split(":")[0] for line in validated.output.splitlines()] == [str(games / "a.tl")]


def test_classic_splendor_position_and_result_are_refused_with_classics_reasons(tmp_path: Path):
    """A classic position string that breaks the component counts is refused with
    classic Splendor's reason (not Splendor Duel's field count); a wrong ``[Result]`` of
    a classic game is a violation with its rule in ``validate --json``."""
    import random

    from engine.games import get_game

    rules = get_game("splendor")
    state = rules.new_state(("A", "B", "C"))
    for event in rules.random_game(random.Random(1), ["A", "B", "C"])[:20]:
        rules.play(state, event)
    good = rules.position(state)
    assert run("check", good, "take wbg").exit_code in (0, 1)
    fields = good.split(" ")
    tokens = fields.index(next(f for f in fields if f.count(".") == 5))
    fields[tokens] = ".".join([*fields[tokens].split(".")[:5], "9"])  # nine Golds
    result = run("check", " ".join(fields), "take wbg")
    assert result.exit_code == 2
    assert "position of Splendor, " in result.output
    assert "gold tokens in all (bank and players); a game of 3 has 5" in result.output
    assert "17 are needed" not in result.output

    text = (ROOT / "fixtures" / "splendor" / "games" / "three-players.tl").read_text()
    wrong = tmp_path / "wrong.tl"
    wrong.write_text(re.sub(r'\[Result "[^"]*"\]', '[Result "1"]', text), encoding="utf-8")
    result = run("validate", "--json", str(wrong))
    assert result.exit_code == 1
    (error,) = json.loads(result.output)["games"][0]["errors"]
    assert error["kind"] == "illegal" and error["line"] == 9
    assert error["message"] == "the Result header says 1"
    (violation,) = error["violations"]
    assert violation["code"] == "result.mismatch" and violation["message"] == "Dana won (2)"
