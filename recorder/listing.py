"""The filters and orders of a games listing (by player, result, date and game kind), as the SQL
the stores' ``list_games`` and ``count_games`` run over the ``game_summaries``
projection, and a player's statistics."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from engine.games import GAMES

from .errors import StoreError

RESULT_STATUSES = ("finished", "playing", "setup")

#: The SQL name of :func:`fold_name` on the store's own connection: the players index
#: keeps each name folded (``game_players.folded``), so a search finds "Chloé" from
#: "chloe" with one index look-up.
FOLD_FUNCTION = "tablelog_fold"


def fold_name(name: str) -> str:
    """A player's name as searches compare it: accents and case dropped, spaces single.

    >>> fold_name("  Chloé   DUPONT"), fold_name("Straße"), fold_name("Zoë") == fold_name("zoe")
    ('chloe dupont', 'strasse', True)
    """
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


#: The orders a listing offers, each with its SQL; the first is the default.  Games
#: without a date sort after the dated ones, by when they were stored.
ORDERS: dict[str, str] = {
    "newest": "s.date IS NULL, s.date DESC, g.created_at DESC",
    "oldest": "s.date IS NULL, s.date, g.created_at",
    "activity": "s.last_activity DESC",
    "longest": "s.turns DESC, s.date DESC",
}
DEFAULT_ORDER = next(iter(ORDERS))


def order_sql(order: str | None) -> str:
    """The ORDER BY clause of a listing (ties broken by game id)."""
    key = order or DEFAULT_ORDER
    if key not in ORDERS:
        raise StoreError(f"unknown order {key!r} (one of {', '.join(ORDERS)})")
    return f" ORDER BY {ORDERS[key]}, s.game_id"


@dataclass(frozen=True)
class PlayerStats:
    """What a player's games add up to (``name`` as the player's first stored game
    spells it)."""

    name: str
    games: int
    finished: int
    wins: int
    #: Wins by victory condition (``points``, ``crowns``...), most first.
    wins_by: dict[str, int]
    #: Finished games that ended in a shared win (a tie the rules leave shared).
    shared: int
    #: Turns per finished game, on average (None before the first finishes).
    average_turns: float | None


#: A player's games: one row per game, with the seat the player held.
PLAYER_GAMES_SQL = """
SELECT p.name, p.seat, s.status, s.winner, s.condition, s.turns
FROM game_players AS p JOIN game_summaries AS s ON s.game_id = p.game_id
WHERE p.folded = ?
ORDER BY s.date, s.game_id
"""


def player_stats(rows: list[Any]) -> PlayerStats | None:
    """Add up a player's ``rows`` (see :data:`PLAYER_GAMES_SQL`); None when there is
    none."""
    if not rows:
        return None
    finished = [r for r in rows if r[2] == "finished"]
    wins_by: dict[str, int] = {}
    shared = 0
    for _, seat, _, winner, condition, _ in finished:
        if winner is None and condition == "shared":
            shared += 1
        elif winner == seat and condition:
            wins_by[condition] = wins_by.get(condition, 0) + 1
    return PlayerStats(
        name=str(rows[0][0]),
        games=len(rows),
        finished=len(finished),
        wins=sum(wins_by.values()),
        wins_by=dict(sorted(wins_by.items(), key=lambda kv: (-kv[1], kv[0]))),
        shared=shared,
        average_turns=sum(r[5] for r in finished) / len(finished) if finished else None,
    )


def result_conditions() -> tuple[str, ...]:
    """How games can be won, over every registered game (each game names its own)."""
    return tuple(dict.fromkeys(c for rules in GAMES.values() for c in rules.conditions))


def filters_sql(
    player: str | None,
    result: str | None,
    date_from: Any,
    date_to: Any,
    kind: str | None = None,
) -> tuple[str, list[Any]]:
    """The WHERE clause and its parameters of a listing with these filters (StoreError
    for a result or a kind no game knows)."""
    clauses: list[str] = []
    params: list[Any] = []
    if kind:
        if kind not in GAMES:
            raise StoreError(f"unknown game kind {kind!r} (one of {', '.join(GAMES)})")
        clauses.append("g.kind = ?")
        params.append(kind)
    if player:
        clauses.append("g.id IN (SELECT game_id FROM game_players WHERE folded = ?)")
        params.append(fold_name(player))
    if result:
        if result in RESULT_STATUSES:
            clauses.append("s.status = ?")
        elif result in result_conditions():
            clauses.append("s.condition = ?")
        else:
            raise StoreError(
                f"unknown result filter {result!r} (one of "
                f"{', '.join(RESULT_STATUSES + result_conditions())})"
            )
        params.append(result)
    if date_from:
        clauses.append("s.date >= ?")
        params.append(str(date_from))
    if date_to:
        clauses.append("s.date <= ?")
        params.append(str(date_to))
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params
