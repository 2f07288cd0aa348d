"""The JSON form of events: round trip, and malformed payloads refused with the field."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EventFormatError
from engine.splendor_duel import simulate
from engine.splendor_duel.events import EVENT_TYPES, event_from_dict, event_to_dict


def test_every_event_of_seeded_games_round_trips_through_json():
    for seed in range(20):
        for event in simulate.random_game(random.Random(seed)):
            assert event_from_dict(event_to_dict(event)) == event


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"type": "royal_taken", "royal": ["R-1"]}, "royal"),
        ({"type": "royal_taken", "royal": "R-9"}, "royal"),
        ({"type": "tokens_taken", "spaces": ["c3", "f9"]}, "spaces[1]"),
        ({"type": "tokens_taken", "spaces": "c3"}, "spaces"),
        ({"type": "card_purchased", "card": "1-01", "payment": {"blue": -1}}, "payment.blue"),
        ({"type": "card_purchased", "card": "4-01", "payment": {}}, "card"),
        ({"type": "card_reserved", "gold": "a1", "deck": 4}, "deck"),
        ({"type": "tokens_taken", "spaces": ["c3"], "extra": 1}, "extra"),
        ({"type": "privilege_spent"}, "space"),
        ({"type": "player_resigned", "player": True}, "player"),
        ({"type": "nonsense"}, "type"),
    ],
)
def test_a_malformed_payload_names_its_field(payload, field):
    with pytest.raises(EventFormatError) as err:
        event_from_dict(payload)
    assert err.value.field == field


_scalars = (
    st.none() | st.booleans() | st.integers(-5, 30) | st.sampled_from(["c3", "R-1", "1-01", "red"])
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.sampled_from(sorted(EVENT_TYPES)),
    st.dictionaries(
        st.sampled_from(
            [
                "spaces",
                "space",
                "card",
                "payment",
                "gold",
                "deck",
                "color",
                "royal",
                "tokens",
                "player",
                "first_player",
                "board",
                "pyramid",
                "privileges",
            ]
        ),
        _json,
        max_size=5,
    ),
)
def test_any_json_either_parses_or_raises_an_event_format_error(kind, fields):
    try:
        event = event_from_dict({"type": kind, **fields})
    except EventFormatError:
        return
    assert event.type == kind
