"""``tablelog cards``: find cards by what is printed on them."""

from __future__ import annotations

from typing import Any

import click

from .options import (
    CommandError,
    LazyChoice,
    LazyHelpOption,
    db_option,
    echo_json,
    json_option,
    opened,
)

#: The columns of a listing after the id and the level come from the printed facts of
#: the cards listed (:attr:`engine.protocol.Card.facts`), each key a game's cards have,
#: in the order they first appear; these keys have their own heading.
HEADINGS = {"color": "colour", "abilities": "ability"}


def fact_keys(cards: list[Any]) -> list[str]:
    """The facts' keys of ``cards``, each once, in the order they first appear."""
    return list(dict.fromkeys(k for c in cards for k in c.facts))


def fact_text(value: object) -> str:
    """A printed fact as a listing shows it: ``3 white 2 red`` for a cost, ``steal,
    again`` for abilities, nothing for none."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return " ".join(f"{n} {name}" for name, n in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _kinds() -> list[str]:
    from engine.games import GAMES

    return sorted(GAMES)


def _kind_help() -> str:
    from engine.games import DEFAULT_KIND

    return f"The game whose cards to search [default: {DEFAULT_KIND}; with --game, its game's]."


@click.command("cards")
@click.argument("query", nargs=-1)
@click.option("--game", help="Only the cards that can still be revealed in this stored game.")
@click.option(
    "--kind",
    type=LazyChoice(_kinds),
    default=None,
    cls=LazyHelpOption,
    lazy_help=_kind_help,
)
@json_option
@db_option
def cards_cmd(
    query: tuple[str, ...], game: str | None, kind: str | None, as_json: bool, db_path: str | None
) -> None:
    """Find cards by what is printed on them (a colour, "3 points", "level 2", an
    ability, a cost such as "cost B3 R2", or an id) and print each one's id, level and
    printed facts, as the game names them.  With --game, only cards still unseen there
    (those that can still be revealed).  Exit 1 when a word fits nothing printed on a
    card.

    \b
    Examples:
      tablelog cards green 3 points
      tablelog cards level 2 joker
      tablelog cards steal --game 6138631be858
    """
    from engine.errors import EngineError
    from engine.games import DEFAULT_KIND, get_game

    text = " ".join(query)
    state = None
    if game is not None:
        with opened(db_path, must_exist=True) as store:
            kind = store.game(game).kind
            state = store.state_at(game)
    try:
        rules = get_game(kind or DEFAULT_KIND)
        cards = rules.find_cards(text, state)
    except EngineError as err:
        raise CommandError(str(err)) from None
    if as_json:
        echo_json([{"id": c.id, "level": c.level, **c.facts} for c in cards])
        return
    keys = fact_keys(cards)
    table: list[tuple[str, ...]] = [("id", "level", *(HEADINGS.get(k, k) for k in keys))]
    table += [(c.id, str(c.level), *(fact_text(c.facts.get(k)) for k in keys)) for c in cards]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    click.echo(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")


COMMANDS: list[click.Command] = [cards_cmd]
