"""Reviewing a game on the site, in real headless Chromium against the real server
(waitress, loopback) over a real SQLite file, at phone and desktop size, one flow: from
step 20 of a fixture game, a what-if line of three decisions played by typing (a
purchase, the reveal it calls for taken "as it happened", the opponent's answer), its
address shared and opened in a second browser, Back walking it, the line saved with a
review key, one of its steps marked ``?`` with a note, and the review page's tree.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import load_file
from web import create_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
#: Step 20 of crowns.tl: Chloé is to play and can buy 1-16; the record then revealed 1-21.
GAME = ROOT / "fixtures" / "games" / "crowns.tl"
BUY = "buy 1-16 (W1 B1 R1)"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[tuple[Any, str, str]]:
    """The server, the game and its review key."""
    from web.server import BackgroundServer

    path = tmp_path / "review.db"
    with EventStore.open(path) as store:
        (record,) = load_file(GAME)
        gid = store.import_game(record).game_id
        review_key = store.keys.issue(gid, review=True)
    srv = BackgroundServer(create_app({"DATABASE": str(path), "STORE_PER_THREAD": True}))
    yield srv, gid, review_key
    srv.stop()


def _play(page: Any, text: str) -> None:
    page.fill("#play-input", text)
    page.click("#play .play-form button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.parametrize("size", SIZES)
def test_a_line_is_played_shared_saved_and_marked(browser: Any, site: Any, size: str) -> None:
    server, gid, review_key = site
    ARTIFACTS.mkdir(exist_ok=True)
    one = browser.new_context(viewport=SIZES[size])
    page = one.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/games/{gid}/step/20")
    assert page.locator("#play-input").count() == 1 and page.locator("#play-legal").count() == 0
    # a decision the rules refuse is said under the form, its text kept to mend
    _play(page, "take a1 a2 a3 a4")
    assert page.locator("#play-refused").is_visible()
    assert "p.5" in page.inner_text("#play-refused")
    assert page.input_value("#play-input") == "take a1 a2 a3 a4"
    page.screenshot(path=str(ARTIFACTS / f"review-refused-{size}.png"))
    _play(page, BUY)
    # the purchase emptied a pyramid slot: the reveal is asked, as it happened first
    assert "revealed" in page.inner_text("#play .play-form label")
    assert " ".join(page.inner_text(".as-it-happened a").split()) == "As it happened: reveal 1-21"
    page.click(".as-it-happened a")
    page.wait_for_load_state()
    # Daniel's answer: a token taken, offered among the legal decisions
    answer = page.locator('#play-legal option[value^="take "]').first.get_attribute("value")
    assert answer
    _play(page, answer)
    steps = page.locator(".whatif-line li")
    assert steps.count() == 3 and steps.nth(2).inner_text() == answer
    assert page.inner_text(".where") == "What if: decision 3 from step 20"
    shared = page.url
    assert shared.count("line=") == 3
    page.locator("#play").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"review-line-{size}.png"))
    page.go_back()  # the browser's back button walks the line
    assert page.url.count("line=") == 2
    assert page.locator(".whatif-line li").count() == 2
    page.keyboard.press("ArrowLeft")  # and ← goes back along it, as "Previous"
    page.wait_for_url(lambda url: url.count("line=") == 1)
    page.keyboard.press("Home")  # Home: back to the record's step
    page.wait_for_url(lambda url: url.endswith("/step/20"))
    page.go_forward()
    page.go_forward()

    # the address shared: another browser opens the same line, and saves it
    two = browser.new_context(viewport=SIZES[size])
    other = two.new_page()
    other.set_default_timeout(15_000)
    other.goto(shared)
    assert other.locator(".whatif-line li").count() == 3
    other.click(".review-keyed summary")
    other.fill(".review-form input[name=by]", "Chloé")
    other.fill(".review-form input[name=key]", review_key)
    other.locator(".review-form").scroll_into_view_if_needed()
    other.screenshot(path=str(ARTIFACTS / f"review-save-{size}.png"))
    other.click(".review-form button[type=submit]")
    other.wait_for_selector("p.saved")
    assert other.inner_text("p.saved") == "Saved in the review as line 1 by Chloé."

    # its second step (the reveal) marked ? with a note
    other.click(".whatif-line li:nth-child(2) a")
    other.wait_for_load_state()
    assert "20/1.2" in other.inner_text(".review-step")
    other.click(".review-step a")
    other.wait_for_selector("#mark")
    assert other.input_value(".mark-form input[name=at]") == "20/1.2"
    other.select_option(".mark-form select[name=mark]", "?")
    other.fill(".mark-form textarea[name=note]", "1-21 gives Daniel the crown he needs")
    other.fill(".mark-form input[name=by]", "Bo")
    other.fill(".mark-form input[name=key]", review_key)
    other.click(".mark-form button[type=submit]")
    other.wait_for_load_state()
    # the move list's tree: the line under step 21, the decision it replaces
    line = other.locator('#at-21 li.variation[data-line="1"]')
    assert line.count() == 1
    assert line.locator("li").count() == 3
    marked = other.locator("#at-20-1-2")
    assert marked.locator(".mark").inner_text() == "?"
    assert "1-21 gives Daniel the crown he needs" in marked.inner_text()
    other.locator("#at-21").scroll_into_view_if_needed()
    other.screenshot(path=str(ARTIFACTS / f"review-tree-{size}.png"))
    other.click("text=Show the marked steps")
    other.wait_for_load_state()
    assert other.locator("#moves li").count() == 1
    other.screenshot(path=str(ARTIFACTS / f"review-marked-{size}.png"))
    # the first browser's page of that step shows the mark and the note too
    other.go_back()
    href = other.locator("#at-20-1-2 a").first.get_attribute("href")
    page.goto(server.url + href)
    assert page.locator(".review-step .mark").inner_text() == "?"
    assert "1-21 gives Daniel the crown he needs" in page.inner_text("#play")
    # the replay's own move list: the line under step 21, the mark on its reveal
    page.goto(f"{server.url}/games/{gid}/step/21")
    variation = page.locator('#m21 .variation[data-line="1"]')
    assert variation.count() == 1
    assert page.locator('#m21 a[data-at="20/1.2"] + .review-mark').inner_text() == "?"
    variation.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"review-movelist-{size}.png"))
    one.close()
    two.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_line_is_built_by_tapping_the_table(browser: Any, site: Any, size: str) -> None:
    """The logging page's taps in its what-if mode: the card tapped and confirmed goes
    into the line in the address (nothing is logged, no key asked), the reveal it calls
    for is asked next, and the replay shows the line."""
    server, gid, _ = site
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/games/{gid}/step/20")
    page.click("a.taps-link")
    page.wait_for_selector("#record.js")
    assert "What if, from step 20" in page.inner_text(".rec-whatif")
    # one way to pay for 1-16: its tap alone builds the decision, as when logging
    page.click('#record [data-target="1-16"]')
    page.wait_for_url("**/step/20/taps?line=*")
    page.wait_for_selector("#record.js")
    assert BUY in page.inner_text(".rec-whatif")
    assert "revealed" in page.inner_text(".rec-due")
    page.screenshot(path=str(ARTIFACTS / f"review-taps-{size}.png"))
    # the card revealed, asked as at the table: a tap in the list of unseen cards
    page.click('#rec-sheet button.pick:has-text("1-21")')
    page.wait_for_url(lambda url: url.endswith("1-21"))  # (JavaScript writes %20 for a space)
    page.click("text=Back to the replay")
    page.wait_for_selector(".whatif-line")
    assert page.locator(".whatif-line li").count() == 2
    assert errors == []
    with EventStore.open(server.app.config["DATABASE"]) as store:
        assert store.review_events(gid) == [] and store.game(gid).event_count == 92
    context.close()
