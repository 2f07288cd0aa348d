"""Query and path parameters, checked: a bad value is a 400 naming the parameter, an
unknown game or step a 404."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, request

from engine.games import GAMES
from recorder import GameNotFound, StoreError
from recorder.listing import ORDERS, get_order, read_position

from .summary import RESULT_FILTERS
from .timeline import Timeline


def int_arg(
    name: str, default: int | None, *, minimum: int = 0, maximum: int | None = None
) -> int | None:
    """The integer query parameter ``name`` (``default`` when absent or empty)."""
    raw = request.args.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        abort(400, description=f"parameter {name!r}: expected a whole number, got {raw[:40]!r}")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"from {minimum} to {maximum}" if maximum is not None else f"{minimum} or more"
        abort(400, description=f"parameter {name!r}: expected a number {bound}, got {value}")
    return value


def list_filters() -> dict[str, Any]:
    """The games-list filters, order and paging: ``player``, ``result``, ``kind``,
    ``order``, ``per_page``, ``all`` (void games too, asked as ``all=1``), and where the
    page is: ``after`` or ``before`` a place (a
    page's next or previous, see :meth:`recorder.listing.Listing.page`), ``last`` (asked
    as ``page=last``), or ``page`` (an old address's page number; 1 without any)."""
    player = (request.args.get("player") or "").strip()
    if len(player) > 100:
        abort(400, description="parameter 'player': at most 100 characters")
    result = (request.args.get("result") or "").strip()
    if result and result not in RESULT_FILTERS:
        abort(
            400,
            description=f"parameter 'result': one of {', '.join(RESULT_FILTERS)}, "
            f"got {result[:40]!r}",
        )
    kind = (request.args.get("kind") or "").strip()
    if kind and kind not in GAMES:
        abort(
            400,
            description=f"parameter 'kind': one of {', '.join(GAMES)}, got {kind[:40]!r}",
        )
    order = (request.args.get("order") or "").strip()
    if order and order not in ORDERS:
        abort(
            400,
            description=f"parameter 'order': one of {', '.join(ORDERS)}, got {order[:40]!r}",
        )
    cfg = current_app.config
    per_page = int_arg(
        "per_page", int(cfg["PER_PAGE"]), minimum=1, maximum=int(cfg["MAX_PER_PAGE"])
    )
    last = (request.args.get("page") or "").strip() == "last"
    page = 1 if last else int_arg("page", 1, minimum=1, maximum=1_000_000)
    places = {}
    for name in ("after", "before"):
        place = (request.args.get(name) or "").strip() or None
        if place is not None:
            try:
                read_position(get_order(order or None), place)
            except StoreError as err:
                abort(400, description=f"parameter {name!r}: {err}")
        places[name] = place
    return {
        "player": player or None,
        "result": result or None,
        "kind": kind or None,
        "order": order or None,
        "all": (request.args.get("all") or "").strip() not in ("", "0"),
        "page": page,
        "last": last,
        "per_page": per_page,
        **places,
    }


def game_row(store: Any, game_id: str) -> Any:
    """The stored row of ``game_id`` or a 404."""
    if not game_id or len(game_id) > 200:
        abort(404, description="no such game")
    try:
        return store.game(game_id)
    except GameNotFound:
        abort(404, description=f"no game {game_id!r} in this database")


def timeline(store: Any, game_id: str) -> Timeline:
    """The folded game ``game_id`` or a 404."""
    if not game_id or len(game_id) > 200:
        abort(404, description="no such game")
    cache = current_app.extensions["tablelog.timelines"]
    try:
        return cache.get(store, game_id)  # type: ignore[no-any-return]
    except GameNotFound:
        abort(404, description=f"no game {game_id!r} in this database")


def timeline_for(store: Any, row: Any) -> Timeline:
    """The folded game of the stored ``row`` (see :meth:`TimelineCache.for_row`)."""
    return current_app.extensions["tablelog.timelines"].for_row(store, row)  # type: ignore[no-any-return]


def step_number(raw: str | None, game_id: str, last: int, name: str = "step") -> int:
    """A step number of a game with ``last`` steps: 400 when not a number or negative,
    404 when the game has no such step; absent means the last step."""
    if raw is None or raw.strip() == "":
        return last
    try:
        step = int(raw.strip())
    except ValueError:
        abort(400, description=f"parameter {name!r}: expected a step number, got {raw[:40]!r}")
    if step < 0:
        abort(400, description=f"parameter {name!r}: a step is 0 or more, got {step}")
    if step > last:
        abort(404, description=f"game {game_id!r} has steps 0 to {last}, not {step}")
    return step


def step_value(raw: str | None, tl: Timeline, name: str = "step") -> int:
    """A step number of the folded game ``tl`` (see :func:`step_number`; absent: the last
    shown); 409 with the facts for a stored step past where the record was altered."""
    if raw is None or raw.strip() == "":
        return tl.last_step
    step = step_number(raw, tl.row.id, tl.event_count, name)
    shown(tl, step)
    return step


def shown(tl: Timeline, step: int) -> None:
    """409, saying where and how, when ``step`` is past where ``tl``'s record was altered
    behind the store's back (the steps before it are shown)."""
    if step > tl.last_step and tl.altered is not None:
        abort(409, description=tl.altered.message(tl.row.id))
