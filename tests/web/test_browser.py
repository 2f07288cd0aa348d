"""The replay in real headless Chromium against the real server (waitress, loopback,
ephemeral port) over a real SQLite file.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from engine.splendor_duel import game
from engine.splendor_duel.catalogue import COLOR_LETTERS, EMPTY, SPACE_NAMES

RULES = get_game("splendor-duel")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HOSTILE = "<script>alert(1)</script>"


def step_of(page: Any) -> int:
    match = re.search(r"/step/(\d+)(?:\?|$)", page.url)
    assert match, page.url
    return int(match.group(1))


def assert_shows_state(page: Any, store: Any, gid: str, step: int) -> None:
    """The board and both players' tokens on the page are the store's state at ``step``."""
    state = store.state_at(gid, step)
    board = page.eval_on_selector_all(
        ".board .space", "els => els.map(e => [e.dataset.space, e.dataset.token])"
    )
    assert dict(board) == {
        SPACE_NAMES[s]: ("" if t == EMPTY else COLOR_LETTERS[t]) for s, t in enumerate(state.board)
    }
    for seat in (0, 1):
        cells = page.eval_on_selector_all(
            f'.player[data-seat="{seat}"] tr.tokens td',
            "els => els.map(e => [e.dataset.color, e.firstChild.textContent])",
        )
        assert {c: int(n) for c, n in cells} == {
            COLOR_LETTERS[c]: state.players[seat].tokens[c] for c in range(7)
        }
    assert page.locator(".bag-total").inner_text() == str(sum(state.bag))


def test_step_with_keys_buttons_and_slider(
    page: Any, live_server: Any, games: Any, store: Any
) -> None:
    gid = games.simulated[0]
    last = store.game(gid).event_count
    page.goto(f"{live_server.url}/games/{gid}/step/0")
    assert_shows_state(page, store, gid, 0)
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/games/{gid}/step/1")
    assert_shows_state(page, store, gid, 1)
    page.click('a[data-nav="next"]')
    page.wait_for_url("**/step/2")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/step/3")
    assert_shows_state(page, store, gid, 3)
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/step/2")
    page.keyboard.press("End")
    page.wait_for_url(f"**/step/{last}")
    assert_shows_state(page, store, gid, last)
    assert page.locator(".status .outcome").is_visible()
    page.screenshot(path=str(ARTIFACTS / "replay-end-desktop.png"), full_page=True)
    page.keyboard.press("Home")  # the table as set up, not step 0's empty one
    page.wait_for_url("**/step/1")
    page.locator("#step-slider").fill("40")
    page.wait_for_url("**/step/40")
    assert_shows_state(page, store, gid, 40)
    page.click('a[data-nav="prev"]')
    page.wait_for_url("**/step/39")
    assert_shows_state(page, store, gid, 39)
    page.click('a[data-nav="last"]')
    page.wait_for_url(f"**/step/{last}")
    page.click('a[data-nav="first"]')
    page.wait_for_url("**/step/1")


def test_move_list_links_and_back_forward(
    page: Any, live_server: Any, games: Any, store: Any
) -> None:
    gid = games.simulated[1]
    page.goto(f"{live_server.url}/games/{gid}/step/10")
    page.click(f'#moves a[href="/games/{gid}/step/25"]')
    page.wait_for_url("**/step/25")
    assert page.locator("#moves li.current a").get_attribute("href").endswith("/step/25")
    assert_shows_state(page, store, gid, 25)
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/step/26")
    page.go_back()
    page.wait_for_url("**/step/25")
    page.go_back()
    page.wait_for_url("**/step/10")
    assert_shows_state(page, store, gid, 10)
    page.go_forward()
    page.wait_for_url("**/step/25")
    assert_shows_state(page, store, gid, 25)


def test_legality_form(page: Any, live_server: Any, games: Any, store: Any) -> None:
    gid = games.simulated[2]
    step = next(e.sequence for e in store.events(gid) if e.type == "tokens_taken") - 1
    state = store.state_at(gid, step)
    legal = next(m for m in game.legal_moves(state) if m.type == "tokens_taken")
    page.goto(f"{live_server.url}/games/{gid}/step/{step}")
    page.fill("#move-input", RULES.move_text(state, legal))
    page.keyboard.press("ArrowRight")  # typing in the form does not step the replay
    page.click(".legal-form button")
    page.wait_for_selector(".verdict")
    assert step_of(page) == step
    assert "legal" in page.locator(".verdict").get_attribute("class").split()
    page.fill("#move-input", "royal R-1")
    page.click(".legal-form button")
    page.wait_for_selector(".verdict.illegal")
    assert "p.8" in page.locator(".verdict .violations").inner_text()
    page.screenshot(path=str(ARTIFACTS / "replay-verdict-desktop.png"), full_page=True)


def test_hostile_player_name_shows_as_text(page: Any, live_server: Any, games: Any) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{live_server.url}/?per_page=50")
    assert HOSTILE in page.locator(".game-list").inner_text()
    page.goto(f"{live_server.url}/games/{games.hostile}/step/3")
    assert page.locator(".player.seat-0 h2 .name").inner_text() == HOSTILE
    assert "sneaky <script>alert(3)</script>" in page.locator(".step-change").inner_text()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/step/4")
    assert dialogs == []


def test_phone_width_screenshots(browser: Any, live_server: Any, games: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        pg = context.new_page()
        gid = games.simulated[0]
        pg.goto(f"{live_server.url}/games/{gid}/step/60")
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the replay overflows a phone's width ({width}px)"
        pg.screenshot(path=str(ARTIFACTS / "replay-phone.png"), full_page=True)
        pg.goto(f"{live_server.url}/")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        pg.screenshot(path=str(ARTIFACTS / "games-phone.png"), full_page=True)
    finally:
        context.close()
