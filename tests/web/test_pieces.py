"""The board templates and the pieces they import (``web/templates/pieces.html`` and
``web/templates/<kind>/pieces.html``), drawn on a game's view; a piece drawn once and
remembered is drawn as the macro draws it, escaped; and no module under ``web/`` writes
markup in Python: every tag the site serves is in a template."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import render_template

from engine.games import get_game
from web import create_app

WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.fixture()
def ctx(tmp_path: Path) -> Iterator[Any]:
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "TESTING": True})
    with app.test_request_context("/"):
        yield app


def pieces(app: Any, kind: str) -> Any:
    """The pieces module of a game's board templates."""
    return app.jinja_env.get_template(f"{kind}/pieces.html").module


def test_splendor_duel_board_and_panel(ctx: Any) -> None:
    rules = get_game("splendor-duel")
    view = rules.view(rules.new_state(["Ann", "Bob"]))
    table = render_template("splendor-duel/table.html", view=view)
    assert 'data-space="a1"' in table and 'class="symbols"' in table
    assert render_template("splendor-duel/player.html", p=view["players"][0]).startswith(
        '<div class="scores">'
    )
    assert 'class="holdings"' in render_template("splendor-duel/player.html", p=view["players"][0])
    token = pieces(ctx, "splendor-duel").token
    assert str(token("R", "red")) == '<span class="token t-red" title="red">R</span>'


def test_splendor_board_and_panel(ctx: Any) -> None:
    rules = get_game("splendor")
    view = rules.view(rules.new_state(["Ann", "Bob", "Cid"]))
    assert 'aria-label="Bank and nobles"' in render_template("splendor/table.html", view=view)
    assert 'class="holdings"' in render_template("splendor/player.html", p=view["players"][0])


def test_a_remembered_piece_is_drawn_escaped_and_once(ctx: Any) -> None:
    duel = pieces(ctx, "splendor-duel")
    drawn = duel.token("<b>", 'red" onclick="x', "small")
    assert str(drawn) == (
        '<span class="token t-red&#34; onclick=&#34;x small" title="red&#34; onclick=&#34;x">'
        "&lt;b&gt;</span>"
    )
    assert duel.token("<b>", 'red" onclick="x', "small") is drawn
    card = get_game("splendor-duel").card_view("1-01")
    assert duel.card(card, "mini") is duel.card(dict(card), "mini")
    assert duel.card(card, "mini") != duel.card(card, "small")
    assert 'class="card c-' in duel.card(card) and f'data-card="{card["id"]}"' in duel.card(card)
    # the same macros in every game that draws a token
    assert str(pieces(ctx, "splendor").token("R", "red")) == str(duel.token("R", "red"))


#: An HTML or SVG tag (its start: ``<div``, ``</li``, ``<svg``...).
TAG = re.compile(
    r"<\s*/?\s*(?:a|b|br|button|circle|cite|code|details|div|em|form|g|h[1-6]|i|img|input|"
    r"label|li|meter|ol|option|p|path|rect|script|section|small|span|strong|style|summary|"
    r"svg|table|tbody|td|th|thead|tr|ul)(?=[\s/>])",
    re.IGNORECASE,
)


def markup_in(source: str, where: str = "<source>") -> Iterator[str]:
    """Each string of ``source`` (not a docstring) that holds a tag, and each use of
    markupsafe's Markup: markup built in Python."""
    tree = ast.parse(source, where)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and TAG.search(node.value)
        ):
            yield f"{where}:{node.lineno}: {node.value[:60]!r}"
        names = (
            getattr(node, "id", None),
            getattr(node, "attr", None),
            getattr(node, "name", None),
        )
        if isinstance(node, ast.Name | ast.Attribute | ast.alias) and "Markup" in names:
            yield f"{where}:{getattr(node, 'lineno', '?')}: Markup"


def test_no_markup_is_built_in_python() -> None:
    found = [
        finding
        for path in sorted(WEB.rglob("*.py"))
        for finding in markup_in(
            path.read_text(encoding="utf-8"), str(path.relative_to(WEB.parent))
        )
    ]
    assert found == []


def test_the_scan_finds_markup() -> None:
    source = (
        '"""A docstring may show <span>markup</span>."""\n'
        "from markupsafe import Markup\n"
        "x = f'<li class=\"pip\">{n}</li>'\n"
        "y = \"<svg viewBox='0 0 1 1'/>\"\n"
        'z = "a < b, <id>, <kind>"\n'
    )
    assert sorted(markup_in(source)) == [
        "<source>:2: Markup",
        "<source>:3: '</li>'",
        "<source>:3: '<li class=\"pip\">'",
        "<source>:4: \"<svg viewBox='0 0 1 1'/>\"",
    ]
