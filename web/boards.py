"""Each stored game's rules and board, by its kind.

The site reaches a game only through the registry (:func:`engine.games.get_game`) and the
:class:`engine.protocol.GameRules` it returns.  What a game draws is its own: the folder
``templates/<kind>/`` (``splendor-duel`` → ``splendor_duel``) holds the board's templates
(``table.html`` for the board, ``player.html`` for a seat's panel) and ``pieces.html``, the
macros that draw its pieces (tokens, cards...), which they import.

>>> folder("splendor-duel")
'splendor_duel'
>>> pieces("splendor")
'splendor/pieces.html'
>>> rules("splendor-duel").title
'Splendor Duel'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.games import GAMES, get_game
from engine.protocol import GameRules, seat_names

TEMPLATES = Path(__file__).resolve().parent / "templates"


def rules(kind: str) -> GameRules:
    """The rules of ``kind`` (UnknownGameKind names the known kinds)."""
    return get_game(kind)


def names(row: Any) -> tuple[str, ...]:
    """The seat names of the stored game ``row``, from its headers."""
    return seat_names(row.headers or {}, get_game(row.kind).seats)


def folder(kind: str) -> str:
    """The templates folder of a game kind."""
    return kind.replace("-", "_")


@functools.cache
def pieces(kind: str) -> str | None:
    """The template of the macros that draw the pieces of ``kind``
    (``<kind>/pieces.html``), None when the game has none."""
    name = f"{folder(kind)}/pieces.html"
    return name if (TEMPLATES / name).is_file() else None


def titles() -> list[str]:
    """The titles of the games the site replays."""
    return [r.title for r in GAMES.values()]


def conditions() -> Mapping[str, str]:
    """Every way any known game is won, with its short words (``on crowns``)."""
    out: dict[str, str] = {}
    for r in GAMES.values():
        for condition, words in r.conditions.items():
            out.setdefault(condition, words)
    return out
