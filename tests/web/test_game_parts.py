"""A game's web parts (docs/games.md): each game's folder found by kind, its templates
named under its kind, its static files served at ``/games-static/<kind>/<file>`` as the
site's own are, its styles linked by the pages that draw it, and nothing in the shared
web files naming a game."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from engine.games import GAMES, get_game
from web import boards
from web.setup_form import SetupForm, kinds

ROOT = Path(__file__).resolve().parents[2]

#: The words of the games that only a game's own package may say (``garbage``, a word of
#: web/server.py, holds "bag" and is not the game's).
GAME_WORDS = re.compile(
    r"splendor|noble|royal|privilege|crown|pearl|pyramid|spiral|(?<!gar)bag", re.IGNORECASE
)


def test_the_shared_web_files_name_no_game() -> None:
    shared = [
        *(p for p in (ROOT / "web").rglob("*") if p.is_file() and "__pycache__" not in p.parts),
        ROOT / "engine" / "picture.py",
        ROOT / "cli" / "setup_prompts.py",
    ]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for path in shared
        if path.suffix in (".py", ".html", ".js", ".css", ".json")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if GAME_WORDS.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_each_game_has_its_parts_in_its_own_package(kind: str) -> None:
    package, folder = get_game(kind).web_parts
    where = boards.parts(kind)
    # the folder beside the package's own modules, wherever it is installed (a game of
    # tests/games is installed by pip outside the project's folder)
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None
    assert where == Path(spec.origin).parent / folder
    if package.split(".")[0] == "engine":
        assert where == ROOT / Path(*package.split(".")) / folder
    for name in ("table.html", "player.html", "pieces.html", "record.html"):
        assert boards.template(kind, name) == f"{kind}/{name}"
    assert boards.template(kind, "nothing.html") is None
    assert {"on_table", "letters", "hints"} <= set(boards.widgets(kind))
    assert "game.css" in boards.static_names(kind)


def test_a_games_static_file_is_served_as_the_sites_own_are(client: Any) -> None:
    own = client.get("/static/site.css")
    css = client.get("/games-static/splendor-duel/game.css")
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert css.data == (boards.parts("splendor-duel") / "static" / "game.css").read_bytes()
    for header in ("Cache-Control", "X-Content-Type-Options", "Content-Security-Policy"):
        assert css.headers.get(header) == own.headers.get(header), header
    assert "ETag" in css.headers and "Last-Modified" in css.headers
    again = client.get(
        "/games-static/splendor-duel/game.css", headers={"If-None-Match": css.headers["ETag"]}
    )
    assert again.status_code == 304
    js = client.get("/games-static/splendor/record.js")
    assert js.status_code == 200 and "tablelog.widgets" in js.get_data(as_text=True)


@pytest.mark.parametrize(
    "path",
    [
        "/games-static/splendor-duel/../widgets.json",
        "/games-static/splendor-duel/%2e%2e/widgets.json",
        "/games-static/splendor-duel/..%2fwidgets.json",
        "/games-static/splendor-duel/%2e%2e%2f%2e%2e%2f__init__.py",
        "/games-static/splendor-duel//etc/passwd",
        "/games-static/splendor-duel/nope.css",
        "/games-static/chess/game.css",
        "/games-static/..%2fweb/site.css",
    ],
)
def test_nothing_outside_a_games_static_folder_is_served(client: Any, path: str) -> None:
    answer = client.get(path, follow_redirects=True)  # (a doubled slash is merged first)
    assert answer.status_code == 404, (path, answer.status_code)


def test_a_page_links_the_styles_of_the_game_it_draws(client: Any, games: Any) -> None:
    page = client.get(f"/games/{games.simulated[0]}", follow_redirects=True)
    page = page.get_data(as_text=True)
    assert '<link rel="stylesheet" href="/games-static/splendor-duel/game.css">' in page
    assert "/games-static/splendor/" not in page
    new = client.get("/games/new?kind=splendor").get_data(as_text=True)
    assert '<link rel="stylesheet" href="/games-static/splendor/game.css">' in new
    assert "setup.js" not in new  # classic Splendor's setup is cards only
    duel = client.get("/games/new?kind=splendor-duel").get_data(as_text=True)
    assert '<script src="/games-static/splendor-duel/setup.js" defer></script>' in duel
    listing = client.get("/games").get_data(as_text=True)
    assert "/games-static/" not in listing


def test_the_new_game_form_takes_a_setup_line_of_text() -> None:
    """A game whose setup has a line that is neither cards nor drawn as a board is set
    up all the same: the line is one text field, written into the notation as typed and
    read by the game's own reader (here Splendor Duel's board, given as plain text)."""
    duel = get_game("splendor-duel")
    lines = tuple(dataclasses.replace(line, tokens=False) for line in duel.setup_lines)
    plain = type("PlainDuel", (type(duel),), {"setup_lines": lines})()
    assert [k for k, _ in kinds()] == list(GAMES)
    values = {
        "player1": "Ann",
        "player2": "Bo",
        "first": "1",
        "board": "GGRWY RWBRG YBRWK GYBKP PBWKK",
        **{f"level3_{i}": c for i, c in enumerate(["3-10", "3-01", "3-05"], 1)},
        **{f"level2_{i}": c for i, c in enumerate(["2-10", "2-24", "2-20", "2-17"], 1)},
        **{f"level1_{i}": c for i, c in enumerate(["1-11", "1-25", "1-16", "1-10", "1-27"], 1)},
    }
    form = SetupForm.read(plain, values)
    assert form.errors == {}
    text = form.check()
    assert text is not None and "\nboard   GGRWY RWBRG YBRWK GYBKP PBWKK\n" in text
    empty = SetupForm.read(plain, {**values, "board": ""})
    assert empty.errors["board"].startswith("Board: ")
    wrong = SetupForm.read(plain, {**values, "board": "GGRWY RWBRG"})
    assert wrong.check() is None and "board" in wrong.errors
