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

#: What goes back to the question before, at any question.
BACK = ("<", "back")


class _Back(Exception):
    """The answer was :data:`BACK`: the question before is asked again."""


def _ask(text: str, default: str | None = None, choices: Sequence[str] = ()) -> str:
    """One answer, stripped (:class:`_Back` for :data:`BACK`); with ``choices``, asked
    again until it is one of them."""
    while True:
        answer = str(
            click.prompt(
                text + (f" ({', '.join(choices)})" if choices else ""),
                default=default,
                show_default=bool(default),
            )
        ).strip()
        if answer.lower() in BACK:
            raise _Back
        if not choices or answer in choices:
            return answer
        click.echo(f"  one of: {', '.join(choices)} (or < to go back)")


def ask_setup() -> str:
    """Ask for a new game's headers and setup; its notation.  ``<`` at any question goes
    back to the one before (a wrong answer costs a question, not the game)."""
    click.echo("(< at any question goes back to the one before)")
    answers: dict[str, Any] = {}
    steps = [_kind, _players, _first, _date, _event, _round, _place]
    setup: list[str] = []  # the setup lines answered, in order
    at = 0  # the question: a header's step, then a setup line
    back = False  # whether the question is asked again, going back
    while "kind" not in answers or at < len(steps) + len(get_game(answers["kind"]).setup_lines):
        try:
            if at < len(steps):
                steps[at](answers, back)
                setup.clear()  # (the game or its players may have changed)
            else:
                rules = get_game(answers["kind"])
                line = rules.setup_lines[at - len(steps)]
                taken = [*_headers(rules, answers), *setup]
                setup.append(f"{line.word} {_answer(rules, line, len(answers['names']), taken)}")
            at, back = at + 1, False
        except _Back:
            at, back = max(0, at - 1), True
            del setup[max(0, at - len(steps)) :]
    rules = get_game(answers["kind"])
    names = answers["names"]
    lines = [*_headers(rules, answers), *setup]
    start = len(lines) - len(setup)  # the first setup line's index
    after = rules.setup_after(names.index(answers["first"]), len(names))
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
        try:
            lines[start + index] = f"{line.word} {_answer(rules, line, len(names), rest)}"
        except _Back:
            continue  # (nothing before it to go back to here: asked again)


def _kind(answers: dict[str, Any], back: bool) -> None:
    answers["kind"] = _ask("Game", DEFAULT_KIND, sorted(GAMES))


def _players(answers: dict[str, Any], back: bool) -> None:
    """The players in seat order; going back, the last of them is asked again."""
    rules = get_game(answers["kind"])
    names: list[str] = answers["names"][:-1] if back else []
    while len(names) < rules.seats.maximum:
        optional = len(names) >= rules.seats.minimum
        try:
            name = _ask(
                f"Player {len(names) + 1}" + (" (empty: no more)" if optional else ""),
                "" if optional else None,
            )
        except _Back:
            if not names:
                raise
            names.pop()  # that player asked again
            continue
        if not name:
            break
        names.append(name)
    answers["names"] = names


def _first(answers: dict[str, Any], back: bool) -> None:
    answers["first"] = _ask("Who starts", answers["names"][0], answers["names"])


def _date(answers: dict[str, Any], back: bool) -> None:
    answers["date"] = _ask("Date", _dt.date.today().isoformat())


def _event(answers: dict[str, Any], back: bool) -> None:
    answers["event"] = _ask("Event (a club night, a tournament; empty: none)", "")


def _round(answers: dict[str, Any], back: bool) -> None:
    answers["round"] = _ask("Round (empty: none)", "")


def _place(answers: dict[str, Any], back: bool) -> None:
    answers["place"] = _ask("Place (empty: none)", "")


def _headers(rules: Any, answers: dict[str, Any]) -> list[str]:
    """The headers the answers give, then the blank line before the setup."""
    lines = [f'[Game "{rules.title}"]', f'[Date "{answers["date"]}"]']
    for word in ("event", "round", "place"):
        if answers.get(word):
            lines.append(f'[{word.title()} "{answers[word]}"]')
    lines += [f'[Player{i + 1} "{n}"]' for i, n in enumerate(answers["names"])]
    return [*lines, f'[First "{answers["first"]}"]', ""]


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
    """One setup line's answer; :class:`_Back` from its first question (``<`` at a later
    card asks for the card before again)."""
    if not line.cards:
        return _ask(line.prompt)
    chosen: list[str] = []
    needed = line.needed(players)
    while len(chosen) < needed:
        try:
            query = _ask(f"{line.prompt}: {line.piece} {len(chosen) + 1} of {needed}")
        except _Back:
            if not chosen:
                raise
            chosen.pop()
            continue
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
