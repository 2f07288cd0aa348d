"""The statistics' plots as SVG, drawn on the server (no JavaScript): the statistics page
shows them, and ``tablelog stats --plot FILE.svg`` writes them as one picture.  Both draw
with the same template (``templates/stats/plots.html``); this module only measures: where
each bar, whisker and label goes, from :func:`recorder.stats.club_stats`'s figures.

>>> charts = stats_charts({"games": 0})
>>> [c.title for c in charts]
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import jinja2

#: One chart's drawing size, in the SVG's units (the page scales it to its column).
WIDTH = 420
BAR_AREA = 150  # the height of a vertical chart's bars at 100%
ROW = 22  # a horizontal chart's row
LEFT = 104  # a horizontal chart's label column
TOP = 30  # the title's band


@dataclass(frozen=True)
class Bar:
    """A bar at (x, y) of w × h; ``part``: the height or width of its darker share (the
    winners'), ``whisker``: (x, y1, y2) or (y, x1, x2) of its interval."""

    x: float
    y: float
    w: float
    h: float
    label: str
    value: str
    label_at: tuple[float, float]
    value_at: tuple[float, float]
    part: tuple[float, float, float, float] | None = None
    whisker: tuple[float, float, float, float] | None = None
    #: What a pointer resting on the bar is told (a card's printed words).
    tip: str = ""


@dataclass(frozen=True)
class Chart:
    title: str
    height: float
    bars: list[Bar]
    #: Reference lines (x1, y1, x2, y2), dashed; the chart's note says what they mark.
    lines: list[tuple[float, float, float, float]] = field(default_factory=list)
    note: str = ""


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f}%"


def seat_chart(stats: dict[str, Any]) -> Chart | None:
    """Win rate by place in the turn order, each with its 95% interval, and the rate
    every place would have if the seat did not matter."""
    seats = stats.get("by_seat") or []
    if not seats:
        return None
    base = TOP + BAR_AREA
    slot = (WIDTH - 40) / len(seats)
    bars = []
    for s in seats:
        x = 30 + slot * s["place"] + slot * 0.2
        w = slot * 0.6
        h = BAR_AREA * (s["rate"] or 0)
        low, high = s["interval"]
        name = "first" if s["place"] == 0 else f"{_ordinal(s['place'] + 1)}"
        bars.append(
            Bar(
                x,
                base - h,
                w,
                h,
                f"{name} ({s['games']})",
                _pct(s["rate"]),
                (x + w / 2, base + 16),
                (x + w / 2, base - h - 6 if h < BAR_AREA - 14 else base - h + 14),
                whisker=(x + w / 2, base - BAR_AREA * high, base - BAR_AREA * low, 0),
            )
        )
    lines = []
    note = ""
    expected = stats.get("first_player", {}).get("expected")
    if expected is not None:
        y = base - BAR_AREA * expected
        lines.append((24.0, y, WIDTH - 8.0, y))
        note = f"dashed: {_pct(expected)}, the rate if the seat did not matter"
    return Chart(
        "Wins by place in the turn order (95% interval)", base + 44, bars, lines, note=note
    )


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _rows(
    title: str, items: Sequence[tuple[str, float, str, float | None, str]], note: str = ""
) -> Chart:
    """A horizontal bar per item (label, value, the value in words, the winners' share,
    the bar's tip)."""
    top = max((item[1] for item in items), default=0) or 1
    span = WIDTH - LEFT - 64  # (room for the value after the longest bar)
    bars = []
    for i, (label, value, words, share, tip) in enumerate(items):
        y = TOP + i * ROW
        w = span * value / top
        part = None if share is None else (LEFT, y + 3, w * share, ROW - 6)
        bars.append(
            Bar(
                LEFT,
                y + 3,
                w,
                ROW - 6,
                label,
                words,
                (LEFT - 6, y + ROW / 2 + 4),
                (LEFT + w + 4, y + ROW / 2 + 4),
                part=part,
                tip=tip,
            )
        )
    return Chart(title, TOP + len(items) * ROW + (22 if note else 8), bars, note=note)


def victory_chart(stats: dict[str, Any], words: dict[str, str]) -> Chart | None:
    victory = stats.get("victory") or {}
    if not victory:
        return None
    items = [(words.get(c, c or "other"), n, str(n), None, "") for c, n in victory.items()]
    return _rows("Games by victory", items)


def length_chart(stats: dict[str, Any]) -> Chart | None:
    """Games by length in turns, five turns a bar."""
    turns = stats.get("turns")
    if not turns:
        return None
    buckets: dict[int, int] = {}
    for value, n in turns["counts"]:
        buckets[int(value) // 5 * 5] = buckets.get(int(value) // 5 * 5, 0) + n
    items = [(f"{b}–{b + 4}", n, str(n), None, "") for b, n in sorted(buckets.items())]
    return _rows(f"Games by length in turns (median {turns['median']})", items)


def cards_chart(stats: dict[str, Any], key: str, title: str) -> Chart | None:
    cards = stats.get(key) or []
    if not cards:
        return None
    items = [
        (
            c["card"],
            c["times"],
            f"{c['times']} · {_pct(c['winners_share'])}",
            c["winners_share"],
            c["words"],
        )
        for c in cards
    ]
    return _rows(title, items, note="dark: by the game's winner")


def stats_charts(stats: dict[str, Any], words: dict[str, str] | None = None) -> list[Chart]:
    """The charts of ``stats`` worth drawing (none for a store without finished games)."""
    if not stats.get("games"):
        return []
    charts = [
        seat_chart(stats),
        victory_chart(stats, words or {}),
        length_chart(stats),
        cards_chart(stats, "bought", "Cards bought most (times · winners' share)"),
        cards_chart(stats, "reserved", "Cards reserved most (times · winners' share)"),
    ]
    return [c for c in charts if c is not None]


_environment: jinja2.Environment | None = None


def stats_svg(stats: dict[str, Any], words: dict[str, str] | None = None) -> str:
    """Every chart of ``stats`` in one SVG document (``tablelog stats --plot``), drawn by
    the page's own template outside the site."""
    global _environment
    if _environment is None:
        _environment = jinja2.Environment(
            loader=jinja2.PackageLoader("web", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
    template = _environment.get_template("stats/plots.html")
    return str(template.module.document(stats_charts(stats, words), WIDTH))  # type: ignore[attr-defined]


# --- a game's analysis --------------------------------------------------------------------

#: The chances chart: its size, and the margins of its plotting area.
CHANCE_WIDTH = 420
CHANCE_HEIGHT = 170
CHANCE_LEFT, CHANCE_RIGHT, CHANCE_TOP, CHANCE_BOTTOM = 30, 8, 10, 24


@dataclass(frozen=True)
class ChanceChart:
    """Each seat's chance to win over a game's steps: one polyline a seat (its points as
    "x,y" text), the turning points as marks linked to their steps, the step shown as a
    vertical line, and the axis labels."""

    width: int
    height: int
    lines: list[tuple[int, str]]
    marks: list[tuple[float, float, int, str]]
    now: float
    ticks: list[tuple[float, str]]
    steps: list[tuple[float, str]]


def chance_chart(analysis: dict[str, Any], step: int) -> ChanceChart:
    """The chart of ``analysis`` (:func:`recorder.analysis.analyse_game`'s figures) with
    step ``step`` marked."""
    steps = analysis["steps"]
    last = max(1, int(steps[-1]["step"]))
    span_x = CHANCE_WIDTH - CHANCE_LEFT - CHANCE_RIGHT
    span_y = CHANCE_HEIGHT - CHANCE_TOP - CHANCE_BOTTOM

    def x(n: int) -> float:
        return float(CHANCE_LEFT + span_x * n / last)

    def y(chance: float) -> float:
        return float(CHANCE_TOP + span_y * (1 - chance))

    seats = len(analysis["players"])
    lines = [
        (seat, " ".join(f"{x(s['step']):.1f},{y(s['chances'][seat]):.1f}" for s in steps))
        for seat in range(seats)
    ]
    marks = [
        (
            x(p["step"]),
            y(p["after"]),
            p["step"],
            f"step {p['step']}: {p['player']} {p['move']} "
            f"({_pct(p['before'])} → {_pct(p['after'])})",
        )
        for p in analysis["turning_points"]
    ]
    ticks = [(y(v), _pct(v)) for v in (0.0, 0.5, 1.0)]
    labels = [(x(n), str(n)) for n in sorted({0, last // 2, last})]
    return ChanceChart(CHANCE_WIDTH, CHANCE_HEIGHT, lines, marks, x(step), ticks, labels)
