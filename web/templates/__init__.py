"""The site's templates: the generic pages here, and one folder per game kind
(``splendor_duel/``) with its board's templates and the module that draws its pieces.
What every game draws alike is drawn here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def card_row(row: Mapping[str, Any], card: Callable[[Mapping[str, Any], str], str]) -> str:
    """One level of face-up cards: the level's deck (how many cards it has left) and its
    slots, each a card drawn by the game's ``card`` or an empty place (``emptied`` when
    the step took its card).  Both games lay out their cards this way."""
    level, deck = row["level"], row["deck"]
    out = [
        f'<div class="deck lv-{level}" title="level-{level} deck: {deck} '
        f'card{"s" if deck != 1 else ""} left"><span class="lvl">{"I" * level}</span>'
        f'<span class="n">{deck}</span></div>'
    ]
    for slot in row["slots"]:
        if slot["card"]:
            out.append(card(slot["card"], "revealed" if slot["revealed"] else ""))
        else:
            emptied = " emptied" if slot["emptied"] else ""
            out.append(f'<div class="card empty{emptied}"></div>')
    return "".join(out)
