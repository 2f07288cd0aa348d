"""Validate game files (notation or JSON) against the rules, one report per game.

``tablelog validate`` prints these reports; the checks are the game's own (through
:class:`engine.protocol.GameRules`): a notation file is read by the game its ``[Game]``
header names, a JSON game file is folded as an import folds it, events marked
``played_illegally`` included.  Nothing is written anywhere.

>>> [report] = validate_file(Path("fixtures/games/points.tl"))
>>> report.ok, report.summary
(True, 'Bob won on Prestige points (20 or more), turn 53, 98 events')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.games import game_for_notation, get_game
from engine.protocol import GameRules, seat_names


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
        """The report as JSON-ready data (``tablelog validate --json``)."""
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


def summary(rules: GameRules, state: Any, events: int) -> str:
    """One line on where a validated game stands, in the game's own wording of the result
    (``Bob won on Prestige points (20 or more), turn 53, 98 events``)."""
    status = rules.status(state)
    if status.phase == "setup":
        return "not set up"
    if status.result is not None:
        return f"{status.result.text}, turn {status.turn}, {events} events"
    who = "" if status.to_move is None else f" ({state.names[status.to_move]} to play)"
    return f"unfinished, turn {status.turn}{who}, {events} events"


def looks_like_json(path: Path, text: str) -> bool:
    """Whether a game file is JSON (by its suffix, else by how it opens) rather than
    notation, whose headers open with ``[`` and a letter."""
    if path.suffix.lower() == ".json":
        return True
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        return True
    return head.startswith("[") and head[1:].lstrip().startswith(("{", "]"))


def validate_file(path: Path, *, all_errors: bool = False) -> list[GameReport]:
    """Validate every game of one file (notation or JSON); never raises for bad input:
    an unreadable file is a failed report that says why.  ``all_errors`` reads a notation
    file to its end for every syntax error and unknown name, not only the first."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [_unreadable_report(name, f"cannot read the file: {err}")]
    if looks_like_json(path, text):
        return validate_json_file(path)
    try:
        rules = game_for_notation(text)
    except EngineError as err:
        return [_unreadable_report(name, str(err))]
    parsed = rules.read_game(text, name, stop_at_first_error=not all_errors)
    report = GameReport(
        name,
        1,
        not parsed.errors,
        len(parsed.events),
        parsed.headers,
        [e.to_dict() for e in parsed.errors],
        [f.to_dict() for f in parsed.flagged],
        summary(rules, parsed.state, len(parsed.events)),
    )
    return [report]


def validate_json_file(path: Path) -> list[GameReport]:
    """Validate every game of a JSON game file, folding its payloads as an import does."""
    from . import io

    name = str(path)
    try:
        games = io.load_file(path)
    except Exception as err:  # noqa: BLE001 - the recorder's errors all name the place
        return [_unreadable_report(name, str(err))]
    reports = []
    for index, record in enumerate(games, start=1):
        try:
            rules = get_game(record.kind)
        except EngineError as err:
            reports.append(_unreadable_report(name, str(err), index))
            continue
        names = seat_names(record.headers, rules.seats)
        state, problem, flagged = rules.validate_payloads(record.events, record.meta, names)
        errors = []
        if problem is not None:
            kind = "illegal" if problem.violations else "syntax"
            errors.append({"kind": kind, "source": name, **problem.to_dict()})
        reports.append(
            GameReport(
                name,
                index,
                problem is None,
                len(record.events) if problem is None else problem.event_number - 1,
                dict(record.headers),
                errors,
                [f.to_dict() for f in flagged],
                summary(rules, state, len(record.events)),
            )
        )
    return reports


def _unreadable_report(name: str, message: str, index: int = 1) -> GameReport:
    return GameReport(
        name, index, False, errors=[{"kind": "syntax", "source": name, "message": message}]
    )
