"""A stored game's analysis: each step's chances to win and the decisions that lost their
mover the most (:func:`engine.analysis.analyse`), as plain data that ``tablelog analyse
--json`` prints and the site keeps and draws.

The game is folded once (:class:`engine.fold.Fold`; a move played though illegal forced,
a correction standing as it stood); each step's table is then estimated by playouts from
what it has not revealed.  The random draws are seeded from the game's chain head, so the
same game at the same head, asked with the same number of playouts, gives the same
figures wherever it is analysed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.analysis import analyse
from engine.corrections import Retraction
from engine.fold import Fold
from engine.games import get_game
from engine.protocol import seat_names

from .protocol import Recorder

#: The layout of an analysis, bumped when it changes.
FORMAT = 1
#: How many decisions the analysis searches for a better one, and its playouts for each.
TURNING_POINTS = 3
SEARCH_PLAYOUTS = 400


def seed_of(head: str) -> int:
    """The seed of a game's analysis: from its chain head (the first 64 bits)."""
    return int(head[:16], 16) if head else 0


def analyse_stored(
    store: Recorder,
    game_id: str,
    *,
    playouts: int,
    turning_points: int = TURNING_POINTS,
    search_playouts: int = SEARCH_PLAYOUTS,
    stop_chances: Callable[[], bool] | None = None,
    stop_search: Callable[[], bool] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of the stored game ``game_id``: ``playouts`` playouts a step (fewer
    where ``stop_chances`` says so), then the ``turning_points`` decisions that lost
    their mover the most searched for a better one (until ``stop_search``)."""
    row = store.game(game_id)
    rules = get_game(row.kind)
    names = seat_names(row.headers, rules.seats)
    fold = Fold(rules, names)
    states = [fold.state_at(0)]
    events = []
    for stored in store.events(game_id):
        event = stored.event if stored.event is not None else rules.event_from_dict(stored.payload)
        fold.push(event, bool(stored.meta.get("played_illegally")))
        states.append(fold.head.copy())
        events.append(event)
    options: dict[str, Any] = {}
    if stop_chances is not None:
        options["stop_chances"] = stop_chances
    if stop_search is not None:
        options["stop_search"] = stop_search
    found = analyse(
        rules,
        states,
        events,
        random.Random(seed_of(row.head)),
        playouts=playouts,
        turning_points=turning_points,
        search_playouts=search_playouts,
        progress=progress,
        **options,
    )
    points = []
    for p in found.turning_points:
        before = states[p.step - 1]
        better = None
        if p.better is not None:
            better = {
                "move": rules.move_text(before, p.better.decision),
                "chance": round(p.better.chance, 3),
                "playouts": p.better.playouts,
            }
        points.append(
            {
                "step": p.step,
                "seat": p.seat,
                "player": names[p.seat],
                "move": _text(rules, before, events[p.step - 1]),
                "before": round(p.before, 3),
                "after": round(p.after, 3),
                "loss": round(p.loss, 3),
                "better": better,
                "searched": p.searched,
            }
        )
    return {
        "format": FORMAT,
        "game": row.id,
        "head": row.head,
        "kind": row.kind,
        "players": list(names),
        "playouts": playouts,
        "seed": seed_of(row.head),
        "steps": [
            {"step": k, "chances": [round(c, 3) for c in e.chances], "playouts": e.playouts}
            for k, e in enumerate(found.steps)
        ],
        "turning_points": points,
    }


def _text(rules: Any, state: Any, event: Any) -> str:
    if type(event) is Retraction:
        return "undo"
    return str(rules.move_text_safe(state, event))
