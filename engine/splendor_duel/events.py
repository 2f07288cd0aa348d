"""Splendor Duel events: one frozen record per decision or observation at the table.

Events are facts in the past tense.  Inside the engine they hold small integers (space
and colour indices); :func:`event_to_dict` and :func:`event_from_dict` convert them to the
plain JSON form that is stored and exchanged:

>>> e = TokensTaken((13, 12, 11))
>>> e.spaces, event_to_dict(e)
((11, 12, 13), {'type': 'tokens_taken', 'spaces': ['b3', 'c3', 'd3']})
>>> event_from_dict({'type': 'tokens_taken', 'spaces': ['d3', 'b3', 'c3']}) == e
True

Spaces are names (``c3``), colours are names (``white`` .. ``pearl``, ``gold``), cards
and royals are catalogue ids (``2-05``, ``R-3``), players are 0 or 1 in seat order.
Token counts (a payment, a discard) are objects keyed by colour name, zeros left out.
Two events are *templates* as :func:`legal_moves` returns them: a replenish whose drawn
tokens are not known yet (``tokens`` is None) and a blind reserve whose card is unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..corrections import RETRACTION, Retraction, retraction_from_dict, retraction_to_dict
from ..errors import EventFormatError, check_fields
from .catalogue import (
    CARDS,
    COLOR_NAMES,
    PYRAMID_SIZES,
    ROYALS,
    SPACE_NAMES,
    color_index,
    space_index,
)

#: Version of the JSON payload layout written by :func:`event_to_dict`.
PAYLOAD_VERSION = 1

Counts = tuple[int, int, int, int, int, int, int]
ZERO_COUNTS: Counts = (0, 0, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class GameSetUp:
    """The table as set up: first player, the 25 tokens in spiral order, the pyramid."""

    first_player: int
    board: tuple[int, ...]
    pyramid: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    #: Privileges each player holds at the start; the rulebook gives the second player 1.
    privileges: tuple[int, int] | None = None

    type = "game_set_up"


@dataclass(frozen=True, slots=True)
class PrivilegeSpent:
    """A Privilege returned to the table to take the (non-Gold) token on ``space``."""

    space: int
    type = "privilege_spent"


@dataclass(frozen=True, slots=True)
class BoardReplenished:
    """The bag emptied onto the board; ``tokens`` are the colours drawn, in spiral order
    of the empty spaces they went to (None in a template from legal_moves)."""

    tokens: tuple[int, ...] | None = None
    type = "board_replenished"


@dataclass(frozen=True, slots=True)
class TokensTaken:
    """The mandatory action "take up to 3 tokens"; spaces are kept sorted."""

    spaces: tuple[int, ...]
    type = "tokens_taken"

    def __post_init__(self) -> None:
        if list(self.spaces) != sorted(self.spaces):
            object.__setattr__(self, "spaces", tuple(sorted(self.spaces)))


@dataclass(frozen=True, slots=True)
class CardReserved:
    """Gold taken from ``gold`` and a card reserved: from the pyramid (``card`` set,
    ``deck`` None) or blind from the top of deck ``deck`` (``card`` known or None)."""

    gold: int
    card: str | None = None
    deck: int | None = None
    type = "card_reserved"


@dataclass(frozen=True, slots=True)
class CardPurchased:
    """A card bought from the pyramid or the buyer's reserve, with the exact tokens paid
    (indexed by colour, Gold last)."""

    card: str
    payment: Counts
    type = "card_purchased"


@dataclass(frozen=True, slots=True)
class ColorCopied:
    """A joker card's ability resolved: it takes the colour of one of the buyer's bonuses."""

    color: int
    type = "color_copied"


@dataclass(frozen=True, slots=True)
class BonusTokenTaken:
    """The "token" ability resolved: the token of the card's colour on ``space`` taken."""

    space: int
    type = "bonus_token_taken"


@dataclass(frozen=True, slots=True)
class TokenStolen:
    """The "steal" ability resolved: one Gem or Pearl token taken from the opponent."""

    color: int
    type = "token_stolen"


@dataclass(frozen=True, slots=True)
class RoyalTaken:
    """A Royal card taken on reaching the 3rd or the 6th crown."""

    royal: str
    type = "royal_taken"


@dataclass(frozen=True, slots=True)
class TokensDiscarded:
    """Tokens returned to the bag at the end of the turn, down to 10."""

    tokens: Counts
    type = "tokens_discarded"


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """An observation: ``card`` turned face up from its deck into the empty pyramid slot."""

    card: str
    type = "card_revealed"


@dataclass(frozen=True, slots=True)
class CardIdentified:
    """An observation: a card ``player`` reserved blind turns out to be ``card``."""

    player: int
    card: str
    type = "card_identified"


@dataclass(frozen=True, slots=True)
class PlayerResigned:
    player: int
    type = "player_resigned"


Event = (
    GameSetUp
    | PrivilegeSpent
    | BoardReplenished
    | TokensTaken
    | CardReserved
    | CardPurchased
    | ColorCopied
    | BonusTokenTaken
    | TokenStolen
    | RoyalTaken
    | TokensDiscarded
    | CardRevealed
    | CardIdentified
    | PlayerResigned
)

EVENT_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (
        GameSetUp,
        PrivilegeSpent,
        BoardReplenished,
        TokensTaken,
        CardReserved,
        CardPurchased,
        ColorCopied,
        BonusTokenTaken,
        TokenStolen,
        RoyalTaken,
        TokensDiscarded,
        CardRevealed,
        CardIdentified,
        PlayerResigned,
    )
}

# --- JSON form -------------------------------------------------------------------------


def counts_to_dict(counts: Sequence[int]) -> dict[str, int]:
    return {COLOR_NAMES[c]: n for c, n in enumerate(counts) if n}


def event_to_dict(event: Event | Retraction) -> dict[str, Any]:
    """The plain JSON form of an event (the stored payload, version ``PAYLOAD_VERSION``)."""
    t = event.type
    match event:
        case TokensTaken(spaces=spaces):
            return {"type": t, "spaces": [SPACE_NAMES[s] for s in spaces]}
        case CardPurchased(card=card, payment=payment):
            return {"type": t, "card": card, "payment": counts_to_dict(payment)}
        case PrivilegeSpent(space=space) | BonusTokenTaken(space=space):
            return {"type": t, "space": SPACE_NAMES[space]}
        case CardReserved(gold=gold, card=card, deck=deck):
            out: dict[str, Any] = {"type": t, "gold": SPACE_NAMES[gold]}
            if deck is not None:
                out["deck"] = deck
            if card is not None:
                out["card"] = card
            return out
        case ColorCopied(color=color) | TokenStolen(color=color):
            return {"type": t, "color": COLOR_NAMES[color]}
        case RoyalTaken(royal=royal):
            return {"type": t, "royal": royal}
        case TokensDiscarded(tokens=tokens):
            return {"type": t, "tokens": counts_to_dict(tokens)}
        case CardRevealed(card=card):
            return {"type": t, "card": card}
        case BoardReplenished(tokens=drawn):
            return {
                "type": t,
                "tokens": None if drawn is None else [COLOR_NAMES[c] for c in drawn],
            }
        case GameSetUp():
            out = {
                "type": t,
                "first_player": event.first_player,
                "board": [COLOR_NAMES[c] for c in event.board],
                "pyramid": {str(lv + 1): list(cards) for lv, cards in enumerate(event.pyramid)},
            }
            if event.privileges is not None:
                out["privileges"] = list(event.privileges)
            return out
        case CardIdentified(player=player, card=card):
            return {"type": t, "player": player, "card": card}
        case PlayerResigned(player=player):
            return {"type": t, "player": player}
        case Retraction():
            return retraction_to_dict(event)
    raise EventFormatError(f"unknown event type {t!r}", "type")


# --- parsing the JSON form -------------------------------------------------------------
#
# One parser for every form.  Each field is first looked up as event_to_dict writes it (an
# exact space or colour name, the exact set of keys), which is what imports read ~150 times
# a game; only when that misses does the same function try the other spellings (any case,
# colour letters) and, failing those, raise the EventFormatError naming the field.

_SPACE_BY_EXACT_NAME = {name: i for i, name in enumerate(SPACE_NAMES)}
_COLOR_BY_EXACT_NAME = {name: i for i, name in enumerate(COLOR_NAMES)}


def _space(value: Any, field: str) -> int:
    """A board space by name (``c3``, any case)."""
    try:
        return _SPACE_BY_EXACT_NAME[value]
    except (KeyError, TypeError):  # another spelling, or not a name at all
        pass
    if not isinstance(value, str):
        raise EventFormatError(f"expected a space name such as 'c3', got {value!r}", field)
    try:
        return space_index(value)
    except KeyError:
        raise EventFormatError(
            f"no space {value!r} on the board (columns a-e, rows 1-5)", field
        ) from None


def _spaces(values: list[Any], field: str) -> tuple[int, ...]:
    """A list of spaces, each named in the error by its index."""
    try:
        found = tuple(map(_SPACE_BY_EXACT_NAME.get, values))
    except TypeError:  # an unhashable value: the element-wise reading below names it
        found = (None,)
    if None not in found:
        return found  # type: ignore[return-value]
    return tuple(_space(s, f"{field}[{i}]") for i, s in enumerate(values))


def _color(value: Any, field: str) -> int:
    """A token colour by name (``red``, any case) or letter (``R``)."""
    try:
        return _COLOR_BY_EXACT_NAME[value]
    except (KeyError, TypeError):
        pass
    if not isinstance(value, str):
        raise EventFormatError(f"expected a colour name, got {value!r}", field)
    try:
        return color_index(value)
    except KeyError:
        raise EventFormatError(
            f"unknown colour {value!r} (one of {', '.join(COLOR_NAMES)})", field
        ) from None


def _colors(values: list[Any], field: str) -> tuple[int, ...]:
    """A list of colours, each named in the error by its index."""
    try:
        found = tuple(map(_COLOR_BY_EXACT_NAME.get, values))
    except TypeError:
        found = (None,)
    if None not in found:
        return found  # type: ignore[return-value]
    return tuple(_color(c, f"{field}[{i}]") for i, c in enumerate(values))


def _card_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in CARDS:
        raise EventFormatError(
            f"no Jewel card {value!r} in the catalogue (ids 1-01 .. 3-13)", field
        )
    return value


def _whole(value: Any, field: str, low: int, high: int, what: str) -> int:
    """A JSON whole number (not a bool, a float or a string) from ``low`` to ``high``."""
    if type(value) is not int:
        raise EventFormatError(f"expected a whole number, got {value!r}", field)
    if not low <= value <= high:
        raise EventFormatError(f"{value} is out of range ({what})", field)
    return value


def _player(value: Any, field: str) -> int:
    return _whole(value, field, 0, 1, "a player is 0 or 1")


def counts_from_dict(value: Any, field: str) -> Counts:
    """Token counts from an object of colour: count (each 0 to 25, zeros left out)."""
    if type(value) is not dict and not isinstance(value, Mapping):
        raise EventFormatError(f"expected an object of colour: count, got {value!r}", field)
    counts = [0] * 7
    get = _COLOR_BY_EXACT_NAME.get
    for key, n in value.items():
        c = get(key)
        if c is None:
            c = _color(key, f"{field}.{key}")
        if type(n) is not int or not 0 <= n <= 25:
            raise EventFormatError(f"expected a count from 0 to 25, got {n!r}", f"{field}.{key}")
        counts[c] += n
    return tuple(counts)  # type: ignore[return-value]


def _keys(*names: str) -> frozenset[str]:
    return frozenset(("type", *names))


_KEYS_SPACES = _keys("spaces")
_KEYS_SPACE = _keys("space")
_KEYS_PURCHASE = _keys("card", "payment")
_KEYS_CARD = _keys("card")
_KEYS_COLOR = _keys("color")
_KEYS_TOKENS = _keys("tokens")
_KEYS_RESERVE = _keys("gold", "card", "deck")
_KEYS_ROYAL = _keys("royal")
_KEYS_SETUP = _keys("first_player", "board", "pyramid", "privileges")
_KEYS_IDENTIFY = _keys("player", "card")
_KEYS_PLAYER = _keys("player")


def _tokens_taken(data: Mapping[str, Any]) -> TokensTaken:
    if data.keys() != _KEYS_SPACES:
        check_fields(data, _KEYS_SPACES, ("spaces",))
    spaces = data["spaces"]
    if not isinstance(spaces, list) or not spaces:
        raise EventFormatError("expected a non-empty list of spaces", "spaces")
    return TokensTaken(_spaces(spaces, "spaces"))


def _card_purchased(data: Mapping[str, Any]) -> CardPurchased:
    if data.keys() != _KEYS_PURCHASE:
        check_fields(data, _KEYS_PURCHASE, ("card", "payment"))
    return CardPurchased(
        _card_id(data["card"], "card"), counts_from_dict(data["payment"], "payment")
    )


def _privilege_spent(data: Mapping[str, Any]) -> PrivilegeSpent:
    if data.keys() != _KEYS_SPACE:
        check_fields(data, _KEYS_SPACE, ("space",))
    return PrivilegeSpent(_space(data["space"], "space"))


def _bonus_token_taken(data: Mapping[str, Any]) -> BonusTokenTaken:
    if data.keys() != _KEYS_SPACE:
        check_fields(data, _KEYS_SPACE, ("space",))
    return BonusTokenTaken(_space(data["space"], "space"))


def _card_reserved(data: Mapping[str, Any]) -> CardReserved:
    if not data.keys() <= _KEYS_RESERVE or "gold" not in data:
        check_fields(data, _KEYS_RESERVE, ("gold",))
    gold = _space(data["gold"], "gold")
    deck = data.get("deck")
    if deck is not None:
        deck = _whole(deck, "deck", 1, 3, "a deck is level 1, 2 or 3")
    card = data.get("card")
    if card is not None:
        card = _card_id(card, "card")
        if deck is not None and CARDS[card].level != deck:
            raise EventFormatError(f"card {card} is not a level-{deck} card", "card")
    elif deck is None:
        raise EventFormatError("a reserve names a pyramid card or a deck", "card")
    return CardReserved(gold, card, deck)


def _color_copied(data: Mapping[str, Any]) -> ColorCopied:
    if data.keys() != _KEYS_COLOR:
        check_fields(data, _KEYS_COLOR, ("color",))
    return ColorCopied(_color(data["color"], "color"))


def _token_stolen(data: Mapping[str, Any]) -> TokenStolen:
    if data.keys() != _KEYS_COLOR:
        check_fields(data, _KEYS_COLOR, ("color",))
    return TokenStolen(_color(data["color"], "color"))


def _royal_taken(data: Mapping[str, Any]) -> RoyalTaken:
    if data.keys() != _KEYS_ROYAL:
        check_fields(data, _KEYS_ROYAL, ("royal",))
    royal = data["royal"]
    if not isinstance(royal, str) or royal not in ROYALS:
        raise EventFormatError(f"no Royal card {royal!r} (R-1 .. R-4)", "royal")
    return RoyalTaken(royal)


def _tokens_discarded(data: Mapping[str, Any]) -> TokensDiscarded:
    if data.keys() != _KEYS_TOKENS:
        check_fields(data, _KEYS_TOKENS, ("tokens",))
    return TokensDiscarded(counts_from_dict(data["tokens"], "tokens"))


def _card_revealed(data: Mapping[str, Any]) -> CardRevealed:
    if data.keys() != _KEYS_CARD:
        check_fields(data, _KEYS_CARD, ("card",))
    return CardRevealed(_card_id(data["card"], "card"))


def _board_replenished(data: Mapping[str, Any]) -> BoardReplenished:
    if data.keys() != _KEYS_TOKENS:
        check_fields(data, _KEYS_TOKENS, ("tokens",))
    tokens = data["tokens"]
    if tokens is None:
        return BoardReplenished(None)
    if not isinstance(tokens, list):
        raise EventFormatError("expected a list of colours", "tokens")
    return BoardReplenished(_colors(tokens, "tokens"))


def _game_set_up(data: Mapping[str, Any]) -> GameSetUp:
    check_fields(data, _KEYS_SETUP, ("first_player", "board", "pyramid"))
    first = _player(data["first_player"], "first_player")
    board = data["board"]
    if not isinstance(board, list):
        raise EventFormatError("expected the 25 tokens in spiral order", "board")
    colors = _colors(board, "board")
    pyramid = data["pyramid"]
    if not isinstance(pyramid, Mapping):
        raise EventFormatError('expected {"1": [...], "2": [...], "3": [...]}', "pyramid")
    extra = sorted(set(pyramid) - {"1", "2", "3"}, key=str)
    if extra:
        raise EventFormatError("the pyramid has levels 1, 2 and 3", f"pyramid.{extra[0]}")
    rows = []
    for level in ("1", "2", "3"):
        cards = pyramid.get(level, [])
        if not isinstance(cards, list):
            raise EventFormatError("expected a list of card ids", f"pyramid.{level}")
        rows.append(tuple(_card_id(c, f"pyramid.{level}[{i}]") for i, c in enumerate(cards)))
    privileges = data.get("privileges")
    if privileges is not None:
        if not isinstance(privileges, list) or len(privileges) != 2:
            raise EventFormatError(
                "expected two whole numbers (the Privileges of each seat)", "privileges"
            )
        for i, n in enumerate(privileges):
            if type(n) is not int:
                raise EventFormatError(f"expected a whole number, got {n!r}", f"privileges[{i}]")
        privileges = (privileges[0], privileges[1])
    return GameSetUp(first, colors, (rows[0], rows[1], rows[2]), privileges)


def _card_identified(data: Mapping[str, Any]) -> CardIdentified:
    if data.keys() != _KEYS_IDENTIFY:
        check_fields(data, _KEYS_IDENTIFY, ("player", "card"))
    return CardIdentified(_player(data["player"], "player"), _card_id(data["card"], "card"))


def _player_resigned(data: Mapping[str, Any]) -> PlayerResigned:
    if data.keys() != _KEYS_PLAYER:
        check_fields(data, _KEYS_PLAYER, ("player",))
    return PlayerResigned(_player(data["player"], "player"))


_PARSERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "tokens_taken": _tokens_taken,
    "card_purchased": _card_purchased,
    "card_revealed": _card_revealed,
    "card_reserved": _card_reserved,
    "privilege_spent": _privilege_spent,
    "bonus_token_taken": _bonus_token_taken,
    "board_replenished": _board_replenished,
    "color_copied": _color_copied,
    "token_stolen": _token_stolen,
    "tokens_discarded": _tokens_discarded,
    "royal_taken": _royal_taken,
    "game_set_up": _game_set_up,
    "card_identified": _card_identified,
    "player_resigned": _player_resigned,
}


def event_from_dict(data: Any) -> Event | Retraction:
    """Build an event from its JSON form; EventFormatError names the offending field.

    Spaces may be named in any case and colours by name or letter; anything else that is
    not the form :func:`event_to_dict` writes is refused.
    """
    if type(data) is not dict and not isinstance(data, Mapping):
        raise EventFormatError(f"an event is a JSON object, got {type(data).__name__}")
    t: Any = data.get("type")
    try:
        parse = _PARSERS[t]
    except (KeyError, TypeError):
        if "type" not in data:
            raise EventFormatError("missing field", "type") from None
        if t == RETRACTION:  # a correction, the same in every game (engine.corrections)
            return retraction_from_dict(data)
        raise EventFormatError(
            f"unknown event type {t!r} (one of {', '.join(EVENT_TYPES)})", "type"
        ) from None
    return parse(data)


assert sum(PYRAMID_SIZES) == 12


#: Upcasters: ``UPCASTERS[v]`` turns a version-``v`` payload into a version ``v + 1`` one.
#: Stored payloads are never rewritten; old versions are brought up to date when read.
UPCASTERS: dict[int, Any] = {}


def upcast(payload: Mapping[str, Any], version: int) -> dict[str, Any]:
    """Bring a stored payload of ``version`` up to :data:`PAYLOAD_VERSION`."""
    if not isinstance(version, int) or not 1 <= version <= PAYLOAD_VERSION:
        raise EventFormatError(
            f"unknown payload version {version!r} (this tablelog reads 1..{PAYLOAD_VERSION})",
            "version",
        )
    data = dict(payload)
    while version < PAYLOAD_VERSION:
        data = UPCASTERS[version](data)
        version += 1
    return data
