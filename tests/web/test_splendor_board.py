"""Classic Splendor through the site unchanged: a 4-player game imported, its replay page
drawn at every kind of step by the board templates in ``engine/splendor/web/templates``, its
state API, the games list filtered by kind."""

from __future__ import annotations

import random

import pytest

from engine.splendor import GAME, simulate
from engine.splendor.events import event_to_dict
from recorder import EventStore, GameImport
from web import create_app

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    path = str(tmp_path_factory.mktemp("splendor") / "games.db")
    events = simulate.random_game(random.Random(4), NAMES)
    record = GameImport(
        kind="splendor",
        headers={"players": NAMES, "date": "2026-11-20"},
        events=[event_to_dict(e) for e in events],
        meta=[None] * len(events),
        game_id=None,
    )
    with EventStore.open(path) as store:
        game_id = store.import_game(record).game_id
    app = create_app({"DATABASE": path, "TESTING": True})
    return app.test_client(), game_id, events


def test_replay_page_draws_every_step_kind(site):
    client, game_id, events = site
    kinds = {}
    for step, state in enumerate(GAME.states(events, NAMES)):
        kinds.setdefault(state.awaiting, step)
    kinds["last"] = len(events)
    for step in kinds.values():
        page = client.get(f"/games/{game_id}/step/{step}")
        assert page.status_code == 200, step
        html = page.get_data(as_text=True)
        assert 'aria-label="Bank and nobles"' in html and html.count('class="holdings"') == 4


def test_state_api_and_kind_filter(site):
    client, game_id, events = site
    state = client.get(f"/api/games/{game_id}/state?step=5").get_json()
    assert state["state"]["players"][0]["name"] == "Ann"
    listing = client.get("/api/games?kind=splendor").get_json()
    assert [g["kind"] for g in listing["games"]] == ["splendor"]
