"""Benchmark the event store; ends by printing one JSON line of figures.

    python bench/store.py                      # 10,000 games imported, state in 100,000
    python bench/store.py --games 2000 --state-games 3000 --samples 200   # a quick run

* import: ``--games`` seeded random games (simulated on every core first), imported with
  full rule checking into a fresh file, 500 games per transaction, four ways:

  - from memory (``EventStore.import_games``) in one process: it checks while a thread
    of its own writes;
  - from memory with ``--workers`` checking processes while this one writes;
  - from files, one JSON game file per game, as ``tablelog import`` does it
    (``recorder.io.import_files``): in one process, and with ``--workers`` processes
    reading and checking;

  each ``--repeat`` times into a fresh file, reporting the median (games/s, events/s) and
  every run, with the machine's load average (other work slows every figure);
* where the time goes, on the first 1,000 games: preparing (validation, the engine's
  parse + check + apply, canonical JSON, the content hash), of which the engine alone;
  handing a prepared game from a checking process to the writer (pickling both ways);
  writing (SQLite), and writing without the append-only trigger, to show its cost; and
  SQLite's floor: the same events rows by the same statement into a table with none of
  the store's guarantees (no key, constraint, index or trigger). The import from memory
  in one process also reports its CPU a game and the cores it kept busy: on 2 cores its
  rate is at most 2,000 / (CPU ms a game) games/s;
* state at a step: the database is filled to ``--state-games`` games (the same simulated
  games imported again under other headers, so other ids; generating 100,000 distinct
  games would take several minutes more), then ``--samples`` random (game, step) pairs
  are folded from a fresh connection: median and p95 ms, with the parsed-payload cache
  warm (as in a running server) and cold;
* an append's latency: one writer logging ``--appends`` moves, one at a time, as a phone
  does, into that file (median and p95 ms);
* bytes per game on disk, and bytes per stored event: the imported file's size after
  ``VACUUM`` over its events (everything in the file counted: events, games, summaries,
  snapshots, indexes).

Filling 100,000 games takes a few minutes and about 2.5 GB in the temporary folder, which
is removed at the end (``--keep`` keeps it).

SQLite and PostgreSQL side by side, in the same run::

    python bench/store.py --db postgresql://USER@HOST/DB   # a database to bench in
    python bench/store.py --db temp-postgresql             # a throwaway local cluster
    python bench/store.py --db temp-postgresql --games 500 --state-games 2000 --samples 200

For each store (an SQLite file in the temporary folder; the PostgreSQL database, in a
schema of its own that is dropped at the end): the import rate from memory in one process
(``--repeat`` runs, median), the latency of an append (one move, as a phone logs it) with
8 writers at once (``--writers``: processes, each logging games of its own; median and p95
over ``--appends`` appends each), and the state at a random step with ``--state-games``
games stored (median and p95 ms, parsed-payload cache warm).  ``temp-postgresql`` starts
a cluster as the tests do (tests/pgcluster.py) but with PostgreSQL's syncing on, as
SQLite's is (``synchronous=FULL``), so the two pay for durability alike.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pickle
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games import get_game  # noqa: E402
from engine.splendor_duel import events as ev  # noqa: E402
from engine.splendor_duel import simulate  # noqa: E402
from recorder import EventStore, GameImport, core, open_store, pipeline, prepare  # noqa: E402
from recorder.io import import_files  # noqa: E402
from recorder.places import shown  # noqa: E402
from recorder.sqlite import bytes_per_event  # noqa: E402


def simulate_payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulate.random_game(random.Random(seed))]


def make_games(n: int, processes: int) -> list[list[dict]]:
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return pool.map(simulate_payloads, range(n), chunksize=50)


def headers(i: int, round_: int) -> dict:
    return {
        "players": ["Ann", "Bo"],
        "date": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
        "round": str(round_),
    }


def records(games: list[list[dict]], round_: int) -> list[GameImport]:
    return [GameImport(headers=headers(i, round_), events=events) for i, events in enumerate(games)]


def write_files(folder: Path, games: list[list[dict]]) -> list[Path]:
    """One JSON game file per game, as a logger would keep them."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, events in enumerate(games):
        doc = {
            "format": "tablelog-game",
            "version": 1,
            "kind": "splendor-duel",
            "headers": headers(i, 0),
            "events": events,
        }
        path = folder / f"game-{i:05d}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        paths.append(path)
    return paths


def fresh(path: Path) -> EventStore:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return EventStore.open(path)


def rate(n_games: int, n_events: int, elapsed: float) -> dict:
    return {
        "games_per_s": round(n_games / elapsed, 1),
        "events_per_s": round(n_events / elapsed),
        "seconds": round(elapsed, 2),
    }


def import_records(
    path: Path, recs: list[GameImport], workers: int, cpu: list[float] | None = None
) -> float:
    """Seconds to import ``recs`` into a fresh file; appends to ``cpu`` this process's
    CPU seconds meanwhile (every thread's: checking and writing, in one process)."""
    with fresh(path) as store:
        t0, c0 = time.perf_counter(), time.process_time()
        results = store.import_games(recs, workers=workers)
        elapsed = time.perf_counter() - t0
        if cpu is not None:
            cpu.append(time.process_time() - c0)
    failed = [r for r in results if not hasattr(r, "created")]
    if failed:
        raise SystemExit(f"import refused a simulated game: {failed[0]}")
    return elapsed


def import_paths(path: Path, paths: list[Path], jobs: int) -> float:
    with fresh(path) as store:
        t0 = time.perf_counter()
        results = [r for _, _, r in import_files(store, paths, jobs=jobs)]
        elapsed = time.perf_counter() - t0
    failed = [r for r in results if not hasattr(r, "created")]
    if failed:
        raise SystemExit(f"import refused a simulated game file: {failed[0]}")
    return elapsed


def median_rate(runs: list[float], n_games: int, n_events: int) -> dict:
    out = rate(n_games, n_events, statistics.median(runs))
    out["runs_games_per_s"] = [round(n_games / s, 1) for s in runs]
    return out


def where_time_goes(path: Path, recs: list[GameImport]) -> dict:
    """Prepare, hand over and write separately, on a sample of games (medians of 3)."""
    rules = get_game("splendor-duel")
    n = len(recs)

    def engine_only() -> None:
        for r in recs:
            state = rules.new_state(("Ann", "Bo"))
            for payload in r.events:
                rules.play(state, rules.event_from_dict(payload))

    def timed(fn) -> float:  # type: ignore[no-untyped-def]
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - t0)
        return statistics.median(runs) / n * 1000

    engine_ms = timed(engine_only)
    prepare_ms = timed(lambda: [prepare.prepare_game(r) for r in recs])
    prepared = [prepare.prepare_game(r) for r in recs]
    chunks = [prepared[i : i + 25] for i in range(0, n, 25)]
    blobs = [pickle.dumps(c, pickle.HIGHEST_PROTOCOL) for c in chunks]
    handover_ms = timed(lambda: [pickle.loads(pickle.dumps(c, -1)) for c in chunks])
    unpickle_ms = timed(lambda: [pickle.loads(b) for b in blobs])
    record_blobs = [pickle.dumps(r, pickle.HIGHEST_PROTOCOL) for r in recs]
    records_ms = timed(lambda: [pickle.dumps(r, -1) for r in recs])

    batch = pipeline.DEFAULT_BATCH

    def write(drop_trigger: bool) -> float:
        runs = []
        for _ in range(3):
            with fresh(path) as store:
                if drop_trigger:
                    store.db.execute("DROP TRIGGER events_append_in_sequence")
                t0 = time.perf_counter()
                for i in range(0, n, batch):
                    store._write_batch(prepared[i : i + batch])
                runs.append(time.perf_counter() - t0)
        return statistics.median(runs) / n * 1000

    write_ms = write(False)
    write_bare_ms = write(True)
    floor_ms = sqlite_floor(path, prepared, batch)
    return {
        "prepare_ms_per_game": round(prepare_ms, 3),
        "prepare_engine_ms_per_game": round(engine_ms, 3),
        "handover_ms_per_game": round(handover_ms, 3),
        "handover_unpickle_in_writer_ms_per_game": round(unpickle_ms, 3),
        "record_pickle_in_writer_ms_per_game": round(records_ms, 3),
        "prepared_bytes_per_game": round(sum(map(len, blobs)) / n),
        "record_bytes_per_game": round(sum(map(len, record_blobs)) / n),
        "write_ms_per_game": round(write_ms, 3),
        "write_ms_per_game_without_append_trigger": round(write_bare_ms, 3),
        "write_ms_per_game_bare_sqlite_table": round(floor_ms, 3),
    }


def _bare_events(insert: str) -> str:
    """The events table with the columns ``insert`` fills and none of its guarantees: no
    primary key, constraint, foreign key, index or trigger (what SQLite costs at the
    least, see sqlite_floor)."""
    columns = insert[insert.index("(") + 1 : insert.index(")")]
    return f"CREATE TABLE events ({columns})"


def sqlite_floor(path: Path, prepared: list, batch: int) -> float:
    """ms a game for SQLite to store the same events rows, by the import's own statement,
    in a file with the store's settings (WAL, synchronous=FULL), into a table without any
    of the store's guarantees: the floor under the writer, however it is tuned."""
    from recorder.sqlite_import import GAMES_PER_STATEMENT, insert_events_sql

    # the event types numbered as a store numbers them, and each game its number
    types = sorted({name for p in prepared for name in p.types})
    codes = tuple((name, code) for code, name in enumerate(types, start=1))
    runs = []
    for _ in range(3):
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA journal_mode = wal")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute(_bare_events(insert_events_sql(1, codes)))
        t0 = time.perf_counter()
        for start in range(0, len(prepared), batch):
            conn.execute("BEGIN IMMEDIATE")
            games = prepared[start : start + batch]
            for i in range(0, len(games), GAMES_PER_STATEMENT):
                part = games[i : i + GAMES_PER_STATEMENT]
                no = start + i + 1
                params: list = [1, 0, "[" + ",".join(p.events_json[1:-1] for p in part) + "]"]
                params += [b"".join(p.hashes for p in part), no]
                first = part[0].event_count
                for j, p in enumerate(part[1:], start=1):
                    params += (no + j, first)
                    first += p.event_count
                conn.execute(insert_events_sql(len(part), codes), params)
            conn.execute("COMMIT")
        runs.append(time.perf_counter() - t0)
        conn.close()
    return statistics.median(runs) / len(prepared) * 1000


def fill(path: Path | str, games: list[list[dict]], total: int, workers: int) -> int:
    with open_store(path) as store:
        have = store.listing.count()
        round_ = 1
        while have < total:
            chunk = records(games[: total - have], round_)
            store.import_games(chunk, workers=workers)
            have = store.listing.count()
            round_ += 1
            print(f"  filled {have} games", file=sys.stderr)
        return have


def state_times(path: Path | str, samples: int, cold: bool, seed: int) -> dict:
    rng = random.Random(seed)
    times = []
    with open_store(path) as store:
        counts = {gid: steps for gid, steps, _ in store.verification.heads()}
        ids = list(counts)
        for _ in range(samples):
            gid = rng.choice(ids)
            step = rng.randint(0, counts[gid])
            if cold:
                core._PARSED.clear()
            t0 = time.perf_counter()
            store.state_at(gid, step)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 3),
    }


def p95(times: list[float]) -> dict:
    times = sorted(times)
    return {
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[max(0, int(len(times) * 0.95) - 1)], 3),
    }


def append_writer(task: tuple[str, int, int]) -> list[float]:
    """One writer: logs games of its own move by move (a phone at a table), ``n``
    appends; the ms each took."""
    place, writer, n = task
    times: list[float] = []
    with open_store(place) as store:
        round_ = 0
        while len(times) < n:
            payloads = simulate_payloads(1000 + 97 * writer + round_)
            gid = store.create_game(headers(writer, round_), game_id=f"w{writer}-{round_}").id
            for step, payload in enumerate(payloads):
                if len(times) >= n:
                    break
                t0 = time.perf_counter()
                store.append(gid, step, [payload])
                times.append((time.perf_counter() - t0) * 1000)
            round_ += 1
    return times


def bench_backend(place: Path | str, games: list[list[dict]], args: argparse.Namespace) -> dict:
    """The side-by-side figures of one store (see the module's text)."""
    recs = records(games, 0)
    n_events = sum(len(r.events) for r in recs)
    runs = []
    for _ in range(args.repeat):
        with open_store(place) as store:
            t0 = time.perf_counter()
            store.import_games(records(games, 100 + len(runs)))
            runs.append(time.perf_counter() - t0)
    imported = median_rate(runs, len(recs), n_events)
    print(f"  {shown(place)}: import {imported['games_per_s']} games/s", file=sys.stderr)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.writers) as pool:
        per_writer = pool.map(
            append_writer, [(str(place), w, args.appends) for w in range(args.writers)]
        )
    appends = p95([t for ts in per_writer for t in ts])
    print(f"  {shown(place)}: append with {args.writers} writers {appends}", file=sys.stderr)
    total = fill(place, games, args.state_games, 0)
    state = state_times(place, args.samples, cold=False, seed=1)
    print(f"  {shown(place)}: state at a step {state}", file=sys.stderr)
    return {
        "import_games_per_s": imported["games_per_s"],
        "import_events_per_s": imported["events_per_s"],
        "import_games_per_s_runs": imported["runs_games_per_s"],
        f"append_median_ms_{args.writers}_writers": appends["median_ms"],
        f"append_p95_ms_{args.writers}_writers": appends["p95_ms"],
        "state_db_games": total,
        "state_at_median_ms": state["median_ms"],
        "state_at_p95_ms": state["p95_ms"],
    }


def with_schema(url: str, schema: str) -> str:
    """The URL with ``schema`` as its search path."""
    from urllib.parse import quote

    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-c search_path={schema}', safe='')}"


def compare(args: argparse.Namespace) -> None:
    """SQLite and PostgreSQL side by side; one JSON line."""
    import psycopg

    tmp = Path(tempfile.mkdtemp(prefix="tablelog-bench-"))
    cluster = None
    url = args.db
    if url == "temp-postgresql":
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from pgcluster import Cluster, find_bindir

        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("no PostgreSQL binaries (apt-get install postgresql)")
        cluster = Cluster(bindir).init().start(durable=True)
        url = cluster.url()
    schema = f"tablelog_bench_{os.getpid()}"
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        games = make_games(args.games, os.cpu_count() or 1)
        print(f"simulated {len(games)} games", file=sys.stderr)
        figures: dict = {"bench": "store-backends", "games_imported": len(games)}
        for name, place in (("sqlite", tmp / "store.db"), ("postgresql", with_schema(url, schema))):
            figures[name] = bench_backend(place, games, args)
        figures["cores"] = os.cpu_count() or 1
        figures["load_average_1min"] = round(os.getloadavg()[0], 2)
        print(json.dumps(figures))
    finally:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            if cluster is not None:
                cluster.remove()
            shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--state-games", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3, help="imports of each kind")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument(
        "--db",
        help="a PostgreSQL URL (or temp-postgresql): bench it side by side with SQLite",
    )
    parser.add_argument("--writers", type=int, default=8, help="appending processes (--db)")
    parser.add_argument("--appends", type=int, default=200, help="appends per writer")
    args = parser.parse_args()
    if args.db:
        compare(args)
        return

    tmp = Path(tempfile.mkdtemp(prefix="tablelog-bench-"))
    try:
        cores = os.cpu_count() or 1
        t0 = time.perf_counter()
        games = make_games(args.games, cores)
        simulated_s = time.perf_counter() - t0
        print(f"simulated {len(games)} games in {simulated_s:.1f}s", file=sys.stderr)
        recs = records(games, 0)
        paths = write_files(tmp / "files", games)
        n_events = sum(len(r.events) for r in recs)
        w = args.workers

        runs: dict[str, list[float]] = {"single": [], "workers": [], "files": [], "jobs": []}
        loads = []
        cpu: list[float] = []
        for i in range(args.repeat):
            loads.append(os.getloadavg()[0])
            runs["single"].append(import_records(tmp / "single.db", recs, 0, cpu))
            runs["workers"].append(import_records(tmp / "store.db", recs, workers=w))
            runs["files"].append(import_paths(tmp / "files.db", paths, jobs=1))
            runs["jobs"].append(import_paths(tmp / "files.db", paths, jobs=w))
            print(
                f"import round {i + 1}: "
                + ", ".join(f"{k} {len(recs) / v[-1]:.0f} games/s" for k, v in runs.items()),
                file=sys.stderr,
            )
        single = median_rate(runs["single"], len(recs), n_events)
        parallel = median_rate(runs["workers"], len(recs), n_events)
        from_files = median_rate(runs["files"], len(recs), n_events)
        from_files_jobs = median_rate(runs["jobs"], len(recs), n_events)
        split = where_time_goes(tmp / "split.db", recs[: min(1000, len(recs))])
        print(f"where the time goes: {split}", file=sys.stderr)

        with EventStore.open(tmp / "single.db") as store:
            store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        bytes_per_game = round(os.path.getsize(tmp / "single.db") / len(recs))
        per_event = round(bytes_per_event(tmp / "single.db"), 1)
        print(f"bytes per event (after VACUUM): {per_event}", file=sys.stderr)

        total = fill(tmp / "store.db", games, args.state_games, w)
        warm = state_times(tmp / "store.db", args.samples, cold=False, seed=1)
        cold = state_times(tmp / "store.db", args.samples, cold=True, seed=2)
        print(f"state at a step, warm: {warm}, cold: {cold}", file=sys.stderr)
        appends = p95(append_writer((str(tmp / "store.db"), 0, args.appends)))
        print(f"append, one writer: {appends}", file=sys.stderr)
        figures = {
            "bench": "store",
            "games_imported": len(recs),
            "events_imported": n_events,
            "repeat": args.repeat,
            "import_games_per_s": single["games_per_s"],
            "import_events_per_s": single["events_per_s"],
            "import_games_per_s_runs": single["runs_games_per_s"],
            # one process: its CPU a game (checking and writing), and the cores it kept busy
            "import_cpu_ms_per_game": round(statistics.median(cpu) / len(recs) * 1000, 3),
            "import_cores_busy": round(
                statistics.median(c / s for c, s in zip(cpu, runs["single"], strict=True)), 2
            ),
            f"import_games_per_s_{w}_workers": parallel["games_per_s"],
            f"import_events_per_s_{w}_workers": parallel["events_per_s"],
            f"import_games_per_s_{w}_workers_runs": parallel["runs_games_per_s"],
            "import_files_games_per_s": from_files["games_per_s"],
            "import_files_events_per_s": from_files["events_per_s"],
            "import_files_games_per_s_runs": from_files["runs_games_per_s"],
            f"import_files_games_per_s_{w}_jobs": from_files_jobs["games_per_s"],
            f"import_files_events_per_s_{w}_jobs": from_files_jobs["events_per_s"],
            f"import_files_games_per_s_{w}_jobs_runs": from_files_jobs["runs_games_per_s"],
            "load_average_during_imports": [round(x, 2) for x in loads],
            **split,
            "state_db_games": total,
            "state_at_median_ms": warm["median_ms"],
            "state_at_p95_ms": warm["p95_ms"],
            "state_at_cold_median_ms": cold["median_ms"],
            "state_at_cold_p95_ms": cold["p95_ms"],
            "append_median_ms": appends["median_ms"],
            "append_p95_ms": appends["p95_ms"],
            "bytes_per_game": bytes_per_game,
            "bytes_per_event": per_event,
            "cores": cores,
            "load_average_1min": round(os.getloadavg()[0], 2),
        }
        print(json.dumps(figures))
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
