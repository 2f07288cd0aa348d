"""The replay page read at a glance, in real headless Chromium against the real server
over a real SQLite file, at a phone's widths (390x844, 360x800) and a laptop's
(1366x900): where the verdict, the panels and the step buttons land (bounding boxes
against the viewport), how big the cards' text is (computed styles), the game's symbols
and their explanations on a tap, the players' colours, stepping by turn, a game opened
from the list at its start with no winner shown before the end, and the legality form
reading a move as a phone capitalises it.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from engine.splendor_duel import events as ev
from engine.splendor_duel import game
from engine.splendor_duel.state import ACTION

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

RULES = get_game("splendor-duel")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 800}
LAPTOP = {"width": 1366, "height": 900}


def _step(page: Any) -> int:
    match = re.search(r"/step/(\d+)(?:[?#]|$)", page.url)
    assert match, page.url
    return int(match.group(1))


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box  # type: ignore[no-any-return]


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _in_first_screen(page: Any, box: dict[str, float]) -> bool:
    return box["y"] >= 0 and box["y"] + 20 <= page.viewport_size["height"]


def _turn_starts(page: Any) -> list[int]:
    """The first step of every turn, as the page's move list groups them."""
    ids = page.eval_on_selector_all(
        "#moves > li.turn", "els => els.map(e => e.querySelector('li[id^=m]').id)"
    )
    return [int(i[1:]) for i in ids]


def _two_space_take(store: Any, gid: str) -> tuple[int, str, str]:
    """A step of ``gid`` where the player to move holds no Privilege (so a bare space is
    only a take) and may take two tokens and one: the step and the two moves' texts."""
    for step in range(1, store.game(gid).event_count):
        state = store.state_at(gid, step)
        if state.awaiting != ACTION or state.player.privileges:
            continue
        takes = [m for m in game.legal_moves(state) if isinstance(m, ev.TokensTaken)]
        two = next((m for m in takes if len(m.spaces) == 2), None)
        one = next((m for m in takes if len(m.spaces) == 1), None)
        if two and one:
            return step, RULES.move_text(state, two), RULES.move_text(state, one)
    raise AssertionError("no step with a two-token take")


def _watch_console(page: Any) -> list[str]:
    """Script errors and anything the Content Security Policy refused."""
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return problems


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _check_cards_readable(page: Any) -> None:
    """Costs and ids on the pyramid's cards at 12 px or more, every id on one line."""
    pips = page.eval_on_selector_all(
        ".pyramid .card .pip", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    ids = page.eval_on_selector_all(
        ".pyramid .card .card-id",
        """els => els.map(e => {
            const style = getComputedStyle(e);
            const height = e.getBoundingClientRect().height;
            return {text: e.textContent, size: parseFloat(style.fontSize),
                    lines: Math.round(height / parseFloat(style.lineHeight)),
                    clipped: e.scrollWidth > e.clientWidth};
        })""",
    )
    assert pips and min(pips) >= 12, pips
    assert ids and all(i["size"] >= 12 for i in ids), ids
    assert all(i["lines"] == 1 and not i["clipped"] for i in ids), ids
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def _check_bar_leaves_the_move(page: Any) -> None:
    """The step buttons (fixed at the bottom of a phone) show the step's move and do not
    cover the page's own move."""
    bar = _box(page, ".stepnav .buttons")
    assert bar["y"] + bar["height"] <= page.viewport_size["height"] + 1
    move = _box(page, ".step-change .move")
    assert not _overlap(bar, move), (bar, move)
    notation = page.locator(".step-change .notation").inner_text()
    assert page.locator(".stepnav .now code").inner_text() == notation


def test_phone_opens_at_the_start_reads_the_cards_and_checks_a_capitalised_move(
    phone: Any, browser: Any, live_server: Any, games: Any, store: Any
) -> None:
    page = phone
    problems = _watch_console(page)
    gid = games.simulated[0]
    last = store.game(gid).event_count

    # the games list opens a finished game at its set-up, not at its end
    page.goto(f"{live_server.url}/?per_page=50")
    page.locator(f'.game-list .players > a[href^="/games/{gid}"]').click()
    page.wait_for_url(f"**/games/{gid}/step/1")
    assert page.locator(".status .outcome").count() == 0
    assert page.locator(".badge.win").count() == 0

    # which colour is which player, and whose turn it is
    legend = page.locator(".seat-legend .seat")
    assert legend.count() == 2
    for seat in (0, 1):
        dot = page.eval_on_selector(
            f".seat-legend .seat-{seat} .seat-dot", "e => getComputedStyle(e).backgroundColor"
        )
        panel = page.eval_on_selector(
            f'.player[data-seat="{seat}"]', "e => getComputedStyle(e).borderTopColor"
        )
        assert dot == panel
    assert page.locator(".seat-legend .to-move .name").inner_text() == (
        page.locator(".player.to-move h2 .name").inner_text()
    )

    # at a step with abilities in the pyramid: the symbols, each explained on a tap
    step, two, one = _two_space_take(store, gid)
    page.goto(f"{live_server.url}/games/{gid}/step/30")
    _check_cards_readable(page)
    _check_bar_leaves_the_move(page)
    symbols = page.locator(".pyramid-area button.ability[popovertarget]")
    assert symbols.count() > 0
    assert page.locator(".pyramid .ability:not(button)").count() == 0
    symbol = symbols.first
    tip = page.locator(f"#{symbol.get_attribute('popovertarget')}")
    assert not tip.is_visible()
    symbol.tap()
    assert tip.is_visible()
    assert tip.inner_text().strip() and _in_first_screen(
        page, _box(page, f"#{tip.get_attribute('id')}")
    )
    page.keyboard.press("Escape")
    assert not tip.is_visible()
    assert page.locator(".symbols .legend li").count() >= 5

    # the move list's steps are tapped with a finger: each link at least 32 px tall
    heights = page.eval_on_selector_all(
        "#moves .steps a", "as => as.map(a => a.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 32, min(heights)

    # stepping from further down the page: the bar still shows the move stepped to
    page.locator(".player.seat-1").scroll_into_view_if_needed()
    page.locator('.stepnav a[data-nav="next"]').tap()
    page.wait_for_url("**/step/31")
    assert page.evaluate("scrollY") > 0
    assert page.locator(".stepnav .now code").inner_text() == (
        page.locator(".step-change .notation").inner_text()
    )

    # the legality form reads moves as a phone capitalises them; the verdict is in view
    page.goto(f"{live_server.url}/games/{gid}/step/{step}")
    for typed, canonical in ((two[0].upper() + two[1:], two), (one.split()[1].upper(), one)):
        page.fill("#move-input", typed)
        page.click(".legal-form button")
        page.wait_for_selector(".verdict")
        page.wait_for_load_state("load")  # (laid out with its stylesheet)
        assert _step(page) == step
        verdict = page.locator(".verdict")
        assert "legal" in verdict.get_attribute("class").split(), verdict.inner_text()
        assert f"read as {canonical}" in verdict.inner_text()
        box = _box(page, ".verdict")
        bar = _box(page, ".stepnav .buttons")
        assert box["y"] >= 0 and box["y"] + 40 <= bar["y"], (box, bar)
    page.screenshot(path=str(ARTIFACTS / "replay-verdict-phone.png"))

    # no winner shown until the end; at the end, the result
    page.goto(f"{live_server.url}/games/{gid}/step/{last - 1}")
    assert page.locator(".status .outcome").count() == 0
    assert page.locator(".badge.win").count() == 0
    page.locator('.stepnav a[data-nav="last"]').tap()
    page.wait_for_url(f"**/step/{last}")
    result = page.locator(".status .outcome").inner_text()
    assert result and page.locator(".badge.win").count() >= 1
    page.goto(f"{live_server.url}/games/{gid}/step/1")
    assert result.split(" after ")[0].strip("♛ ") not in page.locator("main").inner_text()

    # a narrower phone: the same cards and bar
    narrow = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True)
    try:
        small = narrow.new_page()
        small.goto(f"{live_server.url}/games/{gid}/step/30")
        _check_cards_readable(small)
        _check_bar_leaves_the_move(small)
        small.screenshot(path=str(ARTIFACTS / "replay-phone-360.png"))
    finally:
        narrow.close()
    assert problems == []


def test_laptop_shows_the_panels_by_the_board_and_steps_by_turn(
    browser: Any, live_server: Any, games: Any, store: Any
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems = _watch_console(page)
    gid = games.simulated[1]
    try:
        page.goto(f"{live_server.url}/games/{gid}/step/30")
        _check_cards_readable(page)
        # the board and both players' panels (name, scores, tokens) without scrolling
        board = _box(page, ".board")
        assert board["y"] + board["height"] <= LAPTOP["height"]
        for seat in (0, 1):
            head = _box(page, f'.player[data-seat="{seat}"] h2')
            tokens = _box(page, f'.player[data-seat="{seat}"] tr.tokens')
            assert head["x"] >= board["x"] + board["width"], "the panels sit beside the board"
            assert tokens["y"] + tokens["height"] <= LAPTOP["height"], seat
        assert page.locator(".pyramid-area button.ability").count() > 0

        # by turn: the links land on the first step of a turn, as the move list groups them
        starts = _turn_starts(page)
        following = next(s for s in starts if s > 30)
        page.click('a[data-nav="next-turn"]')
        page.wait_for_url(f"**/step/{following}")
        after = next(s for s in starts if s > following)
        page.keyboard.press("Shift+ArrowRight")
        page.wait_for_url(f"**/step/{after}")
        page.keyboard.press("Shift+ArrowLeft")
        page.wait_for_url(f"**/step/{following}")
        page.keyboard.press("ArrowRight")  # by step, as before
        page.wait_for_url(f"**/step/{following + 1}")
        if following + 1 not in starts:  # inside a turn: back to its start
            page.click('a[data-nav="prev-turn"]')
            page.wait_for_url(f"**/step/{following}")

        # the verdict lands in the first screen, by the form
        step, two, _ = _two_space_take(store, gid)
        page.goto(f"{live_server.url}/games/{gid}/step/{step}")
        page.fill("#move-input", two)
        page.click(".legal-form button")
        page.wait_for_selector(".verdict.legal")
        box = _box(page, ".verdict")
        assert page.evaluate("scrollY") == 0 and box["y"] + box["height"] <= LAPTOP["height"]
        page.screenshot(path=str(ARTIFACTS / "replay-verdict-laptop.png"))
        assert problems == []
    finally:
        context.close()

    # without JavaScript: the turn links and the form are plain links and a plain form
    bare = browser.new_context(viewport=LAPTOP, java_script_enabled=False)
    try:
        page = bare.new_page()
        page.goto(f"{live_server.url}/games/{gid}/step/{following}")
        page.click('a[data-nav="next-turn"]')
        page.wait_for_url(f"**/step/{after}")
        page.fill("#move-input", "Take a1 a2")
        page.click(".legal-form button")
        page.wait_for_selector(".verdict")
        page.wait_for_load_state("load")  # (laid out with its stylesheet)
        assert _step(page) == after
    finally:
        bare.close()


def test_a_damaged_game_reads_on_a_phone_with_what_was_altered(
    phone: Any, damaged: tuple[str, str]
) -> None:
    """A record changed behind the store's back: the phone opens its last step and lands
    on the last one before the change, under a banner that says where, in full view and
    without sideways scroll."""
    from web import create_app
    from web.server import BackgroundServer

    path, gid = damaged
    server = BackgroundServer(create_app({"DATABASE": path, "STORE_PER_THREAD": True}), threads=2)
    try:
        problems = _watch_console(phone)
        phone.goto(f"{server.url}/games/{gid}/step/40")
        assert phone.url.endswith(f"/games/{gid}/step/4")
        banner = phone.locator("p.altered")
        assert "at step 5:" in banner.inner_text()
        assert _in_first_screen(phone, _box(phone, "p.altered"))
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        phone.screenshot(path=str(ARTIFACTS / "replay-phone-altered.png"))
        assert problems == []
    finally:
        server.stop()
