"""The logging page (``web/record.py``) through Flask's test client over a real SQLite file:
the recorder-key form, the page and the choices it carries, logging and undoing by its
forms without JavaScript (and as the script posts them, asking for JSON), and every
refusal: no key, a wrong key, no CSRF token, a stale step, an illegal move (then recorded
as played, flagged), a move that does not read.  Each refusal writes nothing."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from recorder import EventStore, snapshots
from recorder.logbook import log, new_game
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

CLASSIC = """[Game "Splendor"]
[Player1 "Ann"]
[Player2 "Bert"]
[First "1"]

nobles  N-10 N-07 N-01
level3  3-04 3-14 3-02 3-19
level2  2-27 2-11 2-28 2-22
level1  1-13 1-14 1-28 1-35
"""

JSON = {"Accept": "application/json"}
DUEL = get_game("splendor-duel")


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app({"DATABASE": str(tmp_path / "r.db"), "TESTING": True})


@pytest.fixture()
def made(app: Any) -> dict[str, Any]:
    """A new Splendor Duel game created through the JSON API (the id and the key)."""
    r = app.test_client().post("/api/games", json={"notation": SETUP})
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()  # type: ignore[no-any-return]


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the page carries a CSRF token"
    return found.group(1)


def _unlocked(app: Any, made: dict[str, Any]) -> tuple[Any, str]:
    """A browser (test client) that gave the game's key in the key form, and its token."""
    client = app.test_client()
    gid = made["id"]
    page = client.get(f"/games/{gid}/record").get_data(as_text=True)
    r = client.post(
        f"/games/{gid}/record/key", data={"key": made["key"], "csrf_token": _token(page)}
    )
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{gid}/record")
    page = client.get(f"/games/{gid}/record").get_data(as_text=True)
    return client, _token(page)


def _steps(app: Any, gid: str) -> int:
    with EventStore.open(app.config["DATABASE"]) as store:
        return store.game(gid).event_count


def _row(app: Any, gid: str) -> Any:
    with EventStore.open(app.config["DATABASE"]) as store:
        return store.game(gid)


def _data(page: str) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="record-data">(.*?)</script>', page, re.S
    )
    assert found
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_a_browser_without_the_key_gets_the_key_form(app: Any, made: dict[str, Any]) -> None:
    client = app.test_client()
    gid = made["id"]
    r = client.get(f"/games/{gid}/record")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'name="key"' in page and "record-data" not in page
    assert r.headers["Cache-Control"] == "no-store"
    # a wrong key: refused, and the form again
    r = client.post(f"/games/{gid}/record/key", data={"key": "nope", "csrf_token": _token(page)})
    assert r.status_code == 403 and "not this game" in r.get_data(as_text=True)
    assert 'name="key"' in client.get(f"/games/{gid}/record").get_data(as_text=True)
    # the key form itself needs the CSRF token
    r = client.post(f"/games/{gid}/record/key", data={"key": made["key"]})
    assert r.status_code == 400
    assert "record-data" not in client.get(f"/games/{gid}/record").get_data(as_text=True)
    assert client.get("/games/nosuch/record").status_code == 404


@pytest.mark.parametrize("how", ["new key", "revoked"])
def test_a_new_or_revoked_key_ends_the_sessions_unlocked_with_the_old(
    app: Any, made: dict[str, Any], how: str
) -> None:
    client, token = _unlocked(app, made)
    gid = made["id"]
    with EventStore.open(app.config["DATABASE"]) as store:
        if how == "new key":
            store.keys.issue(gid)
        else:
            store.keys.revoke(gid)
    # the form: refused, and the page says the link was replaced
    r = client.post(f"/games/{gid}/record", data={"move": "take a1", "csrf_token": token})
    assert r.status_code == 403 and "link was replaced" in r.get_data(as_text=True)
    # the page's script (JSON) and the JSON API with the session cookie alike
    r = client.post(
        f"/games/{gid}/record", data={"move": "take a1", "csrf_token": token}, headers=JSON
    )
    assert r.status_code == 403 and "link was replaced" in r.get_json()["error"]["message"]
    r = client.post(f"/api/games/{gid}/undo", json={})  # the API takes no cookie at all
    assert r.status_code == 401
    r = client.get(f"/games/{gid}/record")
    page = r.get_data(as_text=True)
    assert 'name="key"' in page and "record-data" not in page and "link was replaced" in page
    assert _steps(app, gid) == 1  # nothing was written
    # the old key itself unlocks nothing
    r = client.post(f"/games/{gid}/record/key", data={"key": made["key"], "csrf_token": token})
    assert r.status_code == 403
    if how == "new key":
        with EventStore.open(app.config["DATABASE"]) as store:
            newer = store.keys.issue(gid)
        r = client.post(f"/games/{gid}/record/key", data={"key": newer, "csrf_token": token})
        assert r.status_code == 303
        assert "record-data" in client.get(f"/games/{gid}/record").get_data(as_text=True)


def test_the_json_api_takes_no_session_cookie(app: Any, made: dict[str, Any]) -> None:
    """The API is exempt from CSRF, so a browser's session (which another site's page
    could make it send) writes nothing through it: only the Bearer key does."""
    client, _ = _unlocked(app, made)
    gid = made["id"]
    for url, body in (
        (f"/api/games/{gid}/events", {"move": "take a1"}),
        (f"/api/games/{gid}/undo", {}),
    ):
        r = client.post(url, json=body)
        assert r.status_code == 401 and "Bearer" in r.get_json()["error"]["message"]
    assert _steps(app, gid) == 1
    with EventStore.open(app.config["DATABASE"]) as store:
        legal = DUEL.legal_move_texts(store.state_at(gid))[0]
    r = client.post(
        f"/api/games/{gid}/events",
        json={"move": legal},
        headers={"Authorization": f"Bearer {made['key']}"},
    )
    assert r.status_code == 201 and _steps(app, gid) == 2


def test_the_page_carries_the_choices_and_the_table(app: Any, made: dict[str, Any]) -> None:
    client, _ = _unlocked(app, made)
    gid = made["id"]
    r = client.get(f"/games/{gid}/record")
    page = r.get_data(as_text=True)
    data = _data(page)
    with EventStore.open(app.config["DATABASE"]) as store:
        state = store.state_at(gid)
    assert data["steps"] == 1 and data["phase"] == "playing" and data["taps"] is True
    assert [c["text"] for c in data["choices"]] == DUEL.legal_move_texts(state)
    assert data["choices"][0] == DUEL.choices(state)[0].to_dict()
    assert data["due"].startswith("Ann to play")
    # every target of every choice is drawn on the page
    drawn = set(re.findall(r'data-target="([^"]+)"', page))
    assert {t for c in data["choices"] for t in c["targets"]} <= drawn
    assert {f"{c}{r}" for c in "abcde" for r in "12345"} <= drawn
    # no inline script or style: scripts from /static (the game's from its own static
    # files), the data block is not executable
    for tag in re.findall(r"<script[^>]*>", page):
        assert (
            'src="/static/' in tag
            or 'src="/games-static/splendor-duel/' in tag
            or 'type="application/json"' in tag
        ), tag
    assert "style=" not in page and "<style" not in page
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["Referrer-Policy"] == "no-referrer"
    # the form that works without JavaScript
    assert 'name="move"' in page and 'name="expect" value="1"' in page


def test_logging_and_undoing_by_the_forms(app: Any, made: dict[str, Any]) -> None:
    client, token = _unlocked(app, made)
    gid = made["id"]
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take c3 d3", "expect": "1", "csrf_token": token},
    )
    assert r.status_code == 303 and _steps(app, gid) == 2
    page = client.get(f"/games/{gid}/record").get_data(as_text=True)
    assert "take c3 d3 =GB" in html.unescape(page) and _data(page)["steps"] == 2
    # as the script posts it: JSON asked for, the token in a header
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take b1", "expect": "2"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 201 and r.get_json()["step"] == 3
    assert r.get_json()["texts"] == ["take b1 =B"]
    # undo: a page that says what it takes back, then the correction
    page = client.get(f"/games/{gid}/record/undo").get_data(as_text=True)
    assert "step 3" in page and "take b1 =B" in page
    r = client.post(f"/games/{gid}/record/undo", data={"expect": "3", "csrf_token": token})
    assert r.status_code == 303 and _steps(app, gid) == 4
    data = _data(client.get(f"/games/{gid}/record").get_data(as_text=True))
    assert data["steps"] == 4 and data["last"] == {
        "step": 2,
        "text": "take c3 d3 =GB",
        "steps": [2],
        "says": "step 2, take c3 d3 =GB",
    }
    assert data["recent"][-2]["retracted"] is True


def test_a_move_logged_from_the_page_goes_on_from_the_fold_the_page_made(
    app: Any, rules_calls: Any
) -> None:
    """The logging page of a game of 150 events folds it once, for its move list; the
    move then logged from it is read, checked and applied once, from that fold (the
    store's :mod:`recorder.snapshots`), and the page after it folds the game once more."""
    import random

    events = DUEL.random_game(random.Random(22), ["Ann", "Bo"])
    with EventStore.open(app.config["DATABASE"]) as store:
        gid = store.create_game({"players": ["Ann", "Bo"]}).id
        store.append(gid, 0, [DUEL.event_to_dict(e) for e in events[:150]])
        text = DUEL.move_text(store.state_at(gid), events[150])
        key = store.keys.issue(gid)
    kept = snapshots.for_database(str(Path(app.config["DATABASE"]).resolve()))
    kept.clear()  # as a new server starts
    counted = rules_calls("splendor-duel")
    client, token = _unlocked(app, {"id": gid, "key": key})
    assert counted["check"] == 150  # the page's fold: the move list and the table
    head = bytes.fromhex(_row(app, gid).head)
    assert kept.get(gid, 150, head).first == 0  # the page's fold, kept for the store
    counted.update(check=0, apply=0)
    r = client.post(
        f"/games/{gid}/record",
        data={"move": text, "expect": "150"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 201 and r.get_json()["texts"] == [text]
    assert counted == {"check": 1, "apply": 1}
    row = _row(app, gid)
    assert kept.get(gid, 151, bytes.fromhex(row.head)).first == 0  # grown by the move
    with EventStore.open(app.config["DATABASE"]) as store:
        assert store.events(gid)[-1].text == text


def test_the_undo_says_it_takes_back_a_card_revealed_on_its_own(app: Any) -> None:
    """A card revealed after the purchase was stored is what an undo takes back, alone,
    and the page says so before; a purchase logged with its card goes back with it."""
    with EventStore.open(app.config["DATABASE"]) as store:
        text = (Path(__file__).resolve().parents[2] / "fixtures/games/points.tl").read_text()
        lines = text.splitlines()
        first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
        setup = "\n".join(x for x in lines[:first] if not x.startswith(("[Result", "[Vic")))
        gid = new_game(store, setup + "\n")
        for line in lines[first : first + 5]:
            log(store, gid, line)
        log(store, gid, "buy 1-16 (W1 B1 G1 R1)")
        log(store, gid, "reveal 1-24")
        key = store.keys.issue(gid)
    made = {"id": gid, "key": key}
    client, token = _unlocked(app, made)
    says = "step 9, reveal 1-24, entered on its own (what came before stays)"
    assert _data(client.get(f"/games/{gid}/record").get_data(as_text=True))["last"]["says"] == says
    page = html.unescape(client.get(f"/games/{gid}/record/undo").get_data(as_text=True))
    assert f"Undo takes back {says}." in page
    r = client.post(f"/games/{gid}/record/undo", data={"expect": "9", "csrf_token": token})
    assert r.status_code == 303 and _steps(app, gid) == 10
    with EventStore.open(app.config["DATABASE"]) as store:
        assert store.events(gid)[-1].text == "undo to 8"
    client.post(
        f"/games/{gid}/record",
        data={"move": "reveal 1-11", "expect": "10"},
        headers={**JSON, "X-CSRFToken": token},
    )
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "buy 1-11 (W1 B1 R1 K1) reveal 1-03", "expect": "11"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 201, r.get_data(as_text=True)
    last = _data(client.get(f"/games/{gid}/record").get_data(as_text=True))["last"]
    assert last["steps"] == [12, 13]
    assert last["says"] == "step 12, buy 1-11 (W1 B1 R1 K1), with reveal 1-03 logged with it"


def test_the_page_logs_under_its_own_id_and_never_twice(app: Any, made: dict[str, Any]) -> None:
    """A phone whose answer was lost sends the move again under the same id: answered
    200 with the move as stored, whatever ``expect`` says; the id of another move 409; a
    bad id 400, naming the field."""
    client, token = _unlocked(app, made)
    gid = made["id"]
    headers = {**JSON, "X-CSRFToken": token}
    sent = {"move": "take c3 d3", "expect": "1", "id": "phone-move-0001"}
    r = client.post(f"/games/{gid}/record", data=sent, headers=headers)
    assert r.status_code == 201 and r.get_json()["already_stored"] is False
    r = client.post(f"/games/{gid}/record", data=sent, headers=headers)
    assert r.status_code == 200 and r.get_json()["already_stored"] is True
    assert r.get_json()["step"] == 2 and _steps(app, gid) == 2
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take b1", "expect": "2", "id": "phone-move-0001"},
        headers=headers,
    )
    assert r.status_code == 409 and "take c3 d3 =GB" in r.get_json()["error"]["message"]
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take b1", "expect": "2", "id": "a b"},
        headers=headers,
    )
    assert r.status_code == 400 and r.get_json()["error"]["message"].startswith("id: 8 to 64")
    assert _steps(app, gid) == 2


def test_refusals_write_nothing(app: Any, made: dict[str, Any]) -> None:
    gid = made["id"]
    client, token = _unlocked(app, made)
    stranger = app.test_client()
    stranger_token = _token(stranger.get(f"/games/{gid}/record").get_data(as_text=True))
    move = {"move": "take c3 d3", "expect": "1"}

    # no session holding the game: the key form (403), or 403 in JSON
    r = stranger.post(f"/games/{gid}/record", data={**move, "csrf_token": stranger_token})
    assert r.status_code == 403 and 'name="key"' in r.get_data(as_text=True)
    r = stranger.post(
        f"/games/{gid}/record", data=move, headers={**JSON, "X-CSRFToken": stranger_token}
    )
    assert r.status_code == 403 and r.get_json()["error"]["status"] == 403
    r = stranger.post(f"/games/{gid}/record/undo", data={"csrf_token": stranger_token})
    assert r.status_code == 403
    # no CSRF token
    r = client.post(f"/games/{gid}/record", data=move)
    assert r.status_code == 400
    r = client.post(f"/games/{gid}/record", data=move, headers=JSON)
    assert r.status_code == 400 and "CSRF" in r.get_json()["error"]["message"]
    r = client.post(f"/games/{gid}/record/undo", data={"expect": "1"})
    assert r.status_code == 400
    assert _steps(app, gid) == 1

    # a stale step: another phone logged first
    r = client.post(
        f"/games/{gid}/record", data={"move": "take c3 d3", "expect": "0", "csrf_token": token}
    )
    assert r.status_code == 409
    page = html.unescape(r.get_data(as_text=True))
    assert "Another logger was first" in page and _data(page)["steps"] == 1
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take c3 d3", "expect": "5"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 409 and r.get_json()["step"] == 1
    r = client.post(
        f"/games/{gid}/record/undo", data={"expect": "7"}, headers={**JSON, "X-CSRFToken": token}
    )
    assert r.status_code == 409

    # text that does not read: the column
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take c3 z9", "expect": "1"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 400 and r.get_json()["column"] == 9
    r = client.post(
        f"/games/{gid}/record", data={"move": "take c3 z9", "expect": "1", "csrf_token": token}
    )
    assert r.status_code == 400 and "at column 9" in r.get_data(as_text=True)
    r = client.post(f"/games/{gid}/record", data={"move": " ", "csrf_token": token})
    assert r.status_code == 400
    r = client.post(
        f"/games/{gid}/record", data={"move": "take a1", "expect": "x", "csrf_token": token}
    )
    assert r.status_code == 400
    assert _steps(app, gid) == 1

    # illegal: the verdict with the rule and the page, and the offer to record it as played
    illegal = {"move": "take c1 e1", "expect": "1"}
    r = client.post(f"/games/{gid}/record", data=illegal, headers={**JSON, "X-CSRFToken": token})
    assert r.status_code == 422
    (violation,) = r.get_json()["verdict"]["violations"]
    assert violation["code"] == "take.not_a_line" and violation["rule"]["page"] == 5
    r = client.post(f"/games/{gid}/record", data={**illegal, "csrf_token": token})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422 and "p.5, Take up to 3 tokens" in page
    assert 'name="as_played" value="1"' in page and "Record it as played" in page
    assert _steps(app, gid) == 1
    # recorded as played: flagged
    r = client.post(
        f"/games/{gid}/record",
        data={**illegal, "as_played": "1"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 201 and r.get_json()["flagged"][0][0]["code"] == "take.not_a_line"
    with EventStore.open(app.config["DATABASE"]) as store:
        last = store.events(gid)[-1]
    assert last.meta and last.meta.get("played_illegally") is True
    data = _data(client.get(f"/games/{gid}/record").get_data(as_text=True))
    assert data["steps"] == 2 and data["recent"][-1]["flagged"] is True


def test_classic_splendor_is_logged_by_tapping_or_typing(app: Any) -> None:
    r = app.test_client().post("/api/games", json={"notation": CLASSIC})
    assert r.status_code == 201, r.get_data(as_text=True)
    made = r.get_json()
    client, token = _unlocked(app, made)
    page = client.get(f"/games/{made['id']}/record").get_data(as_text=True)
    data = _data(page)
    assert data["taps"] is True and data["choices"]
    # every target of every choice is drawn on the table (the bank, cards, decks)
    targets = {t for c in data["choices"] for t in c["targets"]}
    assert targets and all(f'data-target="{t}"' in page for t in targets)
    assert 'class="rec-form"' in page  # the typed form stays
    r = client.post(
        f"/games/{made['id']}/record",
        data={"move": "take WBG", "expect": "1", "csrf_token": token},
    )
    assert r.status_code == 303 and _steps(app, made["id"]) == 2


def test_a_decision_with_a_part_left_out_is_offered_whole(app: Any) -> None:
    """A Splendor Duel reserve typed without the Gold it takes, while three are on the
    board (``res 1-11``), does not read, and the page offers each decision that completes
    it (``res 1-11 @a1`` ...) as a button that logs it; a classic reserve typed without
    its Gold while Golds are left takes it (``res 1-13 +Y``: the rules leave no choice);
    a purchase typed without its payment, which nothing completes, says what is missing."""
    r = app.test_client().post("/api/games", json={"notation": SETUP})
    made = r.get_json()
    gid = made["id"]
    client, token = _unlocked(app, made)
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "res 1-11", "expect": "1"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 400
    body = r.get_json()
    assert body["completions"] == ["res 1-11 @a1", "res 1-11 @b2", "res 1-11 @c5"]
    # without JavaScript: a form per completion, posting it as the move
    r = client.post(
        f"/games/{gid}/record", data={"move": "res 1-11", "expect": "1", "csrf_token": token}
    )
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 400 and "Did you mean:" in page
    offered = re.search(r'<div class="rec-completions">(.*?)</div>', page, re.S)
    assert offered and 'name="move" value="res 1-11 @b2"' in offered.group(1)
    assert _steps(app, gid) == 1
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "res 1-11 @b2", "expect": "1", "csrf_token": _token(page)},
    )
    assert r.status_code == 303 and _steps(app, gid) == 2
    # classic: the Gold the rules make a reserve take is taken
    r = app.test_client().post("/api/games", json={"notation": CLASSIC})
    made = r.get_json()
    gid = made["id"]
    client, token = _unlocked(app, made)
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "res 1-13", "expect": "1"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 201 and r.get_json()["texts"] == ["res 1-13 +Y"]
    # a buy without its payment does not read, and says what is missing; no legal
    # decision completes it (a card must be revealed first), so none is offered
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "buy 1-14", "expect": "2"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 400, r.get_data(as_text=True)
    body = r.get_json()
    assert "the payment is missing" in body["error"]["message"] and body["completions"] == []


def test_a_move_that_cannot_be_recorded_even_as_played_is_not_offered_so(app: Any) -> None:
    """A purchase paid with tokens the player does not hold cannot be applied even as
    played: the refusal says so (``as_played`` false) and the page offers no such button;
    a refused move that can be applied is offered (``as_played`` true)."""
    made = app.test_client().post("/api/games", json={"notation": CLASSIC}).get_json()
    gid = made["id"]
    client, token = _unlocked(app, made)
    for move, playable in (("buy 1-13 =WWW", False), ("take WWB", True)):
        r = client.post(
            f"/games/{gid}/record",
            data={"move": move, "expect": "1"},
            headers={**JSON, "X-CSRFToken": token},
        )
        assert r.status_code == 422 and r.get_json()["as_played"] is playable, move
        r = client.post(
            f"/games/{gid}/record", data={"move": move, "expect": "1", "csrf_token": token}
        )
        page = r.get_data(as_text=True)
        assert r.status_code == 422 and ("Record it as played" in page) is playable, move
    assert _steps(app, gid) == 1


def test_a_game_is_voided_with_its_key_and_leaves_the_lists(app: Any, made: dict[str, Any]) -> None:
    """The void form wants the game's key and a CSRF token; a void game leaves the site's
    list and the API's (``all=1`` shows it, marked), says so on its replay, and refuses
    every write."""
    gid = made["id"]
    stranger = app.test_client()
    page = stranger.get(f"/games/{gid}/record/void").get_data(as_text=True)
    assert 'name="key"' in page  # the key form, not the void form
    token = _token(page)
    r = stranger.post(f"/games/{gid}/record/void", data={"reason": "x", "csrf_token": token})
    assert r.status_code == 403
    client, token = _unlocked(app, made)
    assert "void this game" in client.get(f"/games/{gid}", follow_redirects=True).get_data(
        as_text=True
    )
    page = client.get(f"/games/{gid}/record/void").get_data(as_text=True)
    assert 'name="reason"' in page
    r = client.post(f"/games/{gid}/record/void", data={"reason": "wrong setup"})
    assert r.status_code == 400  # no CSRF token
    r = client.post(f"/games/{gid}/record/void", data={"reason": " ", "csrf_token": token})
    assert r.status_code == 400 and "one line of 1 to 200" in r.get_data(as_text=True)
    assert client.get("/api/games").get_json()["total"] == 1
    r = client.post(
        f"/games/{gid}/record/void", data={"reason": "wrong setup", "csrf_token": token}
    )
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{gid}")
    replay = html.unescape(
        client.get(f"/games/{gid}", follow_redirects=True).get_data(as_text=True)
    )
    assert "<b>This game is void</b>: wrong setup." in replay and "void this game" not in replay
    # its last step: nobody is to play any more
    assert "Void: nothing more is logged to this game" in replay
    assert '<span class="badge">to play</span>' not in replay
    assert client.get("/api/games").get_json()["total"] == 0
    assert gid not in client.get("/").get_data(as_text=True)
    listed = client.get("/api/games?all=1").get_json()
    assert listed["total"] == 1 and listed["games"][0]["void"] == "wrong setup"
    assert listed["games"][0]["result"] == "void"
    site = client.get("/?all=1").get_data(as_text=True)
    assert gid in site and 'title="wrong setup">void<' in site
    r = client.post(
        f"/games/{gid}/record",
        data={"move": "take c3 d3", "expect": "1"},
        headers={**JSON, "X-CSRFToken": token},
    )
    assert r.status_code == 409 and "is void (wrong setup)" in r.get_json()["error"]["message"]
    r = app.test_client().post(
        f"/api/games/{gid}/events",
        json={"move": "take c3 d3", "expect": 1},
        headers={"Authorization": f"Bearer {made['key']}"},
    )
    assert r.status_code == 409 and _steps(app, gid) == 1
