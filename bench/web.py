"""Replay site latency: the real server (``tablelog serve``, waitress, its own process) on
loopback over a database of 10,000 simulated games, with 16 concurrent clients.

Each client is a thread with one keep-alive ``http.client`` connection.  It behaves like a
player reviewing games: it opens a random game at a random step and steps forward through
a few consecutive steps (``viewer`` workload); a second run asks for a random step of a
random game every time (``cold``: nearly every request folds a game it has not seen).
Request count and time are bounded.  Ends by printing one JSON line with the median and
95th percentile in milliseconds of the replay page and of the state API.

    python bench/web.py [--games 10000] [--clients 16] [--requests 150] [--db PATH]

The generated database is cached under /tmp between runs (``--fresh`` rebuilds it).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/engine.py would shadow the engine package: look up the repository first.
sys.path[0] = str(ROOT)

from engine.splendor_duel import events as ev  # noqa: E402
from engine.splendor_duel.simulate import random_game  # noqa: E402
from recorder import EventStore, GameImport  # noqa: E402

NAMES = ("Ada", "Blaise", "Chiara", "Dmitri", "Emeka", "Fumiko", "Gaspard", "Hana")


def build_db(path: Path, games: int, chunk: int = 250) -> None:
    """``games`` seeded random games imported through the store (in batches when the
    store offers ``import_games``)."""
    tmp = path.with_suffix(".building")
    for suffix in ("", "-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    started = time.perf_counter()
    with EventStore.open(str(tmp)) as store:
        for first in range(0, games, chunk):
            records = [_record(seed) for seed in range(first, min(games, first + chunk))]
            if hasattr(store, "import_games"):
                store.import_games(records, batch_size=chunk)
            else:
                for record in records:
                    store.import_game(record)
            done = min(games, first + chunk)
            if done % 1000 == 0:
                print(f"  {done} games ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    os.replace(tmp, path)
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)


def _record(seed: int) -> GameImport:
    rng = random.Random(seed)
    events = random_game(rng)
    a, b = rng.sample(NAMES, 2)
    return GameImport(
        kind="splendor-duel",
        headers={"players": [a, b], "date": f"2024-{1 + seed % 12:02d}-{1 + seed % 28:02d}"},
        events=[ev.event_to_dict(e) for e in events],
        meta=[None] * len(events),
        game_id=None,
    )


def game_lengths(path: Path, games: int) -> list[tuple[str, int]]:
    with EventStore.open(str(path)) as store:
        rows = store.list_games(limit=games + 1)
        return [(r.id, r.event_count) for r in rows]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server exited before answering")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/games?per_page=1")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer in time")


def run_clients(port: int, plan: list[list[str]], max_seconds: float) -> tuple[list[float], int]:
    """Every client thread GETs its list of paths in order; returns latencies (ms)."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    start_gate = threading.Barrier(len(plan))
    deadline = [0.0]

    def client(paths: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        start_gate.wait()
        if not deadline[0]:
            deadline[0] = time.monotonic() + max_seconds
        for path in paths:
            if time.monotonic() > deadline[0]:
                break
            t0 = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            elapsed = (time.perf_counter() - t0) * 1000
            if ok:
                mine.append(elapsed)
            else:
                with lock:
                    errors[0] += 1
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(paths,)) for paths in plan]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0]


def viewer_plan(games: list[tuple[str, int]], clients: int, requests: int, url: str,
                rng: random.Random, run: int = 8) -> list[list[str]]:
    """Each client opens a random game at a random step and steps ``run`` steps forward."""
    plan = []
    for _ in range(clients):
        paths: list[str] = []
        while len(paths) < requests:
            gid, last = rng.choice(games)
            start = rng.randint(0, max(0, last - run))
            steps = range(start, min(last, start + run) + 1)
            paths.extend(url.format(gid=gid, step=s) for s in steps)
        plan.append(paths[:requests])
    return plan


def cold_plan(games: list[tuple[str, int]], clients: int, requests: int, url: str,
              rng: random.Random) -> list[list[str]]:
    """Every request a random step of a random game."""
    plan = []
    for _ in range(clients):
        paths = []
        for _ in range(requests):
            gid, last = rng.choice(games)
            paths.append(url.format(gid=gid, step=rng.randint(0, last)))
        plan.append(paths)
    return plan


def summary(latencies: list[float], errors: int) -> dict[str, float | int]:
    if not latencies:
        return {"requests": 0, "errors": errors}
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(p95, 2),
        "requests": len(ordered),
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=150, help="per client and workload")
    parser.add_argument("--seconds", type=float, default=60, help="time bound per workload")
    parser.add_argument("--threads", type=int, default=4, help="server worker threads")
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--fresh", action="store_true", help="rebuild the cached database")
    args = parser.parse_args()

    db = args.db or Path(f"/tmp/tablelog-bench-web-{args.games}.db")
    if args.fresh or not db.exists():
        print(f"building {db} ({args.games} games)...", file=sys.stderr)
        build_db(db, args.games)
    games = game_lengths(db, args.games)
    if len(games) < args.games:
        raise SystemExit(f"{db} holds {len(games)} games, not {args.games}: use --fresh")

    port = free_port()
    tablelog = Path(sys.executable).parent / "tablelog"
    command = [str(tablelog), "serve", "--db", str(db), "--port", str(port),
               "--threads", str(args.threads)]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    results: dict[str, object] = {
        "bench": "web", "games": len(games), "clients": args.clients,
        "server": "tablelog serve (waitress)", "server_threads": args.threads,
    }
    try:
        wait_ready(port, proc)
        rng = random.Random(2024)
        page = "/games/{gid}/step/{step}"
        api = "/api/games/{gid}/state?step={step}"
        run_clients(port, viewer_plan(games, args.clients, 10, page, rng), args.seconds)  # warm-up
        for name, url in (("page", page), ("api", api)):
            plan = viewer_plan(games, args.clients, args.requests, url, rng)
            results[name] = summary(*run_clients(port, plan, args.seconds))
        for name, url in (("cold_page", page), ("cold_api", api)):
            plan = cold_plan(games, args.clients, args.requests // 3, url, rng)
            results[name] = summary(*run_clients(port, plan, args.seconds))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    results["targets_ms"] = {"page_p95": 50, "api_p95": 10}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
