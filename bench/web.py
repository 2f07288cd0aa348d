"""Replay site latency: the real server (``tablelog serve`` in its own processes) on
loopback over a database of 10,000 simulated games, with 16 concurrent clients.

Each client has one connection and sends its next request as soon as the last one is
answered (no think time: the server is saturated, and latency is about clients divided by
throughput).  It behaves like a player reviewing games: it opens a random game at a random
step and steps forward through a few consecutive steps (``viewer`` workload); a second run
asks for a random step of a random game every time (``cold``: nearly every request folds a
game it has not seen).  Request count and time are bounded.  ``--paced-ms 100`` adds a
separate, labelled figure where each client steps like a person, one request every 100 ms.

The clients must not compete with the server for the interpreter: they are ``wrk`` (one
thread and connection per client, a Lua script walks each client's list of paths) when it
is installed, else separate Python processes; ``--client threads`` is the old client, 16
threads in one Python process, whose own waits inflate what it measures.

Ends by printing one JSON line with the median and 95th percentile in milliseconds of the
replay page and of the state API, and which client and server were used.  Last, the
viewer workload of the replay page runs again while the longest game is analysed in the
background (``page_during_analysis``, with its p95's ratio to the page's: the target is
within 1.2, the analysis running at its low priority throughout).

    python bench/web.py [--games 10000] [--clients 16] [--workers N] [--threads N]
                        [--client auto|wrk|processes|threads] [--paced-ms 100]
                        [--only page,api,cold_page,cold_api,page_during_analysis]
                        [--db PATH]

The Python clients send ``--requests`` requests each per workload (a third of that for
``cold``); wrk runs ``--wrk-seconds`` per viewer workload (half for ``cold``).  Each
figure also gives the answers per second and the server's CPU time per request (its
processes' user and system time, from /proc), which shows the cost of a request even
when other work on the machine shifts the latencies.

The generated database is cached under /tmp between runs (``--fresh`` rebuilds it).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench/engine.py would shadow the engine package: look up the repository first.
sys.path[0] = str(ROOT)

from engine.games import DEFAULT_KIND, get_game  # noqa: E402
from recorder import EventStore, GameImport  # noqa: E402

#: The bars: the 95th percentile of the replay page and of the state API, in ms.
PAGE_P95_MS = 25
API_P95_MS = 10

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
    rules = get_game(DEFAULT_KIND)
    rng = random.Random(seed)
    events = rules.random_game(rng)
    names = rng.sample(NAMES, rules.seats.minimum)
    return GameImport(
        kind=rules.kind,
        headers={"players": names, "date": f"2024-{1 + seed % 12:02d}-{1 + seed % 28:02d}"},
        events=[rules.event_to_dict(e) for e in events],
        meta=[None] * len(events),
        game_id=None,
    )


def game_lengths(path: Path, games: int) -> list[tuple[str, int]]:
    with EventStore.open(str(path)) as store:
        rows = store.listing.games(limit=games + 1)
        return [(r.id, r.event_count) for r in rows]


def _get_json(port: int, path: str) -> dict[str, Any]:
    """The JSON body of a GET of ``path`` (a 202's too)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        return json.loads(conn.getresponse().read())  # type: ignore[no-any-return]
    finally:
        conn.close()


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


def server_cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) used so far by process ``pid`` and its children (the
    server's workers); None where /proc cannot tell."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    pending = [pid]
    try:
        while pending:
            current = pending.pop()
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
    except (OSError, ValueError, IndexError):
        return None
    return total / ticks


def machine_busy_seconds() -> float | None:
    """CPU time spent so far by everything on the machine (all cores, /proc/stat)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    except (OSError, ValueError):
        return None
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


# --- the clients: each runs a plan (one list of paths per client) -------------------------

#: What a client run gives back: latencies in ms of the answers with status 200, and the
#: number of failed requests.
Outcome = tuple[list[float], int]


def _client_loop(port: int, paths: list[str], deadline: float, pace: float) -> Outcome:
    """One client: one keep-alive connection, each path in turn, the next request sent
    when the last is answered (or, with ``pace`` seconds, at the next tick)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    mine: list[float] = []
    errors = 0
    next_start = time.monotonic()
    for path in paths:
        if pace:
            wait = next_start - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            next_start += pace
        if time.monotonic() > deadline:
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
            errors += 1
    conn.close()
    return mine, errors


def run_threads(port: int, plan: list[list[str]], max_seconds: float, pace: float = 0) -> Outcome:
    """Every client a thread of this process (the clients share one interpreter)."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    gate = threading.Barrier(len(plan))

    def client(paths: list[str]) -> None:
        gate.wait()
        mine, failed = _client_loop(port, paths, time.monotonic() + max_seconds, pace)
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    threads = [threading.Thread(target=client, args=(paths,)) for paths in plan]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0]


def _process_client(
    port: int, paths: list[str], max_seconds: float, pace: float, gate: Any, out: Any
) -> None:
    gate.wait()
    out.send(_client_loop(port, paths, time.monotonic() + max_seconds, pace))
    out.close()


def run_processes(port: int, plan: list[list[str]], max_seconds: float, pace: float = 0) -> Outcome:
    """Every client a Python process of its own, started together."""
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    gate = ctx.Barrier(len(plan))
    workers = []
    for paths in plan:
        receive, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(
            target=_process_client, args=(port, paths, max_seconds, pace, gate, send)
        )
        proc.start()
        send.close()
        workers.append((proc, receive))
    latencies: list[float] = []
    errors = 0
    for proc, receive in workers:
        try:
            mine, failed = receive.recv()
        except EOFError:
            mine, failed = [], 1
        latencies.extend(mine)
        errors += failed
        proc.join()
    return latencies, errors


#: One wrk thread per client, each with one connection: its Lua state walks that client's
#: paths in order (``plan-<n>.txt``, from the top again should it run out).  wrk runs for
#: a fixed time; latencies are its own (microseconds); the summary goes to the file named
#: by $TABLELOG_WRK_RESULT (``done`` runs apart from the threads' globals).
WRK_SCRIPT = r"""
local counter = 0
function setup(thread)
  thread:set("client", counter)
  counter = counter + 1
end

function init(args)
  pace = tonumber(args[2])
  paths = {}
  for line in io.lines(args[1] .. "/plan-" .. client .. ".txt") do
    paths[#paths + 1] = wrk.format("GET", line)
  end
  sent = 0
end

function delay()
  return pace
end

function request()
  sent = sent + 1
  return paths[(sent - 1) % #paths + 1]
end

function done(summary, latency, requests)
  local e = summary.errors
  local f = io.open(os.getenv("TABLELOG_WRK_RESULT"), "w")
  f:write(string.format(
    '{"requests":%d,"errors":%d,"median_us":%d,"p95_us":%d,"p99_us":%d,"duration_us":%d}',
    summary.requests, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.duration))
  f:close()
end
"""


def run_wrk(port: int, plan: list[list[str]], seconds: float, pace: float = 0) -> dict[str, Any]:
    """The plan run by wrk for ``seconds`` (see :data:`WRK_SCRIPT`); returns the summary."""
    with tempfile.TemporaryDirectory(prefix="tablelog-wrk-") as folder:
        for n, paths in enumerate(plan):
            Path(folder, f"plan-{n}.txt").write_text("\n".join(paths) + "\n")
        script = Path(folder, "plan.lua")
        script.write_text(WRK_SCRIPT)
        result_file = Path(folder, "result.json")
        whole = max(1, round(seconds))
        command = [
            "wrk",
            "-t",
            str(len(plan)),
            "-c",
            str(len(plan)),
            "-d",
            f"{whole}s",
            "--timeout",
            "30s",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}",
            "--",
            folder,
            str(int(pace * 1000)),
        ]
        subprocess.run(
            command,
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=whole + 60,
            env={**os.environ, "TABLELOG_WRK_RESULT": str(result_file)},
        )
        result = json.loads(result_file.read_text())
    requests = int(result["requests"])
    out: dict[str, Any] = {
        "median_ms": round(result["median_us"] / 1000, 2),
        "p95_ms": round(result["p95_us"] / 1000, 2),
        "p99_ms": round(result["p99_us"] / 1000, 2),
        "requests": requests,
        "errors": int(result["errors"]),
    }
    if result["duration_us"]:
        out["per_second"] = round(requests / (result["duration_us"] / 1e6))
    return out


def wrk_version() -> str | None:
    """``wrk``'s version line when it is installed."""
    if shutil.which("wrk") is None:
        return None
    done = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
    words = (done.stdout or done.stderr).split()
    return " ".join(words[:2]) if words else "wrk"


def summary(outcome: Outcome, seconds: float) -> dict[str, Any]:
    latencies, errors = outcome
    if not latencies:
        return {"requests": 0, "errors": errors}
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))], 2)

    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "requests": len(ordered),
        "errors": errors,
        "per_second": round(len(ordered) / seconds) if seconds else None,
    }


def make_runner(client: str) -> Callable[[int, list[list[str]], float, float], dict[str, Any]]:
    """A function running a plan with ``client`` and returning its summary."""
    if client == "wrk":
        return run_wrk
    python_run = run_processes if client == "processes" else run_threads

    def run(
        port: int, plan: list[list[str]], max_seconds: float, pace: float = 0
    ) -> dict[str, Any]:
        t0 = time.perf_counter()
        outcome = python_run(port, plan, max_seconds, pace)
        return summary(outcome, time.perf_counter() - t0)

    return run


# --- the workloads ----------------------------------------------------------------------


def viewer_plan(
    games: list[tuple[str, int]],
    clients: int,
    requests: int,
    url: str,
    rng: random.Random,
    run: int = 8,
) -> list[list[str]]:
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


def cold_plan(
    games: list[tuple[str, int]], clients: int, requests: int, url: str, rng: random.Random
) -> list[list[str]]:
    """Every request a random step of a random game."""
    plan = []
    for _ in range(clients):
        paths = []
        for _ in range(requests):
            gid, last = rng.choice(games)
            paths.append(url.format(gid=gid, step=rng.randint(0, last)))
        plan.append(paths)
    return plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=150, help="per client and workload")
    parser.add_argument(
        "--seconds", type=float, default=60, help="time bound per workload (python clients)"
    )
    parser.add_argument(
        "--wrk-seconds",
        type=int,
        default=8,
        help="duration of a viewer workload with wrk (cold: half)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="server worker processes (default: the server's, one per core)",
    )
    parser.add_argument(
        "--serve-option",
        action="append",
        default=[],
        help="an extra option for tablelog serve (repeatable)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="server threads per worker (default: the server's)",
    )
    parser.add_argument(
        "--client",
        choices=("auto", "wrk", "processes", "threads"),
        default="auto",
        help="auto: wrk when installed, else processes",
    )
    parser.add_argument(
        "--paced-ms",
        type=float,
        default=0,
        help="also run the viewer workload with one request per client "
        "every this many ms (a separate figure)",
    )
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--fresh", action="store_true", help="rebuild the cached database")
    parser.add_argument(
        "--only",
        default="page,api,cold_page,cold_api,page_during_analysis",
        help="the workloads to run, separated by commas",
    )
    args = parser.parse_args()
    workloads = set(args.only.split(","))

    client = args.client
    version = wrk_version()
    if client == "auto":
        client = "wrk" if version else "processes"
    if client == "wrk" and not version:
        raise SystemExit("wrk is not installed (apt-get install wrk), use --client processes")
    client_text = {
        "wrk": f"{version}: {args.clients} threads, one connection each",
        "processes": f"python http.client: {args.clients} processes, one connection each",
        "threads": f"python http.client: {args.clients} threads of one process",
    }[client]
    run_plan = make_runner(client)

    db = args.db or Path(f"/tmp/tablelog-bench-web-{args.games}.db")
    if args.fresh or not db.exists():
        print(f"building {db} ({args.games} games)...", file=sys.stderr)
        build_db(db, args.games)
    games = game_lengths(db, args.games)
    if len(games) < args.games:
        raise SystemExit(f"{db} holds {len(games)} games, not {args.games}: use --fresh")

    port = free_port()
    tablelog = Path(sys.executable).parent / "tablelog"
    command = [str(tablelog), "serve", "--db", str(db), "--port", str(port)]
    for option, value in (("--workers", args.workers), ("--threads", args.threads)):
        if value is not None:
            command += [option, str(value)]
    command += args.serve_option
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the server, below)
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    results: dict[str, Any] = {
        "bench": "web",
        "games": len(games),
        "clients": args.clients,
        "client": client_text,
        "think_time_ms": 0,
        "cpus": os.cpu_count(),
        "load_before": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }
    try:
        wait_ready(port, proc)
        log.seek(0)
        served = [
            line
            for line in log.read().decode(errors="replace").splitlines()
            if line.startswith("serving ")
        ]
        results["server"] = "tablelog serve, " + (
            served[-1].split(" with ", 1)[-1] if served else "?"
        )
        rng = random.Random(2024)

        def runner(port: int, plan: list[list[str]], seconds: float, pace: float) -> dict[str, Any]:
            before, busy_before = server_cpu_seconds(proc.pid), machine_busy_seconds()
            t0 = time.monotonic()
            out = run_plan(port, plan, seconds, pace)
            elapsed = time.monotonic() - t0
            after, busy_after = server_cpu_seconds(proc.pid), machine_busy_seconds()
            if before is not None and after is not None and out.get("requests"):
                out["server_cpu_ms_per_request"] = round(
                    (after - before) * 1000 / out["requests"], 3
                )
                # how many of the machine's cores the server, and everything, kept busy
                out["server_cores"] = round((after - before) / elapsed, 2)
            if busy_before is not None and busy_after is not None:
                out["machine_busy_cores"] = round((busy_after - busy_before) / elapsed, 2)
            return out

        page = "/games/{gid}/step/{step}"
        api = "/api/games/{gid}/state?step={step}"
        if client == "wrk":
            # wrk runs for a fixed time: plans long enough never to run out
            results["seconds_per_workload"] = {
                "viewer": args.wrk_seconds,
                "cold": args.wrk_seconds / 2,
            }
            viewer_n = max(args.requests, args.wrk_seconds * 8000 // args.clients)
            cold_n = max(args.requests // 3, args.wrk_seconds * 4000 // args.clients)
            warm_n, viewer_s, cold_s, warm_s = viewer_n, args.wrk_seconds, args.wrk_seconds / 2, 2
        else:
            viewer_n, cold_n, warm_n = args.requests, args.requests // 3, 10
            viewer_s = cold_s = warm_s = args.seconds
        runner(port, viewer_plan(games, args.clients, warm_n, page, rng), warm_s, 0)  # warm-up
        for name, url in (("page", page), ("api", api)):
            plan = viewer_plan(games, args.clients, viewer_n, url, rng)
            if name in workloads:
                results[name] = runner(port, plan, viewer_s, 0)
        for name, url in (("cold_page", page), ("cold_api", api)):
            plan = cold_plan(games, args.clients, cold_n, url, rng)
            if name in workloads:
                results[name] = runner(port, plan, cold_s, 0)
        if "page_during_analysis" in workloads:
            # the viewer workload again while the longest game is analysed in the
            # background (the site's own process for it, at its low priority)
            # (the longest game not analysed yet: an analysis is kept beside the store)
            for longest, _ in sorted(games, key=lambda g: -g[1]):
                started = _get_json(port, f"/api/games/{longest}/analysis")
                if started.get("state") != "ready":
                    break
            plan = viewer_plan(games, args.clients, viewer_n, page, rng)
            out = runner(port, plan, viewer_s, 0)
            still = _get_json(port, f"/api/games/{longest}/analysis")
            out["analysis"] = {
                "game": longest,
                "state_at_start": started.get("state"),
                "state_at_end": still.get("state"),
                "done_at_end": still.get("done"),
            }
            if "page" in results and results["page"].get("p95_ms"):
                out["p95_ratio_to_page"] = round(out["p95_ms"] / results["page"]["p95_ms"], 2)
            results["page_during_analysis"] = out
        if args.paced_ms > 0:
            pace = args.paced_ms / 1000
            paced: dict[str, Any] = {
                "note": f"not the targets' figure: each client sends one request every "
                f"{args.paced_ms:g} ms (viewer workload)"
            }
            paced_n = (
                max(args.requests, int(viewer_s / pace) + 10)
                if client == "wrk"
                else (args.requests)
            )
            for name, url in (("page", page), ("api", api)):
                plan = viewer_plan(games, args.clients, paced_n, url, rng)
                paced[name] = runner(port, plan, viewer_s, pace)
            results["paced"] = paced
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    results["targets_ms"] = {"page_p95": PAGE_P95_MS, "api_p95": API_P95_MS}
    results["targets_met"] = {
        f"{name}_p95": results[name].get("p95_ms", 1e9) <= bound
        for name, bound in (("page", PAGE_P95_MS), ("api", API_P95_MS))
        if name in results
    }
    print(json.dumps(results))


if __name__ == "__main__":
    main()
