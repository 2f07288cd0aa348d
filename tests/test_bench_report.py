"""bench/report.py holds the targets; each must name a figure its bench script prints."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _report() -> object:
    spec = importlib.util.spec_from_file_location("bench_report", BENCH / "report.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _literal_patterns(source: str) -> list[re.Pattern[str]]:
    """The script's string literals as patterns (an f-string's fields match anything)."""
    found = []
    for literal in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'", source):
        text = literal[0] or literal[1]
        if not re.search(r"[a-z0-9_]{3}", re.sub(r"\{[^}]*\}", "", text)):
            continue  # all fields: it says nothing of the key
        found.append(re.compile(re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(text))))
    return found


def test_every_target_is_a_figure_its_script_prints() -> None:
    report = _report()
    for target in report.TARGETS:  # type: ignore[attr-defined]
        args = report.RUNS[target.script][0]  # type: ignore[attr-defined]
        patterns = _literal_patterns((BENCH / args[0]).read_text(encoding="utf-8"))
        for part in target.key.split("."):
            assert any(p.fullmatch(part) for p in patterns), (target.label, part)


def test_the_table_says_which_targets_are_met() -> None:
    report = _report()
    lines = report.table(  # type: ignore[attr-defined]
        {"record": {"log_p95_ms": 0.7, "log_process_p95_ms": 151.0}}
    )
    rows = {line.split("  ")[0]: line for line in lines[2:]}
    assert rows["log a move in process, p95"].endswith("yes")
    assert rows["a whole `tablelog log`, p95"].endswith("NO")
    assert rows["`tablelog --help` start"].endswith("?")
    assert not any(line.startswith("fold with full checks") for line in lines)


def test_a_figure_without_a_bar_is_shown_and_not_judged() -> None:
    report = _report()
    lines = report.table({"cli": {"import_cli_events_per_s": 90_000}})  # type: ignore[attr-defined]
    rows = {line.split("  ")[0]: line for line in lines[2:]}
    row = rows["`tablelog import FOLDER`"]
    assert "90,000 events/s" in row and row.split()[-2:] == ["-", "-"]
    assert rows["`tablelog validate FOLDER`"].endswith("?")
