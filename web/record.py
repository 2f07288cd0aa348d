"""The logging page: a game in progress logged from a phone held in one hand.

``GET /games/<id>/record`` draws the table as it stands with what is due, and a form for
one decision in notation (``move``, the steps so far as ``expect``) that works without
JavaScript; ``static/record.js`` builds the decision by tapping the table instead, from
the game's :meth:`engine.protocol.GameRules.choices` that travel with the page in a JSON
block, and posts the same form with ``fetch``.  ``POST /games/<id>/record`` logs the
decision and ``POST /games/<id>/record/undo`` takes the last one back (a correction
event), both through :mod:`web.writes`, the one write path the JSON API uses too; both
need this browser's session to hold the game (:func:`web.auth.may_write`) and a CSRF
token.  A browser that may not write gets a short form for the game's recorder key
(``POST /games/<id>/record/key``).

Answers to a form are pages (a success redirects to the page, ``303``); to a request that
accepts JSON (the script's), the JSON body of :mod:`web.writes` with the same status:
``201`` (``200`` for a move already stored under its ``id``), ``409`` (another phone
logged first, or the ``id`` is another move's), ``422`` (the verdict: rule and page),
``400`` (the column of the notation error), ``403`` (no right to write).
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import HTTPException

from engine.corrections import undo_takes

from . import auth, boards, params, whatif, writes
from .db import get_store
from .site import moves_base
from .summary import game_summary

bp = Blueprint("record", __name__)


@bp.after_request
def _private(response: Response) -> Response:
    """The logging pages carry a CSRF token and a game as it stands: never kept."""
    response.headers["Cache-Control"] = "no-store"
    return response


#: How many logged steps the page lists (what another phone may have logged meanwhile).
RECENT = 8


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException) -> Any:
    """The page's script asks for JSON: its errors (a missing CSRF token, a bad
    ``expect``) answer in JSON too, as the writes do; a browser's form gets the page."""
    status = exc.code or 500
    title, message = exc.name, exc.description or exc.name
    if _wants_json():
        return jsonify({"error": {"status": status, "title": title, "message": message}}), status
    return render_template("error.html", status=status, title=title, message=message), status


@bp.route("/games/<game_id>/record")
def page(game_id: str) -> Any:
    """The logging page, or the recorder-key form when this browser may not write."""
    row = params.game_row(get_store(), game_id)
    if not auth.may_write(row.id):
        replaced = auth.session_standing(row.id) == "replaced"
        return _key_page(row, 200, auth.REPLACED if replaced else "")
    return _page(row)


@bp.route("/games/<game_id>/step/<int:step>/taps")
def whatif_page(game_id: str, step: int) -> Any:
    """The logging page in its what-if mode (web.whatif): the table after the line of the
    address's ``line`` parameters from ``step``, built by taps as when logging, but each
    decision built is added to the line in the address instead of being posted to the
    store.  It writes nothing and needs no key."""
    store = get_store()
    row = params.game_row(store, game_id)
    tl = params.timeline_for(store, row)
    params.shown(tl, min(step, tl.last_step))
    base = moves_base(tl)
    wanted = [m.strip() for m in request.args.getlist("line") if m.strip()]
    line = whatif.read(tl, step, wanted, base)
    if line.texts != wanted:  # one address per step of a line, as the replay's
        return redirect(_taps_address(row.id, step, line.texts))
    return _page(row, line=line)


def _taps_address(game_id: str, step: int, texts: list[str]) -> str:
    query = whatif.query(texts)
    address = url_for("record.whatif_page", game_id=game_id, step=step)
    return f"{address}?{query}" if query else address


@bp.route("/games/<game_id>/record", methods=["POST"])
def log_move(game_id: str) -> Any:
    """Log one decision: form fields ``move``, ``expect``, ``as_played`` and ``id`` (the
    phone's own id for the move, as the JSON API's: sent again after a lost answer, it is
    answered ``200`` with the move as stored, never written twice)."""
    row = params.game_row(get_store(), game_id)
    if not auth.may_write(row.id):
        return _refused_writer(row)
    move = (request.form.get("move") or "").strip()
    limit = int(current_app.config["MAX_MOVE_LENGTH"])
    if not move or len(move) > limit:
        why = (
            "move: write one decision in notation"
            if not move
            else f"move: at most {limit} characters"
        )
        return _failed(row, writes.WriteError(400, "No move", why), move[:limit])
    expect = _expect()
    as_played = request.form.get("as_played", "") not in ("", "0", "false", "off")
    move_id = request.form.get("id") or None
    if move_id is not None and not writes.MOVE_ID_RE.fullmatch(move_id):
        abort(400, description=writes.MOVE_ID_RULE)
    try:
        body = writes.append_move(row.id, move, expect, as_played, move_id)
    except writes.WriteError as err:
        return _failed(row, err, move)
    return _done(row, body)


@bp.route("/games/<game_id>/record/undo", methods=["GET"])
def undo_page(game_id: str) -> Any:
    """Without JavaScript, the undo button leads here: what would be taken back, and the
    form that does it."""
    row = params.game_row(get_store(), game_id)
    if not auth.may_write(row.id):
        replaced = auth.session_standing(row.id) == "replaced"
        return _key_page(row, 200, auth.REPLACED if replaced else "")
    tl = params.timeline_for(get_store(), row)
    return render_template(
        "record/undo.html",
        game=game_summary(row),
        steps=tl.event_count,
        last=_last_decision(tl),
    )


@bp.route("/games/<game_id>/record/undo", methods=["POST"])
def undo(game_id: str) -> Any:
    """Take back what was entered last (a decision with what the table observed with it,
    or a card revealed on its own): a correction event; nothing is deleted."""
    row = params.game_row(get_store(), game_id)
    if not auth.may_write(row.id):
        return _refused_writer(row)
    try:
        body = writes.undo_move(row.id, _expect())
    except writes.WriteError as err:
        return _failed(row, err, "")
    return _done(row, body)


@bp.route("/games/<game_id>/record/void", methods=["GET"])
def void_page(game_id: str) -> Any:
    """Voiding a game started by mistake: what it does, and the form (with the key)."""
    row = params.game_row(get_store(), game_id)
    if not auth.may_write(row.id):
        replaced = auth.session_standing(row.id) == "replaced"
        return _key_page(row, 200, auth.REPLACED if replaced else "")
    return render_template("record/void.html", game=game_summary(row), message="")


@bp.route("/games/<game_id>/record/void", methods=["POST"])
def void(game_id: str) -> Any:
    """Void the game (``reason``): kept as recorded, left out of the lists, nothing more
    logged to it; then its replay, which says so."""
    row = params.game_row(get_store(), game_id)
    if not auth.may_write(row.id):
        return _refused_writer(row)
    reason = request.form.get("reason", "")
    try:
        writes.void_game(row.id, reason)
    except writes.WriteError as err:
        page = render_template("record/void.html", game=game_summary(row), message=err.message)
        return page, err.status
    return redirect(url_for("site.game", game_id=row.id), code=303)


@bp.route("/games/<game_id>/record/key", methods=["POST"])
def key(game_id: str) -> Any:
    """The recorder key typed in (or read from the link's ``#key=`` by the page's
    script): this browser may then write the game."""
    row = params.game_row(get_store(), game_id)
    given = (request.form.get("key") or "").strip()
    if not given or len(given) > 200 or not auth.unlock(row.id, given):
        return _key_page(row, 403, "That is not this game's recorder key.")
    return redirect(url_for("record.page", game_id=row.id), code=303)


# --- answers ---------------------------------------------------------------------------


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json"


def _expect() -> int | None:
    raw = (request.form.get("expect") or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        abort(400, description=f"expect: expected the number of steps logged, got {raw[:20]!r}")
    return int(raw)


def _done(row: Any, body: dict[str, Any]) -> Any:
    if _wants_json():
        return jsonify(body), 200 if body.get("already_stored") else 201
    return redirect(url_for("record.page", game_id=row.id), code=303)


def _failed(row: Any, err: Any, move: str) -> Any:
    """A refused write: its JSON, or the page again with the refusal beside the form."""
    if _wants_json():
        return jsonify(err.body), err.status
    fresh = get_store().game(row.id)
    return _page(fresh, refusal=_refusal(err), move=move), err.status


def _refused_writer(row: Any) -> Any:
    message = _locked_message(row)
    if _wants_json():
        return jsonify({"error": {"status": 403, "title": "Forbidden", "message": message}}), 403
    return _key_page(row, 403, message)


def _refusal(err: Any) -> dict[str, Any]:
    """What the page says of a refused write (the fields of :mod:`web.writes`' body)."""
    body = err.body or {}
    error = body.get("error") or {}
    verdict = body.get("verdict") or error.get("verdict") or {}
    return {
        "status": err.status,
        "title": error.get("title") or "Refused",
        "message": error.get("message") or "",
        "violations": verdict.get("violations") or [],
        "column": body.get("column", error.get("column")),
        "step": body.get("step", error.get("step")),
        "completions": body.get("completions") or [],
        "as_played": bool(body.get("as_played")),
    }


def _locked_message(row: Any) -> str:
    """Why this browser may not log the game: its session's key was replaced, or it
    holds none."""
    if auth.session_standing(row.id) == "replaced":
        return auth.REPLACED
    return "This browser may not log this game: open the recorder link or enter the key."


def _key_page(row: Any, status: int, message: str = "") -> Any:
    return render_template("record/key.html", game=game_summary(row), message=message), status


# --- the page --------------------------------------------------------------------------


def _last_decision(tl: Any) -> dict[str, Any] | None:
    """What an undo takes back (:func:`engine.corrections.undo_takes`): its first step and
    text, the other steps going with it, and ``says``, the sentence that tells it; None
    when only the setup stands."""
    taken = undo_takes(tl.rules, [e.event for e in tl.entries], tl.apart)
    if not taken:
        return None
    first = tl.entries[taken[0] - 1]
    rest = [tl.entries[step - 1].text for step in taken[1:]]
    if rest:
        says = f"step {first.step}, {first.text}, with {', '.join(rest)} logged with it"
    elif tl.rules.is_observation(first.event):
        says = f"step {first.step}, {first.text}, entered on its own (what came before stays)"
    else:
        says = f"step {first.step}, {first.text}"
    return {"step": first.step, "text": first.text, "steps": taken, "says": says}


def _recent(tl: Any) -> list[dict[str, Any]]:
    """The last steps logged, newest last (the setup left out)."""
    out = []
    for entry in tl.entries[-RECENT:]:
        if entry.setup:
            continue
        who = tl.names[entry.actor] if entry.actor is not None else ""
        out.append(
            {
                "step": entry.step,
                "text": entry.text,
                "who": who,
                "flagged": entry.played_illegally,
                "retracted": entry.retracted,
            }
        )
    return out


def _picked(widgets: Any, choices: list[Any], observations: list[Any]) -> list[Any]:
    """The decisions a pick list offers (the game's ``pick`` groups: a card turned face
    up) and what the table may observe (a blind reserve shown): each names a card last."""
    groups = set((widgets.get("pick") or {}).get("groups") or ())
    return [*(c for c in choices if c.group in groups), *observations]


def _printed(rules: Any, picked: list[Any]) -> dict[str, str]:
    """What is printed on each card a pick list may name, for the page's searchable list
    (``L1 green 1pt cost W1 B1``)."""
    wanted = {t for c in picked for t in c.targets}
    if not wanted:
        return {}
    cards = rules.cards()
    return {cid: cards[cid].words for cid in sorted(wanted) if cid in cards}


def _page(
    row: Any,
    refusal: dict[str, Any] | None = None,
    move: str = "",
    line: whatif.WhatIf | None = None,
) -> str:
    """The logging page of the game as it stands; at the end of the what-if ``line``
    when one is given (its what-if mode: no key, no queue, no undo; see
    :func:`whatif_page`)."""
    store = get_store()
    tl = params.timeline_for(store, row)
    rules = tl.rules
    state = tl.state(tl.last_step) if line is None else line.state(len(line))
    status = rules.status(state)
    kind = row.kind
    widgets = boards.widgets(kind)
    # tapping needs the game's table for the page and its widgets' data
    taps = bool(widgets) and boards.template(kind, "record.html") is not None
    choices = rules.choices(state) if status.phase == "playing" else []
    observations = rules.observations(state) if status.phase == "playing" else []
    steps = tl.event_count if line is None else line.start + len(line)
    game_url = url_for("record.page", game_id=row.id)
    view = rules.view(state)
    # the pieces a decision draws from (the game's ``draw`` widget), as the view lists them
    pool_key = (widgets.get("draw") or {}).get("pool")
    pool = view.get(pool_key) if pool_key else None
    # The cards a pick list shows (the one turned face up, a blind reserve shown), for
    # the page to draw as the table shows them and the script to put beside their words.
    picked = _picked(widgets, choices, observations)
    data = {
        "game": row.id,
        "kind": kind,
        "steps": steps,
        "phase": status.phase,
        "to_move": status.to_move,
        "due": status.due,
        "choices": [c.to_dict() for c in choices],
        "observations": [c.to_dict() for c in observations],
        "recent": _recent(tl),
        "last": _last_decision(tl),
        "page": game_url,
        "post": game_url,
        "undo": url_for("record.undo", game_id=row.id),
        "find": url_for("newgame.find_cards", kind=kind),
        # the rules' verdict on a piece tapped that is not lit (the move it would make)
        "check": url_for("api.check", game_id=row.id),
        "taps": taps,
        "cards": _printed(rules, picked),
        "pool": pool if isinstance(pool, list) else [],
        "widgets": widgets,
    }
    what_if = None
    if line is not None:
        # what record.js does with a decision built: go to the line one decision longer
        # (its address, the query this one has); nothing is posted, nothing is checked
        # against the record's steps (the rules' verdict comes with the next page)
        base = moves_base(tl)
        what_if = {
            "start": line.start,
            "texts": line.texts,
            "taps": url_for("record.whatif_page", game_id=row.id, step=line.start),
            "query": whatif.query(line.texts),
            "replay": whatif.address(base, line.start, line.texts),
        }
        happened = whatif.as_it_happened(tl, line)
        if happened is not None:  # what the table saw next, while it still can be seen
            what_if["happened"] = {
                "text": happened,
                "href": _taps_address(row.id, line.start, [*line.texts, happened]),
            }
        data.update({"whatif": what_if, "recent": [], "last": None, "post": None, "undo": None})
        data["check"] = None
    known = rules.cards()
    pictures = {
        cid: rules.card_view(cid)
        for cid in sorted({c.targets[-1] for c in picked if c.targets})
        if cid in known
    }
    return render_template(
        "record/page.html",
        pictures=pictures,
        game=game_summary(row),
        title=rules.title,
        status=status,
        steps=steps,
        view=view,
        game_kind=kind,
        pieces=boards.pieces(kind),
        taps=taps,
        choices=choices,
        data=data,
        recent=data["recent"],
        last=data["last"],
        refusal=refusal,
        move=move,
        whatif=what_if,
    )
