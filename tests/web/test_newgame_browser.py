"""The new-game page in real headless Chromium against the real server over a real
SQLite file, at phone size (390x844): names, the board by taps (colours in spiral order,
then a colour and its squares), the pyramid from the card picker searched by what is
printed on the cards, the key page with its link and QR code, and the link followed in a
second browser that is then authorised.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from recorder import EventStore
from recorder.io import export_notation
from web import create_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
RULES = get_game("splendor-duel")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

BOARD = "GGRWYRWBRGYBRWKGYBKPPBWKK"
PYRAMID = {3: ["3-10", "3-01", "3-05"], 2: ["2-10", "2-24", "2-20", "2-17"],
           1: ["1-11", "1-25", "1-16", "1-10", "1-27"]}  # fmt: skip
EXPECTED = """[Game "Splendor Duel"]
[Date "2025-03-14"]
[Place "Kitchen table"]
[Player1 "Ann"]
[Player2 "Bo"]
[First "Bo"]

board   GGRWY RWBRG YBRWK GYBKP PBWKK
level3  3-10 3-01 3-05
level2  2-10 2-24 2-20 2-17
level1  1-11 1-25 1-16 1-10 1-27
privileges 1 0
"""


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    from web.server import BackgroundServer

    path = str(tmp_path / "games.db")
    with EventStore.open(path):
        pass
    app = create_app({"DATABASE": path, "STORE_PER_THREAD": True})
    srv = BackgroundServer(app, threads=4)
    srv.db = path
    srv.app = app
    yield srv
    srv.stop()


def query_for(card_id: str) -> str:
    """What a player reads off a card: its colour and its points."""
    facts = RULES.cards()[card_id].facts
    color = facts["color"] or f"L{RULES.cards()[card_id].level}"
    return f"{color} {facts['points']} points"


def shown(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".picker .pick:not([hidden])", "els => els.map(e => e.dataset.card)"
    )


def test_a_new_game_by_taps_at_phone_size(
    browser: Any, server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    page.goto(f"{server.url}/")
    page.click("a.nav-new")
    page.wait_for_url("**/games/new")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "newgame-empty-phone.png"), full_page=True)

    # players, who starts (the names appear on the choices), date, place
    page.fill("#player1", "Ann")
    page.fill("#player2", "Bo")
    assert page.inner_text('[data-seat-name="2"]') == "Bo"
    page.click('.choice[data-seat="2"]')
    page.fill("#date", "2025-03-14")
    page.fill("#place", "Kitchen table")

    # the board: the first 12 squares by colours in spiral order...
    for letter in BOARD[:12]:
        page.click(f'.swatch[data-letter="{letter}"]')
    assert page.input_value("#board") == "GGRWY RWBRG YB"
    assert page.inner_text(".board-missing").startswith("12 of 25 squares; still missing:")
    assert page.inner_text('.swatch[data-letter="G"] .swatch-count') == "3/4"
    # ...a wrong tap corrected: go back to square 12, tap its colour again
    page.click('.sq[data-spiral="12"]')
    page.click('.swatch[data-letter="B"]')
    page.locator(".board-entry .palette").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "newgame-board-phone.png"))
    # ...the rest by a colour, then its squares
    page.click("text=A colour, then its squares")
    for letter in sorted(set(BOARD[12:])):
        page.click(f'.swatch[data-letter="{letter}"]')
        for i, want in enumerate(BOARD):
            if i >= 12 and want == letter:
                page.click(f'.sq[data-spiral="{i + 1}"]')
    assert page.input_value("#board") == " ".join(BOARD[i : i + 5] for i in range(0, 25, 5))
    assert page.inner_text(".board-missing") == "The board is complete."
    tokens = page.eval_on_selector_all(
        ".entry-board .sq", "els => els.map(e => [e.dataset.spiral, e.textContent.trim()])"
    )
    assert {int(s): t[-1] for s, t in tokens} == {i + 1: BOARD[i] for i in range(25)}

    # a word printed on no card: the engine's message, every card still shown
    page.fill(".picker-q", "purple")
    page.wait_for_function(
        "() => document.querySelector('.picker-msg').textContent.includes('purple')"
    )
    assert "not something printed on a card" in page.inner_text(".picker-msg")
    assert len(shown(page)) == 13  # the level of the place to fill: level 3
    page.fill(".picker-q", "1-27")  # a card of another level
    page.wait_for_function(
        "() => document.querySelector('.picker-msg').textContent.includes('other levels')"
    )
    assert shown(page) == []
    # the pyramid: each card found by its colour and points, then tapped
    taken: list[str] = []
    for level in (3, 2, 1):
        for card_id in PYRAMID[level]:
            query = query_for(card_id)
            page.fill(".picker-q", query)
            expected = [
                c.id for c in RULES.find_cards(query) if c.level == level and c.id not in taken
            ]
            page.wait_for_function(
                "n => document.querySelectorAll('.picker .pick:not([hidden])').length === n"
                " && document.querySelector('.picker-msg').textContent !== ''",
                arg=len(expected),
            )
            assert shown(page) == expected, query
            if card_id == "2-24":
                page.screenshot(path=str(ARTIFACTS / "newgame-picker-phone.png"))
            page.click(f'.pick[data-card="{card_id}"]')
            taken.append(card_id)
            place = PYRAMID[level].index(card_id) + 1
            assert page.input_value(f'input[name="level{level}_{place}"]') == card_id
            assert card_id not in shown(page)
    assert page.is_hidden(".picker")  # every place filled: the picker steps aside
    # tapping a filled place gives its card back, the picker takes it again
    page.click('[data-slot="level1_5"] .slot-pick')
    assert page.input_value('input[name="level1_5"]') == ""
    page.fill(".picker-q", "1-27")
    page.wait_for_function(
        "() => document.querySelectorAll('.picker .pick:not([hidden])').length === 1"
    )
    page.click('.pick[data-card="1-27"]')
    assert page.inner_text(".ready-note") == "Ready."
    small = page.eval_on_selector_all(
        ".nav-new, .newgame button, .newgame .choice, .newgame select,"
        " .newgame input:not([type=radio]):not([type=hidden])",
        """els => els.filter(e => e.offsetParent !== null).map(e => {
            const r = e.getBoundingClientRect();
            return [e.className || e.name || e.tagName, Math.round(r.width), Math.round(r.height)];
        }).filter(([, w, h]) => w < 44 || h < 44)""",
    )
    assert small == [], "targets under 44 px at phone size"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "newgame-filled-phone.png"), full_page=True)

    page.click("text=Create the game")
    page.wait_for_selector(".key-page")
    link = page.get_attribute(".key-link", "href")
    match = re.fullmatch(rf"{re.escape(server.url)}/games/([0-9a-f]+)/record#key=([\w-]+)", link)
    assert match, link
    gid, key = match.groups()
    assert page.get_attribute("img.qr", "src").startswith("data:image/svg+xml")
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 100
    assert page.get_attribute(".start-logging", "href") == f"/games/{gid}/record"
    page.screenshot(path=str(ARTIFACTS / "newgame-key-phone.png"), full_page=True)
    with EventStore.open(server.db) as store:
        assert [r.id for r in store.listing.games(limit=10)] == [gid]
        text = export_notation(store, gid)
    assert text.replace('[Result "*"]\n', "") == EXPECTED

    # a second phone follows the link: it is authorised, the key leaves the address bar
    other = browser.new_context(viewport=PHONE)
    phone = other.new_page()
    phone.set_default_timeout(15_000)
    phone.on("pageerror", lambda e: problems.append(str(e)))
    assert (
        other.request.post(
            f"{server.url}/api/games/{gid}/events", data={"move": "take c3", "expect": 1}
        ).status
        == 401
    )
    phone.goto(link)
    phone.wait_for_selector("#record")
    assert "key=" not in phone.url
    assert "key=" not in phone.evaluate("window.location.href")
    assert phone.locator("#record-key").count() == 0  # the logging page, not the key form
    # its session writes through the logging page's form (with its CSRF token), never
    # through the JSON API, which takes only the key
    assert (
        other.request.post(
            f"{server.url}/api/games/{gid}/events", data={"move": "take c3", "expect": 1}
        ).status
        == 401
    )
    token = phone.locator('input[name="csrf_token"]').first.get_attribute("value")
    wrote = other.request.post(
        f"{server.url}/games/{gid}/record",
        form={"move": "take c3", "expect": "1", "csrf_token": token or ""},
        headers={"Accept": "application/json"},
    )
    assert wrote.status == 201, wrote.text()

    # a wrong key: said on the page, nothing authorised
    third = browser.new_context(viewport=PHONE)
    stranger = third.new_page()
    stranger.goto(f"{server.url}/games/{gid}/record#key={key[:-3]}abc")
    stranger.wait_for_selector(".rec-refused")
    assert "not this game's recorder key" in stranger.inner_text(".rec-refused")
    assert "key=" not in stranger.url
    stranger.screenshot(path=str(ARTIFACTS / "newgame-wrong-key-phone.png"), full_page=True)
    assert (
        third.request.post(
            f"{server.url}/api/games/{gid}/events", data={"move": "take c4", "expect": 2}
        ).status
        == 401
    )
    third.close()
    other.close()

    # the page at a desktop's width
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "newgame-key-desktop.png"), full_page=True)
    page.goto(f"{server.url}/games/new")
    page.fill("#player1", "Ann")
    page.fill(".picker-q", "joker")
    page.wait_for_function("() => document.querySelector('.picker-msg').textContent !== ''")
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    page.screenshot(path=str(ARTIFACTS / "newgame-desktop.png"), full_page=True)
    # classic Splendor: the nobles and who may start follow the number of players
    page.select_option("#kind-select", "splendor")
    page.wait_for_url("**/games/new?kind=splendor")
    nobles = '.slot-row[data-word="nobles"] .slot:not([hidden])'
    assert page.locator(nobles).count() == 3
    for i, name in enumerate(("Ann", "Bo", "Cid"), start=1):
        page.fill(f"#player{i}", name)
    assert page.locator(nobles).count() == 4
    assert page.locator(".choice[data-seat]:not([hidden])").all_inner_texts() == [
        "Ann",
        "Bo",
        "Cid",
    ]
    page.fill(".picker-q", "noble 3 points")
    page.wait_for_function("() => document.querySelector('.picker-msg').textContent !== ''")
    assert shown(page) == [c.id for c in get_game("splendor").find_cards("noble 3 points")]
    page.screenshot(path=str(ARTIFACTS / "newgame-splendor-desktop.png"), full_page=True)
    context.close()

    assert problems == []
    assert key not in caplog.text


def test_a_new_game_without_javascript(browser: Any, server: Any) -> None:
    """The form as text fields: the board as letters, cards by id or description; a
    description that fits several cards comes back next to its field, the rest kept."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/games/new?kind=splendor")
    assert page.is_hidden(".picker") and page.is_hidden(".slot-pick")
    page.fill("#player1", "Ann")
    page.fill("#player2", "Bo")
    page.fill("#player3", "Cid")
    page.check('input[name="first"][value="2"]')
    cards = {
        "nobles": ["N-06", "N-08", "N-01", "N-04"],
        "level3": ["3-19", "3-02", "3-16", "3-08"],
        "level2": ["2-18", "2-08", "2-12", "2-29"],
        "level1": ["1-09", "1-37", "1-05", "1-17"],
    }
    for word, ids in cards.items():
        for i, cid in enumerate(ids, start=1):
            page.fill(f'input[name="{word}_{i}"]', cid)
    page.fill('input[name="level1_2"]', "level 1 blue")  # fits several cards
    page.click("text=Create the game")
    page.wait_for_selector(".form-errors")
    error = page.inner_text("#err-level1_2")
    assert "cards fit 'level 1 blue'" in error and "say more, or give the id" in error
    assert page.input_value("#player3") == "Cid"
    assert page.input_value('input[name="level3_4"]') == "3-08"
    page.screenshot(path=str(ARTIFACTS / "newgame-nojs-error-phone.png"), full_page=True)
    page.fill('input[name="level1_2"]', "1-37")
    page.click("text=Create the game")
    page.wait_for_selector(".key-page")
    gid = re.search(r"/games/([0-9a-f]+)/record#key=", page.get_attribute(".key-link", "href"))
    assert gid
    with EventStore.open(server.db) as store:
        text = export_notation(store, gid.group(1))
    assert "nobles  N-06 N-08 N-01 N-04" in text and "level1  1-09 1-37 1-05 1-17" in text
    assert '[First "2"]' in text and '[Player3 "Cid"]' in text
    context.close()
