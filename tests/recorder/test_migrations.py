"""Schema migrations on real files: a database written at schema version 1 is brought to
the current version with every row kept, and the append-only contract holds after."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from conftest import PostgresBackend, SqliteBackend, record, simulated, without_list_indexes
from test_texts import check_texts

from engine.games import get_game
from engine.splendor_duel import events as ev
from recorder import EventIdConflict, EventStore, open_store, pg_schema
from recorder.io import game_import_from_events
from recorder.listing import FOLD_FUNCTION
from recorder.migrations import MIGRATIONS, SCHEMA_VERSION, split_sql
from recorder.projections import fold_name
from recorder.sqlite import bytes_per_event
from recorder.stored import unpack_position

TABLES = (
    "SELECT id, kind, players, date, place, tags, headers, status, created_at, last_activity"
    " FROM games ORDER BY id",
    # Each event as every schema reads it back (event_log: an event id derived from its
    # place where none was given, the type, the payload, the time as text).
    "SELECT l.game_id, l.sequence, l.event_id, l.type, l.payload, l.payload_version, e.meta,"
    " l.recorded_at FROM event_log AS l JOIN events AS e"
    " ON {event_of_l} AND e.sequence = l.sequence ORDER BY l.game_id, l.sequence",
    # Every column but the two player columns migration 3 replaces with game_players.
    "SELECT game_id, kind, date, status, winner, winner_name, condition, turns, to_move,"
    " event_count, flagged_count, last_activity FROM game_summaries ORDER BY game_id",
    "SELECT game_id, seat, name FROM game_players ORDER BY game_id, seat",
)

#: An event's row keyed by its game's id, as every schema has it: ``events AS e`` with
#: ``game_id`` (schema 9 keys it by the game's number).
EVENTS_BY_ID = "(SELECT g.id AS game_id, e.* FROM events AS e JOIN games AS g ON g.no = e.game_no)"


def read_tables(backend) -> list[list[tuple]]:
    """:data:`TABLES` as the backend's schema reads them (before or after schema 9)."""
    numbered = "game_no" in backend.columns("events")
    event_of_l = (
        "e.game_no = (SELECT no FROM games WHERE id = l.game_id)"
        if numbered
        else "e.game_id = l.game_id"
    )
    return [backend.raw(sql.replace("{event_of_l}", event_of_l)) for sql in TABLES]


#: What the chain adds (migration 6): each event's hash and each game's head.
CHAIN = (
    f"SELECT game_id, sequence, hash FROM {EVENTS_BY_ID} ORDER BY game_id, sequence",
    "SELECT id, head FROM games ORDER BY id",
)


def payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulated(seed)]


def write_at_version(path: Path, version: int, build: Callable[[EventStore], None]) -> Path:
    """A database file at schema ``version`` holding what ``build`` writes: ``build``
    runs on a store made by today's code (returned: the scratch file), and its rows are
    copied, column by column that the two schemas share, into a file made by the first
    ``version`` migrations, as the tablelog of that version would have written them."""
    scratch = path.with_name(f"scratch-{path.name}")
    with EventStore.open(scratch) as store:
        build(store)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.create_function(FOLD_FUNCTION, 1, fold_name, deterministic=True)
    conn.create_function("unpack_position", 1, unpack_position, deterministic=True)
    try:
        conn.execute("BEGIN")
        for number, description, script in MIGRATIONS[:version]:
            if callable(script):
                script(conn)
                continue
            for statement in split_sql(script):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, '2024-01-01T00:00:00.000Z')",
                (number, description),
            )
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("ATTACH DATABASE ? AS new", (str(scratch),))
        for table, order in (
            ("games", "id"),
            ("events", "game_id, sequence"),
            ("game_summaries", "game_id"),
            ("game_players", "game_id, seat"),
            ("snapshots", "game_id, step"),
            ("recorder_keys", "game_id"),
        ):
            old = [row[1] for row in conn.execute(f"PRAGMA main.table_info({table})")]
            if not old:
                continue
            new = {row[1] for row in conn.execute(f"PRAGMA new.table_info({table})")}
            keyed = {"game_id"} if table in ("events", "snapshots") else set()
            shared = [
                c for c in old if c in new or c in keyed or (table == "events" and c in OLD_EVENTS)
            ]
            columns = ", ".join(shared)
            if table == "events":
                # Today's rows as an earlier schema kept them: the game's id, the whole
                # payload and, before schema 8, every event id, the type, each time as
                # text (what the new file's event_log reads back).
                read_back = {"game_id", "payload"}
                if version < 8:
                    read_back |= set(OLD_EVENTS)
                picked = ", ".join(f"l.{c}" if c in read_back else f"e.{c}" for c in shared)
                source = (
                    "new.events AS e JOIN new.games AS g ON g.no = e.game_no"
                    " JOIN new.event_log AS l ON l.game_id = g.id AND l.sequence = e.sequence"
                )
                order = "l.game_id, e.sequence"
            elif table == "snapshots":
                # (positions as text: schema 9 keeps them packed)
                picked = ", ".join(
                    "g.id"
                    if c == "game_id"
                    else "unpack_position(s.position)"
                    if c == "position"
                    else f"s.{c}"
                    for c in shared
                )
                source = "new.snapshots AS s JOIN new.games AS g ON g.no = s.game_no"
                order = "g.id, s.step"
            else:
                picked, source = columns, f"new.{table}"
            conn.execute(
                f"INSERT INTO main.{table} ({columns}) SELECT {picked} FROM {source}"
                f" ORDER BY {order}"
            )
        if version < 3:
            for seat in (0, 1):
                conn.execute(
                    f"UPDATE game_summaries SET player_{seat} = (SELECT name FROM game_players"
                    f" AS p WHERE p.game_id = game_summaries.game_id AND p.seat = {seat})"
                )
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE new")
    finally:
        conn.close()
    return scratch


#: The events' columns that an earlier schema kept otherwise (read from event_log).
OLD_EVENTS = ("event_id", "type", "recorded_at")


def some_games(store: EventStore) -> None:
    """Finished games, a game logged live with ids given by the writer, one with a
    comment, and a game without events."""
    store.import_games([record(seed) for seed in (1, 2, 3)])
    live = store.create_game({"players": ["Eve", "Fay"]}, game_id="live")
    p = payloads(4)
    store.append(live.id, 0, p[:10], event_ids=[f"live-{i}" for i in range(10)])
    store.append(live.id, 10, p[10:12], meta=[{"comment": "hm"}, None])
    store.create_game({"players": ["Gil", "Hal"], "place": "Lyon"}, game_id="empty")


@pytest.fixture
def version_1(tmp_path: Path) -> SqliteBackend:
    """A file written by a tablelog whose last migration was the first."""
    backend = SqliteBackend(tmp_path)
    backend.path.parent.mkdir(parents=True, exist_ok=True)
    backend.scratch = write_at_version(backend.path, 1, some_games)  # type: ignore[attr-defined]
    assert backend.raw("PRAGMA user_version") == [(1,)]
    return backend


def test_a_version_1_file_is_migrated_with_every_row_kept(version_1):
    before = read_tables(version_1)
    with version_1.open() as store:
        assert store.schema_version == SCHEMA_VERSION == 12
        assert read_tables(version_1) == before
        assert store.integrity_check() == "ok"
        assert store.listing.count() == 5
        assert [e.event_id for e in store.events("live")][:10] == [f"live-{i}" for i in range(10)]
        assert store.state_at("live").turn == store.game("live").turns
    # The chain is computed for every stored event, as today's code computes it on writing.
    assert [version_1.raw(sql) for sql in CHAIN] == [raw(version_1.scratch, sql) for sql in CHAIN]
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


def raw(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    conn.create_function("unpack_position", 1, unpack_position, deterministic=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_a_version_5_file_keeps_every_row_and_gets_its_chain(tmp_path):
    backend = SqliteBackend(tmp_path)
    backend.path.parent.mkdir(parents=True, exist_ok=True)

    def build(store: EventStore) -> None:
        some_games(store)
        store.keys.issue("live")
        # A correction and a move played though illegal, with their meta.
        n = store.game("live").event_count
        store.append(
            "live", n, [{"type": "retraction", "back_to": n - 1}], meta=[{"comment": "oops"}]
        )

    scratch = write_at_version(backend.path, 5, build)
    assert backend.raw("PRAGMA user_version") == [(5,)]
    assert not [c for c in backend.raw("PRAGMA table_info(events)") if c[1] == "hash"]
    before = read_tables(backend) + [
        backend.raw("SELECT * FROM snapshots ORDER BY game_id, step"),
        backend.raw("SELECT * FROM recorder_keys"),
    ]
    with backend.open() as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.verification.verify() == []
    after = read_tables(backend) + [
        [
            (gid, step, unpack_position(packed))
            for gid, step, packed in backend.raw(
                "SELECT g.id, s.step, s.position FROM snapshots AS s JOIN games AS g"
                " ON g.no = s.game_no ORDER BY g.id, s.step"
            )
        ],
        backend.raw("SELECT * FROM recorder_keys"),
    ]
    assert after == before
    assert [backend.raw(sql) for sql in CHAIN] == [raw(scratch, sql) for sql in CHAIN]
    assert backend.raw("SELECT count(*) FROM events")[0][0] > 400
    # The triggers were made again: the record still refuses a change.
    for sql in backend.tamper_statements("live"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            backend.raw(sql)


def test_after_the_migration_the_contract_holds(version_1):
    with version_1.open() as store:
        gid = store.listing.games(player="Ann")[0].id
    before = version_1.raw("SELECT * FROM events ORDER BY game_no, sequence")
    for sql in version_1.tamper_statements(gid):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            version_1.raw(sql)
    assert version_1.raw("SELECT * FROM events ORDER BY game_no, sequence") == before
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
        "INSERT INTO events (game_no, sequence, event_id, payload, payload_version,"
        " recorded_at, hash, text) VALUES ((SELECT no FROM games WHERE id = ?), 2, ?,"
        ' \'{"type":"player_resigned",'
        f"\"player\":0}}', 1, NULL, {backend.blob(bytes(32))}, 'resign')"
    )
    # A derived-looking id is not stored: not another place's, nor its own (it is read
    # back from the event's place).
    with pytest.raises(backend.integrity_errors, match="(?i)check constraint"):
        backend.raw(insert, (live, f"{gid}:2"))
    with pytest.raises(backend.integrity_errors, match="(?i)check constraint"):
        backend.raw(insert, (live, "live:3"))
    with pytest.raises(backend.integrity_errors, match="(?i)check constraint"):
        backend.raw(insert, (live, "live:2"))
    # A given id must be new, whatever the conflict clause.
    if backend.name == "sqlite":
        for verb in ("INSERT", "INSERT OR REPLACE", "INSERT OR IGNORE"):
            with pytest.raises(backend.integrity_errors, match="append-only"):
                backend.raw(insert.replace("INSERT", verb, 1), (live, "given-1"))
    else:
        with pytest.raises(backend.integrity_errors, match="events_by_given_id"):
            backend.raw(insert, (live, "given-1"))
        backend.raw(insert + " ON CONFLICT DO NOTHING", (live, "given-1"))  # nothing stored
    assert [e.event_id for e in store.events(live)] == ["given-1"]
    backend.raw(insert, (live, None))
    assert [e.event_id for e in store.events(live)] == ["given-1", "live:2"]


def test_a_fresh_database_keeps_players_as_rows_for_any_number_of_seats(store, backend):
    columns = backend.columns("game_summaries")
    assert "winner_name" in columns and not {"player_0", "player_1"} & columns
    gid = store.create_game({"players": ["Eve", "Fay"]}, game_id="live").id
    assert backend.raw("SELECT seat, name FROM game_players WHERE game_id = ?", (gid,)) == [
        (0, "Eve"),
        (1, "Fay"),
    ]
    # The view joins however many seats game_players holds, in seat order.
    backend.raw("DELETE FROM game_players WHERE game_id = ?", (gid,))
    for seat, name in ((2, "Gus"), (0, "Eve"), (3, "Hal"), (1, "Fay")):
        backend.raw(
            "INSERT INTO game_players (game_id, seat, name) VALUES (?, ?, ?)", (gid, seat, name)
        )
    assert backend.raw("SELECT players FROM game_list WHERE id = ?", (gid,)) == [
        ("Eve vs Fay vs Gus vs Hal",)
    ]
    store.rebuild_projections()
    assert backend.raw("SELECT players FROM game_list WHERE id = ?", (gid,)) == [("Eve vs Fay",)]


def test_new_games_players_are_written_for_any_number_of_seats():
    from recorder import projections

    # No folding function on this connection: the names come folded, so the import's
    # statement never calls into Python.
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE game_players (game_id TEXT, seat INTEGER, name TEXT, folded TEXT)")
    rows = projections.player_rows([("g1", '["Ann","Bo","Cy"]'), ("g2", '["Di","Édouard"]')])
    conn.execute(projections.INSERT_PLAYERS, (json.dumps(rows),))
    assert conn.execute("SELECT * FROM game_players ORDER BY game_id, seat").fetchall() == [
        ("g1", 0, "Ann", "ann"),
        ("g1", 1, "Bo", "bo"),
        ("g1", 2, "Cy", "cy"),
        ("g2", 0, "Di", "di"),
        ("g2", 1, "Édouard", "edouard"),
    ]


# --- schema 8: each event's text, and no repeats ----------------------------------------------


def texts_to_migrate(store: EventStore) -> None:
    """What :func:`some_games` writes, a classic game at three seats, a correction with a
    comment and a move played though illegal, and random games enough to weigh a row."""
    from test_contract import illegal_take

    some_games(store)
    classic = get_game("splendor").random_game(random.Random(3), ["Ann", "Bo", "Cy"])
    store.import_game(
        game_import_from_events(classic, {"players": ["Ann", "Bo", "Cy"]}, kind="splendor")
    )
    n = store.game("live").event_count
    store.append("live", n, [{"type": "retraction", "back_to": n - 1}], meta=[{"comment": "oops"}])
    n += 1
    p = payloads(4)
    while store.state_at("live").awaiting != "action":
        store.append("live", n, [p[n - 2]])
        n += 1
    flagged = illegal_take(store.state_at("live"))
    store.append("live", n, [flagged], meta=[{"played_illegally": True}])
    store.import_games([record(seed) for seed in range(20, 40)])


def test_a_version_7_file_gets_each_events_text_and_rows_without_repeats(tmp_path):
    backend = SqliteBackend(tmp_path)
    backend.path.parent.mkdir(parents=True, exist_ok=True)
    scratch = write_at_version(backend.path, 7, texts_to_migrate)
    assert backend.raw("PRAGMA user_version") == [(7,)]
    assert {"type", "event_id", "recorded_at"} <= backend.columns("events")
    assert "text" not in backend.columns("events")
    before = read_tables(backend)
    weight = bytes_per_event(backend.path)
    with backend.open() as store:
        assert store.schema_version == SCHEMA_VERSION == 12
        assert store.verification.verify() == []
        ids = [gid for gid, _, _ in store.verification.heads()]
        assert {store.game(g).kind for g in ids} == {"splendor-duel", "splendor"}
        for gid in ids:
            check_texts(store, backend, gid)
        assert any(e.text.startswith("undo") for e in store.events("live"))
    # Every event reads back as it did (its id, type, payload, meta, time), and its text
    # is the one today's code writes.
    assert read_tables(backend) == before
    assert [backend.raw(sql) for sql in CHAIN] == [raw(scratch, sql) for sql in CHAIN]
    texts = f"SELECT game_id, sequence, text FROM {EVENTS_BY_ID} ORDER BY game_id, sequence"
    assert backend.raw(texts) == raw(scratch, texts)
    # Nothing twice: the type as a number (schema 9), an event id only where a writer
    # gave one, a time only where it changes.
    given = backend.raw("SELECT DISTINCT event_id FROM events WHERE event_id IS NOT NULL")
    assert sorted(g for (g,) in given) == sorted(f"live-{i}" for i in range(10))
    times = f"SELECT game_id, sequence, recorded_at FROM {EVENTS_BY_ID} ORDER BY game_id, sequence"
    assert backend.raw(times) == raw(scratch, times)
    assert weight - bytes_per_event(without_list_indexes(backend.path)) > 35
    for sql in backend.tamper_statements("live"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            backend.raw(sql)


def test_a_version_7_postgresql_schema_gets_each_events_text_and_rows_without_repeats(
    tmp_path, pg_url, pg_cluster
):
    """The same migration on PostgreSQL: a schema made by version 7's SQL holding the
    rows version 7 wrote is brought to the current version (through 8), with the layout
    of a fresh schema."""
    scratch = tmp_path / "scratch.db"
    with EventStore.open(scratch) as store:
        texts_to_migrate(store)
    copied = {
        "games": "SELECT id, kind, players, date, place, tags, headers, status, created_at,"
        " last_activity, head FROM games ORDER BY id",
        # each event as version 7 kept it: every id, the type, the time as text
        "events": "SELECT l.game_id, e.sequence, l.event_id, l.type, l.payload,"
        " e.payload_version, e.meta, l.recorded_at, e.hash FROM events AS e"
        " JOIN games AS g ON g.no = e.game_no JOIN event_log AS l"
        " ON l.game_id = g.id AND l.sequence = e.sequence ORDER BY l.game_id, e.sequence",
        "game_summaries": "SELECT game_id, kind, date, status, winner, winner_name, condition,"
        " turns, to_move, event_count, flagged_count, last_activity FROM game_summaries"
        " ORDER BY game_id",
        "game_players": "SELECT game_id, seat, name, folded FROM game_players",
        "snapshots": "SELECT g.id, s.step, unpack_position(s.position) FROM snapshots AS s"
        " JOIN games AS g ON g.no = s.game_no",
        "recorder_keys": "SELECT game_id, key_hash, created_at FROM recorder_keys",
    }
    with psycopg.connect(pg_url, autocommit=True) as conn, conn.transaction():
        number, description, script = pg_schema.MIGRATIONS[0]
        assert number == 7 and isinstance(script, str)
        conn.execute(script.encode())
        conn.execute(
            "INSERT INTO schema_migrations VALUES (7, %s, '2024-01-01T00:00:00.000Z')",
            (description,),
        )
        for table, sql in copied.items():
            rows = raw(scratch, sql)
            if rows:
                marks = ", ".join(["%s"] * len(rows[0]))
                with conn.cursor() as cur:
                    cur.executemany(f"INSERT INTO {table} VALUES ({marks})".encode(), rows)
    backend = PostgresBackend(pg_url)
    assert "text" not in backend.columns("events") and "type" in backend.columns("events")
    with open_store(pg_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.verification.verify() == []
        for gid, _, _ in store.verification.heads():
            check_texts(store, backend, gid)
    read_back = (
        "SELECT game_id, sequence, event_id, type, payload, recorded_at FROM event_log"
        " ORDER BY game_id, sequence"
    )
    assert backend.raw(read_back) == raw(scratch, read_back)
    texts = (
        f"SELECT game_id, sequence, text, recorded_at FROM {EVENTS_BY_ID} AS r"
        " ORDER BY game_id, sequence"
    )
    assert backend.raw(texts) == raw(scratch, texts)
    assert backend.raw("SELECT count(*) FROM events WHERE event_id IS NOT NULL") == [(10,)]
    # The layout of a fresh schema: the same columns, constraints, indexes and triggers.
    fresh_url = pg_cluster.new_schema()
    open_store(fresh_url).close()
    layout = (
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = 'events'::regclass ORDER BY conname",
        "SELECT indexname FROM pg_indexes WHERE tablename = 'events'"
        " AND schemaname = current_schema() ORDER BY indexname",
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass AND NOT tgisinternal"
        " ORDER BY tgname",
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = 'events' ORDER BY column_name",
    )
    fresh = PostgresBackend(fresh_url)
    assert [backend.raw(sql) for sql in layout] == [fresh.raw(sql) for sql in layout]
    assert backend.raw("SELECT to_regclass('events_v7')::text") == [(None,)]


# --- schema 9: a row that costs what it carries ---------------------------------------------


def a_game_of_another_kind(backend: SqliteBackend) -> None:
    """A version 8 game of a kind this tablelog does not know, whose payload does not
    begin with its type: its rows are moved as they are, the payload kept whole."""
    from recorder import chain

    payload = '{"move":"e4","type":"pawn"}'
    (link,) = chain.stored_links("chess", {"players": ["Ann", "Bo"]}, [(payload, None)])
    backend.raw(
        "INSERT INTO games (id, kind, players, headers, status, created_at, last_activity,"
        ' head) VALUES (\'chess\', \'chess\', \'["Ann","Bo"]\', \'{"players":["Ann","Bo"]}\','
        " 'playing', '2024-01-02T00:00:00.000Z', '2024-01-02T00:00:00.000Z', ?)",
        (link.hex(),),
    )
    backend.raw(
        "INSERT INTO events (game_id, sequence, payload, payload_version, recorded_at, hash,"
        " text) VALUES ('chess', 1, ?, 1, 1704153600000, ?, 'pawn')",
        (payload, link),
    )


def test_a_version_8_file_gets_numbered_games_and_each_events_type_as_a_number(tmp_path):
    backend = SqliteBackend(tmp_path)
    backend.path.parent.mkdir(parents=True, exist_ok=True)
    scratch = write_at_version(backend.path, 8, texts_to_migrate)
    a_game_of_another_kind(backend)
    assert backend.raw("PRAGMA user_version") == [(8,)]
    assert "game_id" in backend.columns("events") and "type" not in backend.columns("events")
    before = read_tables(backend)
    weight = bytes_per_event(backend.path)
    created = backend.raw("SELECT id FROM games ORDER BY created_at, rowid")
    snapshots = backend.raw("SELECT game_id, step, position FROM snapshots ORDER BY game_id, step")
    with backend.open() as store:
        assert store.schema_version == SCHEMA_VERSION == 12
        assert store.integrity_check() == "ok"
        findings = store.verification.verify()
        assert findings and {f.game for f in findings} == {"chess"}  # a kind not known here
    # Every event reads back as it did (its game's id, type, payload byte for byte, id,
    # time), with its hash and its text.
    assert read_tables(backend) == before
    scratch_chain = [raw(scratch, sql) for sql in CHAIN]
    assert [[r for r in backend.raw(sql) if r[0] != "chess"] for sql in CHAIN] == scratch_chain
    texts = f"SELECT game_id, sequence, text FROM {EVENTS_BY_ID} ORDER BY game_id, sequence"
    assert [r for r in backend.raw(texts) if r[0] != "chess"] == raw(scratch, texts)
    # The games numbered in order of creation; each type numbered once per kind, and
    # every event's type a number but the one whose payload does not begin with it.
    assert backend.raw("SELECT id FROM games ORDER BY no") == created
    assert backend.raw("SELECT no FROM games ORDER BY no") == [
        (i,) for i in range(1, len(created) + 1)
    ]
    types = "SELECT DISTINCT g.kind, l.type FROM event_log AS l JOIN games AS g ON g.id = l.game_id"
    assert sorted(backend.raw("SELECT kind, name FROM event_types")) == sorted(raw(scratch, types))
    assert backend.raw("SELECT e.payload FROM events AS e WHERE e.type IS NULL") == [
        ('{"move":"e4","type":"pawn"}',)
    ]
    assert backend.raw("SELECT type FROM event_log WHERE game_id = 'chess'") == [("pawn",)]
    # The snapshots kept, their positions packed.
    kept = backend.raw(
        "SELECT g.id, s.step, s.position FROM snapshots AS s JOIN games AS g ON g.no = s.game_no"
        " ORDER BY g.id, s.step"
    )
    assert [(gid, step, unpack_position(packed)) for gid, step, packed in kept] == snapshots
    assert all(len(packed) < len(unpack_position(packed)) * 0.7 for _, _, packed in kept)
    assert weight - bytes_per_event(without_list_indexes(backend.path)) > 25
    for sql in backend.tamper_statements("live"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            backend.raw(sql)
    # The record goes on: new games under the next numbers, logged and imported.
    with backend.open() as store:
        later = store.create_game({"players": ["Eve", "Fay"]}, game_id="later").id
        store.append(later, 0, payloads(4)[:3])
        new = store.import_game(record(45)).game_id
        assert store.verification.verify([later, new]) == []
    assert backend.raw("SELECT id FROM games WHERE no > ? ORDER BY no", (len(created),)) == [
        (later,),
        (new,),
    ]


def test_a_version_8_postgresql_schema_gets_numbered_games_and_each_events_type_as_a_number(
    tmp_path, pg_url, pg_cluster
):
    """Migration 9 on PostgreSQL: a schema at version 8 holding the rows version 8 wrote
    is brought to the current version, with the layout of a fresh schema."""
    scratch = tmp_path / "scratch.db"
    with EventStore.open(scratch) as store:
        texts_to_migrate(store)
    copied = {
        "games": "SELECT id, kind, players, date, place, tags, headers, status, created_at,"
        " last_activity, head FROM games ORDER BY no",
        # each event as version 8 kept it: the game's id, the whole payload
        "events": "SELECT l.game_id, e.sequence, e.event_id, l.payload, e.payload_version,"
        " e.meta, e.recorded_at, e.hash, e.text FROM events AS e"
        " JOIN games AS g ON g.no = e.game_no JOIN event_log AS l"
        " ON l.game_id = g.id AND l.sequence = e.sequence ORDER BY l.game_id, e.sequence",
        "game_summaries": "SELECT game_id, kind, date, status, winner, winner_name, condition,"
        " turns, to_move, event_count, flagged_count, last_activity FROM game_summaries"
        " ORDER BY game_id",
        "game_players": "SELECT game_id, seat, name, folded FROM game_players",
        # their positions as text, as version 8 kept them
        "snapshots": "SELECT g.id, s.step, unpack_position(s.position) FROM snapshots AS s"
        " JOIN games AS g ON g.no = s.game_no",
        "recorder_keys": "SELECT game_id, key_hash, created_at FROM recorder_keys",
    }
    with psycopg.connect(pg_url, autocommit=True) as conn, conn.transaction():
        for number, description, script in pg_schema.MIGRATIONS[:2]:
            assert number in (7, 8)
            if callable(script):
                script(conn)
            else:
                conn.execute(script.encode())
            conn.execute(
                "INSERT INTO schema_migrations VALUES (%s, %s, '2024-01-01T00:00:00.000Z')",
                (number, description),
            )
        for table, sql in copied.items():
            rows = raw(scratch, sql)
            if rows:
                marks = ", ".join(["%s"] * len(rows[0]))
                with conn.cursor() as cur:
                    cur.executemany(f"INSERT INTO {table} VALUES ({marks})".encode(), rows)
    backend = PostgresBackend(pg_url)
    assert "game_id" in backend.columns("events") and "game_no" not in backend.columns("events")
    with open_store(pg_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.verification.verify() == []
        for gid, _, _ in store.verification.heads():
            check_texts(store, backend, gid)
    read_back = (
        "SELECT game_id, sequence, event_id, type, payload, recorded_at FROM event_log"
        " ORDER BY game_id, sequence"
    )
    assert backend.raw(read_back) == raw(scratch, read_back)
    # numbered in order of creation (games created at the same time by their ids)
    numbered = "SELECT id FROM games ORDER BY no"
    assert backend.raw(numbered) == raw(scratch, "SELECT id FROM games ORDER BY created_at, id")
    assert backend.raw("SELECT count(*) FROM events WHERE type IS NULL") == [(0,)]
    types = "SELECT kind, name FROM event_types"
    assert sorted(backend.raw(types)) == sorted(raw(scratch, types))
    created = raw(scratch, numbered)
    # The record goes on: new games under the next numbers, logged and imported.
    with open_store(pg_url) as store:
        later = store.create_game({"players": ["Eve", "Fay"]}, game_id="later").id
        store.append(later, 0, payloads(4)[:3])
        new = store.import_game(record(45)).game_id
        assert store.verification.verify([later, new]) == []
    assert backend.raw("SELECT id FROM games WHERE no > ? ORDER BY no", (len(created),)) == [
        (later,),
        (new,),
    ]
    # The layout of a fresh schema: the same columns, constraints, indexes and triggers.
    fresh_url = pg_cluster.new_schema()
    open_store(fresh_url).close()
    layout = [
        sql
        for table in ("games", "events", "snapshots", "event_types")
        for sql in (
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
            f" WHERE conrelid = '{table}'::regclass ORDER BY conname",
            f"SELECT indexname FROM pg_indexes WHERE tablename = '{table}'"
            " AND schemaname = current_schema() ORDER BY indexname",
            f"SELECT tgname FROM pg_trigger WHERE tgrelid = '{table}'::regclass"
            " AND NOT tgisinternal ORDER BY tgname",
            "SELECT column_name, data_type, is_identity FROM information_schema.columns"
            f" WHERE table_schema = current_schema() AND table_name = '{table}'"
            " ORDER BY column_name",
        )
    ]
    fresh = PostgresBackend(fresh_url)
    assert [backend.raw(sql) for sql in layout] == [fresh.raw(sql) for sql in layout]
    assert backend.raw("SELECT to_regclass('events_v8'), to_regclass('snapshots_v8')") == [
        (None, None)
    ]
