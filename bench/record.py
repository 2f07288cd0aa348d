"""Benchmark logging at the table; ends by printing one JSON line of figures.

    python bench/record.py                  # 200 in-process samples, 40 processes
    python bench/record.py --samples 50 --processes 10     # a quick run

* in-process: ``--samples`` games of 149 steps (seeded random games, each stored under
  its own id), then :func:`recorder.logbook.log` of the 150th step's decision, as a turn
  line reads, into each: median and p95 ms, with the store that logged the first 149
  steps (its memory of the head warm, as in ``tablelog record``) and with a store opened
  afresh for each (the stored snapshot at the head);
* ``store.append`` of the same payload alone, for comparison (no reading of text);
* a whole process: ``tablelog log GAME TEXT`` run ``--processes`` times, each into
  another game (a log changes the game, so each run needs its own), wall time from
  spawn to exit, startup included: median and p95 ms;
* the CLI's import time: ``python -X importtime`` of ``cli.main`` (the command group,
  which imports a command's module when the command is run) and of that with what
  ``tablelog log`` loads, in ms (the median of five processes each).

Processes run with their bytecode cached (``PYTHONPYCACHEPREFIX`` in the temporary
folder), as an installed tablelog runs, whatever ``PYTHONDONTWRITEBYTECODE`` says.

The targets (issue 10): p95 <= 5 ms in-process and <= 150 ms for a whole process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games import get_game  # noqa: E402
from recorder import EventStore  # noqa: E402
from recorder.logbook import log  # noqa: E402

#: The step a sample logs (the setup is step 1).
STEP = 150


def _games(rules, count: int) -> list[list]:
    """``count`` seeded random games with more than :data:`STEP` events."""
    out, seed = [], 0
    while len(out) < count:
        events = rules.random_game(random.Random(seed))
        seed += 1
        if len(events) > STEP:
            out.append(events)
    return out


def _fill(store, rules, games) -> list[tuple[str, str, dict]]:
    """Store each game up to step 149; per game its id, the 150th decision's text and
    its payload."""
    out = []
    for events in games:
        gid = store.create_game({"players": ["Ann", "Bo"]}).id
        store.append(gid, 0, [rules.event_to_dict(e) for e in events[: STEP - 1]])
        state = store.state_at(gid)
        text = rules.move_text(state, events[STEP - 1])
        out.append((gid, text, rules.event_to_dict(events[STEP - 1])))
    return out


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median_ms": round(statistics.median(ordered), 3), "p95_ms": round(p95, 3)}


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a measured process: bytecode cached (in ``tmp``, not in the
    tree), as an installed tablelog runs; without it each process compiles every module
    it imports, which measured about 130 ms."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(tmp / "pycache"), **extra}


def _import_ms(code: str, env: dict[str, str], runs: int = 5) -> float:
    """Cumulative import time of the modules ``code`` imports, in ms (``-X importtime``),
    the median of ``runs`` processes (one alone moves with whatever else the machine does)."""
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)  # cache
    totals = []
    for _ in range(runs):
        ran = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        total = 0
        for line in ran.stderr.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
            if match and len(match.group(3)) == 1:  # top-level imports only
                total += int(match.group(2))
        totals.append(total / 1000)
    return round(statistics.median(totals), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--processes", type=int, default=40)
    args = parser.parse_args()
    rules = get_game("splendor-duel")
    tmp = Path(tempfile.mkdtemp(prefix="bench-record-"))
    try:
        db = tmp / "record.db"
        games = _games(rules, max(args.samples, args.processes))
        with EventStore.open(db) as store:
            warm_games = _fill(store, rules, games[: args.samples])
            warm = []
            for gid, text, _ in warm_games:
                t0 = time.perf_counter()
                log(store, gid, text)
                warm.append((time.perf_counter() - t0) * 1000)
            append_games = _fill(store, rules, games[: args.samples])
            appends = []
            for gid, _, payload in append_games:
                t0 = time.perf_counter()
                store.append(gid, STEP - 1, [payload])
                appends.append((time.perf_counter() - t0) * 1000)
            fresh_games = _fill(store, rules, games[: args.samples])
            process_games = _fill(store, rules, games[: args.processes])
        fresh = []
        for gid, text, _ in fresh_games:
            with EventStore.open(db) as other:
                t0 = time.perf_counter()
                log(other, gid, text)
                fresh.append((time.perf_counter() - t0) * 1000)
        exe = shutil.which("tablelog", path=str(Path(sys.executable).parent)) or "tablelog"
        env = _env(tmp, TABLELOG_DB=str(db))
        subprocess.run([exe, "--help"], env=env, check=True, capture_output=True)
        subprocess.run([exe, "cards", "1-01"], env=env, check=True, capture_output=True)
        processes = []
        for gid, text, _ in process_games:
            t0 = time.perf_counter()
            subprocess.run([exe, "log", gid, text], env=env, check=True, capture_output=True)
            processes.append((time.perf_counter() - t0) * 1000)
        startup = []
        for _ in range(10):
            t0 = time.perf_counter()
            subprocess.run([exe, "--help"], env=env, check=True, capture_output=True)
            startup.append((time.perf_counter() - t0) * 1000)
        figures = {
            "log_in_process_warm": _ms(warm),
            "log_in_process_fresh_store": _ms(fresh),
            "append_alone": _ms(appends),
            "log_process": _ms(processes),
            "help_process": _ms(startup),
            "import_ms_cli_main": _import_ms("import cli.main", env),
            "import_ms_cli_main_and_log": _import_ms(
                "import cli.main, cli.log_cmds, recorder.logbook, engine.splendor_duel.notation",
                env,
            ),
        }
        print(f"log the {STEP}th step, in process (store warm): {figures['log_in_process_warm']}")
        print(
            f"log the {STEP}th step, a store opened afresh: {figures['log_in_process_fresh_store']}"
        )
        print(f"store.append of the same payload alone: {figures['append_alone']}")
        print(f"a whole `tablelog log` process: {figures['log_process']}")
        print(f"`tablelog --help`: {figures['help_process']}")
        print(
            f"import time: cli.main {figures['import_ms_cli_main']} ms, with what `log` loads "
            f"{figures['import_ms_cli_main_and_log']} ms"
        )
        print(
            json.dumps(
                {
                    "log_p95_ms": figures["log_in_process_warm"]["p95_ms"],
                    "log_median_ms": figures["log_in_process_warm"]["median_ms"],
                    "log_fresh_store_p95_ms": figures["log_in_process_fresh_store"]["p95_ms"],
                    "log_fresh_store_median_ms": figures["log_in_process_fresh_store"]["median_ms"],
                    "append_p95_ms": figures["append_alone"]["p95_ms"],
                    "append_median_ms": figures["append_alone"]["median_ms"],
                    "log_process_p95_ms": figures["log_process"]["p95_ms"],
                    "log_process_median_ms": figures["log_process"]["median_ms"],
                    "help_process_median_ms": figures["help_process"]["median_ms"],
                    "import_ms_cli_main": figures["import_ms_cli_main"],
                    "import_ms_cli_main_and_log": figures["import_ms_cli_main_and_log"],
                    "samples": args.samples,
                    "processes": args.processes,
                    "load_average_1min": round(os.getloadavg()[0], 2),
                }
            )
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
