"""The JSON API through Flask's test client, errors included."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import get_game
from engine.splendor_duel import game
from engine.splendor_duel.catalogue import COLOR_NAMES, EMPTY, SPACE_NAMES

RULES = get_game("splendor-duel")

Games = Any


def test_games_lists_with_paging(client: Any, store: Any) -> None:
    r = client.get("/api/games?per_page=2")
    assert r.status_code == 200 and r.is_json
    body = r.get_json()
    assert body["total"] == store.listing.count()
    assert len(body["games"]) == 2 and body["prev"] is None and body["per_page"] == 2
    assert body["next"].startswith("/api/games?per_page=2&after=")
    links = r.headers["Link"].split(", ")
    assert links == [
        f'<http://localhost{body["next"]}>; rel="next"',
        '<http://localhost/api/games?per_page=2&page=last>; rel="last"',
    ]
    second = client.get(body["next"]).get_json()
    assert {g["id"] for g in body["games"]}.isdisjoint(g["id"] for g in second["games"])
    assert second["prev"].startswith("/api/games?per_page=2&before=")
    back = client.get(second["prev"]).get_json()
    assert [g["id"] for g in back["games"]] == [g["id"] for g in body["games"]]
    game_json = body["games"][0]
    for key in (
        "id",
        "kind",
        "headers",
        "players",
        "status",
        "winner",
        "condition",
        "result",
        "turns",
        "event_count",
        "url",
    ):
        assert key in game_json


def test_games_filters(client: Any, store: Any) -> None:
    body = client.get("/api/games?player=Ann&per_page=10").get_json()
    assert body["total"] == 2
    assert all("Ann" in g["players"] for g in body["games"])
    body = client.get("/api/games?result=playing&per_page=10").get_json()
    assert [g["players"] for g in body["games"]] == [["Carla", "Dev"]]
    for condition in ("points", "crowns", "color", "resignation"):
        body = client.get(f"/api/games?result={condition}&per_page=100").get_json()
        assert body["total"] == store.listing.count(result=condition)
        assert all(g["condition"] == condition for g in body["games"])


@pytest.mark.parametrize("query", ["page=0", "page=two", "per_page=101", "result=tie"])
def test_games_bad_parameter_is_a_json_400(client: Any, query: str) -> None:
    r = client.get("/api/games?" + query)
    assert r.status_code == 400 and r.is_json
    error = r.get_json()["error"]
    assert error["status"] == 400 and query.split("=")[0] in error["message"]


def test_game_has_headers_and_events_with_meta(client: Any, games: Games, store: Any) -> None:
    body = client.get(f"/api/games/{games.hostile}").get_json()
    assert body["headers"]["players"][0] == "<script>alert(1)</script>"
    stored = store.events(games.hostile)
    assert [e["sequence"] for e in body["events"]] == [e.sequence for e in stored]
    assert [e["payload"] for e in body["events"]] == [e.payload for e in stored]
    commented = body["events"][games.commented_step - 1]
    assert commented["meta"]["comment"] == "sneaky <script>alert(3)</script>"
    assert commented["meta"]["annotations"] == ["!?", "<i>"]
    flagged = client.get(f"/api/games/{games.illegal}").get_json()["events"][-1]
    assert flagged["meta"]["played_illegally"] is True


@pytest.mark.parametrize("step", [0, 1, 25, None])
def test_state_matches_the_store(client: Any, games: Games, store: Any, step: int | None) -> None:
    gid = games.simulated[0]
    query = "" if step is None else f"?step={step}"
    r = client.get(f"/api/games/{gid}/state{query}")
    assert r.status_code == 200
    body = r.get_json()
    last = store.game(gid).event_count
    assert body["step"] == (last if step is None else step) and body["last_step"] == last
    state = store.state_at(gid, step)
    view = body["state"]
    assert view["board"] == {
        SPACE_NAMES[s]: (None if t == EMPTY else COLOR_NAMES[t]) for s, t in enumerate(state.board)
    }
    assert view["bag"] == {COLOR_NAMES[c]: n for c, n in enumerate(state.bag)}
    assert view["pyramid"] == {str(i + 1): row for i, row in enumerate(state.pyramid)}
    assert view["decks"] == {str(i + 1): n for i, n in enumerate(state.decks)}
    assert view["royals"] == state.royals
    assert view["privileges"] == {
        "table": state.table_privileges,
        "players": [p.privileges for p in state.players],
    }
    assert view["awaiting"] == state.awaiting
    for seat, p in enumerate(state.players):
        shown = view["players"][seat]
        assert shown["tokens"] == {COLOR_NAMES[c]: n for c, n in enumerate(p.tokens)}
        assert shown["points"] == p.points and shown["crowns"] == p.crowns
        assert [c["card"] for c in shown["cards"]] == [cid for cid, _ in p.cards]
    if step is None:
        assert view["outcome"]["winner"] == state.outcome.winner
        assert view["outcome"]["condition"] == state.outcome.condition


@pytest.mark.parametrize(
    "url,status",
    [
        ("/api/games/nope", 404),
        ("/api/games/nope/state", 404),
        ("/api/games/{gid}/state?step=100000", 404),
        ("/api/games/{gid}/state?step=-1", 400),
        ("/api/games/{gid}/state?step=x", 400),
        ("/api/games/{gid}/check?step=3", 400),
        ("/api/games/{gid}/check?step=3&move=" + "x" * 300, 400),
        ("/api/nothing-here", 404),
    ],
)
def test_errors_are_json(client: Any, games: Games, url: str, status: int) -> None:
    r = client.get(url.format(gid=games.simulated[0]))
    assert r.status_code == status and r.is_json
    assert r.get_json()["error"]["status"] == status
    assert "Traceback" not in r.get_data(as_text=True)


def test_check_endpoint(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    state = store.state_at(gid, 1)
    legal = next(m for m in game.legal_moves(state) if m.type == "tokens_taken")
    text = RULES.move_text(state, legal)
    body = client.get(f"/api/games/{gid}/check", query_string={"step": 1, "move": text}).get_json()
    assert body["legal"] is True and body["violations"] == [] and body["changes"]
    body = client.get(
        f"/api/games/{gid}/check", query_string={"step": 1, "move": "royal R-1"}
    ).get_json()
    assert body["legal"] is False and body["violations"][0]["citation"].startswith("p.")
    body = client.get(
        f"/api/games/{gid}/check", query_string={"step": 1, "move": "dance c3"}
    ).get_json()
    assert body["legal"] is False and "<move>:1:1" in body["error"]
