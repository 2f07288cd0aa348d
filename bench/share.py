"""Sharing a game: the animated GIF of its steps, as the site serves it.

The real server (``tablelog serve``: gunicorn's gevent workers) over a database holding
one sample game (fixtures/games/dispute.tl, 128 steps).  Each repeat empties the folder of
drawings, then asks for ``/games/<id>.gif?from=1&to=STEPS`` as a client would (every
100 ms, whatever ``Retry-After`` says, so the figure is the drawing's own time) until the
GIF comes: that is the cold time, from the first request to the GIF's last byte.  While
it is drawn, another client asks for the game's step pages (one every 50 ms): their
latency says whether the request workers keep answering.  Then the same GIF is asked for
``--cached`` times (from the cache on disk).  Last, the same frames are drawn in this
process, at a normal priority (:func:`web.animation.game_gif`, what the drawing process
and ``tablelog show --gif`` call): the drawing's own cost, apart from the machine's other
work.  The figures are medians of ``--repeats`` repeats; the machine's load average is
printed beside them (other work on the machine slows the drawing down: it runs at a low
priority).

    python bench/share.py [--steps 60] [--repeats 3] [--cached 50] [--workers N]

Ends by printing one JSON line.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench/engine.py would shadow the engine package: look up the repository first.
sys.path[0] = str(ROOT)

from recorder import EventStore  # noqa: E402
from recorder.io import import_files  # noqa: E402
from web.animation import game_gif  # noqa: E402

GAME = ROOT / "fixtures" / "games" / "dispute.tl"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Accept": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server exited before answering")
        try:
            get(port, "/api/games?per_page=1")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer in time")


#: How often the client that reads step pages during a drawing asks for one, in seconds
#: (a few people stepping through replays; a client asking without a pause would take a
#: core from the drawing, which runs at a lower priority than the server).
PAGE_EVERY_S = 0.05


def pages_meanwhile(port: int, game: str, last: int, stop: threading.Event) -> list[float]:
    """Step pages asked every :data:`PAGE_EVERY_S` until ``stop``: each one's latency in ms."""
    out, step = [], 0
    while not stop.wait(PAGE_EVERY_S):
        started = time.perf_counter()
        status, _ = get(port, f"/games/{game}/step/{step}")
        out.append((time.perf_counter() - started) * 1000)
        if status != 200:
            raise SystemExit(f"step page {step}: {status}")
        step = (step + 7) % (last + 1)
    return out


def cold(port: int, path: str, game: str, last: int) -> dict[str, Any]:
    """One drawing from nothing: seconds to the GIF, its size, the 202s seen, the step
    pages' latency meanwhile."""
    stop = threading.Event()
    latencies: list[float] = []
    meanwhile = threading.Thread(
        target=lambda: latencies.extend(pages_meanwhile(port, game, last, stop)), daemon=True
    )
    started = time.perf_counter()
    meanwhile.start()
    accepted = 0
    while True:
        status, body = get(port, path)
        if status == 200:
            break
        if status != 202:
            raise SystemExit(f"{path}: {status} {body[:300]!r}")
        accepted += 1
        time.sleep(0.1)
    seconds = time.perf_counter() - started
    stop.set()
    meanwhile.join()
    return {
        "seconds": seconds,
        "bytes": len(body),
        "answers_202": accepted,
        "pages_meanwhile": len(latencies),
        "page_median_ms": statistics.median(latencies) if latencies else None,
        "page_max_ms": max(latencies) if latencies else None,
    }


def cached(port: int, path: str, times: int) -> list[float]:
    out = []
    for _ in range(times):
        started = time.perf_counter()
        status, _ = get(port, path)
        out.append((time.perf_counter() - started) * 1000)
        if status != 200:
            raise SystemExit(f"{path} from the cache: {status}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60, help="frames: steps 1 to STEPS")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cached", type=int, default=50, help="requests from the cache")
    parser.add_argument("--workers", type=int, default=0, help="server workers (0: per core)")
    args = parser.parse_args()

    tablelog = Path(sys.executable).parent / "tablelog"
    with tempfile.TemporaryDirectory(prefix="tablelog-share-") as tmp:
        db = Path(tmp) / "share.db"
        with EventStore.open(db) as store:
            ((_, _, result),) = list(import_files(store, [GAME]))
            game, last = result.game_id, store.game(result.game_id).event_count
        db_copy = Path(tempfile.mkdtemp(prefix="tablelog-share-")) / "copy.db"
        shutil.copy(db, db_copy)
        drawings = db.with_name(db.name + ".drawings")
        port = free_port()
        command = [str(tablelog), "serve", "--db", str(db), "--port", str(port)]
        if args.workers:
            command += ["--workers", str(args.workers)]
        log_path = Path(tmp) / "server.log"
        with open(log_path, "wb") as server_log:
            server = subprocess.Popen(command, cwd=ROOT, stdout=server_log, stderr=server_log)
        try:
            wait_ready(port, server)
            time.sleep(1)  # every worker up
            path = f"/games/{game}.gif?from=1&to={args.steps}"
            runs, hits = [], []
            for i in range(args.repeats):
                shutil.rmtree(drawings, ignore_errors=True)
                load = os.getloadavg()[0]
                run = cold(port, path, game, last)
                hit = cached(port, path, args.cached)
                hits.extend(hit)
                run["cached_median_ms"] = statistics.median(hit)
                runs.append(run)
                print(
                    f"repeat {i + 1}: {args.steps} frames drawn cold in {run['seconds']:.2f} s "
                    f"({run['bytes'] / 1e6:.2f} MB, {run['answers_202']} answers 202 "
                    f"meanwhile); step pages meanwhile: {run['pages_meanwhile']}, median "
                    f"{run['page_median_ms']:.1f} ms, max {run['page_max_ms']:.1f} ms; from "
                    f"the cache: median {run['cached_median_ms']:.2f} ms "
                    f"(load average {load:.2f} before)",
                    flush=True,
                )
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()

    draws = []
    with EventStore.open(db_copy) as store:
        for _ in range(args.repeats):
            started = time.perf_counter()
            game_gif(store, game, 1, args.steps)
            draws.append(time.perf_counter() - started)
    print(f"drawn in this process: {', '.join(f'{d:.2f} s' for d in draws)}")
    hits.sort()
    figures = {
        "draw_in_process_s": round(statistics.median(draws), 2),
        "frames": args.steps,
        "cold_s": round(statistics.median(r["seconds"] for r in runs), 2),
        "gif_mb": round(statistics.median(r["bytes"] for r in runs) / 1e6, 3),
        "cached_ms": round(statistics.median(hits), 2),
        "cached_p95_ms": round(hits[int(len(hits) * 0.95) - 1], 2),
        "page_meanwhile_median_ms": round(statistics.median(r["page_median_ms"] for r in runs), 1),
        "page_meanwhile_max_ms": round(max(r["page_max_ms"] for r in runs), 1),
        "load_average": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
    }
    print(
        f"median of {args.repeats}: {args.steps} frames cold {figures['cold_s']} s "
        f"(target ≤ 15 s), {figures['gif_mb']} MB (≤ 3 MB); from the cache "
        f"{figures['cached_ms']} ms, p95 {figures['cached_p95_ms']} ms (≤ 50 ms); drawn in "
        f"this process {figures['draw_in_process_s']} s"
    )
    shutil.rmtree(db_copy.parent, ignore_errors=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
