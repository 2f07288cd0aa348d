"""The marshmallow schema of a JSON game file's envelope (``"format": "tablelog-game"``):
its format, version, game kind, id, and that it has headers and a list of events.

Only a JSON document has an envelope; the headers, each event's meta and each payload
are checked by :mod:`recorder.checks` (for a file in notation too), so reading a game in
notation never imports marshmallow.  Errors come back as ``(path, message)`` with a
dotted path such as ``kind`` or ``version``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from engine.games import GAMES

from .checks import FILE_FORMAT, FILE_VERSION, GAME_ID_RE, json_type


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


class EventList(fields.Field[list[Any]]):
    """A game file's list of events, taken as it is: each event is checked on its own (by
    the engine's parser, and :func:`recorder.checks.meta_problem` for its meta), so the
    envelope does not walk the list a second time."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise ValidationError("expected a list of events")
        return value


class GameFileSchema(Schema):
    """The envelope of a JSON game file; its headers are checked by
    :func:`recorder.checks.headers_problem` against the game's seats, each event on its own."""

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
    headers = fields.Raw(required=True)
    events = EventList(required=True)


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


def file_errors(data: Any) -> tuple[str, str] | None:
    """The first problem of a game file's envelope (not its headers or events)."""
    if not isinstance(data, Mapping):
        return "", f"expected a JSON object, got {json_type(data)}"
    try:
        _FILE.load(data)
    except ValidationError as err:
        return first_error(err.messages)
    return None
