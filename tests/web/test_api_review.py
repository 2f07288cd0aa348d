"""The review over HTTP: saved lines, marks and notes written with the game's recorder key
or its review key (which logs no move), read back; the record's head stays the same;
every refusal writes nothing.  A real SQLite file under the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from web import create_app

SETUP = """[Game "Splendor Duel"]
[Player1 "Ann"]
[Player2 "Bo"]
[First "Ann"]

board   GGRWY RWBRG YBRWK GYBKP PBWKK
level3  3-10 3-01 3-05
level2  2-10 2-24 2-20 2-17
level1  1-11 1-25 1-16 1-10 1-27
privileges 0 1
"""


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app({"DATABASE": str(tmp_path / "w.db"), "TESTING": True})


@pytest.fixture()
def game(app: Any) -> tuple[str, str, str]:
    """A game of 3 steps, its recorder key and its review key."""
    client = app.test_client()
    made = client.post("/api/games", json={"notation": SETUP}).get_json()
    gid, key = made["id"], made["key"]
    auth = {"Authorization": f"Bearer {key}"}
    for move, expect in (("take c3 d3", 1), ("take b1", 2)):
        r = client.post(
            f"/api/games/{gid}/events", json={"move": move, "expect": expect}, headers=auth
        )
        assert r.status_code == 201, r.get_json()
    with EventStore.open(app.config["DATABASE"]) as store:
        review_key = store.keys.issue(gid, review=True)
    return gid, key, review_key


def _post(app: Any, gid: str, key: str | None, body: Any, path: str = "review") -> Any:
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    return app.test_client().post(f"/api/games/{gid}/{path}", json=body, headers=headers)


def _head(app: Any, gid: str) -> str:
    with EventStore.open(app.config["DATABASE"]) as store:
        return store.game(gid).head


def _length(app: Any, gid: str) -> int:
    with EventStore.open(app.config["DATABASE"]) as store:
        return len(store.review_events(gid))


def test_a_review_key_writes_the_review_and_logs_no_move(app: Any, game: Any) -> None:
    gid, key, review_key = game
    head = _head(app, gid)
    before = app.test_client().get(f"/games/{gid}.tl").get_data(as_text=True)
    line = {"from": "1", "moves": ["take b4 c4 d4", "take c1"]}
    r = _post(app, gid, review_key, {"expect": 0, "by": "Chloé", "line": line})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["line"]["texts"] == ["take b4 c4 d4 =RGR", "take c1 =K"]
    r = _post(app, gid, key, {"expect": 1, "by": "Ann", "mark": {"at": "2", "mark": "?"}})
    assert r.status_code == 201, r.get_json()
    # the review key logs no move, and takes nothing back
    assert (
        _post(app, gid, review_key, {"move": "take a1", "expect": 3}, "events").status_code == 403
    )
    assert _post(app, gid, review_key, {"expect": 3}, "undo").status_code == 403
    assert _head(app, gid) == head
    got = app.test_client().get(f"/api/games/{gid}/review").get_json()
    assert got["length"] == 2
    assert [(m["at"], m["mark"]) for m in got["marks"]] == [("2", "?")]
    assert got["lines"][0]["steps"] == ["1/1.1", "1/1.2"] and got["lines"][0]["by"] == "Chloé"
    assert [e["by"] for e in got["events"]] == ["Chloé", "Ann"]
    tl = app.test_client().get(f"/games/{gid}.tl").get_data(as_text=True)
    assert "(1. Ann: take b4 c4 d4 =RGR 2. Bo: take c1 =K)" in tl and "(" not in before
    with EventStore.open(app.config["DATABASE"]) as store:
        assert store.verification.verify([gid]) == []


@pytest.mark.parametrize(
    ("key", "body", "status", "said"),
    [
        (None, {"expect": 0, "by": "A", "mark": {"at": "2", "mark": "!"}}, 401, "review key"),
        ("wrong", {"expect": 0, "by": "A", "mark": {"at": "2", "mark": "!"}}, 403, "neither"),
        ("key", {"expect": 0, "by": "A", "mark": {"at": "2", "mark": "!!!"}}, 400, "one of"),
        ("key", {"expect": 0, "by": "A", "mark": {"at": "99", "mark": "!"}}, 404, "not 99"),
        (
            "key",
            {"expect": 0, "by": "A", "line": {"from": "9", "moves": ["take a1"]}},
            404,
            "not 9",
        ),
        ("key", {"expect": 5, "by": "A", "mark": {"at": "2", "mark": "!"}}, 409, "nothing was"),
        (
            "key",
            {"expect": 0, "by": "A", "line": {"from": "1", "moves": ["take c1"] * 401}},
            400,
            "400 decisions at most",
        ),
        (
            "key",
            {"expect": 0, "by": "A", "line": {"from": "1", "moves": ["take b2 c2 d2"]}},
            422,
            "p.5",
        ),
        ("key", {"expect": 0, "by": "A"}, 400, "one of line, mark or withdraw"),
        ("key", {"expect": 0, "by": "A", "withdraw": 4}, 400, "no standing saved line 4"),
    ],
)
def test_refusals_write_nothing(
    app: Any, game: Any, key: str | None, body: Any, status: int, said: str
) -> None:
    gid, recorder_key, _ = game
    sent = recorder_key if key == "key" else key
    r = _post(app, gid, sent, body)
    assert r.status_code == status, r.get_json()
    assert said in r.get_json()["error"]["message"]
    assert _length(app, gid) == 0
