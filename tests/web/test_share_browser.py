"""The embedded replay in real headless Chromium, framed by a page of another origin (a
second local server), at a phone's width and a laptop's: it steps by its buttons and by
the keys, sets no cookie, and the replay page itself is refused in a frame.  The share
links are looked at on a phone.  Screenshots go to ``test-artifacts/`` (``share-*``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from recorder import EventStore
from recorder.io import import_files

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
GAME = ROOT / "fixtures" / "games" / "dispute.tl"


class _ClubPage(BaseHTTPRequestHandler):
    """Another site: a club's page that frames the address given as ``?src=``."""

    def do_GET(self) -> None:  # noqa: N802  # http.server's name
        src = parse_qs(urlsplit(self.path).query).get("src", [""])[0]
        body = (
            "<!doctype html><html><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<title>Club night</title></head><body style='margin:8px;font-family:sans-serif'>"
            "<h1 style='font-size:18px'>Club night: the final</h1>"
            f"<iframe id='replay' src='{src}'"
            " style='width:100%;height:1000px;border:1px solid #999'>"
            "</iframe></body></html>"
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str, str, int]]:
    """tablelog's real server, the club's server (another origin), the game's id and its
    last step."""
    from web import create_app
    from web.server import BackgroundServer

    folder = tmp_path_factory.mktemp("share-browser")
    path = str(folder / "games.db")
    with EventStore.open(path) as store:
        ((_, _, result),) = list(import_files(store, [GAME]))
        last = store.game(result.game_id).event_count
    site = BackgroundServer(
        create_app(
            {"DATABASE": path, "STORE_PER_THREAD": True, "DRAWINGS": str(folder / "drawings")}
        )
    )
    club = ThreadingHTTPServer(("127.0.0.1", 0), _ClubPage)
    thread = threading.Thread(target=club.serve_forever, daemon=True)
    thread.start()
    yield site, f"http://127.0.0.1:{club.server_address[1]}", result.game_id, last
    club.shutdown()
    club.server_close()
    site.stop()


def _frame(page: Any) -> Any:
    """The framed replay (the only frame of the club's page)."""
    handle = page.wait_for_selector("iframe#replay")
    frame = handle.content_frame()
    frame.wait_for_selector("#replay")
    return frame


def _step_of(frame: Any) -> int:
    return int(frame.locator("#replay").get_attribute("data-step"))


@pytest.mark.parametrize(
    ("width", "height", "device"), [(390, 844, "phone"), (1366, 900, "laptop")]
)
def test_another_site_frames_the_embedded_replay_and_steps_through_it(
    browser: Any, servers: tuple[Any, str, str, int], width: int, height: int, device: str
) -> None:
    site, club, game_id, last = servers
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if "/embed/" in r.url else None)
    refusals: list[str] = []
    page.on(
        "console",
        lambda m: refusals.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(f"{club}/?src={site.url}/embed/{game_id}")
    frame = _frame(page)
    # a finished game opens at its set-up, as the games list opens it
    assert _step_of(frame) == 1
    assert frame.url == f"{site.url}/embed/{game_id}/step/1"
    picture = frame.locator("img.embed-picture")
    picture.wait_for()
    assert frame.evaluate("() => document.querySelector('img.embed-picture').naturalWidth") > 0
    box = picture.bounding_box()
    assert box is not None and box["width"] <= width  # the picture fits the frame
    assert frame.locator(".site-head").count() == 0
    page.screenshot(path=str(ARTIFACTS / f"share-embed-{device}.png"), full_page=True)

    # by the buttons
    frame.locator("a.nav-next").click()
    frame.wait_for_url(f"**/embed/{game_id}/step/2")
    frame = _frame(page)
    assert _step_of(frame) == 2
    # by the keys, once the frame has the focus
    frame.locator(".embed-words").click()
    page.keyboard.press("ArrowRight")
    frame.wait_for_url(f"**/embed/{game_id}/step/3")
    frame = _frame(page)
    frame.locator(".embed-words").click()
    page.keyboard.press("End")
    frame.wait_for_url(f"**/embed/{game_id}/step/{last}")
    frame = _frame(page)
    assert _step_of(frame) == last
    assert frame.locator("a.nav-next").count() == 0  # nowhere further to go
    frame.locator(".embed-words").click()
    page.keyboard.press("ArrowLeft")
    frame.wait_for_url(f"**/embed/{game_id}/step/{last - 1}")
    frame = _frame(page)
    # the move list steps too, inside the frame
    frame.locator(f'#moves a[href="/embed/{game_id}/step/12"]').click()
    frame.wait_for_url(f"**/embed/{game_id}/step/12")
    frame = _frame(page)
    assert frame.locator("li.current a").get_attribute("href") == f"/embed/{game_id}/step/12"
    page.screenshot(path=str(ARTIFACTS / f"share-embed-{device}-step12.png"), full_page=True)

    # no cookie: none set by any answer, none in the browser, none seen by the page
    assert answers and all("set-cookie" not in r.headers for r in answers)
    assert context.cookies() == []
    assert frame.evaluate("() => document.cookie") == ""
    assert refusals == []
    context.close()


def test_the_replay_page_itself_refuses_to_be_framed(
    browser: Any, servers: tuple[Any, str, str, int]
) -> None:
    site, club, game_id, _ = servers
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(f"{club}/?src={site.url}/games/{game_id}/step/5")
    handle = page.wait_for_selector("iframe#replay")
    frame = handle.content_frame()
    # Chromium shows its own error page in place of a refused frame
    frame.wait_for_load_state()
    assert frame.url.startswith("chrome-error://"), frame.url
    assert frame.evaluate("() => document.getElementById('replay')") is None
    # while the embedded page of the same step is shown in the same frame
    page.goto(f"{club}/?src={site.url}/embed/{game_id}/step/5")
    assert _step_of(_frame(page)) == 5
    context.close()


def test_the_share_links_on_a_phone(browser: Any, servers: tuple[Any, str, str, int]) -> None:
    site, _, game_id, last = servers
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{site.url}/games/{game_id}/step/40")
    share = page.locator(".step-change .share")
    for name in ("picture", "animation", "notation"):
        link = share.locator(f"a.share-{name}")
        assert link.is_visible() and link.inner_text() == name
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
    share.locator("summary").click()
    snippet = share.locator("textarea")
    assert snippet.is_visible()
    code = snippet.input_value()
    assert code.startswith(f'<iframe src="{site.url}/embed/{game_id}/step/40"')
    box = snippet.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    share.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "share-links-phone.png"))
    page.goto(f"{site.url}/")
    row = page.locator(".game-list .share").first
    assert row.locator("a.share-animation").is_visible()
    page.screenshot(path=str(ARTIFACTS / "share-games-list-phone.png"), full_page=True)
    # the animation link, followed by a browser: a page that asks again, then the GIF
    page.goto(f"{site.url}/games/{game_id}.gif?from=1&to=6")
    assert page.locator("progress").count() == 1
    page.wait_for_url(f"**/games/{game_id}.gif?from=1&to=6", timeout=5_000)
    response = None
    for _ in range(120):
        # (None when the page's own refresh to the same address took the navigation over)
        response = page.goto(f"{site.url}/games/{game_id}.gif?from=1&to=6")
        if response is not None and response.status == 200:
            break
        page.wait_for_timeout(500)
    assert response is not None and response.status == 200
    assert response.headers["content-type"] == "image/gif"
    page.screenshot(path=str(ARTIFACTS / "share-gif-phone.png"))
    context.close()
    # and on a laptop
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(f"{site.url}/games/{game_id}/step/40")
    for name in ("picture", "animation", "notation"):
        assert page.locator(f".step-change .share a.share-{name}").is_visible()
    page.screenshot(path=str(ARTIFACTS / "share-links-laptop.png"))
    page.goto(f"{site.url}/")
    assert page.locator(".game-list .share a.share-animation").first.is_visible()
    page.screenshot(path=str(ARTIFACTS / "share-games-list-laptop.png"))
    context.close()
