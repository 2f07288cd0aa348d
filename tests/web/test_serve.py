"""``tablelog serve``: sample games for an empty database, and the real server answering."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore
from web.samples import ensure_sample_games, sample_files

ROOT = Path(__file__).resolve().parents[2]


def test_empty_database_gets_simulated_games_when_no_sample_loads(tmp_path: Path) -> None:
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "broken.json").write_text("{not json", encoding="utf-8")
    said: list[str] = []
    with EventStore.open(str(tmp_path / "t.db")) as store:
        added = ensure_sample_games(store, folder, simulated=3, say=said.append)
        assert added == 3 and store.listing.count() == 3
        assert any("broken.json" in line for line in said)
        assert any("simulated" in line for line in said)
        # a database that holds games is left alone
        assert ensure_sample_games(store, folder, say=said.append) == 0
        assert store.listing.count() == 3


def test_repository_samples_load(tmp_path: Path) -> None:
    files = sample_files(ROOT / "fixtures" / "games")
    said: list[str] = []
    with EventStore.open(str(tmp_path / "t.db")) as store:
        added = ensure_sample_games(store, ROOT / "fixtures" / "games", say=said.append)
        assert added == store.listing.count() > 0
    if files:
        assert not any(line.startswith("skipped") for line in said), said


def test_serve_refuses_an_unusable_database(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path), "--port", "0"])
    assert result.exit_code != 0
    assert str(tmp_path) in result.output
    assert "Traceback" not in result.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read(), r.headers
    finally:
        conn.close()


@contextmanager
def _serving(tmp_path: Path, *options: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``tablelog serve`` as a real process over a new database of simulated games, once
    it answers; its output is read when it has stopped."""
    port = _free_port()
    env = {**os.environ, "TABLELOG_DB": str(tmp_path / "data" / "site.db")}
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "tablelog"),
            "serve",
            "--port",
            str(port),
            "--samples",
            str(tmp_path / "none"),
            *options,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(port, "/api/games?per_page=1")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(proc.stdout.read() if proc.stdout else "") from None
                time.sleep(0.2)
        yield proc, port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    return [
        int(c)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for c in (task / "children").read_text().split()
    ]


def test_serve_creates_the_database_loads_samples_and_answers(tmp_path: Path) -> None:
    db = tmp_path / "data" / "site.db"
    with _serving(tmp_path) as (proc, port):
        status, body, headers = _get(port, "/")
        assert status == 200 and b"vs" in body
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        status, body, _ = _get(port, "/api/games")
        assert status == 200 and b'"total":6' in body
        status, _, _ = _get(port, "/games/unknown")
        assert status == 404
    out = proc.stdout.read() if proc.stdout else ""
    assert db.exists()
    assert "simulated" in out


def _first_game(port: int) -> str:
    status, body, _ = _get(port, "/api/games?per_page=1")
    assert status == 200
    return str(json.loads(body)["games"][0]["id"])


def test_serve_with_worker_processes(tmp_path: Path) -> None:
    """Two gevent worker processes answer; each answers a step with the same bytes and
    ETag, and a conditional GET with a 304, whichever worker takes the connection."""
    with _serving(tmp_path, "--workers", "2") as (proc, port):
        if sys.platform == "linux":  # the second may still be starting
            deadline = time.monotonic() + 30
            while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert len(_children(proc.pid)) == 2
        gid = _first_game(port)
        answers = {_get(port, f"/games/{gid}/step/9")[1] for _ in range(8)}
        assert len(answers) == 1
        tags = {_get(port, f"/api/games/{gid}/state?step=9")[2]["ETag"] for _ in range(8)}
        assert len(tags) == 1
        status, body, headers = _get(
            port, f"/api/games/{gid}/state?step=9", {"If-None-Match": tags.pop()}
        )
        assert status == 304 and body == b""
        assert headers["Cache-Control"] == "no-cache"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            for step in (10, 11):  # kept alive: both on one connection, to one worker
                conn.request("GET", f"/games/{gid}/step/{step}")
                response = conn.getresponse()
                response.read()
                assert response.status == 200 and not response.will_close
        finally:
            conn.close()
    out = proc.stdout.read() if proc.stdout else ""
    assert "with 2 gevent worker processes (gunicorn)" in out
    assert "Traceback" not in out
    assert "MonkeyPatchWarning" not in out and "Warning" not in out


def test_serve_in_one_process(tmp_path: Path) -> None:
    with _serving(tmp_path, "--server", "waitress", "--threads", "4") as (proc, port):
        if sys.platform == "linux":
            assert _children(proc.pid) == []
        gid = _first_game(port)
        status, _, headers = _get(port, f"/games/{gid}/step/4")
        assert status == 200
        status, _, _ = _get(port, f"/games/{gid}/step/4", {"If-None-Match": headers["ETag"]})
        assert status == 304
    out = proc.stdout.read() if proc.stdout else ""
    assert "with one process (waitress), 4 threads" in out


def test_serve_names_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            cli,
            [
                "serve",
                "--db",
                str(tmp_path / "t.db"),
                "--samples",
                str(tmp_path / "none"),
                "--port",
                str(port),
            ],
        )
    assert result.exit_code != 0
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


# --- kept-alive connections, taken in turn --------------------------------------------------


def _read_answers(sock: socket.socket, n: int) -> list[tuple[int, bytes]]:
    """``n`` answers read from ``sock`` in order: (status, headers block) each (bodies
    are read by their Content-Length and dropped)."""
    buffer = b""
    out = []
    while len(out) < n:
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            assert chunk, f"the server closed the connection after {len(out)} answers"
            buffer += chunk
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(buffer) < length:
            chunk = sock.recv(65536)
            assert chunk, "the server closed the connection in the middle of an answer"
            buffer += chunk
        buffer = buffer[length:]
        out.append((int(head.split(b" ", 2)[1]), head))
    return out


def test_a_connection_is_kept_alive_and_a_busy_one_does_not_hold_the_worker(
    tmp_path: Path,
) -> None:
    """Requests on one connection are all answered on it (no ``Connection: close``); and
    with one worker, a client pipelining hundreds of requests on its connection does not
    keep another client waiting until they are all answered: the worker takes its
    connections in turn."""
    with _serving(tmp_path, "--workers", "1") as (_proc, port):
        gid = _first_game(port)
        one = socket.create_connection(("127.0.0.1", port), timeout=30)
        try:
            for step in range(3):
                one.sendall(f"GET /games/{gid}/step/{step} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                ((status, head),) = _read_answers(one, 1)
                assert status == 200 and b"connection: close" not in head.lower()
        finally:
            one.close()

        # the busy client reads its answers as they come, so the worker never waits to
        # send one, and its next request is always there to be read
        n = 400
        pipelined = b"".join(
            f"GET /games/{gid}/step/{i % 7}?ask={i} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            for i in range(n)
        )
        busy = socket.create_connection(("127.0.0.1", port), timeout=60)
        answers: list[tuple[int, bytes]] = []
        reader = threading.Thread(target=lambda: answers.extend(_read_answers(busy, n)))
        try:
            started = time.monotonic()
            reader.start()
            busy.sendall(pipelined)
            time.sleep(0.05)  # the worker is answering the pipeline
            other = _timed_get(port, "/api/games?per_page=2")
            reader.join(60)
            whole = time.monotonic() - started
        finally:
            busy.close()
        assert [status for status, _ in answers] == [200] * n
        # taken in turn, the other client waits about one answer of the pipeline, not
        # for all of them (without turns it waited for the whole pipeline)
        assert other < whole / 4, (other, whole)


# --- idle and slow clients, open streams ---------------------------------------------------


def _timed_get(port: int, path: str) -> float:
    """Seconds to get ``path`` on a new connection (status 200 asserted)."""
    started = time.monotonic()
    status, _, _ = _get(port, path)
    assert status == 200, path
    return time.monotonic() - started


def _game_in_progress(tmp_path: Path) -> tuple[Path, str]:
    """The database ``_serving`` serves, holding a game in progress: its path and id."""
    from recorder.logbook import new_game

    db = tmp_path / "data" / "site.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    text = (ROOT / "fixtures" / "games" / "points.tl").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "".join(line for line in lines[:first] if not line.startswith(("[Result", "[Vic")))
    with EventStore.open(db) as store:
        return db, new_game(store, setup)


def test_half_open_and_slow_clients_do_not_delay_a_request(tmp_path: Path) -> None:
    """Two half-open requests, two silent connections and a client sending a byte a
    second, per worker: a normal request is still answered at once."""
    with _serving(tmp_path, "--workers", "2") as (_proc, port):
        gid = _first_game(port)
        for _ in range(2):  # each worker folds the game and renders its pages once
            for step in range(5, 9):
                _get(port, f"/games/{gid}/step/{step}")
        stuck = []
        for _ in range(2):
            half = socket.create_connection(("127.0.0.1", port))
            half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # the request never ends
            stuck += [half, socket.create_connection(("127.0.0.1", port))]
        slow = socket.create_connection(("127.0.0.1", port))
        stuck.append(slow)
        try:
            request = f"GET /games/{gid}/step/3 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            for i in range(4):  # a byte a second, between the requests
                slow.sendall(request[i : i + 1])
                assert _timed_get(port, f"/games/{gid}/step/{5 + i}") < 1.0
                assert _timed_get(port, "/api/games?per_page=2") < 1.0
                time.sleep(1)
        finally:
            for s in stuck:
                s.close()


def test_hundreds_of_open_streams_do_not_delay_a_request_and_all_get_the_move(
    tmp_path: Path,
) -> None:
    """300 followers of a game hold streams on two workers; pages answer at once, and a
    move logged by the command line reaches every follower."""
    import select

    db, gid = _game_in_progress(tmp_path)
    with _serving(tmp_path, "--workers", "2") as (_proc, port):
        streams = []
        request = f"GET /api/games/{gid}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(request)
            streams.append(s)
        received = {s: b"" for s in streams}

        def read_until(word: bytes, timeout: float) -> set[socket.socket]:
            deadline = time.monotonic() + timeout
            waiting = {s for s in streams if word not in received[s]}
            while waiting and time.monotonic() < deadline:
                ready, _, _ = select.select(list(waiting), [], [], 0.5)
                for s in ready:
                    received[s] += s.recv(65536)
                    if word in received[s]:
                        waiting.discard(s)
            return waiting

        try:
            assert read_until(b"event: hello", 30) == set()
            for i in range(4):  # each worker folds the game and renders its pages once
                _get(port, f"/games/{gid}/step/{i % 2}")
                _get(port, "/")
            for step in range(5):
                assert _timed_get(port, f"/games/{gid}/step/{step % 2}") < 1.0
            assert _timed_get(port, "/") < 1.0
            logged = subprocess.run(
                [
                    str(Path(sys.executable).parent / "tablelog"),
                    "log",
                    gid,
                    "take a1 a2 a3 =WWG",
                    "--db",
                    str(db),
                ],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert logged.returncode == 0, logged.stderr
            assert read_until(b"event: step", 30) == set()
            assert all(b'"text":"take a1 a2 a3 =WWG"' in received[s] for s in streams)
        finally:
            for s in streams:
                s.close()


def test_serving_beyond_loopback_prints_the_secret_for_creating_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLELOG_SECRET", "table-secret-42")
    with _serving(tmp_path, "--host", "0.0.0.0", "--workers", "1") as (proc, port):
        assert _get(port, "/api/games?per_page=1")[0] == 200
    out = proc.stdout.read() if proc.stdout else ""
    assert "from another device: http://" in out
    assert "secret for creating games from another device: table-secret-42" in out
    with _serving(tmp_path / "again") as (proc, _port):
        pass
    out = proc.stdout.read() if proc.stdout else ""
    assert "secret" not in out


def test_a_write_waiting_for_the_database_lock_does_not_stop_its_worker(tmp_path: Path) -> None:
    """Another process holds SQLite's write lock for 3 s: a move posted meanwhile waits
    for it (and is then written), while pages and streams of the same single worker go
    on answering."""
    import sqlite3
    import threading

    db, gid = _game_in_progress(tmp_path)
    with EventStore.open(db) as store:
        key = store.keys.issue(gid)
    with _serving(tmp_path, "--workers", "1") as (_proc, port):
        assert _timed_get(port, f"/games/{gid}/step/1") < 5  # warm
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        answers: list[tuple[int, float]] = []

        def post() -> None:
            started = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request(
                "POST",
                f"/api/games/{gid}/events",
                body=json.dumps({"move": "take a1 a2 a3 =WWG", "expect": 1}),
                headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            conn.close()
            answers.append((response.status, time.monotonic() - started))

        writer = threading.Thread(target=post)
        try:
            writer.start()
            time.sleep(0.5)  # the write is waiting for the lock now
            for step in (0, 1, 0, 1):
                assert _timed_get(port, f"/games/{gid}/step/{step}") < 1.0
            assert _timed_get(port, "/api/games?per_page=1") < 1.0
            time.sleep(2)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            writer.join(30)
        (status, seconds) = answers[0]
        assert status == 201 and seconds >= 2
        assert _get(port, f"/games/{gid}/step/2")[0] == 200


#: Requests the server refuses before the app sees them (issue 12: answered without the
#: security headers the site sends), with the statuses gunicorn and waitress give them.
_REFUSED_BY_THE_SERVER = {
    "bad request line": (b"GARBAGE\r\n\r\n", {400}),
    "headers too large": (
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n",
        {400, 431},
    ),
    "URI too long": (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", {414, 200, 404}),
    "unknown transfer coding": (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
        {400},
    ),
}


def _raw(port: int, request: bytes) -> tuple[int, dict[str, str]]:
    """Send bytes as they are; the answer's status and headers."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        if not request.endswith(b"\r\n\r\n"):
            s.sendall(b"\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    return status, {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:])}


@pytest.mark.parametrize("server", ["gunicorn", "waitress"])
def test_answers_of_the_server_itself_carry_the_security_headers(
    tmp_path: Path, server: str
) -> None:
    from web import SECURITY_HEADERS

    with _serving(tmp_path, "--server", server, "--workers", "1", "--threads", "2") as (_, port):
        for what, (request, statuses) in _REFUSED_BY_THE_SERVER.items():
            status, headers = _raw(port, request)
            assert status in statuses, (server, what, status)
            for name, value in SECURITY_HEADERS:
                assert headers.get(name.lower()) == value, (server, what, name)


#: Requests to the API the server refuses itself, with the statuses either server gives.
_API_REFUSED_BY_THE_SERVER = {
    "bad HTTP version": (b"GET /api/games HTTP/9.x\r\nHost: x\r\n\r\n", {400, 505}),
    "headers too large": (
        b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n",
        {400, 431},
    ),
    "body too large": (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 99999999\r\n\r\n{",
        {413},
    ),
    "target too long": (
        b"GET /api/games?q=" + b"a" * 300_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        {400, 414, 431},
    ),
}


def _raw_body(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; the answer's status, headers and body (to the end of the
    connection, which a refusal closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        # (refused before all was sent: the answer is there to read)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(request + (b"" if request.endswith(b"\r\n\r\n") else b"\r\n"))
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(65536):
                data += chunk
                head, _, body = data.partition(b"\r\n\r\n")
                length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                if length and len(body) >= int(length.group(1)):
                    break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("server", ["gunicorn", "waitress"])
def test_the_servers_own_refusals_of_api_requests_are_json(tmp_path: Path, server: str) -> None:
    """An API client reads every error the same way, the server's own refusals (before
    the app sees the request) included; other pages keep the server's page."""
    with _serving(tmp_path, "--server", server, "--workers", "1", "--threads", "2") as (_, port):
        for what, (request, statuses) in _API_REFUSED_BY_THE_SERVER.items():
            status, headers, body = _raw_body(port, request)
            assert status in statuses, (server, what, status)
            assert headers["content-type"] == "application/json", (server, what, headers)
            error = json.loads(body)["error"]
            assert error["status"] == status and error["title"] and error["message"], error
            assert headers["x-content-type-options"] == "nosniff"
        status, headers, _ = _raw_body(port, b"GET / HTTP/9.x\r\nHost: x\r\n\r\n")
        assert status in {400, 505} and "json" not in headers.get("content-type", "")
        assert _get(port, "/api/games?per_page=1")[0] == 200  # and the server goes on


@pytest.mark.parametrize("server", ["gunicorn", "waitress"])
def test_a_get_that_announces_a_body_and_sends_none_is_answered(
    tmp_path: Path, server: str
) -> None:
    """A GET's body is read by nobody: gunicorn answers the GET, waitress (which reads
    every body before the app) refuses it at once; neither waits for the body."""
    with _serving(tmp_path, "--server", server, "--workers", "1", "--threads", "2") as (_, port):
        for announced in (b"Transfer-Encoding: chunked", b"Content-Length: 20"):
            started = time.monotonic()
            status, headers, body = _raw_body(
                port,
                b"GET /api/games?per_page=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + announced
                + b"\r\n\r\n",
            )
            assert time.monotonic() - started < 5, (server, announced)
            if server == "gunicorn":
                assert status == 200 and b'"games"' in body
            else:
                assert status == 400 and headers["content-type"] == "application/json"
                assert "a GET request has no body" in json.loads(body)["error"]["message"]


@pytest.mark.parametrize("server", ["gunicorn", "waitress"])
def test_a_malformed_chunked_body_is_a_400_not_a_500(tmp_path: Path, server: str) -> None:
    """A chunked body whose chunk size does not read: gunicorn reads it only when the view
    does, waitress before; either way the client is told its request is bad."""
    with _serving(tmp_path, "--server", server, "--workers", "1", "--threads", "2") as (_, port):
        status, headers = _raw(
            port,
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        )
        assert status == 400, (server, status)
        assert _get(port, "/api/games?per_page=1")[0] == 200  # and the server goes on


def test_waitress_answers_a_request_without_a_body_that_expects_to_continue(
    tmp_path: Path,
) -> None:
    """``Expect: 100-continue`` on a GET (no body to send): the answer itself comes."""
    with _serving(tmp_path, "--server", "waitress", "--threads", "2") as (_, port):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(
                b"GET /api/games?per_page=1 HTTP/1.1\r\nHost: x\r\n"
                b"Expect: 100-continue\r\nConnection: close\r\n\r\n"
            )
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        assert data.startswith(b"HTTP/1.1 200 OK\r\n"), data[:200]
        assert b'"games"' in data
        # a POST that does expect to send a body still gets the go-ahead first
        status, _ = _raw(
            port,
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 2\r\nExpect: 100-continue\r\n\r\n",
        )
        assert status == 100
