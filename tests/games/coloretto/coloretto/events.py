"""Coloretto's events: one frozen record per decision or observation at the table.

The decisions are the setup (as the table lays it out), ``card_drawn`` (the player draws
the supply's top card), ``card_placed`` (the card drawn laid next to a row) and
``row_taken`` (a row's cards taken).  The table's observation is ``card_revealed``: what
the card drawn turned out to be.  Kinds are small integers inside the engine
(:mod:`.cards`) and words in a payload; rows count from 0 inside and from 1 in a payload,
as the table counts them.

>>> event_to_dict(CardPlaced(1))
{'type': 'card_placed', 'row': 2}
>>> event_from_dict({"type": "card_revealed", "card": "joker"})
CardRevealed(card=7)
>>> event_from_dict({"type": "row_taken", "row": 0})
Traceback (most recent call last):
...
engine.errors.EventFormatError: row: expected a row from 1 to 5, got 0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.corrections import RETRACTION, Retraction, retraction_from_dict, retraction_to_dict
from engine.errors import EventFormatError, check_fields

from .cards import COLOURS, WORDS, kind_of

#: Version of the JSON payload layout written by :func:`event_to_dict`.
PAYLOAD_VERSION = 1
#: The most rows a table has (five brown row cards).
MAX_ROWS = 5


@dataclass(frozen=True, slots=True)
class GameSetUp:
    """The table as laid out: who starts (drawn by lot), the colours removed from the
    box, and each seat's start cards (colours)."""

    first_player: int
    removed: tuple[int, ...]
    start: tuple[tuple[int, ...], ...]
    type = "game_set_up"


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """The player draws the supply's top card (what it is, the table then observes)."""

    type = "card_drawn"


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """Observation: the card drawn is of ``card`` (a kind of :mod:`.cards`)."""

    card: int
    type = "card_revealed"


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """The card drawn is laid next to row ``row`` (from 0)."""

    row: int
    type = "card_placed"


@dataclass(frozen=True, slots=True)
class RowTaken:
    """The player takes row ``row`` (from 0) with its cards, and is out of the round."""

    row: int
    type = "row_taken"


Event = GameSetUp | CardDrawn | CardRevealed | CardPlaced | RowTaken | Retraction

EVENT_TYPES = (
    "game_set_up",
    "card_drawn",
    "card_revealed",
    "card_placed",
    "row_taken",
    RETRACTION,
)


def event_to_dict(event: Event) -> dict[str, Any]:
    """The plain JSON form of an event (the stored payload, version ``PAYLOAD_VERSION``)."""
    match event:
        case GameSetUp(first_player=first, removed=removed, start=start):
            return {
                "type": event.type,
                "first_player": first,
                "removed": [WORDS[c] for c in removed],
                "start": [[WORDS[c] for c in cards] for cards in start],
            }
        case CardDrawn():
            return {"type": event.type}
        case CardRevealed(card=card):
            return {"type": event.type, "card": WORDS[card]}
        case CardPlaced(row=row) | RowTaken(row=row):
            return {"type": event.type, "row": row + 1}
        case Retraction():
            return retraction_to_dict(event)
    raise EventFormatError(f"unknown event type {event.type!r}", "type")


# --- parsing the JSON form: one parser per type, each naming the bad field -------------


def _kind(value: Any, field: str, colour: bool = False) -> int:
    """A kind by its word (or letter, ``+2``); ``colour``: one of the seven colours."""
    k = kind_of(value) if isinstance(value, str) else None
    if k is None or (colour and k >= len(COLOURS)):
        allowed = COLOURS if colour else WORDS
        raise EventFormatError(f"unknown card {value!r} (one of {', '.join(allowed)})", field)
    return k


def _colours(value: Any, field: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise EventFormatError(f"expected a list of colours, got {value!r}", field)
    return tuple(_kind(c, f"{field}[{i}]", colour=True) for i, c in enumerate(value))


def _row(value: Any) -> int:
    if type(value) is not int or not 1 <= value <= MAX_ROWS:
        raise EventFormatError(f"expected a row from 1 to {MAX_ROWS}, got {value!r}", "row")
    return value - 1


def _setup(data: Mapping[str, Any]) -> GameSetUp:
    check_fields(
        data, frozenset({"type", "first_player", "removed", "start"}), ("first_player", "start")
    )
    first = data["first_player"]
    if type(first) is not int or not 0 <= first < MAX_ROWS:
        raise EventFormatError(f"expected a seat from 0 to 4, got {first!r}", "first_player")
    removed = _colours(data.get("removed", []), "removed")
    start = data["start"]
    if not isinstance(start, list) or not start:
        raise EventFormatError(f"expected each seat's start cards, got {start!r}", "start")
    return GameSetUp(
        first, removed, tuple(_colours(cards, f"start[{i}]") for i, cards in enumerate(start))
    )


def _drawn(data: Mapping[str, Any]) -> CardDrawn:
    check_fields(data, frozenset({"type"}), ())
    return CardDrawn()


def _revealed(data: Mapping[str, Any]) -> CardRevealed:
    check_fields(data, frozenset({"type", "card"}), ("card",))
    return CardRevealed(_kind(data["card"], "card"))


def _placed(data: Mapping[str, Any]) -> CardPlaced:
    check_fields(data, frozenset({"type", "row"}), ("row",))
    return CardPlaced(_row(data["row"]))


def _taken(data: Mapping[str, Any]) -> RowTaken:
    check_fields(data, frozenset({"type", "row"}), ("row",))
    return RowTaken(_row(data["row"]))


_PARSERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "game_set_up": _setup,
    "card_drawn": _drawn,
    "card_revealed": _revealed,
    "card_placed": _placed,
    "row_taken": _taken,
    RETRACTION: retraction_from_dict,
}


def event_from_dict(data: Any) -> Event:
    """Build an event from its JSON form; EventFormatError names the offending field."""
    if not isinstance(data, Mapping):
        raise EventFormatError(f"an event is a JSON object, got {type(data).__name__}")
    t: Any = data.get("type")
    try:
        parse = _PARSERS[t]
    except (KeyError, TypeError):
        if "type" not in data:
            raise EventFormatError("missing field", "type") from None
        raise EventFormatError(
            f"unknown event type {t!r} (one of {', '.join(EVENT_TYPES)})", "type"
        ) from None
    return parse(data)


def upcast(payload: Mapping[str, Any], version: int) -> dict[str, Any]:
    """Bring a stored payload of ``version`` up to :data:`PAYLOAD_VERSION` (only 1 so far)."""
    if version != PAYLOAD_VERSION:
        raise EventFormatError(
            f"unknown payload version {version!r} (this tablelog reads 1..{PAYLOAD_VERSION})",
            "version",
        )
    return dict(payload)
