"""Fixtures for the site's tests: a real SQLite file with real imported games, the Flask
app and test client over it, and (for the browser tests) the real server and Chromium.

The games: seeded simulated games (complete), a game whose player is called
``<script>alert(1)</script>`` with comments and annotations holding markup, and an
unfinished game with one move played though illegal.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.splendor_duel import GAME, game, simulate
from engine.splendor_duel import events as ev
from engine.splendor_duel.catalogue import EMPTY, GOLD, SEGMENT_SET
from engine.splendor_duel.state import ACTION
from recorder import EventStore, GameImport
from web import create_app

HOSTILE = "<script>alert(1)</script>"


@dataclass
class Games:
    """The ids of the imported games and the database they live in."""

    path: str
    simulated: list[str]
    hostile: str
    illegal: str
    illegal_step: int
    commented_step: int


def _simulated(seed: int, names: tuple[str, str], date: str) -> GameImport:
    events = simulate.random_game(random.Random(seed))
    return GameImport(
        kind="splendor-duel",
        headers={"players": list(names), "date": date, "place": "Lyon", "event": "Club night"},
        events=[ev.event_to_dict(e) for e in events],
        meta=[None] * len(events),
        game_id=None,
    )


def _hostile(seed: int) -> tuple[GameImport, int]:
    record = _simulated(seed, (HOSTILE, "Bob & <b>Co</b>"), "2024-03-02")
    record.headers["event"] = "<img src=x onerror=alert(2)>"
    step = 3
    record.meta[step - 1] = {
        "comment": "sneaky <script>alert(3)</script>",
        "annotations": ["!?", "<i>"],
        "played_illegally": False,
    }
    return record, step


def _illegal(seed: int) -> tuple[GameImport, int]:
    """Part of a game, then a take of two tokens that are not in a line (flagged)."""
    events = simulate.random_game(random.Random(seed))
    state = GAME.new_state()
    kept: list[Any] = []
    for event in events:
        GAME.play(state, event)
        kept.append(event)
        if len(kept) > 6 and state.awaiting == ACTION:
            gems = [s for s, t in enumerate(state.board) if t not in (EMPTY, GOLD)]
            pair = next(
                ((a, b) for a in gems for b in gems if a < b and (a, b) not in SEGMENT_SET), None
            )
            if pair is not None:
                break
    illegal = ev.TokensTaken(pair)
    assert game.check(state, illegal), "the take must be illegal"
    payloads = [ev.event_to_dict(e) for e in [*kept, illegal]]
    meta: list[dict[str, Any] | None] = [None] * len(payloads)
    meta[-1] = {"played_illegally": True, "comment": "nobody noticed"}
    record = GameImport(
        kind="splendor-duel",
        headers={"players": ["Carla", "Dev"], "date": "2024-05-05"},
        events=payloads,
        meta=meta,
        game_id=None,
    )
    return record, len(payloads)


@pytest.fixture(scope="session")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    path = str(tmp_path_factory.mktemp("web") / "games.db")
    with EventStore.open(path) as store:
        simulated = [
            store.import_game(_simulated(seed, names, date)).game_id
            for seed, names, date in (
                (11, ("Ann", "Bert"), "2024-01-10"),
                (12, ("Ann", "Chloe"), "2024-01-11"),
                (13, ("Dana", "Bert"), "2024-01-12"),
            )
        ]
        record, commented = _hostile(14)
        hostile = store.import_game(record).game_id
        record, illegal_step = _illegal(15)
        illegal = store.import_game(record).game_id
    return Games(path, simulated, hostile, illegal, illegal_step, commented)


@pytest.fixture(scope="session")
def store(games: Games) -> Iterator[Any]:
    with EventStore.open(games.path) as s:
        yield s


@pytest.fixture()
def damaged(games: Games, tmp_path: Path) -> tuple[str, str]:
    """A copy of the database where an outside tool rewrote event 5 of the first
    simulated game into one that cannot be read: the copy's path and the game's id."""
    import sqlite3

    path = tmp_path / "damaged.db"
    shutil.copy(games.path, path)
    gid = games.simulated[0]
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute(
            "UPDATE events SET type = NULL, payload = ?"
            " WHERE game_no = (SELECT no FROM games WHERE id = ?) AND sequence = 5",
            ('{"type": "tokens_taken", "spaces": ["z9"]}', gid),
        )
    return str(path), gid


@pytest.fixture()
def app(games: Games) -> Any:
    return create_app({"DATABASE": games.path, "TESTING": True, "PER_PAGE": 2})


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


# --- the browser tests (the browser itself: tests/conftest.py) -------------------------


@pytest.fixture(scope="session")
def live_server(games: Games) -> Iterator[Any]:
    from web.server import BackgroundServer

    app = create_app({"DATABASE": games.path, "STORE_PER_THREAD": True})
    server = BackgroundServer(app, threads=4)
    yield server
    server.stop()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
