"""Reviewing a game after it was played: ``tablelog line``, ``mark``, ``withdraw`` and
``explore``.  Like ``tablelog log`` they need no key (the store is local); what they write
goes to the game's review (:mod:`recorder.review`), apart from the record, whose chain and
head do not change.

A step is ``GAME:STEP`` (the record's step STEP: after STEP events, as ``tablelog check``
reads it) or ``GAME:STEP/LINE.K`` (the K-th decision of saved line LINE, which goes off
the record after STEP), as the API and ``tablelog export`` number them.  Exit codes: 0
done; 1 refused (an illegal move, with its rule and page; a step that does not exist; a
mark that is none), nothing written; 2 an address that does not read; 3 ``--expect N``
and the review has another length.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from .lines import violation_lines
from .options import EXIT_ILLEGAL, EXIT_STALE, Unreadable, db_option, echo_json, json_option, opened

#: The marks a reviewer may give a step (the engine's: engine.review.MARKS).
MARK_CHOICES = ("!", "?", "!!", "??", "!?", "?!")


def _default_author() -> str:
    try:
        import getpass  # (its terminal module: only when no author is named)

        return os.environ.get("TABLELOG_AUTHOR") or getpass.getuser()
    except (KeyError, OSError):
        return "someone"


by_option = click.option(
    "--by",
    "author",
    default=_default_author,
    show_default="$TABLELOG_AUTHOR, else your user name",
    help="Who adds this to the review (kept with it, with the time).",
)
expect_option = click.option(
    "--expect",
    type=click.IntRange(0),
    help="Refuse (exit 3, nothing written) unless the review has exactly N events.",
)


def split_target(target: str) -> tuple[str, str]:
    """``GAME:ADDRESS`` as the game's id and the address (``STEP`` or ``STEP/LINE.K``)."""
    from engine.review import parse_address

    game, sep, address = target.partition(":")
    if not sep or not game:
        raise Unreadable(f"{target!r}: expected GAME:STEP or GAME:STEP/LINE.K")
    try:
        parse_address(address)
    except ValueError as err:
        raise Unreadable(f"{target!r}: {err}") from None
    return game, address


def _refused(err: Any) -> None:
    click.echo(f"refused: {err}", err=True)
    for line in violation_lines(getattr(err, "violations", ()) or ()):
        click.echo(line, err=True)
    click.echo("nothing written", err=True)
    sys.exit(EXIT_ILLEGAL)


def _stale(err: Any) -> None:
    click.echo(str(err), err=True)
    sys.exit(EXIT_STALE)


@click.command("line")
@click.argument("target", metavar="GAME:STEP")
@click.argument("moves", nargs=-1, required=True)
@click.option("--save", is_flag=True, help="Keep the line in the game's review.")
@by_option
@expect_option
@json_option
@db_option
def line_cmd(
    target: str,
    moves: tuple[str, ...],
    save: bool,
    author: str,
    expect: int | None,
    as_json: bool,
    db_path: str | None,
) -> None:
    """Play a line of MOVEs from GAME:STEP, a what-if in place of the decision that
    followed STEP: each MOVE (quoted: one decision, or several of one turn) is checked
    by the rules as a turn line's decisions are, the cards revealed and tokens drawn
    too, and printed with the position it leads to.  An illegal move is refused with
    its rule and page (exit 1).  Nothing is written unless --save keeps the line in the
    game's review (the record does not change).  A line holds 400 decisions at most.

    \b
    Examples:
      tablelog line 6138631be858:40 "take c4 b5" "take a1"
      tablelog line 6138631be858:40 "take c4 b5" --save --by Chloé
      tablelog line 6138631be858:40 "take c2 c3 c4"    # exit 1: the rule and page
      tablelog line 6138631be858:40/1.1 "take a1"    # exit 1: no saved line 1 yet
    """
    from recorder import review as rv

    game_id, address = split_target(target)
    with opened(db_path, must_exist=True) as store:
        try:
            game = rv.load(store, game_id)
            events, texts, states = rv.check_line(game, address, list(moves))
            saved = None
            if save:
                saved, _ = rv.save_line(
                    store, game_id, address, list(moves), author, expected=expect
                )
        except rv.ReviewRefused as err:
            _refused(err)
        except rv.ReviewConflict as err:
            _stale(err)
    rules = game.rules
    if as_json:
        echo_json(
            {
                "game": game_id,
                "from": address,
                "texts": texts,
                "positions": [rules.position(s) for s in states],
                "saved": saved.to_dict() if saved is not None else None,
            }
        )
        return
    click.echo(f"game {game_id}, a line from step {address}:")
    for k, (text, state) in enumerate(zip(texts, states, strict=True), start=1):
        click.echo(f"  {k}. {text}")
        click.echo(f"     {rules.position(state)}")
    last = rules.status(states[-1])
    click.echo(last.result.text if last.result is not None else f"next: {last.due}")
    if saved is not None:
        steps = saved.to_dict()["steps"]
        click.echo(f"saved as line {saved.number}: steps {steps[0]} to {steps[-1]}")
    else:
        click.echo("not saved (--save keeps it in the game's review)")


@click.command("mark")
@click.argument("target", metavar="GAME:STEP")
@click.argument("mark", type=click.Choice(MARK_CHOICES))
@click.option("--note", help="A note on the step, added after the game.")
@by_option
@expect_option
@json_option
@db_option
def mark_cmd(
    target: str,
    mark: str,
    note: str | None,
    author: str,
    expect: int | None,
    as_json: bool,
    db_path: str | None,
) -> None:
    """Give the decision of GAME:STEP (a step of the record, or GAME:STEP/LINE.K of a
    saved line) a MARK, ! ? !! ?? !? or ?!, and perhaps a note, in the game's review: the
    record does not change.  A later mark of the same step stands in its place (the
    earlier stays in the review's history); notes add up.

    \b
    Examples:
      tablelog mark 6138631be858:41 '?!' --note "too slow" --by Chloé
      tablelog mark 6138631be858:40/3.2 '!!'    # exit 1: no saved line 3
    """
    from recorder import review as rv

    game_id, address = split_target(target)
    with opened(db_path, must_exist=True) as store:
        try:
            written = rv.add_mark(store, game_id, address, mark, note, author, expected=expect)
        except rv.ReviewRefused as err:
            _refused(err)
        except rv.ReviewConflict as err:
            _stale(err)
    if as_json:
        echo_json({"game": game_id, "review": written.to_dict()})
    else:
        said = f" {{{note}}}" if note else ""
        click.echo(f"game {game_id}, step {written.body['at']}: {mark}{said} (by {written.author})")


@click.command("withdraw")
@click.argument("game")
@click.argument("line", type=click.IntRange(1))
@by_option
@expect_option
@json_option
@db_option
def withdraw_cmd(
    game: str, line: int, author: str, expect: int | None, as_json: bool, db_path: str | None
) -> None:
    """Withdraw saved LINE of GAME's review, as an undo takes back a move: it stays in
    the review's history, and leaves the export with the lines nested in it and its
    marks.

    \b
    Example:
      tablelog withdraw 6138631be858 3    # exit 1: no saved line 3 here
    """
    from recorder import review as rv

    with opened(db_path, must_exist=True) as store:
        try:
            written = rv.withdraw_line(store, game, line, author, expected=expect)
        except rv.ReviewRefused as err:
            _refused(err)
        except rv.ReviewConflict as err:
            _stale(err)
    if as_json:
        echo_json({"game": game, "review": written.to_dict()})
    else:
        click.echo(f"game {game}: line {line} withdrawn (by {written.author})")


@click.command("explore")
@click.argument("target", metavar="GAME:STEP")
@by_option
@db_option
def explore_cmd(target: str, author: str, db_path: str | None) -> None:
    """Explore what could have been played from GAME:STEP (or GAME:STEP/LINE.K of a saved
    line), one decision at a time, as `tablelog record` logs them: TAB offers the legal
    decisions, each is checked by the rules (the card revealed, the tokens drawn too).
    Commands: back, show, line, save [BY], help, quit.  Nothing is written unless
    `save` keeps the line in the game's review.

    \b
    Examples:
      tablelog explore 6138631be858:40
      printf 'take c4 b5\\nsave Chloé\\n' | tablelog explore 6138631be858:40
    """
    from recorder import review as rv

    from .explore_session import Explore
    from .record_cmd import run_session

    game_id, address = split_target(target)
    with opened(db_path, must_exist=True) as store:
        try:
            session = Explore(store, game_id, address, author)
        except rv.ReviewRefused as err:
            _refused(err)
        run_session(session)


COMMANDS: list[click.Command] = [line_cmd, mark_cmd, withdraw_cmd, explore_cmd]
