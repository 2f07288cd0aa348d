"""Following a game live under load: the real server (``tablelog serve``, gunicorn's gevent
workers) on a temporary database; 200 followers hold streams of one game
(``GET /api/games/<id>/stream``) while one logger appends a whole fixture game through
the JSON API (``POST /api/games``, then ``POST /api/games/<id>/events`` with the recorder
key, a turn line at a time) and 16 readers load replay pages of that game.

    python bench/live.py [--followers 200] [--readers 16] [--fixture fixtures/games/points.tl]
                         [--move-pause-ms 250] [--reader-pause-ms 100] [--workers N]

The clients must not compete with the server for the interpreter more than they must: the
followers are one process of asyncio sockets, the readers another (asyncio, one kept
connection at a time, a pause of ``--reader-pause-ms`` between two pages like a person
stepping through a game; 0 for no pause at all), the logger this process.  Times come
from the system's monotonic clock, which every process on the machine shares.

Prints whether every follower got every step, in order and once (a count); the delivery
latency, from the logger's answer to a follower's receipt of the step (p50, p95, max;
a step announced before the logger has read its answer counts 0); the replay page's
latency during the run (p50, p95); the memory of the server's processes (the sum of
their RSS, and of their PSS, which counts pages the forked workers share once) before
the followers connect, with every stream open at the end of the game, and after they
closed.  Ends with one JSON line.  Targets: delivery p95 <= 1 s, page p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: The targets, in ms.
DELIVERY_P95_MS = 1000
PAGE_P95_MS = 50


def split_fixture(path: Path) -> tuple[str, list[str]]:
    """A fixture as the table knows it before the first move (its headers but the
    outcome, and the setup), and its turn lines."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "".join(line for line in lines[:first] if not line.startswith(("[Result", "[Victory")))
    return setup, [line.rstrip("\n") for line in lines[first:]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def figures(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "p50_ms": round(statistics.median(values) * 1000, 1),
        "p95_ms": round(percentile(values, 0.95) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
    }


# --- the server ---------------------------------------------------------------------------


def server_processes(pid: int) -> list[int]:
    """``pid`` and the processes it started (Linux's /proc)."""
    out, pending = [], [pid]
    while pending:
        current = pending.pop()
        out.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def memory_mb(pid: int) -> dict[str, float]:
    """The summed RSS and PSS of the server's processes, in MB."""
    rss = pss = 0
    for proc in server_processes(pid):
        try:
            for line in Path(f"/proc/{proc}/smaps_rollup").read_text().splitlines():
                name, _, rest = line.partition(":")
                if name in ("Rss", "Pss"):
                    kb = int(rest.split()[0])
                    if name == "Rss":
                        rss += kb
                    else:
                        pss += kb
        except OSError:
            continue
    return {"rss_mb": round(rss / 1024, 1), "pss_mb": round(pss / 1024, 1)}


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by the server's processes."""
    total = 0
    for proc in server_processes(pid):
        try:
            fields = Path(f"/proc/{proc}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def request(port: int, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        conn.request(
            method, path, body=json.dumps(body) if body is not None else None, headers=headers
        )
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
    return json.loads(data)


def wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server exited before answering")
        try:
            request(port, "GET", "/api/games?per_page=1")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer in time")


# --- followers (their own process) ------------------------------------------------------------


async def _follow(port: int, path: str, connected: list[int], out: list[tuple[int, float]]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    step = None
    kind = None
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                step = int(line[4:])
            elif line.startswith(b"event: "):
                kind = line[7:].strip()
                if kind == b"hello":
                    connected[0] += 1
                elif kind == b"end":
                    return
            elif line.startswith(b"data: ") and kind == b"step" and step is not None:
                out.append((step, time.monotonic()))
    finally:
        writer.close()


def followers(port: int, path: str, count: int, ready: Any, results: Any) -> None:
    """``count`` streams of ``path``; sets ``ready`` once every one has its hello, and
    puts each one's (step, receipt time) list on ``results`` when the game ends."""

    async def run() -> list[list[tuple[int, float]]]:
        connected = [0]
        received: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(_follow(port, path, connected, received[i])))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        while connected[0] < count:
            await asyncio.sleep(0.05)
        ready.set()
        await asyncio.wait(tasks, timeout=300)
        return received

    results.put(asyncio.run(run()))


# --- readers (their own process) --------------------------------------------------------------


async def _read_pages(
    port: int, game: str, steps: Any, stop: Any, pause: float, out: list[float], errors: list[int]
) -> None:
    """Load random steps of ``game`` until ``stop``, each answer timed from the request
    (on one kept-alive connection; a new one, whose time to connect is counted, when
    the server closed the last)."""
    rng = random.Random()
    reader = writer = None
    while not stop.is_set():
        step = rng.randint(0, steps.value)
        started = time.monotonic()
        if writer is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert reader is not None
        writer.write(f"GET /games/{game}/step/{step} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length, close = 0, False
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
            elif name.lower() == b"connection" and value.strip().lower() == b"close":
                close = True
        await reader.readexactly(length)
        out.append(time.monotonic() - started)
        if status != 200:
            errors.append(status)
        if close:
            writer.close()
            reader = writer = None
        if pause:
            await asyncio.sleep(pause * rng.uniform(0.5, 1.5))
    if writer is not None:
        writer.close()


def readers(
    port: int, game: str, count: int, steps: Any, stop: Any, pause: float, results: Any
) -> None:
    """``count`` readers loading random steps of ``game`` (up to ``steps.value``) until
    ``stop``; puts (latencies, error statuses) on ``results``."""

    async def run() -> tuple[list[float], list[int]]:
        out: list[float] = []
        errors: list[int] = []
        await asyncio.gather(
            *(_read_pages(port, game, steps, stop, pause, out, errors) for _ in range(count))
        )
        return out, errors

    results.put(asyncio.run(run()))


# --- the run ----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--readers", type=int, default=16)
    parser.add_argument("--fixture", type=Path, default=ROOT / "fixtures" / "games" / "points.tl")
    parser.add_argument("--move-pause-ms", type=float, default=250)
    parser.add_argument("--reader-pause-ms", type=float, default=100)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()

    setup, turns = split_fixture(args.fixture)
    tablelog = Path(sys.executable).parent / "tablelog"
    ctx = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="tablelog-live-") as tmp:
        db = Path(tmp) / "live.db"
        port = free_port()
        command = [str(tablelog), "serve", "--db", str(db), "--port", str(port)]
        command += ["--samples", str(Path(tmp) / "no-samples")]
        if args.workers:
            command += ["--workers", str(args.workers)]
        log_path = Path(tmp) / "server.log"
        with open(log_path, "wb") as server_log:
            server = subprocess.Popen(
                command, cwd=ROOT, stdout=server_log, stderr=subprocess.STDOUT
            )
        try:
            wait_ready(port, server)
            time.sleep(1)  # every worker up
            memory_before = memory_mb(server.pid)
            load_before = round(os.getloadavg()[0], 2)
            cpu_before = cpu_seconds(server.pid)

            created = request(port, "POST", "/api/games", {"notation": setup})
            game, key, steps_now = created["id"], created["key"], int(created["steps"])
            stream_path = f"/api/games/{game}/stream"

            ready = ctx.Event()
            follower_results = ctx.Queue()
            follower_proc = ctx.Process(
                target=followers, args=(port, stream_path, args.followers, ready, follower_results)
            )
            follower_proc.start()
            if not ready.wait(120):
                raise SystemExit("the followers could not all connect")

            steps = ctx.Value("i", steps_now)
            stop = ctx.Event()
            reader_results = ctx.Queue()
            reader_proc = ctx.Process(
                target=readers,
                args=(
                    port,
                    game,
                    args.readers,
                    steps,
                    stop,
                    args.reader_pause_ms / 1000,
                    reader_results,
                ),
            )
            reader_proc.start()
            time.sleep(0.5)

            answered: dict[int, float] = {}
            started = time.monotonic()
            for line in turns:
                answer = request(
                    port,
                    "POST",
                    f"/api/games/{game}/events",
                    {"move": line, "expect": steps_now},
                    key,
                )
                at = time.monotonic()
                for step in range(steps_now + 1, int(answer["step"]) + 1):
                    answered[step] = at
                steps_now = int(answer["step"])
                steps.value = steps_now
                time.sleep(args.move_pause_ms / 1000)
            logging_seconds = time.monotonic() - started
            memory_streams = memory_mb(server.pid)
            cpu_after = cpu_seconds(server.pid)

            received = follower_results.get(timeout=120)
            follower_proc.join(10)
            stop.set()
            pages, errors = reader_results.get(timeout=60)
            reader_proc.join(10)
            time.sleep(1)
            memory_after = memory_mb(server.pid)
        finally:
            server.terminate()
            server.wait(30)
        server_output = log_path.read_text(encoding="utf-8", errors="replace")

    expected = list(range(2, steps_now + 1))
    complete = sum(1 for got in received if [s for s, _ in got] == expected)
    delays = [max(0.0, t - answered[s]) for got in received for s, t in got if s in answered]
    delivery = figures(delays)
    page = figures(pages)
    result = {
        "bench": "live",
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "server_cpu_seconds": round(cpu_after - cpu_before, 2),
        "fixture": args.fixture.name,
        "steps": steps_now,
        "turns_logged": len(turns),
        "logging_seconds": round(logging_seconds, 1),
        "move_pause_ms": args.move_pause_ms,
        "followers": args.followers,
        "followers_with_every_step_in_order": complete,
        "delivery": delivery,
        "readers": args.readers,
        "reader_pause_ms": args.reader_pause_ms,
        "page": page,
        "page_errors": len(errors),
        "server_memory": {
            "before": memory_before,
            "with_streams": memory_streams,
            "after": memory_after,
        },
        "targets_ms": {"delivery_p95": DELIVERY_P95_MS, "page_p95": PAGE_P95_MS},
        "targets_met": {
            "delivery_p95": complete == args.followers
            and delivery.get("p95_ms", 1e9) <= DELIVERY_P95_MS,
            "page_p95": page.get("p95_ms", 1e9) <= PAGE_P95_MS and not errors,
        },
    }
    print(
        f"followers: {complete} of {args.followers} got every step ({len(expected)}) in order",
        file=sys.stderr,
    )
    print(f"delivery: {delivery}", file=sys.stderr)
    print(f"replay page: {page}, errors {len(errors)}", file=sys.stderr)
    print(f"server memory: {result['server_memory']}", file=sys.stderr)
    if "Traceback" in server_output:
        print(server_output[-3000:], file=sys.stderr)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
