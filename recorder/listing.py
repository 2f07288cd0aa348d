"""The filters of a games listing (by player, result and date), as the SQL the stores'
``list_games`` and ``count_games`` run over the ``game_summaries`` projection."""

from __future__ import annotations

from typing import Any

from engine.games import GAMES

from .errors import StoreError

RESULT_STATUSES = ("finished", "playing", "setup")


def result_conditions() -> tuple[str, ...]:
    """How games can be won, over every registered game (each game names its own)."""
    return tuple(dict.fromkeys(c for rules in GAMES.values() for c in rules.conditions))


def filters_sql(
    player: str | None, result: str | None, date_from: Any, date_to: Any
) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if player:
        clauses.append("g.id IN (SELECT game_id FROM game_players WHERE name = ?)")
        params.append(player)
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
