"""Logging a game at the table: ``tablelog new``, ``log`` and ``undo``.

Each command is a few lines over :mod:`recorder.logbook`.  Exit codes: 0 written; 1 a move
the rules refuse (the verdict is printed with the rule and page), an unknown game, or a
correction that cannot stand; 2 text that does not read as a move; 3 ``--expect N`` and
the game has another number of steps.  A refusal writes nothing.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from .lines import completion_lines, violation_lines, written_lines
from .options import EXIT_ILLEGAL, db_option, echo_json, json_option, opened

if TYPE_CHECKING:
    from recorder.logbook import Logged, MoveRefused


def _print_logged(logged: Logged, as_json: bool) -> None:
    """What was written, step by step, then what the game waits for."""
    if as_json:
        echo_json(logged.to_dict())  # the API's answer (docs/api.md), without the step's url
        return
    for line in written_lines(logged):
        click.echo(line)
    click.echo(_standing(logged.status))


def _standing(status: Any) -> str:
    """The last line of a write: how the game ended, or what is due."""
    return status.result.text if status.result is not None else f"next: {status.due}"


def _refused(err: MoveRefused) -> None:
    click.echo(f"illegal: {err.text}", err=True)
    for line in [*violation_lines(err.violations), *completion_lines(err.completions)]:
        click.echo(line, err=True)
    if err.playable:
        click.echo(
            "nothing written; if it was played so at the table, log it with --as-played",
            err=True,
        )
    else:
        click.echo("nothing written; it cannot be recorded even as played", err=True)
    sys.exit(EXIT_ILLEGAL)


@click.command("new")
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@json_option
@db_option
def new_cmd(file: str | None, as_json: bool, db_path: str | None) -> None:
    """Start a new game and print its id: its headers and its setup in notation, read
    from FILE (``-``: standard input) as an exported game writes them; turns written
    after the setup are logged too, so a game begun on paper goes on from where it
    stands.  Without FILE, asks for them: the game, the players in seat order, who
    starts, the date, event, round and place, then the setup as the players lay it out
    (``<`` at any question goes back to the one before).  Always a new game, with a
    fresh random id, even when another has the same headers and setup.

    \b
    Examples:
      tablelog new docs/examples/evening.tl
      tablelog new --json - < docs/examples/evening.tl
    """
    from recorder.io import bounded_read, decode, file_bytes
    from recorder.logbook import new_game

    with opened(db_path) as store:
        if file is None:
            from .setup_prompts import ask_setup

            text, source = ask_setup(), "<answers>"
        elif file == "-":
            text, source = decode(bounded_read(sys.stdin.buffer, "<stdin>"), "<stdin>"), "<stdin>"
        else:
            text, source = decode(file_bytes(file), file), file
        game_id = new_game(store, text, source=source)
    if as_json:
        echo_json({"id": game_id})
    else:
        # the id alone on standard output (for $(tablelog new ...)); what comes next beside
        click.echo(f"new game {game_id}: log it with `tablelog record {game_id}`", err=True)
        click.echo(game_id)


@click.command("log")
@click.argument("game")
@click.argument("text", nargs=-1, required=True)
@click.option(
    "--expect",
    type=click.IntRange(1),
    help="Refuse (exit 3, nothing written) unless the game has exactly N steps.",
)
@click.option(
    "--as-played",
    is_flag=True,
    help="Record an illegal move as it was played at the table, flagged (as !illegal).",
)
@json_option
@db_option
def log_cmd(
    game: str,
    text: tuple[str, ...],
    expect: int | None,
    as_played: bool,
    as_json: bool,
    db_path: str | None,
) -> None:
    """Append what was played next in GAME: TEXT is one turn or one decision in notation,
    with or without its number and player, comments allowed, as a turn line of an
    exported game reads (``undo`` takes the last decision back).  A step is a stored
    event, the setup included.  An illegal move is refused with the rule and page
    (exit 1) unless --as-played or its own !illegal mark records it as played.

    \b
    Examples:
      tablelog log $(tablelog new docs/examples/evening.tl) "1. Ann: take d1 d2 d3 {first move}"
      tablelog log 6138631be858 "take c4 b5" --expect 3    # exit 3
    """
    from recorder.logbook import MoveRefused, log

    with opened(db_path) as store:
        try:
            logged = log(store, game, " ".join(text), expect=expect, as_played=as_played)
        except MoveRefused as err:
            _refused(err)
    _print_logged(logged, as_json)


@click.command("undo")
@click.argument("game")
@click.option("--to", "to", type=click.IntRange(1), help="Take back every step after this one.")
@click.option(
    "--expect",
    type=click.IntRange(1),
    help="Refuse (exit 3, nothing written) unless the game has exactly N steps.",
)
@json_option
@db_option
def undo_cmd(
    game: str, to: int | None, expect: int | None, as_json: bool, db_path: str | None
) -> None:
    """Take back what was entered last in GAME: the last decision with what the table
    saw, logged with it (a purchase and the card revealed with it go together), or a
    card revealed on its own after the decision was stored, alone; with --to every step
    after STEP.
    Nothing is deleted: the correction is a step of its own, and the replay shows the
    retracted moves struck through.

    \b
    Examples:
      tablelog undo 6138631be858 --to 40
      tablelog undo 6138631be858 --expect 3     # exit 3
    """
    from recorder.logbook import undo

    with opened(db_path) as store:
        logged = undo(store, game, to=to, expect=expect)
    _print_logged(logged, as_json)


@click.command("void")
@click.argument("game")
@click.option("--reason", required=True, help="Why: one line (it is written as a header).")
@json_option
@db_option
def void_cmd(game: str, reason: str, as_json: bool, db_path: str | None) -> None:
    """Void GAME, started by mistake: it is kept as recorded (nothing is deleted),
    replays, exports with a [Void "reason"] header and verifies, but it leaves the games
    lists (`tablelog games --all` shows it, marked void) and nothing more is logged to it.

    \b
    Example:
      tablelog void 6138631be858 --reason "started by mistake"
    """
    with opened(db_path) as store:
        row = store.void_game(game, reason)
    if as_json:
        echo_json({"id": row.id, "void": row.void})
    else:
        click.echo(f"game {row.id} is void: {row.void}")


@click.command("key")
@click.argument("game")
@click.option(
    "--site",
    default="http://127.0.0.1:5000",
    show_default=True,
    help="The site's address, for the logging page's link.",
)
@click.option(
    "--revoke",
    is_flag=True,
    help="Remove the game's key without making a new one: nobody logs it until "
    "`tablelog key GAME` makes one.",
)
@click.option(
    "--review",
    is_flag=True,
    help="A review key instead: it adds saved lines, marks and notes to the game's review "
    "(the API's review route), never logs a move; the recorder key stays as it is.",
)
@json_option
@db_option
def key_cmd(
    game: str, site: str, revoke: bool, review: bool, as_json: bool, db_path: str | None
) -> None:
    """Give GAME a new recorder key and print it with the link to the site's logging
    page: whoever holds the key may log the game from a phone (or the JSON API, as
    ``Authorization: Bearer <key>``).  Any earlier key stops working, and so does every
    phone unlocked with it (it asks for the new link).  The store keeps only the key's
    hash, so this is the one time it is shown.  With --revoke, the game keeps no key.

    \b
    Examples:
      tablelog key 6138631be858
      tablelog key 6138631be858 --site http://192.168.1.20:5000 --json
      tablelog key 6138631be858 --revoke
      tablelog key 6138631be858 --review
    """
    from recorder import GameNotFound

    if review:
        if revoke:
            raise click.UsageError(
                "--review makes a new review key; --revoke is for the recorder key"
            )
        with opened(db_path) as store:
            try:
                key = store.keys.issue(game, review=True)
            except GameNotFound as err:
                raise click.ClickException(str(err)) from None
        if as_json:
            echo_json({"id": game, "review_key": key})
        else:
            click.echo(key)
        return
    with opened(db_path) as store:
        try:
            if revoke:
                had = store.keys.revoke(game)
            else:
                key = store.keys.issue(game)
        except GameNotFound as err:
            raise click.ClickException(str(err)) from None
    if revoke:
        if as_json:
            echo_json({"id": game, "revoked": had})
        else:
            click.echo(
                f"game {game}: its recorder key was revoked; no key or phone logs it "
                f"until `tablelog key {game}` makes a new one"
                if had
                else f"game {game}: it had no recorder key; no key or phone logs it"
            )
        return
    link = f"{site.rstrip('/')}/games/{game}/record#key={key}"
    if as_json:
        echo_json({"id": game, "key": key, "record_url": link})
    else:
        click.echo(key)
        click.echo(link)


COMMANDS: list[click.Command] = [new_cmd, log_cmd, undo_cmd, void_cmd, key_cmd]
