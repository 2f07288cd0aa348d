"""Registry of the games tablelog knows, by kind: the only place that names a game package.

A package is imported when its game is first asked for, so a command that works on one
game (``tablelog log``, at the table) does not load the others.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping

from .errors import EngineError
from .protocol import GameRules

#: Each kind and the package that implements it (its ``GAME`` object).
PACKAGES = {"splendor-duel": "engine.splendor_duel", "splendor": "engine.splendor"}
DEFAULT_KIND = "splendor-duel"


class _Registry(Mapping[str, GameRules]):
    """The games by kind; a game's package is imported on first use."""

    def __init__(self, packages: Mapping[str, str]) -> None:
        self._packages = dict(packages)
        self._loaded: dict[str, GameRules] = {}

    def __getitem__(self, kind: str) -> GameRules:
        rules = self._loaded.get(kind)
        if rules is None:
            rules = importlib.import_module(self._packages[kind]).GAME
            self._loaded[kind] = rules
        return rules

    def __contains__(self, kind: object) -> bool:
        return kind in self._packages

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)


GAMES: Mapping[str, GameRules] = _Registry(PACKAGES)


class UnknownGameKind(EngineError, KeyError):
    pass


def get_game(kind: str) -> GameRules:
    """The rules of ``kind``; UnknownGameKind lists the known kinds."""
    try:
        return GAMES[kind]
    except (KeyError, TypeError):
        raise UnknownGameKind(
            f"unknown game kind {kind!r} (known: {', '.join(sorted(GAMES))})"
        ) from None


_GAME_HEADER = re.compile(r'^\s*\[\s*Game\s+"([^"\\]*+(?:\\.[^"\\]*+)*+)"\s*\]', re.M)


def game_for_notation(text: str) -> GameRules:
    """The game a notation file is written for, from its ``[Game "..."]`` header (a file
    without one is a game of the default kind); UnknownGameKind names the title."""
    match = _GAME_HEADER.search(text[:4096])
    if match is None:
        return GAMES[DEFAULT_KIND]
    title = match.group(1)
    for rules in GAMES.values():
        if rules.title.casefold() == title.casefold():
            return rules
    raise UnknownGameKind(
        f"unknown game {title!r} (known: {', '.join(sorted(r.title for r in GAMES.values()))})"
    )
