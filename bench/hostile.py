"""Hostile files against the reader: time and peak memory (issue 12).

    python bench/hostile.py [--sizes 10000,100000,1000000,5000000]

Each case runs ``tablelog validate``'s reading (:func:`recorder.validate.validate_file`,
the one check ``import`` shares) in a fresh process, which reports its time and its peak
RSS (``ru_maxrss``): a comment spanning N lines, closed and never closed (past 100,000
lines the file is refused unread; the ``reader_`` cases give the same text to the game's
reader alone, which must be linear: the time per line stays flat as N grows, up to
5,000,000 lines, 10 MB; before, 49 KB took 7 s and 184 KB 80 s), a 10 MB line (refused;
before, it took 1.25-1.7 GB), a 10 MB JSON file on one line (1,250 games, imported into a
new database), a turn number of 5,000 digits and JSON nested 100,000 deep.  Target: every
case a file reaches (all but ``reader_``) under 200 MB.  Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # the packages, not bench/engine.py

SETUP = (ROOT / "docs" / "examples" / "evening.tl").read_text(encoding="utf-8")
MEMORY_TARGET_MB = 200


def write_case(name: str, size: int, path: Path) -> None:
    """The hostile file of case ``name`` (``size`` lines where it has lines)."""
    name = name.removeprefix("reader_")
    if name == "comment":
        path.write_text(SETUP + "\n1. Ann: take c3 {" + "x\n" * size + "}\n", encoding="utf-8")
    elif name == "unclosed":
        path.write_text(SETUP + "\n1. Ann: take c3 {" + "x\n" * size, encoding="utf-8")
    elif name == "line_10mb":
        path.write_text(SETUP + "\n1. Ann: take c3 {" + "x" * 10_000_000 + "}\n", encoding="utf-8")
    elif name == "turn_digits":
        path.write_text(SETUP + "\n" + "9" * 5000 + ". Ann: take c3\n", encoding="utf-8")
    elif name == "deep_json":
        path.with_suffix(".json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif name == "json_10mb":
        from engine.games import get_game

        rules = get_game("splendor-duel")
        games, text = [], ""
        seed = 0
        while len(text) < 10_000_000:
            events = [rules.event_to_dict(e) for e in rules.random_game(random.Random(seed))]
            games.append(
                {
                    "format": "tablelog-game",
                    "version": 1,
                    "kind": "splendor-duel",
                    "headers": {"players": ["Ann", "Bo"]},
                    "events": events,
                }
            )
            seed += 1
            if seed % 50 == 0:
                text = json.dumps(games, separators=(",", ":"))
        text = json.dumps(games, separators=(",", ":"))
        path.with_suffix(".json").write_text(text, encoding="utf-8")


def run_case(name: str, size: int, path: Path) -> dict[str, object]:
    """In this (fresh) process: read the case's file as validate and import do."""
    from recorder import EventStore
    from recorder.io import import_files
    from recorder.validate import validate_file

    with tempfile.TemporaryDirectory() as tmp:
        file_bytes = path.stat().st_size
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        if name.startswith("reader_"):  # the game's reader alone, past the file limits
            from engine.games import get_game

            parsed = get_game("splendor-duel").read_game(path.read_text(encoding="utf-8"))
            outcome = "ok" if not parsed.errors else str(parsed.errors[0].message)[:90]
        elif name == "json_10mb":
            with EventStore.open(Path(tmp) / "x.db") as store:
                results = list(import_files(store, [path]))
            outcome = f"{sum(1 for r in results if not isinstance(r[2], Exception))} games imported"
        else:
            reports = validate_file(path)
            errors = [e["message"] for r in reports for e in r.errors]
            outcome = "ok" if not errors else str(errors[0])[:90]
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "case": name,
        "lines": size or None,
        "file_mb": round(file_bytes / 1e6, 2),
        "seconds": round(seconds, 3),
        "peak_rss_mb": round(peak / 1024, 1),
        "rss_before_mb": round(before / 1024, 1),
        "outcome": outcome,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--case":
        print(json.dumps(run_case(sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000,5000000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = [("comment", n) for n in sizes] + [("unclosed", n) for n in sizes]
    cases += [("reader_comment", n) for n in sizes] + [("reader_unclosed", n) for n in sizes]
    cases += [("line_10mb", 0), ("turn_digits", 0), ("deep_json", 0), ("json_10mb", 0)]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, size in cases:
            path = Path(tmp) / f"{name}-{size}.tl"
            write_case(name, size, path)  # here, so the reading process holds only the file
            if not path.exists():
                path = path.with_suffix(".json")
            out = subprocess.run(
                [sys.executable, __file__, "--case", name, str(size), str(path)],
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=True,
            )
            results.append(json.loads(out.stdout))
            path.unlink()
    for r in results:
        per = ""
        if r["lines"]:
            per = f"  {r['seconds'] / r['lines'] * 1e6:.2f} µs/line"
        print(
            f"{r['case']:<16} {str(r['lines'] or ''):>7} lines {r['file_mb']:>6} MB"
            f"  {r['seconds']:>7} s  peak {r['peak_rss_mb']:>6} MB{per}  {r['outcome']}",
            file=sys.stderr,
        )
    # the target is for what a file can reach (the reader_ cases pass the file limits by)
    worst = max(r["peak_rss_mb"] for r in results if not str(r["case"]).startswith("reader_"))  # type: ignore[type-var]
    print(
        json.dumps(
            {
                "bench": "hostile",
                "cases": results,
                "worst_peak_rss_mb": worst,
                "memory_target_mb": MEMORY_TARGET_MB,
                "memory_target_met": worst < MEMORY_TARGET_MB,  # type: ignore[operator]
            }
        )
    )


if __name__ == "__main__":
    main()
