"""The replay site: a Flask app factory with its blueprints, the pages (``site``), the
JSON API (``api``), the new-game page (``newgame``), the logging page (``record``), the
live streams (``live``), sharing: animations, the embedded replay, oEmbed (``share``), a
game's analysis, worked out in the background (``analysis``), and the review's keyed forms
(``review``: saving a what-if line, withdrawing it).
Pages are rendered on the server and read without JavaScript; small static scripts add
the keyboard, the step slider and tapping.

Every game is reached through the registry (:mod:`web.boards`): the pages are the same for
every kind, and each kind draws its own board with its own web parts (the templates named
``<kind>/...``, the static files at ``/games-static/<kind>/``; ``docs/games.md``).  Every request
takes one path, Flask's; every answer leaves through one hook (:func:`_finish`) that adds
the security headers and answers a conditional GET with ``304 Not Modified``.

>>> app = create_app({"DATABASE": ":memory:", "TESTING": True})
>>> sorted(bp for bp in app.blueprints)
['analysis', 'api', 'live', 'newgame', 'record', 'review', 'share', 'site']
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, jsonify, render_template, request, url_for
from jinja2 import ChoiceLoader
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from engine.games import GAMES
from recorder import StoreError
from recorder.places import default_place

from . import db
from .cache import ResponseCache, code_token
from .timeline import TimelineCache

log = logging.getLogger("tablelog.web")

#: No inline script or style anywhere: scripts and styles come from /static only.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

#: Headers on every answer, errors included.
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    # no-referrer: a logger's page address never leaves in a Referer (see web.auth)
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)

#: The endpoints another site may frame: the embedded replay (web.share); every other
#: page refuses frames.
FRAMEABLE = frozenset({"share.embed_game", "share.embed_step"})

#: The embedded replay's headers (:data:`FRAMEABLE`): the same policy, except that any
#: site may frame it (and no X-Frame-Options, which would refuse it all the same).
FRAMEABLE_HEADERS = (
    (
        "Content-Security-Policy",
        CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors *"),
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the site.  ``DATABASE`` is the store, an SQLite file or a PostgreSQL URL
    (default: ``$TABLELOG_DB`` or ``./data/tablelog.db``); ``PER_PAGE`` the games per
    list page; ``TIMELINE_CACHE`` how many folded games to keep; ``RESPONSE_CACHE_BYTES``
    how many bytes of rendered steps (pages and state JSON) to keep; ``STORE_PER_THREAD``
    one connection per worker thread instead of one per request; ``TRUSTED_PROXIES`` how
    many reverse proxies stand in front, whose ``X-Forwarded-*`` headers are believed
    (``$TABLELOG_TRUSTED_PROXIES``, default 0)."""
    app = Flask(__name__)
    app.config.from_mapping(
        DATABASE=str(default_place()),
        PER_PAGE=25,
        MAX_PER_PAGE=100,
        # the games list counts its games up to this many, and says "more" past it (a
        # tenth of it for a player's games: each is read from the players' index)
        LIST_COUNT_AT_MOST=10_000,
        # a player's statistics above their games, for a player with at most this many
        # (each game is read; past it, a link to the player's page)
        LIST_STATS_AT_MOST=1_000,
        TIMELINE_CACHE=256,
        RESPONSE_CACHE_BYTES=32 * 1024 * 1024,
        STORE_PER_THREAD=False,
        MAX_MOVE_LENGTH=200,
        # the largest request body: a game's setup or a move is a few kilobytes at most
        MAX_CONTENT_LENGTH=64 * 1024,
        MAX_FORM_MEMORY_SIZE=64 * 1024,
        # a secret the heads shown are also keyed with (docs/integrity.md), or None
        CHAIN_KEY=os.environ.get("TABLELOG_CHAIN_KEY") or None,
        # how many reverse proxies stand in front (their X-Forwarded-* headers believed)
        TRUSTED_PROXIES=int(os.environ.get("TABLELOG_TRUSTED_PROXIES") or 0),
    )
    if test_config is not None:
        app.config.update(test_config)
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:
        # the client's address and scheme as the proxies saw them (web.auth trusts the
        # machine itself only then, or when no proxy header came at all)
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["tablelog.timelines"] = TimelineCache(int(app.config["TIMELINE_CACHE"]))
    app.extensions["tablelog.responses"] = ResponseCache(int(app.config["RESPONSE_CACHE_BYTES"]))
    app.extensions["tablelog.code"] = code_token()

    db.init_app(app)
    from . import (
        analysis,
        api,
        auth,
        boards,
        fragments,
        live,
        newgame,
        record,
        review_pages,
        share,
        site,
    )

    auth.init_app(app)
    auth.csrf.exempt(api.bp)  # the JSON API writes with a Bearer key, never a cookie

    # a game's templates are named under its kind (``<kind>/table.html``), from its folder
    site_templates = app.jinja_env.loader
    assert site_templates is not None
    app.jinja_env.loader = ChoiceLoader([site_templates, boards.loader()])
    app.add_url_rule("/games-static/<kind>/<path:filename>", "game_static", boards.static_file)
    app.jinja_env.globals["game_titles"] = boards.titles()
    app.jinja_env.globals["static_url"] = _static_urls()
    app.jinja_env.globals["game_static"] = _game_static_urls()
    app.jinja_env.globals["remembered"] = fragments.remembered
    # each game's colours by name (``fills[kind]['blue']``), from the palette its
    # pictures draw with too
    app.jinja_env.globals["fills"] = {
        kind: {name: fill for name, (fill, _, _) in rules.palette.items()}
        for kind, rules in GAMES.items()
    }

    app.register_blueprint(site.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(newgame.bp)
    app.register_blueprint(record.bp)
    app.register_blueprint(review_pages.bp)
    app.register_blueprint(share.bp)
    share.init_app(app)
    app.register_blueprint(analysis.bp)
    analysis.init_app(app)
    live.init_app(app)
    _register_errors(app)
    app.after_request(_finish)
    return app


def routes(app: Flask) -> list[tuple[str, str]]:
    """Every ``(rule, method)`` the site answers, sorted; HEAD and OPTIONS, which Flask
    answers for every GET route, left out (the fuzzing in tests/ and bench/ covers these)."""
    return sorted(
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    )


def _static_urls() -> Any:
    """``static_url(filename)``: Flask's ``url_for('static', ...)``, worked out once per
    file and mount point (every page links the same three)."""
    known: dict[tuple[str, str], str] = {}

    def static_url(filename: str) -> str:
        key = (request.script_root, filename)
        url = known.get(key)
        if url is None:
            url = known[key] = url_for("static", filename=filename)
        return url

    return static_url


def _game_static_urls() -> Any:
    """``game_static(kind, filename)``: the address of a file of the game's ``static/``
    folder, or '' when the game has no such file (a page links what the game has),
    worked out once per file and mount point."""
    from . import boards

    known: dict[tuple[str, str, str], str] = {}

    def game_static(kind: str, filename: str) -> str:
        key = (request.script_root, kind, filename)
        url = known.get(key)
        if url is None:
            has = filename in boards.static_names(kind)
            url = url_for("game_static", kind=kind, filename=filename) if has else ""
            known[key] = url
        return url

    return game_static


def _finish(response: Response) -> Response:
    """Every answer, errors included, leaves through here: the security headers, and the
    conditional GET (an answer that carries an ``ETag`` named by the request's
    ``If-None-Match`` becomes a ``304 Not Modified`` without its body).  Static files are
    made conditional by Flask's ``send_file`` already (``direct_passthrough``)."""
    headers = response.headers
    # no view sets them; only the embedded replay may be framed by another site
    headers.extend(FRAMEABLE_HEADERS if request.endpoint in FRAMEABLE else SECURITY_HEADERS)
    if response.status_code == 200 and "ETag" in headers and not response.direct_passthrough:
        response.make_conditional(request)
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/oembed"


def _register_errors(app: Flask) -> None:
    def _render(status: int, title: str, message: str, back: str | None = None) -> tuple[Any, int]:
        if _wants_json():
            return jsonify(
                {"error": {"status": status, "title": title, "message": message}}
            ), status
        page = render_template("error.html", status=status, title=title, message=message, back=back)
        return page, status

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> tuple[Any, int]:
        status = exc.code or 500
        if status == 413:  # werkzeug's wording names no limit
            limit = int(app.config["MAX_CONTENT_LENGTH"])
            return _render(
                status,
                exc.name,
                f"the request's body is larger than the limit of {limit:,} bytes",
            )
        # a refusal may carry its own title and a way back (web.whatif.LineRefused)
        title = getattr(exc, "title", None) or exc.name
        return _render(status, title, exc.description or exc.name, getattr(exc, "back", None))

    @app.errorhandler(StoreError)
    def _store_error(exc: StoreError) -> tuple[Any, int]:
        log.error("store error on %s: %s", request.path, exc)
        return _render(
            500, "The game store failed", "the game store could not answer; see the server log"
        )

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Any, int]:
        if isinstance(exc, HTTPException):
            return _http_error(exc)
        log.exception("unexpected error on %s", request.path)
        return _render(
            500,
            "Internal Server Error",
            "something went wrong on our side; the server log has the details",
        )
