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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..corrections import RETRACTION, Retraction, retraction_from_dict, retraction_to_dict
from ..errors import EventFormatError
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
    cls.type: cls  # type: ignore[attr-defined]
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
    if isinstance(event, Retraction):  # a correction: the same payload in every game
        return retraction_to_dict(event)
    raise EventFormatError(f"unknown event type {t!r}", "type")


# --- parsing the JSON form -------------------------------------------------------------


def _need(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise EventFormatError("missing field", key)
    return data[key]


def _space(value: Any, field: str) -> int:
    if not isinstance(value, str):
        raise EventFormatError(f"expected a space name such as 'c3', got {value!r}", field)
    try:
        return space_index(value)
    except KeyError:
        raise EventFormatError(
            f"no space {value!r} on the board (columns a-e, rows 1-5)", field
        ) from None


def _color(value: Any, field: str, *, gold: bool = True) -> int:
    if not isinstance(value, str):
        raise EventFormatError(f"expected a colour name, got {value!r}", field)
    try:
        c = color_index(value)
    except KeyError:
        raise EventFormatError(
            f"unknown colour {value!r} (one of {', '.join(COLOR_NAMES)})", field
        ) from None
    return c


def _card_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in CARDS:
        raise EventFormatError(
            f"no Jewel card {value!r} in the catalogue (ids 1-01 .. 3-13)", field
        )
    return value


def _player(value: Any, field: str) -> int:
    if type(value) is not int or value not in (0, 1):
        raise EventFormatError(f"a player is 0 or 1, got {value!r}", field)
    return int(value)


def counts_from_dict(value: Any, field: str) -> Counts:
    if not isinstance(value, Mapping):
        raise EventFormatError(f"expected an object of colour: count, got {value!r}", field)
    counts = [0] * 7
    for key, n in value.items():
        c = _color(key, f"{field}.{key}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 25:
            raise EventFormatError(f"expected a count from 0 to 25, got {n!r}", f"{field}.{key}")
        counts[c] += n
    return tuple(counts)  # type: ignore[return-value]


def _unknown_fields(data: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed - {"type"})
    if extra:
        raise EventFormatError("unknown field", extra[0])


# The canonical form (what event_to_dict writes) is read by a short path first; anything
# else, including every malformed payload, goes through the full parser below, which
# reads the same canonical payloads to the same events.  Imports parse ~150 payloads a
# game, and this halves their cost.
_SPACE_BY_EXACT_NAME = {name: i for i, name in enumerate(SPACE_NAMES)}
_COLOR_BY_EXACT_NAME = {name: i for i, name in enumerate(COLOR_NAMES)}
_KEYS_SPACES = frozenset(("type", "spaces"))
_KEYS_SPACE = frozenset(("type", "space"))
_KEYS_PURCHASE = frozenset(("type", "card", "payment"))
_KEYS_CARD = frozenset(("type", "card"))
_KEYS_COLOR = frozenset(("type", "color"))
_KEYS_TOKENS = frozenset(("type", "tokens"))
_KEYS_RESERVE_CARD = frozenset(("type", "gold", "card"))
_KEYS_RESERVE_DECK = frozenset(("type", "gold", "deck"))
_KEYS_ROYAL = frozenset(("type", "royal"))


def _canonical_counts(value: Any) -> Counts | None:
    if type(value) is not dict:
        return None
    counts = [0] * 7
    for key, n in value.items():
        c = _COLOR_BY_EXACT_NAME.get(key)
        if c is None or type(n) is not int or not 0 <= n <= 25:
            return None
        counts[c] = n
    return tuple(counts)  # type: ignore[return-value]


def _canonical_event(data: dict[str, Any]) -> Event | None:
    """The event of a payload in canonical form, or None to leave it to the full parser."""
    t = data.get("type")
    keys = data.keys()
    try:
        if t == "tokens_taken":
            if keys == _KEYS_SPACES:
                spaces = data["spaces"]
                if type(spaces) is list and spaces:
                    found = [_SPACE_BY_EXACT_NAME.get(s) for s in spaces]
                    if None not in found:
                        return TokensTaken(tuple(found))  # type: ignore[arg-type]
        elif t == "card_purchased":
            if keys == _KEYS_PURCHASE:
                card = data["card"]
                counts = _canonical_counts(data["payment"])
                if counts is not None and type(card) is str and card in CARDS:
                    return CardPurchased(card, counts)
        elif t == "card_revealed":
            if keys == _KEYS_CARD:
                card = data["card"]
                if type(card) is str and card in CARDS:
                    return CardRevealed(card)
        elif t == "card_reserved":
            gold = _SPACE_BY_EXACT_NAME.get(data.get("gold"))  # type: ignore[arg-type]
            if gold is not None:
                if keys == _KEYS_RESERVE_CARD:
                    card = data["card"]
                    if type(card) is str and card in CARDS:
                        return CardReserved(gold, card, None)
                elif keys == _KEYS_RESERVE_DECK:
                    deck = data["deck"]
                    if type(deck) is int and deck in (1, 2, 3):
                        return CardReserved(gold, None, deck)
        elif t == "privilege_spent" or t == "bonus_token_taken":
            if keys == _KEYS_SPACE:
                space = _SPACE_BY_EXACT_NAME.get(data["space"])
                if space is not None:
                    return (
                        PrivilegeSpent(space) if t == "privilege_spent" else BonusTokenTaken(space)
                    )
        elif t == "board_replenished":
            if keys == _KEYS_TOKENS:
                tokens = data["tokens"]
                if tokens is None:
                    return BoardReplenished(None)
                if type(tokens) is list:
                    colors = [_COLOR_BY_EXACT_NAME.get(c) for c in tokens]
                    if None not in colors:
                        return BoardReplenished(tuple(colors))  # type: ignore[arg-type]
        elif t == "color_copied" or t == "token_stolen":
            if keys == _KEYS_COLOR:
                color = _COLOR_BY_EXACT_NAME.get(data["color"])
                if color is not None:
                    return ColorCopied(color) if t == "color_copied" else TokenStolen(color)
        elif t == "tokens_discarded":
            if keys == _KEYS_TOKENS:
                counts = _canonical_counts(data["tokens"])
                if counts is not None:
                    return TokensDiscarded(counts)
        elif t == "royal_taken" and keys == _KEYS_ROYAL:
            royal = data["royal"]
            if type(royal) is str and royal in ROYALS:
                return RoyalTaken(royal)
    except TypeError:  # an unhashable value where a name belongs: the full parser says so
        return None
    return None


def event_from_dict(data: Any) -> Event | Retraction:
    """Build an event from its JSON form; EventFormatError names the offending field."""
    if type(data) is dict:
        event = _canonical_event(data)
        if event is not None:
            return event
    return _event_from_any_dict(data)


def _event_from_any_dict(data: Any) -> Event | Retraction:
    """The full parser: every accepted spelling, and the error for every malformed form."""
    if not isinstance(data, Mapping):
        raise EventFormatError(f"an event is a JSON object, got {type(data).__name__}")
    t = _need(data, "type")
    cls = EVENT_TYPES.get(t) if isinstance(t, str) else None
    if cls is None:
        if t == RETRACTION:  # a correction: the same payload in every game
            return retraction_from_dict(data)
        raise EventFormatError(
            f"unknown event type {t!r} (one of {', '.join(EVENT_TYPES)})", "type"
        )
    if t == "tokens_taken":
        _unknown_fields(data, {"spaces"})
        spaces = _need(data, "spaces")
        if not isinstance(spaces, list) or not spaces:
            raise EventFormatError("expected a non-empty list of spaces", "spaces")
        return TokensTaken(tuple(_space(s, f"spaces[{i}]") for i, s in enumerate(spaces)))
    if t == "card_purchased":
        _unknown_fields(data, {"card", "payment"})
        return CardPurchased(
            _card_id(_need(data, "card"), "card"),
            counts_from_dict(_need(data, "payment"), "payment"),
        )
    if t == "privilege_spent":
        _unknown_fields(data, {"space"})
        return PrivilegeSpent(_space(_need(data, "space"), "space"))
    if t == "bonus_token_taken":
        _unknown_fields(data, {"space"})
        return BonusTokenTaken(_space(_need(data, "space"), "space"))
    if t == "card_reserved":
        _unknown_fields(data, {"gold", "card", "deck"})
        gold = _space(_need(data, "gold"), "gold")
        deck = data.get("deck")
        if deck is not None and (type(deck) is not int or deck not in (1, 2, 3)):
            raise EventFormatError(f"a deck is level 1, 2 or 3, got {deck!r}", "deck")
        card = data.get("card")
        if card is not None:
            card = _card_id(card, "card")
        if card is None and deck is None:
            raise EventFormatError("a reserve names a pyramid card or a deck", "card")
        if card is not None and deck is not None and CARDS[card].level != deck:
            raise EventFormatError(f"card {card} is not a level-{deck} card", "card")
        return CardReserved(gold, card, deck)
    if t == "color_copied":
        _unknown_fields(data, {"color"})
        return ColorCopied(_color(_need(data, "color"), "color"))
    if t == "token_stolen":
        _unknown_fields(data, {"color"})
        return TokenStolen(_color(_need(data, "color"), "color"))
    if t == "royal_taken":
        _unknown_fields(data, {"royal"})
        royal = _need(data, "royal")
        if not isinstance(royal, str) or royal not in ROYALS:
            raise EventFormatError(f"no Royal card {royal!r} (R-1 .. R-4)", "royal")
        return RoyalTaken(royal)
    if t == "tokens_discarded":
        _unknown_fields(data, {"tokens"})
        return TokensDiscarded(counts_from_dict(_need(data, "tokens"), "tokens"))
    if t == "card_revealed":
        _unknown_fields(data, {"card"})
        return CardRevealed(_card_id(_need(data, "card"), "card"))
    if t == "board_replenished":
        _unknown_fields(data, {"tokens"})
        tokens = _need(data, "tokens")
        if tokens is None:
            return BoardReplenished(None)
        if not isinstance(tokens, list):
            raise EventFormatError("expected a list of colours", "tokens")
        return BoardReplenished(tuple(_color(c, f"tokens[{i}]") for i, c in enumerate(tokens)))
    if t == "game_set_up":
        _unknown_fields(data, {"first_player", "board", "pyramid", "privileges"})
        first = _player(_need(data, "first_player"), "first_player")
        board = _need(data, "board")
        if not isinstance(board, list):
            raise EventFormatError("expected the 25 tokens in spiral order", "board")
        colors = tuple(_color(c, f"board[{i}]") for i, c in enumerate(board))
        pyramid = _need(data, "pyramid")
        if not isinstance(pyramid, Mapping):
            raise EventFormatError('expected {"1": [...], "2": [...], "3": [...]}', "pyramid")
        extra = sorted(set(pyramid) - {"1", "2", "3"})
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
            if (
                not isinstance(privileges, list)
                or len(privileges) != 2
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in privileges)
            ):
                raise EventFormatError(
                    "expected [privileges of player 0, of player 1]", "privileges"
                )
            privileges = (privileges[0], privileges[1])
        return GameSetUp(first, colors, (rows[0], rows[1], rows[2]), privileges)
    if t == "card_identified":
        _unknown_fields(data, {"player", "card"})
        return CardIdentified(
            _player(_need(data, "player"), "player"), _card_id(_need(data, "card"), "card")
        )
    _unknown_fields(data, {"player"})
    return PlayerResigned(_player(_need(data, "player"), "player"))


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
