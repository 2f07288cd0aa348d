"""A record changed behind the store's back (its guards dropped, then a payload edited, two
steps swapped, one step deleted from the middle) is shown, never a 500: the replay shows the
steps before the first altered one under a banner saying where and what verify says, the
API and the live stream answer the same facts, and nothing more can be logged to it.

A real SQLite file changed with the ``sqlite3`` module, as an outside tool would; the site
through Flask's test client, the stream through the real server."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import game_import_from_events
from web import create_app
from web.server import BackgroundServer

from .test_live import Stream

#: The events table's key of the game whose id is the statement's first parameter.
NO = "(SELECT no FROM games WHERE id = ?)"


def _edit(conn: sqlite3.Connection, gid: str, step: int) -> None:
    """Event ``step``'s payload replaced by the payload of the event after it."""
    (later,) = conn.execute(
        f"SELECT payload FROM events WHERE game_no = {NO} AND sequence = ?", (gid, step + 1)
    ).fetchone()
    conn.execute(
        f"UPDATE events SET payload = ? WHERE game_no = {NO} AND sequence = ?", (later, gid, step)
    )


def _swap(conn: sqlite3.Connection, gid: str, step: int) -> None:
    """Events ``step`` and ``step + 1`` swapped: each row's content (payload, meta, hash,
    text) moved to the other's place."""
    columns = "type, payload, meta, hash, text"
    rows = {
        seq: rest
        for seq, *rest in conn.execute(
            f"SELECT sequence, {columns} FROM events WHERE game_no = {NO} AND sequence IN (?, ?)",
            (gid, step, step + 1),
        )
    }
    for seq, other in ((step, step + 1), (step + 1, step)):
        conn.execute(
            "UPDATE events SET type = ?, payload = ?, meta = ?, hash = ?, text = ?"
            f" WHERE game_no = {NO} AND sequence = ?",
            (*rows[other], gid, seq),
        )


def _delete(conn: sqlite3.Connection, gid: str, step: int) -> None:
    conn.execute(f"DELETE FROM events WHERE game_no = {NO} AND sequence = ?", (gid, step))


TAMPERINGS: dict[str, Callable[[sqlite3.Connection, str, int], None]] = {
    "edited": _edit,
    "swapped": _swap,
    "deleted": _delete,
}

#: The first step changed.
STEP = 6


@pytest.fixture(params=sorted(TAMPERINGS))
def tampered(request: Any, games: Any, tmp_path: Path) -> tuple[str, str, int, str]:
    """A copy of the games where the first simulated game was changed at :data:`STEP`:
    the file, the game, its stored event count and how it was changed."""
    path = tmp_path / "tampered.db"
    shutil.copy(games.path, path)
    gid = games.simulated[0]
    with EventStore.open(path) as store:
        count = store.game(gid).event_count
    with sqlite3.connect(path) as conn:
        for name in ("events_no_update", "events_no_delete", "events_append_in_sequence"):
            conn.execute(f"DROP TRIGGER {name}")
        TAMPERINGS[request.param](conn, gid, STEP)
    return str(path), gid, count, request.param


def test_a_tampered_game_shows_the_steps_before_the_change(tampered: Any) -> None:
    path, gid, count, _ = tampered
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    for step in (0, 1, STEP - 1):
        page = client.get(f"/games/{gid}/step/{step}")
        html = page.get_data(as_text=True)
        assert page.status_code == 200, html
        assert 'class="altered"' in html and f"</b> at step {STEP}: " in html
        assert f'max="{STEP - 1}"' in html and "data-stream" not in html
    for step in (STEP, count):
        page = client.get(f"/games/{gid}/step/{step}")
        assert page.status_code == 302
        assert page.headers["Location"].endswith(f"/games/{gid}/step/{STEP - 1}")
    for what in ("svg", "png"):
        assert client.get(f"/games/{gid}/step/{STEP - 1}.{what}").status_code == 200
        assert client.get(f"/games/{gid}/step/{count}.{what}").status_code == 409
    # the API: the facts, the steps before, 409 past them
    body = client.get(f"/api/games/{gid}").get_json()
    assert body["altered"]["step"] == STEP and body["altered"]["reasons"]
    assert [e["sequence"] for e in body["events"]] == list(range(1, STEP))
    assert client.get(f"/api/games/{gid}/state?step={STEP - 1}").status_code == 200
    refused = client.get(f"/api/games/{gid}/state?step={count}")
    assert refused.status_code == 409
    assert f"altered at step {STEP}" in refused.get_json()["error"]["message"]
    check = client.get(f"/api/games/{gid}/check", query_string={"step": count, "move": "x"})
    assert check.status_code == 409
    # a list of games still lists it
    assert client.get("/").status_code == 200


def test_nothing_is_logged_to_a_tampered_game(tampered: Any) -> None:
    path, gid, count, how = tampered
    app = create_app({"DATABASE": path, "TESTING": True})
    with EventStore.open(path) as store:
        key = store.keys.issue(gid)
    client = app.test_client()
    auth = {"Authorization": f"Bearer {key}"}
    for url, body in (
        (f"/api/games/{gid}/events", {"move": "take a1", "expect": count}),
        (f"/api/games/{gid}/undo", {"expect": count}),
    ):
        answer = client.post(url, json=body, headers=auth)
        assert answer.status_code == 409, answer.get_data(as_text=True)
        assert "altered" in answer.get_json()["error"]["message"]
    with sqlite3.connect(path) as conn:
        (after,) = conn.execute(
            f"SELECT count(*) FROM events WHERE game_no = {NO}", (gid,)
        ).fetchone()
    assert after == (count - 1 if how == "deleted" else count)  # nothing was written


def test_the_stream_sends_the_steps_before_then_the_facts(games: Any, tmp_path: Path) -> None:
    path = tmp_path / "stream.db"
    shutil.copy(games.path, path)
    with EventStore.open(path) as store:
        # a game still being played, so that the stream follows it
        events = [e.event for e in store.events(games.simulated[1])[:20]]
        gid = store.import_game(game_import_from_events(events, {"players": ["Ann", "Bo"]})).game_id
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        _edit(conn, gid, STEP)
    server = BackgroundServer(create_app({"DATABASE": str(path)}), threads=4)
    try:
        stream = Stream(server.port, f"/api/games/{gid}/stream?after=0")
        assert stream.status == 200
        kinds = []
        while (event := stream.next()) is not None:
            kinds.append((event.kind, event.data.get("step")))
            if event.kind == "altered":
                assert f"altered at step {STEP}" in event.data["message"]
        stream.close()
    finally:
        server.stop()
    assert kinds == [
        ("hello", None),
        *[("step", n) for n in range(1, STEP)],
        ("altered", STEP),
    ]
