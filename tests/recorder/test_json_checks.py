"""A JSON game file is judged as its notation is (issue 12): its Result and Victory headers
against how the moves end, and, when it says who made an event (``"by"``), that player
against whose turn it is.  Before, a wrong Result imported, and a move entered for the
wrong player was applied to the other.  validate and import give the same answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.games import get_game

ROOT = Path(__file__).resolve().parents[2]
POINTS = ROOT / "fixtures" / "games" / "points.tl"  # Bob (seat 2) wins on points: 0-1


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def exported(tmp_path: Path, source: Path) -> dict[str, Any]:
    """The canonical JSON export of ``source`` imported into a new database."""
    db = tmp_path / "src.db"
    assert run("import", str(source), "--db", str(db)).exit_code == 0
    out = tmp_path / "export.json"
    gid = run("games", "--db", str(db)).output.splitlines()[1].split()[0]
    assert run("export", gid, "--format", "json", "-o", str(out), "--db", str(db)).exit_code == 0
    return json.loads(out.read_text(encoding="utf-8"))


def both_refuse(tmp_path: Path, doc: dict[str, Any], name: str, *expected: str) -> None:
    """validate and import both refuse ``doc``, naming the file and ``expected``."""
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    for args in (["validate", str(path)], ["import", str(path), "--db", str(tmp_path / "x.db")]):
        result = run(*args)
        assert result.exit_code == 1, (args[0], result.output)
        assert f"{name}: " in result.output
        for text in expected:
            assert text in result.output, (args[0], result.output)


def test_a_json_result_that_the_moves_contradict_is_refused_as_in_notation(tmp_path):
    doc = exported(tmp_path, POINTS)
    assert (doc["headers"]["result"], doc["headers"]["tags"]["Victory"]) == ("0-1", "points")
    wrong = {**doc, "headers": {**doc["headers"], "result": "1-0"}}
    both_refuse(
        tmp_path,
        wrong,
        "result.json",
        "headers.result: the Result header says 1-0 (Alice won): Bob won by points",
    )
    victory = {**doc, "headers": {**doc["headers"], "tags": {"Round": "1", "Victory": "crowns"}}}
    both_refuse(
        tmp_path,
        victory,
        "victory.json",
        "headers.tags.Victory: the Victory header says 'crowns', but the game was won by points",
    )
    # The notation of the same game with the same wrong Result: refused too, alike.
    text = POINTS.read_text(encoding="utf-8").replace('[Result "0-1"]', '[Result "1-0"]')
    (tmp_path / "result.tl").write_text(text, encoding="utf-8")
    result = run("validate", str(tmp_path / "result.tl"))
    assert result.exit_code == 1 and "the Result header says 1-0 (Alice won)" in result.output
    # A game still going may not claim a winner; "*" or no Result says nothing.
    short = {**doc, "events": doc["events"][:40]}
    both_refuse(tmp_path, short, "short.json", "with the game still going")
    for result_header in ("*", None):
        headers = {k: v for k, v in doc["headers"].items() if k not in ("result", "tags")}
        if result_header:
            headers["result"] = result_header
        (tmp_path / "fine.json").write_text(
            json.dumps({**short, "headers": headers}), encoding="utf-8"
        )
        assert run("validate", str(tmp_path / "fine.json")).exit_code == 0


def test_a_classic_splendor_result_is_checked_too(tmp_path):
    source = next(
        p
        for p in sorted((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))
        if '[Result "2"]' in p.read_text(encoding="utf-8")
    )
    doc = exported(tmp_path, source)
    assert doc["headers"]["result"] == "2"
    both_refuse(
        tmp_path,
        {**doc, "headers": {**doc["headers"], "result": "1"}},
        "classic.json",
        "headers.result: the Result header says 1",
    )


def with_players(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with ``by`` on every event a player makes: whose it is by the rules."""
    rules = get_game(doc["kind"])
    names = doc["headers"]["players"]
    state = rules.new_state(names)
    events = []
    for item in doc["events"]:
        payload = {k: v for k, v in item.items() if k not in ("meta", "event_id")}
        event = rules.event_from_dict(payload)
        seat = rules.acting_seat(state, event)
        events.append(item if seat is None else {**item, "by": names[seat]})
        rules.play(state, event)
    return {**doc, "events": events}


def test_by_must_name_whose_turn_it_is(tmp_path):
    doc = exported(tmp_path, POINTS)
    named = with_players(doc)
    made_by = [e.get("by") for e in named["events"]]
    assert made_by[0] is None and {"Alice", "Bob"} <= set(made_by)
    # Right players: imported, with the head the game has without them (they are checked,
    # not stored: the record is the same).
    db = tmp_path / "by.db"
    (tmp_path / "named.json").write_text(json.dumps({**named, "id": "named"}), encoding="utf-8")
    (tmp_path / "plain.json").write_text(json.dumps({**doc, "id": "plain"}), encoding="utf-8")
    assert run("validate", str(tmp_path / "named.json")).exit_code == 0
    result = run(
        "import", str(tmp_path / "named.json"), str(tmp_path / "plain.json"), "--db", str(db)
    )
    assert result.exit_code == 0, result.output
    heads = json.loads(run("verify", "--json", "--db", str(db)).stdout)["games"]
    assert len({g["head"] for g in heads}) == 1
    # A move entered for the other player: refused, naming the event and the field.
    step = next(i for i, e in enumerate(named["events"]) if e.get("by") == "Bob")
    wrong = json.loads(json.dumps(named))
    wrong["events"][step]["by"] = "Alice"
    both_refuse(
        tmp_path,
        wrong,
        "wrong.json",
        f"event {step + 1}",
        "the file says Alice made it, but it is Bob's to make",
    )
    # The setup is nobody's; a name that is not a player is refused before the rules.
    setup = json.loads(json.dumps(named))
    setup["events"][0]["by"] = "Alice"
    both_refuse(tmp_path, setup, "setup.json", "event 1", "no player makes it")
    stranger = json.loads(json.dumps(named))
    stranger["events"][3]["by"] = "Zed"
    both_refuse(
        tmp_path, stranger, "stranger.json", "event 4", '"Zed" is not one of the game\'s players'
    )


@pytest.mark.parametrize("value", [3, None, ["Bob"]])
def test_by_is_a_players_name_or_absent(tmp_path, value):
    doc = with_players(exported(tmp_path, POINTS))
    doc["events"][1]["by"] = value
    path = tmp_path / "by.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = run("validate", str(path))
    if value is None:  # null: not said
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1 and "event 2" in result.output and "by" in result.output
