"""``tablelog show``: a stored game's table at any step, as the game draws it in text, or
as a picture (``--image FILE.svg`` or ``.png``), or a range of steps as an animated GIF
(``--gif FILE``, drawn by the site's own drawing function, :func:`web.animation.game_gif`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .options import db_option, opened

#: What ``--image`` writes, by the file's extension.
IMAGE_KINDS = (".svg", ".png")


def _ending(kinds: tuple[str, ...], words: str) -> Callable[..., Path | None]:
    """A click callback refusing a file that does not end in one of ``kinds``
    (``words``: what the error says it must end in)."""

    def check(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
        if value is not None and value.suffix.lower() not in kinds:
            raise click.BadParameter(
                f"{str(value)!r} must end in {words}, not {value.suffix or 'no extension'!r}",
                ctx,
                param,
            )
        return value

    return check


@click.command("show")
@click.argument("game")
@click.option("--step", type=int, help="Show the state after this many events (default: all).")
@click.option(
    "--image",
    type=click.Path(dir_okay=False, path_type=Path),
    callback=_ending(IMAGE_KINDS, ".svg or .png (the picture's format)"),
    help="Write a picture of the table to FILE instead (FILE.svg or FILE.png): the board, "
    "the cards, every player, what is due and what the step changed.",
)
@click.option(
    "--gif",
    type=click.Path(dir_okay=False, path_type=Path),
    callback=_ending((".gif",), ".gif"),
    help="Write an animated GIF of the game's steps to FILE.gif instead: one frame a step, "
    "each captioned with what it did (the whole game, or --from and --to).",
)
@click.option(
    "--from", "first", type=click.IntRange(min=0), help="With --gif: the first step shown."
)
@click.option("--to", "last", type=click.IntRange(min=0), help="With --gif: the last step shown.")
@db_option
def show_cmd(
    game: str,
    step: int | None,
    image: Path | None,
    gif: Path | None,
    first: int | None,
    last: int | None,
    db_path: str | None,
) -> None:
    """Show a game's table at a step as text: what lies on it, what each player holds,
    whose turn it is, and what the game waits for (or how it ended); last, the game's
    head (the short form of its chain's last hash, to keep: see tablelog verify), or
    the hash at the step shown.  With --image, a picture of the table instead.

    \b
    Examples:
      tablelog show 6138631be858 --step 40
      tablelog show 6138631be858 --step 40 --image /tmp/step40.png
      tablelog show 6138631be858 --gif /tmp/opening.gif --from 1 --to 11
    """
    if gif is not None:
        _write_gif(game, gif, first, last, db_path)
        return
    if first is not None or last is not None:
        raise click.UsageError("--from and --to go with --gif")
    from engine.games import get_game
    from engine.protocol import seat_names
    from recorder.chain import keyed, short

    with opened(db_path) as store:
        row = store.game(game)
        state = store.state_at(game, step, row=row)
        rules = get_game(row.kind)
        at = row.event_count if step is None else step
        shown = row.head if at == row.event_count else store.verification.step_hash(game, at)
        broken = store.verification.chain_findings(game)
        if image is not None:
            svg = _picture(store, rules, row, at, state)
    if image is not None:
        _write_image(image, svg)
        click.echo(f"step {at} of {row.event_count} drawn in {image}")
        return
    click.echo(f"Game {row.id}: {' vs '.join(seat_names(row.headers, rules.seats))}")
    click.echo(f"After step {at} of {row.event_count}")
    click.echo(rules.text_view(state), nl=False)
    status = rules.status(state)
    click.echo(status.result.text if status.result is not None else f"\nnext: {status.due}")
    label = "head" if at == row.event_count else f"hash at step {at}"
    where = f"from step {broken[0].step}" if broken and broken[0].step else "at its head"
    mark = f" (does not verify {where}: see tablelog verify)" if broken else ""
    secret = os.environ.get("TABLELOG_CHAIN_KEY")
    key_note = f", keyed {short(keyed(shown, secret))}" if secret else ""
    click.echo(f"{label} {short(shown)}{key_note}{mark}")


def _picture(store: Any, rules: Any, row: Any, n: int, state: Any) -> str:
    """The game's picture of step ``n`` with the heading the site's picture has: the step
    and the decision that led there, as the move list writes it."""
    from engine.corrections import Retraction, undo_text
    from engine.picture import step_heading

    if n == 0:
        return str(rules.picture(state, None, step_heading(0, row.event_count, None, None, "")))
    stored = store.events(row.id, n)
    events = [e.event for e in stored]
    before = store.state_at(row.id, n - 1, row=row)
    last = events[-1]
    if type(last) is Retraction:
        text, actor = undo_text(rules, events[:-1], last), None
    else:
        text, seat = rules.move_text(before, last), rules.acting_seat(before, last)
        actor = None if seat is None else state.names[seat]
    status = rules.status(before)
    heading = step_heading(
        n,
        row.event_count,
        status.turn,
        actor,
        text,
        setup=status.phase == "setup",
        illegal=bool(stored[-1].meta.get("played_illegally")),
    )
    return str(rules.picture(state, before, heading))


def _write_image(path: Path, svg: str) -> None:
    """``svg`` into ``path``, as it is or as PNG by the extension; an error names the file."""
    from web.images import PictureError, svg_to_png

    try:
        data = svg.encode() if path.suffix.lower() == ".svg" else svg_to_png(svg)
        path.write_bytes(data)
    except (OSError, PictureError) as err:
        raise click.ClickException(f"cannot write {path}: {err}") from None


def _write_gif(
    game: str, path: Path, first: int | None, last: int | None, db_path: str | None
) -> None:
    """The animation of ``game``'s steps ``first`` to ``last`` into ``path``."""
    from web.animation import RangeError, game_gif

    def progress(done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            click.echo(f"\rdrawing frame {done} of {total}", nl=done == total, err=True)

    with opened(db_path) as store:
        try:
            steps, data = game_gif(store, game, first, last, progress)
        except RangeError as err:
            raise click.BadParameter(str(err), param_hint=f"--{err.parameter}") from None
    try:
        path.write_bytes(data)
    except OSError as err:
        raise click.ClickException(f"cannot write {path}: {err}") from None
    click.echo(
        f"steps {steps.first} to {steps.last} of {game} drawn in {path} ({len(data):,} bytes)"
    )


COMMANDS: list[click.Command] = [show_cmd]
