"""Following a game live when several servers serve one PostgreSQL database: a move
logged through one server's API reaches a follower of another server, told by the
store's notifications (LISTEN/NOTIFY), not by polling a file."""

from __future__ import annotations

import http.client
import json
import sys
from pathlib import Path

from recorder import open_store
from recorder.table import new_game
from web import create_app
from web.server import BackgroundServer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_live import FIXTURE, Stream, split_fixture  # noqa: E402


def post(port: int, path: str, body: dict, key: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request(
            "POST",
            path,
            body=json.dumps(body),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_a_move_logged_through_one_server_reaches_a_follower_of_another(pg_url):
    setup, turns = split_fixture(FIXTURE)
    with open_store(pg_url) as store:
        gid = new_game(store, setup)
        key = store.issue_recorder_key(gid)
    servers = [
        BackgroundServer(
            create_app(
                # a stream ends after 10 s: a move that never arrives fails the test
                {"DATABASE": pg_url, "STORE_PER_THREAD": per_thread, "LIVE_STREAM_SECONDS": 10}
            )
        )
        for per_thread in (True, False)
    ]
    a, b = servers
    stream = Stream(a.port, f"/api/games/{gid}/stream")
    try:
        hello = stream.next()
        assert hello is not None and hello.kind == "hello"
        for line in turns[:3]:
            status, body = post(b.port, f"/api/games/{gid}/events", {"move": line}, key)
            assert status == 201, body
        got = stream.steps(4)
        # And the other way round, on a stream of server B.
        other = Stream(b.port, f"/api/games/{gid}/stream?after=4")
        try:
            status, _ = post(a.port, f"/api/games/{gid}/events", {"move": turns[3]}, key)
            assert status == 201
            (back,) = other.steps(5)
        finally:
            other.close()
    finally:
        stream.close()
        for server in servers:
            server.stop()
    assert [e.data["step"] for e in got] == [2, 3, 4]
    assert got[0].data["text"] == "take a1 a2 a3 =WWG"
    assert back.data["step"] == 5
