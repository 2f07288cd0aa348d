"""The games list's game filter in real headless Chromium against the real server, over
the fixture games of both games in a real SQLite file, at a phone's width and a laptop's.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import load_file

from . import test_record_browser as phone
from .test_record_browser import DESKTOP, PHONE, _no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DUEL = sorted((ROOT / "fixtures" / "games").glob("*.tl"))
CLASSIC = sorted((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))

#: The real server over a fresh SQLite file.
server = phone.server


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "laptop"])
def test_the_list_filtered_by_its_select(browser: Any, server: Any, viewport: Any) -> None:
    with EventStore.open(server.database) as store:
        for source in DUEL + CLASSIC:
            for record in load_file(source):
                store.import_game(record)
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/?per_page=100")
    rows = page.locator("table.game-list tbody tr")
    assert rows.count() == len(DUEL) + len(CLASSIC)
    page.select_option('select[name="kind"]', "splendor")
    page.click(".filters button[type=submit]")
    page.wait_for_url("**kind=splendor**")
    assert rows.count() == len(CLASSIC)
    assert page.locator(".game-title").all_inner_texts() == ["Splendor"] * len(CLASSIC)
    assert page.locator(".count").inner_text() == str(len(CLASSIC))
    assert page.input_value('select[name="kind"]') == "splendor"
    _no_sideways_scroll(page)
    name = "phone" if viewport == PHONE else "laptop"
    page.screenshot(path=str(ARTIFACTS / f"games-kind-filter-{name}.png"), full_page=True)
    page.click("a.clear")
    page.wait_for_url(server.url + "/")
    assert page.input_value('select[name="kind"]') == ""
    assert page.locator(".count").inner_text() == str(len(DUEL) + len(CLASSIC))
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "laptop"])
def test_the_list_pages_by_its_links(browser: Any, server: Any, viewport: Any) -> None:
    with EventStore.open(server.database) as store:
        for source in DUEL + CLASSIC:
            for record in load_file(source):
                store.import_game(record)
        every = [g.id for g in store.listing.games(limit=100)]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)

    def shown() -> list[str]:
        links = page.locator("table.game-list td.players > a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        )
        return [href.split("/")[2] for href in links]

    page.goto(server.url + "/?per_page=3")
    seen = shown()
    assert page.locator('.pager a[rel="prev"]').count() == 0
    while page.locator('.pager a[rel="next"]').count():
        page.click('.pager a[rel="next"]')
        page.wait_for_load_state()
        assert "after=" in page.url
        end = shown()
        seen += end
    assert seen == every  # every game once, in the list's order
    _no_sideways_scroll(page)
    name = "phone" if viewport == PHONE else "laptop"
    page.screenshot(path=str(ARTIFACTS / f"games-pager-{name}.png"), full_page=True)
    page.click('.pager a[rel="prev"]')
    page.wait_for_load_state()
    start = len(every) - len(end)  # where the page reached by "next" last starts
    assert shown() == every[start - 3 : start]
    page.click('.pager a[rel="last"]')
    page.wait_for_load_state()
    assert shown() == every[-3:] and page.locator('.pager a[rel="next"]').count() == 0
    page.click('.pager a[rel="first"]')
    page.wait_for_load_state()
    assert shown() == every[:3]
    context.close()
