"""The logging page in real headless Chromium against the real server (waitress, loopback)
over a real SQLite file: a whole fixture game entered on the new-game page and logged at
phone size by taps only (tokens on the board, cards, decks, the Privilege, the bag's
colours, the cards revealed, confirm buttons) while a second browser follows it live, then
its export compared with the fixture; a refused move with its verdict and
the offer to record it as played; another phone logging first; the page at desktop size.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import _api, _confirm, _data, _no_sideways_scroll, _open_with_link

from engine.games import get_game
from recorder import EventStore
from recorder.io import export_notation
from web import create_app

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
FIXTURE = ROOT / "fixtures" / "games" / "reserve-and-discard.tl"
#: The game the tap count is measured on (issue 25: 53 turns).
POINTS = ROOT / "fixtures" / "games" / "points.tl"
RULES = get_game("splendor-duel")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    from web.server import BackgroundServer

    app = create_app({"DATABASE": str(tmp_path / "phone.db"), "STORE_PER_THREAD": True})
    srv = BackgroundServer(app, threads=4)
    srv.database = app.config["DATABASE"]
    yield srv
    srv.stop()


def _setup_text(text: str) -> str:
    """The fixture's headers and setup, without its result (the game is to be played)."""
    head = text.split("\n1. ")[0]
    lines = [ln for ln in head.splitlines() if not ln.startswith(("[Result", "[Victory"))]
    return re.sub(r"\{[^}]*\}", "", "\n".join(lines)) + "\n"


def _shoot_once(page: Any, kind: str, shots: set[str]) -> None:
    """A screenshot of the sheet the first time a kind of decision is built."""
    if kind not in shots:
        shots.add(kind)
        page.screenshot(path=str(ARTIFACTS / f"record-phone-{kind}.png"))
        _no_sideways_scroll(page)


def _tap_decision(page: Any, expected: str, taps: dict[str, int], shots: set[str]) -> None:
    """Build the decision ``expected`` (canonical notation) by taps, as a player would:
    from the choices the page carries, what it touches on the table (a reserve's Gold
    first, as the page asks); a replenish's draw typed as a string."""
    data = _data(page)
    if expected.startswith("repl "):
        page.click("#rec-sheet .repl-start")
        page.fill("#rec-sheet .repl-typed", expected.split()[1])
        _shoot_once(page, "replenish", shots)
        taps["replenish"] = taps.get("replenish", 0) + 1
        _confirm(page, expected)
        return
    found = [c for c in data["choices"] + data["observations"] if c["text"] == expected]
    assert found, f"{expected!r} is not offered: {data['due']}"
    choice = found[0]
    group, targets = choice["group"], choice["targets"]
    taps[group] = taps.get(group, 0) + 1
    if group == "reveal":
        _shoot_once(page, "reveal", shots)
        page.click(f'#rec-sheet .picklist button[data-text="{expected}"]')
    elif targets and targets[0].startswith("hidden-"):
        page.click(f'#record [data-target="{targets[0]}"]')
        _shoot_once(page, "blind-" + group, shots)
        page.click(f'#rec-sheet .picklist button[data-text="{expected}"]')
    elif group in ("copy", "steal"):
        _shoot_once(page, group, shots)
        page.click(f'#rec-sheet button.choice[data-text="{expected}"]')
    elif group == "discard":
        _shoot_once(page, "discard", shots)
        for letter in targets:
            page.click(f'#rec-sheet .colours button[data-letter="{letter}"]')
    else:
        if group in ("privilege", "royal", "token"):
            _shoot_once(page, group, shots)
        order = [*targets[1:], targets[0]] if group == "reserve" else list(targets)
        for target in order:
            piece = page.locator(f'#record [data-target="{target}"]')
            assert "lit" in (piece.get_attribute("class") or ""), (expected, target)
            piece.click()
        _confirm(page, expected)


def _new_game_by_taps(page: Any, server: Any, fixture: Any) -> str:
    """Enter the fixture's players, date, place and setup on the new-game page by taps
    (the board's colours in spiral order, each pyramid card found with the picker), create
    the game and open its logging page; the game's id."""
    headers = fixture.headers
    head, setup = RULES.write_game(headers, fixture.events[:1]).split("\n\n", 1)
    lines = dict(line.split(None, 1) for line in setup.splitlines() if line.strip())
    first_name = re.search(r'^\[First "(.*)"\]$', head, re.M)
    assert first_name
    page.goto(f"{server.url}/games/new")
    for seat, name in enumerate(fixture.names, start=1):
        page.fill(f"#player{seat}", name)
    first = fixture.names.index(first_name.group(1)) + 1
    page.click(f'.choice[data-seat="{first}"]')
    page.fill("#date", headers["date"])
    page.fill("#place", headers["place"])
    for letter in lines["board"].replace(" ", ""):
        page.click(f'.swatch[data-letter="{letter}"]')
    assert page.inner_text(".board-missing") == "The board is complete."
    for level in (3, 2, 1):
        for card_id in lines[f"level{level}"].split():
            page.fill(".picker-q", card_id)
            page.wait_for_function(
                "id => [...document.querySelectorAll('.picker .pick:not([hidden])')]"
                ".map(e => e.dataset.card).join() === id",
                arg=card_id,
            )
            page.click(f'.pick[data-card="{card_id}"]')
    assert page.inner_text(".ready-note") == "Ready."
    page.click("text=Create the game")
    page.wait_for_selector(".key-page")
    gid = re.search(r"/games/([0-9a-f]+)/record", page.get_attribute(".start-logging", "href"))
    assert gid
    page.click(".start-logging")
    page.wait_for_selector("#record.js[data-steps]")
    return gid.group(1)


def test_a_whole_fixture_game_logged_by_taps_on_a_phone(browser: Any, server: Any) -> None:
    """From the new-game page to the end of the game by taps on a phone, while a second
    browser follows the game's replay page live; the exported game is the fixture's.
    Every tap or click after the setup page is counted, per turn: median at most 3, no
    turn over 8 (a decision complete and unambiguous is logged by its last tap, a card
    revealed by one tap in the list, a replenish's draw typed)."""
    text = POINTS.read_text(encoding="utf-8")
    fixture = RULES.read_game(text)
    assert fixture.ok
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on(
        "console",
        lambda m: page.errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    gid = _new_game_by_taps(page, server, fixture)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "record-phone-start.png"))
    _no_sideways_scroll(page)

    # a second browser follows the game from its replay page, never reloaded
    follower_ctx = browser.new_context(viewport=DESKTOP)
    follower = follower_ctx.new_page()
    follower.set_default_timeout(20_000)
    follower.goto(f"{server.url}/games/{gid}/step/1")
    follower.evaluate("window.__sameDocument = 'kept'")
    assert follower.get_attribute("#replay", "data-stream")

    state = RULES.new_state(fixture.names)
    RULES.play(state, fixture.events[0])
    taps: dict[str, int] = {}
    shots: set[str] = set()
    shot_payment = False
    # every click the page receives from here on (the page is never reloaded)
    page.evaluate(
        "window.__clicks = 0; document.addEventListener('click', () => window.__clicks++, true)"
    )
    per_turn: dict[int, int] = {}
    per_kind: dict[str, list[int]] = {}
    for step, event in enumerate(fixture.events[1:], start=2):
        expected = RULES.move_text(state, event)
        turn = RULES.status(state).turn
        before = page.evaluate("window.__clicks")
        _tap_decision(page, expected, taps, shots)
        page.wait_for_selector(f'#record.js[data-steps="{step}"]')
        spent = page.evaluate("window.__clicks") - before
        per_turn[turn] = per_turn.get(turn, 0) + spent
        kind = "replenish" if expected.startswith("repl") else expected.split()[0]
        per_kind.setdefault(kind, []).append(spent)
        RULES.play(state, event)
        if not shot_payment:
            # the first purchase that can be paid several ways, before it is confirmed
            data = _data(page)
            buys: dict[str, int] = {}
            for c in data["choices"]:
                if c["group"] == "buy" and len(c["targets"]) == 1:
                    buys[c["targets"][0]] = buys.get(c["targets"][0], 0) + 1
            several = [cid for cid, n in buys.items() if n > 1]
            if several:
                page.click(f'#record [data-target="{several[0]}"]')
                assert page.locator("#rec-sheet .alts button").count() == buys[several[0]]
                page.screenshot(path=str(ARTIFACTS / "record-phone-payments.png"))
                _no_sideways_scroll(page)
                page.click("#rec-sheet button.clear")
                shot_payment = True
    assert state.outcome is not None
    winner = fixture.names[1 if fixture.headers.get("result") == "0-1" else 0]
    assert page.locator(".rec-over").inner_text().startswith(f"{winner} won")
    page.screenshot(path=str(ARTIFACTS / "record-phone-end.png"))
    assert page.errors == []
    counts = sorted(per_turn.values())
    report = {
        "turns": len(counts),
        "taps": sum(counts),
        "median": statistics.median(counts),
        "max": counts[-1],
        "worst turns": sorted(per_turn.items(), key=lambda kv: -kv[1])[:5],
        "per decision kind (count, taps)": {
            k: (len(v), sum(v)) for k, v in sorted(per_kind.items())
        },
    }
    (ARTIFACTS / "record-phone-taps.json").write_text(json.dumps(report, indent=1))
    assert len(counts) == 53 and taps["reveal"] > 10 and taps["replenish"] >= 5
    assert report["median"] <= 3 and report["max"] <= 8, report

    # the follower went with it to the last step, in the same document
    final = len(fixture.events)
    follower.wait_for_function(
        "(step) => document.getElementById('replay').dataset.step === step", arg=str(final)
    )
    assert follower.url.endswith(f"/step/{final}")
    assert follower.evaluate("window.__sameDocument") == "kept"
    assert follower.locator(".status .outcome").is_visible()
    follower.screenshot(path=str(ARTIFACTS / "record-follower-final.png"))

    # the game as stored is the fixture's, move for move, and exports as the fixture
    # reads without its comments and its Event and Round headers (the page asks neither)
    with EventStore.open(server.database) as store:
        stored = store.events(gid)
        exported = export_notation(store, gid)
    assert [e.payload for e in stored] == [RULES.event_to_dict(e) for e in fixture.events]
    assert all(not (e.meta or {}).get("played_illegally") for e in stored)
    headers = {k: v for k, v in fixture.headers.items() if k != "event"}
    headers["tags"] = {k: v for k, v in headers["tags"].items() if k != "Round"}
    assert exported == RULES.write_game(headers, fixture.events)
    follower_ctx.close()
    context.close()


def test_a_refused_move_then_as_played_and_another_phone_first(browser: Any, server: Any) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    made = _api(server.url + "/api/games", {"notation": _setup_text(text)})
    page = _open_with_link(browser, server, made, PHONE)
    # a move typed by hand that the rules refuse: the verdict beside the thumb
    page.click("details.rec-type summary")
    page.fill("#rec-move", "take a1 c1")
    page.click("form.rec-form button[type=submit]")
    refused = page.locator("#rec-sheet .refused")
    refused.wait_for()
    words = refused.inner_text()
    assert "Illegal here" in words and "p.5, Take up to 3 tokens" in words
    assert "a1, c1 are not adjacent" in words
    page.screenshot(path=str(ARTIFACTS / "record-phone-refused.png"))
    _no_sideways_scroll(page)
    assert _data(page)["steps"] == 1
    page.click("#rec-sheet button.as-played")
    page.wait_for_selector('#record.js[data-steps="2"]')
    assert "flagged" in page.locator("#rec-sheet .done").inner_text()
    assert page.locator(".rec-steps-list li.flagged").count() == 1

    # another phone logs first (through the API, with the key): this one is told, and
    # sees the table as it now stands
    _api(
        f"{server.url}/api/games/{made['id']}/events",
        {"move": "take b2 b3 b4", "expect": 2},
        made["key"],
    )
    page.click('#record [data-target="b5"]')
    page.click("#rec-sheet button.confirm")
    conflict = page.locator("#rec-sheet .rec-queue.conflict")
    conflict.wait_for()
    assert "Another phone logged meanwhile" in conflict.inner_text()
    assert "take b2 b3 b4" in conflict.locator(".theirs").inner_text()
    assert _data(page)["steps"] == 3
    page.screenshot(path=str(ARTIFACTS / "record-phone-conflict.png"))
    page.click("#rec-sheet button.keep-theirs")
    assert page.locator("#rec-sheet .rec-queue").count() == 0

    # undo, confirmed first: a correction
    page.click("a.rec-undo")
    assert "Take back step 3" in page.locator("#rec-sheet").inner_text()
    page.click("#rec-sheet button.undo-yes")
    page.wait_for_selector('#record.js[data-steps="4"]')
    assert page.locator(".rec-steps-list li.retracted").count() == 1
    assert "Taken back: step 3, take b2 b3 b4 =RGG" in page.locator("#rec-sheet .done").inner_text()

    # the narrowest phone: no sideways scroll, every target at least 44 px
    page.set_viewport_size({"width": 360, "height": 740})
    _no_sideways_scroll(page)
    _targets_big_enough(page)
    page.screenshot(path=str(ARTIFACTS / "record-phone-360.png"), full_page=True)

    # a new key ends this phone's session: its next tap is refused, and the page says
    # the link was replaced and asks for the key again
    with EventStore.open(server.database) as store:
        store.keys.issue(made["id"])
    page.click('#record [data-target="b5"]')
    page.click("#rec-sheet button.confirm")
    page.wait_for_selector("form.rec-keyform")
    assert "This logging link was replaced" in page.locator(".rec-refused").inner_text()
    with EventStore.open(server.database) as store:
        assert store.game(made["id"]).event_count == 4  # nothing was written
    page.screenshot(path=str(ARTIFACTS / "record-phone-replaced.png"))
    assert page.errors == []


def _targets_big_enough(page: Any) -> None:
    sizes = page.eval_on_selector_all(
        "#record .tgt, #rec-sheet button, .rec-nav .btn",
        "els => els.filter(e => e.offsetParent).map(e => [e.offsetWidth, e.offsetHeight])",
    )
    assert sizes and all(min(box) >= 44 for box in sizes), sizes


def test_the_logging_page_at_desktop_size(browser: Any, server: Any) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    made = _api(server.url + "/api/games", {"notation": _setup_text(text)})
    page = _open_with_link(browser, server, made, DESKTOP)
    _no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / "record-desktop.png"))
    # the Gold, then the deck: a reserve with nothing left to choose is logged by the tap
    page.click('#record [data-target="c4"]')
    assert page.locator("#rec-sheet button.confirm").count() == 0
    page.click('#record [data-target="deck-3"]')
    page.wait_for_selector('#record.js[data-steps="2"]')
    assert page.locator("#rec-sheet .done").inner_text() == "Logged: res L3 @c4"
    _targets_big_enough(page)
    # at this width too: a reserve typed without its Gold's space offers its completions,
    # and the card turned face up is picked from a list that draws each card
    face_up = next(
        c["targets"][0]
        for c in _data(page)["choices"]
        if c["group"] == "reserve" and c["targets"][0][:1].isdigit()
    )
    page.click("details.rec-type summary")
    page.fill("#rec-move", f"res {face_up}")
    page.click("form.rec-form button[type=submit]")
    offer = page.locator("#rec-sheet .refused button.completion").first
    offer.wait_for()
    page.screenshot(path=str(ARTIFACTS / "record-desktop-completions.png"))
    _no_sideways_scroll(page)
    offer.click()
    page.wait_for_selector('#record.js[data-steps="3"]')
    page.wait_for_selector("#rec-sheet .picklist button .pic .card")
    page.screenshot(path=str(ARTIFACTS / "record-desktop-reveal.png"))
    _no_sideways_scroll(page)
    assert page.errors == []


def test_without_javascript_the_forms_log(browser: Any, server: Any) -> None:
    """The essential path without JavaScript: the key typed in its form, a decision typed
    in notation, a refusal with its verdict and the offer to record it as played."""
    text = FIXTURE.read_text(encoding="utf-8")
    made = _api(server.url + "/api/games", {"notation": _setup_text(text)})
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/games/{made['id']}/record")
    page.fill("input[name=key]", made["key"])
    page.click("form.rec-keyform button[type=submit]")
    page.wait_for_selector('#record[data-steps="1"]')
    assert page.locator("details.rec-type").get_attribute("open") is not None
    page.fill("#rec-move", "res L3 @c4")
    page.click("form.rec-form button[type=submit]")
    page.wait_for_selector('#record[data-steps="2"]')
    page.fill("#rec-move", "take a1 c1")
    page.click("form.rec-form button[type=submit]")
    refusal = page.locator(".rec-refusal")
    assert "p.5, Take up to 3 tokens" in refusal.inner_text()
    assert page.locator('#record[data-steps="2"]').count() == 1
    page.click(".rec-refusal button[type=submit]")
    page.wait_for_selector('#record[data-steps="3"]')
    assert page.locator(".rec-steps-list li.flagged").count() == 1
    _no_sideways_scroll(page)
    context.close()
