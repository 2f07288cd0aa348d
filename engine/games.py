"""Registry of the games tablelog knows, by kind."""

from __future__ import annotations

import re

from .errors import EngineError
from .protocol import GameRules
from .splendor import GAME as SPLENDOR
from .splendor_duel import GAME as SPLENDOR_DUEL

GAMES: dict[str, GameRules] = {SPLENDOR_DUEL.kind: SPLENDOR_DUEL, SPLENDOR.kind: SPLENDOR}
DEFAULT_KIND = SPLENDOR_DUEL.kind


class UnknownGameKind(EngineError, KeyError):
    pass


def get_game(kind: str) -> GameRules:
    """The rules of ``kind``; UnknownGameKind lists the known kinds."""
    try:
        return GAMES[kind]
    except KeyError:
        raise UnknownGameKind(
            f"unknown game kind {kind!r} (known: {', '.join(sorted(GAMES))})"
        ) from None


_GAME_HEADER = re.compile(r'^\s*\[\s*Game\s+"((?:[^"\\]|\\.)*)"\s*\]', re.M)


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
