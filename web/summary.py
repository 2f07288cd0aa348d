"""A stored game as the games list and the API's listings show it: players, date, result,
length, from the store's summary row alone (no game is folded for a listing); and the
result filters, for every game kind the site knows.

>>> RESULT_FILTERS[:2], RESULT_LABELS["playing"]
(('finished', 'playing'), 'in progress')
"""

from __future__ import annotations

from typing import Any

from engine.games import GAMES

from . import boards

#: The games list's result filters: the game's phase, or how it was won (any kind's ways).
RESULT_LABELS = {
    "finished": "finished",
    "playing": "in progress",
    **{condition: f"won {words}" for condition, words in boards.conditions().items()},
}
RESULT_FILTERS = tuple(RESULT_LABELS)


def kind_labels() -> dict[str, str]:
    """The games list's kind filter: each game the site knows, by its title."""
    return {kind: rules.title for kind, rules in GAMES.items()}


#: The games list's orders (recorder.listing.ORDERS), as the list offers them.
ORDER_LABELS = {
    "newest": "newest first",
    "oldest": "oldest first",
    "activity": "last logged first",
    "longest": "longest first",
}


def game_summary(row: Any) -> dict[str, Any]:
    """A games-list row: players, date, result, length."""
    headers = row.headers or {}
    names = boards.names(row)
    if row.status == "finished":
        result = (
            boards.rules(row.kind).result_short(row.winner, row.condition, names)
            if row.winner is not None and row.condition is not None
            else "finished"
        )
    elif row.status == "setup":
        result = "not set up"
    else:
        result = "in progress"
    if row.void is not None:
        result = "void"
    date = headers.get("date")
    return {
        "id": row.id,
        "kind": row.kind,
        "title": boards.rules(row.kind).title,
        "names": names,
        "date": date if isinstance(date, str) else "",
        "place": headers.get("place") if isinstance(headers.get("place"), str) else "",
        "event": headers.get("event") if isinstance(headers.get("event"), str) else "",
        "status": row.status,
        "winner": row.winner,
        "condition": row.condition,
        "result": result,
        "turns": row.turns,
        "events": row.event_count,
        "void": row.void,
    }
