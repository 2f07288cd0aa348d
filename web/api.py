"""The JSON API: the games list, one game's headers and events, the state at a step, and
the legality check.  Errors are JSON too (``{"error": {"status", "title", "message"}}``)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request, url_for
from werkzeug.wrappers import Response

from . import boards, params
from .cache import cached_answer
from .db import get_store
from .moves import check_text
from .summary import game_summary

bp = Blueprint("api", __name__, url_prefix="/api")

JSON = "application/json"


def _game_json(row: Any) -> dict[str, Any]:
    summary = game_summary(row)
    return {
        "id": row.id,
        "kind": row.kind,
        "headers": row.headers,
        "players": list(summary["names"]),
        "status": row.status,
        "winner": row.winner,
        "condition": row.condition,
        "result": summary["result"],
        "turns": row.turns,
        "event_count": row.event_count,
        "created_at": _text(row.created_at),
        "last_activity": _text(row.last_activity),
        "url": url_for("site.game", game_id=row.id),
    }


def _text(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float):
        return value
    iso = getattr(value, "isoformat", None)
    return iso() if iso else str(value)


@bp.route("/games")
def games() -> Response:
    """``?player=&result=&page=&per_page=``: the games, newest first, with paging."""
    f = params.list_filters()
    store = get_store()
    filters = {"player": f["player"], "result": f["result"]}
    total = store.count_games(**filters)
    per_page, page = f["per_page"], f["page"]
    rows = store.list_games(**filters, limit=per_page, offset=(page - 1) * per_page)
    keep = {k: v for k, v in filters.items() if v}
    last_page = max(1, (total + per_page - 1) // per_page)
    return jsonify(
        {
            "games": [_game_json(r) for r in rows],
            "total": total,
            "page": page,
            "per_page": per_page,
            "pages": last_page,
            "next": url_for("api.games", **keep, page=page + 1, per_page=per_page)
            if page < last_page
            else None,
            "prev": url_for("api.games", **keep, page=page - 1, per_page=per_page)
            if page > 1
            else None,
        }
    )


@bp.route("/games/<game_id>")
def game(game_id: str) -> Response:
    """A game's headers and its events, each with its meta."""
    store = get_store()
    row = params.game_row(store, game_id)
    return cached_answer("game-json", row, None, lambda: (_game_body(store, row), JSON))


def _game_body(store: Any, row: Any) -> str:
    out = _game_json(row)
    out["events"] = [
        {
            "sequence": e.sequence,
            "event_id": e.event_id,
            "type": e.type,
            "payload": e.payload,
            "version": e.version,
            "recorded_at": _text(e.recorded_at),
            "meta": e.meta or {},
        }
        for e in store.events(row.id, row.event_count)
    ]
    return json.dumps(out, separators=(",", ":"))


@bp.route("/games/<game_id>/state")
def state(game_id: str) -> Response:
    """``?step=N``: the state after N events (the last step when absent)."""
    store = get_store()
    row = params.game_row(store, game_id)
    n = params.step_number(request.args.get("step"), row.id, row.event_count)
    timelines = current_app.extensions["tablelog.timelines"]
    return cached_answer("state-json", row, n, lambda: (state_body(store, timelines, row, n), JSON))


def state_body(store: Any, timelines: Any, row: Any, step: int) -> str:
    """The state API's answer for ``row``'s game after ``step`` events: from the game's
    fold when a reader of its pages made one, else one fold in the store."""
    tl = timelines.peek(row)
    # given the row, the store names the seats from its headers, as the site does
    state = tl.state(step) if tl is not None else store.state_at(row.id, step, row=row)
    return json.dumps(
        {
            "game": row.id,
            "step": step,
            "last_step": row.event_count,
            "state": boards.rules(row.kind).state_json(state),
        },
        separators=(",", ":"),
    )


@bp.route("/games/<game_id>/check")
def check(game_id: str) -> Response:
    """``?step=N&move=TEXT``: is the move legal after step N?"""
    tl = params.timeline(get_store(), game_id)
    n = params.step_value(request.args.get("step"), tl)
    move = (request.args.get("move") or "").strip()
    if not move:
        abort(400, description="parameter 'move': a move in notation is required")
    limit = int(current_app.config["MAX_MOVE_LENGTH"])
    if len(move) > limit:
        abort(400, description=f"parameter 'move': at most {limit} characters")
    verdict = check_text(tl.rules, tl.state(n), move)
    return jsonify({"game": tl.row.id, "step": n, **verdict.to_dict()})
