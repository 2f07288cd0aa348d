"""Paging through the whole games list by its own links, over real HTTP, while another
writer keeps adding games: the page's ``rel="next"`` links and the API's ``Link``
header each visit every game stored before the walk began exactly once, and no game
twice, on an SQLite file and on PostgreSQL."""

from __future__ import annotations

import json
import random
import re
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from recorder import GameImport, open_store
from web import create_app

RULES = get_game("splendor-duel")
DATES = ["2024-01-05", "2024-02-10", "2024-02-10", "2024-03-15", None, "2023-12-01"]
NAMES = ["Ann", "Bo", "Chloé", "Dee"]

#: A game of the list, by its row's link (each row also links its picture to share).
GAME_LINK = r'<td class="players"><a href="/games/([0-9a-f]+)[/"]'


def game(seed: int) -> GameImport:
    """A seeded random game: its date one of a few (or none), so new games land before,
    among and after the ones already listed."""
    rng = random.Random(seed)
    date = DATES[seed % len(DATES)]
    events = RULES.random_game(rng)
    return GameImport(
        headers={"players": rng.sample(NAMES, 2), **({"date": date} if date else {})},
        events=[RULES.event_to_dict(e) for e in events],
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "list.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def server(place: str) -> Iterator[Any]:
    from web.server import BackgroundServer

    with open_store(place) as store:
        store.import_games([game(seed) for seed in range(60)])
    app = create_app({"DATABASE": place, "STORE_PER_THREAD": True})
    srv = BackgroundServer(app, threads=4)
    yield srv
    srv.stop()


def _get(url: str) -> tuple[str, dict[str, str]]:
    with urllib.request.urlopen(url) as answer:
        return answer.read().decode(), dict(answer.headers)


def _page_walk(base: str) -> Iterator[list[str]]:
    """The games of each page, from the first, by each page's ``<a rel="next">``."""
    url: str | None = base + "/?per_page=7"
    while url:
        html, _ = _get(url)
        table = html[html.index('<table class="game-list">') : html.index("</table>")]
        yield re.findall(GAME_LINK, table)
        found = re.search(r'<a rel="next" href="([^"]+)"', html)
        url = base + found[1].replace("&amp;", "&") if found else None


def _api_walk(base: str) -> Iterator[list[str]]:
    """The games of each page of the API, by each answer's ``Link: <…>; rel="next"``."""
    url: str | None = base + "/api/games?per_page=7&order=oldest"
    while url:
        body, headers = _get(url)
        yield [g["id"] for g in json.loads(body)["games"]]
        found = re.search(r'<([^>]+)>; rel="next"', headers.get("Link", ""))
        url = found[1] if found else None
        assert (json.loads(body)["next"] is None) == (url is None)


@pytest.mark.parametrize("walk", [_page_walk, _api_walk], ids=["page", "api"])
def test_the_list_visits_every_game_once_while_games_are_added(
    server: Any, place: str, walk: Any
) -> None:
    with open_store(place) as store:
        before = {g.id for g in store.listing.games(limit=1000)}
    stop = threading.Event()
    added: list[str] = []

    def writer() -> None:
        with open_store(place) as store:
            seed = 1000
            while not stop.is_set():
                added.append(store.import_game(game(seed)).game_id)
                seed += 1

    thread = threading.Thread(target=writer)
    thread.start()
    seen: list[str] = []
    try:
        for ids in walk(server.url):
            seen += ids
            while len(added) < len(seen) // 7:  # a few games added as each page is read
                stop.wait(0.01)
    finally:
        stop.set()
        thread.join()
    assert len(added) >= 8
    assert len(seen) == len(set(seen)), "a game listed twice"
    assert before <= set(seen), f"{len(before - set(seen))} games never listed"
    assert set(seen) <= before | set(added)
    assert set(seen) & set(added), "no game added during the walk was ahead of it"
