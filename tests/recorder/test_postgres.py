"""What only the PostgreSQL store meets: a server killed during an import, a connection
dropped in the middle of a write, a schema that is not its own, and the notification of
appends.  (The contract suite, test_contract.py, runs on it as on SQLite.)"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import replace

import psycopg
import pytest
from conftest import HERE, record, simulated
from pgcluster import Cluster

from engine.splendor_duel import events as ev
from recorder import ImportRejected, SchemaVersionError, StoreError, open_store, pg_schema, postgres
from recorder.postgres import PostgresStore
from recorder.prepare import prepare_game

#: Games and batch size of the killed import.
GAMES, BATCH = 240, 6


@pytest.fixture
def own_cluster(pg_cluster) -> Cluster:
    """A cluster of the test's own (it will be killed), with the binaries the shared
    one found."""
    cluster = Cluster(pg_cluster.bindir).init().start()
    yield cluster
    cluster.remove()


def payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulated(seed)]


def test_the_server_killed_during_an_import_leaves_no_partial_game(own_cluster):
    url = own_cluster.url()
    open_store(url).close()  # the schema, before the importer starts
    child = subprocess.Popen(
        [sys.executable, str(HERE / "pg_import_child.py"), url, str(GAMES), str(BATCH)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=str(HERE),
        env={**os.environ, "TABLELOG_PG_TIMEOUT": "2"},  # a server gone is told sooner
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    acked: dict[str, int] = {}
    # Kill the server once a few batches are committed, while the next ones are written.
    while len(acked) < 3 * BATCH:
        line = child.stdout.readline()
        assert line, child.stderr.read() if child.stderr else ""
        _, gid, n = line.split()
        acked[gid] = int(n)
    own_cluster.kill()
    out, err = child.communicate(timeout=120)
    for line in out.splitlines():
        _, gid, n = line.split()
        acked[gid] = int(n)
    assert child.returncode == 1
    assert "PostgreSQL" in err and "Traceback" not in err
    assert "postgresql://tablelog@" in err  # names the database
    assert len(acked) < GAMES  # the kill came in the middle

    own_cluster.start()
    with open_store(url) as store:
        stored = {gid: n for gid, n, _ in store.verification.heads()}
        # Every acknowledged game is there, whole; any other game there is whole too
        # (its batch committed as the server died), and none is partial.
        assert set(acked) <= set(stored)
        whole = {r.id: r.event_count for r in (store.game(g) for g in stored)}
        assert len(stored) % BATCH == 0
        for gid, n in stored.items():
            assert n == whole[gid] == len(store.events(gid))
            assert store.game(gid).status == "finished"
        assert all(stored[gid] == n for gid, n in acked.items())
        assert store.verification.verify() == []
        assert store.integrity_check() == "ok"
    # The import run again completes it, and doubles nothing.
    rerun = subprocess.run(
        [sys.executable, str(HERE / "pg_import_child.py"), url, str(GAMES), str(BATCH)],
        capture_output=True,
        text=True,
        cwd=str(HERE),
        timeout=300,
    )
    assert rerun.returncode == 0, rerun.stderr
    with open_store(url) as store:
        assert store.listing.count() == GAMES
        assert store.verification.verify() == []


def blocked_backend(url: str) -> int:
    """The pid of the store's backend waiting for a lock (the test holds it)."""
    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(400):
            row = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone()
            if row:
                return int(row[0])
            time.sleep(0.025)
    raise AssertionError("the write never waited for the lock")


def cut_mid_write(url: str, table: str, write) -> BaseException | None:
    """Run ``write`` while the test holds a lock on ``table`` (so the write stops in the
    middle, its first rows inserted), then terminate the write's connection."""
    outcome: list[BaseException | None] = [None]

    def run() -> None:
        try:
            write()
        except BaseException as err:  # noqa: BLE001 - handed to the test
            outcome[0] = err

    with psycopg.connect(url, autocommit=True) as holder:
        holder.execute("BEGIN")
        holder.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        thread = threading.Thread(target=run)
        thread.start()
        pid = blocked_backend(url)
        holder.execute("SELECT pg_terminate_backend(%s)", (pid,))
        thread.join(60)
        holder.execute("ROLLBACK")
    assert not thread.is_alive()
    return outcome[0]


def test_a_connection_dropped_mid_batch_writes_nothing_and_says_so(pg_url):
    with open_store(pg_url) as store:
        # An import batch: games and events written, cut before their players.
        err = cut_mid_write(
            pg_url, "game_players", lambda: store.import_games([record(s) for s in (1, 2, 3)])
        )
        assert isinstance(err, StoreError)
        text = str(err)
        assert text.startswith("postgresql://tablelog@") and "lost during a write" in text
        assert "stored whole or not at all" in text
        assert store.listing.count() == 0 and store.verification.heads() == []
        # An append: its events inserted, cut before the summary.
        gid = store.create_game({"players": ["Ann", "Bo"]}).id
        p = payloads(4)
        store.append(gid, 0, p[:5], event_ids=["a1", "a2", "a3", "a4", "a5"])
        ids = ["b6", "b7", "b8"]
        err = cut_mid_write(
            pg_url, "game_summaries", lambda: store.append(gid, 5, p[5:8], None, ids)
        )
        assert isinstance(err, StoreError) and "lost during a write" in str(err)
        assert len(store.events(gid)) == 5 and store.game(gid).event_count == 5
        # The pool gives a sound connection again; the retry stores the batch once.
        done = store.append(gid, 5, p[5:8], event_ids=ids)
        assert done.appended == 3 and not done.already_stored
        again = store.append(gid, 5, p[5:8], event_ids=ids)
        assert again.already_stored and len(store.events(gid)) == 8
        assert store.verification.verify() == []


def test_an_unreachable_or_foreign_database_is_refused_by_name(pg_cluster, pg_url):
    with pytest.raises(StoreError, match=r"club:\*\*\*@127\.0\.0\.1:1/x: cannot connect") as err:
        PostgresStore.open("postgresql://club:hunter2@127.0.0.1:1/x")
    assert "hunter2" not in str(err.value) and "is the server running" in str(err.value)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE notes (x text)")
    with pytest.raises(SchemaVersionError, match="holds other tables; it is not a tablelog"):
        open_store(pg_url)
    newer = pg_cluster.new_schema()
    open_store(newer).close()
    with psycopg.connect(newer, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 'then')")
    with pytest.raises(SchemaVersionError, match="schema version 99 is newer"):
        open_store(newer)


def test_two_stores_opening_one_fresh_database_at_once_make_one_schema(pg_url):
    stores: list[object] = []
    errors: list[BaseException] = []

    def opening() -> None:
        try:
            stores.append(open_store(pg_url))
        except BaseException as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=opening) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for s in stores:
        assert s.schema_version == 12  # type: ignore[attr-defined]
        s.close()  # type: ignore[attr-defined]


def test_each_committed_append_is_notified_with_its_game_and_steps(pg_url):
    seen: list[tuple[str, int]] = []
    stop = threading.Event()
    with open_store(pg_url) as store:
        listener = threading.Thread(
            target=store.listen, args=(lambda g, n: seen.append((g, n)), stop.is_set)
        )
        listener.start()
        try:
            gid = store.create_game({"players": ["Ann", "Bo"]}, game_id="followed").id
            time.sleep(0.3)  # listening
            p = payloads(6)
            store.append(gid, 0, p[:1])
            store.append(gid, 1, p[1:4])
            with pytest.raises(StoreError):
                store.append(gid, 1, p[1:2])  # refused: no notification
            other = store.import_game(replace(record(7), game_id="other"))
            deadline = time.monotonic() + 10
            while len(seen) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            stop.set()
            listener.join(10)
    assert seen == [("followed", 1), ("followed", 4)]
    assert other.created


def test_a_guard_replaced_by_one_that_does_nothing_is_found(pg_url):
    """A trigger of the same name and a function of the same name, doing nothing: verify
    compares each trigger and the body of its function with those a new store creates."""
    with open_store(pg_url) as store:
        store.import_game(record(3))
        assert store.verification.verify() == []
    with psycopg.connect(pg_url, autocommit=True) as conn:
        # the refusal's body made a pass, and another guard's trigger pointed elsewhere
        conn.execute(
            "CREATE OR REPLACE FUNCTION tablelog_refuse() RETURNS trigger LANGUAGE plpgsql"
            " AS $$ BEGIN RETURN NEW; END $$"
        )
        conn.execute(
            "CREATE FUNCTION let_it_be() RETURNS trigger LANGUAGE plpgsql"
            " AS $$ BEGIN RETURN NEW; END $$"
        )
        conn.execute("DROP TRIGGER games_keep_identity ON games")
        conn.execute(
            "CREATE TRIGGER games_keep_identity BEFORE UPDATE ON games FOR EACH ROW"
            " EXECUTE FUNCTION let_it_be()"
        )
    with open_store(pg_url) as store:
        said = [f.message for f in store.verification.verify() if f.check == "trigger"]
    replaced = {
        "events_no_update",
        "events_no_delete",
        "events_no_truncate",
        "games_no_delete",
        "games_no_truncate",
        "event_types_no_update",
        "event_types_no_delete",
        "event_types_no_truncate",
        "games_keep_identity",
        "game_voids_no_update",
        "game_voids_no_delete",
        "game_voids_no_truncate",
        "review_events_no_update",
        "review_events_no_delete",
        "review_events_no_truncate",
    }
    assert said == [
        f"the trigger {name} is not the one the store creates: the store's refusals may be off"
        for name in pg_schema.TRIGGERS
        if name in replaced
    ]


def test_a_verifier_without_the_right_to_create_a_schema_is_told_what_was_not_compared(
    pg_url, monkeypatch
):
    # the triggers as created, not yet learnt in this process
    monkeypatch.setattr(postgres, "_CREATED", {})
    with open_store(pg_url) as store:
        store.import_game(record(3))
    schema = pg_url.rsplit("search_path%3D", 1)[1]
    role = f"verifier_{schema}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'only-reads'")
        conn.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}")
    try:
        with open_store(pg_url.replace("tablelog@", f"{role}:only-reads@")) as store:
            findings = store.verification.verify()
        assert [(f.check, f.message.split(" (")[0]) for f in findings] == [
            ("trigger", "the triggers could not be compared with the ones the store creates")
        ]
        assert "permission denied" in findings[0].message
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


@pytest.mark.parametrize("how", ["create", "import same", "import other"])
def test_a_game_id_taken_by_another_writer_meanwhile_gets_the_stores_own_answer(pg_url, how):
    """Two writers storing one game id at once: the second looks before the first commits
    (finding nothing), then waits on the id's index; once the first commits, it answers
    as it does for any stored game, never with the database's error."""
    first = replace(record(5), game_id="both")
    with open_store(pg_url) as a, open_store(pg_url) as b:
        answer: list[object] = []

        def second() -> None:
            try:
                if how == "create":
                    answer.append(b.create_game({"players": ["Ann", "Bo"]}, game_id="both"))
                else:
                    other = first if how == "import same" else replace(record(6), game_id="both")
                    answer.append(b.import_game(other))
            except Exception as err:  # noqa: BLE001 - what escapes is the point
                answer.append(err)

        with a.writing() as conn:
            a._write_games(conn, [prepare_game(first)], a._now()[0])
            writer = threading.Thread(target=second)
            writer.start()
            waited = time.monotonic() + 30
            while not _waiting_on_a_lock(pg_url) and time.monotonic() < waited:
                time.sleep(0.02)
            assert _waiting_on_a_lock(pg_url), "the second writer never reached the id's index"
        writer.join(30)
        (got,) = answer
        if how == "import same":
            assert not got.created and got.game_id == "both"  # the same game: stored once
        else:
            assert isinstance(got, ImportRejected), got
            assert str(got).endswith(
                "game both already exists"
                if how == "create"
                else "game both is already stored with different content"
            )
        assert a.listing.count() == 1 and a.verification.verify() == []


def _waiting_on_a_lock(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        (n,) = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database() AND query LIKE 'INSERT INTO games %'"
        ).fetchone()
    return n > 0
