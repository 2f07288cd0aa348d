"""The logging page with the club's Wi-Fi dropping out, in real headless Chromium against
the real server over a real SQLite file: decisions tapped or typed while offline wait in
the browser's storage ("N moves waiting to be sent"), survive a reload, and are stored in
order once the connection is back, an answer lost on the way not doubling anything; and
another phone's move logged meanwhile is shown beside the waiting one, with the choice.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import export_notation

from .test_record_browser import (
    ARTIFACTS,
    DESKTOP,
    FIXTURE,
    PHONE,
    POINTS,
    RULES,
    _api,
    _data,
    _no_sideways_scroll,
    _open_with_link,
    _setup_text,
    _tap_decision,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    from web.server import BackgroundServer

    app = create_app_for(tmp_path / "offline.db")
    srv = BackgroundServer(app, threads=4)
    srv.database = app.config["DATABASE"]
    yield srv
    srv.stop()


def create_app_for(path: Path) -> Any:
    from web import create_app

    return create_app({"DATABASE": str(path), "STORE_PER_THREAD": True})


def _through_turn(text: str, turn: int) -> Any:
    """The fixture read up to the end of turn ``turn`` (its headers, setup and events)."""
    setup = _setup_text(text)
    body = text[text.index("\n1. ") + 1 :]
    lines = [
        ln
        for ln in body.splitlines()
        if (m := re.match(r"(\d+)\. ", ln)) and int(m.group(1)) <= turn
    ]
    game = RULES.read_game(setup + "\n".join(lines) + "\n")
    assert game.ok, game
    return game


def _stored(server: Any, gid: str) -> list[Any]:
    with EventStore.open(server.database) as store:
        return [e.payload for e in store.events(gid)]


def _expected_texts(events: list[Any], names: Any = ("Alice", "Daniel")) -> list[str]:
    state = RULES.new_state(list(names))
    RULES.play(state, events[0])
    texts = []
    for event in events[1:]:
        texts.append(RULES.move_text(state, event))
        RULES.play(state, event)
    return texts


def test_ten_turns_with_the_network_cut_for_five_then_a_reload(browser: Any, server: Any) -> None:
    """Turns 1-3 online, 4-8 with the phone offline (the first decision tapped, checked
    against the choices the page holds; the rest typed), the connection back while the
    server is still out of reach and the first answer lost on its way, a reload with the
    moves still queued, then turns 9-10: the game stored and exported is the ten turns,
    nothing doubled, nothing lost."""
    text = FIXTURE.read_text(encoding="utf-8")
    ten = _through_turn(text, 10)
    three, eight = len(_through_turn(text, 3).events), len(_through_turn(text, 8).events)
    texts = _expected_texts(ten.events)  # texts[i] is step i + 2
    made = _api(server.url + "/api/games", {"notation": _setup_text(text)})
    gid = made["id"]
    page = _open_with_link(browser, server, made, PHONE)
    context = page.context
    taps: dict[str, int] = {"table": 0, "colour": 0, "list": 0, "button": 0}
    shots: set[str] = set()

    def logged_by_taps(step: int) -> None:
        _tap_decision(page, texts[step - 2], taps, shots)
        page.wait_for_selector(f'#record.js[data-steps="{step}"]')

    for step in range(2, three + 1):
        logged_by_taps(step)

    # the Wi-Fi drops: the first decision is tapped as usual (the page holds its choices)
    context.set_offline(True)
    _tap_decision(page, texts[three - 1], taps, shots)
    waiting = page.locator("#rec-sheet .rec-queue .waiting")
    waiting.wait_for()
    assert waiting.inner_text().startswith("1 move waiting to be sent")
    assert "no connection" in waiting.inner_text()
    # the table drawn is the one before it: a tap says so, the typed form takes the next
    page.click('#record [data-target="c3"]')
    assert "as it stood before the waiting moves" in page.locator("#rec-sheet .notice").inner_text()
    for step in range(three + 2, eight + 1):
        page.fill("#rec-move", texts[step - 2])
        page.click("form.rec-form button[type=submit]")
        n = step - three
        page.wait_for_function(
            "n => (document.querySelector('#rec-sheet .rec-queue .waiting') || {}).textContent"
            "?.startsWith(n + ' moves waiting to be sent')",
            arg=n,
        )
    queued = eight - three
    assert [
        li.strip() for li in page.locator("#rec-sheet .rec-queue .mine li").all_inner_texts()
    ] == texts[three - 1 : eight - 1]
    page.screenshot(path=str(ARTIFACTS / "record-phone-offline-queue.png"))
    _no_sideways_scroll(page)
    assert _stored(server, gid) == [RULES.event_to_dict(e) for e in ten.events[:three]]

    # the Wi-Fi is back but the server is not reached yet, and the first answer is lost
    # on the way back (the move is stored; the phone does not know it)
    posts: list[str] = []

    def server_flaky(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.request.post_data or "")
        if len(posts) == 1:
            route.fetch()
        route.abort()

    page.route(re.compile(rf".*/games/{gid}/record$"), server_flaky)
    context.set_offline(False)
    page.wait_for_function("() => navigator.onLine")
    for _ in range(100):
        if len(_stored(server, gid)) == three + 1:
            break
        page.wait_for_timeout(100)
    assert len(_stored(server, gid)) == three + 1, "the first waiting move reached the store"
    page.wait_for_selector("#rec-sheet .rec-queue .waiting")
    assert (
        page.locator("#rec-sheet .rec-queue .waiting")
        .inner_text()
        .startswith(f"{queued} moves waiting to be sent")
    )
    stored_once = _stored(server, gid)

    # a reload with the moves still queued: they come back from the browser's storage and
    # are sent in order, the one stored already answered as such, not written again
    page.unroute(re.compile(rf".*/games/{gid}/record$"))
    page.reload()
    page.wait_for_selector(f'#record.js[data-steps="{eight}"]', timeout=30_000)
    page.wait_for_function("() => !document.querySelector('#rec-sheet .rec-queue')")
    assert f"Sent {queued} waiting moves" in page.locator("#rec-sheet .done").inner_text()
    assert (
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tablelog-queue'))") == []
    )
    assert _stored(server, gid)[: three + 1] == stored_once
    page.screenshot(path=str(ARTIFACTS / "record-phone-offline-sent.png"))

    for step in range(eight + 1, len(ten.events) + 1):
        logged_by_taps(step)

    with EventStore.open(server.database) as store:
        stored = store.events(gid)
        exported = export_notation(store, gid)
    assert [e.payload for e in stored] == [RULES.event_to_dict(e) for e in ten.events]
    assert len({e.event_id for e in stored}) == len(stored)
    assert exported == RULES.write_game(ten.headers, ten.events)
    assert page.errors == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_another_phone_logs_while_this_one_is_offline(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    """Phone A taps a move offline; phone B logs another meanwhile; back online, A shows
    both and the player chooses: at phone size theirs is kept (A's dropped, nothing
    written), at desktop size A's is sent after theirs."""
    text = FIXTURE.read_text(encoding="utf-8")
    made = _api(server.url + "/api/games", {"notation": _setup_text(text)})
    gid = made["id"]
    mine_page = _open_with_link(browser, server, made, viewport)
    theirs_page = _open_with_link(browser, server, made, PHONE)
    takes = [c for c in _data(mine_page)["choices"] if c["group"] == "take"]
    theirs = next(c for c in takes if len(c["targets"]) == 3)
    mine = next(
        c
        for c in takes
        if len(c["targets"]) == 3 and not set(c["targets"]) & set(theirs["targets"])
    )
    taps: dict[str, int] = {"table": 0, "colour": 0, "list": 0, "button": 0}
    mine_page.context.set_offline(True)
    _tap_decision(mine_page, mine["text"], taps, set())
    mine_page.wait_for_selector("#rec-sheet .rec-queue .waiting")
    _tap_decision(theirs_page, theirs["text"], taps, set())
    theirs_page.wait_for_selector('#record.js[data-steps="2"]')

    mine_page.context.set_offline(False)
    conflict = mine_page.locator("#rec-sheet .rec-queue.conflict")
    conflict.wait_for(timeout=20_000)
    assert "Another phone logged meanwhile" in conflict.inner_text()
    assert theirs["text"] in conflict.locator(".theirs").inner_text()
    assert conflict.locator(".mine").inner_text().strip() == mine["text"]
    assert _data(mine_page)["steps"] == 2
    name = "phone" if viewport is PHONE else "desktop"
    mine_page.screenshot(path=str(ARTIFACTS / f"record-{name}-offline-conflict.png"))
    _no_sideways_scroll(mine_page)
    # the choice survives a reload: nothing is sent until the player chooses
    mine_page.reload()
    conflict.wait_for()
    assert len(_stored(server, gid)) == 2

    if viewport is PHONE:
        mine_page.click("#rec-sheet button.keep-theirs")
        assert mine_page.locator("#rec-sheet .rec-queue").count() == 0
        assert mine_page.evaluate("localStorage.length") == 0
        assert len(_stored(server, gid)) == 2
    else:
        mine_page.click("#rec-sheet button.send-mine")
        mine_page.wait_for_selector('#record.js[data-steps="3"]')
        assert [r["text"] for r in _data(mine_page)["recent"]][-2:] == [
            theirs["text"],
            mine["text"],
        ]
        assert len(_stored(server, gid)) == 3
    assert mine_page.errors == [] and theirs_page.errors == []


def test_observations_tapped_offline_are_queued(browser: Any, server: Any) -> None:
    """Offline, what the table observes is entered as usual and waits too: the card
    revealed after step 8 of points.tl (one tap in the list), and the bag's 16 tokens
    drawn after step 57 (typed); each stored as the fixture's once the connection is
    back."""
    fixture = RULES.read_game(POINTS.read_text(encoding="utf-8"))
    for at, kind in ((8, "reveal"), (57, "repl")):
        notation = RULES.write_game({"players": fixture.names}, fixture.events[:at])
        made = _api(server.url + "/api/games", {"notation": notation})
        page = _open_with_link(browser, server, made, PHONE)
        expected = _expected_texts(fixture.events[: at + 1], fixture.names)[-1]
        assert expected.startswith(kind)
        page.context.set_offline(True)
        if kind == "reveal":
            page.click(f'#rec-sheet .picklist button[data-text="{expected}"]')
        else:
            page.click("#rec-sheet .repl-start")
            page.fill("#rec-sheet .repl-typed", expected.split()[1])
            page.click("#rec-sheet button.confirm")
        waiting = page.locator("#rec-sheet .rec-queue .waiting")
        waiting.wait_for()
        assert waiting.inner_text().startswith("1 move waiting to be sent")
        assert page.locator("#rec-sheet .rec-queue .mine").inner_text().strip() == expected
        page.screenshot(path=str(ARTIFACTS / f"record-phone-offline-{kind}.png"))
        assert len(_stored(server, made["id"])) == at
        page.context.set_offline(False)
        page.wait_for_selector(f'#record.js[data-steps="{at + 1}"]', timeout=20_000)
        assert _stored(server, made["id"]) == [
            RULES.event_to_dict(e) for e in fixture.events[: at + 1]
        ]
        assert page.errors == []
        page.context.close()
