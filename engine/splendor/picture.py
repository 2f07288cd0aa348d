"""A picture of a classic Splendor position, as SVG text: the display with its decks,
the bank, the nobles, every seat (points, cards, tokens, bonuses, reserved cards, nobles),
what is due now and what the step changed.  The picture grows with the seats: two
players' panels side by side per row.

Built from the game's view (:func:`.view.view`) and its one wording of what is due and
of what a step changed (:mod:`.describe`); pure.

>>> from engine.splendor.state import State
>>> svg = picture(State(["Ann", "Bob", "Cid"]))
>>> "Cid" in svg and f'height="{height(3)}"' in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..picture import (
    LINE,
    MUTED,
    PANEL,
    WIN,
    Canvas,
    card_back,
    changes_box,
    chars_for,
    due_band,
    empty_slot,
    heading,
    highlight,
    holdings,
    pip,
    token,
)
from .catalogue import MAX_TOKENS
from .colours import PALETTE
from .describe import changes, status
from .state import State
from .view import view

WIDTH = 1200
CARD_W, CARD_H = 100, 136
TOP = 134
SIDE_X = 590
PLAYERS_Y = 578
PANEL_W, PANEL_H = 572, 330


def height(seats: int) -> int:
    """The picture's height for ``seats`` players (two panels a row)."""
    rows = (seats + 1) // 2
    return PLAYERS_Y + rows * (PANEL_H + 14) + 6


def picture(state: State, before: State | None = None, heading_text: str = "") -> str:
    """The position ``state`` as an SVG document :data:`WIDTH` wide (:func:`height`
    high); ``before`` (the state before the step) marks what the step changed and lists
    it; ``heading_text`` is the line under the players' names (which step this is)."""
    v = view(state, before)
    names = " vs ".join(state.names)
    c = Canvas(WIDTH, height(len(state.names)), f"Splendor: {names}")
    heading(c, f"{names} · Splendor", heading_text)
    st = status(state)
    due_band(c, 20, 80, WIDTH - 40, st.due, over=st.result is not None)
    _display(c, v)
    _bank(c, v)
    _nobles(c, v)
    lines = [] if before is None else changes(before, state)
    changes_box(c, SIDE_X, TOP + 238, WIDTH - 20 - SIDE_X, PLAYERS_Y - 14 - TOP - 238, lines)
    for seat, p in enumerate(v["players"]):
        row, col = divmod(seat, 2)
        _player(c, 20 + col * (PANEL_W + 16), PLAYERS_Y + row * (PANEL_H + 14), p)
    return c.svg()


def card(c: Canvas, x: float, y: float, cv: Mapping[str, Any], scale: float = 1.0) -> None:
    """A development card as printed (``cv`` a card of the view): points, bonus, cost."""
    c.begin("card", card=cv["id"])
    s = scale
    w, h = CARD_W * s, CARD_H * s
    fill, ink, rim = PALETTE.get(cv["color"], PALETTE["none"])
    c.rect(x, y, w, h, PANEL, stroke=rim, width=2, rx=7 * s)
    c.rect(x, y, w, 36 * s, fill, stroke=rim, width=2, rx=7 * s)
    c.rect(x + 1, y + 24 * s, w - 2, 12 * s, fill)
    if cv["points"]:
        c.text(x + 9 * s, y + 28 * s, cv["points"], size=26 * s, fill=ink, bold=True)
    gx, gy, r = x + w - 16 * s, y + 18 * s, 9 * s
    c.polygon([(gx, gy - r), (gx + r, gy), (gx, gy + r), (gx - r, gy)], "#ffffff", stroke=ink)
    for i, p in enumerate(cv["cost"]):
        col, row = divmod(i, 2)
        pip(
            c,
            x + (19 + col * 29) * s,
            y + (62 + row * 29) * s,
            12.5 * s,
            p["color"],
            p["n"],
            palette=PALETTE,
        )
    c.text(x + w - 6 * s, y + h - 7 * s, cv["id"], size=15 * s, fill=MUTED, anchor="end", bold=True)
    c.end()


def noble(c: Canvas, x: float, y: float, n: Mapping[str, Any], scale: float = 1.0) -> None:
    """A noble tile: its points and the bonuses it requires."""
    c.begin("noble", noble=n["id"])
    s = scale
    w = h = 96 * s
    c.rect(x, y, w, h, "#fbf3dc", stroke=WIN, width=2, rx=7 * s)
    c.text(x + 9 * s, y + 30 * s, n["points"], size=26 * s, bold=True)
    c.text(x + w - 6 * s, y + 18 * s, n["id"], size=12 * s, fill=MUTED, anchor="end")
    for i, p in enumerate(n["requires"]):
        pip(c, x + (18 + i * 30) * s, y + 72 * s, 12.5 * s, p["color"], p["n"], palette=PALETTE)
    c.end()


def _display(c: Canvas, v: Mapping[str, Any]) -> None:
    c.begin("display")
    for i, row in enumerate(v["display"]):
        y = TOP + i * (CARD_H + 10)
        card_back(c, 20, y, CARD_W, CARD_H, row["level"], f"{row['deck']} left")
        for j, slot in enumerate(row["slots"]):
            x = 20 + (j + 1) * (CARD_W + 10)
            if slot["card"]:
                card(c, x, y, slot["card"])
                if slot["revealed"]:
                    highlight(c, x, y, CARD_W, CARD_H)
            else:
                empty_slot(c, x, y, CARD_W, CARD_H, slot["emptied"])
    c.end()


def _bank(c: Canvas, v: Mapping[str, Any]) -> None:
    c.text(SIDE_X, TOP + 14, "Bank", size=15, fill=MUTED, bold=True)
    c.begin("bank")
    for i, t in enumerate(v["bank"]):
        cx, cy = SIDE_X + 28 + i * 86, TOP + 50
        if t["delta"]:
            highlight(c, cx - 28, cy - 28, 56, 86)
        token(c, cx, cy, 24, t["color"], t["letter"], palette=PALETTE)
        c.text(cx, cy + 52, t["n"], size=22, bold=True, anchor="middle")
    c.end()


def _nobles(c: Canvas, v: Mapping[str, Any]) -> None:
    y = TOP + 132
    c.begin("table-nobles")
    c.text(SIDE_X, y - 8, "Nobles", size=15, fill=MUTED, bold=True)
    if not v["nobles"]:
        c.text(SIDE_X, y + 20, "none left", size=14, fill=MUTED)
    for i, n in enumerate(v["nobles"]):
        noble(c, SIDE_X + i * 106, y, n)
    c.end()


def _player(c: Canvas, x: float, y: float, p: Mapping[str, Any]) -> None:
    c.begin("player", seat=p["seat"])
    _panel(c, x, y, p)
    c.end()


def _panel(c: Canvas, x: float, y: float, p: Mapping[str, Any]) -> None:
    frame = "#ff9f1a" if p["to_move"] else WIN if p["winner"] else LINE
    c.rect(x, y, PANEL_W, PANEL_H, PANEL, stroke=frame, width=4 if frame != LINE else 1.5, rx=10)
    c.text(x + 16, y + 32, p["name"], size=23, bold=True, chars=chars_for(PANEL_W - 170, 23))
    tag = "▶ to move" if p["to_move"] else "♛ winner" if p["winner"] else ""
    if tag:
        ink = "#b35f00" if p["to_move"] else "#b8860b"
        c.text(x + PANEL_W - 16, y + 32, tag, size=18, bold=True, anchor="end", fill=ink)
    stats = [
        ("Points", f"{p['points']} / {p['target']}"),
        ("Cards", str(p["cards"])),
        ("Reserved", str(len(p["reserved"]))),
    ]
    for i, (label, value) in enumerate(stats):
        sx = x + 16 + i * 130
        c.begin(label.lower() if label != "Reserved" else "reserved-count")
        c.text(sx, y + 58, label, size=13, fill=MUTED, bold=True)
        c.text(sx, y + 84, value, size=22, bold=True)
        c.end()
    rows = [
        ("tokens", f"Tokens {p['token_count']}/{MAX_TOKENS}", p["tokens"]),
        ("bonuses", "Bonuses", p["bonuses"]),
    ]
    holdings(c, x, y + 98, PANEL_W, p["tokens"], rows, first=160, step=66, palette=PALETTE)
    c.begin("reserved")
    c.text(x + 16, y + 206, "Reserved", size=13, fill=MUTED, bold=True)
    if not p["reserved"]:
        c.text(x + 16, y + 230, "none", size=14, fill=MUTED)
    s = 0.8
    for i, r in enumerate(p["reserved"]):
        rx, ry = x + 16 + i * (CARD_W * s + 8), y + 214
        if r["card"]:
            card(c, rx, ry, r["card"], s)
        else:
            card_back(c, rx, ry, CARD_W * s, CARD_H * s, r["level"], "hidden")
        if r["new"]:
            highlight(c, rx, ry, CARD_W * s, CARD_H * s)
    c.end()
    nx = x + 16 + 3 * (CARD_W * s + 8) + 16
    c.begin("nobles")
    c.text(nx, y + 206, "Nobles", size=13, fill=MUTED, bold=True)
    if not p["nobles"]:
        c.text(nx, y + 230, "none", size=14, fill=MUTED)
    for i, n in enumerate(p["nobles"]):
        noble(c, nx + i * 86, y + 214, n, 0.8)
        if n["new"]:
            highlight(c, nx + i * 86, y + 214, 96 * 0.8, 96 * 0.8)
    c.end()


__all__ = ["WIDTH", "card", "height", "noble", "picture"]
