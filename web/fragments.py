"""Pieces drawn once: the templates' ``remembered(macro, *fields)`` keeps what a macro
drew, by its arguments, and hands it out again.

A replay page draws a hundred pieces or more (tokens, cards, board spaces, meters), most of
them alike on every page: a card is drawn the same wherever it lies.  Drawn by their
macros at every call, they made the page three times as slow to render as when Python
wrote them (bench/web.py measures the page); remembered, it takes about a third longer.  The
markup stays the template's: this module only keeps what a macro returned.

A piece's macro must depend on nothing but its arguments.  Its arguments are its key,
but with ``fields`` its first argument (a mapping: a card of the game's view) is known
by those of its fields that decide the drawing, which the template names (a card:
its id, and what else changes how it is drawn).

>>> drawn = []
>>> def macro(card, extra=""):
...     drawn.append(card["id"])
...     return f"{card['id']}{extra}"
>>> card = remembered(macro, "id")
>>> card({"id": "1-01", "n": 1}), card({"id": "1-01", "n": 2}), card({"id": "1-01"}, "x")
('1-01', '1-01', '1-01x')
>>> drawn
['1-01', '1-01']
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

#: How many drawings one piece keeps (far more than a game's pieces need: its cards,
#: each in a handful of sizes); past it the piece starts afresh.
LIMIT = 4096


def remembered(macro: Callable[..., Any], *fields: str) -> Callable[..., Any]:
    """``macro`` with its output kept by its arguments; with ``fields``, its first
    argument (a mapping) stands for those of its fields."""
    kept: dict[Any, Any] = {}
    known = itemgetter(*fields) if fields else None

    def piece(*args: Any, **kwargs: Any) -> Any:
        key: tuple[Any, ...] = args if known is None else (known(args[0]), *args[1:])
        if kwargs:
            key += tuple(sorted(kwargs.items()))
        drawn = kept.get(key)
        if drawn is None:
            if len(kept) >= LIMIT:
                kept.clear()
            drawn = kept[key] = macro(*args, **kwargs)
        return drawn

    piece.__name__ = str(getattr(macro, "name", None) or getattr(macro, "__name__", "piece"))
    return piece
