"""Two revisions' figures in one interleaved run: what a change did to the speed.

    python bench/compare.py BEFORE AFTER [--only engine,notation,store,record,web,cli]
        [--rounds 3] [--quick]

Each revision (anything ``git rev-parse`` reads: a commit, a branch, ``HEAD``) is checked
out in a worktree of its own under a temporary folder; then, round after round, each
bench script of ``--only`` runs once for each revision, the order swapped every round
(before, after; after, before; ...), so that whatever else the machine does weighs on
both alike.  A script runs as ``bench/report.py`` runs it (its full size, or its quick
size with ``--quick``), the revision's code first on the path (``PYTHONPATH``), with
the interpreter of a virtual environment made for the revision: the packages installed
here, and the commands (``tablelog``) as the revision's ``pyproject.toml`` declares them,
so that a script that runs the installed program runs the revision's own entry point.

For each figure of a script's JSON line (every number, by its dotted key): its median
over the rounds for each revision and their ratio (after / before).  Ends with one JSON
line: ``{script: {key: [before, after]}}``, the medians.  Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from report import RUNS  # noqa: E402

DEFAULT = "engine,engine-splendor,notation,store,record,web,cli"


def numbers(figures: Any, prefix: str = "") -> dict[str, float]:
    """Every number of a JSON value by its dotted key (booleans and lists left out)."""
    out: dict[str, float] = {}
    if isinstance(figures, dict):
        for key, value in figures.items():
            out.update(numbers(value, f"{prefix}{key}."))
    elif isinstance(figures, int | float) and not isinstance(figures, bool):
        out[prefix.rstrip(".")] = float(figures)
    return out


def run(tree: Path, name: str, quick: bool) -> dict[str, float]:
    """One run of the bench script ``name`` of the revision checked out in ``tree`` (with
    the interpreter :func:`environment` made for it): the numbers of its last JSON line
    (none when it printed none)."""
    args = RUNS[name][1 if quick else 0]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [str(python_of(tree)), str(tree / "bench" / args[0]), *args[1:]],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    last: dict[str, float] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            try:
                last = numbers(json.loads(line))
            except json.JSONDecodeError:
                continue
    if proc.returncode != 0:
        print(f"  {tree.name}: bench/{args[0]} exited with {proc.returncode}", file=sys.stderr)
        print(proc.stderr[-2000:], file=sys.stderr)
    return last


def checkout(rev: str, where: Path) -> Path:
    """A detached worktree of ``rev`` at ``where``, its modules compiled."""
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(where), rev],
        cwd=HERE.parent,
        check=True,
    )
    # compiled once here, so that no timed run compiles them
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "engine", "recorder", "web", "cli", "bench"],
        cwd=where,
        check=False,
    )
    return where


def python_of(tree: Path) -> Path:
    """The interpreter of the environment :func:`environment` made for ``tree``."""
    return tree.parent / f"{tree.name}-venv" / "bin" / "python"


def environment(tree: Path) -> None:
    """A virtual environment for the runs of ``tree`` (beside it): this interpreter's
    installed packages (its site folder added, with the paths its ``.pth`` files name),
    and a script in its ``bin`` for each command of ``tree``'s ``pyproject.toml``
    (``[project.scripts]``), as an install of that revision would write it; the scripts
    find the revision's modules on ``PYTHONPATH``, which :func:`run` sets."""
    venv = python_of(tree).parents[1]
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    here = sysconfig.get_paths()["purelib"]
    site = Path(sysconfig.get_path("purelib", scheme="venv", vars={"base": str(venv)}))
    (site / "tablelog-compare.pth").write_text(f"import site; site.addsitedir({here!r})\n")
    scripts = tomllib.loads((tree / "pyproject.toml").read_text())["project"]["scripts"]
    for command, target in scripts.items():
        module, attr = target.split(":")
        path = venv / "bin" / command
        path.write_text(
            f"#!{python_of(tree)}\nimport sys\nfrom {module} import {attr}\n\nsys.exit({attr}())\n"
        )
        path.chmod(0o755)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--only", default=DEFAULT, help=f"scripts (default {DEFAULT})")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="each script at its quick size")
    args = parser.parse_args()
    names = args.only.split(",")
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        parser.error(f"no bench script {', '.join(unknown)} (known: {', '.join(RUNS)})")
    medians: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="tablelog-compare-") as tmp:
        trees = [
            checkout(args.before, Path(tmp) / "before"),
            checkout(args.after, Path(tmp) / "after"),
        ]
        for tree in trees:
            environment(tree)
        try:
            for name in names:
                runs: list[list[dict[str, float]]] = [[], []]
                for r in range(args.rounds):
                    order = (0, 1) if r % 2 == 0 else (1, 0)
                    for i in order:
                        load = os.getloadavg()[0]
                        runs[i].append(run(trees[i], name, args.quick))
                        print(
                            f"  {name}, round {r + 1}, {trees[i].name} (load {load:.1f})",
                            file=sys.stderr,
                            flush=True,
                        )
                keys = sorted(set().union(*runs[0], *runs[1]))
                medians[name] = {}
                print(f"\n=== bench/{RUNS[name][0][0]} ({args.rounds} rounds each)")
                print(f"{'figure':<58} {'before':>12} {'after':>12} {'ratio':>7}")
                for key in keys:
                    pair = [
                        statistics.median([f[key] for f in side if key in f] or [float("nan")])
                        for side in runs
                    ]
                    medians[name][key] = pair
                    ratio = pair[1] / pair[0] if pair[0] else float("nan")
                    print(f"{key:<58} {pair[0]:>12.4g} {pair[1]:>12.4g} {ratio:>7.3f}")
        finally:
            for tree in trees:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(tree)],
                    cwd=HERE.parent,
                    check=False,
                )
    print(json.dumps(medians))


if __name__ == "__main__":
    main()
