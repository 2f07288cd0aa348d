"""Reading stored rows back: payloads (upcast to the current version, parsed by the game's
own parser) and the violations kept in an event's meta.  A row that cannot be read is a
:class:`recorder.errors.CorruptEvent` naming the game and the step.

How an event's payload is kept (schema 9): its type as a number (``events.type``, the
type's code in ``event_types`` for the game's kind) and the rest of the payload in
``events.payload``, the payload without its type member; :func:`split_type` and
:func:`join_type` go from one to the other, and :data:`PAYLOAD` is the same join in SQL
(both SQLite and PostgreSQL read it), so every reader gets the payload byte for byte as
it was written (the chain hashes those bytes).  A payload that does not begin with its
type (none the engine writes) is kept whole, without a type number.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

from engine.errors import EngineError, Rule, Violation
from engine.protocol import GameRules

from .errors import CorruptEvent

#: A payload JSON text that begins with its type: ``{"type":"<name>"`` and ``,`` or ``}``.
_TYPED = re.compile(r'\{"type":"([A-Za-z0-9_]+)"[,}]')


def join_type(name: str, rest: str) -> str:
    """The payload JSON text of type ``name`` whose other members are the JSON object
    ``rest`` (:func:`split_type`'s inverse); ``rest`` itself when there is no name.

    >>> join_type("tokens_taken", '{"spaces":["c3"]}'), join_type("turn_passed", "{}")
    ('{"type":"tokens_taken","spaces":["c3"]}', '{"type":"turn_passed"}')
    """
    if not name:
        return rest
    return '{"type":"' + name + ('"}' if rest == "{}" else '",' + rest[1:])


def split_type(payload_json: str) -> tuple[str, str]:
    """(type, the rest) of a payload JSON text that begins with its type (a name of
    letters, digits and ``_``): the rest is the payload without its type member, a JSON
    object of its own; ``("", the payload)`` for any other text, kept whole.

    >>> split_type('{"type":"tokens_taken","spaces":["c3"]}')
    ('tokens_taken', '{"spaces":["c3"]}')
    >>> split_type('{"type":"turn_passed"}'), split_type('{"spaces":[],"type":"x"}')
    (('turn_passed', '{}'), ('', '{"spaces":[],"type":"x"}'))
    """
    found = _TYPED.match(payload_json)
    if found is not None:
        name = found.group(1)
        rest = "{" + payload_json[found.end() :] if payload_json[found.end() - 1] == "," else "{}"
        if join_type(name, rest) == payload_json:
            return name, rest
    return "", payload_json


def stored_payload(codes: Mapping[str, int], payload_json: str) -> tuple[int | None, str]:
    """(type, payload) as the events table keeps a payload JSON text: its type as its
    number in ``codes`` (the store's for the game's kind) and the rest of the payload, or
    no number and the whole payload when its type has none (see the module's text)."""
    name, rest = split_type(payload_json)
    code = codes.get(name) if name else None
    return (code, rest) if code is not None else (None, join_type(name, rest))


def pack_position(position: str) -> bytes:
    """A snapshot's position string as the snapshots table keeps it (schema 9): its UTF-8
    bytes deflated (raw DEFLATE, RFC 1951), about 60% of them."""
    return zlib.compress(position.encode(), 6, -15)


def unpack_position(packed: Any) -> str:
    """The position string a snapshot keeps (:func:`pack_position`); ValueError for one
    that does not unpack.

    >>> unpack_position(pack_position("...../..... W2 1-23,1-06"))
    '...../..... W2 1-23,1-06'
    """
    try:
        return zlib.decompress(bytes(packed), -15).decode()
    except (zlib.error, TypeError, UnicodeDecodeError) as err:
        raise ValueError(f"a snapshot that does not unpack: {err}") from None


#: The tables an event is read from: ``events AS e``, its game ``games AS g`` (the game's
#: id and kind) and its type ``event_types AS t`` (see :data:`PAYLOAD`).
EVENTS_OF_GAMES = (
    "events AS e JOIN games AS g ON g.no = e.game_no"
    " LEFT JOIN event_types AS t ON t.kind = g.kind AND t.code = e.type"
)

#: An event's payload JSON text as it was written (:func:`join_type` in SQL), from
#: :data:`EVENTS_OF_GAMES`: NULL for a type number the game's kind does not have.
PAYLOAD = (
    'CASE WHEN e.type IS NULL THEN e.payload ELSE \'{"type":"\' || t.name ||'
    " CASE e.payload WHEN '{}' THEN '\"}' ELSE '\",' || substr(e.payload, 2) END END"
)

#: A game's number (``games.no``, by which its events are kept) from its id (``?``).
GAME_NO = "(SELECT no FROM games WHERE id = ?)"


def violation_from_dict(data: Mapping[str, Any]) -> Violation:
    rule = data.get("rule") or {}
    return Violation(
        str(data.get("code", "")),
        str(data.get("message", "")),
        Rule(str(rule.get("section", "")), rule.get("page"), str(rule.get("source", "rulebook"))),
    )


#: Reads one JSON value from the start of a text: (value, where it ends).
_RAW_DECODE = json.JSONDecoder().raw_decode


def decode(game_id: str, seq: int, text: str, what: str) -> Any:
    """The value of a stored JSON text; :class:`CorruptEvent` when it is not JSON.

    A stored text is the store's own canonical JSON, so it is read as one value that ends
    where the text does, without ``json.loads``' checks around it (a third of the time,
    for every event a replay reads); anything else (spaces around it, something after
    it, not JSON at all) goes through ``json.loads``, which reads it or says why not."""
    try:
        value, end = _RAW_DECODE(text)
    except (TypeError, ValueError):
        pass
    else:
        if end == len(text):
            return value
    try:
        return json.loads(text)
    except (TypeError, ValueError) as err:
        raise CorruptEvent(game_id, seq, f"stored {what} is not valid JSON: {err}") from None


def parse_stored(
    game_id: str, seq: int, rules: GameRules, text: str, version: int, current: int
) -> Any:
    payload = decode(game_id, seq, text, "payload")
    try:
        if version != current:
            payload = rules.upcast(payload, version)
        return rules.event_from_dict(payload)
    except EngineError as err:
        raise CorruptEvent(game_id, seq, f"stored payload cannot be read: {err}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise CorruptEvent(game_id, seq, f"stored payload cannot be read: {err}") from None
