"""Classic Splendor for four players in real headless Chromium, against the real server,
at a laptop's width and a phone's: every seat's panel shows the store's state, and the
replay steps forward by its buttons.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.splendor.catalogue import COLOR_LETTERS
from recorder import EventStore
from recorder.io import load_file

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
FOUR = ROOT / "fixtures" / "splendor" / "games" / "four-players.tl"


@pytest.fixture(scope="module")
def four_players(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any, str]]:
    from web import create_app
    from web.server import BackgroundServer

    path = str(tmp_path_factory.mktemp("splendor") / "four.db")
    with EventStore.open(path) as store:
        [record] = load_file(FOUR)
        gid = store.import_game(record).game_id
    server = BackgroundServer(create_app({"DATABASE": path, "STORE_PER_THREAD": True}))
    with EventStore.open(path) as store:
        yield server, store, gid
    server.stop()


def _tokens_by_seat(page: Any, seat: int) -> dict[str, int]:
    cells = page.eval_on_selector_all(
        f'.player[data-seat="{seat}"] tr.tokens td',
        "els => els.map(e => [e.dataset.color, e.firstChild.textContent])",
    )
    return {c: int(n) for c, n in cells}


def _assert_seats_show_the_store(page: Any, store: Any, gid: str, step: int) -> None:
    state = store.state_at(gid, step)
    assert page.locator(".player").count() == 4
    for seat, name in enumerate(state.names):
        panel = page.locator(f'.player[data-seat="{seat}"]')
        assert panel.get_attribute("aria-label") == name
        assert _tokens_by_seat(page, seat) == {
            COLOR_LETTERS[c]: n for c, n in enumerate(state.players[seat].tokens)
        }


@pytest.mark.parametrize(
    ("width", "height", "label"), [(1366, 900, "desktop"), (390, 844, "phone")]
)
def test_a_four_player_game_replays_at_both_widths(
    browser: Any, four_players: tuple[Any, Any, str], width: int, height: int, label: str
) -> None:
    server, store, gid = four_players
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{server.url}/games/{gid}/step/60")
        _assert_seats_show_the_store(page, store, gid, 60)
        # a legend of the four seats' colours, each the colour of its panel
        assert page.locator(".seat-legend .seat").count() == 4
        for seat in range(4):
            dot = page.eval_on_selector(
                f".seat-legend .seat-{seat} .seat-dot", "e => getComputedStyle(e).backgroundColor"
            )
            edge = page.eval_on_selector(
                f'.player[data-seat="{seat}"]', "e => getComputedStyle(e).borderTopColor"
            )
            assert dot == edge
        if label == "desktop":
            # every panel's name, score and tokens on the first screen, beside the display
            display = page.locator(".pyramid").bounding_box()
            for seat in range(4):
                tokens = page.locator(f'.player[data-seat="{seat}"] tr.tokens').bounding_box()
                assert tokens["y"] + tokens["height"] <= height, seat
                assert tokens["x"] >= display["x"] + display["width"], seat
        page.click('a[data-nav="next"]')
        page.wait_for_url("**/step/61")
        _assert_seats_show_the_store(page, store, gid, 61)
        # nothing spills sideways: the page is no wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(ARTIFACTS / f"splendor-four-{label}.png"), full_page=True)
    finally:
        context.close()
