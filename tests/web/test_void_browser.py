"""Voiding a game started by mistake, and the undo page saying what it takes back, in
real headless Chromium against the real server (waitress, loopback) over a real SQLite
file, at phone and desktop size: the recorder link unlocks the game, the replay's "void
this game" leads to the form, the reason sent, the replay says the game is void and the
list leaves it out.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web import create_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
POINTS = ROOT / "fixtures" / "games" / "points.tl"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    from web.server import BackgroundServer

    app = create_app({"DATABASE": str(tmp_path / "void.db"), "STORE_PER_THREAD": True})
    srv = BackgroundServer(app, threads=4)
    yield srv
    srv.stop()


def _post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def _game(server: Any) -> tuple[dict[str, Any], list[str]]:
    lines = POINTS.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "\n".join(x for x in lines[:first] if not x.startswith(("[Result", "[Victory")))
    return _post(server.url + "/api/games", {"notation": setup + "\n"}), lines[first:]


@pytest.mark.parametrize("size", SIZES)
def test_a_game_is_voided_from_its_replay(browser: Any, server: Any, size: str) -> None:
    made, turns = _game(server)
    gid = made["id"]
    _post(f"{server.url}/api/games/{gid}/events", {"move": turns[0], "expect": 1}, made["key"])
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + made["record_url"])  # the recorder link: this browser may write
    page.wait_for_selector("#record.js[data-steps]")
    page.goto(f"{server.url}/games/{gid}")
    page.click("a.void-link")
    page.wait_for_selector("input[name=reason]")
    page.fill("input[name=reason]", "started with the wrong setup")
    page.screenshot(path=str(ARTIFACTS / f"void-form-{size}.png"))
    form = page.locator("form button.danger").bounding_box()
    assert form is not None and form["x"] + form["width"] <= SIZES[size]["width"]
    page.click("form button.danger")
    page.wait_for_selector("p.void-note")
    assert page.inner_text("p.void-note").startswith(
        "This game is void: started with the wrong setup."
    )
    assert page.locator("a.void-link").count() == 0
    page.screenshot(path=str(ARTIFACTS / f"void-replay-{size}.png"))
    page.goto(server.url + "/")
    assert gid not in page.content()
    page.goto(server.url + "/?all=1")
    assert page.inner_text("tr.void td.result") == "void"
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_undo_page_says_a_card_entered_alone_goes_back_alone(
    browser: Any, server: Any, size: str
) -> None:
    made, turns = _game(server)
    gid, key = made["id"], made["key"]
    steps = 1
    for move in [*turns[:5], "buy 1-16 (W1 B1 G1 R1)", "reveal 1-24"]:
        url = f"{server.url}/api/games/{gid}/events"
        steps = _post(url, {"move": move, "expect": steps}, key)["step"]
    context = browser.new_context(viewport=SIZES[size], java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + made["record_url"].split("#")[0])
    page.fill("input[name=key]", key)
    page.click("form button[type=submit]")
    page.goto(f"{server.url}/games/{gid}/record/undo")
    text = page.inner_text("p.undo-takes")
    assert text.startswith(
        f"Undo takes back step {steps}, reveal 1-24, entered on its own (what came before stays)."
    )
    page.screenshot(path=str(ARTIFACTS / f"undo-alone-{size}.png"))
    page.click("form button.danger")
    page.wait_for_url(f"**/games/{gid}/record")
    context.close()
    with urllib.request.urlopen(f"{server.url}/api/games/{gid}") as answer:
        events = json.loads(answer.read())["events"]
    assert events[-1]["text"] == f"undo to {steps - 1}"
