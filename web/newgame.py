"""Starting a game from the site: the new-game page (``GET/POST /games/new``), the page
that shows the new game's recorder key once (the logging page, :mod:`web.record`, takes
the key from the recorder link or a form).

The form composes the game's notation (:mod:`web.setup_form`) and the game is created by
:func:`web.writes.create_game`, the one path that creates games (the JSON API's
``POST /api/games`` takes it too).  Creating is open on loopback and needs the server's
secret elsewhere (:func:`web.auth.may_create`); every form carries a CSRF token.

The recorder key travels only in a link's fragment (``/games/<id>/record#key=...``): a
browser never sends a fragment to a server, so it is in no request line, no log and no
Referer.  The page that shows it is not stored by any cache.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any

import segno
from flask import Blueprint, abort, render_template, request, session, url_for
from werkzeug.wrappers import Response

from . import auth, boards, params, picker, writes
from .db import get_store
from .picker import picker_groups
from .setup_form import SetupForm, kinds, slot_name, token_facts

bp = Blueprint("newgame", __name__)

#: The session remembers the last few forms it created a game from (a reload of the
#: key page, or a second tap, must not create the game twice).
SESSION_FORMS = "created_forms"
SESSION_FORMS_MAX = 8


def _kind(value: str | None) -> str:
    known = [k for k, _ in kinds()]
    kind = (value or "").strip() or known[0]
    if kind not in known:
        abort(400, description=f"kind: {kind[:40]!r} is not a game this page sets up")
    return kind


def _render_form(form: SetupForm, status: int = 200, may_create: bool = True) -> Any:
    rules = form.rules
    max_seats = rules.seats.maximum
    levels = [row.level or 0 for row in form.rows]
    groups = picker_groups(rules, levels)
    views = {c["id"]: c["view"] for g in groups for c in g["cards"]}
    rows = [
        {
            "row": row,
            "slots": [
                {
                    "name": slot_name(row, i),
                    "index": i,
                    "value": form.values.get(slot_name(row, i), ""),
                    "card": views.get(form.values.get(slot_name(row, i), "").strip()),
                }
                for i in range(1, row.needed(max_seats) + 1)
            ],
            "min_slots": row.needed(rules.seats.minimum),
        }
        for row in form.rows
    ]
    # the lines that are not cards: a text field each, or the game's setup widget
    lines = [
        {"line": line, "facts": token_facts(rules.kind, line.word) if line.tokens else None}
        for line in form.text_lines
    ]
    widget = boards.template(rules.kind, "setup.html")
    html = render_template(
        "newgame/new.html",
        form=form,
        values=form.values,
        errors=form.errors,
        kind=rules.kind,
        game_kind=rules.kind,
        title=rules.title,
        kinds=kinds(),
        seats=rules.seats,
        rows=rows,
        lines=lines,
        widget=widget,
        setup_view=_new_table(rules.kind) if widget else None,
        examples=(boards.widgets(rules.kind).get("setup") or {}).get("examples") or [],
        groups=groups,
        pieces=boards.pieces(rules.kind),
        note=rules.setup_note,
        ask_secret=not may_create,
    )
    return html, status


@functools.cache
def _new_table(kind: str) -> dict[str, Any]:
    """The view of a new table of ``kind``, for its setup widget (worked out once)."""
    rules = boards.rules(kind)
    return rules.view(rules.new_state())


@bp.route("/games/new", methods=["GET"])
def new() -> Any:
    """The new-game page for ``?kind=`` (the first game the form sets up by default)."""
    rules = boards.rules(_kind(request.args.get("kind")))
    form = SetupForm.blank(rules)
    form.values["form_id"] = secrets.token_urlsafe(12)
    return _render_form(form, may_create=auth.may_create())


@bp.route("/games/new", methods=["POST"])
def create() -> Any:
    """Create the game the form describes and show its recorder key; the form again,
    its values kept and each error beside its field, when something is wrong."""
    rules = boards.rules(_kind(request.form.get("kind")))
    form = SetupForm.read(rules, request.form.to_dict())
    form_id = (request.form.get("form_id") or "")[:64]
    created = session.get(SESSION_FORMS)
    created = dict(created) if isinstance(created, dict) else {}
    if form_id and form_id in created:
        return _already_created(str(created[form_id]))
    if not auth.may_create():
        given = bool(request.form.get("secret"))
        form.errors["secret"] = (
            "the server's secret is wrong" if given else "this server asks for its secret here"
        )
        return _render_form(form, 403, may_create=False)
    # the secret field comes back empty (a secret is never written into a page)
    local = auth.from_this_machine()
    notation = form.check()
    if notation is None:
        return _render_form(form, 422, may_create=local)
    try:
        made, _ = writes.create_game(notation)
    except writes.WriteError as err:
        body = err.body.get("error", {}) if isinstance(err.body, dict) else {}
        form.errors["form"] = str(body.get("message") or "the game could not be created")
        return _render_form(form, err.status if 400 <= err.status < 500 else 500, local)
    game_id = str(made["id"])
    auth.authorize(game_id, str(made["key"]))
    if form_id:
        created[form_id] = game_id
        session[SESSION_FORMS] = dict(list(created.items())[-SESSION_FORMS_MAX:])
    return _key_page(game_id, str(made["key"]), form)


def _already_created(game_id: str) -> Response:
    """The form was sent again (a reload of the key page): the game it created stands,
    and its key is not shown twice."""
    html = render_template(
        "newgame/created.html", game_id=game_id, record_url=_record_path(game_id)
    )
    response = Response(html, status=409, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def _record_path(game_id: str) -> str:
    return f"{request.script_root}/games/{game_id}/record"


def _key_page(game_id: str, key: str, form: SetupForm) -> Response:
    link = f"{request.host_url.rstrip('/')}{_record_path(game_id)}#key={key}"
    qr = segno.make(link, error="m")
    html = render_template(
        "newgame/key.html",
        game_id=game_id,
        names=form.names,
        title=form.rules.title,
        link=link,
        record_url=_record_path(game_id),
        qr=qr.svg_data_uri(scale=5, border=2, dark="#1d1b2e"),
        qr_size=qr.symbol_size(scale=5, border=2)[0],
        local_only=_is_loopback(request.host.rsplit(":", 1)[0].strip("[]")),
        host=request.host,
    )
    response = Response(html, status=201, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Location"] = url_for("site.game", game_id=game_id)
    return response


def _is_loopback(host: str) -> bool:
    return host == "localhost" or auth.is_loopback(host)


def _game(game_id: str) -> Any:
    return params.game_row(get_store(), game_id)


bp.add_url_rule("/cards/<kind>/find", "find_cards", picker.find_view)
