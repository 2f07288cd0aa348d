"""A picture of a Splendor Duel position, as SVG text: the board's 25 spaces with their
tokens, the pyramid with its decks, the Royal cards, the bag and the Privileges on the
table, both players (points, crowns, Privileges, tokens, bonuses, points by colour,
reserved cards, Royal cards), what is due now and what the step changed.

Built from the game's view (:func:`.view.view`) and its one wording of what is due
(:func:`.describe.due`) and of what a step changed (:func:`.describe.changes`); pure.

>>> from engine.splendor_duel.state import State
>>> svg = picture(State(("Ann", "Bob")))
>>> svg.startswith("<?xml") and "Ann" in svg and 'width="1200"' in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..picture import (
    FELT,
    FELT_CELL,
    HIGHLIGHT,
    INK,
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
from .colours import PALETTE
from .describe import changes, status
from .state import State
from .view import view

WIDTH, HEIGHT = 1200, 1050
CARD_W, CARD_H = 90, 124
TOP = 134
CELL = 72
BOARD_X, BOARD_Y = 44, TOP + 22
PYRAMID_X = 430
ROYALS_X = 1030
CHANGES_Y = 556
PLAYERS_Y = 686
PANEL_W, PANEL_H = 572, 350
CROWN = "#b8860b"


def picture(state: State, before: State | None = None, heading_text: str = "") -> str:
    """The position ``state`` as an SVG document of :data:`WIDTH` × :data:`HEIGHT`;
    ``before`` (the state before the step) marks what the step changed and lists it;
    ``heading_text`` is the line under the players' names (which step this is)."""
    v = view(state, before)
    names = " vs ".join(state.names)
    c = Canvas(WIDTH, HEIGHT, f"Splendor Duel: {names}")
    heading(c, f"{names} · Splendor Duel", heading_text)
    st = status(state)
    due_band(c, 20, 80, WIDTH - 40, st.due, over=st.result is not None)
    _board(c, v)
    _pyramid(c, v)
    _royals(c, v)
    # what is due now has its band: the step's last line saying it again is left out
    lines = [] if before is None else changes(before, state)
    lines = [line for line in lines if line != f"next: {st.due}"]
    changes_box(c, 20, CHANGES_Y, WIDTH - 40, PLAYERS_Y - CHANGES_Y - 12, lines)
    for seat, p in enumerate(v["players"]):
        _player(c, 20 + seat * (PANEL_W + 16), PLAYERS_Y, p)
    return c.svg()


# --- the board -------------------------------------------------------------------------


def _board(c: Canvas, v: Mapping[str, Any]) -> None:
    size = 5 * CELL
    for col in range(5):
        c.text(
            BOARD_X + col * CELL + CELL / 2,
            BOARD_Y - 8,
            "abcde"[col],
            size=16,
            fill=MUTED,
            anchor="middle",
            bold=True,
        )
    for row in range(5):
        c.text(
            BOARD_X - 12,
            BOARD_Y + row * CELL + CELL / 2 + 6,
            row + 1,
            size=16,
            fill=MUTED,
            anchor="middle",
            bold=True,
        )
    c.rect(BOARD_X - 4, BOARD_Y - 4, size + 8, size + 8, FELT, rx=10)
    c.begin("board")
    for index, sp in enumerate(v["board"]):
        row, col = divmod(index, 5)
        x, y = BOARD_X + col * CELL, BOARD_Y + row * CELL
        c.begin("space", space=sp["name"])
        c.rect(x + 2, y + 2, CELL - 4, CELL - 4, FELT_CELL, rx=6)
        c.text(x + 7, y + 15, sp["spiral"], size=10, fill="#9aa0d0")
        cx, cy = x + CELL / 2, y + CELL / 2 + 2
        if sp["token"]:
            token(c, cx, cy, 26, sp["color"], sp["token"], palette=PALETTE)
            if sp["placed"]:
                c.circle(cx, cy, 30, "none", stroke=HIGHLIGHT, width=3)
        elif sp["taken"]:
            token(c, cx, cy, 26, sp["taken_color"], sp["taken_letter"], ghost=True, palette=PALETTE)
        c.end()
    c.end()
    y = BOARD_Y + size + 30
    c.begin("bag")
    c.text(20, y, "Bag", size=15, fill=MUTED, bold=True)
    c.text(58, y, v["bag_total"], size=18, bold=True)
    x = 92
    for t in v["bag"]:
        token(c, x, y - 6, 10, t["color"], t["letter"], palette=PALETTE)
        c.text(x + 14, y, t["n"], size=14)
        x += 38
    c.end()


def _scrolls(c: Canvas, x: float, y: float, n: int, *, changed: bool = False) -> None:
    """``n`` Privilege scrolls in a row (``none`` when there are none)."""
    if changed:
        c.rect(x - 4, y - 3, max(3, n) * 22 + 4, 26, "none", stroke=HIGHLIGHT, width=2.5, rx=5)
    if not n:
        c.text(x, y + 16, "none", size=14, fill=MUTED)
    for i in range(n):
        c.rect(x + i * 22, y, 16, 20, "#f1e3bd", stroke="#9c7410", width=1.5, rx=3)
        c.line(x + i * 22 + 4, y + 7, x + i * 22 + 12, y + 7, "#9c7410", 1.2)
        c.line(x + i * 22 + 4, y + 12, x + i * 22 + 12, y + 12, "#9c7410", 1.2)


# --- cards -----------------------------------------------------------------------------


def card(c: Canvas, x: float, y: float, cv: Mapping[str, Any], scale: float = 1.0) -> None:
    """A Jewel card as printed (``cv`` a card of the view) with its top-left at x, y."""
    c.begin("card", card=cv["id"])
    s = scale
    w, h = CARD_W * s, CARD_H * s
    fill, ink, rim = PALETTE.get(cv["color"], PALETTE["none"])
    c.rect(x, y, w, h, PANEL, stroke=rim, width=2, rx=7 * s)
    c.rect(x, y, w, 32 * s, fill, stroke=rim, width=2, rx=7 * s)
    c.rect(x + 1, y + 20 * s, w - 2, 12 * s, fill)
    if cv["points"]:
        c.text(x + 8 * s, y + 25 * s, cv["points"], size=23 * s, fill=ink, bold=True)
    for i in range(cv["bonus"]):
        gx, gy, r = x + w - (13 + i * 17) * s, y + 16 * s, 7.5 * s
        c.polygon([(gx, gy - r), (gx + r, gy), (gx, gy + r), (gx - r, gy)], "#ffffff", stroke=ink)
    if cv["crowns"]:
        c.text(x + 6 * s, y + 53 * s, "♛" * cv["crowns"], size=18 * s, fill=CROWN)
    marks = " ".join(a["symbol"] for a in cv["abilities"])
    if marks:
        c.text(x + w - 6 * s, y + 53 * s, marks, size=17 * s, fill=INK, anchor="end", bold=True)
    for i, p in enumerate(cv["cost"]):
        col, row = divmod(i, 2)
        pip(
            c,
            x + (16 + col * 25) * s,
            y + (74 + row * 25) * s,
            11 * s,
            p["color"],
            p["n"],
            palette=PALETTE,
        )
    c.text(x + w - 5 * s, y + h - 6 * s, cv["id"], size=14 * s, fill=MUTED, anchor="end", bold=True)
    c.end()


def royal(c: Canvas, x: float, y: float, r: Mapping[str, Any], scale: float = 1.0) -> None:
    """A Royal card: its points and its ability."""
    c.begin("royal", royal=r["id"])
    s = scale
    w, h = 68 * s, 84 * s
    c.rect(x, y, w, h, "#fbf3dc", stroke=WIN, width=2, rx=7 * s)
    c.text(x + w / 2, y + 24 * s, "♛", size=20 * s, fill=CROWN, anchor="middle")
    c.text(x + w / 2, y + 52 * s, r["points"], size=24 * s, bold=True, anchor="middle")
    if r["ability"]:
        c.text(
            x + w / 2, y + 75 * s, r["ability"]["symbol"], size=16 * s, anchor="middle", bold=True
        )
    c.text(x + w - 4 * s, y + 14 * s, r["id"], size=10 * s, fill=MUTED, anchor="end")
    c.end()


def _pyramid(c: Canvas, v: Mapping[str, Any]) -> None:
    c.begin("pyramid")
    for i, row in enumerate(v["pyramid"]):
        y = TOP + i * (CARD_H + 8)
        deck = row["deck"]
        card_back(c, PYRAMID_X, y, CARD_W, CARD_H, row["level"], f"{deck} left")
        for j, slot in enumerate(row["slots"]):
            x = PYRAMID_X + (j + 1) * (CARD_W + 8)
            if slot["card"]:
                card(c, x, y, slot["card"])
                if slot["revealed"]:
                    highlight(c, x, y, CARD_W, CARD_H)
            else:
                empty_slot(c, x, y, CARD_W, CARD_H, slot["emptied"])
    c.end()


def _royals(c: Canvas, v: Mapping[str, Any]) -> None:
    c.begin("table-royals")
    c.text(ROYALS_X, TOP + 14, "Royal cards", size=15, fill=MUTED, bold=True)
    if not v["royals"]:
        c.text(ROYALS_X, TOP + 44, "none left", size=14, fill=MUTED)
    for i, r in enumerate(v["royals"]):
        col, row = i % 2, i // 2
        royal(c, ROYALS_X + col * 76, TOP + 26 + row * 92, r)
    c.end()
    c.begin("table-privileges", n=v["table_privileges"])
    y = TOP + 230
    c.text(ROYALS_X, y, "Privileges", size=15, fill=MUTED, bold=True)
    c.text(ROYALS_X, y + 19, "on the table", size=15, fill=MUTED, bold=True)
    _scrolls(c, ROYALS_X + 2, y + 30, v["table_privileges"], changed=v["privileges_changed"])
    c.end()


# --- a player --------------------------------------------------------------------------


def _player(c: Canvas, x: float, y: float, p: Mapping[str, Any]) -> None:
    c.begin("player", seat=p["seat"])
    _panel(c, x, y, p)
    c.end()


def _panel(c: Canvas, x: float, y: float, p: Mapping[str, Any]) -> None:
    t = p["targets"]
    frame = HIGHLIGHT if p["to_move"] else WIN if p["winner"] else LINE
    c.rect(x, y, PANEL_W, PANEL_H, PANEL, stroke=frame, width=4 if frame != LINE else 1.5, rx=10)
    tag = "▶ to move" if p["to_move"] else "♛ winner" if p["winner"] else ""
    c.text(x + 16, y + 32, p["name"], size=23, bold=True, chars=chars_for(PANEL_W - 170, 23))
    if tag:
        c.text(
            x + PANEL_W - 16,
            y + 32,
            tag,
            size=18,
            bold=True,
            anchor="end",
            fill="#b35f00" if p["to_move"] else CROWN,
        )
    stats = [
        ("Points", f"{p['points']} / {t['points']}"),
        ("Crowns", f"{p['crowns']} / {t['crowns']}"),
        ("Cards", str(p["card_count"])),
    ]
    for i, (label, value) in enumerate(stats):
        sx = x + 16 + i * 130
        c.begin(label.lower())
        c.text(sx, y + 58, label, size=13, fill=MUTED, bold=True)
        c.text(sx, y + 84, value, size=22, bold=True)
        c.end()
    px = x + 16 + 3 * 130
    c.begin("privileges", n=p["privileges"])
    c.text(px, y + 58, "Privileges", size=13, fill=MUTED, bold=True)
    _scrolls(c, px, y + 65, p["privileges"], changed=p["privileges_changed"])
    c.end()
    _holdings(c, x, y + 98, p)
    c.begin("reserved")
    c.text(x + 16, y + 234, "Reserved", size=13, fill=MUTED, bold=True)
    if not p["reserved"]:
        c.text(x + 16, y + 258, "none", size=14, fill=MUTED)
    for i, r in enumerate(p["reserved"]):
        rx, ry, s = x + 16 + i * 86, y + 242, 0.8
        if r["card"]:
            card(c, rx, ry, r["card"], s)
        else:
            card_back(c, rx, ry, CARD_W * s, CARD_H * s, r["level"], "hidden")
        if r["new"]:
            highlight(c, rx, ry, CARD_W * s, CARD_H * s)
    c.end()
    c.begin("royals")
    c.text(x + 290, y + 234, "Royal cards", size=13, fill=MUTED, bold=True)
    if not p["royals"]:
        c.text(x + 290, y + 258, "none", size=14, fill=MUTED)
    for i, r in enumerate(p["royals"]):
        rx, ry = x + 290 + i * 76, y + 242
        royal(c, rx, ry, r)
        if r["new"]:
            highlight(c, rx, ry, 68, 84)
    c.end()


def _holdings(c: Canvas, x: float, y: float, p: Mapping[str, Any]) -> None:
    """The table of tokens, bonuses and points by colour."""
    rows = [
        ("tokens", f"Tokens {p['token_count']}/10", p["tokens"]),
        ("bonuses", "Bonuses", p["bonuses"]),
        ("color-points", f"Points (of {p['targets']['color']})", p["color_points"]),
    ]
    holdings(c, x, y, PANEL_W, p["tokens"], rows, palette=PALETTE)
