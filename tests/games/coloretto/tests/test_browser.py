"""Coloretto in real headless Chromium against the real server (waitress, loopback) over
a real SQLite file: the 2-player sample game created on the new-game page at phone size
(its setup lines typed), then logged to its end by taps on the generic logging page (the
supply to draw, the card drawn picked from the list of the kinds still possible, the row
it goes to, a row taken) with every tap counted by turn, while a second browser follows
the game live on its replay page; the stored game is the sample's; then replay steps at
390 and 1366 px.  Screenshots go to ``test-artifacts/coloretto-*.png``."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import ARTIFACTS, _confirm, _data, _no_sideways_scroll
from coloretto import GAME

from recorder import EventStore
from web import create_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SAMPLE = Path(__file__).resolve().parents[1] / "games" / "2-players.tl"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    from web.server import BackgroundServer

    app = create_app({"DATABASE": str(tmp_path / "coloretto.db"), "STORE_PER_THREAD": True})
    srv = BackgroundServer(app, threads=6)
    srv.database = app.config["DATABASE"]
    yield srv
    srv.stop()


def _watched(page: Any) -> Any:
    """``page`` with its script errors and refusals by the content security policy kept."""
    page.set_default_timeout(20_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on(
        "console",
        lambda m: page.errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return page


def _new_game(page: Any, server: Any, sample: Any) -> str:
    """The sample's players and setup entered on the new-game page; its logging page
    opened; the game's id."""
    page.goto(f"{server.url}/games/new?kind=coloretto")
    assert page.locator(".cards-entry").count() == 0  # no cards laid out: no picker
    for seat, name in enumerate(sample.names, start=1):
        page.fill(f"#player{seat}", name)
    page.click('.choice[data-seat="1"]')
    page.fill("#date", "2026-11-27")
    page.fill("#place", "Club house")
    setup = GAME.write_game({"players": list(sample.names)}, sample.events[:1])
    lines = dict(ln.split(None, 1) for ln in setup.split("\n\n", 1)[1].splitlines() if ln)
    page.fill("#removed", lines["removed"])
    page.fill("#start", lines["start"])
    page.screenshot(path=str(ARTIFACTS / "coloretto-newgame-phone.png"), full_page=True)
    _no_sideways_scroll(page)
    page.click("text=Create the game")
    page.wait_for_selector(".key-page")
    href = page.get_attribute(".start-logging", "href")
    gid = href.split("/games/")[1].split("/")[0]
    page.click(".start-logging")
    page.wait_for_selector('#record.js[data-steps="1"]')
    return gid


def _tap(page: Any, expected: str, shots: set[str]) -> str:
    """Build ``expected`` by taps as a player would; its family."""
    data = _data(page)
    found = [c for c in data["choices"] if c["text"] == expected]
    assert found, f"{expected!r} is not offered: {data['due']}"
    group, targets = found[0]["group"], found[0]["targets"]
    if group not in shots:
        shots.add(group)
        page.screenshot(path=str(ARTIFACTS / f"coloretto-record-phone-{group}.png"))
        _no_sideways_scroll(page)
    if group == "reveal":
        # the list holds the kinds the supply may still show, each drawn as printed
        listed = page.eval_on_selector_all(
            "#rec-sheet .picklist button", "bs => bs.map(b => b.getAttribute('data-text'))"
        )
        assert sorted(listed) == sorted(c["text"] for c in data["choices"])
        page.click(f'#rec-sheet .picklist button[data-text="{expected}"]')
        return group
    classes = {
        t: (page.locator(f'#record [data-target="{t}"]').get_attribute("class") or "").split()
        for t in targets
    }
    # the card drawn: every row it may go to shares it, so it is taken as tapped already
    given = [t for t in targets if "sel" in classes[t]]
    assert given == ([targets[-1]] if group == "place" else []), (expected, classes)
    for target in targets:
        if target in given:
            continue
        piece = page.locator(f'#record [data-target="{target}"]')
        assert "lit" in (piece.get_attribute("class") or "").split(), (expected, target)
        piece.click()
    _confirm(page, expected)
    return group


def test_the_sample_game_logged_by_taps_and_followed_live(browser: Any, server: Any) -> None:
    sample = GAME.read_game(SAMPLE.read_text(encoding="utf-8"))
    assert sample.ok
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = _watched(context.new_page())
    gid = _new_game(page, server, sample)
    page.screenshot(path=str(ARTIFACTS / "coloretto-record-phone-start.png"))
    _no_sideways_scroll(page)

    # a second browser follows the game on its replay page, never reloaded
    follower_ctx = browser.new_context(viewport=DESKTOP)
    follower = _watched(follower_ctx.new_page())
    follower.goto(f"{server.url}/games/{gid}")
    follower.evaluate("window.__sameDocument = 'kept'")
    assert follower.get_attribute("#replay", "data-stream")

    state = GAME.new_state(sample.names)
    GAME.play(state, sample.events[0])
    page.evaluate(
        "window.__clicks = 0; document.addEventListener('click', () => window.__clicks++, true)"
    )
    shots: set[str] = set()
    per_turn: dict[int, int] = {}
    for step, event in enumerate(sample.events[1:], start=2):
        expected = GAME.move_text(state, event)
        turn = GAME.status(state).turn
        before = page.evaluate("window.__clicks")
        _tap(page, expected, shots)
        page.wait_for_selector(f'#record.js[data-steps="{step}"]')
        per_turn[turn] = per_turn.get(turn, 0) + page.evaluate("window.__clicks") - before
        GAME.play(state, event)
    assert shots == {"draw", "reveal", "place", "take"}
    assert GAME.status(state).phase == "finished"
    assert page.locator(".rec-over").inner_text().startswith("Ann won")
    page.screenshot(path=str(ARTIFACTS / "coloretto-record-phone-end.png"))
    assert page.errors == []
    # a draw is three taps (the supply, the card in the list, the row), a take one
    counts = sorted(per_turn.values())
    report = {"turns": len(counts), "taps": sum(counts), "median": statistics.median(counts)}
    (ARTIFACTS / "coloretto-record-phone-taps.json").write_text(json.dumps(report, indent=1))
    assert counts[-1] <= 4 and report["median"] <= 3, report  # 4: the last-round card too
    assert counts[0] == 1, report

    # the follower went with it to the last step, in the same document
    final = len(sample.events)
    follower.wait_for_function(
        "(step) => document.getElementById('replay').dataset.step === step",
        arg=str(final),
        timeout=90_000,
    )
    assert follower.evaluate("window.__sameDocument") == "kept"
    assert follower.locator(".status .outcome").is_visible()
    follower.screenshot(path=str(ARTIFACTS / "coloretto-follower-final.png"))
    assert follower.errors == []

    # the game as stored is the sample's, decision for decision
    with EventStore.open(server.database) as store:
        stored = store.events(gid)
    assert [e.payload for e in stored] == [GAME.event_to_dict(e) for e in sample.events]

    # its replay, at a phone's width and a laptop's
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(viewport)
        for step in (1, 20, 67, final):
            page.goto(f"{server.url}/games/{gid}/step/{step}")
            rows = page.locator(".clr-rows .crow")
            assert rows.count() == 3
            assert page.locator(".player").count() == 2
            _no_sideways_scroll(page)
            page.screenshot(path=str(ARTIFACTS / f"coloretto-replay-{size}-step{step}.png"))
    assert page.errors == []
    follower_ctx.close()
    context.close()
