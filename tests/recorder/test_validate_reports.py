"""recorder.validate: one report per game of a notation or JSON file, never an exception
for bad input; summaries in the game's own wording."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import recorder.validate
from engine.games import get_game
from recorder.validate import GameReport, validate_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
ILLEGAL = ROOT / "fixtures" / "illegal"
RULES = get_game("splendor-duel")


def test_docstring_examples(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    assert doctest.testmod(recorder.validate).failed == 0


def _json_file(path: Path, games: list[dict]) -> Path:
    path.write_text(json.dumps(games if len(games) > 1 else games[0]), encoding="utf-8")
    return path


def _document(source: Path, upto: int | None = None) -> dict:
    parsed = RULES.read_game(source.read_text(encoding="utf-8"))
    events = [RULES.event_to_dict(e) for e in parsed.events[:upto]]
    return {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {"players": parsed.headers["players"]},
        "events": events,
    }


def test_a_legal_game_reports_its_result_in_the_games_wording():
    [report] = validate_file(GAMES / "colour.tl")
    assert report.ok and not report.failed() and report.events == 70
    assert report.summary == (
        "Emma won on red (10 or more points in one colour), turn 40, 70 events"
    )
    assert report.to_dict()["players"] == ["Emma", "Farid"]


def test_an_illegal_move_is_reported_with_its_place():
    path = ILLEGAL / "take-not-a-line.tl"
    [report] = validate_file(path)
    assert not report.ok and report.failed()
    [err] = report.errors
    assert (err["kind"], err["line"], err["column"], err["turn"]) == ("illegal", 22, 11, 8)
    assert err["violations"][0]["code"] == "take.not_a_line"


def test_moves_played_illegally_fail_only_when_strict():
    [report] = validate_file(GAMES / "dispute.tl")
    assert report.ok and report.flagged
    assert not report.failed() and report.failed(strict=True)


def test_a_json_file_of_several_games_gives_one_report_each(tmp_path: Path):
    unfinished = _document(GAMES / "points.tl", upto=30)
    path = _json_file(tmp_path / "two.json", [_document(GAMES / "crowns.tl"), unfinished])
    first, second = validate_file(path)
    assert (first.label, second.label) == (str(path), f"{path} (game 2)")
    assert first.summary == "Daniel won on Crowns (10 or more), turn 53, 92 events"
    assert second.ok and second.summary.startswith("unfinished, turn ")
    assert second.summary.endswith(
        ": Bob to play: optional actions (Privilege, Replenish), then the mandatory action, "
        "30 events"
    )


def test_an_illegal_event_in_json_names_its_number(tmp_path: Path):
    doc = _document(GAMES / "points.tl")
    doc["events"][5] = {"type": "tokens_taken", "spaces": ["a1", "e5"]}
    [report] = validate_file(_json_file(tmp_path / "bad.json", [doc]))
    [err] = report.errors
    assert not report.ok and report.events == 5
    assert err["kind"] == "illegal" and err["event_number"] == 6


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.tl", None, "cannot read the file"),
        ("chess.tl", '[Game "Chess"]\n1. e4\n', "unknown game 'Chess'"),
        ("broken.json", "{", "invalid JSON"),
    ],
)
def test_unreadable_files_are_failed_reports(tmp_path: Path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    [report] = validate_file(path)
    assert isinstance(report, GameReport) and not report.ok
    assert message in report.errors[0]["message"]
