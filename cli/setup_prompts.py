"""The questions ``tablelog new`` asks when it is given no file: the game, the players in
seat order, who starts, the date and place, then the setup as the players lay it out.

The answers become the game's notation (headers, then the setup lines), which the game's
own reader checks like any file.  The setup lines are the game's own
(:attr:`engine.protocol.GameRules.setup_lines`, and :meth:`~engine.protocol.GameRules.setup_after`
for what follows from who starts); a card is found by its id or by what is printed on it
(:meth:`engine.protocol.GameRules.find_cards`), and a description that fits several cards
is asked again with the candidates listed.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from typing import Any

import click

from engine.errors import EngineError
from engine.games import DEFAULT_KIND, GAMES, get_game
from engine.protocol import SetupLine


def ask_setup() -> str:
    """Ask for a new game's headers and setup; its notation."""
    kind = click.prompt("Game", type=click.Choice(sorted(GAMES)), default=DEFAULT_KIND)
    rules = get_game(kind)
    names: list[str] = []
    while len(names) < rules.seats.maximum:
        optional = len(names) >= rules.seats.minimum
        name = click.prompt(
            f"Player {len(names) + 1}" + (" (empty: no more)" if optional else ""),
            default="" if optional else None,
            show_default=False,
        ).strip()
        if not name:
            break
        names.append(name)
    first = click.prompt("Who starts", type=click.Choice(names), default=names[0])
    date = click.prompt("Date", default=_dt.date.today().isoformat())
    place = click.prompt("Place", default="", show_default=False)
    lines = [f'[Game "{rules.title}"]', f'[Date "{date}"]']
    if place:
        lines.append(f'[Place "{place}"]')
    lines += [f'[Player{i + 1} "{n}"]' for i, n in enumerate(names)]
    lines += [f'[First "{first}"]', ""]
    start = len(lines)  # the first setup line's index (its line number is one more)
    for line in rules.setup_lines:
        lines.append(f"{line.word} {_answer(rules, line, len(names), lines)}")
    after = rules.setup_after(names.index(first), len(names))
    if not rules.setup_lines:
        click.echo("The setup, one line at a time as the notation writes it (empty: done).")
        while extra := click.prompt("", default="", show_default=False).strip():
            lines.append(extra)
        return "\n".join([*lines, *after]) + "\n"
    # The whole setup is read as the game reads it; a line it refuses is asked again,
    # keeping every other answer (a board miscounted is found once the cards are in).
    while True:
        problem = _setup_problem(rules, [*lines, *after], start, len(rules.setup_lines))
        if problem is None:
            return "\n".join([*lines, *after]) + "\n"
        index, messages = problem
        line = rules.setup_lines[index]
        click.echo(f"The {line.label.lower()} does not fit the rules:")
        for message in messages:
            click.echo(f"  - {message}")
        click.echo("Enter it again.")
        rest = lines[: start + index] + lines[start + index + 1 :]
        lines[start + index] = f"{line.word} {_answer(rules, line, len(names), rest)}"


def _setup_problem(
    rules: Any, lines: list[str], start: int, count: int
) -> tuple[int, list[str]] | None:
    """The setup line the game's reader refuses first (its index among the setup lines)
    and why, each reason once; None when the setup reads, or when what is refused is not
    a setup line (the command then reports it as any file's error)."""
    parsed = rules.read_game("\n".join(lines) + "\n")
    if not parsed.errors:
        return None
    error = parsed.errors[0]
    index = error.line - 1 - start
    if not 0 <= index < count:
        return None
    reasons = [v.message for v in error.violations] or [error.message]
    return index, list(dict.fromkeys(reasons))


def _answer(rules: Any, line: SetupLine, players: int, taken: list[str]) -> str:
    if not line.cards:
        return str(click.prompt(line.prompt)).strip()
    chosen: list[str] = []
    needed = line.needed(players)
    while len(chosen) < needed:
        what = "noble" if line.level == 0 else "card"  # classic Splendor's nobles: level 0
        query = click.prompt(f"{line.prompt}: {what} {len(chosen) + 1} of {needed}")
        card = find_one(rules, query, line.level, taken_ids(taken) | set(chosen))
        if card is not None:
            chosen.append(card)
    return " ".join(chosen)


def taken_ids(lines: Sequence[str]) -> set[str]:
    """The card ids already named in the setup lines."""
    return {word for text in lines for word in text.split()[1:] if "-" in word}


def find_one(rules: Any, query: str, level: int | None, taken: set[str]) -> str | None:
    """The one card ``query`` names (at ``level``, not already laid out), or None after
    saying why (nothing fits, or which cards fit)."""
    try:
        found = [
            c
            for c in rules.find_cards(query)
            if (level is None or c.level == level) and c.id not in taken
        ]
    except EngineError as err:
        click.echo(f"  {err}")
        return None
    if len(found) == 1:
        click.echo(f"  {found[0].id}: {found[0].words}")
        return str(found[0].id)
    if not found:
        click.echo("  no card left fits that")
    else:
        click.echo(f"  {len(found)} cards fit; say more (or give the id):")
        for c in found[:12]:
            click.echo(f"    {c.id}: {c.words}")
    return None
