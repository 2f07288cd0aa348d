"""Registry of the games tablelog knows, by kind."""

from __future__ import annotations

from .errors import EngineError
from .protocol import GameRules
from .splendor_duel import GAME as SPLENDOR_DUEL

GAMES: dict[str, GameRules] = {SPLENDOR_DUEL.kind: SPLENDOR_DUEL}
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
