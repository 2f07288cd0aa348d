"""Each stored game's rules and its web parts, by its kind.

The site reaches a game only through the registry (:func:`engine.games.get_game`) and the
:class:`engine.protocol.GameRules` it returns.  What a game draws is its own: its web parts
are a folder of its package (:attr:`engine.protocol.GameRules.web_parts`, ``docs/games.md``
says what it holds), found here once per kind and read by the site alone:

- ``templates/``: its board's templates, named in Jinja under the kind
  (``<kind>/table.html``, ``<kind>/player.html``, ``<kind>/record.html``, the setup
  widget ``<kind>/setup.html``) and ``<kind>/pieces.html``, the macros that draw its
  pieces (tokens, cards...), which they import;
- ``static/``: its styles and scripts, served at ``/games-static/<kind>/<file>``
  (:func:`static_file`);
- ``widgets.json``: the data of its widgets on the logging page (:func:`widgets`).

>>> kind = next(iter(GAMES))
>>> pieces(kind) == f"{kind}/pieces.html"
True
>>> rules(kind).kind == kind
True
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import abort, current_app, send_from_directory
from jinja2 import BaseLoader, FileSystemLoader, PrefixLoader
from werkzeug.wrappers import Response

from engine.games import GAMES, get_game
from engine.protocol import GameRules, seat_names

#: The site's own templates (every game's page is one of these).
TEMPLATES = Path(__file__).resolve().parent / "templates"


def rules(kind: str) -> GameRules:
    """The rules of ``kind`` (UnknownGameKind names the known kinds)."""
    return get_game(kind)


def names(row: Any) -> tuple[str, ...]:
    """The seat names of the stored game ``row``, from its headers."""
    return seat_names(row.headers or {}, get_game(row.kind).seats)


@functools.cache
def parts(kind: str) -> Path:
    """The folder of the web parts of ``kind`` (worked out once per kind)."""
    package, folder = get_game(kind).web_parts
    return Path(str(importlib.resources.files(package).joinpath(folder)))


def loader() -> BaseLoader:
    """The games' templates for Jinja, each game's under its kind: ``<kind>/table.html``
    is ``table.html`` of that game's ``templates/`` folder."""
    return PrefixLoader(
        {kind: FileSystemLoader(parts(kind) / "templates") for kind in GAMES}, delimiter="/"
    )


@functools.cache
def template(kind: str, name: str) -> str | None:
    """``<kind>/<name>``, the game's template of that name, or None when it has none."""
    return f"{kind}/{name}" if (parts(kind) / "templates" / name).is_file() else None


def pieces(kind: str) -> str | None:
    """The template of the macros that draw the pieces of ``kind``
    (``<kind>/pieces.html``), None when the game has none."""
    return template(kind, "pieces.html")


@functools.cache
def static_names(kind: str) -> frozenset[str]:
    """The files of the game's ``static/`` folder (read once: a page asks which it has)."""
    folder = parts(kind) / "static"
    if not folder.is_dir():
        return frozenset()
    return frozenset(p.name for p in folder.iterdir() if p.is_file())


@functools.cache
def widgets(kind: str) -> Mapping[str, Any]:
    """The game's ``widgets.json`` (``docs/games.md``), read once; empty when it has none:
    the logging page then offers the typed form only."""
    path = parts(kind) / "widgets.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


def static_file(kind: str, filename: str) -> Response:
    """``GET /games-static/<kind>/<file>``: a file of the game's ``static/`` folder, with
    the caching headers of the site's own static files (Flask's ``send_from_directory``
    refuses a path that leaves the folder)."""
    if kind not in GAMES:
        abort(404)
    return send_from_directory(
        parts(kind) / "static", filename, max_age=current_app.get_send_file_max_age(filename)
    )


def titles() -> list[str]:
    """The titles of the games the site replays."""
    return [r.title for r in GAMES.values()]


def conditions() -> Mapping[str, str]:
    """Every way any known game is won, with its short words (``won on ...``)."""
    out: dict[str, str] = {}
    for r in GAMES.values():
        for condition, words in r.conditions.items():
            out.setdefault(condition, words)
    return out
