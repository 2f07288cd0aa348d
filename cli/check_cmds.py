"""``tablelog validate``, ``tablelog check`` and ``tablelog moves``: settle disputes.

Each command is a few lines over a library call: :func:`recorder.validate.validate_file`
for files, the game's :class:`engine.protocol.GameRules` (``check_move``,
``legal_move_texts``) for one decision; stored games are read through the recorder.

Exit codes: 0 when every game is legal (``validate``), the move is legal (``check``) or
the moves were listed (``moves``); 1 when a game or the move is not; 2 when the input
cannot be read at all (a missing file, an unknown game, a malformed position or move).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from engine.notation.results import KIND_WORDS

from .lines import completion_lines, verdict_lines, violation_lines
from .options import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    LazyHelpOption,
    Unreadable,
    db_option,
    echo_json,
    json_option,
)

if TYPE_CHECKING:
    from recorder.validate import GameReport

#: What a hand-made position the rules cannot work from raises instead of a verdict.
_POSITION_FAULTS = (KeyError, IndexError, ValueError, TypeError)


def _jobs_help() -> str:
    from recorder.io import PARALLEL_FROM, SPAWNED_FROM

    return (
        "Processes reading and checking the files [default: 0, which chooses 1, or with "
        f"{PARALLEL_FROM} files or more ({SPAWNED_FROM} where they cannot be forked from "
        "this one) on 2 cores or more, one per core]."
    )


def _print_report(report: GameReport, strict: bool) -> None:
    label = report.label
    if report.ok:
        click.echo(f"{label}: ok, {report.summary}")
    for err in report.errors:
        if err.get("line"):
            where = f"{err['source']}:{err['line']}:{err['column']}"
            kind = KIND_WORDS.get(err["kind"], err["kind"])
            click.echo(f"{where}: {kind}: {err['message']}")
        elif err.get("event_number"):
            field_note = f", field {err['field']}" if err.get("field") else ""
            click.echo(f"{label}: event {err['event_number']}{field_note}: {err['message']}")
        elif str(err["message"]).startswith(f"{report.file}:"):
            click.echo(err["message"])  # the reader's message names the file already
        else:
            click.echo(f"{label}: {err['message']}")
        if err.get("turn") is not None:
            click.echo(f"  turn {err['turn']}, event {err.get('event_number')}")
        if err.get("position"):
            click.echo(f"  position: {err['position']}")
        for line in violation_lines(err.get("violations") or []):
            click.echo(line)
    for flag in report.flagged:
        where = (
            f"{report.file}:{flag['line']}:{flag['column']}"
            if flag.get("line")
            else f"{label}: event {flag['event_number']}"
        )
        when = f"(turn {flag['turn']}, event {flag['event_number']})"
        if flag["violations"]:
            status = "error" if strict else "note"
            click.echo(f"{where}: {status}: {flag['text']} was played illegally {when}")
        else:
            click.echo(f"{where}: note: {flag['text']} is marked !illegal but is legal {when}")
        click.echo(f"  position: {flag['position']}")
        for line in violation_lines(flag["violations"]):
            click.echo(line)


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@json_option
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
@click.option(
    "--jobs", "-j", type=click.IntRange(0, 64), default=0, cls=LazyHelpOption, lazy_help=_jobs_help
)
@db_option
def validate_cmd(
    files: tuple[Path, ...],
    as_json: bool,
    all_errors: bool,
    strict: bool,
    jobs: int,
    db_path: str | None,
) -> None:
    """Check game logs (notation or JSON) against the rules.

    Exits 0 when every game is legal; otherwise prints, for each bad game, the first
    problem with its place (file:line:column), the turn, the position string, the
    violations and the rulebook pages they cite, and exits 1.  Moves marked !illegal
    (they stood at the table) are reported as notes; --strict makes them failures.

    A folder stands for the game files in it and its subfolders (*.tl, *.json).  Many
    files are checked in processes, one per core (--jobs); the reports come in the
    order of the files all the same.

    \b
    Examples:
      tablelog validate fixtures/games/*.tl
      tablelog validate fixtures/games     # every game file in the folder
      tablelog validate --strict fixtures/games/dispute.tl    # exit 1
    """
    from recorder.io import default_jobs, game_files
    from recorder.validate import validate_files

    paths = game_files(files)
    jobs = jobs or default_jobs(len(paths), writing=False)
    reports = validate_files(paths, all_errors=all_errors, jobs=jobs)
    failed = False
    if as_json:
        games = []
        for report in reports:
            failed = failed or report.failed(strict)
            games.append(report.to_dict())
        echo_json({"ok": not failed, "games": games})
    else:
        for report in reports:  # each printed as soon as it and those before it are done
            failed = failed or report.failed(strict)
            _print_report(report, strict)
    raise SystemExit(EXIT_ILLEGAL if failed else EXIT_OK)


@click.command("check")
@click.argument("target")
@click.argument("move", nargs=-1, required=True)
@json_option
@db_option
def check_cmd(target: str, move: tuple[str, ...], as_json: bool, db_path: str | None) -> None:
    """Is MOVE legal in TARGET (GAME, GAME:STEP or a quoted position string)?

    If not, says why, citing the rulebook (exit 1); if so, what it changes (exit 0);
    exit 2 when the move, the position or the game cannot be read.

    \b
    Examples:
      tablelog check 6138631be858:40 take c4 b5
      tablelog check 6138631be858:40 "take c2 c3 c4"    # exit 1
    """
    from .targets import load_target

    text = " ".join(move)
    at = load_target(target, db_path)
    try:
        verdict = at.rules.check_move(at.state, text)
        where = at.where()
    except _POSITION_FAULTS as fault:
        raise Unreadable(f"cannot check {text!r} in {at.label}: {fault!r}") from None
    err = verdict.error
    if as_json:
        shown = verdict.text or text
        echo_json({**verdict.to_dict(), "move": shown, "text": text, "where": where})
    else:
        from recorder.logbook import completions

        unreadable = err is not None and err.kind != "illegal"
        meant = [] if verdict.legal else completion_lines(completions(at.rules, at.state, text))
        for line in [*verdict_lines(verdict, text, f"{at.label}, {where}"), *meant]:
            click.echo(line, err=unreadable)
    if err is not None and err.kind != "illegal":
        raise SystemExit(EXIT_UNREADABLE)
    raise SystemExit(EXIT_OK if verdict.legal else EXIT_ILLEGAL)


@click.command("moves")
@click.argument("target")
@json_option
@db_option
def moves_cmd(target: str, as_json: bool, db_path: str | None) -> None:
    """List every legal decision in TARGET (GAME, GAME:STEP or a quoted position string),
    one per line in notation.

    \b
    Example:
      tablelog moves 6138631be858:40
    """
    from .targets import load_target

    at = load_target(target, db_path)
    try:
        texts = at.rules.legal_move_texts(at.state)
        where = at.where()
    except _POSITION_FAULTS as fault:
        raise Unreadable(f"cannot list the moves of this position: {fault!r}") from None
    if as_json:
        echo_json({"where": where, "moves": texts})
        return
    if not texts:
        click.echo(f"no decision is due ({where})", err=True)
    for t in texts:
        click.echo(t)


COMMANDS: list[click.Command] = [validate_cmd, check_cmd, moves_cmd]
