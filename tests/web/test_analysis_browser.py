"""A game's analysis in real headless Chromium against the real server, at a phone's
width and a laptop's: "Analyse this game" on a step page, the progress page that asks
again by itself (no script), then the replay with the chances over the game, the turning
points linked to their steps, and the step's own chances, as ``/api/games/<id>/analysis``
gives them.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import load_file
from web import create_app

from .test_record_browser import DESKTOP, PHONE, _no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    """The real server over a fresh file holding ``crowns.tl``, not yet analysed."""
    from web.server import BackgroundServer

    folder = tmp_path
    path = str(folder / "a.db")
    with EventStore.open(path) as store:
        gid = store.import_game(load_file(ROOT / "fixtures" / "games" / "crowns.tl")[0]).game_id
    app = create_app(
        {
            "DATABASE": path,
            "STORE_PER_THREAD": True,
            "DRAWINGS": str(folder / "work"),
            "ANALYSIS_PLAYOUTS": 6,
        }
    )
    with BackgroundServer(app, threads=4) as running:
        running.game = gid
        yield running


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "laptop"])
def test_the_analysis_on_the_replay(browser: Any, server: Any, viewport: Any) -> None:
    gid = server.game
    context = browser.new_context(viewport=viewport, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(f"{server.url}/games/{gid}/step/10")
    page.click("text=Analyse this game")
    # the progress page asks again by itself until the replay shows the analysis
    page.wait_for_selector("svg.chances")
    with urllib.request.urlopen(f"{server.url}/api/games/{gid}/analysis", timeout=30) as answer:
        figures = json.load(answer)
    points = figures["turning_points"]
    worst = max(points, key=lambda p: p["loss"])["step"]
    assert page.url.endswith(f"/step/{worst}#analysis")
    chart = page.locator("svg.chances").bounding_box()
    assert chart is not None and chart["width"] > 250 and chart["height"] > 90
    assert page.locator("svg.chances circle.turn").count() == len(points)
    items = page.locator("ol.turning-points > li")
    assert items.count() == len(points)
    here = figures["steps"][worst]["chances"]
    shown = page.locator(".analysis-area .here .seat b").all_inner_texts()
    assert shown == [f"{round(100 * c)}%" for c in here]
    _no_sideways_scroll(page)
    name = "phone" if viewport == PHONE else "laptop"
    page.locator("#analysis").screenshot(path=str(ARTIFACTS / f"analysis-{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"analysis-{name}-page.png"), full_page=True)
    # a turning point's link leads to its step, which marks it
    first = points[0]["step"]
    items.first.locator("a").click()
    page.wait_for_url(f"**/step/{first}#analysis")
    assert page.locator("ol.turning-points > li.current").count() == 1
    context.close()
