"""The statistics page in real headless Chromium against the real server, over the
fixture games of both games in a real SQLite file, at a phone's width and a laptop's:
the charts are drawn (SVG from the server, no script), nothing scrolls sideways, the
game filter works, and the page agrees with ``/api/stats``.  Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import json
import urllib.request
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
FIXTURES = sorted((ROOT / "fixtures" / "games").glob("*.tl")) + sorted(
    (ROOT / "fixtures" / "splendor" / "games").glob("*.tl")
)

#: The real server over a fresh SQLite file.
server = phone.server


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "laptop"])
def test_the_statistics_page(browser: Any, server: Any, viewport: Any) -> None:
    with EventStore.open(server.database) as store:
        for source in FIXTURES:
            for record in load_file(source):
                store.import_game(record)
    with urllib.request.urlopen(server.url + "/api/stats", timeout=30) as answer:
        figures = json.load(answer)
    context = browser.new_context(viewport=viewport, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/")
    page.click("a.nav-stats")
    page.wait_for_url("**/stats")
    assert page.locator("#counted b").inner_text() == str(figures["games"])
    plots = page.locator("svg.plot")
    assert plots.count() == 5
    for i in range(plots.count()):
        box = plots.nth(i).bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 60
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.locator("#victory tbody tr").count() == len(figures["victory"])
    _no_sideways_scroll(page)
    name = "phone" if viewport == PHONE else "laptop"
    page.screenshot(path=str(ARTIFACTS / f"stats-{name}.png"), full_page=True)
    page.select_option('select[name="kind"]', "splendor")
    page.click(".filters button[type=submit]")
    page.wait_for_url("**kind=splendor**")
    with urllib.request.urlopen(server.url + "/api/stats?kind=splendor", timeout=30) as answer:
        classic = json.load(answer)
    assert page.locator("#counted b").inner_text() == str(classic["games"])
    assert classic["kinds"] == {"splendor": classic["games"]}
    _no_sideways_scroll(page)
    context.close()
