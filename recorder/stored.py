"""Reading stored rows back: payloads (upcast to the current version, parsed by the game's
own parser) and the violations kept in an event's meta.  A row that cannot be read is a
:class:`recorder.errors.CorruptEvent` naming the game and the step."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.errors import EngineError, Rule, Violation
from engine.protocol import GameRules

from .errors import CorruptEvent


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
