"""The review's keyed forms on the site (docs/review.md): saving a what-if line into the
game's review and withdrawing a saved line, with the game's recorder key or its review key
(``tablelog key GAME --review``), by a named author.

Like the site's other keyed forms (the void form, the logging page's), each carries
flask-wtf's CSRF token, and answers a success with a redirect (``303``) and a refusal with
a page that says why and links back.  The key is typed into the form each time (a browser
that holds the game for logging needs none: its session was unlocked with the recorder
key): the session keeps no review key, so a review key, which may write nothing but the
review, is never remembered by a cookie.  The forms are drawn on the pages of what-if
lines only, which are never cached, so the replay's cached pages carry no token.

The writes go through :func:`web.writes.write_review`, the API's own: the same checks,
and ``expect`` (the review's length when the page was drawn) makes a form posted after
another reviewer wrote a ``409`` that writes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from engine.review import MARKS

from . import auth, params, whatif, writes
from .db import get_store
from .site import moves_base
from .summary import game_summary

bp = Blueprint("review", __name__)


@bp.route("/games/<game_id>/review/lines", methods=["POST"])
def save_line(game_id: str) -> Any:
    """Save the what-if line of the form (``from``, its decisions as ``line`` fields)
    into the review, by ``by``; then the line's page, which says it is saved."""
    store = get_store()
    row = params.game_row(store, game_id)
    start = _number("from")
    moves = [m for m in request.form.getlist("line") if m.strip()]
    back = whatif.address(moves_base(params.timeline_for(store, row)), start, moves)
    refused = _unkeyed(row.id, back)
    if refused is not None:
        return refused
    part = {"from": str(start), "moves": moves}
    try:
        writes.write_review(row.id, "line", part, request.form.get("by", ""), _number("expect"))
    except writes.WriteError as err:
        return _refused(err, back)
    return redirect(back + "#play", code=303)


@bp.route("/games/<game_id>/review/withdraw", methods=["POST"])
def withdraw(game_id: str) -> Any:
    """Withdraw saved line ``line`` (it stays in the review's history); then the step it
    went from."""
    store = get_store()
    row = params.game_row(store, game_id)
    number = _number("line")
    back = url_for("site.step", game_id=row.id, step=_number("from"))
    refused = _unkeyed(row.id, back)
    if refused is not None:
        return refused
    try:
        writes.write_review(
            row.id, "withdraw", number, request.form.get("by", ""), _number("expect")
        )
    except writes.WriteError as err:
        return _refused(err, back)
    return redirect(back + "#play", code=303)


def _number(name: str) -> int:
    raw = (request.form.get(name) or "").strip()
    if not raw.isdigit() or len(raw) > 9:
        abort(400, description=f"{name}: expected a number, got {raw[:20]!r}")
    return int(raw)


def _unkeyed(game_id: str, back: str) -> tuple[str, int] | None:
    """403's page unless the form's ``key`` is the game's recorder or review key, or (no
    key typed) this browser's session holds the game for logging."""
    key = (request.form.get("key") or "").strip()
    store = get_store()
    if key:
        if len(key) <= 200 and (
            store.keys.matches(game_id, key) or store.keys.matches(game_id, key, review=True)
        ):
            return None
    elif auth.session_standing(game_id) == "held":
        return None
    message = (
        "That is neither this game's recorder key nor its review key."
        if key
        else "Writing the review needs the game's recorder key or its review key."
    )
    return _page(403, "Forbidden", message, back)


def _refused(err: writes.WriteError, back: str) -> tuple[str, int]:
    title = str(err.body["error"]["title"])
    # the reader's own place ("<move>:1:1: ") means nothing on a page
    return _page(err.status, title, whatif.SOURCE.sub("", err.message), back)


def _page(status: int, title: str, message: str, back: str) -> tuple[str, int]:
    page = render_template(
        "error.html", status=status, title=title, message=message, back=back, back_label="Back"
    )
    return page, status


# --- the review page: the move list with the saved lines as a tree, marks and notes ---


@bp.route("/games/<game_id>/review")
def page(game_id: str) -> Any:
    """The game's move list with its saved lines as a tree under the decision each
    replaces (nested lines under theirs), every step linked to its address, each step's
    mark and notes; ``?marked=1`` lists the marked steps only; and the form that marks a
    step (``?at=ADDRESS`` fills it in).  Never cached: it reads the review."""
    store = get_store()
    row = params.game_row(store, game_id)
    tl = params.timeline_for(store, row)
    review = whatif.standing(tl)
    if review is None:
        abort(
            409, description=f"game {row.id}: its review cannot be shown: tablelog verify says why"
        )
    base = moves_base(tl)
    tree = whatif.review_tree(tl, review, base)
    at = (request.args.get("at") or "").strip()[:40]
    return render_template(
        "review.html",
        game=game_summary(tl.row),
        tree=tree,
        marked=[s for s in _all_steps(tree) if s["mark"] or s["notes"]],
        only_marked=request.args.get("marked") == "1",
        length=review.length,
        at=at,
        marks=MARKS,
        base=base,
    )


@bp.route("/games/<game_id>/review/marks", methods=["POST"])
def mark(game_id: str) -> Any:
    """Give a step (``at``: ``STEP`` or ``STEP/LINE.K``) a mark and/or a note, by ``by``;
    then the review page at that step."""
    store = get_store()
    row = params.game_row(store, game_id)
    at = (request.form.get("at") or "").strip()[:40]
    back = url_for("review.page", game_id=row.id, at=at)
    refused = _unkeyed(row.id, back)
    if refused is not None:
        return refused
    part = {
        "at": at,
        "mark": request.form.get("mark") or None,
        "note": (request.form.get("note") or "").strip() or None,
    }
    try:
        writes.write_review(row.id, "mark", part, request.form.get("by", ""), _number("expect"))
    except writes.WriteError as err:
        return _refused(err, back)
    return redirect(url_for("review.page", game_id=row.id) + f"#at-{whatif.anchor(at)}", code=303)


def _all_steps(tree: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for s in tree:
        out.append(s)
        for line in s["lines"]:
            out += _all_steps(line["steps"])
    return out
