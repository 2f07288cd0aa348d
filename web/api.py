"""The JSON API: the games list, one game's headers and events, the state at a step, and
the legality check.  Errors are JSON too (``{"error": {"status", "title", "message"}}``)."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request, url_for
from werkzeug.wrappers import Response

from recorder import CorruptEvent

from . import auth, boards, params, writes
from .cache import cached_answer
from .db import Turns, get_store, paced
from .listing import list_page
from .site import club_figures
from .summary import game_summary
from .verdict import check_text

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
        "void": row.void,
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
@paced
def games() -> Response:
    """``?player=&result=&kind=&order=&per_page=&after=&before=&page=last``: a page of the
    games, newest first (or by ``order``: newest, oldest, activity, longest); ``next``
    and ``prev`` (and the ``Link`` header) lead to the pages either side.  An old
    ``page=N`` is sent on to the place of that page (see :mod:`web.listing`)."""
    page = list_page("api.games", per_page_always=True)
    if isinstance(page, Response):
        return page
    body: dict[str, Any] = {
        "games": [_game_json(r) for r in Turns(page.games)],
        "total": page.total,
    }
    if page.total is None:
        body["more_than"] = page.at_most
    body.update(
        per_page=page.filters["per_page"],
        next=page.links["next"],
        prev=page.links["prev"],
    )
    answer = jsonify(body)
    links = [
        f'<{request.host_url.rstrip("/")}{url}>; rel="{rel}"'
        for rel, url in page.links.items()
        if url is not None
    ]
    if links:
        answer.headers["Link"] = ", ".join(links)
    return answer


@bp.route("/stats")
def stats() -> Response:
    """``?player=&kind=``: what the finished games say, as ``tablelog stats --json``
    prints it (:func:`recorder.stats.club_stats`)."""
    f = params.list_filters()
    return jsonify(club_figures(f["player"], f["kind"]))


@bp.route("/games/<game_id>")
def game(game_id: str) -> Response:
    """A game's headers and its events, each with its meta."""
    store = get_store()
    row = params.game_row(store, game_id)
    return cached_answer("game-json", row, None, lambda: (_game_body(store, row), JSON))


def _game_body(store: Any, row: Any) -> str:
    out = _game_json(row)
    tl = params.timeline_for(store, row)
    if tl.altered is not None:
        # the events before the altered step; the facts of where and what
        out["altered"] = {
            "step": tl.altered.step,
            "reasons": list(tl.altered.reasons),
            "message": tl.altered.message(row.id),
        }
    out["events"] = [
        {
            "sequence": e.sequence,
            "event_id": e.event_id,
            "type": e.type,
            "payload": e.payload,
            "version": e.version,
            "recorded_at": _text(e.recorded_at),
            "meta": e.meta or {},
            "text": e.text,
        }
        for e in store.events(row.id, tl.last_step)
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
    if tl is None:
        try:
            # given the row, the store names the seats from its headers, as the site does
            state = store.state_at(row.id, step, row=row)
        except CorruptEvent:  # a record altered behind the store's back: its steps before
            tl = timelines.for_row(store, row)
    if tl is not None:
        params.shown(tl, step)
        state = tl.state(step)
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


# --- writing (the recorder key as a Bearer token; see web.auth and web.writes) -----------


def _json_object(allowed: dict[str, tuple[type, ...]], required: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, its fields checked: 400 naming the field (or the
    place in the body) otherwise; 413 past ``MAX_CONTENT_LENGTH``."""
    if request.mimetype != JSON:
        abort(415, description=f"send the body as {JSON}")
    raw = request.get_data(cache=False)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        abort(400, description=f"body: not UTF-8 (byte {err.start + 1})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        abort(400, description=f"body: not JSON: {err.msg} (line {err.lineno}, column {err.colno})")
    except (ValueError, RecursionError) as err:  # huge integers, deep nesting
        abort(400, description=f"body: not acceptable JSON: {str(err)[:120]}")
    if not isinstance(data, dict):
        abort(400, description="body: expected a JSON object")
    for name in data:
        if name not in allowed:
            abort(400, description=f"{name[:40]!r}: unknown field (known: {', '.join(allowed)})")
    for name in required:
        if name not in data:
            abort(400, description=f"{name}: required")
    for name, value in data.items():
        types = allowed[name]
        if value is not None and (
            not isinstance(value, types) or isinstance(value, bool) and bool not in types
        ):
            want = " or ".join(t.__name__ for t in types)
            abort(400, description=f"{name}: expected {want}")
    return data


def _expect(data: dict[str, Any]) -> int | None:
    expect = data.get("expect")
    if expect is not None and not 1 <= expect <= 10**9:
        abort(400, description="expect: the game's steps so far, a number from 1")
    return expect


#: An ``Idempotency-Key`` as the API takes it (a UUID or any random token).
RETRY_KEY_RE = re.compile(r"[\x21-\x7e]{8,200}")


def _written(call: Any, *args: Any) -> tuple[Response, int]:
    try:
        return jsonify(call(*args)), 201
    except writes.WriteError as err:
        return jsonify(err.body), err.status


@bp.route("/games", methods=["POST"])
def create() -> tuple[Response, int]:
    """``{"notation": "<headers and setup>"}``: a new game; 201 with its id and recorder
    key (shown only here).  With an ``Idempotency-Key`` header, the same request sent
    again answers 200 with the game the first one made (and a new key)."""
    auth.require_creator()
    retry_key = request.headers.get("Idempotency-Key")
    if retry_key is not None and not RETRY_KEY_RE.fullmatch(retry_key):
        abort(400, description="Idempotency-Key: 8 to 200 visible ASCII characters")
    data = _json_object({"notation": (str,)}, ("notation",))
    try:
        body, created = writes.create_game(data["notation"], retry_key)
    except writes.WriteError as err:
        return jsonify(err.body), err.status
    return jsonify(body), 201 if created else 200


@bp.route("/games/<game_id>/events", methods=["POST"])
def append(game_id: str) -> tuple[Response, int]:
    """``{"move": "<notation>", "expect": <steps so far>, "as_played": false, "id":
    "<the logger's own id>"}``: log what was played next; 201 with the steps now.  The
    same ``id`` sent again with the same move answers 200 with the move as stored
    (``already_stored``), not a second copy; 409 when the id is another move's."""
    params.game_row(get_store(), game_id)  # 404 before 401 for an unknown game
    auth.require_writer(game_id)
    data = _json_object(
        {"move": (str,), "expect": (int,), "as_played": (bool,), "id": (str,)}, ("move",)
    )
    move_id = data.get("id")
    if move_id is not None and not writes.MOVE_ID_RE.fullmatch(move_id):
        abort(400, description=writes.MOVE_ID_RULE)
    try:
        body = writes.append_move(
            game_id, data["move"], _expect(data), bool(data.get("as_played")), move_id
        )
    except writes.WriteError as err:
        return jsonify(err.body), err.status
    return jsonify(body), 200 if body["already_stored"] else 201


@bp.route("/games/<game_id>/undo", methods=["POST"])
def undo(game_id: str) -> tuple[Response, int]:
    """``{"expect": <steps so far>, "to": <step>}``: take back the last decision (or
    every step after ``to``) with a correction event."""
    params.game_row(get_store(), game_id)
    auth.require_writer(game_id)
    data = _json_object({"expect": (int,), "to": (int,)}, ())
    to = data.get("to")
    return _written(writes.undo_move, game_id, _expect(data), to)


# --- the review: lines saved after the game, marks and notes (recorder.review) ---------


@bp.route("/games/<game_id>/review")
def review(game_id: str) -> Response:
    """The game's review: its saved lines (withdrawn ones too, said so), the marks and
    notes of its steps, and every review event with its author and time.  Not cached by
    the game's head: a review does not change the record."""
    from recorder import review as rv

    store = get_store()
    params.game_row(store, game_id)
    try:
        game = rv.load(store, game_id)
    except rv.ReviewRefused as err:
        abort(409, description=f"game {game_id}: the review does not hold: {err}")
    return jsonify(
        {
            "game": game_id,
            **game.review.to_dict(),
            "events": [e.to_dict() for e in game.events],
        }
    )


def _review_writer(game_id: str) -> None:
    """The game's recorder key or its review key (``tablelog key GAME --review``), as a
    Bearer token: 401 without, 403 with another key.  (A review key logs no move: the
    events and undo routes take the recorder key only.)"""
    store = get_store()
    key = auth.bearer_key()
    if key is None:
        abort(
            401,
            description=f"game {game_id}: writing its review needs the game's recorder key"
            " or review key (Authorization: Bearer <key>)",
        )
    if not (store.keys.matches(game_id, key) or store.keys.matches(game_id, key, review=True)):
        abort(
            403,
            description=f"game {game_id}: that is neither this game's recorder key"
            " nor its review key",
        )


_REVIEW_FIELDS: dict[str, tuple[type, ...]] = {
    "expect": (int,),
    "by": (str,),
    "line": (dict,),
    "mark": (dict,),
    "withdraw": (int,),
}


@bp.route("/games/<game_id>/review", methods=["POST"])
def add_review(game_id: str) -> tuple[Response, int]:
    """``{"expect": <review events so far>, "by": "<name>", "line": {"from": STEP,
    "moves": [...]}}`` (or ``"mark": {"at": STEP, "mark": "!?", "note": "..."}``, or
    ``"withdraw": LINE``): add to the game's review; 201 with what was written.  409 when
    ``expect`` is stale; 422 for an illegal move of a line; 404 for a step that does not
    exist; nothing is written on a refusal."""
    params.game_row(get_store(), game_id)
    _review_writer(game_id)
    data = _json_object(_REVIEW_FIELDS, ("expect", "by"))
    given = [name for name in ("line", "mark", "withdraw") if data.get(name) is not None]
    if len(given) != 1:
        abort(400, description="one of line, mark or withdraw")
    expect = data["expect"]
    if not 0 <= expect <= 10**9:
        abort(400, description="expect: the review's events so far, a number from 0")
    try:
        body = writes.write_review(game_id, given[0], data[given[0]], data["by"], expect)
    except writes.WriteError as err:
        return jsonify(err.body), err.status
    return jsonify(body), 201
