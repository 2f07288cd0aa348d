"""marshmallow schemas for everything that crosses the store's boundary.

* :func:`payload_errors` — an event payload, judged by the game's own parser
  (``rules.event_from_dict``, the one payload parser: unknown fields, wrong types and
  out-of-range values are refused with the field named);
* :class:`HeadersSchema` — a game's headers (players, as many as the game seats, date,
  place, event, result, tags and any other text keys);
* :class:`MetaSchema` — what a logger may attach to an event (a comment, annotations, the
  played-illegally flag);
* :class:`GameFileSchema` — the JSON game file (``"format": "tablelog-game"``).

Errors come back as ``(path, message)`` with a dotted path such as ``payment.red`` or
``headers.players[1]``.  The rules themselves (how many tokens, which card) are the
engine's business, not the schemas'.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from engine.errors import EventFormatError
from engine.games import GAMES, UnknownGameKind, get_game
from engine.protocol import Seats, SeatsError

#: A game id given by a file or a caller: letters, digits, ``_`` and ``-``.
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")  # \Z: no newline after
#: An event id given by a caller; never contains ``:``, which derived ids use.
EVENT_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\Z")

FILE_FORMAT = "tablelog-game"
FILE_VERSION = 1
#: Payload version of the events in a game file, by file version.
FILE_PAYLOAD_VERSION = {1: 1}


# --- fields ----------------------------------------------------------------------------


class StrictInt(fields.Field[int]):
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


class StrictBool(fields.Field[bool]):
    """A JSON ``true`` or ``false`` (not 0, 1 or a string)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError(f"expected true or false, got {value!r}")
        return value


class Text(fields.Field[str]):
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

    players = fields.List(Text(max_length=100, min_length=1), required=True)
    date = Text(max_length=10, validate=_iso_date)
    place = Text(max_length=200)
    event = Text(max_length=200)
    result = Text(max_length=200)
    tags = fields.Dict(keys=Text(max_length=100, min_length=1), values=Text(max_length=1000))

    def __init__(self, seats: Seats | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        #: The game's seats, when known: the players must fill them.
        self.seats = seats

    @validates_schema
    def _as_many_players_as_seats(self, data: dict[str, Any], **kwargs: Any) -> None:
        players = data.get("players")
        if self.seats is not None and isinstance(players, list):
            try:
                self.seats.check(len(players))
            except SeatsError as err:
                raise ValidationError(str(err), "players") from None

    @validates_schema(pass_original=True)
    def _other_keys_are_text(self, data: dict[str, Any], original: Any, **kwargs: Any) -> None:
        named = set(self.fields)
        errors: dict[str, list[str]] = {}
        for key, value in original.items():
            if key in named:
                continue
            if len(key) > 100:
                errors[key[:20] + "…"] = ["a header name longer than 100 characters"]
            elif not isinstance(value, str):
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


class EventList(fields.Field[list[Any]]):
    """A game file's list of events, taken as it is: each event is checked on its own (by
    the engine's parser, and :func:`meta_errors` for its meta), so the envelope does not
    walk the list a second time."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
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


def payload_problem(err: Exception) -> tuple[str, str]:
    """``(field path, message)`` of a game parser's refusal of a payload (the path empty
    when the payload as a whole is wrong)."""
    if isinstance(err, EventFormatError):
        text = str(err)
        if err.field and text.startswith(err.field + ": "):
            text = text[len(err.field) + 2 :]
        return err.field or "", text
    return "", f"malformed event: {err}"


def payload_errors(kind: str, data: Any) -> tuple[str, str] | None:
    """The first problem of an event payload of game ``kind`` as ``(field, message)``,
    or None when the payload is well formed: the game's own parser judges it."""
    try:
        rules = get_game(kind)
    except UnknownGameKind as err:
        return "", str(err.args[0])
    try:
        rules.event_from_dict(data)
    except (EventFormatError, TypeError, ValueError, KeyError, AttributeError) as err:
        return payload_problem(err)
    return None


def headers_errors(data: Any, seats: Seats | None = None) -> tuple[str, str] | None:
    """The first problem of a game's headers, with a path below ``headers``; with the
    game's ``seats``, the players must fill them."""
    schema = _HEADERS if seats is None else _headers_for(seats)
    return _load(schema, data, "headers")


_HEADERS_BY_SEATS: dict[Seats, HeadersSchema] = {}


def _headers_for(seats: Seats) -> HeadersSchema:
    schema = _HEADERS_BY_SEATS.get(seats)
    if schema is None:
        schema = _HEADERS_BY_SEATS[seats] = HeadersSchema(seats)
    return schema


def meta_errors(data: Any) -> tuple[str, str] | None:
    """The first problem of an event's meta, with a path below ``meta``."""
    return _load(_META, data, "meta")


def file_errors(data: Any) -> tuple[str, str] | None:
    """The first problem of a game file's envelope (not its events)."""
    return _load(_FILE, data)
