"""Schema migrations on real files: a database written at schema version 1 is brought to
the current version with every row kept, and the append-only contract holds after."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import SqliteBackend, record, simulated

from engine.splendor_duel import events as ev
from recorder import EventIdConflict
from recorder import sqlite as sqlite_module
from recorder.migrations import MIGRATIONS, SCHEMA_VERSION

TABLES = (
    "SELECT * FROM games ORDER BY id",
    "SELECT * FROM events ORDER BY game_id, sequence",
    # Every column but the two player columns migration 3 replaces with game_players.
    "SELECT game_id, kind, date, status, winner, winner_name, condition, turns, to_move,"
    " event_count, flagged_count, last_activity FROM game_summaries ORDER BY game_id",
    "SELECT * FROM game_players ORDER BY game_id, seat",
)


def payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulated(seed)]


@pytest.fixture
def version_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SqliteBackend:
    """A file written by a tablelog whose last migration was the first: finished games,
    a game logged live with ids given by the writer, and one with a flagged event."""
    backend = SqliteBackend(tmp_path)
    monkeypatch.setattr(sqlite_module, "MIGRATIONS", MIGRATIONS[:1])
    monkeypatch.setattr(sqlite_module, "SCHEMA_VERSION", 1)
    with backend.open() as store:
        store.import_games([record(seed) for seed in (1, 2, 3)])
        live = store.create_game({"players": ["Eve", "Fay"]}, game_id="live")
        p = payloads(4)
        store.append(live.id, 0, p[:10], event_ids=[f"live-{i}" for i in range(10)])
        store.append(live.id, 10, p[10:12], meta=[{"comment": "hm"}, None])
    monkeypatch.undo()
    assert backend.raw("PRAGMA user_version") == [(1,)]
    return backend


def test_a_version_1_file_is_migrated_with_every_row_kept(version_1):
    before = [version_1.raw(sql) for sql in TABLES]
    with version_1.open() as store:
        assert store.schema_version == SCHEMA_VERSION == 5
        assert [version_1.raw(sql) for sql in TABLES] == before
        assert store.integrity_check() == "ok"
        assert store.count_games() == 4
        assert [e.event_id for e in store.events("live")][:10] == [f"live-{i}" for i in range(10)]
        assert store.state_at("live").turn == store.game("live").turns
    assert version_1.raw("SELECT version FROM schema_migrations ORDER BY version") == [
        (i,) for i in range(1, SCHEMA_VERSION + 1)
    ]
    # (seq, name, unique, origin, partial): the primary key, and the partial index of
    # given ids in place of a unique index of every id, and the partial index of setups
    # (migration 4) by which an import finds a game stored under another id.
    indexes = {row[1]: row[2:] for row in version_1.raw("PRAGMA index_list(events)")}
    assert indexes.pop("events_by_given_id") == (1, "c", 1)
    assert indexes.pop("events_setup") == (0, "c", 1)
    assert [origin for _, origin, _ in indexes.values()] == ["pk"]


def test_after_the_migration_the_contract_holds(version_1):
    with version_1.open() as store:
        gid = store.list_games(player="Ann")[0].id
    before = version_1.raw("SELECT * FROM events ORDER BY game_id, sequence")
    for sql in version_1.tamper_statements(gid):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            version_1.raw(sql)
    assert version_1.raw("SELECT * FROM events ORDER BY game_id, sequence") == before
    with version_1.open() as store:
        p = payloads(4)
        store.append("live", 12, p[12:14], event_ids=["live-12", "live-13"])
        with pytest.raises(EventIdConflict):
            store.append("live", 14, p[14:15], event_ids=["live-3"])
        assert store.game("live").event_count == 14
        assert store.import_game(record(5)).created


def test_an_event_id_is_either_given_and_unique_or_derived_from_its_place(store, backend):
    gid = store.import_game(record(1)).game_id
    live = store.create_game({"players": ["Eve", "Fay"]}, game_id="live").id
    store.append(live, 0, payloads(2)[:1], event_ids=["given-1"])
    insert = (
        "INSERT INTO events (game_id, sequence, event_id, type, payload, payload_version,"
        ' recorded_at) VALUES (?, 2, ?, \'player_resigned\', \'{"type":"player_resigned",'
        "\"player\":0}', 1, 'now')"
    )
    # A derived-looking id must be its own place's.
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        backend.raw(insert, (live, f"{gid}:2"))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        backend.raw(insert, (live, "live:3"))
    # A given id must be new, whatever the conflict clause.
    for verb in ("INSERT", "INSERT OR REPLACE", "INSERT OR IGNORE"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            backend.raw(insert.replace("INSERT", verb, 1), (live, "given-1"))
    backend.raw(insert, (live, "live:2"))
    assert [e.event_id for e in store.events(live)] == ["given-1", "live:2"]


def test_a_fresh_database_keeps_players_as_rows_for_any_number_of_seats(store, backend):
    columns = {row[1] for row in backend.raw("PRAGMA table_info(game_summaries)")}
    assert not {"player_0", "player_1"} & columns
    gid = store.create_game({"players": ["Eve", "Fay"]}, game_id="live").id
    assert backend.raw("SELECT seat, name FROM game_players WHERE game_id = ?", (gid,)) == [
        (0, "Eve"),
        (1, "Fay"),
    ]
    # The view joins however many seats game_players holds, in seat order.
    backend.raw("DELETE FROM game_players WHERE game_id = ?", (gid,))
    for seat, name in ((2, "Gus"), (0, "Eve"), (3, "Hal"), (1, "Fay")):
        backend.raw("INSERT INTO game_players VALUES (?, ?, ?)", (gid, seat, name))
    assert backend.raw("SELECT players FROM game_list WHERE id = ?", (gid,)) == [
        ("Eve vs Fay vs Gus vs Hal",)
    ]
    store.rebuild_projections()
    assert backend.raw("SELECT players FROM game_list WHERE id = ?", (gid,)) == [("Eve vs Fay",)]


def test_new_games_players_are_written_for_any_number_of_seats():
    from recorder import projections

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE game_players (game_id TEXT, seat INTEGER, name TEXT)")
    games = [["g1", "k", '["Ann","Bo","Cy"]'], ["g2", "k", '["Di","Ed"]']]
    conn.execute(projections.INSERT_PLAYERS, (json.dumps(games),))
    assert conn.execute("SELECT * FROM game_players ORDER BY game_id, seat").fetchall() == [
        ("g1", 0, "Ann"),
        ("g1", 1, "Bo"),
        ("g1", 2, "Cy"),
        ("g2", 0, "Di"),
        ("g2", 1, "Ed"),
    ]
