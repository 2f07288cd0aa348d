"""Validation of a game file: every game in it judged by its game's rules, with a report
per game (the first problem with its place, violations and rule citations, the events
played although illegal, where the game stands).

A file is read once, by :func:`recorder.io.read_file`, as an import reads it: notation by
its game's reader, JSON by the schemas and the game's payload parser.  So a file that
validates imports, and one that does not is refused by an import for the same reason.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = os.path.join(tmp, "empty.json")
...     _ = open(path, "w").write("[]")
...     [report] = validate_file(path)
>>> report.ok, report.errors[0]["message"].endswith("the file holds an empty list of games")
(False, True)
>>> [report] = validate_file("fixtures/games/points.tl")
>>> report.ok, report.summary
(True, 'Bob won on Prestige points (20 or more), turn 53, 98 events')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.games import get_game
from engine.protocol import GameRules, seat_names

from .errors import ImportRejected
from .io import TASK_FILES, FileRead, _games_of, read_file
from .pipeline import MOST_TASKS, fork_is_safe, forked_tasks, prepared_chunks
from .prepare import check_import
from .records import GameImport


@dataclass
class GameReport:
    """The outcome of validating one game of one file.

    ``errors`` and ``flagged`` are plain dicts: each error has a ``kind`` (``syntax``,
    ``unknown``, ``illegal``), a ``source``, a ``message`` and, where known, ``line`` and
    ``column`` (notation) or ``event_number`` and ``field`` (JSON), ``turn``, ``position``
    and ``violations``; each flagged event (played though illegal) has its ``text``,
    ``turn``, ``event_number``, ``position`` and ``violations``."""

    file: str
    index: int
    ok: bool
    events: int = 0
    headers: dict[str, Any] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    flagged: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""

    @property
    def label(self) -> str:
        """The file, and which game of it when it holds several."""
        return self.file if self.index == 1 else f"{self.file} (game {self.index})"

    def failed(self, strict: bool = False) -> bool:
        """Whether this game fails: an error, or (``strict``) a move played illegally."""
        return not self.ok or (strict and any(f["violations"] for f in self.flagged))

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data (``--json``)."""
        return {
            "file": self.file,
            "game": self.index,
            "ok": self.ok,
            "events": self.events,
            "players": self.headers.get("players"),
            "summary": self.summary,
            "errors": self.errors,
            "flagged": self.flagged,
        }


def summary_text(rules: GameRules, state: Any, events: int) -> str:
    """Where a validated game stands, in the game's own words: who won and how (the one
    wording of the victory), or what is due now."""
    status = rules.status(state)
    if status.phase == "setup":
        return "not set up"
    if status.result is not None:
        return f"{status.result.text}, turn {status.turn}, {events} events"
    return f"unfinished, turn {status.turn}: {status.due}, {events} events"


def validate_file(path: str | os.PathLike[str], *, all_errors: bool = False) -> list[GameReport]:
    """Validate every game of one file (notation or JSON); never raises for bad input.
    ``all_errors`` reports every problem of a notation game, not just the first."""
    name = str(path)
    try:
        read = read_file(path, stop_at_first_error=not all_errors)
    except ImportRejected as err:
        return [_unreadable_report(name, str(err))]
    if read.notation is not None:
        report = _notation_report(name, read)
        if report.ok:
            _import_check(report, _games_of(read)[0], read.notation.state)
        return [report]
    reports = []
    for index, record in enumerate(read.games or [], 1):
        report, state = _json_report(name, index, record)
        if report.ok:
            _import_check(report, record, state)
        reports.append(report)
    return reports


def validate_files(
    paths: Sequence[str | os.PathLike[str]], *, all_errors: bool = False, jobs: int = 1
) -> Iterator[GameReport]:
    """:func:`validate_file` of each path, the reports in the order of the paths (and of
    the games in a file): here, or with ``jobs`` > 1 in that many processes taking
    :data:`~recorder.io.TASK_FILES` files at a time: this one and forked copies of it
    where :func:`~recorder.pipeline.fork_is_safe` (:func:`~recorder.pipeline.
    forked_tasks`), else spawned ones (the import's, :func:`~recorder.pipeline.
    prepared_chunks`).  Never raises for bad input.

    >>> [r.label for r in validate_files(["fixtures/games/points.tl", "missing.tl"])]
    ['fixtures/games/points.tl', 'missing.tl']
    """
    names = [str(p) for p in paths]
    if jobs > 1 and len(names) > 1 and fork_is_safe():
        size = max(TASK_FILES, -(-len(names) // MOST_TASKS))
        shares = [(names[i : i + size], all_errors) for i in range(0, len(names), size)]
        for reports in forked_tasks(shares, _validate_task, jobs):
            yield from reports
        return
    if jobs > 1 and len(names) > 1:
        size = TASK_FILES
    else:
        jobs, size = 0, 1
    tasks = ((names[i : i + size], all_errors) for i in range(0, len(names), size))
    for reports in prepared_chunks(tasks, _validate_task, jobs, 4 * jobs):
        yield from reports


def _validate_task(task: tuple[Sequence[str], bool]) -> list[GameReport]:
    """A validating process's task for :func:`validate_files`: some files' reports."""
    names, all_errors = task
    return [report for name in names for report in validate_file(name, all_errors=all_errors)]


def _import_check(report: GameReport, record: GameImport, state: Any) -> None:
    """The import's own check of a game the reader passed and folded (``state``, the
    table after its events; :func:`recorder.prepare.check_import`: the headers against
    the outcome, who made each event, the meta, the ids), so a file that validates
    imports; its refusal becomes the report's error."""
    try:
        check_import(record, state)
    except ImportRejected as err:
        report.ok = False
        message = err.message
        if err.field and err.event_number is None:
            message = f"{err.field}: {message}"
        report.errors.append(
            {
                "kind": "illegal" if err.violations else "syntax",
                "source": report.file,
                "message": message,
                "event_number": err.event_number,
                "field": err.field,
                "violations": [v.to_dict() for v in err.violations],
            }
        )


def _notation_report(name: str, read: FileRead) -> GameReport:
    parsed, rules = read.notation, read.rules
    assert parsed is not None and rules is not None
    return GameReport(
        name,
        1,
        not parsed.errors,
        len(parsed.events),
        parsed.headers,
        [e.to_dict() for e in parsed.errors],
        [f.to_dict() for f in parsed.flagged],
        summary_text(rules, parsed.state, len(parsed.events)),
    )


def _json_report(name: str, index: int, record: GameImport) -> tuple[GameReport, Any]:
    """The report of one game of a JSON file, and the table after its events."""
    rules = get_game(record.kind)
    names = seat_names(record.headers, rules.seats)
    events = record.engine_events()  # (parsed by the reading: not parsed again)
    state, problem, flagged = rules.validate_payloads(
        record.events if events is None else events, record.meta, names
    )
    errors = []
    if problem is not None:
        errors.append(
            {
                "kind": "illegal" if problem.violations else "syntax",
                "source": name,
                **problem.to_dict(),
            }
        )
    report = GameReport(
        name,
        index,
        problem is None,
        len(record.events) if problem is None else problem.event_number - 1,
        dict(record.headers),
        errors,
        [f.to_dict() for f in flagged],
        summary_text(rules, state, len(record.events)),
    )
    return report, state


def _unreadable_report(name: str, message: str) -> GameReport:
    return GameReport(
        name, 1, False, errors=[{"kind": "syntax", "source": name, "message": message}]
    )
