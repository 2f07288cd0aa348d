"""The import pipeline: checking processes, batches that mix new, repeated, conflicting
and refused games, the JSON hand-over of events to SQLite, and the fallback when a batch
meets something unexpected.  Real files, real processes."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import HERE, record, simulated
from pooled_child import pooled_records
from pooled_child import summary as pooled_summary
from test_contract import illegal_take

from engine.games import game_for_notation, get_game
from engine.splendor_duel import GAME
from engine.splendor_duel import events as ev
from recorder import EventStore, GameImport, ImportRejected, ImportResult, pipeline, prepare
from recorder.io import export_json, import_files, load_file

CLOCK = "2024-05-01T20:15:03.123Z"
TABLES = {
    "games": "SELECT * FROM games ORDER BY id",
    # Each event with its type's name: types are numbered as a writer first meets them.
    "events": "SELECT e.game_no, e.sequence, e.event_id, t.name, e.payload, e.payload_version,"
    " e.meta, e.recorded_at, e.hash, e.text FROM events AS e JOIN games AS g ON g.no = e.game_no"
    " LEFT JOIN event_types AS t ON t.kind = g.kind AND t.code = e.type"
    " ORDER BY e.game_no, e.sequence",
    "snapshots": "SELECT * FROM snapshots ORDER BY game_no, step",
    "game_summaries": "SELECT * FROM game_summaries ORDER BY game_id",
    "game_players": "SELECT * FROM game_players ORDER BY game_id, seat",
}


def open_at(path: Path) -> EventStore:
    return EventStore.open(path, clock=lambda: CLOCK)


def dump(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        return {name: conn.execute(sql).fetchall() for name, sql in TABLES.items()}
    finally:
        conn.close()


def payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulated(seed)]


def summary(result: ImportResult | ImportRejected) -> tuple:
    if isinstance(result, ImportRejected):
        return ("rejected", str(result))
    return ("created" if result.created else "stored", result.game_id, result.events)


# --- processes store exactly what one process stores ------------------------------------


def test_checking_processes_store_exactly_what_one_process_stores(tmp_path):
    """Forked (from an interpreter where no other thread runs) and spawned (here, while a
    thread waits) checking processes store what one process stores."""
    records = pooled_records()
    with open_at(tmp_path / "one.db") as store:
        alone = [pooled_summary(r) for r in store.import_games(records, batch_size=5)]
    assert alone[11][0] == "rejected" and alone[11][2] == 31
    ran = subprocess.run(
        [sys.executable, str(HERE / "pooled_child.py"), str(tmp_path / "forked.db")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    forked = json.loads(ran.stdout)
    assert forked == {"summaries": alone, "seen": [5, 10, 15, 20, 24]}
    assert dump(tmp_path / "forked.db") == dump(tmp_path / "one.db")

    stop = threading.Event()
    waiting = threading.Thread(target=stop.wait, daemon=True)
    waiting.start()
    try:
        assert not pipeline.fork_is_safe()
        with open_at(tmp_path / "spawned.db") as store:
            seen: list[int] = []
            spawned = store.import_games(records, batch_size=5, workers=2, progress=seen.append)
    finally:
        stop.set()
        waiting.join()
    assert [pooled_summary(r) for r in spawned] == alone
    assert seen == [5, 10, 15, 20, 24]
    assert dump(tmp_path / "spawned.db") == dump(tmp_path / "one.db")


# --- one batch, every kind of game --------------------------------------------------------


def test_a_batch_mixes_new_repeated_conflicting_and_refused_games(store, backend):
    setup = payloads(6)[0]
    take = illegal_take(GAME.replay([ev.event_from_dict(setup)]))
    with_ids = GameImport(
        headers={"players": ["Eve", "Fay"]},
        events=payloads(6)[:20],
        event_ids=[f"live-{i}" for i in range(20)],
    )
    reused_id = GameImport(
        headers={"players": ["Gus", "Hal"]},
        events=payloads(7)[:3],
        event_ids=["own-1", "live-5", "own-3"],
    )
    flagged = GameImport(
        headers={"players": ["Ann", "Bo"]},
        events=[setup, take],
        meta=[{"comment": "set up"}, {"played_illegally": True, "comment": "nobody saw"}],
    )
    illegal = record(8)
    illegal.events[12] = illegal.events[0]
    batch = [
        record(1),
        record(2),
        record(1),  # the same content again: already stored (earlier in this batch)
        replace(record(3), game_id="club-1"),
        replace(record(4), game_id="club-1"),  # the same id, other content
        illegal,
        with_ids,
        reused_id,  # an id of the game before
        flagged,
    ]
    results = store.import_games(batch)
    kinds = [summary(r)[0] for r in results]
    assert kinds == [
        "created",
        "created",
        "stored",
        "created",
        "rejected",
        "rejected",
        "created",
        "rejected",
        "created",
    ]
    assert results[2].game_id == results[0].game_id
    assert "club-1 is already stored with different content" in str(results[4])
    assert results[5].event_number == 13 and results[5].violations
    assert results[7].event_number == 2 and results[7].field == "event_id"
    assert "'live-5' is already stored" in str(results[7])
    assert [seq for seq, _ in results[8].flagged] == [2]
    # What was refused left nothing; what was stored is whole.
    assert store.listing.count() == 5
    assert backend.raw("SELECT count(*) FROM events WHERE event_id LIKE 'own-%'") == [(0,)]
    assert len(store.events("club-1")) == len(simulated(3))
    stored_ids = [s.event_id for s in store.events(results[6].game_id)]
    assert stored_ids == [f"live-{i}" for i in range(20)]
    meta = store.events(results[8].game_id)[1].meta
    assert meta["comment"] == "nobody saw" and meta["violations"][0]["code"]
    assert store.game(results[8].game_id).flagged_count == 1
    # Importing the whole batch again changes nothing and says so.
    again = store.import_games(batch)
    assert [summary(r)[0] for r in again] == [
        "stored",
        "stored",
        "stored",
        "stored",
        "rejected",
        "rejected",
        "stored",
        "rejected",
        "stored",
    ]


def test_meta_text_reaches_the_database_exactly(store, backend):
    comment = 'quote " backslash \\ tab \t newline \n line-sep \u2028 é 😀 </script>'
    events = payloads(9)[:6]
    meta = [None, {"comment": comment, "annotations": ["!?", "\\n"]}, None, None, None, None]
    result = store.import_game(
        GameImport(headers={"players": ["Ann", "Bo"]}, events=events, meta=meta)
    )
    (stored,) = backend.raw(
        "SELECT meta FROM events WHERE game_no = (SELECT no FROM games WHERE id = ?)"
        " AND sequence = 2",
        (result.game_id,),
    )
    assert stored[0] == prepare.dumps_sorted({"annotations": ["!?", "\\n"], "comment": comment})
    assert [s.payload for s in store.events(result.game_id)] == events
    exported = export_json(store, result.game_id)
    assert json.loads(exported)["events"][1]["meta"]["comment"] == comment


def test_payloads_reach_the_database_exactly(store, backend):
    result = store.import_game(record(10))
    stored = backend.raw(
        "SELECT type, payload, event_id FROM event_log WHERE game_id = ? ORDER BY sequence",
        (result.game_id,),
    )
    expected = [
        (p["type"], json.dumps(p, separators=(",", ":")), f"{result.game_id}:{i}")
        for i, p in enumerate(payloads(10), start=1)
    ]
    assert stored == expected


# --- the fallback ---------------------------------------------------------------------------


@pytest.mark.backends("sqlite")  # PostgreSQL keeps its foreign keys whoever connects
def test_an_unexpected_refusal_in_a_batch_costs_only_that_game(store, backend):
    # A refusal the store does not foresee (a trigger of the file's own refuses one game):
    # the batch's insert meets it, so the batch is written again game by game, and only
    # that game is refused.
    backend.raw(
        "CREATE TRIGGER refuse_orphan BEFORE INSERT ON games WHEN NEW.id = 'orphan'"
        " BEGIN SELECT RAISE(ABORT, 'not this one'); END"
    )
    batch = [record(11), replace(record(12), game_id="orphan"), record(13)]
    results = store.import_games(batch)
    assert [summary(r)[0] for r in results] == ["created", "rejected", "created"]
    assert "game orphan cannot be stored" in str(results[1])
    assert backend.raw("SELECT count(*) FROM games WHERE id = 'orphan'") == [(0,)]
    assert len(store.events(results[2].game_id)) == len(simulated(13))
    assert backend.raw("SELECT no FROM games ORDER BY no") == [(1,), (2,)]


@pytest.mark.backends("sqlite")  # PostgreSQL keeps its foreign keys whoever connects
def test_a_new_game_never_takes_the_number_of_rows_left_behind(store, backend):
    # An event and a snapshot left behind under a game number that has no game row
    # (written with foreign keys off, as a SQLite shell would): new games are numbered
    # after them, so the rows are nobody's but stay where they are.
    backend.raw(
        "INSERT INTO events (game_no, sequence, payload, payload_version, recorded_at, hash,"
        " text) VALUES (7, 1,"
        """ '{"type":"player_resigned","player":0}', 1, 0, zeroblob(32), 'resign by 1')"""
    )
    backend.raw("INSERT INTO snapshots (game_no, step, position) VALUES (9, 1, x'00')")
    results = store.import_games([record(11), record(12)])
    assert [summary(r)[0] for r in results] == ["created", "created"]
    assert backend.raw("SELECT no FROM games ORDER BY no") == [(10,), (11,)]
    assert backend.raw("SELECT count(*) FROM events WHERE game_no = 7") == [(1,)]


# --- files ----------------------------------------------------------------------------------


def game_file(folder: Path, name: str, seed: int, **headers: str) -> Path:
    doc = {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {"players": ["Ann", "Bo"], **headers},
        "events": payloads(seed),
    }
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path: Path) -> list[Path]:
    """Sixteen one-game files, a file of three games, a bad file, a missing one."""
    files = tmp_path / "files"
    files.mkdir()
    paths = [game_file(files, f"g{i:02d}.json", 20 + i, date="2024-06-01") for i in range(16)]
    trio = [json.loads(game_file(files, "t.json", 40 + i).read_text()) for i in range(3)]
    trio[1]["events"][5] = trio[1]["events"][0]  # legal JSON, illegal move: game 2 only
    (files / "three.json").write_text(json.dumps(trio), encoding="utf-8")
    (files / "t.json").unlink()
    (files / "broken.json").write_text('{"format": "tablelog-game", "version": 1,')
    paths[5:5] = [files / "three.json", files / "broken.json", files / "missing.json"]
    fixture = HERE / "fixtures" / "v1_game.json"
    return [*paths, fixture]


def test_files_checked_in_processes_import_as_in_one_process(tmp_path, folder):
    with open_at(tmp_path / "one.db") as store:
        alone = [(s, g, summary(r)) for s, g, r in import_files(store, folder, jobs=1)]
    with open_at(tmp_path / "many.db") as store:
        pooled = [(s, g, summary(r)) for s, g, r in import_files(store, folder, jobs=2)]
    assert pooled == alone
    assert dump(tmp_path / "many.db") == dump(tmp_path / "one.db")
    by_place = {(Path(s).name, g): r for s, g, r in pooled}
    assert len(pooled) == 16 + 3 + 2 + 1
    assert by_place[("three.json", 1)][0] == by_place[("three.json", 3)][0] == "created"
    assert by_place[("three.json", 2)][0] == "rejected"
    assert by_place[("three.json", 2)][1].startswith(f"{folder[5]}: game 2: event 6: ")
    assert "(p." in by_place[("three.json", 2)][1]
    assert by_place[("broken.json", None)][1].startswith(f"{folder[6]}:1:")
    assert "cannot read the file" in by_place[("missing.json", None)][1]
    # Again: every game is already stored, and the bad files are still refused.
    with open_at(tmp_path / "many.db") as store:
        again = [summary(r)[0] for _, _, r in import_files(store, folder, jobs=2)]
    assert again.count("stored") == 16 + 2 + 1 and again.count("rejected") == 3


def test_a_loaded_file_keeps_the_parsed_events(tmp_path):
    (game,) = load_file(game_file(tmp_path, "g.json", 3))
    assert game.parsed == list(simulated(3))
    assert game.events == payloads(3)


@pytest.mark.parametrize(
    "path", ["fixtures/games/points.tl", "fixtures/splendor/games/three-players-tie-break.tl"]
)
def test_a_notation_file_is_folded_once_by_its_import(tmp_path, rules_calls, path):
    """import reads and folds a notation file once: the store takes each event's text
    and the snapshots from the fold the reading made, so each event is checked and
    applied once, and stores what folding the game's events again stores."""
    source = HERE.parents[1] / path
    counted = rules_calls(game_for_notation(source.read_text(encoding="utf-8")).kind)
    with open_at(tmp_path / "read.db") as store:
        [(_, _, result)] = import_files(store, [source])
    assert isinstance(result, ImportResult)
    assert counted == {"check": result.events, "apply": result.events}
    (game,) = load_file(source)
    assert game.folded is not None
    with open_at(tmp_path / "again.db") as store:
        store.import_game(replace(game, folded=None))
    assert dump(tmp_path / "read.db") == dump(tmp_path / "again.db")


def test_a_notation_file_with_corrections_stores_what_a_fold_of_its_events_stores(tmp_path):
    """A move played illegally and an undo: the import stores from the reading's fold
    what it stores from a fold of the same events."""
    points = (HERE.parents[1] / "fixtures/games/points.tl").read_text(encoding="utf-8")
    line = next(x for x in points.split("\n") if x.startswith("12. "))
    undone = points.replace(line, f"{line} undo {line.split(': ', 1)[1]}")
    (tmp_path / "undone.tl").write_text(undone, encoding="utf-8")
    for source in (HERE.parents[1] / "fixtures/games/dispute.tl", tmp_path / "undone.tl"):
        (game,) = load_file(source)
        assert game.folded is not None
        with open_at(tmp_path / "read.db") as store:
            [(_, _, result)] = import_files(store, [source])
            assert isinstance(result, ImportResult)
        with open_at(tmp_path / "again.db") as store:
            store.import_game(replace(game, folded=None))
        assert dump(tmp_path / "read.db") == dump(tmp_path / "again.db")
        for path in tmp_path.glob("*.db*"):
            path.unlink()


# --- ids derived from content stay what they were -----------------------------------------


def reference_digest(kind: str, headers: dict, events: list[dict]) -> str:
    """The documented content hash, written out plainly."""
    text = "tablelog-game 1\n" + kind + "\n"
    text += json.dumps(headers, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    text += "\n"
    for payload in events:
        text += json.dumps(payload, separators=(",", ":"), ensure_ascii=False) + "\t\t\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_derived_game_id_is_the_documented_content_hash(store, seed):
    headers = {"players": ["Ann", "Bo"], "date": "2024-05-01", "place": "Lyon"}
    result = store.import_game(GameImport(headers=headers, events=payloads(seed)))
    assert result.game_id == reference_digest("splendor-duel", headers, payloads(seed))[:12]
    empty = prepare.prepare_game(GameImport(headers=headers, events=[]))
    assert empty.game_id == reference_digest("splendor-duel", headers, [])[:12]


# --- the writer thread ------------------------------------------------------------------------


def writer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "tablelog-import-writer"]


def test_the_writer_thread_prompts_thread_switches_only_while_it_runs(store):
    before = sys.getswitchinterval()
    during: list[float] = []
    store.import_games(
        [record(seed) for seed in range(1, 5)],
        batch_size=2,
        progress=lambda _: during.append(sys.getswitchinterval()),
    )
    assert during == pytest.approx([pipeline.IMPORT_SWITCH_INTERVAL] * 2)
    assert sys.getswitchinterval() == before
    assert not writer_threads()


@pytest.mark.backends("sqlite")  # SQLite's write lock (PostgreSQL's faults: test_postgres.py)
def test_a_failed_write_reaches_the_caller_and_writes_nothing_more(store, backend):
    store.db.execute("PRAGMA busy_timeout = 50")
    blocker = sqlite3.connect(backend.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            store.import_games([record(seed) for seed in range(1, 7)], batch_size=2)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert not writer_threads()
    assert backend.raw("SELECT count(*) FROM games") == [(0,)]
    assert store.import_games([record(1)])[0].created


def failing_prepare(task: list[GameImport]) -> list:
    if task[0].headers.get("round") == "boom":
        raise RuntimeError("checking failed")
    return pipeline.prepare_chunk(task)


def test_a_failure_while_checking_ends_the_writer_after_what_was_handed_over(store):
    tasks = [[record(1)], [record(2)], [replace(record(3), headers={"round": "boom"})]]
    seen = []
    with pytest.raises(RuntimeError, match="checking failed"):
        for batch in store.import_stream(iter(tasks), failing_prepare, batch_size=1):
            seen.extend(summary(r)[0] for _, r in batch)
    assert not writer_threads()
    assert store.listing.count() == 2  # both batches handed over before the failure
    assert seen in ([], ["created"], ["created", "created"])


def test_leaving_the_import_early_stops_the_writer(store, folder):
    results = import_files(store, folder, batch_size=2)
    first = next(results)
    assert summary(first[2])[0] == "created"
    results.close()
    assert not writer_threads()
    assert store.listing.count() >= 2


def test_groups_never_straddle_a_batch():
    chunks = [
        [(i, None) for i in range(start, start + n)] for start, n in ((0, 25), (25, 1), (26, 60))
    ]
    sizes = [len(g) for g in pipeline.groups(iter(chunks), 40)]
    assert sizes == [32, 8, 32, 8, 6]
    tags = [tag for g in pipeline.groups(iter(chunks), 40) for tag, _ in g]
    assert tags == list(range(86))  # every game once, in order
    assert [len(g) for g in pipeline.groups(iter(chunks), 1)] == [1] * 86


def test_the_caller_may_use_the_store_between_batches(store, monkeypatch):
    """The writer thread writes a batch group by group, its transaction open while the
    next groups are checked; yet each batch is yielded committed, with the writer outside
    any transaction, so the caller's own use of the store neither waits for the next
    batch nor sees an uncommitted one (a deadlock would leave the thread running)."""
    monkeypatch.setattr(pipeline, "WRITE_GROUP", 1)  # two groups a batch
    tasks = [[record(seed)] for seed in range(1, 8)]
    seen: list[tuple[int, int, str]] = []
    failed: list[BaseException] = []

    def consume() -> None:
        try:
            yielded = 0
            for batch in store.import_stream(iter(tasks), pipeline.prepare_chunk, batch_size=2):
                yielded += len(batch)
                time.sleep(0.2)  # time for a writer that would go on to take the lock
                last = batch[-1][1]
                assert isinstance(last, ImportResult)
                seen.append((yielded, store.listing.count(), store.game(last.game_id).status))
        except BaseException as err:
            failed.append(err)

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the import and its caller wait for one another"
    assert not failed, failed
    assert seen == [(2, 2, "finished"), (4, 4, "finished"), (6, 6, "finished"), (7, 7, "finished")]
    assert not writer_threads()


def test_games_written_together_keep_their_own_events_and_numbers(store, backend):
    lengths = [0, len(simulated(14)), 0, 7, 1, len(simulated(15)), 0, 33, 2]
    seeds = [14, 14, 16, 16, 17, 15, 18, 18, 19]
    records = [
        GameImport(
            headers={"players": ["Ann", "Bo"], "round": str(i)},
            events=payloads(seed)[:n],
            meta=[{"comment": "a note"}] if i == 4 else [],
        )
        for i, (seed, n) in enumerate(zip(seeds, lengths, strict=True))
    ]
    results = store.import_games(records, batch_size=len(records))
    assert all(r.created for r in results)
    for result, seed, n in zip(results, seeds, lengths, strict=True):
        rows = backend.raw(
            "SELECT sequence, event_id, type, payload FROM event_log WHERE game_id = ?"
            " ORDER BY sequence",
            (result.game_id,),
        )
        assert rows == [
            (i, f"{result.game_id}:{i}", p["type"], json.dumps(p, separators=(",", ":")))
            for i, p in enumerate(payloads(seed)[:n], start=1)
        ]
        assert store.game(result.game_id).event_count == n
    assert store.events(results[4].game_id)[0].meta == {"comment": "a note"}


def test_every_game_has_its_result_when_a_batch_meets_an_event_type_not_yet_numbered(tmp_path):
    """A batch that meets a game kind whose event types the store has not numbered yet is
    cut there (the numbering commits first): every game still has its result, in order,
    however the writing thread and this one take turns."""
    classic = get_game("splendor")
    events = classic.random_game(random.Random(500), ["Ann", "Bo", "Cy"])
    last = GameImport(
        kind="splendor",
        headers={"players": ["Ann", "Bo", "Cy"]},
        events=[classic.event_to_dict(e) for e in events],
    )
    # More games than a group holds, then one of a kind the store has not met: the
    # batch is cut before the group that holds it.
    mixed = [record(seed) for seed in range(1, pipeline.WRITE_GROUP + 5)] + [last]
    for batch_size in (pipeline.DEFAULT_BATCH, 2 * pipeline.WRITE_GROUP):  # each a fresh store
        path = tmp_path / f"mixed-{batch_size}.db"
        with open_at(path) as store:
            results = store.import_games(mixed, batch_size=batch_size)
        assert len(results) == len(mixed)
        assert all(isinstance(r, ImportResult) and r.created for r in results), results
        conn = sqlite3.connect(path)
        stored = {gid for (gid,) in conn.execute("SELECT id FROM games")}
        conn.close()
        assert [r.game_id for r in results] == [  # type: ignore[union-attr]
            prepare.prepare_game(r).game_id for r in mixed
        ]
        assert set(stored) == {r.game_id for r in results}  # type: ignore[union-attr]
