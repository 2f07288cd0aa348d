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
from recorder.table import BadMove, log, new_game

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
    "deep.json": ("[" * 100_000 + "]" * 100_000, "deep.json: invalid JSON: nested too deeply"),
    "digits.json": (
        '{"format": "tablelog-game", "version": ' + "9" * 5000 + "}",
        "digits.json: invalid JSON: a number of more than 4300 digits",
    ),
    "turn.tl": (
        EVENING + "\n" + "9" * 5000 + ". Ann: take c3\n",
        "turn.tl:14:1: expected the setup",
    ),
    "half.json": (
        _document(headers={"players": ["Ann\udc80", "Bo"]}),
        "half.json: headers.players[0]: half a character",
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
        assert store.count_games() == 1


def test_half_a_character_from_a_caller_is_a_store_error_with_its_place(tmp_path: Path) -> None:
    with EventStore.open(tmp_path / "s.db") as store:
        with pytest.raises(ImportRejected, match=r"<text>:4:12: not valid Unicode"):
            new_game(store, EVENING.replace("Ann", "A\udc80nn"))
        game = new_game(store, EVENING)
        with pytest.raises(BadMove, match=r"<move>:1:11: not valid Unicode") as caught:
            log(store, game, "take c3 {a\udc80}")
        assert isinstance(caught.value, StoreError)
        assert store.game(game).event_count == 1
