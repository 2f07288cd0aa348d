"""Following a game live: ``GET /api/games/<id>/stream``, server-sent events.

On connect the stream sends every step after the one the client has (the
``Last-Event-ID`` header a browser sends when it reconnects; else ``?after=N``; else the
game's current step, so only what comes next), then each new step as it is stored::

    retry: 2000

    id: 12
    event: hello
    data: {"game": "...", "steps": 12, "after": 12, "url": "/games/.../step/12"}

    id: 13
    event: step
    data: {"step": 13, "steps": 13, "text": "take c1 c2 c3 =WBR", ...}

    : heartbeat

Each ``step`` event's ``data`` is one JSON object: ``step``, ``steps`` (the game's steps
when it was sent), ``text`` (the step's notation as the replay's move list writes it:
``rules.move_text``, or the wording of a correction), ``lines`` (what it changed, as the
step page says it), ``turn``, ``by`` (the player who decided it, or null), ``correction``
(an undo is a step too; ``back_to`` then names the step the game stands at again),
``flagged`` (recorded though illegal), ``status`` after it (``phase``, ``turn``,
``to_move`` (a seat), ``due``, ``result``: the same shape as the answers of the write
routes) and ``url``, the step's page.  The ``id`` of every event
is its step, so a browser that reconnects resumes after the last step it got.

A comment every 15 s keeps proxies from closing an idle stream; a stream lasts at most
5 minutes (the browser reconnects after ``retry`` with its ``Last-Event-ID``).  Once a game
is over the stream sends its last steps, then an ``end`` event, and closes; a client that
comes back with everything gets ``204 No Content``, which tells a browser to stop.

New steps are found in the store, whichever process logged them (:mod:`web.watch`).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    request,
    stream_with_context,
    url_for,
)

from recorder import open_store
from recorder.places import is_postgres

from . import params
from .db import get_store, thread_store
from .watch import PostgresListener, SqlitePoller, StepHub, hub_for

bp = Blueprint("live", __name__, url_prefix="/api")

#: Defaults of the app's settings (``create_app`` config).
DEFAULTS = {
    # the reconnection delay a browser is told, in ms
    "LIVE_RETRY_MS": 2000,
    # a comment this often keeps an idle stream open through proxies
    "LIVE_HEARTBEAT_SECONDS": 15.0,
    # how long one stream lasts before the browser is left to reconnect
    "LIVE_STREAM_SECONDS": 300.0,
    # how often the SQLite watcher looks for commits (the PostgreSQL one is told of them,
    # and looks this often for games newly followed)
    "LIVE_POLL_SECONDS": 0.1,
    # at most this many open streams per process (None: no cap); a server with a fixed
    # pool of threads (waitress) sets it so that streams leave threads for pages
    "LIVE_MAX_STREAMS": None,
}


def init_app(app: Flask) -> None:
    """Register the stream and its settings' defaults."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.register_blueprint(bp)


def hub() -> StepHub:
    """This process's hub for the current app (see :func:`web.watch.hub_for`)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    path = str(app.config["DATABASE"])
    interval = float(app.config["LIVE_POLL_SECONDS"])
    if is_postgres(path):
        return hub_for(app, lambda: PostgresListener(path, interval))
    return hub_for(app, lambda: SqlitePoller(path, interval))


@bp.route("/games/<game_id>/stream")
def stream(game_id: str) -> Response:
    """The game's steps after the client's, then each new one as it is stored."""
    store = get_store()
    row = params.game_row(store, game_id)
    after = _resume_point(row)
    if row.status == "finished" and after >= row.event_count:
        return Response(status=204)
    live = hub()
    cap = current_app.config["LIVE_MAX_STREAMS"]
    if cap is not None and live.streams >= int(cap):
        return _busy()
    cfg = current_app.config
    return Response(
        stream_with_context(
            _frames(
                live,
                row,
                after,
                retry_ms=int(cfg["LIVE_RETRY_MS"]),
                heartbeat=float(cfg["LIVE_HEARTBEAT_SECONDS"]),
                lifetime=float(cfg["LIVE_STREAM_SECONDS"]),
            )
        ),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _busy() -> Response:
    body = {
        "error": {
            "status": 503,
            "title": "Service Unavailable",
            "message": "too many live streams open on this server; try again shortly",
        }
    }
    response = jsonify(body)
    response.status_code = 503
    response.headers["Retry-After"] = "5"
    return response


def _resume_point(row: Any) -> int:
    """The step after which to send: ``Last-Event-ID``, else ``?after=``, else the
    game's current step.  400 for anything but a step number the game has."""
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        return _step_param("Last-Event-ID", header, row)
    raw = request.args.get("after")
    if raw is not None and raw.strip():
        return _step_param("after", raw, row)
    return int(row.event_count)


def _step_param(name: str, raw: str, row: Any) -> int:
    text = raw.strip()
    # (a number of more than 9 digits is no game's step; int() refuses 4,300 digits)
    if not text.isdigit() or len(text) > 9:
        abort(400, description=f"{name}: expected a step number, got {text[:40]!r}")
    step = int(text)
    if step > row.event_count:
        abort(
            400,
            description=f"{name}: game {row.id!r} has steps 0 to {row.event_count}, not {step}",
        )
    return step


def _frames(
    live: StepHub,
    row: Any,
    after: int,
    *,
    retry_ms: int,
    heartbeat: float,
    lifetime: float,
) -> Iterator[bytes]:
    """The stream's bytes: the hello, the steps after ``after``, then new steps as the
    hub reports them, a heartbeat when idle, until the game is over or the lifetime
    has passed."""
    deadline = time.monotonic() + lifetime
    with _stream_store() as store, live.watch(row.id):
        sent = after
        hello = {
            "game": row.id,
            "steps": row.event_count,
            "after": after,
            "url": url_for("site.step", game_id=row.id, step=row.event_count),
        }
        yield f"retry: {retry_ms}\n\n".encode() + _event(after, "hello", hello)
        wrote = time.monotonic()
        while True:
            if row.event_count > sent:
                tl = params.timeline_for(store, row)
                shown = min(row.event_count, tl.last_step)
                frames = [_step_frame(store, row, step) for step in range(sent + 1, shown + 1)]
                yield b"".join(frames)
                sent = shown
                wrote = time.monotonic()
                if tl.altered is not None:  # the record was changed: nothing more to follow
                    altered = tl.altered
                    facts = {
                        "step": altered.step,
                        "reasons": list(altered.reasons),
                        "message": altered.message(row.id),
                        "url": _step_url(row.id, sent),
                    }
                    yield _event(sent, "altered", facts)
                    return
            if row.status == "finished":
                yield _event(sent, "end", {"steps": sent, "url": _step_url(row.id, sent)})
                return
            now = time.monotonic()
            if now >= deadline:
                return
            if now - wrote >= heartbeat:
                yield b": heartbeat\n\n"
                wrote = now
            steps = live.wait(row.id, sent, min(wrote + heartbeat, deadline) - now)
            if steps is None:
                if live.closed:  # the server is stopping
                    return
                continue
            row = _row_with(store, row.id, steps)


@contextmanager
def _stream_store() -> Iterator[Any]:
    """The store a stream reads for its whole life: its thread's (``STORE_PER_THREAD``),
    else one of its own (the request's is closed once the view has returned)."""
    path = str(current_app.config["DATABASE"])
    if current_app.config.get("STORE_PER_THREAD") or is_postgres(path):
        yield thread_store(path)
        return
    store = open_store(path)
    try:
        yield store
    finally:
        store.close()


#: The last row read of each followed game in this process, by database: the streams of
#: a game wake together, and the first one's read serves the others.
_rows: dict[tuple[str, str], Any] = {}


def _row_with(store: Any, game_id: str, steps: int) -> Any:
    """The game's row as read since it had ``steps`` steps (read again if need be)."""
    key = (store.location, game_id)
    row = _rows.get(key)
    if row is None or row.event_count < steps:
        if len(_rows) >= 1024:
            _rows.clear()
        row = _rows[key] = store.game(game_id)
    return row


def _event(step: int, kind: str, data: dict[str, Any]) -> bytes:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {step}\nevent: {kind}\ndata: {body}\n\n".encode()


def _step_url(game_id: str, step: int) -> str:
    return url_for("site.step", game_id=game_id, step=step)


def _step_frame(store: Any, row: Any, step: int) -> bytes:
    """The ``step`` event of ``step``, made once per folded game and step, whichever
    stream asks first (every follower of a game in a process shares it)."""
    tl = params.timeline_for(store, row)
    memo: dict[Any, bytes] = tl.memo.setdefault("live-frames", {})
    key = (request.script_root, step)
    frame = memo.get(key)
    if frame is None:
        frame = memo[key] = _event(step, "step", step_data(tl, step))
    return frame


def step_data(tl: Any, step: int) -> dict[str, Any]:
    """What the stream says of step ``step`` (1 or more) of the folded game ``tl``: the
    same texts as its replay page (the move list's notation, the page's lines)."""
    rules = tl.rules
    entry = tl.entries[step - 1]
    before, state = tl.states_around(step)
    data: dict[str, Any] = {
        "step": step,
        "steps": tl.last_step,
        "text": entry.text,
        "lines": tl.step_lines(step, before, state),
        "turn": entry.turn,
        "by": tl.names[entry.actor] if entry.actor is not None else None,
        "correction": entry.correction,
        "flagged": entry.played_illegally,
    }
    if entry.correction:
        data["back_to"] = entry.event.back_to
    # the same shape as the write routes' answers (web.writes)
    data["status"] = dataclasses.asdict(rules.status(state))
    data["url"] = _step_url(tl.row.id, step)
    return data
