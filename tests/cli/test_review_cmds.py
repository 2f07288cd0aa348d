"""``tablelog line``, ``mark``, ``withdraw``, ``key --review`` and ``export --main-line``,
run as a user runs them (a real subprocess, a real SQLite file), for every game: a game
reviewed after it was played exports with its review and imports again byte for byte,
while its record's head stays the same."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game

ROOT = Path(__file__).resolve().parents[2]
TABLELOG = Path(sys.executable).with_name("tablelog")
#: One sample game of each game.
SAMPLES = {
    "splendor-duel": ROOT / "fixtures" / "games" / "dispute.tl",
    "splendor": sorted((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))[0],
}


def _tablelog(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TABLELOG), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TABLELOG_DB": str(db), "TABLELOG_AUTHOR": "Tester"},
        check=False,
    )


def _imported(db: Path, path: Path) -> str:
    done = _tablelog(db, "import", str(path))
    assert done.returncode == 0, done.stderr
    return done.stdout.split("imported game ")[1].split()[0]


def _head(db: Path, game: str) -> str:
    done = _tablelog(db, "verify", game, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    return str(json.loads(done.stdout)["games"][0]["head"])


def _moves(path: Path, step: int, count: int, first: tuple[str, ...] = ()) -> list[str]:
    """``count`` decisions that read from after ``step`` of the sample (after ``first``)."""
    text = path.read_text(encoding="utf-8")
    rules = get_game("splendor" if "splendor/" in str(path) else "splendor-duel")
    state = rules.read_game(text).fold.state_at(step)
    for move in first:
        state = rules.read_moves(state, move).state
    rng = random.Random(step)
    out: list[str] = []
    while len(out) < count:
        texts = rules.legal_move_texts(state)
        rng.shuffle(texts)
        read: Any = next((r for r in (rules.read_moves(state, t) for t in texts) if r.ok), None)
        if read is None:
            break
        out.append(" ".join(read.texts))
        state = read.state
    return out


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_a_reviewed_game_round_trips_and_keeps_its_head(kind: str, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    path = SAMPLES[kind]
    game = _imported(db, path)
    head = _head(db, game)
    first = _moves(path, 12, 4)
    shown = _tablelog(db, "line", f"{game}:12", *first)
    assert shown.returncode == 0, shown.stderr
    assert "not saved" in shown.stdout and first[0] in shown.stdout
    assert _tablelog(db, "export", game).stdout == path.read_text(encoding="utf-8")  # nothing
    saved = _tablelog(db, "line", f"{game}:12", *first, "--save", "--by", "Chloé", "--json")
    assert saved.returncode == 0, saved.stderr
    line = json.loads(saved.stdout)["saved"]
    assert line["by"] == "Chloé" and line["steps"][0] == f"12/{line['line']}.1"
    nested = _moves(path, 12, 2, first=(first[0],))
    done = _tablelog(db, "line", f"{game}:12/{line['line']}.1", *nested, "--save")
    assert done.returncode == 0, done.stderr
    for target, mark, note in ((f"{game}:14", "?!", "too greedy"), (f"{game}:12/1.2", "!!", "")):
        args = ["mark", target, mark] + (["--note", note] if note else [])
        marked = _tablelog(db, *args)
        assert marked.returncode == 0, marked.stderr
    # the record is as it was: the same head, and verify passes with the review checked
    assert _head(db, game) == head
    exported = _tablelog(db, "export", game).stdout
    assert exported != path.read_text(encoding="utf-8")
    assert _tablelog(db, "export", game, "--main-line").stdout == path.read_text(encoding="utf-8")
    assert " ?! {too greedy}" in exported and " !! (" in exported
    # validate reads and checks every line; import and export give the same bytes
    out = tmp_path / "reviewed.tl"
    out.write_text(exported, encoding="utf-8")
    assert _tablelog(db, "validate", str(out)).returncode == 0
    other = tmp_path / "other.db"
    again = _imported(other, out)
    assert again == game
    assert _tablelog(other, "export", again).stdout == exported
    assert _head(other, again) == head


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_refusals_are_clear_and_write_nothing(kind: str, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    path = SAMPLES[kind]
    game = _imported(db, path)
    before = _tablelog(db, "export", game).stdout
    bad_mark = _tablelog(db, "mark", f"{game}:12", "!!!")
    assert bad_mark.returncode == 2 and "'!!!' is not one of '!', '?', '!!'" in bad_mark.stderr
    missing = _tablelog(db, "line", f"{game}:9999", "take a1", "--save")
    assert missing.returncode == 1 and "not 9999" in missing.stderr
    assert "nothing written" in missing.stderr
    many = _tablelog(db, "line", f"{game}:12", *(["take a1"] * 10_000), "--save")
    assert many.returncode == 1
    assert "a saved line holds 400 decisions at most; this one has 10,000" in many.stderr
    # an illegal decision: refused with its rule (and page, where the rulebook gives one)
    rules = get_game(kind)
    fold = rules.read_game(path.read_text(encoding="utf-8")).fold
    state = fold.state_at(12)
    bad = next(
        t
        for t in (rules.move_text(fold.state_at(s), fold.event(s + 1)) for s in range(13, 60))
        if not rules.read_moves(state, t).ok
    )
    illegal = _tablelog(db, "line", f"{game}:12", bad, "--save")
    assert illegal.returncode == 1 and "illegal move" in illegal.stderr
    assert "\n  - " in illegal.stderr  # each rule broken, with its citation
    unreadable = _tablelog(db, "mark", f"{game}:twelve", "!")
    assert unreadable.returncode == 2 and "STEP/LINE.K" in unreadable.stderr
    assert _tablelog(db, "export", game).stdout == before


def test_withdraw_and_a_review_key(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    path = SAMPLES["splendor-duel"]
    game = _imported(db, path)
    saved = _tablelog(db, "line", f"{game}:20", *_moves(path, 20, 2), "--save")
    assert saved.returncode == 0, saved.stderr
    assert _tablelog(db, "export", game).stdout != path.read_text(encoding="utf-8")
    withdrawn = _tablelog(db, "withdraw", game, "1")
    assert withdrawn.returncode == 0 and "line 1 withdrawn" in withdrawn.stdout
    assert _tablelog(db, "export", game).stdout == path.read_text(encoding="utf-8")
    assert _tablelog(db, "withdraw", game, "1").returncode == 1
    key = _tablelog(db, "key", game, "--review", "--json")
    assert key.returncode == 0 and len(json.loads(key.stdout)["review_key"]) >= 40


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_explore_checks_each_decision_and_writes_only_on_save(kind: str, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    path = SAMPLES[kind]
    game = _imported(db, path)
    moves = _moves(path, 15, 2)
    typed = "\n".join([moves[0], "take zz9", "back", *moves, "line", "quit"]) + "\n"
    done = subprocess.run(
        [str(TABLELOG), "explore", f"{game}:15"],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "TABLELOG_DB": str(db), "TABLELOG_AUTHOR": "Tester"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "refused: " in done.stdout and "the line was not saved" in done.stdout
    assert " ".join(moves) in done.stdout  # ``line``: the line so far, in notation
    assert _tablelog(db, "export", game).stdout == path.read_text(encoding="utf-8")
    saved = subprocess.run(
        [str(TABLELOG), "explore", f"{game}:15"],
        input="\n".join([*moves, "save Dana", "quit"]) + "\n",
        capture_output=True,
        text=True,
        env={**os.environ, "TABLELOG_DB": str(db)},
        check=False,
    )
    assert "saved as line 1: steps 15/1.1 to 15/1.2" in saved.stdout, saved.stdout
    listed = json.loads(_tablelog(db, "verify", game, "--json").stdout)
    assert listed["ok"]


def test_validate_checks_every_line_and_names_its_place(tmp_path: Path) -> None:
    text = SAMPLES["splendor-duel"].read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("26. Chloé: buy 1-17 (W2)"))
    opening = "26. Chloé: buy 1-17 (W2) (26. Chloé: "
    lines[at] = lines[at].replace("26. Chloé: buy 1-17 (W2)", opening + "take c2 c3 c4)", 1)
    path = tmp_path / "line.tl"
    path.write_text("".join(lines), encoding="utf-8")
    done = _tablelog(tmp_path / "t.db", "validate", str(path))
    assert done.returncode == 1
    said = done.stdout + done.stderr
    assert f"{path}:{at + 1}:{len(opening) + 1}: illegal move: take c2 c3 c4" in said
    assert "take.gold" in said and "(p.5, Take up to 3 tokens)" in said
