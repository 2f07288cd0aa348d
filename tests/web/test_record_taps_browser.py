"""The logging page's taps at a position of ``fixtures/games/points.tl``, in real headless
Chromium against the real server over a real SQLite file: the biggest replenish of the
game (16 tokens) in at most 4 taps, its draw typed as a string; a piece that is not lit
answered with the rules' verdict (rule and page) and a try anyway, the piece kept above
the sheet; the token an ability takes brought into view after the step.  At phone and
desktop sizes; screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore

from .test_record_browser import (
    ARTIFACTS,
    DESKTOP,
    FIXTURE,
    PHONE,
    POINTS,
    RULES,
    _api,
    _data,
    _no_sideways_scroll,
    _open_with_link,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
SIZES = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Any]:
    from web import create_app
    from web.server import BackgroundServer

    app = create_app({"DATABASE": str(tmp_path / "taps.db"), "STORE_PER_THREAD": True})
    srv = BackgroundServer(app, threads=4)
    srv.database = app.config["DATABASE"]
    yield srv
    srv.stop()


def _at(browser: Any, server: Any, steps: int, viewport: dict[str, int]) -> tuple[Any, Any, str]:
    """A phone logging points.tl from its step ``steps`` (the first ``steps`` events as the
    game's notation): the page, the fixture and the game's id."""
    fixture = RULES.read_game(POINTS.read_text(encoding="utf-8"))
    notation = RULES.write_game({"players": fixture.names}, fixture.events[:steps])
    made = _api(server.url + "/api/games", {"notation": notation})
    page = _open_with_link(browser, server, made, viewport)
    assert _data(page)["steps"] == steps
    page.evaluate(
        "window.__clicks = 0; document.addEventListener('click', () => window.__clicks++, true)"
    )
    return page, fixture, made["id"]


def _box(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")  # type: ignore[no-any-return]


def _above_the_sheet(page: Any, selector: str) -> None:
    """``selector`` is wholly on screen, under the sticky top and above the sheet."""
    piece, sheet, top = _box(page, selector), _box(page, "#rec-sheet"), _box(page, ".rec-top")
    assert top["bottom"] - 1 <= piece["top"] and piece["bottom"] <= sheet["top"] + 1, (
        piece,
        sheet,
        top,
    )


@SIZES
def test_the_biggest_replenish_in_at_most_four_taps(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    """After step 57 of points.tl: 16 tokens from the bag.  The draw typed as a string (a letter
    the bag has no more of is named, not taken), the last colour left filling itself;
    two taps in all (Replenish, then the confirm)."""
    page, fixture, gid = _at(browser, server, 57, viewport)
    draw = "KWBKBGKWGWWPYGKP"
    page.click("#rec-sheet .repl-start")
    typed = page.locator("#rec-sheet .repl-typed")
    assert page.evaluate("document.activeElement.classList.contains('repl-typed')")
    typed.fill(draw[:5] + "R")  # the bag holds no red
    assert page.locator("#rec-sheet .repl-error").inner_text().startswith("R: the bag holds no red")
    assert typed.input_value() == draw[:5]
    # everything but the last Pearl typed: the bag's last token is known
    typed.fill(draw[:-1])
    confirm = page.locator("#rec-sheet button.confirm")
    assert confirm.get_attribute("data-text") == "repl " + draw
    name = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"record-{name}-replenish-typed.png"))
    _no_sideways_scroll(page)
    confirm.click()
    page.wait_for_selector('#record.js[data-steps="58"]')
    assert page.evaluate("window.__clicks") <= 4
    with EventStore.open(server.database) as store:
        assert store.events(gid)[-1].payload == RULES.event_to_dict(fixture.events[57])


@SIZES
def test_a_piece_not_lit_says_why_and_may_be_tried_anyway(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    """At the first turn, a1 tapped, then pieces that are not lit with it: a level-1 card
    of the pyramid's lowest row (one line says why, with the rule and its page, and the
    card stays above the sheet), then e1 (not in a line with a1): "Try take a1 e1
    anyway" gets the usual refusal, then "as played, flagged"."""
    page, _fixture, gid = _at(browser, server, 1, viewport)
    page.click('#record [data-target="a1"]')
    card = page.eval_on_selector_all(
        '#record .prow.lv-1 [data-target^="1-"]', "es => es.map(e => e.dataset.target)"
    )[-1]
    selector = f'#record [data-target="{card}"]'
    assert "lit" not in (page.get_attribute(selector, "class") or "")
    page.click(selector)
    page.wait_for_function(
        "() => !/checking/.test(document.querySelector('#rec-sheet .unlit .why').textContent)"
    )
    line = page.locator("#rec-sheet .unlit .why").inner_text()
    assert line.startswith(f"buy {card}: ") and "p." in line, line
    _above_the_sheet(page, selector)
    name = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"record-{name}-unlit.png"))
    _no_sideways_scroll(page)
    assert _data(page)["steps"] == 1

    assert "lit" not in (page.get_attribute('#record [data-target="e1"]', "class") or "")
    page.click('#record [data-target="e1"]')
    page.wait_for_function(
        "() => /p\\./.test(document.querySelector('#rec-sheet .unlit .why').textContent)"
    )
    assert page.locator("#rec-sheet .unlit .why").inner_text().startswith("take a1 e1: ")
    page.click("#rec-sheet button.try-anyway")
    refused = page.locator("#rec-sheet .refused")
    refused.wait_for()
    assert "Illegal here" in refused.inner_text()
    page.click("#rec-sheet button.as-played")
    page.wait_for_selector('#record.js[data-steps="2"]')
    assert page.locator(".rec-steps-list li.flagged").count() == 1
    with EventStore.open(server.database) as store:
        assert (store.events(gid)[-1].meta or {}).get("played_illegally")
    assert page.errors == []


@SIZES
def test_the_token_an_ability_takes_is_brought_into_view(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    """After step 33 of points.tl: the card bought lets Alice take a white token from the board;
    the page comes with that token on screen above the sheet, and one tap logs it."""
    page, fixture, gid = _at(browser, server, 33, viewport)
    expected = RULES.event_to_dict(fixture.events[33])
    token = expected["space"]
    assert all(c["group"] == "token" for c in _data(page)["choices"])
    page.wait_for_function(
        "t => { const e = document.querySelector('#record [data-target=\"' + t + '\"]');"
        " const s = document.getElementById('rec-sheet').getBoundingClientRect();"
        " const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= s.top + 1; }",
        arg=token,
    )
    _above_the_sheet(page, f'#record [data-target="{token}"]')
    name = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"record-{name}-token-ability.png"))
    page.click(f'#record [data-target="{token}"]')
    page.wait_for_selector('#record.js[data-steps="34"]')
    assert page.evaluate("window.__clicks") == 1
    with EventStore.open(server.database) as store:
        assert store.events(gid)[-1].payload == expected


@SIZES
def test_a_card_paid_another_way_in_two_taps(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    """After step 8 of reserve-and-discard.tl, 1-16 can be paid five ways: the card's tap
    offers the first as the confirm and every way as a button beside it; one tap on
    another way logs that payment (two taps in all)."""
    fixture = RULES.read_game(FIXTURE.read_text(encoding="utf-8"))
    notation = RULES.write_game({"players": fixture.names}, fixture.events[:8])
    made = _api(server.url + "/api/games", {"notation": notation})
    page = _open_with_link(browser, server, made, viewport)
    page.evaluate(
        "window.__clicks = 0; document.addEventListener('click', () => window.__clicks++, true)"
    )
    ways = [
        c["text"]
        for c in _data(page)["choices"]
        if c["group"] == "buy" and c["targets"] == ["1-16"]
    ]
    assert len(ways) == 5
    page.click('#record [data-target="1-16"]')
    assert page.get_attribute("#rec-sheet button.confirm", "data-text") == ways[0]
    offered = page.eval_on_selector_all(
        "#rec-sheet .alts button", "bs => bs.map(b => b.getAttribute('data-text'))"
    )
    assert offered == ways
    _above_the_sheet(page, '#record [data-target="1-16"]')
    name = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"record-{name}-payments.png"))
    _no_sideways_scroll(page)
    page.click(f'#rec-sheet .alts button[data-text="{ways[-1]}"]')
    page.wait_for_selector('#record.js[data-steps="9"]')
    assert page.evaluate("window.__clicks") == 2
    assert page.locator("#rec-sheet .done").inner_text() == f"Logged: {ways[-1]}"
    assert page.errors == []


@SIZES
def test_the_next_players_turn_starts_from_the_table_top(
    browser: Any, server: Any, viewport: dict[str, int]
) -> None:
    """After step 9 of points.tl, Bob buys 1-11 from the pyramid's lowest row, the page
    scrolled down to it, and the card revealed in its place is tapped: Alice's turn then
    starts with the table's top (the board) just under the sticky top."""
    from engine.fold import Fold

    from .test_record_browser import _tap_decision

    page, fixture, _ = _at(browser, server, 9, viewport)
    fold = Fold(RULES, fixture.names).extend(fixture.events[:9])
    texts = []
    for event in fixture.events[9:11]:
        texts.append(RULES.move_text(fold.head, event))
        fold.push(event)
    assert texts[0].startswith("buy 1-11") and texts[1].startswith("reveal ")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    if viewport is PHONE:  # (a laptop's screen holds the whole table)
        assert _box(page, ".rec-table")["top"] < _box(page, ".rec-top")["bottom"] - 100
    for n, text in enumerate(texts):
        _tap_decision(page, text, {}, set())
        page.wait_for_selector(f'#record.js[data-steps="{10 + n}"]')
    page.wait_for_function(
        "() => document.querySelector('#record .rec-table').getBoundingClientRect().top"
        " >= document.querySelector('#record .rec-top').getBoundingClientRect().bottom - 1"
    )
    _above_the_sheet(page, '#record [data-target="a1"]')
    name = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"record-{name}-next-turn.png"))
