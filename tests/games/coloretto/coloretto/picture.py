"""A picture of a Coloretto position, as SVG text: the rows with their cards and room,
the supply (and whether the last round is on), the card drawn, every seat (score, cards
by colour, jokers, "+2" cards, out of the round), what is due now and what the step
changed.  The picture grows with the seats (two players' panels a row) and the rows.

Built from the game's view (:func:`.view.view`) and its one wording of what is due and
of what a step changed (:mod:`.describe`), with the shared pieces of
:mod:`engine.picture`; pure.

>>> from coloretto.state import State
>>> svg = picture(State(["Ann", "Bob", "Cid"]))
>>> "Cid" in svg and f'height="{height(3)}"' in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.picture import (
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
)

from .colours import PALETTE
from .describe import changes, status
from .state import State
from .view import view

WIDTH = 1200
CARD_W, CARD_H = 74, 100
TOP = 134
ROW_H = CARD_H + 12
SIDE_X = 620
PANEL_W, PANEL_H = 572, 178

#: Each kind's fill and the ink of its letter, from the game's palette (the seven
#: chameleon colours, the joker's rainbow as violet, the "+2" and the last-round card).
FILLS: dict[str, tuple[str, str]] = {
    name: (fill, ink) for name, (fill, ink, _rim) in PALETTE.items() if name != "none"
}


def _rows(seats: int) -> int:
    return 3 if seats == 2 else seats


def players_y(seats: int) -> int:
    """Where the players' panels start: under the rows (three at least)."""
    return TOP + max(_rows(seats), 3) * ROW_H + 16


def height(seats: int) -> int:
    """The picture's height for ``seats`` players (two panels a row)."""
    return players_y(seats) + (seats + 1) // 2 * (PANEL_H + 14) + 6


def picture(state: State, before: State | None = None, heading_text: str = "") -> str:
    """The position ``state`` as an SVG document :data:`WIDTH` wide (:func:`height`
    high); ``before`` (the state before the step) marks what the step changed and lists
    it; ``heading_text`` is the line under the players' names (which step this is)."""
    v = view(state, before)
    seats = len(state.names)
    names = " vs ".join(state.names)
    c = Canvas(WIDTH, height(seats), f"Coloretto: {names}")
    heading(c, f"{names} · Coloretto", heading_text)
    st = status(state)
    due_band(c, 20, 80, WIDTH - 40, st.due, over=st.result is not None)
    _table_rows(c, v)
    _supply(c, v)
    lines = [] if before is None else changes(before, state)
    top = TOP + 150
    changes_box(c, SIDE_X, top, WIDTH - 20 - SIDE_X, players_y(seats) - 16 - top, lines)
    y0 = players_y(seats)
    for seat, p in enumerate(v["players"]):
        row, col = divmod(seat, 2)
        _player(c, 20 + col * (PANEL_W + 16), y0 + row * (PANEL_H + 14), p)
    return c.svg()


def card(c: Canvas, x: float, y: float, cv: Mapping[str, Any], scale: float = 1.0) -> None:
    """A card as printed: its colour (a chameleon's), a joker's rainbow, a "+2"."""
    c.begin("card", card=cv["id"])
    w, h = CARD_W * scale, CARD_H * scale
    fill, ink = FILLS.get(cv["color"], FILLS["grey"])
    c.rect(x, y, w, h, fill, stroke="#25211c", width=1.5, rx=7 * scale)
    mark = {"joker": "★", "plus": "+2", "last": "last"}.get(cv["color"], "")
    if mark:
        c.text(x + w / 2, y + h * 0.58, mark, size=26 * scale, fill=ink, anchor="middle", bold=True)
    c.text(x + w / 2, y + h - 8 * scale, cv["id"], size=12 * scale, fill=ink, anchor="middle")
    c.end()


def _table_rows(c: Canvas, v: Mapping[str, Any]) -> None:
    c.begin("rows")
    for i, row in enumerate(v["rows"]):
        y = TOP + i * ROW_H
        c.begin("row", target=row["target"])
        frame = LINE if row["open"] else "#e2dccf"
        c.rect(20, y, 74, CARD_H, "#2f7a3b" if len(v["players"]) == 2 else "#6b4a2b", rx=7)
        c.text(57, y + 44, f"row {row['row']}", size=15, fill="#ffffff", anchor="middle", bold=True)
        c.text(57, y + 68, f"holds {row['capacity']}", size=12, fill="#ffffff", anchor="middle")
        if not row["open"]:
            c.text(110, y + CARD_H / 2 + 6, "off the table this round", size=16, fill=MUTED)
        else:
            for j in range(max(row["capacity"], len(row["cards"]))):
                x = 110 + j * (CARD_W + 10)
                if j < len(row["cards"]):
                    cv = row["cards"][j]
                    card(c, x, y, cv)
                    if cv["new"]:
                        highlight(c, x, y, CARD_W, CARD_H)
                else:
                    empty_slot(c, x, y, CARD_W, CARD_H, row["emptied"] and j == 0)
        c.rect(16, y - 4, 110 + 3 * (CARD_W + 10) - 6, CARD_H + 8, "none", stroke=frame, rx=9)
        c.end()
    c.end()


def _supply(c: Canvas, v: Mapping[str, Any]) -> None:
    c.begin("supply")
    c.text(SIDE_X, TOP + 14, "Supply", size=15, fill=MUTED, bold=True)
    card_back(c, SIDE_X, TOP + 24, CARD_W, CARD_H, 1, f"{v['supply']} left")
    note = "last round!" if v["last_round"] else "last-round card inside"
    c.text(SIDE_X + CARD_W + 14, TOP + 60, note, size=16, bold=v["last_round"])
    if v["removed"]:
        c.text(
            SIDE_X + CARD_W + 14,
            TOP + 86,
            "removed: " + ", ".join(v["removed"]),
            size=14,
            fill=MUTED,
        )
    c.end()
    if v["drawn"] is not None:
        c.begin("drawn")
        x = WIDTH - 20 - CARD_W
        c.text(x - 10, TOP + 60, "drawn", size=15, fill=MUTED, anchor="end", bold=True)
        card(c, x, TOP + 24, v["drawn"])
        highlight(c, x, TOP + 24, CARD_W, CARD_H)
        c.end()


def _player(c: Canvas, x: float, y: float, p: Mapping[str, Any]) -> None:
    c.begin("player", seat=p["seat"])
    frame = "#ff9f1a" if p["to_move"] else WIN if p["winner"] else LINE
    c.rect(x, y, PANEL_W, PANEL_H, PANEL, stroke=frame, width=4 if frame != LINE else 1.5, rx=10)
    c.text(x + 16, y + 32, p["name"], size=23, bold=True, chars=chars_for(PANEL_W - 200, 23))
    tag = "▶ to move" if p["to_move"] else "♛ winner" if p["winner"] else ""
    tag = tag or ("out of the round" if p["out"] else "")
    if tag:
        ink = "#b35f00" if p["to_move"] else "#b8860b" if p["winner"] else MUTED
        c.text(x + PANEL_W - 16, y + 32, tag, size=18, bold=True, anchor="end", fill=ink)
    c.begin("score")
    c.text(x + 16, y + 62, f"{p['score']:+d} points", size=20, bold=True)
    c.text(x + 170, y + 62, f"{p['count']} cards", size=16, fill=MUTED)
    c.end()
    cells = [
        *[(cell["color"], cell["n"], cell["delta"], cell["plus"]) for cell in p["cards"]],
        ("joker", p["jokers"]["n"], p["jokers"]["delta"], False),
        ("plus", p["plus_cards"]["n"], p["plus_cards"]["delta"], False),
    ]
    c.begin("cards")
    step = (PANEL_W - 32) / len(cells)
    for i, (color, n, delta, scores_plus) in enumerate(cells):
        cx = x + 16 + i * step
        fill, ink = FILLS[color]
        c.rect(
            cx,
            y + 80,
            step - 8,
            70,
            fill,
            stroke="#25211c",
            width=1,
            rx=6,
            opacity=1.0 if n else 0.3,
        )
        c.text(cx + (step - 8) / 2, y + 124, n, size=24, fill=ink, anchor="middle", bold=True)
        if scores_plus:
            c.text(cx + 6, y + 96, "+", size=14, fill=ink, bold=True)
        if color in ("joker", "plus"):
            word = "joker" if color == "joker" else "+2"
            c.text(cx + step - 14, y + 96, word, size=11, fill=ink, anchor="end")
        if delta:
            highlight(c, cx, y + 80, step - 8, 70)
    c.end()
    c.end()


__all__ = ["WIDTH", "card", "height", "picture"]
