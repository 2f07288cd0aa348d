"""Following a game live (``GET /api/games/<id>/stream``): the real server on a real SQLite
file, moves logged on another connection (``recorder.logbook.log``) or by another process
(``tablelog log``), read back as server-sent events."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.logbook import log, new_game, undo
from web import create_app
from web.server import BackgroundServer

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "games" / "points.tl"


def split_fixture(path: Path) -> tuple[str, list[str]]:
    """A fixture as the table knows it before the first move, and its turn lines."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "".join(line for line in lines[:first] if not line.startswith(("[Result", "[Victory")))
    return setup, [line.rstrip("\n") for line in lines[first:]]


@dataclass
class Event:
    id: str | None
    kind: str
    data: Any


class Stream:
    """A server-sent events client over one HTTP connection."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        self.conn.request("GET", path, headers=headers or {})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.comments: list[str] = []
        self.retry: int | None = None

    def next(self) -> Event | None:
        """The next event, or None when the server closed the stream."""
        fields: dict[str, str] = {}
        data: list[str] = []
        while True:
            raw = self.response.readline()
            if not raw:
                return None
            line = raw.decode().rstrip("\n")
            if not line:
                if data or fields:
                    if "retry" in fields and not data:
                        self.retry = int(fields["retry"])
                        fields = {}
                        continue
                    body = json.loads("\n".join(data))
                    return Event(fields.get("id"), fields.get("event", "message"), body)
                continue
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data.append(value)
            else:
                fields[name] = value

    def steps(self, upto: int) -> list[Event]:
        """The step events until step ``upto`` (hello events skipped)."""
        out: list[Event] = []
        seen: list[Event] = []  # every event read, for a failure's message
        started = time.monotonic()
        while True:
            event = self.next()
            assert event is not None, (
                f"stream closed before step {upto}, {time.monotonic() - started:.1f} s "
                f"after the wait began; it sent {seen}"
            )
            seen.append(event)
            if event.kind == "step":
                out.append(event)
                if event.data["step"] >= upto:
                    return out

    def close(self) -> None:
        self.conn.close()


@pytest.fixture(params=[True, False], ids=["store-per-thread", "store-per-request"])
def live(tmp_path: Path, request: Any) -> Iterator[tuple[BackgroundServer, str, str]]:
    """A server over a new database holding the points fixture's set-up: the server, the
    file and the game's id (the app keeping a store per thread, as ``tablelog serve``
    does, or opening one per request)."""
    path = str(tmp_path / "live.db")
    setup, _ = split_fixture(FIXTURE)
    with EventStore.open(path) as store:
        gid = new_game(store, setup)
    app = create_app(
        {"DATABASE": path, "STORE_PER_THREAD": request.param, "LIVE_HEARTBEAT_SECONDS": 5}
    )
    server = BackgroundServer(app, threads=16)
    yield server, path, gid
    server.stop()


def test_the_stream_delivers_appended_steps_in_order_with_the_move_lists_texts(live):
    server, path, gid = live
    _, turns = split_fixture(FIXTURE)
    stream = Stream(server.port, f"/api/games/{gid}/stream")
    try:
        assert stream.status == 200
        assert stream.response.headers["Content-Type"].startswith("text/event-stream")
        assert stream.response.headers["Cache-Control"] == "no-cache"
        hello = stream.next()
        assert hello is not None and (hello.kind, hello.id) == ("hello", "1")
        assert stream.retry == 2000
        texts = []
        with EventStore.open(path) as store:  # another connection than the server's
            for line in turns[:6]:
                texts += log(store, gid, line).texts
            last = store.game(gid).event_count
        got = stream.steps(last)
    finally:
        stream.close()
    assert [e.data["step"] for e in got] == list(range(2, last + 1))
    assert [e.id for e in got] == [str(n) for n in range(2, last + 1)]
    assert [e.data["text"] for e in got] == texts
    first = got[0].data
    assert first["by"] == "Bob" and first["turn"] == 1 and first["lines"]
    assert first["url"] == f"/games/{gid}/step/2"
    assert first["status"]["to_move"] == 0 and first["status"]["result"] is None  # Alice


def test_a_stream_resumes_after_last_event_id_without_loss_or_duplicates(live):
    server, path, gid = live
    _, turns = split_fixture(FIXTURE)
    with EventStore.open(path) as store:
        for line in turns[:4]:
            log(store, gid, line)
        steps = store.game(gid).event_count
    first = Stream(server.port, f"/api/games/{gid}/stream?after=0")
    try:
        got = first.steps(3)
    finally:
        first.close()
    assert [e.data["step"] for e in got] == [1, 2, 3]
    # the browser comes back with the id of the last event it got; ?after is older news
    again = Stream(server.port, f"/api/games/{gid}/stream?after=0", {"Last-Event-ID": got[-1].id})
    try:
        hello = again.next()
        assert hello is not None and hello.kind == "hello" and hello.data["after"] == 3
        with EventStore.open(path) as store:
            log(store, gid, turns[4])
        rest = again.steps(steps + 1)
    finally:
        again.close()
    assert [e.data["step"] for e in rest] == list(range(4, steps + 2))


def test_an_undo_is_a_step_of_the_stream(live):
    server, path, gid = live
    _, turns = split_fixture(FIXTURE)
    with EventStore.open(path) as store:
        log(store, gid, turns[0])
        stream = Stream(server.port, f"/api/games/{gid}/stream")
        try:
            taken = undo(store, gid)
            (event,) = stream.steps(3)
        finally:
            stream.close()
    assert event.data["correction"] is True and event.data["back_to"] == 1
    assert event.data["text"] == taken.texts[0]
    assert event.data["status"]["to_move"] == 1  # Bob again


def test_a_step_logged_by_another_process_reaches_a_follower(live):
    server, path, gid = live
    _, turns = split_fixture(FIXTURE)
    stream = Stream(server.port, f"/api/games/{gid}/stream")
    try:
        stream.next()
        tablelog = str(Path(sys.executable).parent / "tablelog")
        done = subprocess.run(
            [tablelog, "log", gid, turns[0], "--expect", "1", "--db", path],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        (event,) = stream.steps(2)
    finally:
        stream.close()
    assert event.data["text"] == "take a1 a2 a3 =WWG"


def test_unknown_game_and_bad_resume_points_are_refused_in_json(live):
    server, _, gid = live
    for path, headers, status, words in (
        ("/api/games/nosuchgame/stream", {}, 404, "no game 'nosuchgame'"),
        (f"/api/games/{gid}/stream", {"Last-Event-ID": "x1"}, 400, "Last-Event-ID"),
        (f"/api/games/{gid}/stream?after=-2", {}, 400, "after: expected a step number"),
        (f"/api/games/{gid}/stream?after=9", {}, 400, "has steps 0 to 1, not 9"),
    ):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = json.loads(response.read())
        finally:
            conn.close()
        assert response.status == status, path
        assert body["error"]["status"] == status and words in body["error"]["message"]


def test_a_finished_game_ends_its_stream_and_a_caught_up_client_is_told_to_stop(tmp_path):
    path = str(tmp_path / "done.db")
    setup, turns = split_fixture(FIXTURE)
    with EventStore.open(path) as store:
        gid = new_game(store, setup)
        for line in turns[:-1]:
            log(store, gid, line)
        before = store.game(gid).event_count
    with BackgroundServer(create_app({"DATABASE": path, "STORE_PER_THREAD": True})) as server:
        stream = Stream(server.port, f"/api/games/{gid}/stream")
        try:
            stream.next()
            with EventStore.open(path) as store:
                log(store, gid, turns[-1])
                last = store.game(gid).event_count
            got = stream.steps(last)
            end = stream.next()
            assert end is not None and end.kind == "end" and end.data["steps"] == last
            assert stream.next() is None  # closed by the server
        finally:
            stream.close()
        assert got[-1].data["status"]["result"]["text"].startswith("Bob won")
        assert [e.data["step"] for e in got] == list(range(before + 1, last + 1))
        done = Stream(server.port, f"/api/games/{gid}/stream", {"Last-Event-ID": str(last)})
        try:
            assert done.status == 204
        finally:
            done.close()


def test_an_idle_stream_beats_and_ends_at_its_lifetime(live):
    _, path, gid = live
    app = create_app(
        {
            "DATABASE": path,
            "LIVE_HEARTBEAT_SECONDS": 0.2,
            "LIVE_STREAM_SECONDS": 1.0,
            "LIVE_MAX_STREAMS": 1,
        }
    )
    with BackgroundServer(app) as server:
        stream = Stream(server.port, f"/api/games/{gid}/stream")
        try:
            # a second stream is over this server's cap: 503, try again later
            busy = Stream(server.port, f"/api/games/{gid}/stream")
            assert busy.status == 503 and busy.response.headers["Retry-After"]
            busy.close()
            assert stream.next() is not None  # hello
            started = time.monotonic()
            assert stream.next() is None  # no move: heartbeats, then the end of its life
            assert time.monotonic() - started < 10
            assert "heartbeat" in stream.comments
        finally:
            stream.close()


def test_a_step_page_follows_only_a_game_in_progress_and_is_never_stale(live):
    _, path, gid = live
    _, turns = split_fixture(FIXTURE)
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    page = client.get(f"/games/{gid}/step/1")
    html = page.get_data(as_text=True)
    assert '<script src="/static/follow.js" defer></script>' in html
    assert f'data-stream="/api/games/{gid}/stream"' in html
    assert 'Step <b class="stepno">1</b> of 1' in html
    with EventStore.open(path) as store:
        log(store, gid, turns[0])
    # the browser asks again with the ETag it has: the game grew, so the page is new
    again = client.get(f"/games/{gid}/step/1", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 200 and again.headers["ETag"] != page.headers["ETag"]
    assert 'Step <b class="stepno">1</b> of 2' in again.get_data(as_text=True)
    with EventStore.open(path) as store:
        for line in turns[1:]:
            log(store, gid, line)
        last = store.game(gid).event_count
    over = client.get(f"/games/{gid}/step/{last}").get_data(as_text=True)
    assert "follow.js" not in over and "data-stream" not in over


def test_the_stream_example_of_the_api_docs_is_what_the_server_sends(tmp_path):
    """docs/api.md's stream example, after its write examples (a new game, ``take c3 d3``,
    an undo): the server sends those bytes, the game's id aside."""
    import re

    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    example = re.search(
        r"```sh\ncurl -N 'http://127\.0\.0\.1:5000(?P<path>[^']+)'\n```\s*```text\n(?P<shown>.*?)```",
        doc,
        re.S,
    )
    assert example is not None
    setup = json.loads(re.search(r"-d '(\{\"notation\".*?)'\n", doc)[1])["notation"]
    path = str(tmp_path / "docs.db")
    with EventStore.open(path) as store:
        gid = new_game(store, setup)
        log(store, gid, "take c3 d3", expect=1)
        undo(store, gid, expect=2)
    with BackgroundServer(create_app({"DATABASE": path})) as server:
        stream = Stream(server.port, example["path"].replace("$ID", gid))
        try:
            sent = b""
            while sent.count(b"\nid: ") < 2 or not sent.endswith(b"\n\n"):
                sent += stream.response.read1(65536)
        finally:
            stream.close()
    assert sent.decode().replace(gid, "$ID") == example["shown"]
