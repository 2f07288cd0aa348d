"""Each stored event carries its canonical text, and a row carries nothing twice, on both
stores.

The text is what the game's notation writes of the event: ``rules.move_text`` in the
position before it (a decision, an observation, the setup), and for a correction what a
written game says (``undo``, ``undo to K``).  It is derived data, written where the store
folds the events anyway (an import, an append), outside the chain, and ``tablelog
verify`` checks it against a fresh fold.  A derived event id (``<game>:<sequence>``), the
type (the payload's) and a time the event before already has are not stored: they are
read back as they were."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from conftest import SqliteBackend, record, simulated, without_list_indexes
from test_contract import illegal_take, logged_game

from engine.corrections import Retraction, undo_text
from engine.fold import fold
from engine.games import get_game
from recorder import GameImport, open_store
from recorder.io import game_import_from_events, load_file
from recorder.sqlite import bytes_per_event

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "games").glob("*.tl")) + sorted(
    (ROOT / "fixtures" / "splendor" / "games").glob("*.tl")
)


def expected_texts(
    kind: str, names: Sequence[str], events: Sequence[Any], marks: Sequence[bool]
) -> list[str]:
    """The text of each event as a replay tells it (web/timeline.py's way, written out
    here again): ``move_text`` in the position before it, a correction's ``undo`` text
    after the events before it, the game folded again after it."""
    rules = get_game(kind)
    state = rules.new_state(names)
    out = []
    for i, event in enumerate(events):
        if type(event) is Retraction:
            out.append(undo_text(rules, events[:i], event))
            state = fold(rules, events[: i + 1], names, [*marks[:i], False]).head
            continue
        out.append(rules.move_text(state, event))
        if marks[i]:
            rules.force(state, event)
        else:
            rules.play(state, event)
    return out


def check_texts(store: Any, backend: Any, game_id: str) -> list[str]:
    """The game's stored texts (the column, the events read back, the event_log view)
    are those a fresh fold gives; returns them."""
    row = store.game(game_id)
    stored = store.events(game_id)
    want = expected_texts(
        row.kind,
        row.players,
        [e.event for e in stored],
        [bool(e.meta.get("played_illegally")) for e in stored],
    )
    column = backend.raw(
        "SELECT text FROM events WHERE game_no = (SELECT no FROM games WHERE id = ?)"
        " ORDER BY sequence",
        (game_id,),
    )
    assert [t for (t,) in column] == want
    assert [e.text for e in stored] == want
    log = backend.raw(
        "SELECT type, text FROM event_log WHERE game_id = ? ORDER BY sequence", (game_id,)
    )
    assert log == [(e.payload["type"], t) for e, t in zip(stored, want, strict=True)]
    return want


def random_imports(n: int) -> list[GameImport]:
    """Random games of both kinds: Splendor Duel's, and classic Splendor's at 2, 3 and 4
    players."""
    duel, classic = get_game("splendor-duel"), get_game("splendor")
    out = []
    for seed in range(n):
        out.append(record(100 + seed, date=f"2024-07-{1 + seed:02d}"))
        names = ["Ann", "Bo", "Cy", "Di"][: 2 + seed % 3]
        events = classic.random_game(random.Random(seed), names)
        out.append(game_import_from_events(events, {"players": names}, kind="splendor"))
    assert duel.kind == "splendor-duel"
    return out


# --- the text ---------------------------------------------------------------------------------


def test_fixture_games_store_the_texts_their_notation_writes(recorder, backend):
    kinds = set()
    for path in FIXTURES:
        for game in load_file(path):
            gid = recorder.import_game(game).game_id
            texts = check_texts(recorder, backend, gid)
            kinds.add(recorder.game(gid).kind)
            # The game's own notation writes each decision with the same words.
            kind, headers, stored = recorder.stored_content(gid)
            written = get_game(kind).write_game(
                headers, [e.event for e in stored], [e.meta or None for e in stored]
            )
            assert all(t in written for t in texts[1:]), path.name
    assert kinds == {"splendor-duel", "splendor"}


def test_random_games_of_both_kinds_store_their_texts_batched_or_one_by_one(recorder, backend):
    games = random_imports(6)
    batched = recorder.import_games(games[:8])
    single = [recorder.import_game(g) for g in games[8:]]
    for result in [*batched, *single]:
        assert result.created  # type: ignore[union-attr]
        texts = check_texts(recorder, backend, result.game_id)  # type: ignore[union-attr]
        assert texts[0].startswith("setup ")


def test_a_game_logged_live_stores_the_texts_of_its_moves_corrections_and_flags(recorder, backend):
    events, meta = logged_game(3)
    gid = recorder.create_game({"players": ["Ann", "Bo"]}, game_id="live").id
    # One at a time, then the rest in two batches (the second holding a correction).
    for i in range(10):
        recorder.append(gid, i, [events[i]], meta=[meta[i]])
    recorder.append(gid, 10, events[10:14], meta=meta[10:14])
    n = 14
    while recorder.state_at(gid).awaiting != "action":  # (a take is the player's to make)
        recorder.append(gid, n, [events[n]])
        n += 1
    flagged = illegal_take(recorder.state_at(gid))
    recorder.append(gid, n, [flagged], meta=[{"played_illegally": True}])
    recorder.append(gid, n + 1, [{"type": "retraction", "back_to": n}, events[n]])
    texts = check_texts(recorder, backend, gid)
    assert texts[6] == "undo to 5"  # (not where a plain undo would go back)
    assert texts[n + 1] == "undo"
    assert texts[n].startswith("take ")
    assert recorder.verification.verify([gid]) == []
    # Imported whole, the same game stores the same texts.
    again = recorder.import_game(
        GameImport(headers={"players": ["Ann", "Bo"]}, events=events, meta=meta)
    )
    assert check_texts(recorder, backend, again.game_id) == expected_texts(
        "splendor-duel",
        ["Ann", "Bo"],
        [e.event for e in recorder.events(again.game_id)],
        [False] * len(events),
    )


def test_an_undo_to_a_step_is_stored_as_the_notation_writes_it(recorder, backend):
    gid = recorder.create_game({"players": ["Ann", "Bo"]}, game_id="back").id
    payloads = [get_game("splendor-duel").event_to_dict(e) for e in simulated(5)[:12]]
    recorder.append(gid, 0, payloads)
    recorder.append(gid, 12, [{"type": "retraction", "back_to": 4}])
    texts = check_texts(recorder, backend, gid)
    assert texts[-1] == "undo to 4"


def test_verify_finds_an_edited_text(recorder, backend):
    gid = recorder.import_game(record(8)).game_id
    other = recorder.import_game(random_imports(1)[1]).game_id
    assert recorder.verification.verify() == []
    backend.tamper(
        f"UPDATE events SET text = 'resign'"
        f" WHERE game_no = (SELECT no FROM games WHERE id = '{gid}') AND sequence = 5",
        f"UPDATE events SET text = text || ' '"
        f" WHERE game_no = (SELECT no FROM games WHERE id = '{other}') AND sequence = 1",
    )
    findings = recorder.verification.verify()
    assert {(f.game, f.step, f.check) for f in findings} == {(gid, 5, "text"), (other, 1, "text")}
    assert "'resign'" in str(recorder.verification.verify([gid])[0])
    # The text is derived data, outside the chain: the chain still verifies.
    assert recorder.verification.chain_findings(gid) == []


# --- no repeats -------------------------------------------------------------------------------


def test_derived_ids_the_type_and_shared_times_are_read_back_not_stored(backend):
    times = (f"2024-05-01T20:15:{s:02d}.{s * 7:03d}Z" for s in count(3))
    now = [next(times)]
    with open_store(backend.spec, clock=lambda: now[0]) as store:
        gid = store.import_game(record(2)).game_id
        live = store.create_game({"players": ["Eve", "Fay"]}, game_id="live").id
        p = [get_game("splendor-duel").event_to_dict(e) for e in simulated(4)]
        marks = []
        for start, size, ids in ((0, 3, None), (3, 1, ["mine-3"]), (4, 2, None)):
            now[0] = next(times)
            marks.append(now[0])
            store.append(live, start, p[start : start + size], event_ids=ids)
        events = store.events(live)
        assert [e.event_id for e in events] == ["live:1", "live:2", "live:3", "mine-3"] + [
            "live:5",
            "live:6",
        ]
        assert [e.recorded_at for e in events] == [marks[0]] * 3 + [marks[1]] + [marks[2]] * 2
        assert [e.type for e in events] == [x["type"] for x in p[:6]]
        imported = store.events(gid)
        assert {e.recorded_at for e in imported} == {"2024-05-01T20:15:03.021Z"}
        assert [e.event_id for e in imported] == [f"{gid}:{i}" for i in range(1, len(imported) + 1)]
        assert store.verification.verify() == []
    # What is stored: an event id only where a writer gave one, a time only where it
    # changes (as milliseconds), each event's text, the type as its number and the rest
    # of the payload (schema 9).
    raw = backend.raw(
        "SELECT e.sequence, e.event_id, e.recorded_at, t.name, e.payload FROM events AS e"
        " JOIN games AS g ON g.no = e.game_no"
        " JOIN event_types AS t ON t.kind = g.kind AND t.code = e.type"
        " WHERE g.id = 'live' ORDER BY e.sequence"
    )
    assert [(r[3], json.loads(r[4])) for r in raw] == [
        (x["type"], {k: v for k, v in x.items() if k != "type"}) for x in p[:6]
    ]
    first = 1714594503021
    assert [r[1] for r in raw] == [None, None, None, "mine-3", None, None]
    assert [r[2] is not None for r in raw] == [True, False, False, True, True, False]
    assert all(isinstance(r[2], int) and r[2] > first for r in raw if r[2] is not None)
    game = "game_no = (SELECT no FROM games WHERE id = ?)"
    assert backend.raw(
        f"SELECT count(*) FROM events WHERE {game} AND recorded_at IS NOT NULL", (gid,)
    ) == [(1,)]
    assert backend.raw(f"SELECT min(recorded_at) FROM events WHERE {game}", (gid,)) == [(first,)]
    # The event_log view reads them back as the store does.
    log = backend.raw(
        "SELECT event_id, recorded_at FROM event_log WHERE game_id = 'live' ORDER BY sequence"
    )
    assert log == [(e.event_id, e.recorded_at) for e in events]


def test_an_idempotent_retry_by_given_ids_still_finds_its_events(recorder):
    live = recorder.create_game({"players": ["Eve", "Fay"]}, game_id="live").id
    p = [get_game("splendor-duel").event_to_dict(e) for e in simulated(6)]
    first = recorder.append(live, 0, p[:3], event_ids=["a", "b", "c"])
    again = recorder.append(live, 0, p[:3], event_ids=["a", "b", "c"])
    assert again.already_stored and again.event_ids == first.event_ids == ["a", "b", "c"]
    plain = recorder.append(live, 3, p[3:5])
    assert plain.event_ids == ["live:4", "live:5"]
    from recorder import EventIdConflict

    with pytest.raises(EventIdConflict):
        recorder.append(live, 5, [p[5]], event_ids=["b"])
    with pytest.raises(EventIdConflict):
        recorder.append(live, 0, [p[1], p[0], p[2]], event_ids=["a", "b", "c"])


@pytest.mark.backends("sqlite")
def test_a_stored_event_costs_what_it_carries(tmp_path):
    """50 random games in a real file, after VACUUM: every byte of the file (events,
    games, summaries, players, snapshots, indexes) over the events stored."""
    backend = SqliteBackend(tmp_path)
    with backend.open() as store:
        store.import_games([record(seed) for seed in range(50)])
    # (without the games list's indexes: each takes a page at least, which in a file of
    # 50 games weighs on each event three times what it does in one of thousands)
    per_event = bytes_per_event(without_list_indexes(backend.path))
    # 195 bytes an event before schema 8 (an id, the type and a time as text in every
    # row), 153 before schema 9 (the game's id in every key, the type's name in every
    # payload, a snapshot every 32 steps); the payload without its type (29 bytes on
    # average), the chain's hash (32) and the text (13) are most of what is left.  (A
    # file this small pays more for its tables' first pages than 2,000 games do: 116.)
    assert per_event <= 120, per_event
