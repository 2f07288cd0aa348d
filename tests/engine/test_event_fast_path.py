"""The short path of ``event_from_dict`` (canonical payloads) reads exactly what the full
parser reads, and leaves everything else to it."""

from __future__ import annotations

import copy
import random
from types import MappingProxyType

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EventFormatError
from engine.splendor_duel import simulate
from engine.splendor_duel.events import (
    _canonical_event,
    _event_from_any_dict,
    event_from_dict,
    event_to_dict,
)

PAYLOADS = [
    event_to_dict(e) for seed in range(12) for e in simulate.random_game(random.Random(seed))
]
ODD = [None, True, 0, 1, 3, 26, -1, 1.0, "", "C3", "c3", "z9", "RED", "red", "R", "1-01", "9-99"]
ODD += ["R-1", [], ["c3"], ["red"], {}, {"red": 1}, {"R": 1}, {"red": True}, {"red": 2.0}]


def full(payload: object) -> object:
    try:
        return _event_from_any_dict(payload)
    except EventFormatError as err:
        return ("refused", err.field)


def outcome(payload: object) -> object:
    try:
        return event_from_dict(payload)
    except EventFormatError as err:
        return ("refused", err.field)


def test_every_real_payload_takes_the_short_path_to_the_same_event():
    kinds = set()
    for payload in PAYLOADS:
        event = _canonical_event(payload)
        if event is None:
            # Left to the full parser: rare events, and a blind reserve whose card is known.
            rare = payload["type"] in ("game_set_up", "card_identified", "player_resigned")
            assert rare or set(payload) == {"type", "gold", "deck", "card"}, payload
            continue
        kinds.add(payload["type"])
        assert event == _event_from_any_dict(payload)
    assert len(kinds) >= 11


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(st.sampled_from(PAYLOADS[:400]), st.randoms(use_true_random=False))
def test_a_changed_payload_reads_the_same_both_ways(payload, rng):
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
    short = _canonical_event(p)
    assert short is None or short == _event_from_any_dict(p)
    assert outcome(p) == full(p)


def test_other_mappings_and_spellings_take_the_full_path():
    payload = {"type": "tokens_taken", "spaces": ["C3", "d3"]}
    assert _canonical_event(payload) is None
    assert event_from_dict(payload) == event_from_dict(
        {"type": "tokens_taken", "spaces": ["c3", "d3"]}
    )
    proxy = MappingProxyType({"type": "card_revealed", "card": "1-01"})
    assert event_from_dict(proxy) == _event_from_any_dict(proxy)
    assert _canonical_event({"type": "tokens_taken", "spaces": [["c3"]]}) is None
