"""The commands over a PostgreSQL store: a store chosen by URL (``--db``,
``TABLELOG_DB``), errors that name the database without its password and say what to
do, and ``tablelog copy`` between SQLite and PostgreSQL both ways, each copy verified."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate
from recorder import open_store
from recorder.io import export_json
from recorder.migrations import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "games").glob("*.tl"))


def invoke(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, list(args), env={"TABLELOG_DB": None, **(env or {})})


def with_password(url: str, password: str = "hunter2") -> str:
    """The same database, the URL carrying a password (the test cluster trusts local
    connections, so any password logs in)."""
    return url.replace("postgresql://tablelog@", f"postgresql://tablelog:{password}@")


def test_init_takes_the_url_from_db_or_the_environment_and_hides_the_password(pg_url):
    url = with_password(pg_url)
    done = invoke("init", "--db", url)
    assert done.exit_code == 0, done.output
    assert f"schema version {SCHEMA_VERSION}" in done.output
    assert "tablelog:***@" in done.output and "hunter2" not in done.output
    again = invoke("init", env={"TABLELOG_DB": url})
    assert again.exit_code == 0 and f"schema version {SCHEMA_VERSION}" in again.output
    imported = invoke("import", str(FIXTURES[0]), env={"TABLELOG_DB": url})
    assert imported.exit_code == 0, imported.output
    listed = invoke("games", "--db", pg_url)
    assert listed.exit_code == 0 and "1 game" in listed.output


def test_a_sqlite_url_opens_a_file(tmp_path):
    target = tmp_path / "club.db"
    done = invoke("init", "--db", f"sqlite:{target}")
    assert done.exit_code == 0, done.output
    assert target.exists() and f"{target}: tablelog database" in done.output


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        ("postgresql://club:hunter2@127.0.0.1:1/tablelog", "is the server running"),
        ("postgres://club:hunter2@[::1]:1/tablelog?connect_timeout=5", "is the server running"),
    ],
)
def test_an_unreachable_server_is_named_without_its_password(url, hint):
    done = invoke("games", "--db", url)
    assert done.exit_code == 1
    assert "cannot connect to PostgreSQL" in done.output and hint in done.output
    assert "club:***@" in done.output
    assert "hunter2" not in done.output and "Traceback" not in done.output


def test_a_missing_database_says_to_create_it(pg_cluster):
    url = with_password(pg_cluster.url("nosuchdb"))
    done = invoke("init", "--db", url)
    assert done.exit_code == 1
    assert "nosuchdb" in done.output and "create it" in done.output
    assert "hunter2" not in done.output and "Traceback" not in done.output


def test_a_refused_login_says_to_check_the_user_and_password(pg_cluster, pg_url):
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS club")
        conn.execute("CREATE ROLE club LOGIN PASSWORD 'the-right-one'")
    url = pg_cluster.url().replace("postgresql://tablelog@", "postgresql://club:hunter2@")
    done = invoke("games", "--db", url)
    assert done.exit_code == 1
    assert "club:***@" in done.output and 'password authentication failed for user "club"' in (
        done.output
    )
    assert "check the user and password" in done.output
    assert "hunter2" not in done.output and "Traceback" not in done.output


def fill(place: str | Path) -> list[str]:
    """A store with the sample games, a game logged live with comments, writer-given
    event ids and an undo, and a game with no event yet; its game ids."""
    with open_store(place) as store:
        ids = [store.import_game(_load(path)).game_id for path in FIXTURES]
        live = store.create_game({"players": ["Ann", "Bo"], "place": "Lyon"}, game_id="live")
        p = [ev.event_to_dict(e) for e in simulate.random_game(random.Random(5))]
        store.append(live.id, 0, p[:6], meta=[None, {"comment": "opens"}, *[None] * 4])
        store.append(live.id, 6, [{"type": "retraction", "back_to": 5}], event_ids=["undo-1"])
        store.append(live.id, 7, p[5:9], event_ids=["e6", "e7", "e8", "e9"])
        store.create_game({"players": ["Cy", "Dee"]}, game_id="empty")
        store.void_game("empty", "never played")  # a void the copy keeps
        return [*ids, live.id, "empty"]


def _load(path: Path):
    from recorder.io import load_file

    (game,) = load_file(path)
    return game


def exports(place: str | Path, ids: list[str]) -> dict[str, tuple]:
    with open_store(place) as store:
        return {
            gid: (
                export_json(store, gid),
                store.game(gid).head,
                store.game(gid).created_at,
                [(e.event_id, e.recorded_at) for e in store.events(gid)],
            )
            for gid in ids
        }


def test_copy_sqlite_to_postgresql_and_back_keeps_every_game_and_verifies_it(tmp_path, pg_url):
    source = tmp_path / "source.db"
    ids = fill(source)
    before = exports(source, ids)
    done = invoke("copy", str(source), pg_url)
    assert done.exit_code == 0, done.output
    assert f"{len(ids)} of {len(ids)} games" in done.output and "0 not copied" in done.output
    assert all(f"game {gid}: copied" in done.output for gid in ids)
    assert exports(pg_url, ids) == before
    with open_store(pg_url) as pg:
        assert pg.verification.verify() == []
    # Again: nothing new, nothing doubled.
    again = invoke("copy", str(source), pg_url)
    assert again.exit_code == 0 and "already there, the same" in again.output
    with open_store(pg_url) as pg:
        assert pg.listing.count(with_void=True) == len(ids) and pg.game("empty").void
    # And back into a fresh SQLite file (a sqlite: URL).
    back = tmp_path / "back.db"
    home = invoke("copy", pg_url, f"sqlite:{back}")
    assert home.exit_code == 0, home.output
    assert exports(back, ids) == before
    with open_store(back) as store:
        assert store.verification.verify() == []


def test_copy_names_a_game_stored_otherwise_in_the_destination(tmp_path, pg_url):
    source = tmp_path / "source.db"
    fill(source)
    with open_store(pg_url) as pg:
        pg.create_game({"players": ["Eve", "Fay"]}, game_id="live")  # another game, same id
    done = invoke("copy", str(source), pg_url)
    assert done.exit_code == 1
    assert "game live: not copied" in done.output and "different content" in done.output
    assert "1 not copied" in done.output
    with open_store(pg_url) as pg:
        assert pg.game("live").players == ["Eve", "Fay"]
        assert pg.game("empty").players == ["Cy", "Dee"]  # the others were copied
