"""The most frequent requests answered before Flask.

A reader stepping through a game asks again and again for the same two things: a step's
state (``GET /api/games/<id>/state?step=N``) and a step's page (``GET
/games/<id>/step/<n>``).  Each is one row read and, for the state, one fold; going
through Flask's request machinery (contexts, routing, response objects, hooks) as well
cost a fifth of the server's time per state request (bench/web.py: 0.96 ms of CPU per
request through Flask, 0.77 ms here).  :class:`FastPath` sits in
front of the Flask app and answers them directly:

* a step's state, rendered or kept (see :mod:`web.cache`), or ``304`` to a conditional GET;
* a step's page when it is kept, or ``304``; a page to render goes to Flask (templates).

It answers only the plain, valid form of these requests, with the same bytes and headers
as Flask would (``tests/web/test_fast.py`` compares them); everything else — another
route, another method, an unknown game or step, a query it does not expect, an error —
goes to the Flask app, which answers as it always does.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.datastructures import ETags
from werkzeug.http import parse_etags
from werkzeug.utils import get_content_type

from recorder import EventStore, GameNotFound

from .cache import CACHE_CONTROL, Cached, ResponseCache, game_version, make_etag, matches
from .db import thread_store

log = logging.getLogger("tablelog.web")

_STATE = re.compile(r"/api/games/([^/]{1,200})/state")
_STEP_QUERY = re.compile(r"step=([0-9]{1,9})")
_PAGE = re.compile(r"/games/([^/]{1,200})/step/([0-9]{1,9})")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class FastPath:
    """WSGI middleware: the state and kept pages of a step, else ``wsgi_app``."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp):
        from . import SECURITY_HEADERS
        from .api import JSON, state_body

        self.wsgi_app = wsgi_app
        self.path = str(app.config["DATABASE"])
        self.per_thread = bool(app.config.get("STORE_PER_THREAD"))
        self.responses: ResponseCache = app.extensions["tablelog.responses"]
        self.timelines = app.extensions["tablelog.timelines"]
        self.token: str = app.extensions["tablelog.code"]
        self.headers = [("Cache-Control", CACHE_CONTROL), *SECURITY_HEADERS]
        self._json = JSON
        self._state_body = state_body

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            path = environ.get("PATH_INFO", "")
            query = environ.get("QUERY_STRING", "")
            answer = None
            if path.startswith("/api/"):
                match = _STATE.fullmatch(path)
                step = _STEP_QUERY.fullmatch(query) if query else None
                if match and (step or not query):
                    answer = self._guarded(
                        environ, "state-json", match[1], int(step[1]) if step else None
                    )
            elif path.startswith("/games/") and not query:
                match = _PAGE.fullmatch(path)
                if match:
                    answer = self._guarded(environ, "page", match[1], int(match[2]))
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body]
        return self.wsgi_app(environ, start_response)

    def _guarded(
        self, environ: dict[str, Any], what: str, game_id: str, step: int | None
    ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        # anything unusual (a damaged record, a store that fails) is left to the Flask app,
        # which answers it with its error page and logs it
        store = None
        try:
            store = thread_store(self.path) if self.per_thread else EventStore.open(self.path)
            return self._answer(store, environ, what, game_id, step)
        except Exception:
            log.debug("fast path declined %s", environ.get("PATH_INFO"), exc_info=True)
            return None
        finally:
            if store is not None and not self.per_thread:
                store.close()

    def _answer(
        self, store: Any, environ: dict[str, Any], what: str, game_id: str, step: int | None
    ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        try:
            row = store.game(game_id)
        except GameNotFound:
            return None
        n = row.event_count if step is None else step
        if n > row.event_count:
            return None
        version = game_version(row)
        etag = make_etag(self.token, what, version, n)
        inm: ETags | None = None
        if "HTTP_IF_NONE_MATCH" in environ:
            inm = parse_etags(environ["HTTP_IF_NONE_MATCH"])
        if inm is not None and matches(inm, etag):
            return "304 NOT MODIFIED", [("ETag", etag), *self.headers], b""
        key = (what, version, n)
        found = self.responses.get(key)
        if found is None:
            if what != "state-json":
                return None  # a page to render: Flask's templates
            body = self._state_body(store, self.timelines, row, n).encode()
            found = Cached(body, etag, self._json)
            self.responses.put(key, found)
        headers = [
            ("Content-Type", get_content_type(found.mimetype, "utf-8")),
            ("Content-Length", str(len(found.body))),
            ("ETag", etag),
            *self.headers,
        ]
        return "200 OK", headers, found.body
