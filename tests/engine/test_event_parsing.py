"""``event_from_dict`` is one parser: the canonical form (what ``event_to_dict`` writes) and
every other form go through the same functions, so a payload reads the same whatever
mapping or spelling carries it, and a malformed one is refused with the same field."""

from __future__ import annotations

import copy
import random
from types import MappingProxyType

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EventFormatError
from engine.splendor_duel import simulate
from engine.splendor_duel.catalogue import COLOR_LETTERS, COLOR_NAMES
from engine.splendor_duel.events import event_from_dict, event_to_dict

PAYLOADS = [
    event_to_dict(e) for seed in range(12) for e in simulate.random_game(random.Random(seed))
]
ODD = [None, True, 0, 1, 3, 26, -1, 1.0, "", "C3", "c3", "z9", "RED", "red", "R", "1-01", "9-99"]
ODD += ["R-1", [], ["c3"], ["red"], {}, {"red": 1}, {"R": 1}, {"red": True}, {"red": 2.0}]
_LETTER = dict(zip(COLOR_NAMES, COLOR_LETTERS, strict=True))


def outcome(payload: object) -> object:
    try:
        return event_from_dict(payload)
    except EventFormatError as err:
        return ("refused", err.field)


def respelled(value: object) -> object:
    """The same value of a payload as a person might type it: spaces in capitals, colours
    as letters or in capitals (token counts' keys too), objects as read-only mappings."""
    if isinstance(value, dict):
        return MappingProxyType({respelled(k): respelled(v) for k, v in value.items()})
    if isinstance(value, list):
        return [respelled(v) for v in value]
    if isinstance(value, str) and value in _LETTER:
        return _LETTER[value] if len(value) % 2 else value.upper()
    if isinstance(value, str) and len(value) == 2 and value[0] in "abcde":
        return value.upper()
    return value


def test_every_real_payload_reads_back_to_its_event():
    kinds = set()
    for payload in PAYLOADS:
        event = event_from_dict(payload)
        assert event_to_dict(event) == payload
        kinds.add(payload["type"])
    assert len(kinds) >= 12


def test_every_real_payload_reads_the_same_in_any_accepted_spelling():
    for payload in PAYLOADS[:3000]:
        other = {key: respelled(value) for key, value in payload.items()}
        other["type"] = payload["type"]
        assert event_from_dict(MappingProxyType(other)) == event_from_dict(payload), other


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(st.sampled_from(PAYLOADS[:400]), st.randoms(use_true_random=False))
def test_a_changed_payload_reads_the_same_whatever_carries_it(payload, rng):
    p = copy.deepcopy(payload)
    key = rng.choice([*p, "extra"])
    if key == "type" or rng.random() < 0.2:
        p.pop(key, None)
    else:
        value = copy.deepcopy(rng.choice(ODD))
        target = p.get(key)
        if isinstance(target, list) and target and rng.random() < 0.5:
            target[rng.randrange(len(target))] = value
        elif isinstance(target, dict) and target and rng.random() < 0.5:
            target[rng.choice(list(target))] = value
        else:
            p[key] = value
    got = outcome(p)
    assert got == outcome(MappingProxyType(p))
    if isinstance(got, tuple):
        # Refused: the field named is the one changed, the type when the type went, or the
        # card when a reserve lost its deck (a reserve names a card or a deck).
        field = got[1] or ""
        named = {key, "type", "card"} if key == "deck" else {key, "type"}
        assert field.split(".")[0].split("[")[0] in named, (p, got)
    else:
        assert event_from_dict(event_to_dict(got)) == got  # type: ignore[arg-type]


def test_unhashable_values_where_names_belong_are_refused_with_the_field():
    for payload, field in [
        ({"type": "tokens_taken", "spaces": [["c3"]]}, "spaces[0]"),
        ({"type": "privilege_spent", "space": ["c3"]}, "space"),
        ({"type": "board_replenished", "tokens": ["red", {"x": 1}]}, "tokens[1]"),
        ({"type": "token_stolen", "color": {}}, "color"),
        ({"type": "royal_taken", "royal": ["R-1"]}, "royal"),
        ({"type": ["tokens_taken"], "spaces": ["c3"]}, "type"),
    ]:
        assert outcome(payload) == ("refused", field)
