"""The new-game page, the recorder key page and unlocking, through Flask's test client
over a real SQLite file per test: what is created is exported and compared with the
notation the form was filled from; every refusal writes nothing."""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from recorder import EventStore
from recorder.io import export_notation
from web import create_app
from web.picker import picker_groups, resolve

DUEL = get_game("splendor-duel")
CLASSIC = get_game("splendor")

#: The form as a table fills it: one card by what is printed on it, one by a short id.
FILLED = {
    "kind": "splendor-duel",
    "player1": "Ann",
    "player2": "Bo",
    "first": "2",
    "date": "2025-03-14",
    "place": "Kitchen table",
    "board": "ggrwy rwbrg ybrwk gybkp pbwkk",
    "level3_1": "3-10",
    "level3_2": "3-1",
    "level3_3": "green 3 points crown",
    "level2_1": "2-10",
    "level2_2": "2-24",
    "level2_3": "2-20",
    "level2_4": "2-17",
    "level1_1": "1-11",
    "level1_2": "1-25",
    "level1_3": "1-16",
    "level1_4": "1-10",
    "level1_5": "1-27",
}

EXPECTED = """[Game "Splendor Duel"]
[Date "2025-03-14"]
[Place "Kitchen table"]
[Player1 "Ann"]
[Player2 "Bo"]
[First "Bo"]

board   GGRWY RWBRG YBRWK GYBKP PBWKK
level3  3-10 3-01 3-05
level2  2-10 2-24 2-20 2-17
level1  1-11 1-25 1-16 1-10 1-27
privileges 1 0
"""


@pytest.fixture()
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "games.db")
    with EventStore.open(path):
        pass
    return path


@pytest.fixture()
def app(db: str) -> Any:
    return create_app({"DATABASE": db, "TESTING": True, "WRITE_SECRET": "s3cret-for-tests"})


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def token(client: Any, url: str = "/games/new", **kw: Any) -> str:
    page = client.get(url, **kw)
    assert page.status_code == 200, page.data[:300]
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert match, "the form carries a CSRF token"
    return match.group(1)


def post(client: Any, values: dict[str, str], **kw: Any) -> Any:
    return client.post("/games/new", data={"csrf_token": token(client, **kw), **values}, **kw)


def game_ids(db: str) -> list[str]:
    with EventStore.open(db) as store:
        return [row.id for row in store.listing.games(limit=100)]


def errors(page: Any) -> dict[str, str]:
    html = page.get_data(as_text=True)
    found = re.findall(r'<p class="field-error[^"]*" id="err-([^"]+)"[^>]*>([^<]*)</p>', html)
    return {name: re.sub("&#39;", "'", text) for name, text in found}


def key_link(page: Any) -> tuple[str, str, str]:
    """The game's id, the recorder link and its key, from the key page."""
    html = page.get_data(as_text=True)
    match = re.search(r'class="key-link" href="([^"]+)"', html)
    assert match, html[:500]
    link = match.group(1)
    found = re.fullmatch(r"http://[^/]+/games/([0-9a-f]+)/record#key=([A-Za-z0-9_-]+)", link)
    assert found, link
    return found.group(1), link, found.group(2)


def normalized(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("[Result"))


# --- creating ---------------------------------------------------------------------------


def test_the_form_creates_one_game_with_the_setup_entered(client: Any, db: str) -> None:
    page = client.get("/games/new")
    html = page.get_data(as_text=True)
    assert 'name="secret"' not in html  # loopback: no secret asked
    assert html.count('class="sq"') == 25 and "data-picker" in html
    made = post(client, FILLED)
    assert made.status_code == 201, errors(made)
    assert made.headers["Cache-Control"] == "no-store"
    gid, link, key = key_link(made)
    assert game_ids(db) == [gid]
    with EventStore.open(db) as store:
        assert normalized(export_notation(store, gid)) == normalized(EXPECTED)
        assert store.game(gid).event_count == 1
    html = made.get_data(as_text=True)
    assert re.search(r'<img class="qr" src="data:image/svg\+xml[^"]+"', html)
    assert f'href="/games/{gid}/record"' in html  # start logging, no key in that URL
    # this browser may log at once: its session writes through the logging page's form
    record = f"/games/{gid}/record"
    data = {"csrf_token": token(client, record), "move": "take c3", "expect": "1"}
    logged = client.post(record, data=data, headers={"Accept": "application/json"})
    assert logged.status_code == 201, logged.json
    # the key is stored only as its hash
    raw = Path(db).read_bytes()
    assert key.encode() not in raw
    with sqlite3.connect(db) as conn:
        (stored,) = conn.execute(
            "SELECT key_hash FROM recorder_keys WHERE game_id = ?", (gid,)
        ).fetchone()
    assert stored != key and key not in stored
    assert stored == hashlib.sha256(key.encode()).hexdigest()


def test_a_classic_splendor_game_with_three_players(client: Any, db: str) -> None:
    values = {
        "kind": "splendor",
        "player1": "Ann",
        "player2": "Bo",
        "player3": "Cid",
        "first": "3",
        "date": "2025-04-01",
        "nobles_1": "N-06",
        "nobles_2": "N-08",
        "nobles_3": "N-01",
        "nobles_4": "N-04",
        "level3_1": "3-19",
        "level3_2": "3-02",
        "level3_3": "3-16",
        "level3_4": "3-08",
        "level2_1": "2-18",
        "level2_2": "2-08",
        "level2_3": "2-12",
        "level2_4": "2-29",
        "level1_1": "1-09",
        "level1_2": "1-37",
        "level1_3": "1-05",
        "level1_4": "1-17",
    }
    made = post(client, values, query_string={"kind": "splendor"})
    assert made.status_code == 201, errors(made)
    gid, _, _ = key_link(made)
    with EventStore.open(db) as store:
        text = export_notation(store, gid)
    assert '[Player3 "Cid"]' in text and '[First "3"]' in text
    assert "nobles  N-06 N-08 N-01 N-04" in text
    # a fifth noble at a table of three is refused, naming its field
    refused = post(client, {**values, "nobles_5": "N-02"}, query_string={"kind": "splendor"})
    assert refused.status_code == 422
    assert "3 players lay out 4 nobles" in errors(refused)["nobles_5"]
    assert len(game_ids(db)) == 1


# --- refusals -----------------------------------------------------------------------------


def test_a_missing_csrf_token_is_refused_and_nothing_written(client: Any, db: str) -> None:
    client.get("/games/new")
    refused = client.post("/games/new", data=FILLED)
    assert refused.status_code == 400
    assert "CSRF" in refused.get_data(as_text=True)
    wrong = client.post("/games/new", data={**FILLED, "csrf_token": "not-the-token"})
    assert wrong.status_code == 400
    assert game_ids(db) == []


def test_another_machine_needs_the_servers_secret(client: Any, db: str) -> None:
    lan = {"environ_base": {"REMOTE_ADDR": "192.168.1.23"}}
    page = client.get("/games/new", **lan)
    assert 'name="secret"' in page.get_data(as_text=True)
    refused = post(client, FILLED, **lan)
    assert refused.status_code == 403
    assert "asks for its secret" in errors(refused)["secret"]
    wrong = post(client, {**FILLED, "secret": "guess"}, **lan)
    assert wrong.status_code == 403 and "wrong" in errors(wrong)["secret"]
    assert 'value="Ann"' in wrong.get_data(as_text=True)  # the values are kept
    assert game_ids(db) == []
    made = post(client, {**FILLED, "secret": "s3cret-for-tests"}, **lan)
    assert made.status_code == 201, errors(made)
    assert len(game_ids(db)) == 1


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"board": "GGRWY RWBRG YBRWK GYBKP"}, "board", "20 of the 25 squares"),
        ({"board": "GGRWY RWBRG YBRWK GYBKP PBWKB"}, "board", "1 black missing"),
        ({"board": "GGRWY RWBRG YBRWK GYBKP PBWKX"}, "board", "X is not a token letter"),
        ({"level2_3": "2-10"}, "level2_3", "2-10 is already level 2 card 1"),
        ({"level1_2": "green"}, "level1_2", "cards fit 'green'"),
        ({"level1_2": "purple"}, "level1_2", "'purple' is not something printed"),
        ({"level1_2": "3-05"}, "level1_2", "not a level-1 card"),
        ({"level1_2": ""}, "level1_2", "choose a card"),
        ({"player2": "ann"}, "player2", "already a player's name"),
        ({"player2": "2"}, "player2", "reads as a seat number"),
        ({"player1": ""}, "player1", "a name is needed"),
        ({"date": "yesterday"}, "date", "is not a date"),
    ],
)
def test_a_bad_setup_is_refused_naming_its_field(
    client: Any, db: str, change: dict[str, str], field: str, words: str
) -> None:
    refused = post(client, {**FILLED, **change})
    assert refused.status_code == 422
    found = errors(refused)
    assert words in found.get(field, ""), found
    html = refused.get_data(as_text=True)
    assert 'value="Kitchen table"' in html  # what was entered is kept
    assert game_ids(db) == []


def test_the_page_asks_for_one_game_kind_it_knows(client: Any) -> None:
    assert client.get("/games/new?kind=chess").status_code == 400
    page = client.get("/games/new?kind=splendor").get_data(as_text=True)
    assert 'name="nobles_5"' in page and 'class="sq"' not in page


def test_every_page_links_to_the_new_game_page(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'class="nav-new" href="/games/new"' in html


# --- the key never in a log; unlocking ------------------------------------------------------


def test_the_key_is_never_logged_and_unlocks_only_with_itself(
    app: Any, db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    creator = app.test_client()
    made = post(creator, FILLED)
    gid, _, key = key_link(made)

    phone = app.test_client()  # another browser: no session of its own yet
    record = f"/games/{gid}/record"
    assert 'id="record-key"' in phone.get(record).get_data(as_text=True)  # the key form
    wrong_key = key[:-2] + ("AA" if not key.endswith("AA") else "BB")
    for bad in (wrong_key, "", "x" * 500):
        refused = phone.post(f"{record}/key", data={"csrf_token": token(phone, record), "key": bad})
        assert refused.status_code == 403
        assert "That is not this game" in refused.get_data(as_text=True)
    denied = phone.post(f"/api/games/{gid}/events", json={"move": "take c3", "expect": 1})
    assert denied.status_code == 401  # nothing was authorised
    # no CSRF token: refused before the key is even looked at
    assert phone.post(f"{record}/key", data={"key": key}).status_code == 400

    opened = phone.post(f"{record}/key", data={"csrf_token": token(phone, record), "key": key})
    assert opened.status_code == 303 and opened.headers["Location"].endswith(record)
    assert 'id="record-key"' not in phone.get(record).get_data(as_text=True)
    data = {"csrf_token": token(phone, record), "move": "take c3", "expect": "1"}
    logged = phone.post(record, data=data, headers={"Accept": "application/json"})
    assert logged.status_code == 201, logged.json

    assert key not in caplog.text
    assert caplog.records, "the log was captured"


def test_the_logging_page_of_an_unknown_game_is_not_found(client: Any) -> None:
    assert client.get("/games/0123456789ab/record").status_code == 404


# --- the picker --------------------------------------------------------------------------------


def test_the_pickers_search_is_the_games_own_lookup(client: Any) -> None:
    for query in ("green 3 points crown", "L2 joker", "cost B3", "steal", "1-5", "white 3pt 2cr"):
        body = client.get("/cards/splendor-duel/find", query_string={"q": query}).json
        assert body["ids"] == [c.id for c in DUEL.find_cards(query)], query
        assert body["error"] is None
    bad = client.get("/cards/splendor-duel/find?q=purple").json
    assert bad["ids"] == [] and "'purple' is not something printed on a card" in bad["error"]
    classic = client.get("/cards/splendor/find?q=noble 3 points").json
    assert classic["ids"] == [c.id for c in CLASSIC.find_cards("noble 3 points")]
    assert client.get("/cards/chess/find?q=x").status_code == 404
    assert client.get("/cards/splendor-duel/find", query_string={"q": "x" * 500}).status_code == 400


def _picks(page: str) -> dict[str, str]:
    """Each card the page's picker offers: its id and what its button draws."""
    picker = page.split('<section class="picker"', 1)[1].split("</section>", 1)[0]
    found = re.findall(
        r'<button type="button" class="pick" data-card="([^"]+)"[^>]*>(.*?)</button>', picker
    )
    return dict(found)


def test_the_picker_draws_every_card_once_by_level(client: Any) -> None:
    groups = picker_groups(DUEL)
    assert [g["level"] for g in groups] == [3, 2, 1]
    ids = [c["id"] for g in groups for c in g["cards"]]
    assert sorted(ids) == sorted(DUEL.cards()) and len(ids) == len(set(ids))
    page = client.get("/games/new?kind=splendor-duel").get_data(as_text=True)
    picks = _picks(page)
    assert list(picks) == ids  # each card once, by level, as the groups list them
    assert all(
        '<div class="card c-' in html and f'data-card="{cid}"' in html
        for cid, html in picks.items()
    )
    unseen = picker_groups(DUEL, levels=[2], only={"2-01", "2-05"})
    assert [c["id"] for c in unseen[0]["cards"]] == ["2-01", "2-05"]
    nobles = picker_groups(CLASSIC, levels=[0])
    assert nobles[0]["label"] == "Nobles"
    page = client.get("/games/new?kind=splendor").get_data(as_text=True)
    noble = nobles[0]["cards"][0]["id"]
    assert _picks(page)[noble].startswith(f'<div class="royal noble pickable" data-noble="{noble}"')
    assert resolve(DUEL, "2-5").id == "2-05"


def test_sending_the_form_again_creates_no_second_game(client: Any, db: str) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    form_id = re.search(r'name="form_id" value="([^"]+)"', page)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert form_id and csrf
    values = {**FILLED, "form_id": form_id.group(1), "csrf_token": csrf.group(1)}
    first = client.post("/games/new", data=values)
    assert first.status_code == 201
    gid, _, key = key_link(first)
    again = client.post("/games/new", data=values)  # a reload of the key page
    assert again.status_code == 409
    html = again.get_data(as_text=True)
    assert "already created" in html and gid in html and key not in html
    assert game_ids(db) == [gid]


def test_a_refused_setup_from_another_machine_asks_for_the_secret_again(
    client: Any, db: str
) -> None:
    lan = {"environ_base": {"REMOTE_ADDR": "10.0.0.7"}}
    refused = post(client, {**FILLED, "secret": "s3cret-for-tests", "level1_1": ""}, **lan)
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert 'name="secret"' in html and "s3cret-for-tests" not in html
    assert game_ids(db) == []


@pytest.mark.parametrize("name", ["web.picker", "web.setup_form", "engine.splendor.view"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and result.failed == 0


def test_the_picker_of_a_game_in_progress_shows_only_unseen_cards() -> None:
    import random

    events = DUEL.random_game(random.Random(3))
    state = DUEL.new_state()
    for event in events[:30]:
        DUEL.play(state, event)
    groups = picker_groups(DUEL, levels=[1, 2, 3], state=state)
    shown = {c["id"] for g in groups for c in g["cards"]}
    assert shown == {c.id for c in DUEL.find_cards("", state)}
    assert len(shown) < len(DUEL.cards())
