"""A soak of the record and the server, longer than the suite runs (issue 12).

    python bench/soak.py [--writer-seconds 40] [--writers 4] [--kill-every 0.2:1.5]
                         [--fuzz-seconds 120] [--clients 2] [--workers 2] [--seed 12]
                         [--small-caches] [--server gunicorn|waitress] [--threads 8]

Two parts, on one temporary database:

1. **Racing writers, killed.**  ``--writers`` processes append the next event of shared
   games (seeded simulated games, several writers on each game, one event per append,
   each with an event id of its own) through the store, each printing ``ack`` only once
   its append is committed; every few hundred milliseconds (``--kill-every``, a range in
   seconds) one writer is killed with SIGKILL, wherever it is, and a new one started.
   Afterwards every acknowledged write must be in the file at the step it was
   acknowledged for, no game may hold an event twice or out of its seed's order, and
   ``tablelog verify`` (chains, projections against a fresh fold, SQLite's integrity
   check) must find nothing.
2. **Fuzzed requests.**  ``tablelog serve`` (gunicorn's gevent workers, or ``--server
   waitress``) on loopback over
   that database; ``--clients`` threads send seeded random requests to every route of the
   site's url_map (known ids and steps mixed with hostile path parts, query strings,
   headers, JSON and form bodies, a recorder key or not) and malformed raw requests (bad
   request lines, huge headers).  No answer may be a 5xx or lack the security headers, and
   the server's log may hold no traceback.  The server's memory (RSS and PSS of all its
   processes, from /proc) is sampled every ``--sample-seconds`` up to 90% of the run;
   then one worker is killed with SIGKILL and the fuzzing goes on (gunicorn starts
   another; requests must still be answered).
   ``--small-caches`` serves with each worker's caches cut to almost nothing, to tell the
   caches filling from memory that grows for another reason.

Prints a table of what it held and ends with one JSON line; exits 1 when anything broke.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from live import free_port, memory_mb, server_processes, wait_ready

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # the packages, not bench/engine.py or bench/web.py

SETUP = (ROOT / "docs" / "examples" / "evening.tl").read_text(encoding="utf-8")
#: Unfinished games kept for the writers at any time.
OPEN_GAMES = 6


# --- part 1: racing writers ------------------------------------------------------------------


def payloads_of(seed: int) -> list[dict[str, Any]]:
    """The events of game ``seed``: a seeded simulated Splendor Duel game."""
    from engine.splendor_duel import events as ev
    from engine.splendor_duel import simulate

    return [ev.event_to_dict(e) for e in simulate.random_game(random.Random(seed))]


def writer(db: str, games_file: str, name: str, seed: int) -> None:
    """One racing writer (its own process): append the next event of a random open game
    until killed; print ``ack GAME SEQUENCE EVENT_ID`` once each append is committed."""
    from recorder import ConcurrencyError, EventStore, StoreError

    rng = random.Random(seed)
    cache: dict[int, list[dict[str, Any]]] = {}
    attempt = 0
    with EventStore.open(db) as store:
        while True:
            try:
                games = json.loads(Path(games_file).read_text())
            except (OSError, ValueError):
                time.sleep(0.01)
                continue
            game_id, game_seed = rng.choice(games)
            payloads = cache.get(game_seed) or cache.setdefault(game_seed, payloads_of(game_seed))
            n = store.game(game_id).event_count
            if n >= len(payloads):
                time.sleep(0.005)
                continue
            attempt += 1
            event_id = f"{name}-{attempt}"
            try:
                result = store.append(game_id, n, [payloads[n]], event_ids=[event_id])
            except ConcurrencyError:
                continue
            except StoreError as err:  # a lock held past the timeout by a killed writer
                print(f"error {err}", flush=True)
                continue
            print(f"ack {game_id} {result.last_sequence} {event_id}", flush=True)


def race(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Part 1: start, kill and restart writers for ``--writer-seconds``; check the file."""
    from recorder import EventStore

    rng = random.Random(args.seed)
    games_file = db.with_suffix(".games.json")
    seeds: dict[str, int] = {}
    lengths: dict[str, int] = {}
    store = EventStore.open(db)

    def top_up() -> None:
        """Keep OPEN_GAMES games unfinished for the writers."""
        open_games = [g for g in seeds if store.game(g).event_count < lengths[g]]
        while len(open_games) < OPEN_GAMES:
            seed = args.seed * 1000 + len(seeds)
            game_id = store.create_game({"players": ["Ann", "Bo"]}, game_id=f"race{len(seeds)}").id
            seeds[game_id] = seed
            lengths[game_id] = len(payloads_of(seed))
            open_games.append(game_id)
        tmp = games_file.with_suffix(".tmp")
        tmp.write_text(json.dumps([[g, seeds[g]] for g in open_games]))
        tmp.replace(games_file)

    top_up()
    acks: list[tuple[str, int, str]] = []
    errors: list[str] = []
    lock = threading.Lock()

    def start(number: int) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--writer", str(db), str(games_file), f"w{number}"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                parts = line.split()
                with lock:
                    if parts[:1] == ["ack"] and len(parts) == 4:
                        acks.append((parts[1], int(parts[2]), parts[3]))
                    elif parts:
                        errors.append(line.strip())

        threading.Thread(target=read, daemon=True).start()
        return proc

    low, high = (float(x) for x in args.kill_every.split(":"))
    started = 0
    writers = []
    for _ in range(args.writers):
        writers.append(start(started))
        started += 1
    kills = 0
    deadline = time.monotonic() + args.writer_seconds
    while time.monotonic() < deadline:
        time.sleep(rng.uniform(low, high))
        victim = rng.randrange(len(writers))
        writers[victim].send_signal(signal.SIGKILL)
        writers[victim].wait()
        kills += 1
        writers[victim] = start(started)
        started += 1
        top_up()
    for proc in writers:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    time.sleep(0.2)  # the readers' last lines

    # Every acknowledged write present, at its step; nothing doubled or out of order.
    missing = doubled = wrong = 0
    stored: dict[str, dict[int, str]] = {}
    events_total = 0
    for game_id, seed in seeds.items():
        expected = payloads_of(seed)
        events = store.events(game_id)
        events_total += len(events)
        stored[game_id] = {e.sequence: e.event_id for e in events}
        if [e.sequence for e in events] != list(range(1, len(events) + 1)):
            doubled += 1
        ids = [e.event_id for e in events]
        doubled += len(ids) - len(set(ids))
        wrong += sum(1 for e in events if e.payload != expected[e.sequence - 1])
    unique_acks = set(acks)
    for game_id, sequence, event_id in unique_acks:
        if stored.get(game_id, {}).get(sequence) != event_id:
            missing += 1
    store.close()
    verify = subprocess.run(
        [str(Path(sys.executable).parent / "tablelog"), "verify", "--json", "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    report = json.loads(verify.stdout) if verify.stdout.strip() else {"ok": False, "findings": []}
    return {
        "seconds": args.writer_seconds,
        "writers_at_once": args.writers,
        "writers_started": started,
        "kills": kills,
        "games": len(seeds),
        "events_stored": events_total,
        "writes_acknowledged": len(unique_acks),
        "acknowledged_missing": missing,
        "doubled_or_out_of_order": doubled,
        "payloads_not_the_seeds": wrong,
        "writer_errors": len(errors),
        "verify_exit": verify.returncode,
        "verify_findings": len(report.get("findings", [])),
        "verify_ok": bool(report.get("ok")) and verify.returncode == 0,
    }


# --- part 2: fuzzed requests ----------------------------------------------------------------

HOSTILE = [
    "",
    "0",
    "-1",
    "9" * 5000,
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "a" * 300,
    "\u00e9\u4e2d\U0001f600",
    "' OR 1=1 --",
    "\x7f\x01",
    "1e309",
]
QUERY_NAMES = ["page", "per_page", "player", "result", "order", "kind", "status", "q", "step"]
FORM_NAMES = ["move", "key", "secret", "kind", "form_id", "expect", "as_played", "to"]
MOVES = ["take c3", "pass", "buy 1-11", "reserve 3-10", "undo", "take a1 a2 a3"]
RAW = [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n",
    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n{",
    b"GET / HTTP/9.9\r\n\r\n",
    b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n",
    b"GET /api/games?per_page=1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"GET /api/games?per_page=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n",
    b"GET /api/games?per_page=1 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
]


def site_routes() -> list[tuple[str, str]]:
    """Every (rule, method) of the site's url_map."""
    from web import create_app, routes

    return routes(create_app({"DATABASE": ":memory:", "TESTING": True}))


def hostile(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(HOSTILE)
    return "".join(
        chr(rng.choice([rng.randrange(32, 127), rng.randrange(0xA0, 0xD7FF)]))
        for _ in range(rng.randrange(0, 30))
    )


def fuzzed_request(
    rng: random.Random, routes: list[tuple[str, str]], ids: list[str], logged: str, key: str
) -> tuple[str, str, dict[str, str], bytes | None]:
    """One random request: method, target, headers, body."""
    rule, method = rng.choice(routes)
    path = rule
    for name, known in (
        ("<game_id>", [*ids, logged, logged]),
        ("<step>", [str(rng.randrange(0, 140))]),
        ("<kind>", ["splendor-duel", "splendor"]),
        ("<name>", ["Ann", "Bo"]),
        ("<path:filename>", ["site.css", "nope.js"]),
    ):
        if name in path:
            value = rng.choice(known) if rng.random() < 0.75 else hostile(rng)
            path = path.replace(name, quote(value, safe="") or "x")
    query = {rng.choice(QUERY_NAMES): hostile(rng) for _ in range(rng.randrange(0, 3))}
    target = path + ("?" + urlencode(query) if query else "")
    headers = {"Host": "127.0.0.1", "X-Route": f"{method} {rule}"}
    if rng.random() < 0.7:
        headers["Authorization"] = f"Bearer {key}" if rng.random() < 0.7 else "Bearer wrong"
    if rng.random() < 0.1:
        headers["If-None-Match"] = rng.choice(['"x"', "*"])
    body = None
    if method == "POST":
        kind = rng.random()
        if kind < 0.5:
            fields = {
                "move": rng.choice(MOVES) if rng.random() < 0.7 else hostile(rng),
                "expect": rng.choice([rng.randrange(-1, 200), hostile(rng)]),
                "as_played": rng.choice([True, False, "yes"]),
                "notation": rng.choice([SETUP, SETUP[:60], hostile(rng)]),
                "to": rng.randrange(-1, 100),
            }
            doc = {k: v for k, v in fields.items() if rng.random() < 0.6}
            body = json.dumps(doc if rng.random() < 0.9 else [doc, None]).encode()
            headers["Content-Type"] = "application/json"
        elif kind < 0.8:
            form = {
                n: key if rng.random() < 0.3 else rng.choice(MOVES + [hostile(rng)])
                for n in rng.sample(FORM_NAMES, rng.randrange(0, 4))
            }
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            body = rng.randbytes(rng.randrange(0, 300))
            headers["Content-Type"] = rng.choice(["application/json", "text/plain"])
    return method, target, headers, body


def send(
    port: int, method: str, target: str, headers: dict[str, str], body: bytes | None
) -> tuple[int, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        for name, value in headers.items():
            conn.putheader(name, value.encode("utf-8").decode("latin-1"))
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        if "stream" in target and response.status == 200:
            response.fp.readline()  # a live stream never ends: its first line will do
        else:
            response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()


def send_raw(port: int, raw: bytes) -> tuple[int, dict[str, str]]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        with contextlib.suppress(OSError):  # the server may answer before reading it all
            s.sendall(raw)
        data = b""
        # (a "100 Continue" before the answer is not the answer: read on past it)
        while b"\r\n\r\n" not in data or (
            data.startswith(b"HTTP/1.1 100 ") and data.count(b"\r\n\r\n") < 2
        ):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    if data.startswith(b"HTTP/1.1 100 "):
        data = data.split(b"\r\n\r\n", 1)[1]
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1]) if head and len(head[0].split()) > 1 else 0
    return status, {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:])}


#: ``tablelog serve`` as it serves (gevent patched first, gunicorn's gevent workers), but
#: with each worker's caches cut to almost nothing (two folded games, 64 KB of rendered
#: steps): memory that still grows then is not the caches filling.
SMALL_CACHES_SERVER = """
import sys
from gevent import monkey
monkey.patch_all()
from cli.serve_cmd import _listen
from web import create_app
from web.server import serve_workers
db, port, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
config = {"DATABASE": db, "STORE_PER_THREAD": True, "TIMELINE_CACHE": 2,
          "RESPONSE_CACHE_BYTES": 64 * 1024}
serve_workers(create_app(config), _listen("127.0.0.1", port), workers=workers)
"""


def fuzz(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Part 2: fuzz a real server for ``--fuzz-seconds``, sampling its memory."""
    from web import SECURITY_HEADERS

    routes = site_routes()
    port = free_port()
    proc = subprocess.Popen(
        (
            [sys.executable, "-c", SMALL_CACHES_SERVER, str(db), str(port), str(args.workers)]
            if args.small_caches
            else [
                str(Path(sys.executable).parent / "tablelog"),
                "serve",
                "--db",
                str(db),
                "--port",
                str(port),
                "--server",
                args.server,
                *(
                    ["--workers", str(args.workers)]
                    if args.server == "gunicorn"
                    else ["--threads", str(args.threads)]
                ),
            ]
        ),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    threading.Thread(target=lambda: output.extend(proc.stdout or []), daemon=True).start()
    try:
        wait_ready(port, proc)  # type: ignore[arg-type]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(
            "POST",
            "/api/games",
            body=json.dumps({"notation": SETUP}),
            headers={"Content-Type": "application/json"},
        )
        made = json.loads(conn.getresponse().read())
        conn.close()
        logged, key = made["id"], made["key"]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/games?per_page=100")
        ids = [g["id"] for g in json.loads(conn.getresponse().read())["games"]]
        conn.close()

        counts: dict[str, int] = {
            "requests": 0,
            "raw": 0,
            "5xx": 0,
            "no_security_headers": 0,
            "connection_errors": 0,
            "unanswered": 0,
            "busy": 0,
        }
        statuses: dict[int, int] = {}
        hit: set[str] = set()
        failures: list[str] = []
        lock = threading.Lock()
        deadline = time.monotonic() + args.fuzz_seconds
        samples: list[tuple[float, float, float]] = []
        t0 = time.monotonic()

        def client(number: int) -> None:
            rng = random.Random(args.seed * 100 + number)
            while time.monotonic() < deadline:
                raw = rng.random() < 0.02
                what = "raw"
                try:
                    if raw:
                        what = "raw"
                        status, headers = send_raw(port, rng.choice(RAW))
                    else:
                        method, target, hdrs, body = fuzzed_request(rng, routes, ids, logged, key)
                        what = f"{method} {target[:120]}"
                        with lock:
                            hit.add(hdrs.pop("X-Route"))
                        status, headers = send(port, method, target, hdrs, body)
                except TimeoutError:  # no answer in the client's 30 s
                    with lock:
                        counts["unanswered"] += 1
                        failures.append(f"unanswered {what}")
                    continue
                except (OSError, http.client.HTTPException):
                    with lock:
                        counts["connection_errors"] += 1
                    continue
                with lock:
                    counts["raw" if raw else "requests"] += 1
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 503 and headers.get("retry-after") and "/stream" in what:
                        # every thread of waitress's that may hold a stream holds one
                        # (streams the fuzzer left, until the server writes to them
                        # again): the designed answer, "try again in a few seconds"
                        counts["busy"] += 1
                    elif status >= 500 or status == 0:
                        counts["5xx"] += 1
                        failures.append(f"{status} {what}")
                    if any(headers.get(n.lower()) != v for n, v in SECURITY_HEADERS):
                        counts["no_security_headers"] += 1
                        failures.append(f"headers {status} {what}")

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for t in threads:
            t.start()
        worker_killed = False
        served_after_kill = 0
        while any(t.is_alive() for t in threads):
            if not worker_killed:  # memory is followed up to the kill, a restart resets it
                m = memory_mb(proc.pid)
                samples.append((round(time.monotonic() - t0, 1), m["rss_mb"], m["pss_mb"]))
            if (
                args.server == "gunicorn"
                and not worker_killed
                and time.monotonic() - t0 > args.fuzz_seconds * 0.9
            ):
                workers = [p for p in server_processes(proc.pid) if p != proc.pid]
                if workers:
                    os.kill(workers[0], signal.SIGKILL)
                    worker_killed = True
                    with lock:
                        served_after_kill = -counts["requests"]
            time.sleep(args.sample_seconds)
        served_after_kill += counts["requests"]
        answered = proc.poll() is None
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    tracebacks = sum(line.count("Traceback") for line in output)
    kinds: dict[str, int] = {}  # each traceback by its last line (the exception)
    for i, line in enumerate(output):
        if line.startswith("Traceback"):
            end = next(
                (j for j in range(i + 1, len(output)) if not output[j].startswith((" ", "\t"))),
                len(output) - 1,
            )
            kinds[output[end].strip()[:160]] = kinds.get(output[end].strip()[:160], 0) + 1
    # the first half of the run is the warm-up (each worker's caches fill); what grows
    # over the second half is what is still growing
    warm = next((s for s in samples if s[0] >= args.fuzz_seconds / 2), samples[0])
    return {
        "seconds": args.fuzz_seconds,
        "clients": args.clients,
        "server": args.server,
        "server_workers": args.workers if args.server == "gunicorn" else 1,
        "routes": len(routes),
        "requests_fuzzed": counts["requests"],
        "raw_malformed": counts["raw"],
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "5xx": counts["5xx"],
        "missing_security_headers": counts["no_security_headers"],
        "connection_errors": counts["connection_errors"],
        "unanswered": counts["unanswered"],
        "streams_busy_503": counts["busy"],
        # (waitress is one process: no worker to kill, it must still be serving)
        "worker_killed_and_served_on": (
            worker_killed and answered and served_after_kill > 0
            if args.server == "gunicorn"
            else None
        ),
        "still_serving": answered,
        "requests_after_the_kill": served_after_kill,
        "routes_hit": len(hit),
        "server_tracebacks": tracebacks,
        "server_traceback_kinds": kinds,
        "failures": failures[:20],
        "memory_mb": {
            "start_rss": samples[0][1],
            "half_time_rss": warm[1],
            "end_rss": samples[-1][1],
            "growth_second_half": round(samples[-1][1] - warm[1], 1),
            "max_rss": max(s[1] for s in samples),
            "start_pss": samples[0][2],
            "end_pss": samples[-1][2],
            "samples": [[s[0], s[1]] for s in samples[:: max(1, len(samples) // 12)]],
        },
    }


def table(rows: list[tuple[str, Any]]) -> str:
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--writer":
        writer(sys.argv[2], sys.argv[3], sys.argv[4], zlib.crc32(sys.argv[4].encode()))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writer-seconds", type=float, default=40)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--kill-every", default="0.2:1.5", help="seconds between kills, LOW:HIGH")
    parser.add_argument("--fuzz-seconds", type=float, default=120)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's worker processes")
    parser.add_argument(
        "--server",
        choices=("gunicorn", "waitress"),
        default="gunicorn",
        help="the server tablelog serve runs (waitress: one process, no worker to kill)",
    )
    parser.add_argument("--threads", type=int, default=8, help="waitress's threads")
    parser.add_argument("--sample-seconds", type=float, default=2)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--small-caches",
        action="store_true",
        help="serve with each worker's caches cut to almost nothing (is growth the caches?)",
    )
    parser.add_argument("--keep", help="keep the database at this path")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tablelog-soak-") as tmp:
        db = Path(args.keep) if args.keep else Path(tmp) / "soak.db"
        started = time.monotonic()
        raced = race(db, args)
        fuzzed = fuzz(db, args)
        verify_after = subprocess.run(
            [str(Path(sys.executable).parent / "tablelog"), "verify", "--db", str(db)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).returncode
    held = (
        raced["acknowledged_missing"] == 0
        and raced["doubled_or_out_of_order"] == 0
        and raced["payloads_not_the_seeds"] == 0
        and raced["verify_ok"]
        and fuzzed["5xx"] == 0
        and fuzzed["missing_security_headers"] == 0
        and fuzzed["worker_killed_and_served_on"] is not False
        and fuzzed["still_serving"]
        and fuzzed["unanswered"] == 0
        and fuzzed["server_tracebacks"] == 0
        and verify_after == 0
    )
    mem = fuzzed["memory_mb"]
    print(
        table(
            [
                (
                    "writers killed (SIGKILL) / started",
                    f"{raced['kills']} / {raced['writers_started']}",
                ),
                ("writes acknowledged", raced["writes_acknowledged"]),
                ("acknowledged but missing", raced["acknowledged_missing"]),
                ("doubled or out of order", raced["doubled_or_out_of_order"]),
                ("events stored (games)", f"{raced['events_stored']} ({raced['games']})"),
                (
                    "verify after the kills",
                    "clean" if raced["verify_ok"] else f"{raced['verify_findings']} findings",
                ),
                (
                    "requests fuzzed (+ raw malformed)",
                    f"{fuzzed['requests_fuzzed']} (+{fuzzed['raw_malformed']})",
                ),
                ("routes hit (of the url_map's)", f"{fuzzed['routes_hit']} of {fuzzed['routes']}"),
                ("statuses", fuzzed["statuses"]),
                (
                    "5xx / missing security headers",
                    f"{fuzzed['5xx']} / {fuzzed['missing_security_headers']}",
                ),
                ("requests left unanswered (30 s)", fuzzed["unanswered"]),
                ("live streams refused as busy (503, Retry-After)", fuzzed["streams_busy_503"]),
                ("connections dropped", fuzzed["connection_errors"]),
                ("tracebacks in the server's log", fuzzed["server_tracebacks"]),
                (
                    "worker killed at 90%, requests after",
                    f"{fuzzed['worker_killed_and_served_on']}, {fuzzed['requests_after_the_kill']}",
                ),
                (
                    "server RSS start / half-time / end / max (MB)",
                    " / ".join(
                        str(mem[k]) for k in ("start_rss", "half_time_rss", "end_rss", "max_rss")
                    ),
                ),
                ("server PSS start / end (MB)", f"{mem['start_pss']} / {mem['end_pss']}"),
                ("RSS over time (s, MB)", mem["samples"]),
                ("verify after the fuzzing", "clean" if verify_after == 0 else "findings"),
                ("held", held),
            ]
        ),
        file=sys.stderr,
    )
    for failure in fuzzed["failures"]:
        print(f"  {failure}", file=sys.stderr)
    result = {
        "bench": "soak",
        "held": held,
        "total_seconds": round(time.monotonic() - started, 1),
        "race": raced,
        "fuzz": fuzzed,
        "verify_after_fuzz_exit": verify_after,
    }
    print(json.dumps(result))
    if not held:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
