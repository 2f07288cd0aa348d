"""A stored game (or a position) analysed: each step's win chances, the best decisions
at one step, the turning points of a whole game.  The library call under ``tablelog
analyse``; the estimates are :mod:`engine.analysis`'s, this module reads the game through
the store and turns the answers into plain data (moves in notation, chances per seat,
the playouts each figure rests on).

The caller owns the clock: it passes ``stop`` callables (``True`` once its budget is
spent) and a ``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import analysis
from engine.corrections import is_retraction
from engine.fold import Fold
from engine.games import get_game
from engine.protocol import GameRules, seat_names

from .protocol import Recorder

Stop = Callable[[], bool]
Progress = Callable[[str, int, int], None]

#: The most playouts one figure gets, however long the budget.
MOST_PLAYOUTS = 100_000


def margin(estimate: analysis.Estimate) -> float | None:
    """The half-width of a 95% interval around a chance near one half from the estimate's
    playouts (the widest it gets); None when the figure is certain, 1 when no playout
    was made (the budget ran out first)."""
    if estimate.certain:
        return None
    if estimate.playouts <= 0:
        return 1.0
    return 1.96 * 0.5 / math.sqrt(estimate.playouts)


@dataclass(frozen=True)
class GameSteps:
    """A stored game folded: the state after each step (``states[0]``: the new table),
    the event of each step (None for a correction) and its stored notation text."""

    rules: GameRules
    names: tuple[str, ...]
    states: list[Any]
    events: list[Any | None]
    texts: list[str]


def game_steps(store: Recorder, game_id: str) -> GameSteps:
    """Fold the stored events of ``game_id`` once, keeping a copy of every step's state
    (events played though illegal forced, corrections followed)."""
    row = store.game(game_id)
    rules = get_game(row.kind)
    names = seat_names(row.headers or {}, rules.seats)
    fold = Fold(rules, names, every=None)
    states = [fold.head.copy()]
    events: list[Any | None] = []
    texts: list[str] = []
    for stored in store.events(game_id):
        event = stored.event if stored.event is not None else rules.event_from_dict(stored.payload)
        if is_retraction(event):
            fold.push(event)
            events.append(None)
        else:
            fold.push(event, bool((stored.meta or {}).get("played_illegally")))
            events.append(event)
        states.append(fold.head.copy())
        texts.append(stored.text)
    return GameSteps(rules, names, states, events, texts)


def _chances(chances: tuple[float, ...]) -> list[float]:
    return [round(c, 4) for c in chances]


def _line(rules: GameRules, state: Any, line: analysis.Line) -> dict[str, Any]:
    return {
        "move": rules.move_text(state, line.decision),
        "chance": round(line.chance, 4),
        "playouts": line.playouts,
    }


def analyse_position(
    rules: GameRules,
    state: Any,
    rng: random.Random,
    *,
    stop_chances: Stop,
    stop_search: Stop,
    playouts: int = MOST_PLAYOUTS,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """One position: each seat's chances (``playouts`` at most, until ``stop_chances``)
    and the best decisions found for the player to move (until ``stop_search``)."""
    names = list(state.names)
    if progress is not None:
        progress("chances", 0, 1)
    estimate = analysis.estimate(rules, state, rng, playouts, stop=stop_chances)
    if progress is not None:
        progress("search", 0, 1)
    found = analysis.search(rules, state, rng, playouts, stop=stop_search)
    status = rules.status(state)
    return {
        "players": names,
        "due": status.due,
        "steps": [
            {
                "step": None,
                "chances": _chances(estimate.chances),
                "playouts": estimate.playouts,
                "margin": margin(estimate),
            }
        ],
        "mover": found.mover,
        "best": [_line(rules, state, line) for line in found.best],
        "search_playouts": found.playouts,
    }


def analyse_game(
    store: Recorder,
    game_id: str,
    rng: random.Random,
    *,
    step: int | None = None,
    stop_chances: Stop,
    stop_search: Callable[[float], bool],
    playouts: int = MOST_PLAYOUTS,
    turning_points: int = 3,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """A stored game: with ``step``, that step as :func:`analyse_position`; without,
    every step's chances (each step ``playouts`` at most, all about as many, until
    ``stop_chances``) and its ``turning_points`` searched (each until ``stop_search``
    says the share of the searches' budget it may reach is spent: see
    :func:`engine.analysis.analyse`)."""
    row = store.game(game_id)
    if step is not None:
        rules = get_game(row.kind)
        state = store.state_at(game_id, step, row=row)
        answer = analyse_position(
            rules,
            state,
            rng,
            stop_chances=stop_chances,
            stop_search=lambda: stop_search(1.0),
            playouts=playouts,
            progress=progress,
        )
        answer["steps"][0]["step"] = step
        return {"game": game_id, "kind": row.kind, "step": step, **answer}
    steps = game_steps(store, game_id)
    rules = steps.rules
    found = analysis.analyse(
        rules,
        steps.states,
        steps.events,
        rng,
        playouts=playouts,
        stop_chances=stop_chances,
        stop_search=stop_search,
        turning_points=turning_points,
        search_playouts=playouts,
        progress=progress,
    )
    out_steps = []
    for k, estimate in enumerate(found.steps):
        entry: dict[str, Any] = {
            "step": k,
            "chances": _chances(estimate.chances),
            "playouts": estimate.playouts,
            "margin": margin(estimate),
        }
        if k:
            entry["move"] = steps.texts[k - 1]
        out_steps.append(entry)
    points = []
    for point in found.turning_points:
        before = steps.states[point.step - 1]
        points.append(
            {
                "step": point.step,
                "seat": point.seat,
                "player": steps.names[point.seat],
                "move": steps.texts[point.step - 1],
                "before": round(point.before, 4),
                "after": round(point.after, 4),
                "loss": round(point.loss, 4),
                "better": None if point.better is None else _line(rules, before, point.better),
                "search_playouts": point.searched,
            }
        )
    played = [e.playouts for e in found.steps if not e.certain]
    return {
        "game": game_id,
        "kind": row.kind,
        "players": list(steps.names),
        "steps": out_steps,
        "turning_points": points,
        "playouts_per_step": min(played) if played else 0,
    }
