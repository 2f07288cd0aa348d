"""The pages: the games list, the replay of a game step by step, "Is this legal here?"."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from recorder import chain
from recorder.listing import DEFAULT_ORDER
from recorder.stats import club_stats

from . import analysis, boards, params, whatif
from .cache import cached_answer
from .db import Turns, get_store, off_loop, paced
from .images import svg_to_png
from .listing import list_page
from .move_list import step_links, turn_groups, turn_steps
from .plots import WIDTH as PLOT_WIDTH
from .plots import chance_chart, stats_charts
from .summary import ORDER_LABELS, RESULT_FILTERS, RESULT_LABELS, game_summary, kind_labels
from .timeline import Entry, Timeline
from .verdict import check_text

bp = Blueprint("site", __name__)


@bp.route("/")
@paced
def games() -> Response | str:
    """The games list, newest first, with its player, result and game filters and orders;
    filtered by a player, what their games add up to.  A page is found by its place (see
    :mod:`web.listing`): the first and the five-thousandth cost the same."""
    page = list_page("site.games", per_page_always=False)
    if isinstance(page, Response):
        return page
    f = page.filters
    store = get_store()
    stats, many = None, False
    if f["player"]:
        # (their statistics read each of their games: shown here for a player with a
        # bounded number of them, and on the player's own page in any case)
        bound = int(current_app.config["LIST_STATS_AT_MOST"])
        many = store.listing.count(player=f["player"], at_most=bound) > bound
        stats = None if many else store.listing.player_stats(f["player"])
    return render_template(
        "games.html",
        games=Turns(game_summary(r) for r in page.games),
        total=page.total,
        at_most=page.at_most,
        player=f["player"] or "",
        result=f["result"] or "",
        kind=f["kind"] or "",
        kinds=kind_labels(),
        order=f["order"] or DEFAULT_ORDER,
        orders=ORDER_LABELS,
        stats=stats,
        many=many and int(current_app.config["LIST_STATS_AT_MOST"]),
        results=[(r, RESULT_LABELS[r]) for r in RESULT_FILTERS],
        links=page.links,
        all=f["all"],
    )


@bp.route("/players/<name>")
def player(name: str) -> str:
    """What a player's games add up to: games, wins by how they were won, length."""
    if len(name) > 100:
        abort(400, description="a player's name has at most 100 characters")
    stats = get_store().listing.player_stats(name)
    if stats is None:
        abort(404, description=f"no game with a player called {name!r}")
    return render_template("player.html", stats=stats, conditions=boards.conditions())


@bp.route("/stats")
def stats() -> str:
    """What the finished games say (:func:`recorder.stats.club_stats`), of a player and a
    game when asked, with its charts drawn here (SVG, no script needed)."""
    f = params.list_filters()
    figures = club_figures(f["player"], f["kind"])
    words = dict(boards.conditions())
    return render_template(
        "stats.html",
        stats=figures,
        charts=stats_charts(figures, words),
        width=PLOT_WIDTH,
        conditions=words,
        player=f["player"] or "",
        kind=f["kind"] or "",
        kinds=kind_labels(),
    )


@off_loop
def club_figures(player: str | None, kind: str | None) -> dict[str, Any]:
    """The statistics of the page and the API (on a thread of its own in a gevent
    worker: the first look at a large store folds every game it has not seen, and the
    worker's other connections go on meanwhile)."""
    return club_stats(get_store(), player=player, kind=kind)


@bp.route("/games")
def games_address() -> Response:
    """``/games`` is the games list, at ``/`` (its filters kept)."""
    query = request.query_string.decode("ascii", "replace")
    return redirect(url_for("site.games") + (f"?{query}" if query else ""), code=301)


@bp.route("/games/<game_id>")
def game(game_id: str) -> Response:
    """A game's address leads to its last step (the position as it stands)."""
    row = params.game_row(get_store(), game_id)
    return redirect(url_for("site.step", game_id=row.id, step=row.event_count))


@bp.route("/games/<game_id>/goto")
def goto(game_id: str) -> Response:
    """The step slider's form without JavaScript: ``?step=N`` redirects to step N."""
    row = params.game_row(get_store(), game_id)
    step = params.step_number(request.args.get("step"), row.id, row.event_count)
    return redirect(url_for("site.step", game_id=row.id, step=step))


@bp.route("/games/<game_id>/step/<step>")
def step(game_id: str, step: str) -> Response | str:
    """The replay of ``game_id`` after ``step`` events (0: before the set-up).  Without a
    move to check, the page is the same for everyone until the game grows: it is kept
    rendered and carries an ``ETag`` (see :mod:`web.cache`)."""
    store = get_store()
    row = params.game_row(store, game_id)
    if not step.isdigit():
        abort(400, description=f"step: expected a step number, got {step[:40]!r}")
    _line_start(row, step)
    n = params.step_number(step, row.id, row.event_count)
    shown = params.timeline_for(store, row).last_step
    if n > shown:  # the record was altered there: the steps before it are shown
        return redirect(url_for("site.step", game_id=row.id, step=shown))
    moves = request.args.getlist("line")
    if moves:
        return _line_page(store, row, n, moves)
    move = _move_arg()
    if move is None:
        # the page names its picture by absolute address (og:image): kept per host; it
        # draws the game's analysis once there is one
        # (and its review's length: a page with a review draws it in its move list)
        what = f"page {request.host_url} {'analysed' if analysis.shown(row) else ''}"
        what += f" review {row.review_length}" if row.review_length else ""
        return cached_answer(what, row, n, lambda: (_replay_page(store, row, n, None), HTML))
    return _replay_page(store, row, n, move)


HTML = "text/html"
SVG = "image/svg+xml"
PNG = "image/png"


@bp.route("/games/<game_id>/step/<step>.svg")
def step_svg(game_id: str, step: str) -> Response:
    """A picture of the position after ``step`` events, as SVG (see
    :meth:`engine.protocol.GameRules.picture`); cached and validated like the page."""
    store = get_store()
    row, n = _picture_step(store, game_id, step)
    moves = [m.strip() for m in request.args.getlist("line") if m.strip()]
    if moves:  # a what-if line's step (web.whatif): drawn each time, as its page
        tl = params.timeline_for(store, row)
        params.shown(tl, n)
        line = whatif.read(tl, n, moves, moves_base(tl))
        return Response(whatif.picture(tl, line), content_type=SVG)
    return cached_answer("svg", row, n, lambda: (_picture(store, row, n), SVG))


@bp.route("/games/<game_id>/step/<step>.png")
def step_png(game_id: str, step: str) -> Response:
    """The same picture as PNG (what a chat shows for a pasted link: the page's
    ``og:image``)."""
    store = get_store()
    row, n = _picture_step(store, game_id, step)
    moves = [m.strip() for m in request.args.getlist("line") if m.strip()]
    if moves:  # a what-if line's step, as its .svg (a shared line's page names it)
        tl = params.timeline_for(store, row)
        params.shown(tl, n)
        line = whatif.read(tl, n, moves, moves_base(tl))
        return Response(svg_to_png(whatif.picture(tl, line)), content_type=PNG)
    return cached_answer("png", row, n, lambda: (svg_to_png(_picture(store, row, n)), PNG))


def _line_start(row: Any, step: str) -> None:
    """A what-if line's address names the step it goes from: one the game does not have
    is a 400 that says so, as for the line's decisions (web.whatif)."""
    if request.args.getlist("line") and (len(step) > 9 or int(step) > row.event_count):
        raise whatif.LineRefused(
            f"a line goes from a step of the game: it has steps 0 to {row.event_count},"
            f" not {step[:20]}"
        )


def _move_arg() -> str | None:
    """The "Is this legal here?" form's move (400 past the length limit)."""
    move = request.args.get("move")
    if move is None:
        return None
    move = move.strip()
    limit = int(current_app.config["MAX_MOVE_LENGTH"])
    if len(move) > limit:
        abort(400, description=f"parameter 'move': at most {limit} characters")
    return move


def _line_page(store: Any, row: Any, n: int, moves: list[str]) -> Response | str:
    """The replay page at the end of a what-if line from step ``n`` (web.whatif): never
    cached (an address holds any line), and read from the folded game alone, so that a
    line costs no store read beyond the page's own."""
    tl = params.timeline_for(store, row)
    base = moves_base(tl)
    wanted = [m.strip() for m in moves if m.strip()]
    if not wanted:
        return redirect(f"{base}{n}")
    try:
        line = whatif.read(tl, n, wanted, base)
    except whatif.LineRefused as err:
        if err.move != len(wanted):
            raise  # an address with a refused decision inside: its 400 page
        # the decision just typed is refused: the line before it, the refusal under the
        # form with the text kept to mend
        before = whatif.read(tl, n, wanted[:-1], base) if len(wanted) > 1 else None
        refused = {"text": wanted[-1], "message": str(err.description)}
        return Response(
            _replay_page(store, row, n, None, before, refused=refused), 400, mimetype=HTML
        )
    if line.texts != wanted:  # one canonical address per step of a line
        return redirect(whatif.address(base, n, line.texts))
    return _replay_page(store, row, n, _move_arg(), line)


def _picture_step(store: Any, game_id: str, step: str) -> tuple[Any, int]:
    """The game's row and the step a picture's address names (400, 404 as the page)."""
    row = params.game_row(store, game_id)
    if not step.isdigit():
        abort(400, description=f"step: expected a step number, got {step[:40]!r}")
    _line_start(row, step)
    return row, params.step_number(step, row.id, row.event_count)


def _picture(store: Any, row: Any, n: int) -> str:
    """The game's picture of step ``n``: its heading says the step and the decision
    that led there, as the move list writes it (409 past where the record was altered)."""
    tl = params.timeline_for(store, row)
    params.shown(tl, n)
    return tl.picture(n)


def _replay_page(
    store: Any,
    row: Any,
    n: int,
    move: str | None,
    line: whatif.WhatIf | None = None,
    *,
    refused: dict[str, str] | None = None,
) -> str:
    """The replay page at step ``n``; with the verdict on ``move`` when one is given; at
    the end of the what-if ``line`` from step ``n`` when one is given (web.whatif), with
    the decision ``refused`` after it (its text and why) under the form.  The page is
    the same for every game kind; the board and the content of each seat's panel are the
    game's own templates (``<kind>/table.html``, ``<kind>/player.html``: its web parts),
    drawing its view."""
    tl = params.timeline_for(store, row)
    rules = tl.rules
    entry: Entry | None
    if line:
        k = len(line)
        before, state = line.state(k - 1), line.state(k)
        entry = whatif.entry(tl, line, k)
        lines = list(rules.event_lines(before, entry.event, state))
    else:
        before, state = tl.states_around(n)
        entry = tl.entries[n - 1] if n > 0 else None
        lines = tl.step_lines(n, before, state) if entry and before else []
    kind = tl.row.kind
    reviewed = _review_steps(tl)
    return render_template(
        "replay.html",
        game=game_summary(tl.row),
        headers=_extra_headers(tl.row.headers or {}),
        step=n,
        first=first_step(tl),
        last=tl.last_step,
        entry=entry,
        lines=lines,
        status=rules.status(state),
        view=rules.view(state, before),
        game_kind=kind,
        moves=move_list_for(tl, n, review=reviewed),
        step_review=(reviewed or {}).get(n) if not line else None,
        links=_line_links(tl, line) if line else step_links_for(tl, n),
        base=moves_base(tl),
        line=_line_view(tl, line, state) if line else None,
        play=_play_view(tl, state, line, refused),
        verdict=check_text(rules, state, move) if move else None,
        move=move or "",
        head=tl.row.head,
        keyed_head=_keyed(tl.row.head),
        altered=tl.altered.where() if tl.altered else None,
        analysis=None if tl.altered else _analysis_view(tl.row, n),
    )


def _line_links(tl: Timeline, line: whatif.WhatIf) -> list[dict[str, Any]]:
    """The step links on a line's step: "first" leads back to the record's step the line
    goes from, "previous" to the line one decision shorter; there is no next (the line
    ends here: the form below plays on)."""
    n, texts = line.start, line.texts
    return step_links(
        {
            "first": f"{n}",
            "prev": f"{n}?{whatif.query(texts[:-1])}" if len(texts) > 1 else f"{n}",
        }
    )


def _line_view(tl: Timeline, line: whatif.WhatIf, state: Any) -> dict[str, Any]:
    """What the page says of the line it shows: where it goes from, its decisions each
    with its address (relative to the steps' base, as the move list's links), and the
    address of its picture."""
    base = moves_base(tl)
    return {
        "start": line.start,
        "steps": [
            {
                "k": k,
                "text": text,
                "href": whatif.address(base, line.start, line.texts[:k]),
            }
            for k, text in enumerate(line.texts, start=1)
        ],
        "texts": line.texts,
        "query": whatif.query(line.texts),
        "svg": f"{base}{line.start}.svg?{whatif.query(line.texts)}",
        "as_it_happened": _happened(tl, line, base),
        "decision": line.start + len(line),
        # a line replaces a decision of the record: one must follow its step
        "savable": 1 <= line.start < tl.last_step,
        **_review_view(tl, line),
    }


def _review_view(tl: Timeline, line: whatif.WhatIf) -> dict[str, Any]:
    """The review as the line's page needs it for its keyed forms: its length (what a
    form sends as ``expect``) and the saved line this one is, if it is one.  Read here
    only, on a what-if line's page (never cached): the record's pages read no review."""
    review = whatif.standing(tl)
    at = whatif.saved_address(review, line.start, line.texts)
    marks = review.standing_marks() if review is not None and at else {}
    return {
        "review_length": None if review is None else review.length,
        "saved": whatif.saved_as(review, line.start, line.texts),
        # the review's address of this step when a saved line holds it: it can be marked
        "at": at,
        "mark": marks.get(at or "") or {},
    }


def _happened(tl: Timeline, line: whatif.WhatIf, base: str) -> dict[str, str] | None:
    """The record's observation the line may take "as it happened", with its address."""
    text = whatif.as_it_happened(tl, line)
    if text is None:
        return None
    return {"text": text, "href": whatif.address(base, line.start, [*line.texts, text])}


def _play_view(
    tl: Timeline, state: Any, line: whatif.WhatIf | None, refused: dict[str, str] | None = None
) -> dict[str, Any]:
    """The "Play from here" form: whether it is open (a game going on), what is due (a
    decision, or an observation the last decision called for) and, on a what-if line,
    the legal decisions offered as completions.  The record's own step pages leave the
    completions out: listing every decision would cost each replay step as much again as
    drawing it, for a form most readers never open; its first decision leads to the
    line's page, which lists them."""
    status = tl.rules.status(state)
    going = status.result is None and tl.rules.progress(state)[0] == "playing"
    listed = going and (line is not None or refused is not None)
    return {
        "open": going,
        "legal": tl.rules.legal_move_texts(state) if listed else [],
        "due": status.due,
        "refused": refused,
    }


def _analysis_view(row: Any, n: int) -> dict[str, Any] | None:
    """What the step page draws of the game's kept analysis (None while there is none):
    the chart with step ``n`` marked, the step's chances and their margin, the turning
    points."""
    figures = analysis.shown(row)
    if figures is None or n >= len(figures["steps"]):
        return None
    return {
        "chart": chance_chart(figures, n),
        "here": figures["steps"][n],
        "points": figures["turning_points"],
        "playouts": figures["playouts_per_step"],
    }


def _keyed(head: str) -> str | None:
    """The head keyed with the server's chain key (HMAC), when it has one."""
    key = current_app.config.get("CHAIN_KEY")
    return chain.keyed(head, key) if key and head else None


SPOILERS = frozenset({"result", "victory", "winner", "termination"})


def _extra_headers(headers: dict[str, Any]) -> list[tuple[str, str]]:
    """Headers worth showing besides players and date (place, event, tags...)."""
    out = []
    for key in ("event", "place", "round"):
        value = headers.get(key)
        if isinstance(value, str | int) and str(value).strip():
            out.append((key, str(value)))
    tags = headers.get("tags")
    if isinstance(tags, dict):
        for key, value in sorted(tags.items()):
            # the result is told at the last step, not in the replay's heading
            if str(key).lower() not in SPOILERS:
                out.append((str(key), str(value)))
    return out


def _turn_starts(tl: Timeline) -> list[int]:
    """The first step of each turn, as the move list groups them."""
    starts = tl.memo.get("turn-starts")
    if starts is None:
        starts = tl.memo["turn-starts"] = [g[0].step for g in turn_groups(tl.entries)]
    return starts


def first_step(tl: Timeline) -> int:
    """The first step worth showing, where "First" (and Home) lead: the table as the
    setup laid it out (its last step; step 0 is an empty table), 0 for a game without
    any step."""
    setups = [e.step for e in tl.entries if e.setup]
    return setups[-1] if setups else min(1, tl.last_step)


def step_links_for(tl: Timeline, step: int) -> list[dict[str, Any]]:
    """The step links from ``step``; "first" leads to :func:`first_step`, "previous
    turn" and "next turn" to the first step of a turn, as the move list groups them."""
    prev_turn, next_turn = turn_steps(_turn_starts(tl), step, tl.last_step)
    last = tl.last_step
    first = first_step(tl)
    return step_links(
        {
            "first": first if step > first else None,
            "prev-turn": prev_turn,
            "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step < last else None,
            "next-turn": next_turn,
            "last": last if step < last else None,
        },
    )


def moves_base(tl: Timeline, endpoint: str = "site.step") -> str:
    """The address of the game's steps without the step number (the replay's, or those
    of another ``endpoint`` of a game's steps: the embedded replay's)."""
    base = tl.memo.get(("base", endpoint))
    if base is None:
        base = tl.memo[("base", endpoint)] = url_for(endpoint, game_id=tl.row.id, step=0)[:-1]
    return base


def _review_steps(tl: Timeline) -> dict[int, dict[str, Any]] | None:
    """The review by record step (its mark, notes and the saved lines in its place, as
    :func:`web.whatif.review_tree` has them) when the game's row says it has one (its
    length comes with the row: a game without a review costs no read here)."""
    if not tl.row.review_length or tl.altered is not None:
        return None
    review = whatif.standing(tl)
    if review is None:
        return None
    tree = whatif.review_tree(tl, review, moves_base(tl))
    return {int(s["at"]): s for s in tree if s["lines"] or s["mark"] or s["notes"]} or None


def move_list_for(
    tl: Timeline,
    step: int,
    endpoint: str = "site.step",
    review: dict[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The move list for ``templates/moves.html``: the turns before and after the one that
    holds ``step`` as the ``turn`` macro drew them, once per folded game (a turn is the
    same on every step's page), as two slices of the whole list drawn once; the turn that
    holds ``step`` the page draws again, with its step marked.  Its links lead to the
    steps of ``endpoint``.  With the game's ``review`` (by step: marks, notes, saved
    lines) the turns are drawn with it, for this page only (the page is kept rendered
    until the review or the record changes)."""
    names, base = tl.names, moves_base(tl, endpoint)
    memo = tl.memo.get(("moves", endpoint)) if review is None else None
    if memo is None:
        groups = turn_groups(tl.entries)
        macros: Any = current_app.jinja_env.get_template("moves.html").module
        drawn = [macros.turn(g, names, base, 0, review) for g in groups]
        starts = [0]
        for turn in drawn:
            starts.append(starts[-1] + len(turn) + 1)
        memo = (groups, macros.joined(drawn), starts)
        if review is None:
            tl.memo[("moves", endpoint)] = memo
    groups, joined, starts = memo
    at = bisect_right(_turn_starts(tl), step) - 1 if step else -1
    return {
        "before": joined[: starts[at] - 1] if at > 0 else "",
        "group": groups[at] if at >= 0 else None,
        "after": joined[starts[at + 1] :],
        "names": names,
        "base": base,
        "review": review,
    }
