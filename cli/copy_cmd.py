"""``tablelog copy SRC DST``: every game from one store to another, each verified."""

from __future__ import annotations

import click

from .options import CommandError, opened


@click.command("copy")
@click.argument("source", metavar="SRC")
@click.argument("target", metavar="DST")
@click.option("--quiet", "-q", is_flag=True, help="Report only problems and the totals.")
def copy_cmd(source: str, target: str, quiet: bool) -> None:
    """Copy every game from the store SRC to the store DST, then verify each copy.

    SRC and DST are each an SQLite file (PATH or sqlite:PATH) or a PostgreSQL database
    (postgresql://USER:PASSWORD@HOST:PORT/DB).  DST's schema is created or brought up to
    date first.  Each game keeps its id, events, comments, event ids and times, and is
    checked by the rules as it is written, whole or not at all; then it is read back and
    compared with SRC event by event and hash by hash up to its head.  A game already in
    DST with the same content is left as it is, so a copy can be run again.  The exit
    code is 1 if any game was not copied whole.

    \b
    Example, an SQLite file into a PostgreSQL database:
      $ tablelog copy data/tablelog.db postgresql://club@db.local/tablelog
    """
    from recorder.copy import Copied, copy_games
    from recorder.places import shown

    if shown(source) == shown(target):
        raise CommandError(f"{shown(source)}: the source and the destination are one store")

    def report(batch: list[Copied] | tuple[Copied, ...]) -> None:
        for c in batch:
            if c.problem is not None:
                click.echo(f"{shown(source)}: game {c.game_id}: {c.problem}", err=True)
            elif not quiet:
                what = "copied" if c.created else "already there, the same"
                click.echo(f"game {c.game_id}: {what} ({c.events} events, verified)")

    with opened(source, must_exist=True) as src, opened(target) as dst:
        results = copy_games(src, dst, progress=lambda batch: report(list(batch)))
    bad = [c for c in results if c.problem is not None]
    new = sum(1 for c in results if c.created and c.problem is None)
    events = sum(c.events for c in results if c.problem is None)
    click.echo(
        f"{len(results) - len(bad)} of {len(results)} games in {shown(target)}, verified"
        f" ({new} copied now, {events} events); {len(bad)} not copied"
    )
    if bad:
        raise SystemExit(1)


COMMANDS: list[click.Command] = [copy_cmd]
