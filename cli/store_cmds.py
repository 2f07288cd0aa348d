"""Commands over the event store: init, import, export, games, rebuild-projections.

Each is a few lines over :mod:`recorder`; the database is ``--db PATH``, else
``$TABLELOG_DB``, else ``./data/tablelog.db``.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from .options import KindInHelp, LazyChoice, LazyHelpOption, db_option, opened

#: Show a progress bar when importing at least this many files, stderr a terminal.
PROGRESS_FROM = 10


def _jobs_help() -> str:
    from recorder.io import PARALLEL_FROM

    return (
        "Processes reading and checking games while this one writes; with 1 this "
        "process checks while a thread writes [default: 0, which chooses 1, or with "
        f"{PARALLEL_FROM} files or more on 2 cores or more, one per core (one per core "
        "but one, on 3 cores or more, where they cannot be forked from this one)]."
    )


def _stderr_is_terminal() -> bool:
    """Whether a progress bar on stderr would be seen (not a log file or a pipe)."""
    return sys.stderr.isatty()


def _result_filters() -> tuple[str, ...]:
    from recorder.listing import RESULT_STATUSES, result_conditions

    return RESULT_STATUSES + result_conditions()


def _kinds() -> tuple[str, ...]:
    from engine.games import GAMES

    return tuple(GAMES)


def _orders() -> tuple[str, ...]:
    from recorder.listing import ORDERS

    return tuple(ORDERS)


@click.command("init")
@db_option
def init_cmd(db_path: str | None) -> None:
    """Create the database (or bring its schema up to date)."""
    with opened(db_path) as store:
        click.echo(f"{store}: tablelog database, schema version {store.schema_version}")


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Report only errors and the totals.")
@click.option(
    "--jobs", "-j", type=click.IntRange(0, 64), default=0, cls=LazyHelpOption, lazy_help=_jobs_help
)
@db_option
def import_cmd(files: tuple[Path, ...], quiet: bool, jobs: int, db_path: str | None) -> None:
    """Import game files (JSON game files; text notation files).

    Every event is checked by the rules engine.  A bad game is reported as
    FILE: event N: field: message (page, rule) and nothing of it is written; the other
    games still import.  The exit code is 1 if any file failed.  A folder stands for the
    game files in it and its subfolders (*.tl, *.json).

    \b
    Examples:
      tablelog import fixtures/games/*.tl
      tablelog import fixtures/games     # every game file in the folder
    """
    from recorder import ImportRejected
    from recorder.io import default_jobs, game_files, import_files

    paths = game_files(files)

    failed = imported = already = 0
    # A bar on a terminal; elsewhere (a log, a pipe) one line per file is the progress.
    bar_shown = len(paths) >= PROGRESS_FROM and _stderr_is_terminal()
    with (
        opened(db_path) as store,
        click.progressbar(
            length=len(paths), label="Importing", file=sys.stderr, hidden=not bar_shown
        ) as bar,
    ):
        last_source = None
        results = import_files(store, paths, jobs=jobs or default_jobs(len(paths)))
        for source, _, result in results:
            if source != last_source:
                if last_source is not None:
                    bar.update(1)
                last_source = source
            if isinstance(result, ImportRejected):
                failed += 1
                click.echo(str(result), err=True)
            elif result.created:
                imported += 1
                if not quiet and not bar_shown:
                    flagged = f", {len(result.flagged)} played illegally" if result.flagged else ""
                    counts = f"{result.events} events{flagged}"
                    click.echo(f"{source}: imported game {result.game_id} ({counts})")
            elif result.appended:
                imported += 1
                if not quiet and not bar_shown:
                    click.echo(
                        f"{source}: appended {result.appended} events to game {result.game_id}"
                    )
            else:
                already += 1
                if not quiet and not bar_shown:
                    click.echo(f"{source}: game {result.game_id} is already stored")
        if last_source is not None:
            bar.update(1)
    if bar_shown or quiet or failed:
        click.echo(
            f"{imported} imported, {already} already stored, {failed} failed", err=bool(failed)
        )
    if failed:
        sys.exit(1)


@click.command("export")
@click.argument("game")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["notation", "json"]),
    default=None,
    help="notation (the default), or canonical JSON [default: json for an --output "
    "file named *.json, else notation].",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file."
)
@click.option(
    "--main-line",
    is_flag=True,
    help="The record alone, as played: without the review (saved lines, marks and notes "
    "added after the game).",
)
@db_option
def export_cmd(
    game: str, fmt: str | None, output: Path | None, main_line: bool, db_path: str | None
) -> None:
    """Export a game in notation, as the table wrote it with its review (the lines saved
    after the game, marks and notes; --main-line leaves it out), or as canonical JSON
    (the record); either imports again to the same game (re-importing it changes nothing).

    \b
    Examples:
      tablelog export 6138631be858
      tablelog export 6138631be858 -o evening.json
    """
    from recorder.io import export_json, export_notation

    if fmt is None:
        fmt = "json" if output is not None and output.suffix.lower() == ".json" else "notation"

    with opened(db_path) as store:
        text = (
            export_json(store, game)
            if fmt == "json"
            else export_notation(store, game, main_line=main_line)
        )
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_bytes(text.encode("utf-8"))


#: ``tablelog games`` counts the games up to this many (and says "more than" past it).
COUNT_AT_MOST = 10_000


@click.command("games", cls=KindInHelp)
@click.option("--player", help="Only games with this player (any seat, any case, accents or not).")
@click.option(
    "--result",
    type=LazyChoice(_result_filters),
    help="Only games in this state or won this way.",
)
@click.option("--kind", type=LazyChoice(_kinds), help="Only games of this game.")
@click.option(
    "--from",
    "date_from",
    type=click.DateTime(["%Y-%m-%d"]),
    help="Only games dated on or after this day (YYYY-MM-DD).",
)
@click.option(
    "--to",
    "date_to",
    type=click.DateTime(["%Y-%m-%d"]),
    help="Only games dated on or before this day (YYYY-MM-DD).",
)
@click.option(
    "--order",
    type=LazyChoice(_orders),
    default="newest",
    show_default=True,
    help="newest or oldest first (by the games' dates), last logged first, or longest first.",
)
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True)
@click.option(
    "--after",
    metavar="PLACE",
    help="The page after this place (the place the last line names, for the same --order).",
)
@click.option(
    "--offset",
    type=click.IntRange(0),
    default=0,
    help="Games to skip first (each one read: --after costs the same anywhere).",
)
@click.option(
    "--all",
    "with_void",
    is_flag=True,
    help="Void games too (left out otherwise), marked void.",
)
@db_option
def games_cmd(
    player: str | None,
    result: str | None,
    kind: str | None,
    date_from: datetime | None,
    date_to: datetime | None,
    order: str,
    limit: int,
    after: str | None,
    offset: int,
    with_void: bool,
    db_path: str | None,
) -> None:
    """List games, newest first (or in another --order), a page at a time: the last
    line counts them (up to 10,000) and names the place of the next page, for --after.
    Void games (started by mistake, ``tablelog void``) only with --all.

    \b
    Example:
      tablelog games --player Chloé --result finished
      tablelog games --order longest --limit 5
      tablelog games --kind {kind}
    """
    from engine.games import get_game
    from engine.protocol import seat_names

    with opened(db_path) as store:
        filters: dict[str, Any] = {
            "player": player,
            "result": result,
            "kind": kind,
            "date_from": None if date_from is None else date_from.date().isoformat(),
            "date_to": None if date_to is None else date_to.date().isoformat(),
        }
        page = store.listing.page(
            **filters, order=order, limit=limit, after=after, offset=offset, with_void=with_void
        )
        rows = page.games
        total = store.listing.count(**filters, at_most=COUNT_AT_MOST, with_void=with_void)
    table = [("id", "game", "date", "players", "status", "result", "turns", "events")]
    for g in rows:
        rules = get_game(g.kind)
        names = seat_names(g.headers, rules.seats)
        if g.void is not None:
            outcome = f"void: {g.void}"
        elif g.status == "finished" and g.winner is not None and g.condition:
            outcome = rules.result_short(g.winner, g.condition, names)
        elif g.status == "finished":
            outcome = "finished"
        elif g.status == "playing":
            outcome = f"{names[g.to_move]} to move" if g.to_move is not None else ""
        else:
            outcome = ""
        table.append(
            (
                g.id,
                rules.title,
                str(g.headers.get("date") or ""),
                " vs ".join(names),
                "void" if g.void is not None else g.status,
                outcome,
                str(g.turns),
                str(g.event_count),
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    counted = f"{total}" if total <= COUNT_AT_MOST else f"more than {COUNT_AT_MOST:,}"
    # (after a place, where the page stands in the list is not counted)
    shown = (
        f"{offset + 1}-{offset + len(rows)} of " if rows and not after and len(rows) < total else ""
    )
    more = f"; next: --after {page.next}{' --all' if with_void else ''}" if page.next else ""
    click.echo(f"{shown}{counted} game{'s' if total != 1 else ''}{more}")


@click.command("rebuild-projections")
@db_option
def rebuild_cmd(db_path: str | None) -> None:
    """Recompute the game summaries and player index from the events."""
    with opened(db_path) as store:
        n = store.rebuild_projections()
    click.echo(f"rebuilt the projections of {n} game{'s' if n != 1 else ''}")


COMMANDS: list[click.Command] = [init_cmd, import_cmd, export_cmd, games_cmd, rebuild_cmd]
