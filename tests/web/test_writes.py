"""Writing over HTTP: creating a game, logging moves and undoing them through the JSON API,
with the recorder key; every refusal writes nothing.  A real SQLite file under the app."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.keys import key_hash
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
def client(app: Any) -> Any:
    return app.test_client()


def _create(client: Any, **kw: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"notation": SETUP}, **kw)
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()  # type: ignore[no-any-return]


def _steps(app: Any, gid: str) -> int:
    with EventStore.open(app.config["DATABASE"]) as store:
        return store.game(gid).event_count


def _post(client: Any, gid: str, key: str | None, body: Any, path: str = "events") -> Any:
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    return client.post(f"/api/games/{gid}/{path}", json=body, headers=headers)


def test_create_answers_the_id_and_a_key_stored_only_as_its_hash(app: Any, client: Any) -> None:
    made = _create(client)
    gid, key = made["id"], made["key"]
    assert made["steps"] == 1 and len(key) >= 40
    assert made["record_url"].endswith(f"/games/{gid}/record#key={key}")
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        rows = conn.execute("SELECT game_id, key_hash FROM recorder_keys").fetchall()
    assert rows == [(gid, key_hash(key))] and key not in rows[0][1]
    # the same setup again is a second game, with its own key
    again = _create(client)
    assert again["id"] != gid and again["key"] != key


def test_log_appends_and_answers_the_steps_now(app: Any, client: Any) -> None:
    made = _create(client)
    gid, key = made["id"], made["key"]
    r = _post(client, gid, key, {"move": "take c3 d3 =GB", "expect": 1})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["step"] == 2 and body["texts"] == ["take c3 d3 =GB"]
    assert body["status"]["to_move"] == 1 and body["url"].endswith(f"/games/{gid}/step/2")
    r = _post(client, gid, key, {"expect": 2}, path="undo")
    assert r.status_code == 201 and r.get_json()["step"] == 3
    assert _steps(app, gid) == 3


def test_refusals_write_nothing(app: Any, client: Any) -> None:
    made = _create(client)
    gid, key = made["id"], made["key"]
    cases = [
        (None, {"move": "take c3 d3", "expect": 1}, 401),
        ("not-the-key", {"move": "take c3 d3", "expect": 1}, 403),
        (key, {"move": "take c3 d3", "expect": 5}, 409),
        (key, {"move": "take a1 e5", "expect": 1}, 422),
        (key, {"move": "tkae c3", "expect": 1}, 400),
        (key, {"move": 3, "expect": 1}, 400),
        (key, {"move": "take c3 d3", "expected": 1}, 400),
        (key, {"move": "take c3 d3", "expect": True}, 400),
        (key, ["take c3 d3"], 400),
        (key, {"move": "take c3 \ud800", "expect": 1}, 400),
    ]
    for given, body, status in cases:
        r = _post(client, gid, given, body)
        assert r.status_code == status, (body, r.get_json())
        assert r.get_json()["error"]["status"] == status
    assert _steps(app, gid) == 1
    stale = _post(client, gid, key, {"move": "take c3 d3", "expect": 5}).get_json()
    assert stale["step"] == 1
    illegal = _post(client, gid, key, {"move": "take a1 e5", "expect": 1}).get_json()
    (violation,) = illegal["verdict"]["violations"][:1]
    assert violation["rule"]["page"] and violation["citation"]
    assert _post(client, "nope", key, {"move": "take c3 d3"}).status_code == 404


def test_bodies_that_are_not_json_or_too_large(app: Any, client: Any) -> None:
    made = _create(client)
    gid, key = made["id"], made["key"]
    auth = {"Authorization": f"Bearer {key}"}
    url = f"/api/games/{gid}/events"
    cases = [
        (b"\xff\xfe{}", "application/json", 400, "UTF-8"),
        (b'{"move": ', "application/json", 400, "line 1"),
        (b"[" * 100_00 + b"]" * 100_00, "application/json", 400, "JSON"),
        (b'{"move": "take c3 d3", "expect": ' + b"9" * 5000 + b"}", "application/json", 400, ""),
        (b"move=take", "application/x-www-form-urlencoded", 415, "application/json"),
        (b'{"move": "' + b"a" * 70_000 + b'"}', "application/json", 413, ""),
    ]
    for data, mimetype, status, words in cases:
        r = client.post(url, data=data, content_type=mimetype, headers=auth)
        assert r.status_code == status, (data[:30], r.get_data(as_text=True)[:200])
        assert words in r.get_json()["error"]["message"]
    assert _steps(app, gid) == 1


def test_illegal_move_recorded_as_played_is_flagged(app: Any, client: Any) -> None:
    made = _create(client)
    gid, key = made["id"], made["key"]
    r = _post(client, gid, key, {"move": "take a1 e5", "expect": 1, "as_played": True})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["flagged"][0][0]["rule"]["page"]
    with EventStore.open(app.config["DATABASE"]) as store:
        (last,) = store.events(gid)[-1:]
        assert last.meta and last.meta.get("played_illegally")


def test_creating_from_another_machine_needs_the_secret(app: Any, client: Any) -> None:
    far = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}}
    r = client.post("/api/games", json={"notation": SETUP}, **far)
    assert r.status_code == 403 and "secret" in r.get_json()["error"]["message"]
    wrong = client.post(
        "/api/games", json={"notation": SETUP}, headers={"Authorization": "Bearer x"}, **far
    )
    assert wrong.status_code == 403
    secret = app.config["WRITE_SECRET"]
    made = _create(client, headers={"Authorization": f"Bearer {secret}"}, **far)
    assert made["id"]
    with EventStore.open(app.config["DATABASE"]) as store:
        assert store.listing.count() == 1


@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded"])
def test_behind_a_proxy_on_this_machine_creating_needs_the_secret(client: Any, header: str) -> None:
    """A reverse proxy on the same machine makes every request come from loopback: one
    that carries the proxy's header is not the machine's own unless the server was told
    to believe its proxies."""
    value = "192.0.2.7" if header == "X-Forwarded-For" else "for=192.0.2.7"
    r = client.post("/api/games", json={"notation": SETUP}, headers={header: value})
    assert r.status_code == 403 and "secret" in r.get_json()["error"]["message"]
    assert _create(client)["id"]  # straight from this machine: no secret asked


def test_with_trusted_proxies_the_client_address_is_the_proxies_word(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "p.db"), "TESTING": True, "TRUSTED_PROXIES": 1})
    client = app.test_client()
    far = client.post(
        "/api/games", json={"notation": SETUP}, headers={"X-Forwarded-For": "192.0.2.7"}
    )
    assert far.status_code == 403
    near = client.post(
        "/api/games", json={"notation": SETUP}, headers={"X-Forwarded-For": "127.0.0.1"}
    )
    assert near.status_code == 201, near.get_data(as_text=True)
    # the new-game page offers creating without the secret only to the machine's own
    page = client.get("/games/new", headers={"X-Forwarded-For": "192.0.2.7"})
    assert 'name="secret"' in page.get_data(as_text=True)


def test_a_creation_retried_with_its_idempotency_key_makes_one_game(app: Any, client: Any) -> None:
    """A phone that lost the answer sends the creation again: the same game, 200, with a
    new key (the first one never arrived); without the header every POST makes a game."""
    retry = {"Idempotency-Key": "5f0c2a9e-8d1b-4c53-9a3e-2b7f6c1d0e94"}
    first = client.post("/api/games", json={"notation": SETUP}, headers=retry)
    again = client.post("/api/games", json={"notation": SETUP}, headers=retry)
    assert (first.status_code, again.status_code) == (201, 200)
    one, two = first.get_json(), again.get_json()
    assert one["id"] == two["id"] and one["key"] != two["key"]
    with EventStore.open(app.config["DATABASE"]) as store:
        assert store.listing.count() == 1
        assert store.keys.matches(one["id"], two["key"])
        assert not store.keys.matches(one["id"], one["key"])
    other = SETUP.replace('"Bo"', '"Cy"')
    reused = client.post("/api/games", json={"notation": other}, headers=retry)
    assert reused.status_code == 409 and "Idempotency-Key" in reused.get_json()["error"]["message"]
    for bad in ("short", "x" * 201, "sp ace-in-it"):
        r = client.post("/api/games", json={"notation": SETUP}, headers={"Idempotency-Key": bad})
        assert r.status_code == 400, bad
    assert _create(client)["id"] != _create(client)["id"]  # no key: a game each time
    with EventStore.open(app.config["DATABASE"]) as store:
        assert store.listing.count() == 3


def test_an_undo_names_the_step_it_starts_from(app: Any, client: Any) -> None:
    """An undo sent twice (its answer lost) must not take back two decisions: without
    ``expect`` (or ``to``) it is refused; with it, the retry finds the game moved on."""
    made = _create(client)
    gid, key = made["id"], made["key"]
    for move in ("take c3", "take d3"):
        assert (
            _post(client, gid, key, {"move": move, "expect": _steps(app, gid)}).status_code == 201
        )
    for path, body in (("undo", {}), ("events", {"move": "undo"}), ("events", {"move": "3. undo"})):
        r = _post(client, gid, key, body, path)
        assert r.status_code == 400 and "expect" in r.get_json()["error"]["message"], body
    assert _steps(app, gid) == 3
    first = _post(client, gid, key, {"expect": 3}, "undo")
    retry = _post(client, gid, key, {"expect": 3}, "undo")
    assert (first.status_code, retry.status_code) == (201, 409)
    assert _steps(app, gid) == 4  # one correction: the retry took back nothing


def test_a_bad_setup_is_refused_with_its_line(client: Any) -> None:
    r = client.post("/api/games", json={"notation": SETUP.replace("GGRWY", "GGRWQ")})
    assert r.status_code == 400 and "notation:6:13" in r.get_json()["error"]["message"]


def test_the_key_never_reaches_the_log(app: Any, client: Any, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    made = _create(client)
    gid, key = made["id"], made["key"]
    _post(client, gid, key, {"move": "take c3 d3", "expect": 1})
    _post(client, gid, key + "x", {"move": "take c3 d3", "expect": 2})
    # every write is logged, the refused one too; the key is in none of the lines
    assert f"game {gid} created" in caplog.text and f"game {gid}: step 2 logged" in caplog.text
    assert "wrong key" in caplog.text
    assert key not in caplog.text and json.dumps(key) not in caplog.text


def test_a_move_sent_again_under_its_id_is_stored_once(app: Any, client: Any) -> None:
    """A phone that lost the answer sends the move again under the id it chose: the
    answer is the move as stored (200), never a second copy; the id of another move is
    refused (409), and so is an id that is not one (400)."""
    from recorder.logbook import log, new_game

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "games" / "points.tl"
    lines = fixture.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "\n".join(line for line in lines[:first] if not line.startswith(("[Result", "[Vic")))
    with EventStore.open(app.config["DATABASE"]) as store:
        gid = new_game(store, setup + "\n")
        for line in lines[first:]:
            if int(line.split(".", 1)[0]) >= 16:
                break
            log(store, gid, line.split(": ", 1)[1])
        key = store.keys.issue(gid)
        before = store.game(gid).event_count
    move = "buy 1-21 (W1 Y1) reveal 1-23"  # a decision and the card revealed after it
    sent = {"move": move, "expect": before, "id": "phone-7f3a9c01"}
    r = _post(client, gid, key, sent)
    assert r.status_code == 201, r.get_json()
    stored = r.get_json()
    assert stored["already_stored"] is False and stored["step"] == before + 2
    for _ in range(2):  # the answer lost, the same move sent again
        again = _post(client, gid, key, sent)
        assert again.status_code == 200, again.get_json()
        body = again.get_json()
        assert body["already_stored"] is True
        assert {k: body[k] for k in ("step", "steps_before", "texts")} == {
            k: stored[k] for k in ("step", "steps_before", "texts")
        }
    assert _steps(app, gid) == before + 2
    with EventStore.open(app.config["DATABASE"]) as store:
        ids = [e.event_id for e in store.events(gid)][before:]
    assert ids == ["phone-7f3a9c01", "phone-7f3a9c01.2"]
    # the id of that move, for another one
    other = _post(client, gid, key, {"move": "pass", "id": "phone-7f3a9c01"})
    assert other.status_code == 409 and "phone-7f3a9c01" in other.get_json()["error"]["message"]
    for bad in ("short", "has:colon-x", "x" * 65):
        r = _post(client, gid, key, {"move": "pass", "id": bad})
        assert r.status_code == 400 and "id:" in r.get_json()["error"]["message"]
    assert _steps(app, gid) == before + 2
