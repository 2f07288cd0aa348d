"""``tablelog validate``, ``tablelog check`` and ``tablelog moves``: settle disputes.

Each command is a few lines over the engine's notation module
(:mod:`engine.splendor_duel.notation`); games stored in the database are read through the
recorder (``EventStore.open(db).state_at(game, step)``).

Exit codes: 0 when every game is legal (``validate``), the move is legal (``check``) or
the moves were listed (``moves``); 1 when a game or the move is not; 2 when the input
cannot be read at all (a missing file, an unknown game, a malformed position or move).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from engine.errors import Violation
from engine.splendor_duel import notation
from engine.splendor_duel.catalogue import COLOR_NAMES
from engine.splendor_duel.position import PositionError
from engine.splendor_duel.state import OVER, SETUP, State

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def _db_option(command: Any) -> Any:
    return click.option(
        "--db",
        "db",
        envvar="TABLELOG_DB",
        type=click.Path(dir_okay=False),
        default=None,
        help="The SQLite database (default: $TABLELOG_DB or ./data/tablelog.db).",
    )(command)


def _json_option(command: Any) -> Any:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")(command)


class _Unreadable(Exception):
    """Input that cannot be read at all (exit code 2)."""


# --- validate --------------------------------------------------------------------------


@dataclass
class GameReport:
    """The outcome of validating one game of one file."""

    file: str
    index: int
    ok: bool
    events: int = 0
    headers: dict[str, Any] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    flagged: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
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


def _looks_like_json(path: Path, text: str) -> bool:
    if path.suffix.lower() == ".json":
        return True
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        return True
    return head.startswith("[") and head[1:].lstrip().startswith(("{", "]"))


def _summary(state: State, names: tuple[str, str], events: int) -> str:
    o = state.outcome
    if state.awaiting == SETUP:
        return "not set up"
    if o is not None:
        how = o.condition
        if o.color is not None:
            how += f" ({COLOR_NAMES[o.color]})"
        return f"{names[o.winner]} won by {how} on turn {state.turn}, {events} events"
    return f"unfinished, turn {state.turn} ({names[state.current]} to play), {events} events"


def validate_file(path: Path, *, all_errors: bool = False) -> list[GameReport]:
    """Validate every game of one file (notation or JSON); never raises for bad input."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [_unreadable_report(name, f"cannot read the file: {err}")]
    if _looks_like_json(path, text):
        return _validate_json(path)
    parsed = notation.parse_game(text, name, stop_at_first_error=not all_errors)
    report = GameReport(
        name,
        1,
        not parsed.errors,
        len(parsed.events),
        parsed.headers,
        [e.to_dict() for e in parsed.errors],
        [f.to_dict() for f in parsed.flagged],
        _summary(parsed.state, parsed.names, len(parsed.events)),
    )
    return [report]


def _unreadable_report(name: str, message: str) -> GameReport:
    return GameReport(
        name, 1, False, errors=[{"kind": "syntax", "source": name, "message": message}]
    )


def _validate_json(path: Path) -> list[GameReport]:
    name = str(path)
    try:
        from recorder import io as recorder_io
    except ImportError as err:  # the store is part of the install; say so plainly
        return [_unreadable_report(name, f"JSON game files need the recorder: {err}")]
    try:
        games = recorder_io.load_file(path)
    except Exception as err:  # noqa: BLE001 - the recorder's errors all name the place
        return [_unreadable_report(name, str(err))]
    reports = []
    for index, record in enumerate(games, start=1):
        names = _names(record.headers)
        state, problem, flagged = notation.validate_payloads(record.events, record.meta, names)
        errors = []
        if problem is not None:
            errors.append(
                {
                    "kind": "illegal" if problem.violations else "syntax",
                    "source": name,
                    **problem.to_dict(),
                }
            )
        reports.append(
            GameReport(
                name,
                index,
                problem is None,
                len(record.events) if problem is None else problem.event_number - 1,
                dict(record.headers),
                errors,
                [f.to_dict() for f in flagged],
                _summary(state, names, len(record.events)),
            )
        )
    return reports


def _names(headers: Any) -> tuple[str, str]:
    players = (headers or {}).get("players") if isinstance(headers, dict) else None
    if isinstance(players, (list, tuple)) and len(players) == 2:
        return (str(players[0]), str(players[1]))
    return ("Player 1", "Player 2")


def _violation_lines(violations: list[dict[str, Any]]) -> list[str]:
    return [f"  - {v['code']}: {v['message']} ({v['citation']})" for v in violations]


def _print_report(report: GameReport, strict: bool) -> None:
    label = report.file if report.index == 1 else f"{report.file} (game {report.index})"
    if report.ok:
        click.echo(f"{label}: ok, {report.summary}")
    for err in report.errors:
        if "line" in err and err.get("line"):
            where = f"{err['source']}:{err['line']}:{err['column']}"
            kind = {
                "syntax": "syntax error",
                "unknown": "unknown name",
                "illegal": "illegal move",
            }.get(err["kind"], err["kind"])
            click.echo(f"{where}: {kind}: {err['message']}")
        elif err.get("event_number"):
            field_note = f", field {err['field']}" if err.get("field") else ""
            click.echo(f"{label}: event {err['event_number']}{field_note}: {err['message']}")
        else:
            click.echo(f"{label}: {err['message']}")
        if err.get("turn") is not None:
            click.echo(f"  turn {err['turn']}, event {err.get('event_number')}")
        if err.get("position"):
            click.echo(f"  position: {err['position']}")
        for line in _violation_lines(err.get("violations") or []):
            click.echo(line)
    for flag in report.flagged:
        where = (
            f"{report.file}:{flag['line']}:{flag['column']}"
            if flag.get("line")
            else f"{label}: event {flag['event_number']}"
        )
        status = "error" if strict else "note"
        if flag["violations"]:
            click.echo(
                f"{where}: {status}: {flag['text']} was played illegally "
                f"(turn {flag['turn']}, event {flag['event_number']})"
            )
        else:
            click.echo(
                f"{where}: note: {flag['text']} is marked !illegal but is legal "
                f"(turn {flag['turn']}, event {flag['event_number']})"
            )
        click.echo(f"  position: {flag['position']}")
        for line in _violation_lines(flag["violations"]):
            click.echo(line)


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@_json_option
@click.option(
    "--all",
    "all_errors",
    is_flag=True,
    help="Report every problem, not only the first of each game.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Count moves marked !illegal (played though illegal) as failures.",
)
@_db_option
def validate_cmd(
    files: tuple[Path, ...], as_json: bool, all_errors: bool, strict: bool, db: str | None
) -> None:
    """Check game logs (notation or JSON) against the rules.

    Exits 0 when every game is legal; otherwise prints, for each bad game, the first
    problem with its place (file:line:column), the turn, the position string, the
    violations and the rulebook pages they cite, and exits 1.  Moves marked !illegal
    (they stood at the table) are reported as notes; --strict makes them failures.
    """
    reports: list[GameReport] = []
    for path in files:
        reports.extend(validate_file(path, all_errors=all_errors))
    failed = any(not r.ok or (strict and any(f["violations"] for f in r.flagged)) for r in reports)
    if as_json:
        click.echo(
            json.dumps(
                {"ok": not failed, "games": [r.to_dict() for r in reports]},
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        for report in reports:
            _print_report(report, strict)
    raise SystemExit(EXIT_ILLEGAL if failed else EXIT_OK)


# --- check and moves -------------------------------------------------------------------


def _is_position(target: str) -> bool:
    return "/" in target and " " in target.strip()


def _load_target(target: str, db: str | None) -> tuple[State, tuple[str, str], str]:
    """The state a GAME[:STEP] or POSITION argument names, the player names and a label."""
    if _is_position(target):
        try:
            return notation.parse_position(target), ("Player 1", "Player 2"), "the position"
        except PositionError as err:
            raise _Unreadable(f"position, {err}") from None
    game_id, sep, step_text = target.rpartition(":")
    if not sep:
        game_id, step_text = target, ""
    step: int | None = None
    if step_text:
        if not step_text.isdigit():
            raise _Unreadable(
                f"{target!r}: expected GAME, GAME:STEP (a step number) or a position string"
            )
        step = int(step_text)
    try:
        import recorder
    except ImportError as err:
        raise _Unreadable(f"reading stored games needs the recorder: {err}") from None
    path = Path(db) if db else Path(recorder.default_db_path())
    if not path.exists():
        raise _Unreadable(f"no database at {path} (set --db or TABLELOG_DB)")
    try:
        with recorder.EventStore.open(path) as store:
            row = store.game(game_id)
            state = store.state_at(game_id, step)
    except recorder.StoreError as err:
        raise _Unreadable(str(err)) from None
    names = _names(row.headers)
    label = f"game {game_id}" + (f" at step {step}" if step is not None else "")
    return state, names, label


def _where_text(state: State, names: tuple[str, str]) -> str:
    if state.awaiting == SETUP:
        return "before the setup"
    if state.awaiting == OVER:
        return f"game over on turn {state.turn}"
    return f"turn {state.turn}, {names[state.current]} ({state.awaiting})"


def _violation_dicts(violations: list[Violation]) -> list[dict[str, Any]]:
    return [v.to_dict() for v in violations]


@click.command("check")
@click.argument("target")
@click.argument("move", nargs=-1, required=True)
@_json_option
@_db_option
def check_cmd(target: str, move: tuple[str, ...], as_json: bool, db: str | None) -> None:
    """Is MOVE legal in TARGET (GAME, GAME:STEP or a quoted position string)?

    If not, says why, citing the rulebook (exit 1); if so, what it changes (exit 0);
    exit 2 when the move, the position or the game cannot be read.

    Example: tablelog check 3f2a:41 "buy 2-05 (B1 R2 Y1)"
    """
    text = " ".join(move)
    try:
        state, names, label = _load_target(target, db)
    except _Unreadable as err:
        click.echo(f"error: {err}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from None
    try:
        verdict = notation.check_move(state, text, names)
    except (KeyError, IndexError, ValueError, TypeError) as err:
        # A hand-written position the rules cannot work from; say so instead of a traceback.
        click.echo(f"error: cannot check {text!r} in {label}: {err!r}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from None
    shown = text
    if verdict.legal and verdict.event is not None:
        shown = notation.move_text_safe(state, verdict.event)
    if as_json:
        out = verdict.to_dict()
        out.update({"move": shown, "text": text, "where": _where_text(state, names)})
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    elif verdict.error is not None and verdict.error.kind == "illegal":
        click.echo(
            f"illegal: {text} ({label}, {_where_text(state, names)}): {verdict.error.message}"
        )
        for line in _violation_lines(_violation_dicts(verdict.violations)):
            click.echo(line)
    elif verdict.error is not None:
        err = verdict.error
        click.echo(f"cannot read the move {text!r}: column {err.column}: {err.message}", err=True)
        for line in _violation_lines(_violation_dicts(err.violations)):
            click.echo(line, err=True)
    elif verdict.legal:
        click.echo(f"legal: {shown} ({label}, {_where_text(state, names)})")
        for change in verdict.changes:
            click.echo(f"  {change}")
    else:
        click.echo(f"illegal: {shown} ({label}, {_where_text(state, names)})")
        for line in _violation_lines(_violation_dicts(verdict.violations)):
            click.echo(line)
    if verdict.error is not None and verdict.error.kind != "illegal":
        raise SystemExit(EXIT_UNREADABLE)
    raise SystemExit(EXIT_OK if verdict.legal else EXIT_ILLEGAL)


@click.command("moves")
@click.argument("target")
@_json_option
@_db_option
def moves_cmd(target: str, as_json: bool, db: str | None) -> None:
    """List every legal decision in TARGET (GAME, GAME:STEP or a quoted position string),
    one per line in notation."""
    try:
        state, names, _ = _load_target(target, db)
    except _Unreadable as err:
        click.echo(f"error: {err}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from None
    try:
        texts = notation.legal_move_texts(state, names)
    except (KeyError, IndexError, ValueError, TypeError) as err:
        click.echo(f"error: cannot list the moves of this position: {err!r}", err=True)
        raise SystemExit(EXIT_UNREADABLE) from None
    if as_json:
        click.echo(
            json.dumps(
                {"where": _where_text(state, names), "moves": texts}, indent=2, ensure_ascii=False
            )
        )
        return
    if not texts:
        click.echo(f"no decision is due ({_where_text(state, names)})", err=True)
    for t in texts:
        click.echo(t)


COMMANDS = [validate_cmd, check_cmd, moves_cmd]
