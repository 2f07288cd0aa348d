"""marshmallow schemas for everything that crosses the store's boundary.

* :data:`PAYLOAD_SCHEMAS` — one schema per event type and game kind: the JSON form an event
  is stored in (unknown fields, wrong types and out-of-range values are refused);
* :class:`HeadersSchema` — a game's headers (players, date, place, event, result, tags and
  any other text keys);
* :class:`MetaSchema` — what a logger may attach to an event (a comment, annotations, the
  played-illegally flag);
* :class:`GameFileSchema` — the JSON game file (``"format": "tablelog-game"``).

Errors come back as ``(path, message)`` with a dotted path such as ``payment.red`` or
``headers.players[1]``.  The payload schemas accept exactly what the engine's
``event_from_dict`` accepts (space names in any case, colours by name or letter), so a file
and a library call are judged alike; the rules themselves (how many tokens, which card) are
the engine's business, not the schema's.  Because the two agree (tests/recorder/
test_schemas.py checks it both ways), the store validates payloads with the engine's fast
parser and asks the schema only to word the error of a payload the parser refuses.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from engine.games import GAMES
from engine.splendor_duel.catalogue import (
    CARDS,
    COLOR_LETTERS,
    COLOR_NAMES,
    ROYALS,
    SPACE_NAMES,
)

#: A game id given by a file or a caller: letters, digits, ``_`` and ``-``.
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: An event id given by a caller; never contains ``:``, which derived ids use.
EVENT_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")

FILE_FORMAT = "tablelog-game"
FILE_VERSION = 1
#: Payload version of the events in a game file, by file version.
FILE_PAYLOAD_VERSION = {1: 1}

_SPACES = frozenset(SPACE_NAMES)
_COLOR_NAMES = frozenset(COLOR_NAMES)
_COLOR_LETTERS = frozenset(COLOR_LETTERS)


# --- fields ----------------------------------------------------------------------------


class StrictInt(fields.Field):
    """A JSON integer (not a bool, a float or a string) within ``low``..``high``."""

    def __init__(self, low: int, high: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.low = low
        self.high = high

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError(f"expected a whole number, got {value!r}")
        if not self.low <= value <= self.high:
            raise ValidationError(f"{value} is out of range ({self.low} to {self.high})")
        return value


class WholeNumber(fields.Field):
    """A JSON integer of any size (not a bool, a float or a string)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError(f"expected a whole number, got {value!r}")
        return value


class StrictBool(fields.Field):
    """A JSON ``true`` or ``false`` (not 0, 1 or a string)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError(f"expected true or false, got {value!r}")
        return value


class Text(fields.Field):
    """A string of at most ``max_length`` characters (empty allowed unless ``min_length``)."""

    def __init__(self, max_length: int = 10_000, min_length: int = 0, **kwargs: Any):
        super().__init__(**kwargs)
        self.max_length = max_length
        self.min_length = min_length

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise ValidationError(f"expected text, got {value!r}")
        if len(value) < self.min_length:
            raise ValidationError("must not be empty")
        if len(value) > self.max_length:
            raise ValidationError(f"longer than {self.max_length} characters")
        return value


class Space(fields.Field):
    """A board space name, column a-e and row 1-5 (``c3``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise ValidationError(f"expected a space name such as 'c3', got {value!r}")
        if value.lower() not in _SPACES:
            raise ValidationError(f"no space {value!r} on the board (columns a-e, rows 1-5)")
        return value


def _is_color(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    if len(value) == 1:
        return value.upper() in _COLOR_LETTERS
    return value.lower() in _COLOR_NAMES


class Color(fields.Field):
    """A token colour by name (``red``) or letter (``R``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        if not _is_color(value):
            raise ValidationError(f"unknown colour {value!r} (one of {', '.join(COLOR_NAMES)})")
        return value


class CardId(fields.Field):
    """A Jewel card id from the catalogue (``1-01`` .. ``3-13``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str) or value not in CARDS:
            raise ValidationError(f"no Jewel card {value!r} in the catalogue (ids 1-01 .. 3-13)")
        return value


class RoyalId(fields.Field):
    """A Royal card id (``R-1`` .. ``R-4``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str) or value not in ROYALS:
            raise ValidationError(f"no Royal card {value!r} (R-1 .. R-4)")
        return value


class Counts(fields.Field):
    """Token counts by colour name, e.g. ``{"red": 2, "gold": 1}``; each 0 to 25."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict:
        if not isinstance(value, Mapping):
            raise ValidationError(f"expected an object of colour: count, got {value!r}")
        errors: dict[str, list[str]] = {}
        for key, n in value.items():
            if not _is_color(key):
                errors[str(key)] = [f"unknown colour {key!r} (one of {', '.join(COLOR_NAMES)})"]
            elif not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 25:
                errors[str(key)] = [f"expected a count from 0 to 25, got {n!r}"]
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        return dict(value)


class Pyramid(fields.Field):
    """The pyramid at setup: ``{"1": [card ids], "2": [...], "3": [...]}``."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict:
        if not isinstance(value, Mapping):
            raise ValidationError('expected {"1": [...], "2": [...], "3": [...]}')
        errors: dict[str, Any] = {}
        for level, cards in value.items():
            if level not in ("1", "2", "3"):
                errors[str(level)] = ["the pyramid has levels 1, 2 and 3"]
            elif not isinstance(cards, list):
                errors[level] = ["expected a list of card ids"]
            else:
                bad = {
                    i: [f"no Jewel card {c!r} in the catalogue (ids 1-01 .. 3-13)"]
                    for i, c in enumerate(cards)
                    if not isinstance(c, str) or c not in CARDS
                }
                if bad:
                    errors[level] = bad
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        return dict(value)


# --- Splendor Duel payloads ------------------------------------------------------------


class _Payload(Schema):
    type = fields.String(required=True)


class GameSetUpSchema(_Payload):
    first_player = StrictInt(0, 1, required=True)
    board = fields.List(Color(), required=True)
    pyramid = Pyramid(required=True)
    privileges = fields.List(WholeNumber(), validate=validate.Length(equal=2), allow_none=True)


class SpaceSchema(_Payload):
    space = Space(required=True)


class BoardReplenishedSchema(_Payload):
    tokens = fields.List(Color(), required=True, allow_none=True)


class TokensTakenSchema(_Payload):
    spaces = fields.List(
        Space(), required=True, validate=validate.Length(min=1, error="expected at least one space")
    )


class CardReservedSchema(_Payload):
    gold = Space(required=True)
    card = CardId(allow_none=True)
    deck = StrictInt(1, 3, allow_none=True)

    @validates_schema
    def _card_or_deck(self, data: dict, **kwargs: Any) -> None:
        card, deck = data.get("card"), data.get("deck")
        if card is None and deck is None:
            raise ValidationError("a reserve names a pyramid card or a deck", "card")
        if card is not None and deck is not None and CARDS[card].level != deck:
            raise ValidationError(f"card {card} is not a level-{deck} card", "card")


class CardPurchasedSchema(_Payload):
    card = CardId(required=True)
    payment = Counts(required=True)


class ColorSchema(_Payload):
    color = Color(required=True)


class RoyalTakenSchema(_Payload):
    royal = RoyalId(required=True)


class TokensDiscardedSchema(_Payload):
    tokens = Counts(required=True)


class CardRevealedSchema(_Payload):
    card = CardId(required=True)


class CardIdentifiedSchema(_Payload):
    player = StrictInt(0, 1, required=True)
    card = CardId(required=True)


class PlayerResignedSchema(_Payload):
    player = StrictInt(0, 1, required=True)


SPLENDOR_DUEL_PAYLOADS: dict[str, Schema] = {
    "game_set_up": GameSetUpSchema(),
    "privilege_spent": SpaceSchema(),
    "board_replenished": BoardReplenishedSchema(),
    "tokens_taken": TokensTakenSchema(),
    "card_reserved": CardReservedSchema(),
    "card_purchased": CardPurchasedSchema(),
    "color_copied": ColorSchema(),
    "bonus_token_taken": SpaceSchema(),
    "token_stolen": ColorSchema(),
    "royal_taken": RoyalTakenSchema(),
    "tokens_discarded": TokensDiscardedSchema(),
    "card_revealed": CardRevealedSchema(),
    "card_identified": CardIdentifiedSchema(),
    "player_resigned": PlayerResignedSchema(),
}

#: Payload schemas by game kind, then by event type.
PAYLOAD_SCHEMAS: dict[str, dict[str, Schema]] = {"splendor-duel": SPLENDOR_DUEL_PAYLOADS}


# --- headers, meta, the game file ------------------------------------------------------


def _iso_date(value: str) -> None:
    try:
        ok = len(value) == 10 and _dt.date.fromisoformat(value) is not None
    except ValueError:
        ok = False
    if not ok:
        raise ValidationError(f"expected a date as YYYY-MM-DD, got {value!r}")


class HeadersSchema(Schema):
    """A game's headers.  Keys other than the named ones are allowed when their value is
    text (``"round": "3"``)."""

    class Meta:
        unknown = INCLUDE

    players = fields.List(
        Text(max_length=100, min_length=1),
        required=True,
        validate=validate.Length(equal=2, error="expected two player names"),
    )
    date = Text(max_length=10, validate=_iso_date)
    place = Text(max_length=200)
    event = Text(max_length=200)
    result = Text(max_length=200)
    tags = fields.Dict(keys=Text(max_length=100, min_length=1), values=Text(max_length=1000))

    @validates_schema(pass_original=True)
    def _other_keys_are_text(self, data: dict, original: Any, **kwargs: Any) -> None:
        named = set(self.fields)
        errors = {}
        for key, value in original.items():
            if key in named:
                continue
            if not isinstance(value, str):
                errors[key] = [f"expected text, got {value!r}"]
            elif len(value) > 1000:
                errors[key] = ["longer than 1000 characters"]
        if errors:
            raise ValidationError(errors)


class MetaSchema(Schema):
    """What a logger attaches to an event; every key is optional."""

    comment = Text(max_length=10_000)
    annotations = fields.List(Text(max_length=200), validate=validate.Length(max=50))
    played_illegally = StrictBool()


class EventList(fields.Field):
    """A game file's list of events, taken as it is: each event is checked on its own (by
    the engine's parser, and :func:`meta_errors` for its meta), so the envelope does not
    walk the list a second time."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list:
        if not isinstance(value, list):
            raise ValidationError("expected a list of events")
        return value


class GameFileSchema(Schema):
    """The envelope of a JSON game file; each event is checked by :func:`event_errors`."""

    format = fields.String(
        required=True, validate=validate.Equal(FILE_FORMAT, error=f"expected {FILE_FORMAT!r}")
    )
    version = StrictInt(FILE_VERSION, FILE_VERSION, required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(
            sorted(GAMES), error="unknown game kind {input!r} (known: {choices})"
        ),
    )
    id = fields.String(
        validate=validate.Regexp(GAME_ID_RE, error="a game id is 1-64 letters, digits, '_' or '-'")
    )
    headers = fields.Nested(HeadersSchema, required=True)
    events = EventList(required=True)


_HEADERS = HeadersSchema()
_META = MetaSchema()
_FILE = GameFileSchema()


# --- error paths -----------------------------------------------------------------------


def first_error(messages: Any, prefix: str = "") -> tuple[str, str]:
    """The first ``(dotted path, message)`` of marshmallow's nested error messages."""
    if isinstance(messages, Mapping):
        for key, sub in messages.items():
            if key == "_schema":
                return first_error(sub, prefix)
            if isinstance(key, int):
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            return first_error(sub, path)
        return prefix, "invalid"
    if isinstance(messages, list) and messages:
        head = messages[0]
        if isinstance(head, str):
            return prefix, _sentence(head)
        return first_error(head, prefix)
    return prefix, _sentence(str(messages))


def _sentence(message: str) -> str:
    if message == "Unknown field.":
        return "unknown field"
    if message == "Missing data for required field.":
        return "missing field"
    if message == "Field may not be null.":
        return "may not be null"
    return message


def _load(schema: Schema, data: Any, prefix: str = "") -> tuple[str, str] | None:
    if not isinstance(data, Mapping):
        return prefix, f"expected a JSON object, got {_json_type(data)}"
    try:
        schema.load(data)
    except ValidationError as err:
        return first_error(err.messages, prefix)
    return None


def _json_type(value: Any) -> str:
    return {
        list: "a list",
        str: "text",
        int: "a number",
        float: "a number",
        bool: "true/false",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def payload_errors(kind: str, data: Any) -> tuple[str, str] | None:
    """The first problem of an event payload of game ``kind`` as ``(field, message)``,
    or None when the payload is well formed."""
    if not isinstance(data, Mapping):
        return "", f"an event is a JSON object, got {_json_type(data)}"
    schemas = PAYLOAD_SCHEMAS.get(kind)
    if schemas is None:
        return "", f"no payload schemas for game kind {kind!r}"
    t = data.get("type")
    if "type" not in data:
        return "type", "missing field"
    schema = schemas.get(t) if isinstance(t, str) else None
    if schema is None:
        return "type", f"unknown event type {t!r} (one of {', '.join(schemas)})"
    return _load(schema, data)


def headers_errors(data: Any) -> tuple[str, str] | None:
    """The first problem of a game's headers, with a path below ``headers``."""
    return _load(_HEADERS, data, "headers")


def meta_errors(data: Any) -> tuple[str, str] | None:
    """The first problem of an event's meta, with a path below ``meta``."""
    return _load(_META, data, "meta")


def file_errors(data: Any) -> tuple[str, str] | None:
    """The first problem of a game file's envelope (not its events)."""
    return _load(_FILE, data)
