"""The colours of this game's pieces: its palette (:data:`engine.picture.Palette`), which
its pictures draw with and the site's pieces take their fills from (``palette`` of its
rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the type alone: reading a game draws nothing)
    from ..picture import Palette

PALETTE: Palette = {
    "white": ("#f4f0e6", "#4a4336", "#a89f8c"),
    "blue": ("#2563c9", "#ffffff", "#173f86"),
    "green": ("#1e9a56", "#ffffff", "#126236"),
    "red": ("#d2382e", "#ffffff", "#8b1f18"),
    "black": ("#2b2727", "#ffffff", "#000000"),
    "pearl": ("#e6dcee", "#5d4a6e", "#9f88b8"),
    "gold": ("#e0ad2c", "#4d3800", "#9c7410"),
    "joker": ("#8a6fc9", "#ffffff", "#5b4391"),
    "none": ("#9b958a", "#ffffff", "#6f685d"),
}
