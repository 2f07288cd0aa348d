"""Benchmark the commands as people run them; ends by printing one JSON line of figures.

    python bench/cli.py                     # 300 game files, each command 3 times
    python bench/cli.py --files 100        # a quick run
    python bench/cli.py --jobs 1           # both commands with --jobs 1

A folder of ``--files`` Splendor Duel games in notation (``.tl``, one game a file, seeded
random games written by the game's own writer) is written to a temporary folder; then
each command runs ``--repeat`` times as a user starts it, a process of the installed
``tablelog`` (start-up, imports and the worker processes it starts included), timed
from spawn to exit:

* ``tablelog validate FOLDER``;
* ``tablelog import FOLDER --db FILE``, into a fresh SQLite file each time.

Beside them, what every run pays before its files: ``tablelog validate`` of the
folder's first file alone (the interpreter, the imports, one game), and the bare
interpreter (``python -c pass``), each the median of ``--repeat`` runs.

For each: the median rate over the runs in events/s (the folder's events over the wall
seconds) and games/s, and every run's seconds, with the machine's load average before
each run (other work on the machine slows every figure); and the CPU the command took (its
process and the ones it started, user and system), a game, which other work slows less.
``--jobs N`` passes ``--jobs N`` to both commands (else each uses its default).

Processes run with their bytecode cached (``PYTHONPYCACHEPREFIX`` in the temporary
folder), as an installed tablelog runs; one run of each command, untimed, fills it.

The targets: validate at least 150,000 events/s; import within 1.5x of
``bench/store.py``'s import from memory in one process (``import_events_per_s``), which
bench/report.py cannot hold one script's figure to, so it shows this one without a bar.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
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

KIND = "splendor-duel"


def write_folder(folder: Path, files: int, seed: int) -> int:
    """``files`` seeded random games in notation, one a file; the events they hold."""
    rules = get_game(KIND)
    folder.mkdir(parents=True, exist_ok=True)
    events = 0
    for i in range(files):
        game = rules.random_game(random.Random(seed + i))
        headers = {
            "players": ["Ann", "Bo"],
            "date": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
            "round": str(i),
        }
        text = rules.write_game(headers, game)
        (folder / f"game-{i:05d}.tl").write_text(text, encoding="utf-8")
        events += len(game)
    return events


def _env(tmp: Path) -> dict[str, str]:
    """The environment of a measured process: bytecode cached, in ``tmp``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(tmp / "pycache")}


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (and theirs), user and system."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """Wall seconds of one run of ``args``; appends to ``cpu`` the CPU seconds it took
    (its worker processes' too).  A run that fails stops the bench."""
    c0 = _children_cpu()
    t0 = time.perf_counter()
    ran = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(_children_cpu() - c0)
    if ran.returncode != 0:
        tail = (ran.stderr or ran.stdout).strip().splitlines()[-3:]
        raise SystemExit(f"{' '.join(args[1:3])} exited {ran.returncode}: {' | '.join(tail)}")
    return elapsed


def figures_of(name: str, runs: list[float], cpu: list[float], games: int, events: int) -> dict:
    median = statistics.median(runs)
    cpu_ms = statistics.median(cpu) / games * 1000
    print(
        f"{name}: {events / median:,.0f} events/s, {games / median:,.1f} games/s "
        f"(median of {len(runs)}: {', '.join(f'{s:.2f}' for s in runs)} s); "
        f"CPU {cpu_ms:.2f} ms a game"
    )
    return {
        f"{name}_cli_events_per_s": round(events / median),
        f"{name}_cli_games_per_s": round(games / median, 1),
        f"{name}_cli_seconds_runs": [round(s, 3) for s in runs],
        f"{name}_cli_cpu_ms_per_game": round(cpu_ms, 3),
        f"{name}_cli_cpu_seconds_runs": [round(s, 3) for s in cpu],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=300, help="game files in the folder")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command")
    parser.add_argument("--seed", type=int, default=20_000, help="the first game's seed")
    parser.add_argument("--jobs", type=int, help="--jobs N for both commands")
    args = parser.parse_args()
    exe = shutil.which("tablelog", path=str(Path(sys.executable).parent))
    if exe is None:
        raise SystemExit(f"no tablelog next to {sys.executable}: run with the project's venv")
    tmp = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    try:
        folder = tmp / "games"
        t0 = time.perf_counter()
        events = write_folder(folder, args.files, args.seed)
        print(
            f"wrote {args.files} games, {events:,} events, in {time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
        )
        env = _env(tmp)
        jobs = [] if args.jobs is None else ["--jobs", str(args.jobs)]
        validate = [exe, "validate", str(folder), *jobs]

        def import_into(db: Path) -> list[str]:
            for suffix in ("", "-wal", "-shm"):
                Path(str(db) + suffix).unlink(missing_ok=True)
            return [exe, "import", str(folder), "--db", str(db), *jobs]

        timed(validate, env)  # fills the bytecode cache
        timed(import_into(tmp / "warm.db"), env)
        runs: dict[str, list[float]] = {"validate": [], "import": []}
        cpu: dict[str, list[float]] = {"validate": [], "import": []}
        one_file = [exe, "validate", str(folder / "game-00000.tl")]
        fixed: dict[str, list[float]] = {"one_file": [], "interpreter": []}
        loads: list[float] = []
        for i in range(args.repeat):
            loads.append(round(os.getloadavg()[0], 2))
            fixed["one_file"].append(timed(one_file, env))
            fixed["interpreter"].append(timed([sys.executable, "-c", "pass"], env))
            runs["validate"].append(timed(validate, env, cpu["validate"]))
            db = tmp / f"import-{i}.db"
            runs["import"].append(timed(import_into(db), env, cpu["import"]))
            print(
                f"round {i + 1} (load {loads[-1]}): "
                + ", ".join(f"{k} {events / v[-1]:,.0f} events/s" for k, v in runs.items()),
                file=sys.stderr,
            )
        one, bare = (statistics.median(fixed[k]) for k in ("one_file", "interpreter"))
        print(
            f"before the files: validate of one file {one:.3f} s "
            f"(of which the bare interpreter {bare:.3f} s)"
        )
        figures = {
            "bench": "cli",
            "files": args.files,
            "events": events,
            "jobs": args.jobs,
            **figures_of("validate", runs["validate"], cpu["validate"], args.files, events),
            **figures_of("import", runs["import"], cpu["import"], args.files, events),
            "validate_cli_one_file_seconds": round(one, 3),
            "interpreter_seconds": round(bare, 3),
            "cores": os.cpu_count() or 1,
            "load_average_before_runs": loads,
            "load_average_1min": round(os.getloadavg()[0], 2),
        }
        print(json.dumps(figures))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
