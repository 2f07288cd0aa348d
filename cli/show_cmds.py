"""``tablelog show``: a stored game's table at any step, as the game draws it in text."""

from __future__ import annotations

from pathlib import Path

import click

from .options import db_option, opened


@click.command("show")
@click.argument("game")
@click.option("--step", type=int, help="Show the state after this many events (default: all).")
@db_option
def show_cmd(game: str, step: int | None, db_path: Path | None) -> None:
    """Show a game's table at a step as text: what lies on it, what each player holds,
    whose turn it is, and what the game waits for (or how it ended); last, the game's
    head (the short form of its chain's last hash, to keep: see tablelog verify), or
    the hash at the step shown.

    \b
    Example:
      tablelog show 6138631be858 --step 40
    """
    from engine.games import get_game
    from engine.protocol import seat_names
    from recorder.chain import short

    with opened(db_path) as store:
        row = store.game(game)
        state = store.state_at(game, step)
        rules = get_game(row.kind)
        at = row.event_count if step is None else step
        shown = row.head if at == row.event_count else store.step_hash(game, at)
        broken = store.chain_findings(game)
    click.echo(f"Game {row.id}: {' vs '.join(seat_names(row.headers, rules.seats))}")
    click.echo(f"After step {at} of {row.event_count}")
    click.echo(rules.text_view(state), nl=False)
    status = rules.status(state)
    click.echo(status.result.text if status.result is not None else f"\nnext: {status.due}")
    label = "head" if at == row.event_count else f"hash at step {at}"
    where = f"from step {broken[0].step}" if broken and broken[0].step else "at its head"
    mark = f" (does not verify {where}: see tablelog verify)" if broken else ""
    click.echo(f"{label} {short(shown)}{mark}")


COMMANDS: list[click.Command] = [show_cmd]
