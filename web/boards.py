"""Each stored game's rules and board, by its kind.

The site reaches a game only through the registry (:func:`engine.games.get_game`) and the
:class:`engine.protocol.GameRules` it returns.  What a game draws is its own: the folder
``templates/<kind>/`` (``splendor-duel`` → ``splendor_duel``) holds the board's templates
(``table.html`` for the board, ``player.html`` for a seat's panel) and, when the game
draws its pieces in Python, the module ``pieces`` that they call.

>>> folder("splendor-duel")
'splendor_duel'
>>> rules("splendor-duel").title
'Splendor Duel'
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
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
    """The templates folder of a game kind (a Python name: it may hold a module)."""
    return kind.replace("-", "_")


@functools.cache
def pieces(kind: str) -> ModuleType | None:
    """The module that draws the pieces of ``kind`` (``templates/<kind>/pieces.py``),
    None when the game's templates need none."""
    name = folder(kind)
    if not (TEMPLATES / name / "pieces.py").is_file():
        return None
    return importlib.import_module(f"{__package__}.templates.{name}.pieces")


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
