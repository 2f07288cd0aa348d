"""Following a game live when several servers serve one PostgreSQL database: a move
logged through one server's API reaches a follower of another server, told by the
store's notifications (LISTEN/NOTIFY), not by polling a file."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from recorder import open_store
from recorder.logbook import new_game, start_game
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
        key = store.keys.issue(gid)
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


def test_followers_of_two_databases_in_one_process_follow_their_own_record(pg_cluster):
    """Two sites in one process over two databases that hold a game of the same id (a
    club's copy of another's record): each one's follower reads its own database, though
    the other database's record of the game is further on."""
    setup, turns = split_fixture(FIXTURE)
    urls = [pg_cluster.new_schema(), pg_cluster.new_schema()]
    gid, keys = "a1b2c3d4e5f6", []
    for url in urls:
        with open_store(url) as store:
            start_game(store, setup, game_id=gid)
            keys.append(store.keys.issue(gid))
    a, b = (
        BackgroundServer(create_app({"DATABASE": url, "LIVE_STREAM_SECONDS": 10})) for url in urls
    )
    try:
        ahead = Stream(a.port, f"/api/games/{gid}/stream")
        try:
            assert ahead.status == 200, ahead.response.read()
            assert ahead.next().kind == "hello"
            for line in turns[:3]:
                assert post(a.port, f"/api/games/{gid}/events", {"move": line}, keys[0])[0] == 201
            assert [e.data["step"] for e in ahead.steps(4)] == [2, 3, 4]
        finally:
            ahead.close()
        behind = Stream(b.port, f"/api/games/{gid}/stream")
        try:
            assert behind.next().kind == "hello"
            got = []
            for step, line in enumerate(turns[:2], start=2):
                assert post(b.port, f"/api/games/{gid}/events", {"move": line}, keys[1])[0] == 201
                got += behind.steps(step)
        finally:
            behind.close()
    finally:
        a.stop()
        b.stop()
    assert [e.data["step"] for e in got] == [2, 3]
    assert got[0].data["text"] == "take a1 a2 a3 =WWG"


def serving(url: str, port: int) -> subprocess.Popen[str]:
    """``tablelog serve`` (gunicorn, a gevent worker) over ``url``, once it answers."""
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "tablelog"), "serve", "--port", str(port)]
        + ["--workers", "1", "--db", url, "--samples", "/nonexistent"],
        env={**os.environ, "TABLELOG_DB": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/games?per_page=1")
            conn.getresponse().read()
            conn.close()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(proc.stdout.read() if proc.stdout else "") from None
            time.sleep(0.2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_two_tablelog_serve_processes_over_one_database_follow_each_other(pg_url):
    """The real servers (gunicorn's gevent workers): a stream held open on one does not
    stop its worker (the driver waits gevent's way), and a move logged through the
    other reaches it."""
    setup, turns = split_fixture(FIXTURE)
    with open_store(pg_url) as store:
        gid = new_game(store, setup)
        key = store.keys.issue(gid)
    a, b = free_port(), free_port()
    procs = [serving(pg_url, a), serving(pg_url, b)]
    try:
        stream = Stream(a, f"/api/games/{gid}/stream")
        try:
            assert stream.next().kind == "hello"
            conn = http.client.HTTPConnection("127.0.0.1", a, timeout=10)
            conn.request("GET", f"/games/{gid}")
            assert conn.getresponse().status in (200, 302)  # the worker still answers
            conn.close()
            status, body = post(b, f"/api/games/{gid}/events", {"move": turns[0]}, key)
            assert status == 201, body
            (event,) = stream.steps(2)
        finally:
            stream.close()
    finally:
        outputs = []
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
            outputs.append(proc.stdout.read() if proc.stdout else "")
    assert event.data["text"] == "take a1 a2 a3 =WWG"
    for out in outputs:
        assert "gevent worker" in out and "Traceback" not in out, out
