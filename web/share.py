"""Sharing a game: its animation (``/games/<id>.gif``), its notation as a text file
(``/games/<id>.tl``), a compact replay for other sites to frame (``/embed/<id>``), and
oEmbed discovery (``/oembed``), which turns a pasted link into that frame.

The embedded pages are the only ones another site may frame
(``Content-Security-Policy: frame-ancestors *``; see ``web.FRAMEABLE`` and
``web._finish``): every other page keeps refusing frames.  They read no session and set no
cookie.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from werkzeug.wrappers import Response

from engine.picture import svg_size
from recorder.io import export_notation
from recorder.places import where

from . import background, params
from .animation import RangeError, animation_args, step_range
from .cache import cached_answer
from .db import get_store
from .site import HTML, first_step, move_list_for, moves_base, step_links_for
from .summary import game_summary
from .timeline import Timeline

bp = Blueprint("share", __name__)

#: The embedded replay's size as the oEmbed answer and the snippet offer it: as wide as a
#: column of a club's page, as tall as the picture, the step bar and a few moves.
EMBED_WIDTH = 640
#: What the embedded page shows besides the picture (bar, words, moves), in pixels.
EMBED_EXTRA = 330
#: The narrowest frame worth offering (``maxwidth`` below it is refused).
EMBED_MIN_WIDTH = 280

#: The notation's media type.
NOTATION = "text/plain"


def init_app(app: Flask) -> None:
    """The folder animations are kept in (``DRAWINGS``): beside an SQLite file, else
    the app's instance folder; ``DRAWING_SLOTS`` drawings at most at once."""
    place = where(str(app.config["DATABASE"]))
    if isinstance(place, Path) and str(place) != ":memory:":
        default = place.with_name(place.name + ".drawings")
    else:
        default = Path(app.instance_path) / "drawings"
    app.config.setdefault("DRAWINGS", str(default))
    app.config.setdefault("DRAWING_SLOTS", 2)
    app.jinja_env.globals["embed_size"] = (EMBED_WIDTH, _embed_height(EMBED_WIDTH))


# --- the animation -----------------------------------------------------------------------


@bp.route("/games/<game_id>.gif")
def animation(game_id: str) -> Any:
    """The animated GIF of the game's steps ``from`` to ``to`` (the whole game by
    default): 200 with the GIF when it was drawn; else 202 while it is drawn in the
    background, with ``Retry-After`` and how far it got (``waiting`` while as many others
    as may be drawn at once are being drawn: asked again, it starts when one is done)."""
    store = get_store()
    row = params.game_row(store, game_id)
    tl = params.timeline_for(store, row)
    first = params.int_arg("from", None, minimum=0)
    last = params.int_arg("to", None, minimum=0)
    try:
        steps = step_range(first, last, tl.last_step)
    except RangeError as err:
        abort(400, description=f"parameter {err}")
    cfg = current_app.config
    drawing = background.ask(
        Path(cfg["DRAWINGS"]),
        background.ANIMATION,
        str(cfg["DATABASE"]),
        row.id,
        str(row.head),
        animation_args(steps),
        steps.frames,
        int(cfg["DRAWING_SLOTS"]),
    )
    if drawing.state == "ready":
        assert drawing.path is not None
        response = send_file(
            drawing.path,
            mimetype="image/gif",
            etag=drawing.path.stem,
            conditional=True,
            download_name=f"{row.id}-{steps.first}-{steps.last}.gif",
            max_age=None,
        )
        response.headers["Cache-Control"] = "no-cache"
        return response
    if drawing.state == "failed":
        abort(500, description=f"the animation could not be drawn: {drawing.message}")
    waiting = drawing.state == "waiting"
    # about a fifth of a second a frame, asked again at least each second
    wait = 3 if waiting else max(1, min(10, round((drawing.total - drawing.done) * 0.2)))
    answer = {
        # (the animation's own word for work under way)
        "state": "drawing" if drawing.state == "working" else drawing.state,
        "done": drawing.done,
        "total": drawing.total,
        "retry_after": wait,
        "url": request.full_path.rstrip("?"),
    }
    best = request.accept_mimetypes.best_match(["application/json", HTML])
    if best == HTML:
        body: Any = render_template("drawing.html", game=game_summary(row), **answer)
    else:
        body = jsonify(answer)
    return background.under_way(body, wait)


# --- the notation ------------------------------------------------------------------------


@bp.route("/games/<game_id>.tl")
def notation(game_id: str) -> Response:
    """The game in the text notation, as ``tablelog export`` writes it."""
    store = get_store()
    row = params.game_row(store, game_id)
    # kept by the review's length too: the export writes the review, which the record's
    # head (the game's version) does not follow
    reviewed = len(store.review_events(row.id))
    response = cached_answer(
        f"notation:{reviewed}", row, None, lambda: (export_notation(store, row.id), NOTATION)
    )
    response.headers["Content-Disposition"] = f'inline; filename="{row.id}.tl"'
    return response


# --- the embedded replay -----------------------------------------------------------------


@bp.route("/embed/<game_id>")
def embed_game(game_id: str) -> Response:
    """An embedded game opens where the games list opens it: a finished game at its
    set-up, a game in progress where it stands."""
    row = params.game_row(get_store(), game_id)
    return redirect(url_for("share.embed_step", game_id=row.id, step=_opening_step(row)))


def _opening_step(row: Any) -> int:
    if row.status == "finished":
        return 1 if row.event_count else 0
    return int(row.event_count)


@bp.route("/embed/<game_id>/step/<step>")
def embed_step(game_id: str, step: str) -> Response:
    """The compact replay of a game at ``step``, to be framed by another site: the
    picture, the step bar (buttons and keys), what the step did and the move list."""
    store = get_store()
    row = params.game_row(store, game_id)
    if not step.isdigit():
        abort(400, description=f"step: expected a step number, got {step[:40]!r}")
    n = params.step_number(step, row.id, row.event_count)
    tl = params.timeline_for(store, row)
    if n > tl.last_step:
        return redirect(url_for("share.embed_step", game_id=row.id, step=tl.last_step))
    return cached_answer("embed", row, n, lambda: (_embed_page(tl, n), HTML))


def _embed_page(tl: Timeline, n: int) -> str:
    before, state = tl.states_around(n)
    return render_template(
        "embed.html",
        game=game_summary(tl.row),
        step=n,
        first=first_step(tl),
        last=tl.last_step,
        heading=tl.heading(n),
        lines=tl.step_lines(n, before, state) if n > 0 and before is not None else [],
        status=tl.rules.status(state),
        links=step_links_for(tl, n),
        moves=move_list_for(tl, n, "share.embed_step"),
        base=moves_base(tl, "share.embed_step"),
    )


def embed_snippet(game_id: str, step: int | None, title: str, width: int = EMBED_WIDTH) -> str:
    """The ``<iframe>`` another site pastes to show the game (at ``step``; None: where
    ``/embed/<id>`` opens it), ``width`` pixels wide, as text (a template draws it)."""
    if step is None:
        src = url_for("share.embed_game", game_id=game_id, _external=True)
    else:
        src = url_for("share.embed_step", game_id=game_id, step=step, _external=True)
    frame = current_app.jinja_env.get_template("embed_snippet.html").module.frame  # type: ignore[attr-defined]
    return str(frame(src, width, _embed_height(width), title))


def _embed_height(width: int) -> int:
    """How tall the frame of ``width`` is: the picture (about 7 high for 8 wide) and the
    rest of the page."""
    return round(width * 7 / 8) + EMBED_EXTRA


# --- oEmbed ------------------------------------------------------------------------------

#: The addresses oEmbed answers for: a game, a step of its replay, their embedded pages.
_PAGE = re.compile(r"/(?:games|embed)/([A-Za-z0-9_-]{1,64})(?:/step/(\d{1,9}))?/?")


@bp.route("/oembed")
def oembed() -> Response:
    """oEmbed (https://oembed.com): for the address of a game or of a step of this
    site, the embedded replay as a ``rich`` answer (``html``: the ``<iframe>``).  Another
    site's address, or one that names no game, is a 404; a ``format`` other than JSON a
    501, as the specification says."""
    url = (request.args.get("url") or "").strip()
    if not url:
        abort(400, description="parameter 'url': the address of a game or of a step is required")
    fmt = (request.args.get("format") or "json").strip().lower()
    if fmt != "json":
        abort(501, description=f"parameter 'format': only json is offered, not {fmt[:20]!r}")
    maxwidth = params.int_arg("maxwidth", None, minimum=1, maximum=100_000)
    maxheight = params.int_arg("maxheight", None, minimum=1, maximum=100_000)
    parts = urlsplit(url[:2000])
    ours = urlsplit(request.host_url)
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != ours.netloc.lower():
        abort(404, description="parameter 'url': not an address of this site")
    path = parts.path
    root = request.script_root
    if root and path.startswith(root):
        path = path[len(root) :]
    page = _PAGE.fullmatch(path)
    if page is None:
        abort(404, description="parameter 'url': not the address of a game or of a step")
    store = get_store()
    row = params.game_row(store, page.group(1))
    step = None if page.group(2) is None else int(page.group(2))
    if step is not None and step > row.event_count:
        abort(404, description=f"game {row.id!r} has steps 0 to {row.event_count}, not {step}")
    width = EMBED_WIDTH if maxwidth is None else min(EMBED_WIDTH, maxwidth)
    if maxheight is not None:
        width = min(width, round((maxheight - EMBED_EXTRA) * 8 / 7))
    if width < EMBED_MIN_WIDTH:
        abort(404, description=f"the embedded replay needs at least {EMBED_MIN_WIDTH} pixels")
    summary = game_summary(row)
    shown = _opening_step(row) if step is None else step
    title = f"{' vs '.join(summary['names'])} · {summary['title']}"
    if step is not None:
        title += f" · step {step} of {row.event_count}"
    tl = params.timeline_for(store, row)
    params.shown(tl, shown)
    thumb_w, thumb_h = svg_size(tl.picture(shown))
    return jsonify(
        {
            "version": "1.0",
            "type": "rich",
            "title": title,
            "provider_name": "tablelog",
            "provider_url": request.host_url,
            "html": embed_snippet(row.id, step, title, width),
            "width": width,
            "height": _embed_height(width),
            "thumbnail_url": url_for("site.step_png", game_id=row.id, step=shown, _external=True),
            "thumbnail_width": thumb_w,
            "thumbnail_height": thumb_h,
        }
    )
