"""Hostile files and strings: each is refused with a message naming the file (line and
column, or the field) and the reason; nothing of it is written, and the files after it on
the same command line still import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore, ImportRejected, StoreError
from recorder.logbook import BadMove, log, new_game

ROOT = Path(__file__).resolve().parents[2]
EVENING = (ROOT / "docs" / "examples" / "evening.tl").read_text(encoding="utf-8")


def _document(**changes: object) -> str:
    doc: dict[str, object] = {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {"players": ["Ann", "Bo"]},
        "events": [],
    }
    doc.update(changes)
    return json.dumps(doc)


HOSTILE = {
    "deep.json": (
        "[" * 100_000 + "]" * 100_000,
        "deep.json: invalid JSON: nested too deeply; the limit is 32 levels",
    ),
    # deep enough for the walkers after the JSON reader (schemas, messages, the search for
    # half characters) to recurse out of the stack, not for the reader itself
    "deeper.json": (
        _document(headers={"players": ["Ann", "Bo"], "tags": {"x": "DEEP"}}).replace(
            '"DEEP"', "[" * 900 + '"\\ud800"' + "]" * 900
        ),
        "deeper.json: invalid JSON: nested too deeply; the limit is 32 levels",
    ),
    "digits.json": (
        '{"format": "tablelog-game", "version": ' + "9" * 5000 + "}",
        "digits.json: invalid JSON: a number of more than 4300 digits",
    ),
    "turn.tl": (
        EVENING + "\n" + "9" * 5000 + ". Ann: take c3\n",
        "turn.tl:14:1: a turn number has at most 9 digits; this one has 5,000",
    ),
    "half.json": (
        _document(headers={"players": ["Ann\udc80", "Bo"]}),
        "half.json: headers.players[0]: not valid Unicode (half a character)",
    ),
    "nul.json": (
        _document(headers={"players": ["Ann", "Bo"], "tags": {"note": "a\x00b"}}),
        "nul.json: headers.tags.note: a NUL character (U+0000), which no store keeps",
    ),
    "nul.tl": (
        EVENING + "\n1. Ann: take c3 {a\x00b}\n",
        "nul.tl:14:19: a NUL character (U+0000), which no store keeps",
    ),
    "newline-id.json": (_document(id="abc\n"), "newline-id.json: id: a game id is 1-64"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_refused_and_the_next_still_imports(tmp_path: Path, name: str) -> None:
    text, message = HOSTILE[name]
    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    good = tmp_path / "good.tl"
    good.write_text(EVENING, encoding="utf-8")
    db = tmp_path / "h.db"
    result = CliRunner().invoke(cli, ["import", str(bad), str(good), "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert message in result.output, result.output
    assert len(result.output.splitlines()[0]) < 300  # the hostile token is not echoed whole
    assert "good.tl: imported game" in result.output
    with EventStore.open(db) as store:
        assert store.listing.count() == 1


def test_half_a_character_from_a_caller_is_a_store_error_with_its_place(tmp_path: Path) -> None:
    with EventStore.open(tmp_path / "s.db") as store:
        with pytest.raises(ImportRejected, match=r"<text>:4:12: not valid Unicode"):
            new_game(store, EVENING.replace("Ann", "A\udc80nn"))
        game = new_game(store, EVENING)
        with pytest.raises(BadMove, match=r"<move>:1:11: not valid Unicode") as caught:
            log(store, game, "take c3 {a\udc80}")
        assert isinstance(caught.value, StoreError)
        assert store.game(game).event_count == 1


def test_a_line_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from recorder.io import MAX_LINE_CHARS

    bad = tmp_path / "long.tl"
    bad.write_text(EVENING + "\n1. Ann: take c3 {" + "x" * 10_000_000 + "}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(bad)])
    assert result.exit_code == 1
    assert f"long.tl:14:{MAX_LINE_CHARS + 1}: a line of 10,000,018 characters" in result.output
    assert f"the limit is {MAX_LINE_CHARS:,}" in result.output
    # the same comment over many short lines is read whole (in one pass), then refused by
    # the comment's own limit, by validate as by import (the one check they share: the
    # reader alone took it, so validate said ok to a file import refused)
    many = tmp_path / "many.tl"
    many.write_text(EVENING + "\n1. Ann: take c3 {" + "x\n" * 90_000 + "}\n", encoding="utf-8")
    for command in (["validate", str(many)], ["import", str(many), "--db", str(tmp_path / "m.db")]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1
        assert "many.tl: event 2" in result.output and "meta.comment" in result.output
        assert "longer than 10000 characters" in result.output, result.output
    fine = tmp_path / "fine.tl"
    fine.write_text(EVENING + "\n1. Ann: take c3 {" + "x\n" * 4_000 + "}\n", encoding="utf-8")
    assert CliRunner().invoke(cli, ["validate", str(fine)]).exit_code == 0


def test_a_notation_file_of_too_many_lines_or_characters_is_refused_unread(tmp_path: Path):
    """The reader keeps an object per line: ten million lines (a 10 MB comment never
    closed) took 336 MB before the limits (bench/hostile.py)."""
    from recorder.io import MAX_NOTATION_CHARS, MAX_NOTATION_LINES

    lines = tmp_path / "lines.tl"
    lines.write_text(EVENING + "\n1. Ann: take c3 {" + "x\n" * 5_000_000, encoding="utf-8")
    wide = tmp_path / "wide.tl"
    wide.write_text(EVENING + "\n1. Ann: take c3 {" + ("x" * 99 + "\n") * 50_000, encoding="utf-8")
    db = tmp_path / "l.db"
    result = CliRunner().invoke(cli, ["import", str(lines), str(wide), "--db", str(db)])
    assert result.exit_code == 1
    assert (
        f"lines.tl:{MAX_NOTATION_LINES + 1}: a notation file of 5,000,014 lines; the limit is "
        f"{MAX_NOTATION_LINES:,}"
    ) in result.output, result.output
    chars = len(EVENING + "\n1. Ann: take c3 {") + 5_000_000
    assert (
        f"wide.tl: a notation file of {chars:,} characters; the limit is "
        f"{MAX_NOTATION_CHARS:,} (one game's notation)"
    ) in result.output, result.output


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    from recorder.io import MAX_FILE_BYTES

    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:  # sparse: nothing is written but its size
        out.truncate(MAX_FILE_BYTES + 1)
    result = CliRunner().invoke(cli, ["import", str(huge), "--db", str(tmp_path / "h.db")])
    assert result.exit_code == 1
    assert f"huge.json: a file of {MAX_FILE_BYTES + 1:,} bytes; the limit is" in result.output


def test_a_stream_that_never_ends_is_cut_at_the_size_limit(tmp_path: Path) -> None:
    """/dev/zero as a game file, as a new game's standard input, as a file of heads: each
    is refused after the limit, naming it (not read until memory runs out), and the file
    after it on the command line is still checked."""
    from recorder.io import MAX_FILE_BYTES

    db = str(tmp_path / "z.db")
    points = str(ROOT / "fixtures" / "games" / "points.tl")
    limit = f"more than {MAX_FILE_BYTES:,} bytes; the limit is {MAX_FILE_BYTES:,}"
    runner = CliRunner()
    checked = runner.invoke(cli, ["validate", "/dev/zero", points])
    assert checked.exit_code == 1
    assert f"/dev/zero: {limit}" in checked.output
    assert f"{points}: ok, Bob won" in checked.output
    with open("/dev/zero", "rb") as zeros:
        started = runner.invoke(cli, ["new", "-", "--db", db], input=zeros)
    assert started.exit_code == 1 and f"<stdin>: {limit}" in started.output
    heads = runner.invoke(cli, ["verify", "--heads", "/dev/zero", "--db", db])
    assert heads.exit_code == 2 and f"/dev/zero: {limit}" in heads.output


def test_a_game_row_changed_behind_the_stores_back_still_lists_and_replays(tmp_path: Path):
    import sqlite3

    from web import create_app

    db = tmp_path / "changed.db"
    with EventStore.open(db) as store:
        game = new_game(store, EVENING)
        log(store, game, "take c3")
    conn = sqlite3.connect(db)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'games'"):
        if name.startswith("games_"):
            conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("UPDATE games SET headers = '[1, 2]', players = '{\"a\": 1}'")
    conn.commit()
    conn.close()
    listed = CliRunner().invoke(cli, ["games", "--db", str(db)])
    assert listed.exit_code == 0 and game in listed.output, listed.output
    client = create_app({"DATABASE": str(db), "TESTING": True}).test_client()
    for url in ("/", "/api/games", f"/games/{game}/step/2", f"/api/games/{game}"):
        answer = client.get(url, follow_redirects=True)
        assert answer.status_code == 200, url
    # the headers are where the chain starts: the game is shown as altered from step 1
    page = client.get(f"/games/{game}/step/2", follow_redirects=True).get_data(as_text=True)
    assert "Player 1" in page and "</b> at step 1: " in page
