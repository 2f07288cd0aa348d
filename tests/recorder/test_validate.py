"""recorder.validate: a file's games judged, as an import judges them (one reading of the
file), with a report per game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recorder import ImportRejected
from recorder.io import load_file
from recorder.prepare import prepare_game
from recorder.validate import GameReport, validate_file, validate_files

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
ILLEGAL = ROOT / "fixtures" / "illegal"


def test_sample_games_are_ok_with_the_one_wording_of_the_victory():
    [report] = validate_file(GAMES / "points.tl")
    assert report.ok and report.events == 98
    assert report.summary == "Bob won on Prestige points (20 or more), turn 53, 98 events"
    [colour] = validate_file(GAMES / "colour.tl")
    assert colour.summary.startswith("Emma won on red (10 or more points in one colour)")


def test_moves_played_illegally_are_flagged_not_errors():
    [report] = validate_file(GAMES / "dispute.tl")
    assert report.ok and report.flagged
    assert report.to_dict()["flagged"] == report.flagged


def test_the_first_problem_with_its_place_and_rule():
    [report] = validate_file(ILLEGAL / "take-not-a-line.tl")
    assert not report.ok
    [err] = report.errors
    assert (err["kind"], err["line"], err["column"]) == ("illegal", 22, 11)
    assert err["violations"][0]["code"] == "take.not_a_line"


def test_every_problem_when_asked(tmp_path: Path):
    text = (ILLEGAL / "take-not-a-line.tl").read_text(encoding="utf-8")
    path = tmp_path / "twice.tl"
    path.write_text(text, encoding="utf-8")
    [first] = validate_file(path)
    [every] = validate_file(path, all_errors=True)
    assert len(every.errors) >= len(first.errors) == 1


def _document(record) -> dict:
    """A game read from notation as a JSON game file's document."""
    return {
        "format": "tablelog-game",
        "version": 1,
        "kind": record.kind,
        "headers": record.headers,
        "events": record.events,
    }


def test_a_json_file_is_judged_game_by_game(tmp_path: Path):
    [record] = load_file(GAMES / "points.tl")
    doc = _document(record)
    bad = json.loads(json.dumps(doc))
    bad["events"] = (
        bad["events"][:3]
        + [{"type": "player_resigned", "player": 0}]
        + [{"type": "player_resigned", "player": 1}]
    )
    path = tmp_path / "two.json"
    path.write_text(json.dumps([doc, bad]), encoding="utf-8")
    good_report, bad_report = validate_file(path)
    assert good_report.ok and good_report.index == 1 and good_report.events == 98
    assert good_report.summary == validate_file(GAMES / "points.tl")[0].summary
    assert not bad_report.ok and bad_report.index == 2
    assert bad_report.errors[0]["source"] == str(path)


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("bad.json", "{", "invalid JSON"),
        ("empty.json", "[]", "empty list of games"),
        (
            "three.json",
            '{"format": "tablelog-game", "version": 1, "kind": "splendor-duel",'
            ' "headers": {"players": ["A", "B", "C"]}, "events": []}',
            "this game seats 2",
        ),
        ("other.tl", '[Game "Chess"]\n', "unknown game 'Chess'"),
    ],
)
def test_what_an_import_refuses_validate_reports_with_the_same_words(
    tmp_path: Path, name: str, text: str, words: str
):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ImportRejected) as refused:
        load_file(path)
    [report] = validate_file(path)
    assert isinstance(report, GameReport) and not report.ok
    assert report.errors[0]["message"] == str(refused.value)
    assert words in report.errors[0]["message"]


def test_a_missing_file_is_a_report_not_an_exception(tmp_path: Path):
    [report] = validate_file(tmp_path / "nowhere.tl")
    assert not report.ok and "cannot read the file" in report.errors[0]["message"]


def test_every_illegal_fixture_validate_refuses_an_import_refuses_too():
    for path in sorted(ILLEGAL.glob("*.tl")):
        [report] = validate_file(path)
        if report.ok:
            assert load_file(path)
        else:
            with pytest.raises(ImportRejected):
                load_file(path)


def test_an_unfinished_game_says_what_is_due(tmp_path: Path):
    lines = (GAMES / "points.tl").read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith("[Result ")]
    path = tmp_path / "short.tl"
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n", encoding="utf-8")
    [report] = validate_file(path)
    assert report.ok, report.errors
    assert report.summary.startswith("unfinished, turn ")
    assert report.summary.endswith(f", {report.events} events")


def test_files_validated_in_processes_report_as_one_process_does(tmp_path: Path):
    """validate_files: the reports of every file, in the order of the files, whatever the
    processes (each given several files at a time)."""
    paths = [*sorted(ILLEGAL.glob("*.tl")), tmp_path / "nowhere.tl", *sorted(GAMES.glob("*.tl"))]
    alone = [r.to_dict() for r in validate_files(paths)]
    assert alone == [r.to_dict() for p in paths for r in validate_file(p)]
    for jobs in (2, 3):
        assert [r.to_dict() for r in validate_files(paths, jobs=jobs)] == alone
    every = [r.to_dict() for r in validate_files(paths, all_errors=True, jobs=2)]
    assert every == [r.to_dict() for p in paths for r in validate_file(p, all_errors=True)]


@pytest.mark.parametrize(
    "path", ["fixtures/games/points.tl", "fixtures/splendor/games/three-players-tie-break.tl"]
)
def test_validate_checks_and_applies_each_event_once(rules_calls, path):
    """validate reads and folds a file once: the import's own check reuses the table the
    reading folded, so each event is checked and applied once."""
    from engine.games import game_for_notation

    text = (ROOT / path).read_text(encoding="utf-8")
    rules = game_for_notation(text)
    counted = rules_calls(rules.kind)
    [report] = validate_file(ROOT / path)
    assert report.ok
    assert counted == {"check": report.events, "apply": report.events}


@pytest.mark.parametrize(
    "path", ["fixtures/games/points.tl", "fixtures/splendor/games/three-players-tie-break.tl"]
)
def test_validate_and_import_work_from_the_readers_events(monkeypatch, tmp_path, path):
    """No round trip through payloads: validate turns none of the events the reader made
    into a payload (``event_to_dict``), an import only each one it stores (its stored
    JSON), and neither reads a payload back into an event (``event_from_dict``)."""
    from engine.games import game_for_notation
    from recorder import EventStore
    from recorder.io import import_files

    source = ROOT / path
    rules = game_for_notation(source.read_text(encoding="utf-8"))
    calls = {"event_to_dict": 0, "event_from_dict": 0}
    for name in calls:
        real = getattr(rules, name)

        def counted(*args, _real=real, _name=name):
            calls[_name] += 1
            return _real(*args)

        monkeypatch.setattr(type(rules), name, staticmethod(counted))
    [report] = validate_file(source)
    assert report.ok
    assert calls == {"event_to_dict": 0, "event_from_dict": 0}
    with EventStore.open(tmp_path / "games.db") as store:
        [(_, _, result)] = import_files(store, [source])
    assert not isinstance(result, ImportRejected) and result.events == report.events
    assert calls["event_to_dict"] <= report.events and calls["event_from_dict"] == 0


def test_validate_names_the_place_an_import_names(tmp_path: Path):
    """What an import refuses, validate refuses at the same place: the line and column
    of a notation game's first problem, or the header's field."""
    points = (GAMES / "points.tl").read_text(encoding="utf-8")
    long_place = tmp_path / "long-place.tl"
    long_place.write_text(
        points.replace("\n\n", f'\n[Place "{"x" * 300}"]\n\n', 1), encoding="utf-8"
    )
    for path in [*sorted(ILLEGAL.glob("*.tl")), long_place]:
        [report] = validate_file(path)
        try:
            [game] = load_file(path)
            prepare_game(game)
        except ImportRejected as refused:
            assert not report.ok, path
            error = report.errors[0]
            assert (error.get("line"), error.get("column")) == (refused.line, refused.column)
            assert error.get("field") == refused.field, path
            if refused.field:
                assert refused.message in error["message"]
        else:
            assert report.ok, path


def test_a_json_game_is_parsed_once_by_validate(monkeypatch, tmp_path: Path):
    """validate reads each payload of a JSON file once (``event_from_dict``), checking
    the events the reading parsed."""
    from engine.games import get_game

    [game] = load_file(GAMES / "points.tl")
    path = tmp_path / "points.json"
    path.write_text(json.dumps(_document(game)), encoding="utf-8")
    rules = get_game(game.kind)
    real = rules.event_from_dict
    calls = []

    def counted(payload):
        calls.append(payload)
        return real(payload)

    monkeypatch.setattr(type(rules), "event_from_dict", staticmethod(counted))
    [report] = validate_file(path)
    assert report.ok and report.events == len(game.events) == len(calls)
