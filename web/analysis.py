"""A game's analysis on the site: who was ahead at each step and where the game turned.

The analysis is background work (:mod:`web.background`, kind :data:`ANALYSIS`): asked
for at ``/games/<id>/analysis`` (a page that shows its progress and asks again by itself)
or ``/api/games/<id>/analysis`` (``202`` with the progress, then the figures), done in a
process of its own at a low priority by :func:`recorder.analysis.analyse_game` (what
``tablelog analyse GAME --playouts N --json`` prints, with the same seed: the same figures)
with ``ANALYSIS_PLAYOUTS`` playouts for each figure, and kept by the game's chain head.  Once kept,
every step page of the game draws it (:func:`shown`): the chances over the game, the
turning points linked to their steps, and the step's own chances.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from recorder.lru import LRU

from . import background, params
from .db import get_store
from .summary import game_summary

bp = Blueprint("analysis", __name__)

#: How many parts the progress of an analysis is counted in (a percentage).
PARTS = 100
#: The seed of the site's analyses: ``tablelog analyse``'s default, so that the command
#: with the site's playouts gives the figures the site shows.
SEED = 0


def init_app(app: Any) -> None:
    """``ANALYSIS_PLAYOUTS``: the playouts each step's chances rest on."""
    app.config.setdefault("ANALYSIS_PLAYOUTS", 100)


def background_analysis(store: Any, game_id: str, args: list[str], progress: Any) -> bytes:
    """The analysis :func:`_args` asked for, done by the site's background process: each
    figure's playouts made whatever the time (no budget: the process is niced)."""
    import random

    from recorder.analysis import analyse_game

    (playouts,) = args
    share = {"chances": (0, 90)}

    def told(phase: str, done: int, total: int) -> None:
        start, width = share.get(phase, (90, 10))
        progress(start + (width * done // total if total else 0), PARTS)

    def never(share: float = 1.0) -> bool:
        return False

    figures = analyse_game(
        store,
        game_id,
        random.Random(SEED),
        stop_chances=never,
        stop_search=never,
        playouts=int(playouts.lstrip("p")),
        progress=told,
    )
    return json.dumps(figures, ensure_ascii=False, separators=(",", ":")).encode()


def _args() -> list[str]:
    return [f"p{int(current_app.config['ANALYSIS_PLAYOUTS'])}"]


def _ask(row: Any) -> background.Work:
    cfg = current_app.config
    return background.ask(
        Path(cfg["DRAWINGS"]),
        background.ANALYSIS,
        str(cfg["DATABASE"]),
        row.id,
        str(row.head),
        _args(),
        PARTS,
        int(cfg["DRAWING_SLOTS"]),
    )


def _kept(row: Any) -> Path:
    name = background.key(background.ANALYSIS, row.id, str(row.head), _args())
    return Path(current_app.config["DRAWINGS"]) / f"{name}{background.ANALYSIS.suffix}"


_read = LRU[Path, dict[str, Any]](64)


def shown(row: Any) -> dict[str, Any] | None:
    """The game's kept analysis (for its head), or None while there is none: read once
    and kept in memory (a step page draws it every time)."""
    path = _kept(row)
    found = _read.get(path)
    if found is None:
        try:
            found = dict(json.loads(path.read_text("utf-8")))
        except (OSError, ValueError, TypeError):
            return None
        _read.put(path, found)
    return found


@bp.route("/games/<game_id>/analysis")
def page(game_id: str) -> Any:
    """Start the game's analysis (or find it kept): its progress, on a page that asks
    again by itself; once done, the replay where the game turned most."""
    row = params.game_row(get_store(), game_id)
    work = _ask(row)
    if work.state == "ready":
        figures = shown(row)
        points = (figures or {}).get("turning_points") or []
        step = max(points, key=lambda p: p["loss"])["step"] if points else row.event_count
        return redirect(url_for("site.step", game_id=row.id, step=step) + "#analysis")
    if work.state == "failed":
        abort(500, description=f"the analysis could not be done: {work.message}")
    wait = 3 if work.state == "waiting" else 2
    body = render_template(
        "analysing.html",
        game=game_summary(row),
        state=work.state,
        done=work.done,
        total=work.total,
        retry_after=wait,
        playouts=int(current_app.config["ANALYSIS_PLAYOUTS"]),
    )
    return background.under_way(body, wait)


@bp.route("/api/games/<game_id>/analysis")
def api(game_id: str) -> Response:
    """The game's analysis as JSON (``tablelog analyse --json``'s figures, at the site's
    playouts a step); ``202`` with ``state``, ``done`` and ``total`` while it is done."""
    row = params.game_row(get_store(), game_id)
    work = _ask(row)
    if work.state == "ready":
        figures = shown(row)
        if figures is not None:
            return jsonify({"state": "ready", **figures})
    if work.state == "failed":
        abort(500, description=f"the analysis could not be done: {work.message}")
    wait = 3 if work.state == "waiting" else 2
    progress = {
        "state": work.state,
        "done": work.done,
        "total": work.total,
        "retry_after": wait,
        "url": request.full_path.rstrip("?"),
    }
    return background.under_way(jsonify(progress), wait)  # type: ignore[no-any-return]
