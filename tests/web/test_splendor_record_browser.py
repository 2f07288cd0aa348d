"""Classic Splendor from a phone, in real headless Chromium against the real server over a
real SQLite file: a three-player game created on the new-game page (the nobles and the
display's twelve cards with the card picker), then its first turns logged on the logging
page by taps (the bank's colours, two of one colour, a card and the Gold to reserve, a
purchase with its payment, the card turned face up from the list), one typed in the form,
one undone; the export is what was logged.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine.games import get_game
from recorder import EventStore
from recorder.io import export_notation

from . import test_record_browser as phone
from .test_record_browser import _api, _confirm, _data, _no_sideways_scroll

#: The real server over a fresh SQLite file (the fixture of the Splendor Duel phone tests).
server = phone.server

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
FIXTURE = ROOT / "fixtures" / "splendor" / "games" / "three-players.tl"
RULES = get_game("splendor")
PHONE = {"width": 390, "height": 844}
#: The fixture's table as dealt, by setup line.
LAID_OUT = {
    "nobles": ["N-06", "N-08", "N-01", "N-04"],
    "level3": ["3-19", "3-02", "3-16", "3-08"],
    "level2": ["2-18", "2-08", "2-12", "2-29"],
    "level1": ["1-09", "1-37", "1-05", "1-17"],
}
#: The fixture's turns logged by taps (the rest of the test types one and undoes it).
TAPPED = 8


def _tap(page: Any, expected: str, shots: set[str]) -> None:
    """Build the decision ``expected`` by tapping what it touches, as a player would."""
    data = _data(page)
    found = [c for c in data["choices"] if c["text"] == expected]
    assert found, f"{expected!r} is not offered: {data['due']}"
    group, targets = found[0]["group"], found[0]["targets"]
    if group == "reveal":
        page.click(f'#rec-sheet .picklist button[data-text="{expected}"]')
    elif group == "discard":
        for letter in targets:
            page.click(f'#rec-sheet .colours button[data-letter="{letter}"]')
    else:
        # a reserve's Gold first, as the page asks (a card tapped first is bought)
        order = [*targets[1:], targets[0]] if group == "reserve" else list(targets)
        for target in order:
            piece = page.locator(f'#record [data-target="{target}"]')
            assert "lit" in (piece.get_attribute("class") or ""), (expected, target)
            piece.click()
    if group not in shots:
        shots.add(group)
        page.screenshot(path=str(ARTIFACTS / f"splendor-record-phone-{group}.png"))
        _no_sideways_scroll(page)
    _confirm(page, expected)


def _create_on_the_new_game_page(browser: Any, server: Any) -> tuple[Any, str]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/games/new?kind=splendor")
    for i, name in enumerate(("Chloe", "Dana", "Eli"), start=1):
        page.fill(f"#player{i}", name)
    page.click('.choice[data-seat="1"]')
    page.fill("#date", "2026-10-16")
    page.fill("#place", "Club house, Grenoble")
    assert page.locator('.slot-row[data-word="nobles"] .slot:not([hidden])').count() == 4
    for word, ids in LAID_OUT.items():
        for place, card_id in enumerate(ids, start=1):
            page.click(f'[data-slot="{word}_{place}"] .slot-pick')
            page.fill(".picker-q", card_id)
            page.wait_for_function(
                "id => document.querySelector('.picker .pick[data-card=\"' + id + '\"]')"
                " && !document.querySelector('.picker .pick[data-card=\"' + id + '\"]').hidden",
                arg=card_id,
            )
            page.click(f'.pick[data-card="{card_id}"]')
            assert page.input_value(f'input[name="{word}_{place}"]') == card_id
    assert page.inner_text(".ready-note") == "Ready."
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "splendor-newgame-filled-phone.png"), full_page=True)
    _no_sideways_scroll(page)
    page.click("text=Create the game")
    page.wait_for_selector(".key-page")
    link = page.get_attribute(".key-link", "href")
    match = re.fullmatch(rf"{re.escape(server.url)}/games/([0-9a-f]+)/record#key=[\w-]+", link)
    assert match, link
    page.goto(link)
    page.wait_for_selector('#record.js[data-steps="1"]')
    return page, match.group(1)


def export_notation_of(server: Any, gid: str) -> str:
    with EventStore.open(server.database) as store:
        return export_notation(store, gid)


def test_a_classic_game_created_and_logged_from_a_phone(browser: Any, server: Any) -> None:
    page, gid = _create_on_the_new_game_page(browser, server)
    assert page.locator("#record.taps").count() == 1  # the table is drawn for taps
    assert page.locator(".rec-player").count() == 3
    page.screenshot(path=str(ARTIFACTS / "splendor-record-phone-start.png"))
    _no_sideways_scroll(page)

    fixture = RULES.read_game(FIXTURE.read_text(encoding="utf-8"))
    state = RULES.new_state(fixture.names)
    RULES.play(state, fixture.events[0])
    shots: set[str] = set()
    turns = 0
    for step, event in enumerate(fixture.events[1:], start=2):
        expected = RULES.move_text(state, event)
        turns += not RULES.is_observation(event)
        if turns > TAPPED:
            break
        _tap(page, expected, shots)
        page.wait_for_selector(f'#record.js[data-steps="{step}"]')
        RULES.play(state, event)
    assert {"take", "reserve", "reveal", "buy"} <= shots
    steps = _data(page)["steps"]
    # on a phone the player to move comes first under the table, whatever the seat
    tops = page.eval_on_selector_all(
        ".rec-player",
        "ps => ps.map(p => [p.classList.contains('to-move'), p.getBoundingClientRect().top])",
    )
    to_move = [top for moving, top in tops if moving]
    assert len(to_move) == 1 and to_move[0] < min(top for moving, top in tops if not moving)
    assert _data(page)["to_move"] != 0  # not the first seat: the order changed

    # Eli's turn typed in notation, without the Gold a reserve takes: the rules leave no
    # choice while Golds are left, so it is taken (res 2-29 +Y).  The card turned face up
    # is then picked from the list.
    page.click("details.rec-type summary")
    page.fill("#rec-move", "res 2-29")
    page.click("form.rec-form button[type=submit]")
    page.wait_for_selector(f'#record.js[data-steps="{steps + 1}"]')
    assert "turned face up" in page.inner_text("#rec-sheet")
    # a tap on the table meanwhile is answered, not ignored
    page.locator('#record .bankt[data-target="W"]').click()
    assert "First log the card turned face up" in page.inner_text("#rec-sheet .notice")
    # the list shows what the game's own look-up finds: the unseen level-2 cards that fit
    state = RULES.read_game(export_notation_of(server, gid)).state
    fits = {c.id for c in RULES.find_cards("green 2 points", state)}
    page.fill("#rec-sheet input[type=search]", "green 2 points")
    page.wait_for_function(
        "() => /cards? fits?$/.test(document.querySelector('#rec-sheet .pickcount').textContent)"
    )
    listed = page.eval_on_selector_all(
        "#rec-sheet .picklist button", "bs => bs.map(b => b.getAttribute('data-text'))"
    )
    assert listed and sorted(listed) == sorted(f"reveal {i}" for i in fits if i.startswith("2-"))
    drawn = page.eval_on_selector_all(
        "#rec-sheet .picklist button",
        "bs => bs.map(b => (b.querySelector('.pic .card') || {}).dataset?.card || null)",
    )
    assert drawn == [text.split()[1] for text in listed]  # each card drawn as printed
    count = page.inner_text("#rec-sheet .pickcount")
    assert count == ("1 card fits" if len(listed) == 1 else f"{len(listed)} cards fit")
    # one tap in the list logs it
    page.click('#rec-sheet .picklist button[data-text="reveal 2-15"]')
    page.wait_for_selector(f'#record.js[data-steps="{steps + 2}"]')

    # ... and undone: the card, entered on its own, first; then the reserve
    page.click("a.rec-undo")
    said = f"Take back step {steps + 2}, reveal 2-15, entered on its own"
    assert said in page.inner_text("#rec-sheet")
    page.click("#rec-sheet button.undo-yes")
    page.wait_for_selector(f'#record.js[data-steps="{steps + 3}"]')
    page.click("a.rec-undo")
    assert f"Take back step {steps + 1}, res 2-29 +Y?" in page.inner_text("#rec-sheet")
    page.click("#rec-sheet button.undo-yes")
    page.wait_for_selector(f'#record.js[data-steps="{steps + 4}"]')
    assert page.locator(".rec-steps-list li.retracted").count() == 2
    page.screenshot(path=str(ARTIFACTS / "splendor-record-phone-undone.png"), full_page=True)
    _no_sideways_scroll(page)
    # the replay strikes the taken-back steps through, and tells the undo in words
    page.goto(f"{server.url}/games/{gid}/step/{steps + 4}")
    struck = page.eval_on_selector_all(
        "#moves a.retracted", "as => as.map(a => getComputedStyle(a).textDecorationLine)"
    )
    assert struck and all("line-through" in d for d in struck), struck
    assert f"as after step {steps}" in page.inner_text(".step-change")
    page.screenshot(path=str(ARTIFACTS / "splendor-replay-undo-phone.png"))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{server.url}/games/{gid}/step/{steps + 1}")  # a step taken back
    assert f"Taken back by the undo of step {steps + 4}." in page.inner_text(".step-change")
    page.screenshot(path=str(ARTIFACTS / "splendor-replay-undone-laptop.png"))
    _no_sideways_scroll(page)
    assert page.errors == []

    with EventStore.open(server.database) as store:
        exported = export_notation(store, gid)
    logged = [line for line in exported.splitlines() if line[:1].isdigit()]
    fixture_turns = [
        line for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line[:1].isdigit()
    ]
    undone = f"9. Eli: res 2-29 +Y reveal 2-15 undo to {steps + 1} undo"
    assert logged == [*fixture_turns[:TAPPED], undone]
    setup = "\n".join(f"{word:<7} {' '.join(ids)}" for word, ids in LAID_OUT.items())
    assert setup in exported and '[Player3 "Eli"]' in exported
    again = RULES.read_game(exported)
    assert again.ok and len(again.events) == steps + 4


def test_tokens_returned_and_the_noble_chosen_by_taps(browser: Any, server: Any) -> None:
    """A seeded random game where a player must return a token down to ten, and the same
    game later where two nobles may visit: each decision built by taps on the phone."""
    names = ["Ann", "Bo", "Cy"]
    events = RULES.random_game(random.Random(0), names)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    shots: set[str] = set()
    for at, due in (
        (26, "Bo must return 1 token down to 10"),
        (125, "Bo must receive a noble: N-03 or N-04"),
    ):
        state = RULES.new_state(names)
        for event in events[:at]:
            RULES.play(state, event)
        assert RULES.status(state).due == due
        notation = RULES.write_game({"players": names}, events[:at])
        made = _api(server.url + "/api/games", {"notation": notation})
        page.goto(server.url + made["record_url"])
        page.wait_for_selector(f'#record.js[data-steps="{at}"]')
        assert page.inner_text(".rec-due") == due
        _tap(page, RULES.move_text(state, events[at]), shots)
        page.wait_for_selector(f'#record.js[data-steps="{at + 1}"]')
        with EventStore.open(server.database) as store:
            stored = [e.payload for e in store.events(made["id"])]
        assert stored == [RULES.event_to_dict(e) for e in events[: at + 1]]
    assert shots == {"discard", "noble"}
    assert errors == []
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, phone.DESKTOP], ids=["phone", "desktop"])
def test_a_classic_piece_not_lit_says_why(browser: Any, server: Any, viewport: Any) -> None:
    """Classic Splendor: white tapped, then the Gold (never taken with tokens): one line
    says why with the rule (this rulebook's rules carry no page numbers), and the take
    is offered to try anyway; two tokens of a colour are logged by the second tap."""
    fixture = RULES.read_game(FIXTURE.read_text(encoding="utf-8"))
    notation = RULES.write_game({"players": fixture.names}, fixture.events[:1])
    made = _api(server.url + "/api/games", {"notation": notation})
    page = phone._open_with_link(browser, server, made, viewport)
    page.click('#record [data-target="W"]')
    assert "lit" not in (page.get_attribute('#record [data-target="Y"]', "class") or "")
    page.click('#record [data-target="Y"]')
    page.wait_for_function(
        "() => !/checking/.test(document.querySelector('#rec-sheet .unlit .why').textContent)"
    )
    why = page.locator("#rec-sheet .unlit .why").inner_text()
    assert why.startswith("take WY: Gold is not taken with gems"), why
    assert "Reserve a development card" in page.locator("#rec-sheet .unlit .why cite").inner_text()
    assert page.get_attribute("#rec-sheet button.try-anyway", "data-text") == "take WY"
    page.screenshot(path=str(ARTIFACTS / f"splendor-record-unlit-{viewport['width']}.png"))
    _no_sideways_scroll(page)
    page.click("#rec-sheet button.clear")  # (white again would be two whites)
    assert _data(page)["steps"] == 1
    page.click('#record [data-target="R"]')
    page.click('#record [data-target="R"]')
    page.wait_for_selector('#record.js[data-steps="2"]')
    assert page.locator("#rec-sheet .done").inner_text() == "Logged: take RR"
    assert page.errors == []
