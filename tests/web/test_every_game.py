"""What the site does alike for every registered game (``engine.games.GAMES``: tablelog's
own and every installed one, so a game added later is covered too), through Flask's test
client over a real SQLite file: the replay page draws every step of a random game of the
kind, the logging page logs its first decisions through its form (the game's key and a
CSRF token, as a phone without JavaScript does), and the new-game page creates a game of
the kind from its setup lines."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from engine.games import GAMES, get_game
from recorder import EventStore, GameImport
from web import create_app

KINDS = pytest.mark.parametrize("kind", sorted(GAMES))
#: The decisions the logging page's test logs after the setup.
LOGGED = 8


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app({"DATABASE": str(tmp_path / "every.db"), "TESTING": True})


def _names(kind: str) -> list[str]:
    """As many players as the game seats at most (every seat's panel drawn)."""
    return [f"P{i} <b>&</b>" for i in range(1, get_game(kind).seats.maximum + 1)]


def _random(kind: str, seed: int = 3) -> tuple[list[str], list[Any]]:
    names = _names(kind)
    return names, get_game(kind).random_game(random.Random(seed), names)


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the page carries a CSRF token"
    return found.group(1)


def _data(page: str) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="record-data">(.*?)</script>', page, re.S
    )
    assert found
    return json.loads(found.group(1))  # type: ignore[no-any-return]


@KINDS
def test_the_replay_page_draws_every_step_of_a_random_game(app: Any, kind: str) -> None:
    rules = get_game(kind)
    names, events = _random(kind)
    with EventStore.open(app.config["DATABASE"]) as store:
        gid = store.import_game(
            GameImport(
                kind=kind,
                headers={"players": names},
                events=[rules.event_to_dict(e) for e in events],
                meta=[None] * len(events),
                game_id=None,
            )
        ).game_id
    client = app.test_client()
    state = rules.new_state(names)
    for step in range(len(events) + 1):
        if step:
            rules.play(state, events[step - 1])
        r = client.get(f"/games/{gid}/step/{step}")
        assert r.status_code == 200, (kind, step)
        page = r.get_data(as_text=True)
        assert f'/games-static/{kind}/game.css"' in page
        # the game's board and one panel per seat, each name escaped
        assert re.search(r'<div class="col col-table">\s*<section', page), step
        assert page.count('<section class="player seat-') == len(names)
        assert str(escape(names[-1])) in page and "<b>&</b>" not in page
        assert str(escape(rules.status(state).due)) in page or rules.status(state).result
    assert rules.status(state).phase == "finished"
    assert str(escape(rules.status(state).result.text)) in page  # type: ignore[union-attr]


@KINDS
def test_the_logging_page_logs_a_random_games_first_decisions(app: Any, kind: str) -> None:
    rules = get_game(kind)
    names, events = _random(kind, seed=5)
    setup = rules.write_game({"players": names}, events[:1])
    made = app.test_client().post("/api/games", json={"notation": setup}).get_json()
    gid = made["id"]
    client = app.test_client()
    page = client.get(f"/games/{gid}/record").get_data(as_text=True)
    r = client.post(
        f"/games/{gid}/record/key", data={"key": made["key"], "csrf_token": _token(page)}
    )
    assert r.status_code == 303
    state = rules.new_state(names)
    rules.play(state, events[0])
    for step, event in enumerate(events[1 : LOGGED + 1], start=2):
        page = client.get(f"/games/{gid}/record").get_data(as_text=True)
        data = _data(page)
        assert data["steps"] == step - 1
        text = rules.move_text(state, event)
        # the page offers it: among the choices it carries, or as the game's typed draw
        draw = (data["widgets"].get("draw") or {}).get("verb")
        offered = {c["text"] for c in data["choices"] + data["observations"]}
        assert text in offered or (draw and text.startswith(draw + " ")), (kind, text)
        r = client.post(
            f"/games/{gid}/record",
            data={"move": text, "expect": str(step - 1), "csrf_token": _token(page)},
        )
        assert r.status_code == 303, (kind, text, r.get_data(as_text=True)[:500])
        rules.play(state, event)
    # without the CSRF token nothing is written
    r = client.post(f"/games/{gid}/record", data={"move": "x", "expect": str(LOGGED + 1)})
    assert r.status_code == 400
    with EventStore.open(app.config["DATABASE"]) as store:
        stored = [e.payload for e in store.events(gid)]
    assert stored == [rules.event_to_dict(e) for e in events[: LOGGED + 1]]


@KINDS
def test_the_new_game_page_creates_a_game_of_each_kind(app: Any, kind: str) -> None:
    """The form filled as a player would: each setup line of cards a slot per card, each
    other line typed as it is written (what a game's setup widget sends too)."""
    rules = get_game(kind)
    names, events = _random(kind, seed=8)
    names = [n.split()[0] for n in names]
    written = rules.write_game({"players": names}, events[:1])
    lines = {
        line.split()[0]: line.split(None, 1)[1] if len(line.split()) > 1 else ""
        for line in written.split("\n\n", 1)[1].splitlines()
        if line.strip()
    }
    first = re.search(r'^\[First "(.*)"\]$', written, re.M)
    assert first
    seat = int(first.group(1)) if first.group(1).isdigit() else names.index(first.group(1)) + 1
    values = {f"player{i}": n for i, n in enumerate(names, start=1)}
    values.update({"first": str(seat), "date": "2026-11-27", "place": "Club"})
    for line in rules.setup_lines:
        if line.cards:
            for i, card in enumerate(lines[line.word].split(), start=1):
                values[f"{line.word}_{i}"] = card
        else:
            values[line.word] = lines.get(line.word, "-")
    client = app.test_client()
    page = client.get(f"/games/new?kind={kind}").get_data(as_text=True)
    assert f'<option value="{kind}" selected>' in page
    r = client.post("/games/new", data={"kind": kind, "csrf_token": _token(page), **values})
    assert r.status_code == 201, (kind, r.get_data(as_text=True)[-2000:])
    with EventStore.open(app.config["DATABASE"]) as store:
        (row,) = store.listing.games(limit=10)
        stored = [e.payload for e in store.events(row.id)]
    assert row.kind == kind
    assert stored == [rules.event_to_dict(events[0])]
