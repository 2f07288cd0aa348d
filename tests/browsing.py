"""What the browser tests share (those of tests/web and of each game in tests/games): the
Chromium they drive (Debian's, through Playwright), where screenshots go, and the helpers
of the logging page: a game made through the JSON API, a phone that opened its recorder
link, the page's JSON block, no sideways scrolling, a decision confirmed."""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def browser_missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (skipped when either is missing)."""
    if shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
        browser_missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        browser_missing("the playwright package is not installed")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _api(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def _open_with_link(browser: Any, server: Any, made: dict[str, Any], viewport: Any) -> Any:
    """A phone that opened the recorder link (the key in its fragment)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # nothing refused by the CSP (no inline script or style; the JSON block is data)
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.errors = errors
    page.goto(server.url + made["record_url"])
    page.wait_for_selector("#record.js[data-steps]")
    assert "#key=" not in page.url, "the key leaves the address bar"
    return page


def _data(page: Any) -> dict[str, Any]:
    return page.eval_on_selector("#record-data", "e => JSON.parse(e.textContent)")  # type: ignore[no-any-return]


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def _confirm(page: Any, expected: str) -> None:
    """Log ``expected`` once its pieces are tapped: a decision complete with nothing left
    to choose was logged by its last tap (no confirm button is left); another payment is
    logged by its own button; else the confirm button shows it, and is tapped."""
    confirm = page.locator("#rec-sheet button.confirm")
    if confirm.count() == 0:
        return
    if confirm.get_attribute("data-text") != expected:
        page.click(f'#rec-sheet .alts button[data-text="{expected}"]')
        return
    confirm.click()
