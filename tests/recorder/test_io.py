"""Game files: loading with errors that name the place, canonical export, round trips,
and the frozen version-1 fixture read through the upcasting path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import HERE, record, simulated

from engine.splendor_duel import GAME, SplendorDuel
from engine.splendor_duel import events as ev
from engine.splendor_duel import game as rules
from recorder import EventStore, ImportRejected, core
from recorder.io import export_json, game_document, load_file, load_text

FIXTURE = HERE / "fixtures" / "v1_game.json"


def write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def document(seed: int = 1, **changes: object) -> dict:
    doc = {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {"players": ["Ann", "Bo"], "date": "2024-05-01"},
        "events": [ev.event_to_dict(e) for e in simulated(seed)],
    }
    doc.update(changes)
    return doc


# --- round trips ------------------------------------------------------------------------------


def test_the_frozen_fixture_round_trips_byte_for_byte(store):
    original = FIXTURE.read_bytes()
    (game,) = load_file(FIXTURE)
    result = store.import_game(game)
    assert result.created
    assert export_json(store, result.game_id).encode("utf-8") == original
    assert "id" not in game_document(store, result.game_id)  # derived from the content
    again = store.import_game(load_file(FIXTURE)[0])
    assert again.game_id == result.game_id and not again.created


def test_a_game_with_given_ids_meta_and_flags_round_trips(store, tmp_path):
    setup = ev.event_to_dict(simulated(6)[0])
    state = GAME.replay([simulated(6)[0]])
    from test_contract import illegal_take

    doc = document(
        events=[
            dict(setup, event_id="evt-setup"),
            dict(illegal_take(state), meta={"played_illegally": True, "comment": "oops"}),
        ],
        id="club-night-7",
    )
    doc["headers"]["tags"] = {"table": "4"}
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    path = write(tmp_path, "g.json", text)
    result = store.import_game(load_file(path)[0])
    assert result.game_id == "club-night-7" and len(result.flagged) == 1
    exported = export_json(store, "club-night-7")
    assert exported == text
    with EventStore.open(tmp_path / "other.db") as other:
        other.import_game(load_text(exported, "x.json")[0])
        assert export_json(other, "club-night-7") == exported


def test_a_live_game_exports_with_its_id_and_reimports_identically(store, tmp_path):
    gid = store.create_game({"players": ["Ann", "Bo"]}).id
    p = [ev.event_to_dict(e) for e in simulated(8)]
    store.append(gid, 0, p[:12], event_ids=[f"u{i}" for i in range(12)])
    store.append(gid, 12, p[12:20])
    exported = export_json(store, gid)
    assert json.loads(exported)["id"] == gid
    assert store.import_game(load_text(exported, "x.json")[0]).created is False
    with EventStore.open(tmp_path / "other.db") as other:
        other.import_game(load_text(exported, "x.json")[0])
        assert export_json(other, gid) == exported
        assert [e.event_id for e in other.events(gid)] == [e.event_id for e in store.events(gid)]


def test_a_list_file_holds_several_games(store, tmp_path):
    path = write(tmp_path, "two.json", [document(1), document(2)])
    games = load_file(path)
    assert len(games) == 2
    assert {store.import_game(g).game_id for g in games} == {
        store.import_game(record(1, date="2024-05-01")).game_id,
        store.import_game(record(2, date="2024-05-01")).game_id,
    }


# --- the frozen fixture through the upcasting path -------------------------------------------


def test_the_version_1_fixture_replays_through_the_upcaster(store, backend, monkeypatch):
    (game,) = load_file(FIXTURE)
    gid = store.import_game(game).game_id
    assert {v for (v,) in backend.raw("SELECT DISTINCT payload_version FROM events")} == {1}
    # Pretend the payload layout moved to version 2: stored version-1 payloads must now
    # go through the upcaster on every read, and the game must replay as before.
    before = rules.describe_state(store.state_at(gid))
    early = rules.describe_state(store.state_at(gid, 10))  # folded from the first event
    seen: list[str] = []

    def upcast_1_to_2(payload: dict) -> dict:
        seen.append(payload["type"])
        return payload

    monkeypatch.setattr(ev, "PAYLOAD_VERSION", 2)
    monkeypatch.setattr(SplendorDuel, "payload_version", 2)
    monkeypatch.setitem(ev.UPCASTERS, 1, upcast_1_to_2)
    stored = store.events(gid)
    assert len(seen) == len(stored) and all(s.version == 1 for s in stored)
    seen.clear()
    core._PARSED.clear()  # parsed payloads are cached per process, whichever store read them
    with backend.open() as fresh:
        assert rules.describe_state(fresh.state_at(gid)) == before
        assert rules.describe_state(fresh.state_at(gid, 10)) == early
    assert seen  # replaying read the old payloads through the upcaster


def test_an_unknown_stored_payload_version_names_game_and_sequence(store, backend):
    gid = store.import_game(record(1)).game_id
    n = len(simulated(1))
    backend.raw(
        "INSERT INTO events (game_no, sequence, event_id, payload, payload_version,"
        " recorded_at, hash, text) VALUES ((SELECT no FROM games WHERE id = ?), ?, 'v9', ?, 9,"
        " NULL, ?, 'resign')",
        (gid, n + 1, '{"type":"player_resigned","player":0}', bytes(32)),
    )
    with pytest.raises(Exception, match=f"game {gid}, event {n + 1}: .*payload version 9"):
        store.events(gid)


# --- errors name the place ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["events"].__setitem__(2, {"type": "tokens_taken", "spaces": "c3"}),
            "event 3: spaces: expected a non-empty list of spaces",
        ),
        (
            lambda d: d["events"].__setitem__(2, {"type": "tokens_taken", "spaces": ["c3", 7]}),
            "event 3: spaces[1]: expected a space name such as 'c3', got 7",
        ),
        (
            lambda d: d["events"].__setitem__(
                4, {"type": "card_reserved", "gold": "a1", "deck": 4}
            ),
            "event 5: deck: 4 is out of range (a deck is level 1, 2 or 3)",
        ),
        (
            lambda d: d["events"].__setitem__(
                4, {"type": "card_reserved", "gold": "a", "deck": True}
            ),
            "event 5: gold: no space 'a' on the board",
        ),
        (
            lambda d: d["events"].__setitem__(4, dict(type="card_reserved", gold="a1", deck=True)),
            "event 5: deck: expected a whole number, got True",
        ),
        (
            lambda d: d["events"].__setitem__(1, {"type": "dance"}),
            "event 2: type: unknown event type 'dance'",
        ),
        (
            lambda d: d["events"].__setitem__(1, {"type": "royal_taken", "royal": "R-9"}),
            "event 2: royal: no Royal card 'R-9' (R-1 .. R-4)",
        ),
        (
            lambda d: d["events"][1].__setitem__("meta", {"mood": "happy"}),
            "event 2: meta.mood: unknown field",
        ),
        (
            lambda d: d["events"][1].__setitem__("meta", {"played_illegally": 1}),
            "event 2: meta.played_illegally: expected true or false, got 1",
        ),
        (
            lambda d: d["events"][1].__setitem__("event_id", "has space"),
            "event 2: event_id: an event id is",
        ),
        (
            lambda d: d["events"][0].__setitem__("first_player", 2),
            "event 1: first_player: 2 is out of range (a player is 0 or 1)",
        ),
        (
            lambda d: d["events"][0]["pyramid"].__setitem__("4", []),
            "event 1: pyramid.4: the pyramid has levels 1, 2 and 3",
        ),
        (
            lambda d: d["headers"].__setitem__("date", "01/05/2024"),
            "headers.date: expected a date as YYYY-MM-DD",
        ),
        (
            lambda d: d["headers"].__setitem__("players", ["Ann"]),
            "headers.players: 1 player given; this game seats 2",
        ),
        (lambda d: d["headers"].__delitem__("players"), "headers.players: missing field"),
        (lambda d: d["headers"].__setitem__("round", 3), "headers.round: expected text, got 3"),
        (
            lambda d: d["headers"].__setitem__("tags", {"a": 1}),
            "headers.tags.a: expected text, got 1",
        ),
        (lambda d: d.__setitem__("format", "pgn"), "format: expected 'tablelog-game'"),
        (lambda d: d.__setitem__("version", 2), "version: 2 is out of range (1 to 1)"),
        (lambda d: d.__setitem__("kind", "chess"), "kind: unknown game kind 'chess'"),
        (lambda d: d.__setitem__("id", "a b"), "id: a game id is"),
        (lambda d: d.__setitem__("colour", "red"), "colour: unknown field"),
    ],
)
def test_a_malformed_file_is_refused_naming_file_event_and_field(tmp_path, change, expected):
    doc = document()
    change(doc)
    path = write(tmp_path, "bad.json", doc)
    with pytest.raises(ImportRejected) as err:
        load_file(path)
    assert str(err.value).startswith(f"{path}: ")
    assert expected in str(err.value)


def test_an_illegal_event_is_refused_with_the_rule_and_page(store, tmp_path):
    doc = document()
    doc["events"][7] = dict(doc["events"][0])
    (game,) = load_file(write(tmp_path, "g.json", doc))
    with pytest.raises(ImportRejected) as err:
        store.import_game(game)
    located = err.value.located(source="g.json")
    assert str(located).startswith("g.json: event 8: ")
    assert "(p." in str(located)


def test_bad_json_is_refused_with_line_and_column(tmp_path):
    path = write(tmp_path, "bad.json", '{\n  "format": "tablelog-game",\n  "version": 1,,\n}')
    with pytest.raises(ImportRejected, match=rf"^{path}:3:16: invalid JSON"):
        load_file(path)


def test_unreadable_files_are_refused_by_name(tmp_path):
    with pytest.raises(ImportRejected, match="missing.json: cannot read the file"):
        load_file(tmp_path / "missing.json")
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"x": "caf\xe9"}')
    with pytest.raises(ImportRejected, match=r"latin1.json:1:11: not UTF-8 text \(byte 11, 0xe9\)"):
        load_file(path)
    path.write_bytes(
        '[Game "Splendor Duel"]\n[Place "Lyon"]\n[Player1 "\u00c9lo\u00efse"] {Z'.encode()
        + b"\xfc}"
    )
    with pytest.raises(ImportRejected, match=r"latin1.json:3:22: not UTF-8 text"):
        load_file(path)  # the column counts the characters before it on its line


def test_a_bad_game_in_a_list_file_is_numbered(tmp_path):
    bad = document(2)
    bad["headers"]["date"] = "someday"
    path = write(tmp_path, "two.json", [document(1), bad])
    with pytest.raises(ImportRejected, match=r": game 2: headers\.date"):
        load_file(path)


# --- text notation ----------------------------------------------------------------------------


def _notation_available() -> bool:
    try:
        from engine.splendor_duel.notation import parse_game, write_game  # noqa: F401
    except ImportError:
        return False
    return True


def test_notation_files_go_through_the_notation_parser(store, tmp_path):
    if not _notation_available():
        path = write(tmp_path, "g.tl", '[Players "Ann" "Bo"]\n')
        with pytest.raises(ImportRejected, match="g.tl: notation import is not available"):
            load_file(path)
        return
    from engine.splendor_duel.notation import write_game

    events = list(simulated(3))
    text = write_game({"players": ["Ann", "Bo"], "date": "2024-05-01"}, events, None)
    (game,) = load_file(write(tmp_path, "g.tl", text))
    result = store.import_game(game)
    assert [e.event for e in store.events(result.game_id)] == events
    # Text starting with "[" is notation even without the suffix.
    (again,) = load_file(write(tmp_path, "game.txt", text))
    assert again.events == game.events
    broken = text.replace("\n", "\n%%%\n", 12)
    with pytest.raises(ImportRejected, match=r"g2\.tl:\d+:\d+: "):
        load_file(write(tmp_path, "g2.tl", broken))
