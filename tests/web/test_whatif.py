"""What-if lines on the replay page (web/whatif.py): decisions played from a step of a
fixture game, carried in the address, checked by the rules, written nowhere; each
refusal a 400 page naming the decision and the rule.  A real SQLite file under the app,
the app's own test client."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from recorder import EventStore
from recorder.io import load_file
from web import create_app

ROOT = Path(__file__).resolve().parents[2]
#: Step 20 of crowns.tl: Chloé is to play and can buy 1-16; the record then revealed 1-21.
GAME = ROOT / "fixtures" / "games" / "crowns.tl"
BUY = "buy 1-16 (W1 B1 R1)"


@pytest.fixture(scope="module")
def gid(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    path = tmp_path_factory.mktemp("whatif") / "w.db"
    with EventStore.open(path) as store:
        (record,) = load_file(GAME)
        game_id = store.import_game(record).game_id
    return str(path), game_id


@pytest.fixture()
def client(gid: tuple[str, str]) -> Any:
    return create_app({"DATABASE": gid[0], "TESTING": True}).test_client()


def _at(game_id: str, step: int, *moves: str) -> str:
    q = urlencode([("line", m) for m in moves])
    return f"/games/{game_id}/step/{step}" + (f"?{q}" if q else "")


def _review_length(path: str, game_id: str) -> int:
    with EventStore.open(path) as store:
        return len(store.review_events(game_id))


def test_the_record_step_offers_a_get_form_and_a_line_its_legal_decisions(
    client: Any, gid: Any
) -> None:
    """The record's step page opens the form without listing every decision (a replay
    step would cost as much again); the line's page lists them as completions."""
    page = client.get(_at(gid[1], 20)).get_data(as_text=True)
    assert 'id="play"' in page and 'name="line"' in page and 'id="play-input"' in page
    assert "play-legal" not in page and "<option" not in page
    line = client.get(_at(gid[1], 20, BUY, "reveal 1-21")).get_data(as_text=True)
    assert 'list="play-legal"' in line and '<datalist id="play-legal">' in line
    assert '<option value="take ' in line and f'<option value="{BUY}">' not in line


def test_a_line_is_played_in_the_address_and_its_reveal_asked(client: Any, gid: Any) -> None:
    path, game_id = gid
    r = client.get(_at(game_id, 20, BUY))
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "What if" in page and BUY in page
    # the purchase left a pyramid slot empty: the reveal is asked, as it happened first
    assert "revealed" in page and '<option value="reveal 1-02">' in page
    assert "As it happened: <code>reveal 1-21</code>" in page
    assert _at(game_id, 20, BUY, "reveal 1-21").replace("&", "&amp;") in page
    # each step of the line has its address, its picture too
    r = client.get(_at(game_id, 20, BUY, "reveal 1-02"))
    assert r.status_code == 200
    svg = client.get(_at(game_id, 20, BUY, "reveal 1-02").replace("/20?", "/20.svg?"))
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert "What if, from step 20: decision 2 of 2" in svg.get_data(as_text=True)
    png = client.get(_at(game_id, 20, BUY, "reveal 1-02").replace("/20?", "/20.png?"))
    assert png.status_code == 200 and png.data.startswith(b"\x89PNG")
    page = r.get_data(as_text=True)
    assert 'og:image" content="http://localhost/games/' in page
    assert "/step/20.png?line=buy+1-16+%28W1+B1+R1%29&amp;line=reveal+1-02" in page
    assert _review_length(path, game_id) == 0  # written nowhere


def test_a_loose_or_combined_address_leads_to_one_decision_a_step(client: Any, gid: Any) -> None:
    game_id = gid[1]
    r = client.get(_at(game_id, 20, f"{BUY} reveal 1-02", ""))
    assert r.status_code == 302
    assert r.headers["Location"].endswith(_at(game_id, 20, BUY, "reveal 1-02"))
    r = client.get(_at(game_id, 20, ""))
    assert r.status_code == 302 and r.headers["Location"].endswith(_at(game_id, 20))


@pytest.mark.parametrize(
    ("moves", "said"),
    [
        (["take a1 a2 a3 a4"], "Decision 1 of the line from step 20, 'take a1 a2 a3 a4', is"),
        (["take a1 a2 a3 a4"], "is refused: illegal move: take a1 a2 a3 a4 is not allowed"),
        (["take a1 a2 a3 a4"], "p.5, Take up to 3 tokens"),
        ([BUY, "take b1"], "Decision 2 of the line from step 20, 'take b1'"),
        (["xyz"], "unknown decision 'xyz'"),
        ([BUY, "reveal 1-21", "repl"], "list the 8 tokens drawn from the bag"),
    ],
)
def test_a_refused_decision_just_typed_is_said_under_the_form_kept_to_mend(
    client: Any, gid: Any, moves: list[str], said: str
) -> None:
    """The last decision of the address is the one typed into the form: the page is the
    line before it (or the record's step) with the refusal under the form, a 400, and
    the text kept in the field."""
    r = client.get(_at(gid[1], 20, *moves))
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "Not a line of this game" not in page
    refusal = page.split('id="play-refused"', 1)[1].split("</p>", 1)[0]
    assert said.replace("'", "&#39;") in refusal
    field = page.split('<input id="play-input"', 1)[1].split(">", 1)[0]
    assert f'value="{moves[-1]}"' in field and 'aria-invalid="true"' in field
    line = page.split('<ol class="whatif-line"', 1)[1].split("</ol>", 1)[0] if moves[1:] else ""
    assert line.count("<li") == len(moves) - 1
    assert '<datalist id="play-legal">' in page


@pytest.mark.parametrize(
    ("moves", "said"),
    [
        (["take a1 a2 a3 a4", BUY], "Decision 1 of the line from step 20, 'take a1 a2 a3 a4'"),
        ([BUY, "take b1", "take a1"], "Decision 2 of the line from step 20, 'take b1'"),
        (["x" * 201], "Decision 1 of the line is longer than 200 characters"),
        (["reveal 1-02"] * 401, "a line holds 400 decisions at most; this address has 401"),
    ],
)
def test_an_address_whose_line_cannot_be_played_is_a_400_page(
    client: Any, gid: Any, moves: list[str], said: str
) -> None:
    r = client.get(_at(gid[1], 20, *moves))
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "Not a line of this game" in page
    assert said.replace("'", "&#39;") in page
    assert "Back to the line before it" in page or len(moves) == 1


def test_a_line_from_a_step_that_does_not_exist_is_a_400(client: Any, gid: Any) -> None:
    for address in (_at(gid[1], 9999, BUY), _at(gid[1], 9999, BUY).replace("?", ".svg?")):
        r = client.get(address)
        assert r.status_code == 400, address
        assert "not 9999" in r.get_data(as_text=True)


# --- saving a line into the review, withdrawing it: keyed forms with CSRF --------------


@pytest.fixture()
def keyed(tmp_path: Path) -> tuple[str, str, str, str]:
    """A store of its own (each test writes): its path, the game, its recorder key and
    its review key."""
    path = tmp_path / "k.db"
    with EventStore.open(path) as store:
        (record,) = load_file(GAME)
        game_id = store.import_game(record).game_id
        recorder_key = store.keys.issue(game_id)
        review_key = store.keys.issue(game_id, review=True)
    return str(path), game_id, recorder_key, review_key


def _form(client: Any, address: str) -> dict[str, Any]:
    """The save (or withdraw) form of a line's page, as the browser would post it."""
    page = client.get(address).get_data(as_text=True)
    form = page[page.index('class="review-form"') :]
    form = form[: form.index("</form>")]
    fields: dict[str, Any] = {}
    for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form):
        value = html.unescape(value)
        if name == "line" and "line" in fields:
            fields["line"] = (
                [*fields["line"], value]
                if isinstance(fields["line"], list)
                else [fields["line"], value]
            )
        else:
            fields[name] = value
    action = html.unescape(re.search(r'action="([^"]+)"', form).group(1))  # type: ignore[union-attr]
    return {"action": action, "data": fields}


def test_a_line_is_saved_with_a_review_key_and_withdrawn_with_the_recorder_key(
    keyed: Any,
) -> None:
    path, game_id, recorder_key, review_key = keyed
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    address = _at(game_id, 20, BUY, "reveal 1-21")
    form = _form(client, address)
    assert form["data"]["expect"] == "0" and form["data"]["line"] == [BUY, "reveal 1-21"]
    r = client.post(form["action"], data={**form["data"], "by": "Chloé", "key": review_key})
    assert r.status_code == 303 and r.headers["Location"].endswith(address + "#play")
    with EventStore.open(path) as store:
        (event,) = store.review_events(game_id)
    assert event.kind == "line" and event.author == "Chloé" and event.body["from"] == "20"
    assert event.body["texts"] == [BUY, "reveal 1-21"]
    assert "Saved in the review as line 1 by Chloé" in client.get(address).get_data(as_text=True)
    form = _form(client, address)
    assert form["action"].endswith("/review/withdraw") and form["data"]["line"] == "1"
    r = client.post(form["action"], data={**form["data"], "by": "Dan", "key": recorder_key})
    assert r.status_code == 303
    assert _review_length(path, game_id) == 2
    assert "Saved in the review" not in client.get(address).get_data(as_text=True)


def test_keyed_refusals_write_nothing(keyed: Any) -> None:
    path, game_id, _, review_key = keyed
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    address = _at(game_id, 20, BUY)
    form = _form(client, address)
    good = {**form["data"], "by": "Chloé", "key": review_key}
    r = client.post(form["action"], data={**good, "key": "not-a-key"})
    assert r.status_code == 403 and "neither this game" in r.get_data(as_text=True)
    r = client.post(form["action"], data={**good, "key": ""})
    assert r.status_code == 403
    r = client.post(form["action"], data={k: v for k, v in good.items() if k != "csrf_token"})
    assert r.status_code == 400 and "CSRF" in r.get_data(as_text=True)
    r = client.post(form["action"], data={**good, "line": [BUY, "reveal 1-21", "take a1 a2 a3 a4"]})
    assert r.status_code == 422, r.get_data(as_text=True)
    assert "move 3: illegal move: take a1 a2 a3 a4" in r.get_data(as_text=True)
    assert "Take up to 3 tokens" in r.get_data(as_text=True)
    assert _review_length(path, game_id) == 0
    # another reviewer writes first: the form's expect is stale
    other = _form(client, _at(game_id, 20, BUY, "reveal 1-21"))
    assert (
        client.post(
            other["action"], data={**other["data"], "by": "Bo", "key": review_key}
        ).status_code
        == 303
    )
    r = client.post(form["action"], data=good)
    assert r.status_code == 409 and "Another reviewer was first" in r.get_data(as_text=True)
    assert _review_length(path, game_id) == 1


def test_the_review_page_shows_saved_lines_as_a_tree_and_marks_steps(keyed: Any) -> None:
    path, game_id, _, review_key = keyed
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    address = _at(game_id, 20, BUY, "reveal 1-21")
    form = _form(client, address)
    r = client.post(form["action"], data={**form["data"], "by": "Chloé", "key": review_key})
    assert r.status_code == 303
    page = client.get(f"/games/{game_id}/review").get_data(as_text=True)
    # the line hangs under step 21, the decision it replaces, each step linked
    step21 = page[page.index('id="at-21"') :]
    step21 = step21[: step21.index('id="at-22"')]
    assert 'data-line="1"' in step21 and "by Chloé" in step21
    assert 'id="at-20-1-2"' in step21
    assert address.replace("&", "&amp;") in step21
    # mark step 20/1.2 with ? and a note
    page = client.get(f"/games/{game_id}/review?at=20/1.2").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert 'name="at" value="20/1.2"' in page
    data = {"csrf_token": token, "expect": "1", "at": "20/1.2", "mark": "?", "by": "Bo"}
    r = client.post(
        f"/games/{game_id}/review/marks",
        data={**data, "note": "the reveal helps Daniel", "key": review_key},
    )
    assert r.status_code == 303, r.get_data(as_text=True)
    page = client.get(f"/games/{game_id}/review?marked=1").get_data(as_text=True)
    assert 'id="at-20-1-2"' in page and "the reveal helps Daniel" in page
    assert 'id="at-21"' not in page  # the filter leaves the unmarked steps out
    page = client.get(address).get_data(as_text=True)
    assert "Step <code>20/1.2</code> of the review" in page and "the reveal helps Daniel" in page
    # keyed as the other forms: a bad key 403, no token 400, a stale expect 409
    post = f"/games/{game_id}/review/marks"
    assert client.post(post, data={**data, "key": "nope"}).status_code == 403
    assert client.post(post, data={**data, "expect": "2", "key": review_key}).status_code == 303
    stale = client.post(post, data={**data, "key": review_key})
    assert stale.status_code == 409
    no_token = {k: v for k, v in data.items() if k != "csrf_token"}
    assert client.post(post, data={**no_token, "key": review_key}).status_code == 400
    assert _review_length(path, game_id) == 3


def test_the_replay_move_list_shows_the_review_once_there_is_one(keyed: Any) -> None:
    """A game without a review draws its move list as before (the row says its review is
    empty: nothing more is read); once a line is saved and a step marked, every step's
    move list has the line under step 21 and the mark, and the kept page is renewed."""
    path, game_id, _, review_key = keyed
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    before = client.get(f"/games/{game_id}/step/40")
    assert 'class="variations"' not in before.get_data(as_text=True)
    address = _at(game_id, 20, BUY, "reveal 1-21")
    form = _form(client, address)
    r = client.post(form["action"], data={**form["data"], "by": "Chloé", "key": review_key})
    assert r.status_code == 303
    r = client.get(f"/games/{game_id}/step/40", headers={"If-None-Match": before.headers["ETag"]})
    assert r.status_code == 200  # the review changed the page
    page = r.get_data(as_text=True)
    step21 = page[page.index('id="m21"') :]
    step21 = step21[: step21.index("</li>\n", step21.index('class="variations"'))]
    assert 'data-line="1"' in step21 and 'data-at="20/1.2"' in step21
    assert address.replace("&", "&amp;") in step21
    assert "Show the marked steps" in page
    # a record step's mark and note show on its page too
    token = re.search(
        r'name="csrf_token" value="([^"]+)"',
        client.get(f"/games/{game_id}/review").get_data(as_text=True),
    ).group(1)  # type: ignore[union-attr]
    data = {
        "csrf_token": token,
        "expect": "1",
        "at": "40",
        "mark": "!",
        "note": "well seen",
        "by": "Bo",
        "key": review_key,
    }
    assert client.post(f"/games/{game_id}/review/marks", data=data).status_code == 303
    page = client.get(f"/games/{game_id}/step/40").get_data(as_text=True)
    said = page[page.index('<p class="review-step">') :]
    assert (
        '<span class="annotation review-mark">!</span>' in said[:300] and "well seen" in said[:300]
    )


def test_the_taps_page_offers_the_reveal_as_it_happened(gid: Any, client: Any) -> None:
    page = client.get(f"/games/{gid[1]}/step/20/taps?" + urlencode([("line", BUY)]))
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "As it happened: <code>reveal 1-21</code>" in text
    assert "/step/20/taps?line=buy+1-16+%28W1+B1+R1%29&amp;line=reveal+1-21" in text
    assert "csrf_token" not in text.split('class="rec-form"', 1)[1].split("</form>", 1)[0]


def test_a_line_saved_from_a_saved_line_nests_under_its_step(keyed: Any) -> None:
    """A line saved (through the API) from step 20/1.1 of line 1 hangs under line 1's
    second decision, the one it replaces; its steps' addresses are line 1's first
    decision, then its own."""
    path, game_id, _, review_key = keyed
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    auth = {"Authorization": f"Bearer {review_key}"}
    first = {"from": "20", "moves": [BUY, "reveal 1-21"]}
    r = client.post(
        f"/api/games/{game_id}/review", json={"expect": 0, "by": "Ann", "line": first}, headers=auth
    )
    assert r.status_code == 201, r.get_json()
    nested = {"from": "20/1.1", "moves": ["reveal 1-02"]}
    r = client.post(
        f"/api/games/{game_id}/review", json={"expect": 1, "by": "Bo", "line": nested}, headers=auth
    )
    assert r.status_code == 201, r.get_json()
    page = client.get(f"/games/{game_id}/review").get_data(as_text=True)
    inner = page[page.index('id="at-20-1-1"') : page.index('id="at-20-1-2"')]
    assert 'data-line="2"' in inner and 'id="at-20-2-1"' in inner
    assert _at(game_id, 20, BUY, "reveal 1-02").replace("&", "&amp;") in inner
    # the what-if page of that step knows its review address
    there = client.get(_at(game_id, 20, BUY, "reveal 1-02")).get_data(as_text=True)
    assert "Step <code>20/2.1</code> of the review" in there
