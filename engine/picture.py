"""Drawing a position as SVG text: what every game's picture is made of.

A game's own module (``engine/<game>/picture.py``) lays out its table from its view
(:meth:`engine.protocol.GameRules.view`) with the pieces here: a :class:`Canvas` that
writes SVG elements with presentation attributes only (no ``<style>``, no ``style=``: a
picture opened on its own is still under the site's strict CSP), tokens, cost pips, the
heading, the band saying what is due and the box saying what the step changed.

Everything here is pure: values in, text out.  Every text drawn goes through
:func:`clean` and is escaped, so a seat called ``<script>`` is drawn as those characters,
and a character XML cannot hold (a control character in a name) is replaced.

>>> c = Canvas(200, 40, "Ann <vs> Bob")
>>> c.text(10, 20, "Ann & Bob\\x01", size=14)
>>> svg = c.svg()
>>> "Ann &amp; Bob\\ufffd" in svg and "<title>Ann &lt;vs&gt; Bob</title>" in svg
True
>>> fit("Chloé-Annabelle", 8)
'Chloé-A…'
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

#: The fonts asked for, in order: DejaVu Sans is on most Linux machines (the PNG
#: renderer uses the machine's fonts) and has the game's symbols (♛ ⟳ ✦ ⇠).
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

INK = "#25211c"
MUTED = "#6f685d"
PAPER = "#f3efe7"
PANEL = "#fffdf8"
LINE = "#c9bfad"
FELT = "#23284a"
FELT_CELL = "#2f3560"
HIGHLIGHT = "#ff9f1a"
HIGHLIGHT_SOFT = "#fff0d6"
UP = "#d9f2df"
UP_INK = "#17692f"
DOWN = "#fbe0dc"
DOWN_INK = "#a3261b"
WIN = "#b8860b"

#: A game's colours for its pieces, by name (``blue``): each one's fill, the ink of a
#: letter or number on it, and its rim.  Each game has its own (``palette`` of its rules),
#: which it hands to the helpers below; it names ``none`` too, the colour of a piece of
#: no colour (and of a name the palette lacks).  The site's pieces take their fills from
#: it, and the stylesheets' custom properties of the same names repeat them, held the
#: same by tests/web/test_pictures.py.
Palette = Mapping[str, tuple[str, str, str]]


#: How wide a character of DejaVu Sans is on average, as a share of the font size (used
#: to cut texts that would not fit: the picture has fixed sizes).
CHAR_WIDTH = 0.6

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
#: Characters that reorder the text drawn after them (a name could turn a line around).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SPACES = re.compile(r"[\t\n\r]+")


def clean(text: str) -> str:
    """``text`` as one line XML can hold: control and bidi-override characters replaced
    by U+FFFD, line breaks by spaces."""
    return _BIDI.sub("\ufffd", _NOT_XML.sub("\ufffd", _SPACES.sub(" ", text)))


def esc(text: object) -> str:
    """``text`` cleaned (:func:`clean`) and escaped for XML text and attribute values."""
    return html.escape(clean(str(text)), quote=True)


def fit(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, the last one an ellipsis when cut."""
    if chars < 1:
        return ""
    return text if len(text) <= chars else text[: chars - 1] + "…"


def chars_for(width: float, size: float) -> int:
    """How many characters of font ``size`` fit in ``width`` pixels (about)."""
    return max(1, int(width / (size * CHAR_WIDTH)))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


class Canvas:
    """An SVG drawing of a fixed size, written element by element."""

    def __init__(self, width: int, height: int, title: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []
        self._open = 0

    def _attrs(self, **attrs: object) -> str:
        out = []
        for key, value in attrs.items():
            if value is None:
                continue
            name = key.rstrip("_").replace("_", "-")
            text = _num(value) if isinstance(value, int | float) else esc(value)
            out.append(f' {name}="{text}"')
        return "".join(out)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        *,
        stroke: str | None = None,
        width: float | None = None,
        rx: float | None = None,
        dash: str | None = None,
        opacity: float | None = None,
    ) -> None:
        """A rectangle (rounded by ``rx``)."""
        self.parts.append(
            "<rect"
            + self._attrs(
                x=x,
                y=y,
                width=w,
                height=h,
                rx=rx,
                fill=fill,
                stroke=stroke,
                stroke_width=width,
                stroke_dasharray=dash,
                opacity=opacity,
            )
            + "/>"
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str,
        *,
        stroke: str | None = None,
        width: float | None = None,
        dash: str | None = None,
        opacity: float | None = None,
    ) -> None:
        """A disc."""
        self.parts.append(
            "<circle"
            + self._attrs(
                cx=cx,
                cy=cy,
                r=r,
                fill=fill,
                stroke=stroke,
                stroke_width=width,
                stroke_dasharray=dash,
                opacity=opacity,
            )
            + "/>"
        )

    def polygon(
        self, points: Sequence[tuple[float, float]], fill: str, *, stroke: str | None = None
    ) -> None:
        """A closed shape through ``points``."""
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self.parts.append(f"<polygon{self._attrs(points=pts, fill=fill, stroke=stroke)}/>")

    def text(
        self,
        x: float,
        y: float,
        text: object,
        *,
        size: float = 14,
        fill: str = INK,
        anchor: str | None = None,
        bold: bool = False,
        chars: int | None = None,
        opacity: float | None = None,
    ) -> None:
        """One line of text with its baseline at ``y`` (``anchor``: ``middle``, ``end``),
        cut to ``chars`` characters when given."""
        body = clean(str(text))
        if chars is not None:
            body = fit(body, chars)
        self.parts.append(
            "<text"
            + self._attrs(
                x=x,
                y=y,
                font_size=size,
                fill=fill,
                text_anchor=anchor,
                font_weight="bold" if bold else None,
                opacity=opacity,
            )
            + f">{html.escape(body, quote=False)}</text>"
        )

    def line(
        self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1
    ) -> None:
        """A straight line."""
        self.parts.append(
            f"<line{self._attrs(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width)}/>"
        )

    def begin(self, part: str, **data: object) -> None:
        """Open a group named ``part`` (``data-part``; ``data`` adds ``data-*`` values):
        what a reader of the SVG (a test, a script) finds each piece by."""
        attrs = "".join(f' data-{k.replace("_", "-")}="{esc(v)}"' for k, v in data.items())
        self.parts.append(f'<g data-part="{esc(part)}"{attrs}>')
        self._open += 1

    def end(self) -> None:
        """Close the group :meth:`begin` opened last."""
        if not self._open:
            raise ValueError("no group is open")
        self._open -= 1
        self.parts.append("</g>")

    def svg(self) -> str:
        """The whole drawing as an SVG document (UTF-8 text)."""
        if self._open:
            raise ValueError(f"{self._open} group(s) left open")
        w, h = self.width, self.height
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="{esc(FONT)}" role="img">'
            f"<title>{esc(self.title)}</title>"
            f'<rect width="{w}" height="{h}" fill="{PAPER}"/>' + "\n".join(self.parts) + "</svg>\n"
        )


# --- pieces every game draws alike -----------------------------------------------------


def token(
    c: Canvas,
    cx: float,
    cy: float,
    r: float,
    color: str,
    label: str = "",
    *,
    palette: Palette,
    ghost: bool = False,
) -> None:
    """A token: a disc of ``color`` (of the game's ``palette``) with ``label`` (its letter)
    on it; a ``ghost`` is the dashed outline of a token the step took away."""
    fill, ink, rim = palette.get(color, palette["none"])
    if ghost:
        c.circle(cx, cy, r, fill, stroke=HIGHLIGHT, width=3, dash="5 4", opacity=0.45)
    else:
        c.circle(cx, cy, r, fill, stroke=rim, width=max(1.5, r / 10))
    if label:
        size = r * 0.95
        c.text(cx, cy + size * 0.36, label, size=size, fill=ink, anchor="middle", bold=True)


def pip(c: Canvas, cx: float, cy: float, r: float, color: str, n: int, *, palette: Palette) -> None:
    """A cost or requirement: the number ``n`` on a disc of ``color`` (of ``palette``)."""
    fill, ink, rim = palette.get(color, palette["none"])
    c.circle(cx, cy, r, fill, stroke=rim, width=1.2)
    c.text(cx, cy + r * 0.42, n, size=r * 1.25, fill=ink, anchor="middle", bold=True)


def card_back(c: Canvas, x: float, y: float, w: float, h: float, level: int, note: str) -> None:
    """A face-down card of ``level`` (a deck, or a blind reserve) with ``note`` under its
    level (``12 left``, ``hidden``)."""
    c.begin("card-back", level=level)
    c.rect(x, y, w, h, FELT, stroke="#11142a", width=1.5, rx=7)
    c.rect(x + 5, y + 5, w - 10, h - 10, "none", stroke="#6c74b8", width=1, rx=5)
    c.text(
        x + w / 2,
        y + h * 0.45,
        "I" * level,
        size=w * 0.26,
        fill="#e9e6f5",
        anchor="middle",
        bold=True,
    )
    c.text(
        x + w / 2,
        y + h * 0.45 + w * 0.28,
        note,
        size=max(11, w * 0.15),
        fill="#e9e6f5",
        anchor="middle",
    )
    c.end()


def empty_slot(c: Canvas, x: float, y: float, w: float, h: float, emptied: bool) -> None:
    """A place without a card (``emptied``: the step took its card)."""
    c.rect(
        x,
        y,
        w,
        h,
        HIGHLIGHT_SOFT if emptied else "none",
        stroke=HIGHLIGHT if emptied else LINE,
        width=2 if emptied else 1.5,
        rx=7,
        dash="6 4",
    )


def highlight(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The frame marking a piece the step brought."""
    c.rect(x - 3, y - 3, w + 6, h + 6, "none", stroke=HIGHLIGHT, width=3.5, rx=9)


def heading(c: Canvas, title: str, subtitle: str, *, x: float = 20, y: float = 36) -> None:
    """The picture's first lines: who plays (``title``) and which step it shows."""
    c.begin("heading")
    c.text(x, y, title, size=26, bold=True, chars=chars_for(c.width - 2 * x, 26))
    if subtitle:
        c.text(x, y + 28, subtitle, size=17, fill=MUTED, chars=chars_for(c.width - 2 * x, 17))
    c.end()


def due_band(c: Canvas, x: float, y: float, w: float, text: str, *, over: bool) -> None:
    """What the game waits for now, or how it ended (``over``), on a band of its own."""
    c.begin("due")
    c.rect(
        x,
        y,
        w,
        40,
        "#fff6df" if over else HIGHLIGHT_SOFT,
        stroke=WIN if over else HIGHLIGHT,
        width=2,
        rx=8,
    )
    mark = "♛ " if over else "▶ "
    c.text(x + 14, y + 27, mark + text, size=19, bold=True, chars=chars_for(w - 28, 19))
    c.end()


def changes_box(
    c: Canvas,
    x: float,
    y: float,
    w: float,
    h: float,
    lines: Sequence[str],
    *,
    title: str = "What this step changed",
    size: float = 15,
) -> None:
    """What the step changed, one line each in the game's wording, in as many columns as
    the box needs (at most two); lines that do not fit are counted at the end."""
    c.begin("changes")
    _changes(c, x, y, w, h, lines, title, size)
    c.end()


def _changes(
    c: Canvas, x: float, y: float, w: float, h: float, lines: Sequence[str], title: str, size: float
) -> None:
    c.rect(x, y, w, h, PANEL, stroke=LINE, width=1.5, rx=8)
    c.text(x + 12, y + 22, title, size=14, fill=MUTED, bold=True)
    step = size * 1.35
    rows = max(1, int((h - 34) // step))
    if not lines:
        c.text(
            x + 12,
            y + 22 + step,
            "nothing (the position before the first event)",
            size=size,
            fill=MUTED,
        )
        return
    columns = 1 if len(lines) <= rows else 2
    col_w = (w - 24) / columns
    chars = chars_for(col_w - 12, size)
    wrapped = [fit(clean(line), chars) for line in lines]
    room = rows * columns
    if len(wrapped) > room:
        more = len(wrapped) - room + 1
        wrapped = [*wrapped[: room - 1], f"… and {more} more"]
    for i, line in enumerate(wrapped):
        col, row = divmod(i, rows)
        c.text(x + 12 + col * col_w, y + 22 + step * (row + 1), "• " + line, size=size, chars=chars)


def holdings(
    c: Canvas,
    x: float,
    y: float,
    w: float,
    columns: Sequence[Mapping[str, Any]],
    rows: Sequence[tuple[str, str, Sequence[Mapping[str, Any]]]],
    *,
    palette: Palette,
    first: float = 150,
    step: float = 58,
) -> None:
    """A player's counts by colour: a header of token discs (``columns``: each with
    ``color`` and ``letter``, of ``palette``), then each row (``data-part`` name, label,
    cells): its label and counts (``n``, and ``delta`` where the step changed it: the
    cell is tinted and the change written small)."""
    col0 = x + first
    for i, tk in enumerate(columns):
        token(c, col0 + i * step, y + 14, 13, tk["color"], tk["letter"], palette=palette)
    c.line(x + 12, y + 32, x + w - 12, y + 32, LINE)
    for r, (part, label, cells) in enumerate(rows):
        c.begin(part)
        base = y + 56 + r * 28
        c.text(x + 16, base, label, size=14, fill=MUTED if r else INK, bold=r == 0)
        for i, cell in enumerate(cells):
            cx = col0 + i * step
            delta = cell.get("delta", 0)
            if delta:
                c.rect(cx - 26, base - 19, 52, 25, UP if delta > 0 else DOWN, rx=4)
            n = cell["n"]
            ink = INK if n else "#b3aa9a"
            c.text(cx, base, n, size=18, bold=bool(n), anchor="middle", fill=ink)
            if delta:
                ink = UP_INK if delta > 0 else DOWN_INK
                c.text(cx + 25, base - 8, f"{delta:+d}", size=11, anchor="end", bold=True, fill=ink)
        c.end()


def step_heading(
    step: int,
    last: int,
    turn: int | None,
    actor: str | None,
    text: str,
    *,
    setup: bool = False,
    illegal: bool = False,
) -> str:
    """The line under a picture's title: which step it shows and the decision that led
    there, as the replay's move list writes it (``setup``: the step laid the table out,
    its long notation left out; ``illegal``: it was played though illegal).

    >>> step_heading(40, 169, 20, "Ann", "take a1 b1 c1")
    'Step 40 of 169 · turn 20 · Ann: take a1 b1 c1'
    >>> step_heading(9, 169, 5, "Bob", "take c1 e1", illegal=True)
    'Step 9 of 169 · turn 5 · Bob: take c1 e1 (played illegally)'
    >>> step_heading(1, 169, 0, None, "setup first #1 board ...", setup=True)
    'Step 1 of 169 · the table is set up'
    >>> step_heading(0, 169, None, None, "")
    'Step 0 of 169 · before the set-up'
    """
    parts = [f"Step {step} of {last}"]
    if step == 0:
        parts.append("before the set-up")
    elif setup:
        parts.append("the table is set up")
    else:
        if turn:
            parts.append(f"turn {turn}")
        if text:
            move = f"{actor}: {text}" if actor else text
            parts.append(move + (" (played illegally)" if illegal else ""))
    return " · ".join(parts)


def wrap(text: str, chars: int) -> list[str]:
    """``text`` (cleaned: :func:`clean`) broken into lines of at most ``chars``
    characters at spaces; a word longer than a line is cut (:func:`fit`).

    >>> wrap("Ann took 2 blue tokens and 1 white", 16)
    ['Ann took 2 blue', 'tokens and 1', 'white']
    """
    lines: list[str] = []
    for word in clean(text).split():
        word = fit(word, chars)
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


#: A caption's lines of what the step did, under its heading (the rest is cut).
CAPTION_LINES = 2


def caption_height(size: float) -> int:
    """The height of a :func:`caption` of type ``size``: the heading and
    :data:`CAPTION_LINES` lines, whatever the words (every frame of an animation has one
    size)."""
    return round(size * 1.4 * (1 + CAPTION_LINES) + size)


def caption(width: int, heading_text: str, words: Sequence[str], *, size: float = 19) -> str:
    """A band to go under a picture drawn small (an animation's frame), naming its step
    in type a phone reads: ``heading_text`` (:func:`step_heading`) in bold, then what the
    step did (``words``, the game's lines, wrapped; what does not fit ends in "…").

    >>> svg = caption(400, "Step 3 of 9 · turn 1 · Ann: take a1", ["Ann took 1 blue."])
    >>> 'height="99"' in svg and ">Ann took 1 blue.</text>" in svg
    True
    """
    height = caption_height(size)
    c = Canvas(width, height, heading_text)
    c.rect(0, 0, width, height, PANEL)
    c.line(0, 0.75, width, 0.75, LINE, 1.5)
    chars = chars_for(width - 24, size)
    line_h = size * 1.4
    c.text(12, size * 1.3, heading_text, size=size, bold=True, chars=chars)
    lines = wrap(" ".join(words), chars)
    if len(lines) > CAPTION_LINES:
        lines = lines[:CAPTION_LINES]
        lines[-1] = lines[-1][: chars - 2] + " …"
    for i, line in enumerate(lines):
        c.text(12, size * 1.3 + line_h * (i + 1), line, size=size)
    return c.svg()


_ROOT = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" width="(\d+)" height="(\d+)"')


def svg_size(svg: str) -> tuple[int, int]:
    """The width and height of an SVG document written by :meth:`Canvas.svg`.

    >>> svg_size(Canvas(200, 100, "a").svg())
    (200, 100)
    """
    root = _ROOT.search(svg)
    if root is None:
        raise ValueError("not an SVG document written by Canvas.svg")
    return int(root.group(1)), int(root.group(2))


def stacked(svgs: Sequence[str], width: int) -> str:
    """SVG documents written by :meth:`Canvas.svg` one under the other, each scaled to the
    widest, in one document ``width`` pixels wide (to be drawn in one go).

    >>> top, bottom = Canvas(200, 100, "a").svg(), Canvas(100, 25, "b").svg()
    >>> svg = stacked([top, bottom], 100)
    >>> 'width="100" height="75" viewBox="0 0 200 150"' in svg
    True
    >>> '<svg y="100" width="200" height="50" viewBox="0 0 100 25"' in svg
    True
    """
    sizes = [svg_size(svg) for svg in svgs]
    widest = max(w for w, _ in sizes)
    parts, y = [], 0
    for svg, (w, h) in zip(svgs, sizes, strict=True):
        rest = svg[svg.index(f'height="{h}"') + len(f'height="{h}"') :]
        scaled = round(h * widest / w)
        parts.append(f'<svg y="{y}" width="{widest}" height="{scaled}"' + rest)
        y += scaled
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{round(y * width / widest)}" viewBox="0 0 {widest} {y}">'
        + "".join(parts)
        + "</svg>\n"
    )
