"""Following a game live in real headless Chromium: the real server (waitress, loopback)
over a real SQLite file, the moves logged by ``recorder.logbook.log`` on a connection of
the test's own, as a recorder at the table would.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.logbook import log, new_game
from web import create_app
from web.server import BackgroundServer

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
FIXTURE = ROOT / "fixtures" / "games" / "points.tl"


def _split(path: Path) -> tuple[str, list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "".join(line for line in lines[:first] if not line.startswith(("[Result", "[Victory")))
    return setup, [line.rstrip("\n") for line in lines[first:]]


def _wait_for_step(page: Any, step: int, timeout: float | None = None) -> None:
    """Until the page shows ``step`` (a function, not a string: the CSP forbids eval);
    if it never does, the failure says where the page stood and what it was told."""
    # (here, not at the top: the browser fixture is what skips when Playwright is missing)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "(step) => document.getElementById('replay').dataset.step === step",
            arg=str(step),
            timeout=timeout,
        )
    except PlaywrightTimeout:
        shown = page.evaluate(
            "() => { const r = document.getElementById('replay');"
            " return r && {step: r.dataset.step, last: r.dataset.last,"
            " stream: r.dataset.stream || null, url: location.href}; }"
        )
        raise AssertionError(f"the page never showed step {step}: it stands at {shown}") from None


def _shown_step(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def test_viewers_follow_a_whole_game_live(browser: Any, tmp_path: Path) -> None:
    """A phone on the latest step sees every move appear in place, without a reload,
    and ends on the final step; a desktop on an earlier step stays there and is told."""
    path = str(tmp_path / "live.db")
    setup, turns = _split(FIXTURE)
    with EventStore.open(path) as store:
        gid = new_game(store, setup)
        for line in turns[:3]:
            log(store, gid, line)
        start = store.game(gid).event_count
    app = create_app({"DATABASE": path, "STORE_PER_THREAD": True})
    server = BackgroundServer(app, threads=8)
    phone_ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    desk_ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        phone = phone_ctx.new_page()
        desk = desk_ctx.new_page()
        for pg in (phone, desk):
            pg.set_default_timeout(20_000)
        phone.goto(f"{server.url}/games/{gid}")  # the game's address: its latest step
        assert phone.url.endswith(f"/step/{start}")
        phone.evaluate("window.__sameDocument = 'kept'")
        desk.goto(f"{server.url}/games/{gid}/step/2")
        desk.evaluate("window.__sameDocument = 'kept'")
        # (the stream starts after the step each page shows: a move logged before it
        # is open is not missed)
        with EventStore.open(path) as store:
            # one move, seen in place
            log(store, gid, turns[3])
            steps = store.game(gid).event_count
            _wait_for_step(phone, steps)
            assert phone.url.endswith(f"/step/{steps}")
            assert phone.locator(".step-change .notation").inner_text() == store_text(store, gid)
            phone.screenshot(path=str(ARTIFACTS / "follow-phone-move.png"), full_page=False)
            desk.wait_for_selector("#live-notice")
            assert desk.url.endswith("/step/2")
            # the rest of the game, a move every tenth of a second
            for line in turns[4:]:
                log(store, gid, line)
                time.sleep(0.1)
            final = store.game(gid).event_count
            assert store.game(gid).status == "finished"

        # (the page draws each of some fifty steps as it comes: on a machine busy with
        # the rest of the suite, that may take longer than one step's wait; how soon a
        # step arrives is bench/live.py's figure)
        _wait_for_step(phone, final, timeout=90_000)
        assert phone.url.endswith(f"/step/{final}")
        assert phone.evaluate("window.__sameDocument") == "kept"  # never reloaded
        assert phone.locator(".status .outcome").is_visible()
        assert phone.get_attribute("#replay", "data-stream") is None  # over: nothing to follow
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert f"step {final}" in phone.title()
        phone.screenshot(path=str(ARTIFACTS / "follow-phone-final.png"), full_page=False)

        notice = desk.locator("#live-notice")
        notice.filter(has_text=f"step {final}").wait_for()
        assert desk.url.endswith("/step/2") and _shown_step(desk) == 2
        assert desk.evaluate("window.__sameDocument") == "kept"
        link = notice.locator("a")
        assert link.get_attribute("href") == f"/games/{gid}/step/{final}"
        assert link.bounding_box()["height"] >= 44
        desk.screenshot(path=str(ARTIFACTS / "follow-desktop-notice.png"), full_page=False)
        link.click()
        desk.wait_for_url(f"**/step/{final}")
        assert desk.locator(".status .outcome").is_visible()
    finally:
        phone_ctx.close()
        desk_ctx.close()
        server.stop()


def store_text(store: Any, gid: str) -> str:
    """The move list's text of the game's last step, from the store's own fold."""
    from web.timeline import build

    row = store.game(gid)
    return build(row, store.events(gid)).entries[-1].text
