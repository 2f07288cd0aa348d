"""Markup for the pieces of a classic Splendor table: tokens, development cards, nobles,
the bank, the display and a player's panel, in the classes the site's stylesheet already
draws for Splendor Duel (tokens, cards, the pyramid's rows, the holdings table).  The
templates of this folder (``table.html``, ``player.html``) call them on the game's view.

Escaped f-strings, as in ``templates/splendor_duel/pieces.py``: every value that is not a
fixed literal or a number goes through :func:`markupsafe.escape`.

>>> from engine.games import get_game
>>> rules = get_game("splendor")
>>> view = rules.view(rules.new_state(["Ann", "Bob", "Cid"]))
>>> 'aria-label="Bank and nobles"' in table(view)
True
>>> 'class="holdings"' in player_panel(view["players"][0])
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from .. import card_row


def _cls(extra: str) -> str:
    return f" {escape(extra)}" if extra else ""


def token(letter: str, color: str, extra: str = "") -> Markup:
    """A token: a coloured disc with its letter."""
    c = escape(color)
    return Markup(f'<span class="token t-{c}{_cls(extra)}" title="{c}">{escape(letter)}</span>')


def _pips(items: Sequence[Mapping[str, Any]]) -> str:
    return "".join(
        f'<li class="pip t-{escape(p["color"])}" title="{p["n"]} {escape(p["color"])}">'
        f"{p['n']}</li>"
        for p in items
    )


def card(c: Mapping[str, Any], extra: str = "") -> Markup:
    """A development card as printed: bonus colour, points, cost."""
    color = escape(c["color"])
    cid = escape(c["id"])
    return Markup(
        f'<div class="card c-{color}{_cls(extra)}" title="{escape(c["title"])}"'
        f' data-card="{cid}"><div class="card-band">'
        f'<span class="card-points">{c["points"] or ""}</span>'
        f'<span class="card-bonus"><i class="gem g-{color}"></i></span></div>'
        f'<div class="card-body"><div class="card-marks"></div>'
        f'<ul class="cost" aria-label="cost">{_pips(c["cost"])}</ul></div>'
        f'<span class="card-id">{cid}</span></div>'
    )


def card_back(level: int, extra: str = "") -> Markup:
    """A face-down card of ``level`` (a blind reserve not shown yet)."""
    return Markup(
        f'<div class="card back lv-{int(level)}{_cls(extra)}" title="a face-down '
        f'level-{int(level)} card"><span>{"I" * int(level)}</span></div>'
    )


def noble(n: Mapping[str, Any], extra: str = "") -> Markup:
    """A noble tile: its points and the bonuses it requires."""
    return Markup(
        f'<div class="royal noble{_cls(extra)}" data-noble="{escape(n["id"])}" '
        f'title="{escape(n["title"])}"><span class="royal-points">{n["points"]}</span>'
        f'<ul class="cost" aria-label="requires">{_pips(n["requires"])}</ul></div>'
    )


def table(view: Mapping[str, Any]) -> Markup:
    """The middle of the table: the bank and the nobles, then the display with its decks."""
    bank = "".join(
        f"{token(t['letter'], t['color'], 'changed' if t['delta'] else '')}"
        f'<span class="x">{t["n"]}</span>'
        for t in view["bank"]
    )
    nobles = "".join(noble(n) for n in view["nobles"]) or '<span class="none">none left</span>'
    out = [
        '<section class="board-area" aria-label="Bank and nobles"><h2>Bank</h2>',
        f'<div class="board-side"><span class="bank bag-tokens">{bank}</span></div>',
        '<div class="royals-area"><span class="k">Nobles</span>',
        f'<div class="royals nobles">{nobles}</div></div></section>',
        '<section class="pyramid-area" aria-label="Display"><h2>Display</h2><div class="pyramid">',
    ]
    for row in view["display"]:
        level = row["level"]
        out.append(f'<div class="prow lv-{level}" data-level="{level}">')
        out.append(card_row(row, card))
        out.append("</div>")
    out.append("</div></section>")
    return Markup("".join(out))


def _meter(value: int, top: int) -> str:
    return f'<meter min="0" max="{top}" value="{min(value, top)}"></meter>'


def _token_cell(x: Mapping[str, Any]) -> str:
    n, delta = x["n"], x["delta"]
    cls = ("" if n else "zero") + (" up" if delta > 0 else "") + (" down" if delta < 0 else "")
    small = f'<small class="delta">{delta:+d}</small>' if delta else ""
    return f'<td class="{cls.strip()}" data-color="{x["letter"]}">{n}{small}</td>'


def player_panel(p: Mapping[str, Any]) -> Markup:
    """A seat's panel: points against 15, tokens and bonuses by colour, the cards bought
    by colour, reserved cards (face down while not shown) and nobles."""
    stacks = []
    for g in p["card_groups"]:
        cards = "".join(card(c, "mini new" if c["new"] else "mini") for c in g["cards"])
        stacks.append(
            f'<div class="stack s-{escape(g["color"])}" title="{escape(g["color"])}: '
            f'{len(g["cards"])} cards, {g["points"]} points">{cards}</div>'
        )
    reserved = "".join(
        card(r["card"], "small new" if r["new"] else "small")
        if r["card"]
        else card_back(r["level"], "small new" if r["new"] else "small")
        for r in p["reserved"]
    )
    nobles = "".join(noble(n, "new" if n["new"] else "") for n in p["nobles"])
    out = [
        '<div class="scores"><div class="score"><span class="k">Points</span> ',
        _meter(p["points"], p["target"]),
        f' <b class="v points">{p["points"]}</b><span class="of">/{p["target"]}</span></div>',
        f'<div class="score"><span class="k">Cards</span> <b class="v">{p["cards"]}</b></div>',
        "</div>",
        '<table class="holdings"><thead><tr><th></th>',
        "".join(f"<th>{token(x['letter'], x['color'], 'small')}</th>" for x in p["tokens"]),
        "</tr></thead><tbody>",
        f'<tr class="tokens"><th scope="row">Tokens <span class="total">{p["token_count"]}'
        "</span></th>",
        "".join(_token_cell(x) for x in p["tokens"]),
        '</tr><tr class="bonuses"><th scope="row">Bonuses</th>',
        "".join(_token_cell(x) for x in p["bonuses"]),
        "<td></td></tr></tbody></table>",
        '<div class="tableau" aria-label="cards bought">',
        "".join(stacks) or '<span class="none">no cards yet</span>',
        "</div>",
        '<div class="extras"><div class="reserved"><span class="k">Reserved</span>',
        reserved or ' <span class="none">none</span>',
        '</div><div class="player-royals"><span class="k">Nobles</span>',
        nobles or ' <span class="none">none</span>',
        "</div></div>",
    ]
    return Markup("".join(out))


__all__ = ["card", "card_back", "noble", "player_panel", "table", "token"]
