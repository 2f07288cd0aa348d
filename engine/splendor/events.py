"""Classic Splendor events: one frozen record per decision or observation at the table.

Events are facts in the past tense.  Inside the engine colours are small integers;
:func:`event_to_dict` and :func:`event_from_dict` convert them to the plain JSON form that
is stored and exchanged:

>>> e = TokensTaken((2, 0, 1))
>>> e.colors, event_to_dict(e)
((0, 1, 2), {'type': 'tokens_taken', 'colors': ['white', 'blue', 'green']})
>>> event_from_dict({'type': 'tokens_taken', 'colors': ['G', 'white', 'blue']}) == e
True

The decisions are the setup, the turn's one action (``tokens_taken``, ``card_reserved``,
``card_purchased``, or ``turn_passed`` when no action is possible), the tokens returned
down to 10 and the noble chosen.  The table's observations are the card revealed to refill
the display and a blind reserve shown (``card_identified``).  A correction is the shared
:class:`engine.corrections.Retraction`.  A blind reserve from :func:`legal_moves` is a
template whose card is unknown (``card`` None).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..corrections import RETRACTION, Retraction, retraction_from_dict, retraction_to_dict
from ..errors import EventFormatError, check_fields
from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, NOBLES

#: Version of the JSON payload layout written by :func:`event_to_dict`.
PAYLOAD_VERSION = 1

Counts = tuple[int, int, int, int, int, int]
ZERO_COUNTS: Counts = (0, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class GameSetUp:
    """The table as set up: the first player, the face-up cards per level (level 1
    first) and the noble tiles revealed."""

    first_player: int
    display: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    nobles: tuple[str, ...]
    type = "game_set_up"


@dataclass(frozen=True, slots=True)
class TokensTaken:
    """Gem tokens taken from the bank: 3 of different colours or 2 of one; kept sorted."""

    colors: tuple[int, ...]
    type = "tokens_taken"

    def __post_init__(self) -> None:
        if list(self.colors) != sorted(self.colors):
            object.__setattr__(self, "colors", tuple(sorted(self.colors)))


@dataclass(frozen=True, slots=True)
class CardReserved:
    """A card reserved: face up (``card`` set, ``deck`` None) or blind from the top of
    deck ``deck`` (``card`` None until shown); ``gold`` says whether a Gold was taken."""

    gold: bool
    card: str | None = None
    deck: int | None = None
    type = "card_reserved"


@dataclass(frozen=True, slots=True)
class CardPurchased:
    """A card bought from the display or the buyer's reserve, with the exact tokens paid
    (indexed by colour, Gold last)."""

    card: str
    payment: Counts
    type = "card_purchased"


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """A turn with no action, when none of the four actions is possible."""

    type = "turn_passed"


@dataclass(frozen=True, slots=True)
class TokensReturned:
    """Tokens returned to the bank at the end of a turn, down to 10 (by colour)."""

    tokens: Counts
    type = "tokens_returned"


@dataclass(frozen=True, slots=True)
class NobleVisited:
    """The noble who visits at the end of the turn (the player's choice among several)."""

    noble: str
    type = "noble_visited"


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """Observation: the card turned face up to refill the display."""

    card: str
    type = "card_revealed"


@dataclass(frozen=True, slots=True)
class CardIdentified:
    """Observation: ``player``'s blind reserve shown to be ``card``."""

    player: int
    card: str
    type = "card_identified"


Event = (
    GameSetUp
    | TokensTaken
    | CardReserved
    | CardPurchased
    | TurnPassed
    | TokensReturned
    | NobleVisited
    | CardRevealed
    | CardIdentified
    | Retraction
)

EVENT_TYPES = (
    "game_set_up",
    "tokens_taken",
    "card_reserved",
    "card_purchased",
    "turn_passed",
    "tokens_returned",
    "noble_visited",
    "card_revealed",
    "card_identified",
    RETRACTION,
)


def counts_to_dict(counts: Sequence[int]) -> dict[str, int]:
    """Token counts by colour name, zeros left out."""
    return {COLOR_NAMES[c]: n for c, n in enumerate(counts) if n}


def event_to_dict(event: Event) -> dict[str, Any]:
    """The plain JSON form of an event (the stored payload, version ``PAYLOAD_VERSION``)."""
    t = event.type
    match event:
        case TokensTaken(colors=colors):
            return {"type": t, "colors": [COLOR_NAMES[c] for c in colors]}
        case CardPurchased(card=card, payment=payment):
            return {"type": t, "card": card, "payment": counts_to_dict(payment)}
        case CardReserved(gold=gold, card=card, deck=deck):
            out: dict[str, Any] = {"type": t, "gold": gold}
            if deck is not None:
                out["deck"] = deck
            if card is not None:
                out["card"] = card
            return out
        case TokensReturned(tokens=tokens):
            return {"type": t, "tokens": counts_to_dict(tokens)}
        case NobleVisited(noble=noble):
            return {"type": t, "noble": noble}
        case CardRevealed(card=card):
            return {"type": t, "card": card}
        case CardIdentified(player=player, card=card):
            return {"type": t, "player": player, "card": card}
        case TurnPassed():
            return {"type": t}
        case GameSetUp():
            return {
                "type": t,
                "first_player": event.first_player,
                "display": {str(lv + 1): list(ids) for lv, ids in enumerate(event.display)},
                "nobles": list(event.nobles),
            }
        case Retraction():
            return retraction_to_dict(event)
    raise EventFormatError(f"unknown event type {t!r}", "type")


# --- parsing the JSON form: one parser per type, each naming the bad field -------------

_COLOR_BY_NAME = {name: i for i, name in enumerate(COLOR_NAMES)}
_COLOR_BY_LETTER = {letter: i for i, letter in enumerate(COLOR_LETTERS)}


def _color(value: Any, field: str) -> int:
    """A colour by name (``red``, any case) or letter (``R``)."""
    if isinstance(value, str):
        i = _COLOR_BY_NAME.get(value.lower())
        if i is None:
            i = _COLOR_BY_LETTER.get(value.upper())
        if i is not None:
            return i
    raise EventFormatError(f"unknown colour {value!r} (one of {', '.join(COLOR_NAMES)})", field)


def _counts(value: Any, field: str) -> Counts:
    """Token counts as an object keyed by colour name, each a whole number from 0."""
    if not isinstance(value, Mapping):
        raise EventFormatError(f"expected an object of counts by colour, got {value!r}", field)
    counts = [0] * 6
    for key, n in value.items():
        c = _color(key, f"{field}.{key}")
        if type(n) is not int or n < 0:
            raise EventFormatError(f"expected a count (0 or more), got {n!r}", f"{field}.{key}")
        counts[c] += n
    return tuple(counts)  # type: ignore[return-value]


def _card(value: Any, field: str) -> str:
    if isinstance(value, str) and value in CARDS:
        return value
    raise EventFormatError(f"unknown card {value!r} (ids such as '1-01' .. '3-20')", field)


def _int(value: Any, field: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise EventFormatError(f"expected a number from {low} to {high}, got {value!r}", field)
    return value


def _setup(data: Mapping[str, Any]) -> GameSetUp:
    check_fields(
        data, frozenset({"type", "first_player", "display", "nobles"}), ("display", "nobles")
    )
    first = _int(data.get("first_player", 0), "first_player", 0, 3)
    display = data["display"]
    if not isinstance(display, Mapping) or sorted(display) != ["1", "2", "3"]:
        raise EventFormatError("expected the face-up cards of levels '1', '2' and '3'", "display")
    rows = []
    for lv in ("1", "2", "3"):
        ids = display[lv]
        if not isinstance(ids, list):
            raise EventFormatError(f"expected a list of card ids, got {ids!r}", f"display.{lv}")
        rows.append(tuple(_card(c, f"display.{lv}[{i}]") for i, c in enumerate(ids)))
    nobles = data["nobles"]
    if not isinstance(nobles, list):
        raise EventFormatError(f"expected a list of noble ids, got {nobles!r}", "nobles")
    for i, n in enumerate(nobles):
        if not isinstance(n, str) or n not in NOBLES:
            raise EventFormatError(f"unknown noble {n!r} (N-01 .. N-10)", f"nobles[{i}]")
    return GameSetUp(first, (rows[0], rows[1], rows[2]), tuple(nobles))


def _take(data: Mapping[str, Any]) -> TokensTaken:
    check_fields(data, frozenset({"type", "colors"}), ("colors",))
    colors = data["colors"]
    if not isinstance(colors, list):
        raise EventFormatError(f"expected a list of colours, got {colors!r}", "colors")
    return TokensTaken(tuple(_color(c, f"colors[{i}]") for i, c in enumerate(colors)))


def _reserve(data: Mapping[str, Any]) -> CardReserved:
    check_fields(data, frozenset({"type", "gold", "card", "deck"}), ("gold",))
    gold = data["gold"]
    if type(gold) is not bool:
        raise EventFormatError(f"expected true or false, got {gold!r}", "gold")
    deck = data.get("deck")
    card = data.get("card")
    if deck is not None:
        deck = _int(deck, "deck", 1, 3)
    if card is not None:
        card = _card(card, "card")
        if deck is not None and CARDS[card].level != deck:
            raise EventFormatError(f"{card} is not a level {deck} card", "card")
    elif deck is None:
        raise EventFormatError("a reserve names a face-up card or a deck", "card")
    return CardReserved(gold, card, deck)


def _purchase(data: Mapping[str, Any]) -> CardPurchased:
    check_fields(data, frozenset({"type", "card", "payment"}), ("card", "payment"))
    return CardPurchased(_card(data["card"], "card"), _counts(data["payment"], "payment"))


def _returned(data: Mapping[str, Any]) -> TokensReturned:
    check_fields(data, frozenset({"type", "tokens"}), ("tokens",))
    return TokensReturned(_counts(data["tokens"], "tokens"))


def _noble(data: Mapping[str, Any]) -> NobleVisited:
    check_fields(data, frozenset({"type", "noble"}), ("noble",))
    noble = data["noble"]
    if not isinstance(noble, str) or noble not in NOBLES:
        raise EventFormatError(f"unknown noble {noble!r} (N-01 .. N-10)", "noble")
    return NobleVisited(noble)


def _revealed(data: Mapping[str, Any]) -> CardRevealed:
    check_fields(data, frozenset({"type", "card"}), ("card",))
    return CardRevealed(_card(data["card"], "card"))


def _identified(data: Mapping[str, Any]) -> CardIdentified:
    check_fields(data, frozenset({"type", "player", "card"}), ("player", "card"))
    return CardIdentified(_int(data["player"], "player", 0, 3), _card(data["card"], "card"))


def _passed(data: Mapping[str, Any]) -> TurnPassed:
    check_fields(data, frozenset({"type"}), ())
    return TurnPassed()


_PARSERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "game_set_up": _setup,
    "tokens_taken": _take,
    "card_reserved": _reserve,
    "card_purchased": _purchase,
    "turn_passed": _passed,
    "tokens_returned": _returned,
    "noble_visited": _noble,
    "card_revealed": _revealed,
    "card_identified": _identified,
    RETRACTION: retraction_from_dict,
}


def event_from_dict(data: Any) -> Event:
    """Build an event from its JSON form; EventFormatError names the offending field.

    Colours may be named in any case or by letter; anything else that is not the form
    :func:`event_to_dict` writes is refused.
    """
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
