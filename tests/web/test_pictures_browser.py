"""The pictures of a step in real headless Chromium, against the real server, at a
laptop's width and a phone's: the step page's ``og:image`` leads to a PNG of the stated
size, and the SVG opens on its own under the site's strict CSP without a refusal.
Screenshots go to ``test-artifacts/`` (``picture-*``), to be looked at."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import import_files

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
GAMES = {
    "duel": (ROOT / "fixtures" / "games" / "dispute.tl", 40),
    "classic": (ROOT / "fixtures" / "splendor" / "games" / "four-players.tl", 100),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, str]]]:
    from web import create_app
    from web.server import BackgroundServer

    path = str(tmp_path_factory.mktemp("pictures") / "games.db")
    ids = {}
    with EventStore.open(path) as store:
        results = {
            Path(s).name: r for s, _, r in import_files(store, [p for p, _ in GAMES.values()])
        }
    for label, (file, _) in GAMES.items():
        ids[label] = results[file.name].game_id
    srv = BackgroundServer(create_app({"DATABASE": path, "STORE_PER_THREAD": True}))
    yield srv, ids
    srv.stop()


def test_pictures_open_in_the_browser(browser: Any, server: tuple[Any, dict[str, str]]) -> None:
    srv, ids = server
    refusals: list[str] = []

    def console(message: Any) -> None:
        # Chromium's own page around a PNG styles it inline (refused, and harmless); the
        # page and the SVG must need nothing the policy refuses
        where = message.location.get("url", "")
        if "Content Security Policy" in message.text and not where.endswith(".png"):
            refusals.append(f"{where}: {message.text}")

    for width, height, device in ((1366, 900, "desktop"), (390, 844, "phone")):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.on("console", console)
        for label, (_, step) in GAMES.items():
            page.goto(f"{srv.url}/games/{ids[label]}/step/{step}")
            image = page.locator('meta[property="og:image"]').get_attribute("content")
            assert image == f"{srv.url}/games/{ids[label]}/step/{step}.png"
            response = page.goto(image)
            assert response.status == 200 and response.headers["content-type"] == "image/png"
            natural = page.evaluate(
                "() => [document.images[0].naturalWidth, document.images[0].naturalHeight]"
            )
            assert natural[0] == 1200 and natural[1] >= 900
            page.screenshot(path=str(ARTIFACTS / f"picture-{label}-png-{device}.png"))
            response = page.goto(image[: -len("png")] + "svg")
            assert response.headers["content-type"].startswith("image/svg+xml")
            root = page.evaluate(
                "() => { const r = document.documentElement;"
                " return [r.localName, r.getAttribute('width'),"
                " document.querySelectorAll('g[data-part=player]').length]; }"
            )
            assert root == ["svg", "1200", 2 if label == "duel" else 4]
            # Playwright's own screenshot waits forever on an SVG document: ask Chromium
            shot = context.new_cdp_session(page).send("Page.captureScreenshot", {"format": "png"})
            (ARTIFACTS / f"picture-{label}-svg-{device}.png").write_bytes(
                base64.b64decode(shot["data"])
            )
        assert refusals == []
        context.close()
