"""The site over a large store: do its lists answer as fast as its replays?

    python bench/scale.py                       # 100,000 games, SQLite
    python bench/scale.py --games 20000 --pg temp-postgresql   # and the same on PostgreSQL
    python bench/scale.py --no-verify --repeat 1                # a quick look

Builds ``--games`` seeded random games (the same games as ``bench/web.py``: eight names,
336 dates) once into an SQLite file cached under /tmp (``--fresh`` rebuilds it), starts
the real server on it (``tablelog serve``: its processes, on loopback), and measures, one
request at a time from one client, the p95 in ms of:

* the games list (``/``) in each order: its first page, a deep page (page 2,000 at the
  site's 25 a page: from the 49,976th game) and its last page;
* the API's list (``/api/games``, 50 a page): its first page, page 500 (from the 24,951st
  game) and its last page;
* a replay step (``/games/<id>/step/<n>``) and the state API at a step, of random games;
* a player's games (``/?player=ada``, a quarter of the games, with the player's
  statistics), first and deep, apart from the bar;

each ``--repeat`` times, printing the median of the runs' p95s (and every run's).  A deep
or last page is asked for as an old link does (``?page=N``); where the site answers with a
redirect (to the address of that page by its own links), the page measured is the one it
leads to, as a reader following the link gets it.

Then, starvation: the state API's p95 alone, and again while four clients (processes)
page deep through the list (each from a deep page of its own, newest, oldest, longest and
the API's, by each page's next link), and the ratio of the two: with the pagers asking as
fast as they are answered (they then keep both cores busy, the clients' own included),
and at a crawler's pace, 10 pages a second each.

Last, ``tablelog verify`` over the whole store, timed (``--no-verify`` skips it).

``--pg URL`` (or ``temp-postgresql``: a throwaway local cluster, as the tests start one,
with syncing on) imports the same games into that PostgreSQL database (``--pg-games`` of
them: the first of the same seeds, so the same games under the same ids) unless it holds
them already, and measures the same figures against a server over it (``--no-sqlite``:
over it alone).  Ends with one JSON line of every figure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import multiprocessing
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
# bench/web.py would shadow the web package: look up the repository first.
sys.path[0] = str(ROOT)

from engine.games import DEFAULT_KIND, get_game  # noqa: E402
from recorder import EventStore, GameImport  # noqa: E402

NAMES = ("Ada", "Blaise", "Chiara", "Dmitri", "Emeka", "Fumiko", "Gaspard", "Hana")
ORDERS = ("newest", "oldest", "activity", "longest")
PER_PAGE = 50
#: The deep pages asked for: the site's (at its own games a page) and the API's.
DEEP_PAGE = 2000
API_DEEP_PAGE = 500
#: The bar: every list page's p95, in ms.
LIST_P95_MS = 30
#: A crawler's pace, pages a second for each of the four deep pagers (the second
#: starvation figure; the first pages as fast as it is answered).
PAGER_RATE = 10


# --- the store ------------------------------------------------------------------------


def record(seed: int) -> GameImport:
    """Seeded random game ``seed`` (as bench/web.py makes them)."""
    rules = get_game(DEFAULT_KIND)
    rng = random.Random(seed)
    try:
        events = rules.random_game(rng)
    except IndexError:
        # (the simulator can paint itself into a corner, left without a move to pick:
        # the seed is played again on a stream of its own)
        rng = random.Random(f"again {seed}")
        events = rules.random_game(rng)
    names = rng.sample(NAMES, rules.seats.minimum)
    return GameImport(
        kind=rules.kind,
        headers={"players": names, "date": f"2024-{1 + seed % 12:02d}-{1 + seed % 28:02d}"},
        events=[rules.event_to_dict(e) for e in events],
        meta=[None] * len(events),
        game_id=None,
    )


def _chunks(items: Iterator[GameImport], size: int) -> Iterator[list[GameImport]]:
    chunk: list[GameImport] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def fill(store: Any, games: int) -> None:
    """Seeded random games 0 to ``games`` into ``store``, from the number it holds on (a
    build cut short goes on from where it stopped): simulated in one process per core,
    imported (every event checked) a thousand at a time."""
    started = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(os.cpu_count() or 1) as pool:
        done = store.listing.count()
        for chunk in _chunks(pool.imap(record, range(done, games), chunksize=50), 1000):
            store.import_games(chunk)
            done += len(chunk)
            if done % 10_000 == 0:
                print(f"  {done} games ({time.perf_counter() - started:.0f} s)", file=sys.stderr)


def build(path: Path, games: int) -> None:
    """``games`` seeded random games into a new file at ``path`` (see :func:`fill`)."""
    tmp = path.with_suffix(".building")
    with EventStore.open(str(tmp)) as store:
        fill(store, games)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    os.replace(tmp, path)
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)


# --- the server -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``tablelog serve`` over ``db`` on a free port of loopback, until closed."""

    def __init__(self, db: str):
        self.port = free_port()
        tablelog = Path(sys.executable).parent / "tablelog"
        command = [str(tablelog), "serve", "--db", db, "--port", str(self.port)]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the server)
        self.proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 300  # (a first start may migrate the store)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise SystemExit("the server exited:\n" + self.log.read().decode()[-2000:])
            try:
                get(self.port, "/api/games?per_page=1")
                return
            except OSError:
                time.sleep(0.3)
        raise SystemExit("the server did not answer in time")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()


def get(port: int, path: str, conn: http.client.HTTPConnection | None = None) -> tuple[int, Any]:
    """(status, response) of one GET; the body is read (``response.body``)."""
    own = conn is None
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        c.request("GET", path)
        response = c.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        return response.status, response
    finally:
        if own:
            c.close()


def resolve(port: int, path: str) -> str:
    """The address a reader ends at from ``path``: itself, or where one redirect leads."""
    status, response = get(port, path)
    if status in (301, 302, 303, 307, 308):
        target = urlsplit(response.getheader("Location"))
        return target.path + (f"?{target.query}" if target.query else "")
    if status != 200:
        raise SystemExit(f"{path}: {status}")
    return path


def p95(times: list[float]) -> float:
    times = sorted(times)
    return round(times[max(0, math.ceil(len(times) * 0.95) - 1)], 2)


def timed(port: int, paths: list[str]) -> list[float]:
    """ms of each GET of ``paths`` in turn, on one kept-alive connection (200 only)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    out = []
    for path in paths:
        t0 = time.perf_counter()
        status, response = get(port, path, conn)
        out.append((time.perf_counter() - t0) * 1000)
        if status != 200:
            raise SystemExit(f"{path}: {status} {response.body[:300]!r}")
    conn.close()
    return out


# --- the figures ------------------------------------------------------------------------


def list_paths(port: int, total: int | None, per_page: int) -> dict[str, str]:
    """The pages measured, by figure name: each order's first, deep and last page at the
    site's own games a page, the API's first, deep and last page at 50 a page.  Where the
    list does not say how many games it holds, a page number past any end stands for the
    last page (the site sends it there)."""
    last = math.ceil(total / per_page) if total else 1_000_000
    out: dict[str, str] = {}
    for order in ORDERS:
        q = f"order={order}&" if order != "newest" else ""
        out[f"list_{order}_first"] = f"/?order={order}" if q else "/"
        out[f"list_{order}_deep"] = resolve(port, f"/?{q}page={DEEP_PAGE}")
        out[f"list_{order}_last"] = resolve(port, f"/?{q}page={last}")
    # a player's games (a quarter of them: eight names, two a game), with their
    # statistics above the list: apart from the bar, which is the list's own
    out["player_first"] = "/?player=ada"
    out["player_deep"] = resolve(port, "/?player=ada&page=200")
    api_last = math.ceil(total / PER_PAGE) if total else 1_000_000
    out["api_first"] = f"/api/games?per_page={PER_PAGE}"
    out["api_deep"] = resolve(port, f"/api/games?per_page={PER_PAGE}&page={API_DEEP_PAGE}")
    out["api_last"] = resolve(port, f"/api/games?per_page={PER_PAGE}&page={api_last}")
    return out


def replay_paths(
    games: list[tuple[str, int]], n: int, rng: random.Random, template: str
) -> list[str]:
    paths = []
    for _ in range(n):
        gid, steps = rng.choice(games)
        paths.append(template.format(gid=gid, step=rng.randint(0, steps)))
    return paths


def sample_games(
    port: int, total: int | None, rng: random.Random, n: int = 400
) -> list[tuple[str, int]]:
    """``n`` games to replay: the API's first pages and a few deep ones."""
    games: list[tuple[str, int]] = []
    pages = max(1, math.ceil((total or 10_000) / 100))
    for page in sorted({1, *(rng.randint(1, pages) for _ in range(3))}):
        path = resolve(port, f"/api/games?per_page=100&page={page}")
        _, response = get(port, path)
        games += [(g["id"], g["event_count"]) for g in json.loads(response.body)["games"]]
    return games[:n]


def deep_pager(args: tuple[int, str, float, float]) -> int:
    """One client paging deep until ``stop``: from ``start`` by each page's next link
    (the page's ``<a rel="next">``, the API's ``Link``), and from ``start`` again at the
    end, ``rate`` pages a second (0: each as soon as the last is answered); the pages it
    read."""
    port, start, stop, rate = args
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    path, n = start, 0
    tick = time.time()
    while time.time() < stop:
        if rate:
            tick += 1 / rate
            time.sleep(max(0.0, tick - time.time()))
        _, response = get(port, path, conn)
        n += 1
        text = response.body.decode(errors="replace")
        found = re.search(r'<a rel="next" href="([^"]+)"', text) or re.search(
            r'<[^>]*?(/[^>]*)>; rel="next"', response.getheader("Link") or ""
        )
        if found:
            path = found[1].replace("&amp;", "&")
        elif "page=" in path and "rel=" not in text and "Link" not in response.headers:
            # (an old page number, served as it is: the next number)
            number = int(re.search(r"page=(\d+)", path)[1])  # type: ignore[index]
            path = re.sub(r"page=\d+", f"page={number + 1}", path)
        else:
            path = start
    conn.close()
    return n


def measure(port: int, samples: int, repeat: int, starvation_only: bool = False) -> dict[str, Any]:
    """Every figure of one server (see the module's text)."""
    rng = random.Random(2024)
    _, response = get(port, "/api/games")
    body = json.loads(response.body)
    total = body.get("total")
    paths = list_paths(port, total, body["per_page"])
    games = sample_games(port, total, rng)
    step = replay_paths(games, samples, rng, "/games/{gid}/step/{step}")
    state = replay_paths(games, samples, rng, "/api/games/{gid}/state?step={step}")
    figures: dict[str, Any] = {"games_listed": total or f"more than {body.get('more_than')}"}
    figures["paths"] = paths
    runs: dict[str, list[float]] = {}
    for r in range(0 if starvation_only else repeat):
        for name, path in paths.items():
            timed(port, [path] * 3)  # warm: the pages' own caches, the file's pages
            runs.setdefault(name, []).append(p95(timed(port, [path] * samples)))
        # a fresh set of steps each run: the replay caches keep what they answered
        runs.setdefault("replay_step", []).append(p95(timed(port, step)))
        runs.setdefault("state_api", []).append(p95(timed(port, state)))
        step = replay_paths(games, samples, rng, "/games/{gid}/step/{step}")
        state = replay_paths(games, samples, rng, "/api/games/{gid}/state?step={step}")
        print(f"  run {r + 1}: " + json.dumps({k: v[-1] for k, v in runs.items()}), file=sys.stderr)
    for name, values in runs.items():
        figures[f"{name}_p95_ms"] = statistics.median(values)
        figures[f"{name}_p95_ms_runs"] = values

    # starvation: the state API alone, then with four clients paging deep, each from a
    # deep page of its own by the next links: as fast as they are answered, and at a
    # crawler's pace
    starts = [paths[n] for n in ("list_newest_deep", "list_oldest_deep", "list_longest_deep")]
    starts.append(paths["api_deep"])
    ctx = multiprocessing.get_context("spawn")
    for label, rate in (("", 0.0), (f"_{PAGER_RATE}_a_second", PAGER_RATE)):
        alone, loaded = [], []
        for _ in range(repeat):
            fresh = replay_paths(games, samples, rng, "/api/games/{gid}/state?step={step}")
            alone.append(p95(timed(port, fresh)))
            fresh = replay_paths(games, samples, rng, "/api/games/{gid}/state?step={step}")
            with ctx.Pool(4) as pool:
                stop = time.time() + 600
                pending = pool.map_async(deep_pager, [(port, s, stop, rate) for s in starts])
                time.sleep(1)  # the pagers under way
                loaded.append(p95(timed(port, fresh)))
                pool.terminate()
                del pending
        name = f"state_api_with_4_deep_pagers{label}"
        figures[f"{name}_alone_p95_ms"] = statistics.median(alone)
        figures[f"{name}_p95_ms"] = statistics.median(loaded)
        figures[f"{name}_alone_p95_ms_runs"] = alone
        figures[f"{name}_p95_ms_runs"] = loaded
        figures[f"{name}_ratio"] = round(statistics.median(loaded) / statistics.median(alone), 2)
        print(f"  {name}: {figures[f'{name}_ratio']} ({alone} -> {loaded})", file=sys.stderr)
    if not starvation_only:
        worst = max(
            v
            for k, v in figures.items()
            if k.startswith(("list_", "api_")) and k.endswith("_p95_ms")
        )
        figures["worst_list_p95_ms"] = worst
        figures["lists_within_bar"] = worst <= LIST_P95_MS
    return figures


def verify_seconds(db: str) -> float:
    tablelog = Path(sys.executable).parent / "tablelog"
    t0 = time.perf_counter()
    done = subprocess.run([str(tablelog), "verify", "--db", db], capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"tablelog verify failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return round(elapsed, 1)


def postgres_place(args: argparse.Namespace) -> tuple[str, Any]:
    """The PostgreSQL URL of the same games (imported there as into the file: the same
    seeds, so the same games under the same ids), and the cluster to remove after."""
    url = args.pg
    cluster = None
    if url == "temp-postgresql":
        sys.path.insert(0, str(ROOT / "tests"))
        from pgcluster import Cluster, find_bindir

        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("no PostgreSQL binaries (apt-get install postgresql)")
        cluster = Cluster(bindir).init().start(durable=True)
        url = cluster.url()
    from recorder import open_store

    t0 = time.perf_counter()
    with open_store(url) as store:
        if store.listing.count() < args.pg_games:
            print(f"filling PostgreSQL ({args.pg_games} games)...", file=sys.stderr)
            fill(store, args.pg_games)
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")  # (as autovacuum would, in time)
    print(f"  PostgreSQL ready in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return url, cluster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--db", type=Path, default=None, help="the SQLite file (cached)")
    parser.add_argument("--fresh", action="store_true", help="rebuild the cached store")
    parser.add_argument("--samples", type=int, default=100, help="requests per figure")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure (median)")
    parser.add_argument("--no-verify", action="store_true", help="skip tablelog verify")
    parser.add_argument("--pg", help="a PostgreSQL URL, or temp-postgresql")
    parser.add_argument("--pg-games", type=int, default=None, help="games there (--games)")
    parser.add_argument("--no-sqlite", action="store_true", help="measure PostgreSQL only")
    parser.add_argument("--build-only", action="store_true", help="build the store, no figures")
    parser.add_argument(
        "--starvation-only", action="store_true", help="only the state API with deep pagers"
    )
    args = parser.parse_args()
    args.pg_games = args.pg_games or args.games

    db = args.db or Path(f"/tmp/tablelog-scale-{args.games}.db")
    if args.fresh or not db.exists():
        print(f"building {db} ({args.games} games)...", file=sys.stderr)
        build(db, args.games)
    if args.build_only:
        return
    results: dict[str, Any] = {
        "bench": "scale",
        "cores": os.cpu_count(),
        "load_before": round(os.getloadavg()[0], 2),
        "db_bytes": db.stat().st_size,
    }
    places: list[tuple[str, str]] = [] if args.no_sqlite else [("sqlite", str(db))]
    cluster = None
    try:
        if args.pg:
            url, cluster = postgres_place(args)
            places.append(("postgresql", url))
        for name, place in places:
            server = Server(place)
            try:
                print(f"{name}: measuring", file=sys.stderr)
                results[name] = measure(
                    server.port, args.samples, args.repeat, args.starvation_only
                )
            finally:
                server.close()
            if not args.no_verify:
                results[name]["verify_seconds"] = verify_seconds(place)
                print(f"{name}: verify {results[name]['verify_seconds']} s", file=sys.stderr)
    finally:
        if cluster is not None:
            cluster.remove()
    results["load_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
