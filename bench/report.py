"""Every benchmark, then one table: figure, median, target, and whether it is met.

    python bench/report.py [--quick] [--only engine,notation,...] [--json FILE]

Each bench script runs in its own process (as ``python bench/NAME.py``), prints its own
figures as it goes and ends with one JSON line; this script reads that line, so the
scripts stay the one place where a figure is measured (each is already a median of its
repeats) and this one only holds the targets the issues set (a figure whose bar is not
one number, such as a rate relative to another script's, is shown with none: ``-``).
``--quick`` runs each script at a smaller size (the figures are rougher, the targets the
same).  Exits 0 whatever the figures: a benchmark reports, it does not fail a build.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Target:
    """A figure of a bench script's JSON line, and the bar it is held to (None: a figure
    shown for what it is, no bar set)."""

    label: str
    script: str
    key: str  # dotted path in the script's JSON line
    target: float | None
    higher_is_better: bool
    unit: str

    def value(self, figures: dict[str, Any]) -> float | None:
        found: Any = figures
        for part in self.key.split("."):
            if not isinstance(found, dict) or part not in found:
                return None
            found = found[part]
        return float(found) if isinstance(found, int | float) else None

    def met(self, value: float) -> bool | None:
        if self.target is None:
            return None
        return value >= self.target if self.higher_is_better else value <= self.target

    @property
    def bar(self) -> str:
        if self.target is None:
            return "-"
        return f"{'≥' if self.higher_is_better else '≤'} {self.target:,g} {self.unit}"


def _at_least(label: str, script: str, key: str, target: float, unit: str) -> Target:
    return Target(label, script, key, target, True, unit)


def _at_most(label: str, script: str, key: str, target: float, unit: str) -> Target:
    return Target(label, script, key, target, False, unit)


def _shown(label: str, script: str, key: str, unit: str) -> Target:
    """A figure reported without a bar (higher is better)."""
    return Target(label, script, key, None, True, unit)


#: The bars, from the issues that set them (speed, logging at the table, following live,
#: classic Splendor's floors).
TARGETS: list[Target] = [
    _at_least("fold with full checks", "engine", "fold_checked_games_per_s", 4000, "games/s"),
    _at_least(
        "legal_moves, main-action states", "engine", "legal_moves_calls_per_s", 100_000, "calls/s"
    ),
    _at_least("random playouts", "engine", "playouts_games_per_s", 800, "games/s"),
    _at_least(
        "classic: 2-player playouts", "engine-splendor", "playouts_2p_games_per_s", 600, "games/s"
    ),
    _at_least(
        "classic: fold with full checks",
        "engine-splendor",
        "fold_checked_games_per_s",
        3000,
        "games/s",
    ),
    _at_least(
        "classic: legal_moves", "engine-splendor", "legal_moves_calls_per_s", 100_000, "calls/s"
    ),
    _at_least(
        "notation parse + validate", "notation", "parse_validate_games_per_s", 2000, "games/s"
    ),
    _at_least("import with full validation", "store", "import_games_per_s", 2000, "games/s"),
    # the commands as people run them (a process, start-up included, a folder of 300 games)
    _at_least(
        "`tablelog validate FOLDER`", "cli", "validate_cli_events_per_s", 150_000, "events/s"
    ),
    # its bar is relative (within 1.5x of store's import_events_per_s): shown, not held
    _shown("`tablelog import FOLDER`", "cli", "import_cli_events_per_s", "events/s"),
    _at_most("state at a random step, p95", "store", "state_at_p95_ms", 0.3, "ms"),
    _at_most("a stored event on SQLite, after VACUUM", "store", "bytes_per_event", 110, "bytes"),
    _at_most("log a move in process, p95", "record", "log_p95_ms", 5, "ms"),
    _at_most("a whole `tablelog log`, p95", "record", "log_process_p95_ms", 150, "ms"),
    _at_most("`tablelog --help` start", "record", "help_process_median_ms", 120, "ms"),
    _at_most("replay page p95, 16 clients", "web", "page.p95_ms", 20, "ms"),
    _at_most("state API p95, 16 clients", "web", "api.p95_ms", 8, "ms"),
    _at_least("state API throughput", "web", "api.per_second", 2000, "requests/s"),
    _at_most("live: delivery to 200 followers, p95", "live", "delivery.p95_ms", 1000, "ms"),
    _at_most("live: replay page p95 meanwhile", "live", "page.p95_ms", 50, "ms"),
    # issue 29: a 60-step animation, drawn cold by the server and from its cache
    _at_most("share: 60-step GIF drawn cold", "share", "cold_s", 15, "s"),
    _at_most("share: the GIF's size", "share", "gif_mb", 3, "MB"),
    _at_most("share: the GIF from the cache", "share", "cached_ms", 50, "ms"),
    _shown("share: the same drawn in process", "share", "draw_in_process_s", "s"),
    # issue 27: the search at 200 playouts a decision, the 95% interval's lower bound
    _at_least("ai: Duel, search vs random", "ai", "splendor-duel.vs_random_win_rate_low", 0.9, ""),
    _at_least("ai: Duel, search vs policy", "ai", "splendor-duel.vs_policy_win_rate_low", 0.6, ""),
    _at_least("ai: classic, search vs random", "ai", "splendor.vs_random_win_rate_low", 0.9, ""),
    _at_least("ai: classic, search vs policy", "ai", "splendor.vs_policy_win_rate_low", 0.6, ""),
    # issue 12: hostile input and a long run
    _at_most("hostile files: worst peak memory", "hostile", "worst_peak_rss_mb", 200, "MB"),
    _at_most("soak: acknowledged writes missing", "soak", "race.acknowledged_missing", 0, ""),
    _at_most("soak: events doubled", "soak", "race.doubled_or_out_of_order", 0, ""),
    _at_most("soak: verify findings after kills", "soak", "race.verify_findings", 0, ""),
    _at_most("soak: 5xx answers to fuzzed requests", "soak", "fuzz.5xx", 0, ""),
    _at_most(
        "soak: answers without security headers", "soak", "fuzz.missing_security_headers", 0, ""
    ),
    # over the run's second half; two workers' rendered-step caches (32 MB each) may
    # still be filling
    _at_most(
        "soak: server RSS growth, second half",
        "soak",
        "fuzz.memory_mb.growth_second_half",
        64,
        "MB",
    ),
]

#: How each script is run: its file and arguments, full size and quick.
RUNS: dict[str, tuple[list[str], list[str]]] = {
    "engine": (["engine.py"], ["engine.py", "--repeats", "3", "--games", "100"]),
    "engine-splendor": (
        ["engine.py", "--game", "splendor"],
        ["engine.py", "--game", "splendor", "--repeats", "3", "--games", "100"],
    ),
    "notation": (["notation.py"], ["notation.py"]),
    "store": (
        ["store.py"],
        ["store.py", "--games", "2000", "--state-games", "5000", "--samples", "300"],
    ),
    "record": (["record.py"], ["record.py"]),
    "cli": (["cli.py"], ["cli.py", "--files", "100"]),
    "web": (["web.py"], ["web.py", "--games", "2000"]),
    "live": (["live.py"], ["live.py", "--followers", "50"]),
    "hostile": (["hostile.py"], ["hostile.py", "--sizes", "10000,100000,1000000"]),
    "share": (["share.py"], ["share.py", "--repeats", "1", "--cached", "20"]),
    "soak": (["soak.py"], ["soak.py", "--writer-seconds", "15", "--fuzz-seconds", "40"]),
    "ai": (["ai.py"], ["ai.py", "--games", "20", "--seeds", "1"]),
}


def run_script(name: str, quick: bool, echo: Callable[[str], None]) -> dict[str, Any] | None:
    """Run one bench script, its output passed through; the figures of its last JSON line
    (None when it printed none)."""
    args = RUNS[name][1 if quick else 0]
    echo(f"\n=== bench/{' '.join(args)}")
    proc = subprocess.Popen(
        [sys.executable, str(HERE / args[0]), *args[1:]],
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE.parent,
    )
    last: dict[str, Any] | None = None
    assert proc.stdout is not None
    for line in proc.stdout:
        echo(line.rstrip("\n"))
        if line.startswith("{"):
            try:
                last = json.loads(line)
            except json.JSONDecodeError:
                continue
    if proc.wait() != 0:
        echo(f"bench/{args[0]} exited with {proc.returncode}")
    return last


def table(results: dict[str, dict[str, Any] | None]) -> list[str]:
    """The report's lines: one row per target of the scripts that ran."""
    rows = [("figure", "median", "target", "met")]
    for t in TARGETS:
        if t.script not in results:
            continue
        figures = results[t.script]
        value = None if figures is None else t.value(figures)
        if value is None:
            rows.append((t.label, "not measured", t.bar, "?"))
        else:
            shown = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}"
            met = t.met(value)
            verdict = "-" if met is None else "yes" if met else "NO"
            rows.append((t.label, f"{shown} {t.unit}", t.bar, verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    out = []
    for n, r in enumerate(rows):
        out.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs, rougher figures")
    parser.add_argument("--only", default="", help=f"scripts, by comma: {', '.join(RUNS)}")
    parser.add_argument("--json", type=Path, help="also write every script's figures here")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(RUNS)
    unknown = sorted(set(names) - set(RUNS))
    if unknown:
        parser.error(f"unknown bench: {', '.join(unknown)} (known: {', '.join(RUNS)})")
    started = time.monotonic()
    results = {name: run_script(name, args.quick, print) for name in names}
    print(f"\nAll figures, {time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.2f}:")
    for line in table(results):
        print(line)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
