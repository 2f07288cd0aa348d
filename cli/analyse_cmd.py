"""``tablelog analyse``: who was ahead at each step, where the game turned, the best
decisions at one step.  A few lines over :mod:`recorder.analysis`; the clock (the
budget) and the progress line on stderr are this command's."""

from __future__ import annotations

import time
from typing import Any

import click

from .options import Unreadable, db_option, echo_json, json_option, opened
from .targets import is_position, read_position

#: The share of the budget a whole game's chances get; the turning points' searches the
#: rest.  For one step: its chances, then the search.
_CHANCES_SHARE = 0.6
_STEP_SHARE = 0.3
#: The graph's widest run of columns (steps are averaged into them beyond it).
GRAPH_WIDTH = 64
_BARS = "▁▂▃▄▅▆▇█"


def graph(chances: list[float], width: int = GRAPH_WIDTH) -> str:
    """One seat's chance over the steps as a line of bars (▁ is 0, █ is 1); more steps
    than ``width`` are averaged into ``width`` columns.

    >>> graph([0.0, 0.5, 1.0])
    '▁▅█'
    """
    n = len(chances)
    columns = min(n, width)
    out = []
    for i in range(columns):
        part = chances[i * n // columns : max((i + 1) * n // columns, i * n // columns + 1)]
        value = sum(part) / len(part)
        out.append(_BARS[min(int(value * len(_BARS)), len(_BARS) - 1)])
    return "".join(out)


def _count(n: int) -> str:
    return f"{n} playout" if n == 1 else f"{n} playouts"


def _percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def _playouts(n: int, margin: float | None) -> str:
    if margin is None:
        return "certain"
    return f"{_count(n)}, ±{round(margin * 100)}%"


def _chance_line(names: list[str], entry: dict[str, Any]) -> str:
    shares = ", ".join(
        f"{name} {_percent(c)}" for name, c in zip(names, entry["chances"], strict=True)
    )
    return f"{shares} ({_playouts(entry['playouts'], entry['margin'])})"


def _text(answer: dict[str, Any]) -> list[str]:
    names = answer["players"]
    lines: list[str] = []
    if "best" in answer:
        lines.append(f"{answer['due']}")
        lines.append("win chances: " + _chance_line(names, answer["steps"][0]))
        mover = answer["mover"]
        if mover is None:
            lines.append("no decision is due here")
            return lines
        lines.append(
            f"best decisions for {names[mover]} "
            f"({answer['search_playouts']} playouts of search in all):"
        )
        for line in answer["best"][:10]:
            lines.append(
                f"  {line['move']:<28} {_percent(line['chance']):>4}  ({_count(line['playouts'])})"
            )
        return lines
    steps = answer["steps"]
    lines.append(
        f"{len(steps) - 1} steps; each step's chances rest on at least "
        f"{answer['playouts_per_step']} playouts"
    )
    for seat, name in enumerate(names):
        lines.append(f"{name:>12} {graph([s['chances'][seat] for s in steps])}")
    lines.append(f"{'':>12} step 0 to {len(steps) - 1}: ▁ 0%, █ 100%")
    lines.append("turning points:" if answer["turning_points"] else "no turning points found")
    for point in answer["turning_points"]:
        better = point["better"]
        found = (
            f"better: {better['move']} {_percent(better['chance'])} ({_count(better['playouts'])})"
            if better
            else f"no better decision found ({point['search_playouts']} playouts)"
            if point["search_playouts"]
            else "not searched (the budget was spent)"
        )
        lines.append(
            f"  step {point['step']}, {point['player']}: {point['move']}  "
            f"{_percent(point['before'])} → {_percent(point['after'])}; {found}"
        )
    lines.append("last step: " + _chance_line(names, steps[-1]))
    return lines


@click.command("analyse")
@click.argument("target")
@click.option(
    "--budget",
    type=click.FloatRange(min=0.0, min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds for the whole analysis.",
)
@click.option(
    "--playouts",
    type=click.IntRange(min=1),
    default=None,
    help="At most this many playouts for each figure (each step's chances, each search); "
    "with a budget it will not use up, the same seed gives the same figures.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The playouts' seed.")
@json_option
@db_option
def analyse_cmd(
    target: str,
    budget: float,
    playouts: int | None,
    seed: int,
    as_json: bool,
    db_path: str | None,
) -> None:
    """Who was ahead in TARGET (GAME, GAME:STEP or a quoted position string), by playouts.

    For a whole game: each step's win chances, a graph of them, and the turning points
    (the decisions that lost their player the most, each with the better decision the
    search found).  For one step or a position: the chances and the best decisions found,
    best first.  Every chance says how many playouts it rests on.  The progress is shown
    on stderr.

    \b
    Examples:
      tablelog analyse 6138631be858 --budget 3
      tablelog analyse 6138631be858:40 --budget 2 --json
    """
    import random

    from recorder.analysis import MOST_PLAYOUTS, analyse_game, analyse_position

    started = time.monotonic()
    single = is_position(target) or ":" in target
    chances_end = started + budget * (_STEP_SHARE if single else _CHANCES_SHARE)
    end = started + budget
    last_shown = [0.0]

    def progress(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last_shown[0] < 0.5:
            return
        last_shown[0] = now
        count = f" {done} playouts" if phase == "chances" else f" {done + 1} of {total}"
        click.echo(f"analyse: {phase}{count}, {now - started:.0f}/{budget:g} s", err=True)

    def stop_chances() -> bool:
        return time.monotonic() >= chances_end

    searching: list[float] = []

    def stop_search(share: float = 1.0) -> bool:
        """Whether ``share`` of the time left for searching when the first search
        began is spent."""
        now = time.monotonic()
        if not searching:
            searching.append(now)
        return now >= searching[0] + share * (end - searching[0])

    rng = random.Random(seed)
    cap = playouts or MOST_PLAYOUTS
    if is_position(target):
        rules, state = read_position(target)
        answer = analyse_position(
            rules,
            state,
            rng,
            stop_chances=stop_chances,
            stop_search=stop_search,
            playouts=cap,
            progress=progress,
        )
    else:
        game_id, sep, step_text = target.rpartition(":")
        if not sep:
            game_id, step_text = target, ""
        if step_text and not step_text.isdigit():
            raise Unreadable(
                f"{target!r}: expected GAME, GAME:STEP (a step number) or a position string"
            )
        with opened(db_path, must_exist=True, error=Unreadable) as store:
            answer = analyse_game(
                store,
                game_id,
                rng,
                step=int(step_text) if step_text else None,
                stop_chances=stop_chances,
                stop_search=stop_search,
                playouts=cap,
                progress=progress,
            )
    answer["seconds"] = round(time.monotonic() - started, 1)
    if as_json:
        echo_json(answer)
        return
    for line in _text(answer):
        click.echo(line)


COMMANDS: list[click.Command] = [analyse_cmd]
