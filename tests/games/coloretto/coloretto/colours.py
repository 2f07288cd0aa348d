"""The colours of Coloretto's cards: its palette (:data:`engine.picture.Palette`: fill, the
ink of what is printed on it, rim), which its picture draws with and its web pieces take
their fills from (``palette`` of its rules; ``web/static/game.css`` repeats the fills as
custom properties of the same names)."""

from __future__ import annotations

from engine.picture import Palette

PALETTE: Palette = {
    "blue": ("#2563c9", "#ffffff", "#173f86"),
    "brown": ("#8b5a2b", "#ffffff", "#5a3a1b"),
    "green": ("#1e9a56", "#ffffff", "#126236"),
    "grey": ("#8c8c8c", "#ffffff", "#5e5e5e"),
    "orange": ("#f08a24", "#3b1f00", "#a85a10"),
    "pink": ("#e86fa8", "#3b0020", "#a8446f"),
    "yellow": ("#f2cf2b", "#3b3000", "#a88c10"),
    # the joker's rainbow drawn as violet; a "+2" card is white; the last-round card dark
    "joker": ("#8a6fc9", "#ffffff", "#5c4696"),
    "plus": ("#fffdf8", "#25211c", "#a89f8c"),
    "last": ("#23284a", "#ffffff", "#11142b"),
    "none": ("#9b958a", "#ffffff", "#6f685d"),
}
