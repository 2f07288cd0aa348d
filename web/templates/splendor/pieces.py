"""Classic Splendor's pieces as HTML, from the engine's plain view (no rules here).

>>> import random
>>> from engine.games import get_game
>>> rules = get_game("splendor")
>>> table = rules.view(rules.new_state(["Ann", "Bob", "Cid"]))
>>> 'class="bank"' in table_html(table)
True
>>> 'class="holdings"' in player_panel(table["players"][0])
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape


def _token(t: Mapping[str, Any]) -> str:
    changed = " changed" if t.get("changed") else ""
    return (
        f'<span class="token tok-{t["color"]}{changed}" title="{t["color"]}">'
        f"{t['letter']}<b>{t['count']}</b></span>"
    )


def _card(c: Mapping[str, Any] | None) -> str:
    if c is None:
        return '<span class="card empty">empty</span>'
    if c.get("id") is None:
        return f'<span class="card back level-{c["level"]}">level {c["level"]}</span>'
    cost = " ".join(f"{x['letter']}{x['count']}" for x in c["cost"])
    points = f'<b class="points">{c["points"]}</b>' if c["points"] else ""
    return (
        f'<span class="card card-{c["color"]}" data-card="{c["id"]}" title="{c["id"]}">'
        f'{points}<span class="bonus">{c["letter"]}</span> <small>{cost}</small></span>'
    )


def _noble(n: Mapping[str, Any]) -> str:
    need = " ".join(f"{x['letter']}{x['count']}" for x in n["requires"])
    return f'<span class="noble" data-noble="{n["id"]}">{n["points"]} <small>{need}</small></span>'


def table_html(view: Mapping[str, Any]) -> Markup:
    """The middle of the table: the bank, the nobles, the display by level."""
    t = view["table"]
    parts = ['<section class="board splendor-table" aria-label="Table">']
    parts.append('<div class="bank">' + "".join(_token(x) for x in t["bank"]) + "</div>")
    parts.append('<div class="nobles">' + "".join(_noble(n) for n in t["nobles"]) + "</div>")
    for row in t["display"]:
        parts.append(
            f'<div class="display level-{row["level"]}"><span class="deck">'
            f"L{row['level']} ({row['deck']})</span>"
            + "".join(_card(c) for c in row["cards"])
            + "</div>"
        )
    parts.append("</section>")
    return Markup("".join(parts))


#: The name the board template calls (``pieces.table(view)``).
table = table_html


def player_panel(p: Mapping[str, Any]) -> Markup:
    """A seat's holdings: points, tokens, bonuses, reserved cards and nobles."""
    parts = [
        '<div class="holdings">',
        f'<p class="points">{p["points"]} points, {p["cards"]} cards</p>',
        '<div class="tokens">' + "".join(_token(x) for x in p["tokens"]) + "</div>",
        '<div class="bonuses">' + "".join(_token(x) for x in p["bonuses"]) + "</div>",
    ]
    if p["reserved"]:
        parts.append('<div class="reserved">' + "".join(_card(c) for c in p["reserved"]) + "</div>")
    if p["nobles"]:
        parts.append('<div class="nobles">' + "".join(_noble(n) for n in p["nobles"]) + "</div>")
    parts.append("</div>")
    return Markup("".join(parts))


__all__ = ["escape", "player_panel", "table", "table_html"]
