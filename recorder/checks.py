"""What a record holds besides its events, checked: a game's headers, an event's meta,
the ids a writer gives, and an event payload through its game's own parser.

Each check answers ``(dotted path, message)`` for the first problem it finds (a path such
as ``headers.players[1]`` or ``meta.annotations``), or None.  They are plain functions
because every import and every ``tablelog validate`` of a file in notation runs them:
the JSON file's envelope, which only JSON documents have, is the marshmallow schema of
:mod:`recorder.schemas`, and it hands the headers and each meta to these.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from typing import Any

from engine.errors import EventFormatError
from engine.games import UnknownGameKind, get_game
from engine.protocol import Seats, SeatsError

#: A game id given by a file or a caller: letters, digits, ``_`` and ``-``.
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")  # \Z: no newline after
#: An event id given by a caller; never contains ``:``, which derived ids use.
EVENT_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\Z")

FILE_FORMAT = "tablelog-game"
FILE_VERSION = 1
#: Payload version of the events in a game file, by file version.
FILE_PAYLOAD_VERSION = {1: 1}

Problem = tuple[str, str]

#: The headers with a meaning of their own, each at most this many characters (the
#: players and the tags are checked apart); any other header is text of at most
#: :data:`OTHER_HEADER_LENGTH` under a name of at most :data:`HEADER_NAME_LENGTH`.
NAMED_HEADERS = {"date": 10, "place": 200, "event": 200, "result": 200}
PLAYER_NAME_LENGTH = 100
TAG_NAME_LENGTH = 100
TAG_LENGTH = 1000
HEADER_NAME_LENGTH = 100
OTHER_HEADER_LENGTH = 1000
COMMENT_LENGTH = 10_000
ANNOTATION_LENGTH = 200
ANNOTATIONS = 50


def json_type(value: Any) -> str:
    """How a JSON value of the wrong type is named in a message."""
    return {
        list: "a list",
        str: "text",
        int: "a number",
        float: "a number",
        bool: "true/false",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def text_problem(value: Any, longest: int, *, empty: bool = True) -> str | None:
    """What is wrong with ``value`` as text of at most ``longest`` characters (empty
    allowed unless ``empty`` is False)."""
    if value is None:
        return "may not be null"
    if not isinstance(value, str):
        return f"expected text, got {value!r}"
    if not empty and not value:
        return "must not be empty"
    if len(value) > longest:
        return f"longer than {longest} characters"
    return None


def _list_problem(
    path: str, value: Any, what: str, longest: int, *, empty: bool = True
) -> Problem | None:
    """What is wrong with ``value`` as a list of texts (``what`` they are) of at most
    ``longest`` characters each, at ``path``."""
    if value is None:
        return path, "may not be null"
    if not isinstance(value, list):
        return path, f"expected a list of {what}, got {json_type(value)}"
    for i, item in enumerate(value):
        problem = text_problem(item, longest, empty=empty)
        if problem is not None:
            return f"{path}[{i}]", problem
    return None


def _date_problem(value: str) -> str | None:
    try:
        ok = len(value) == 10 and _dt.date.fromisoformat(value) is not None
    except ValueError:
        ok = False
    return None if ok else f"expected a date as YYYY-MM-DD, got {value!r}"


def headers_problem(data: Any, seats: Seats | None = None) -> Problem | None:
    """The first problem of a game's headers, with a path below ``headers``: the players
    (text, as many as the game's ``seats`` when given), a date as YYYY-MM-DD, the place,
    event and result as text, the tags as text by name, and any other header as text.

    >>> headers_problem({"players": ["Ann", ""]})
    ('headers.players[1]', 'must not be empty')
    >>> headers_problem({"players": ["Ann"]}, Seats(2, 2))
    ('headers.players', '1 player given; this game seats 2')
    """
    if not isinstance(data, Mapping):
        return "headers", f"expected a JSON object, got {json_type(data)}"
    if "players" not in data:
        return "headers.players", "missing field"
    players = data["players"]
    found = _list_problem("headers.players", players, "names", PLAYER_NAME_LENGTH, empty=False)
    if found is not None:
        return found
    for key, longest in NAMED_HEADERS.items():
        if key in data:
            problem = text_problem(data[key], longest)
            if problem is None and key == "date":
                problem = _date_problem(data[key])
            if problem is not None:
                return f"headers.{key}", problem
    if "tags" in data:
        found = _tags_problem(data["tags"])
        if found is not None:
            return found
    if seats is not None:
        try:
            seats.check(len(players))
        except SeatsError as err:
            return "headers.players", str(err)
    for key, value in data.items():
        if key == "players" or key == "tags" or key in NAMED_HEADERS:
            continue
        if len(str(key)) > HEADER_NAME_LENGTH:
            return (
                f"headers.{str(key)[:20]}…",
                f"a header name longer than {HEADER_NAME_LENGTH} characters",
            )
        if isinstance(value, str):
            problem = text_problem(value, OTHER_HEADER_LENGTH)
        else:
            problem = f"expected text, got {value!r}"
        if problem is not None:
            return f"headers.{key}", problem
    return None


def _tags_problem(tags: Any) -> Problem | None:
    if tags is None:
        return "headers.tags", "may not be null"
    if not isinstance(tags, Mapping):
        return "headers.tags", f"expected a JSON object, got {json_type(tags)}"
    for name, value in tags.items():
        problem = text_problem(name, TAG_NAME_LENGTH, empty=False)
        if problem is not None:
            return "headers.tags", f"a tag's name: {problem}"
        problem = text_problem(value, TAG_LENGTH)
        if problem is not None:
            return f"headers.tags.{name}", problem
    return None


def meta_problem(data: Any) -> Problem | None:
    """The first problem of what a logger attached to an event, with a path below
    ``meta``: a comment, annotations (at most 50 short texts), the played-illegally flag;
    nothing else.

    >>> meta_problem({"comment": "a fine move", "annotations": ["!"]}) is None
    True
    >>> meta_problem({"violations": []})
    ('meta.violations', 'unknown field')
    """
    if not isinstance(data, Mapping):
        return "meta", f"expected a JSON object, got {json_type(data)}"
    if "comment" in data:
        problem = text_problem(data["comment"], COMMENT_LENGTH)
        if problem is not None:
            return "meta.comment", problem
    if "annotations" in data:
        marks = data["annotations"]
        found = _list_problem("meta.annotations", marks, "texts", ANNOTATION_LENGTH)
        if found is not None:
            return found
        if len(marks) > ANNOTATIONS:
            return "meta.annotations", f"more than {ANNOTATIONS} annotations"
    if "played_illegally" in data:
        flag = data["played_illegally"]
        if flag is None:
            return "meta.played_illegally", "may not be null"
        if not isinstance(flag, bool):
            return "meta.played_illegally", f"expected true or false, got {flag!r}"
    for key in data:
        if key not in ("comment", "annotations", "played_illegally"):
            return f"meta.{key}", "unknown field"
    return None


def payload_problem(err: Exception) -> Problem:
    """``(field path, message)`` of a game parser's refusal of a payload (the path empty
    when the payload as a whole is wrong)."""
    if isinstance(err, EventFormatError):
        text = str(err)
        if err.field and text.startswith(err.field + ": "):
            text = text[len(err.field) + 2 :]
        return err.field or "", text
    return "", f"malformed event: {err}"


def payload_errors(kind: str, data: Any) -> Problem | None:
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
