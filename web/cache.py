"""Rendered answers kept in memory, and the validators that let a browser keep them too.

A stored game's events never change once written and only appends add steps, so the
replay page and the state JSON of a step are fixed by the game, how far it has been
recorded and the step.  A cache key holds the game's id, its event count and the time of
its last append (see :func:`game_version`): an append changes the key, and the answer is
rendered again on its next request.  Entries for a game's older versions are simply no
longer asked for and leave the LRU in their turn.

The same key, with a digest of the code that renders (:func:`code_token`), makes a strong
``ETag``.  Every worker process computes the same ``ETag`` for the same answer, so a
browser's conditional GET gets its ``304 Not Modified`` from any of them.

>>> cache = ResponseCache(max_bytes=10)
>>> cache.put(("a",), Cached(b"12345", '"x"', "text/plain"))
>>> cache.put(("b",), Cached(b"123456", '"y"', "text/plain"))  # over 10 bytes: "a" leaves
>>> cache.get(("a",)) is None, cache.get(("b",)).body
(True, b'123456')
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Response, current_app, request
from werkzeug.http import is_resource_modified

from recorder.lru import LRU

#: Browsers may keep an answer but must ask again before using it (a step of a game still
#: being recorded changes when it grows); the question costs a ``304`` and no body.
CACHE_CONTROL = "no-cache"

_ROOT = Path(__file__).resolve().parent.parent
#: The code whose output is cached: the site (views, templates), the rules (states, move
#: texts, verdicts) and the store (how stored events are read and folded).
CODE_DIRS = (_ROOT / "web", _ROOT / "engine", _ROOT / "recorder")
CODE_SUFFIXES = frozenset({".py", ".html"})


@dataclass(frozen=True, slots=True)
class Cached:
    """A rendered answer: its body, its strong ``ETag`` (quoted) and its media type."""

    body: bytes
    etag: str
    mimetype: str


class ResponseCache(LRU[Hashable, Cached]):
    """The rendered answers, bounded by the bytes of their bodies (:attr:`weight`): the
    least lately asked for go first."""

    def __init__(self, max_bytes: int = 32 * 1024 * 1024):
        super().__init__(max_bytes, _body_bytes)


def _body_bytes(cached: Cached) -> int:
    return len(cached.body)


def game_version(row: Any) -> tuple[str, int, str, str, str, str]:
    """What identifies a game as recorded so far: its id, its event count, the times of
    its creation and of its last append (a database rebuilt with the same game ids does
    not answer with another's pages), its head (a record changed behind the store's
    back, its head with it, is answered anew) and its void (a game voided says so)."""
    return (
        row.id,
        int(row.event_count),
        str(row.created_at),
        str(row.last_activity),
        str(row.head),
        str(getattr(row, "void", None) or ""),
    )


def make_etag(token: str, what: str, version: Iterable[Any], *rest: Any) -> str:
    """A strong ``ETag`` (quoted) for the answer ``what`` of a game at ``version``."""
    text = "\x1f".join(str(part) for part in (token, what, *version, *rest))
    return '"' + hashlib.blake2b(text.encode(), digest_size=12).hexdigest() + '"'


def code_token(dirs: Iterable[Path] = CODE_DIRS) -> str:
    """A digest of the source files under ``dirs``: the same in every worker process, and
    another one once the code that renders has changed (old ``ETag`` values stop matching)."""
    digest = hashlib.blake2b(digest_size=12)
    for folder in dirs:
        for path in sorted(folder.rglob("*")):
            if path.suffix in CODE_SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(folder.parent)).encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cached_answer(
    what: str, row: Any, step: int | None, render: Callable[[], tuple[str | bytes, str]]
) -> Response:
    """The answer ``what`` for game ``row`` at ``step``, with its ``ETag`` and
    :data:`CACHE_CONTROL`: from the app's :class:`ResponseCache`, else ``render()``
    (body, media type) kept for next time.

    Whether the request gets it or a ``304`` is decided for every answer in one place,
    the app's ``after_request`` hook (:meth:`Response.make_conditional`); a request whose
    ``If-None-Match`` already names the answer (werkzeug's own test, the one that hook
    applies) is not rendered for nothing: its body would be dropped."""
    app = current_app
    version = game_version(row)
    etag = make_etag(app.extensions["tablelog.code"], what, version, step)
    headers = [("ETag", etag), ("Cache-Control", CACHE_CONTROL)]
    if not is_resource_modified(request.environ, etag):
        return Response(headers=headers)
    cache: ResponseCache = app.extensions["tablelog.responses"]
    key = (what, version, step)
    found = cache.get(key)
    if found is None:
        body, mimetype = render()
        found = Cached(body.encode() if isinstance(body, str) else body, etag, mimetype)
        cache.put(key, found)
    return Response(found.body, mimetype=found.mimetype, headers=headers)
