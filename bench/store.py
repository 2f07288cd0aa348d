"""Benchmark the event store; ends by printing one JSON line of figures.

    python bench/store.py                      # 10,000 games imported, state in 100,000
    python bench/store.py --games 1000 --state-games 5000   # a quick run

* import: ``--games`` seeded random games (simulated on every core first), imported with
  full rule checking into a fresh file, in batches of 100 games per transaction; once in
  this process alone and once with ``--workers`` processes checking while this one
  writes (games/s, events/s); plus where the time goes (preparing = validation and rule
  checks, writing = SQLite);
* state at a step: the database is filled to ``--state-games`` games (the same simulated
  games imported again under other headers, so other ids; generating 100,000 distinct
  games would take several minutes more), then ``--samples`` random (game, step) pairs
  are folded from a fresh connection: median and p95 ms, with the parsed-payload cache
  warm (as in a running server) and cold;
* bytes per game on disk.

Filling 100,000 games takes a few minutes and about 3 GB in the temporary folder, which
is removed at the end (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.splendor_duel import events as ev  # noqa: E402
from engine.splendor_duel import simulate  # noqa: E402
from recorder import EventStore, GameImport  # noqa: E402
from recorder import store as store_module  # noqa: E402


def simulate_payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulate.random_game(random.Random(seed))]


def make_games(n: int, processes: int) -> list[list[dict]]:
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return pool.map(simulate_payloads, range(n), chunksize=50)


def records(games: list[list[dict]], round_: int) -> list[GameImport]:
    return [
        GameImport(
            headers={
                "players": ["Ann", "Bo"],
                "date": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
                "round": str(round_),
            },
            events=events,
        )
        for i, events in enumerate(games)
    ]


def fresh(path: Path) -> EventStore:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return EventStore.open(path)


def import_rate(path: Path, recs: list[GameImport], workers: int) -> dict:
    with fresh(path) as store:
        t0 = time.perf_counter()
        results = store.import_games(recs, workers=workers)
        elapsed = time.perf_counter() - t0
    failed = [r for r in results if not hasattr(r, "created")]
    if failed:
        raise SystemExit(f"import refused a simulated game: {failed[0]}")
    events = sum(len(r.events) for r in recs)
    return {
        "games_per_s": round(len(recs) / elapsed, 1),
        "events_per_s": round(events / elapsed),
        "seconds": round(elapsed, 2),
    }


def where_time_goes(path: Path, recs: list[GameImport]) -> dict:
    """Prepare (validate + check) and write separately, on a sample of games."""
    with fresh(path) as store:
        t0 = time.perf_counter()
        prepared = [store_module.prepare_game(r) for r in recs]
        t1 = time.perf_counter()
        store._write_batch(prepared)
        t2 = time.perf_counter()
    # The same writes into a scratch file without the append-only trigger, to show what
    # that guarantee costs (the store itself always has it).
    with fresh(path) as store:
        store.db.execute("DROP TRIGGER events_append_in_sequence")
        t3 = time.perf_counter()
        store._write_batch(prepared)
        t4 = time.perf_counter()
    n = len(recs)
    return {
        "prepare_ms_per_game": round((t1 - t0) / n * 1000, 3),
        "write_ms_per_game": round((t2 - t1) / n * 1000, 3),
        "write_ms_per_game_without_append_trigger": round((t4 - t3) / n * 1000, 3),
    }


def fill(path: Path, games: list[list[dict]], total: int, workers: int) -> int:
    with EventStore.open(path) as store:
        have = store.count_games()
        round_ = 1
        while have < total:
            chunk = records(games[: total - have], round_)
            store.import_games(chunk, workers=workers)
            have = store.count_games()
            round_ += 1
            print(f"  filled {have} games", file=sys.stderr)
        return have


def state_times(path: Path, samples: int, cold: bool, seed: int) -> dict:
    rng = random.Random(seed)
    times = []
    with EventStore.open(path) as store:
        ids = [r[0] for r in store.db.execute("SELECT game_id, event_count FROM game_summaries")]
        counts = dict(store.db.execute("SELECT game_id, event_count FROM game_summaries"))
        for _ in range(samples):
            gid = rng.choice(ids)
            step = rng.randint(0, counts[gid])
            if cold:
                store_module._PARSED.clear()
            t0 = time.perf_counter()
            store.state_at(gid, step)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--state-games", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="tablelog-bench-"))
    try:
        cores = os.cpu_count() or 1
        t0 = time.perf_counter()
        games = make_games(args.games, cores)
        simulated_s = time.perf_counter() - t0
        print(f"simulated {len(games)} games in {simulated_s:.1f}s", file=sys.stderr)
        recs = records(games, 0)

        single = import_rate(tmp / "single.db", recs, workers=0)
        print(f"import, one process: {single}", file=sys.stderr)
        parallel = import_rate(tmp / "store.db", recs, workers=args.workers)
        print(f"import, {args.workers} checking processes: {parallel}", file=sys.stderr)
        split = where_time_goes(tmp / "split.db", recs[: min(1000, len(recs))])
        print(f"where the time goes: {split}", file=sys.stderr)

        bytes_per_game = 0
        with EventStore.open(tmp / "single.db") as store:
            store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        bytes_per_game = round(os.path.getsize(tmp / "single.db") / len(recs))

        total = fill(tmp / "store.db", games, args.state_games, args.workers)
        warm = state_times(tmp / "store.db", args.samples, cold=False, seed=1)
        cold = state_times(tmp / "store.db", args.samples, cold=True, seed=2)
        print(f"state at a step, warm: {warm}, cold: {cold}", file=sys.stderr)
        events = sum(len(r.events) for r in recs)
        figures = {
            "bench": "store",
            "games_imported": len(recs),
            "events_imported": events,
            "import_games_per_s": single["games_per_s"],
            "import_events_per_s": single["events_per_s"],
            f"import_games_per_s_{args.workers}_workers": parallel["games_per_s"],
            f"import_events_per_s_{args.workers}_workers": parallel["events_per_s"],
            **split,
            "state_db_games": total,
            "state_at_median_ms": warm["median_ms"],
            "state_at_p95_ms": warm["p95_ms"],
            "state_at_cold_median_ms": cold["median_ms"],
            "state_at_cold_p95_ms": cold["p95_ms"],
            "bytes_per_game": bytes_per_game,
            "cores": cores,
        }
        print(json.dumps(figures))
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
