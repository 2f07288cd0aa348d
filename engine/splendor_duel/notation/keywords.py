"""Splendor Duel's decision keywords, in the order the docs list them."""

from __future__ import annotations

KEYWORDS = (
    "priv",
    "repl",
    "take",
    "res",
    "buy",
    "copy",
    "token",
    "steal",
    "royal",
    "disc",
    "reveal",
    "id",
    "resign",
)
