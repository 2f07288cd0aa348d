"""The marshmallow schemas: every real payload passes; whatever the engine refuses to
parse, the schema refuses too, with a field path."""

from __future__ import annotations

import copy

import pytest
from conftest import simulated

from engine.errors import EventFormatError
from engine.splendor_duel import events as ev
from recorder import schemas

WEIRD = [None, -1, 0, 1, 4, 99, True, 2.5, "", "x", "C3", "R", "red", "1-01", [], ["c3"], {}]


def all_payloads() -> list[dict]:
    return [ev.event_to_dict(e) for seed in range(1, 6) for e in simulated(seed)]


def test_every_payload_of_real_games_is_valid():
    payloads = all_payloads()
    assert {p["type"] for p in payloads} >= {"game_set_up", "tokens_taken", "card_purchased"}
    for p in payloads:
        assert schemas.payload_errors("splendor-duel", p) is None, p


def test_every_event_type_has_a_schema():
    assert set(schemas.SPLENDOR_DUEL_PAYLOADS) == set(ev.EVENT_TYPES)


def engine_refuses(payload: object) -> bool:
    try:
        ev.event_from_dict(payload)
    except EventFormatError:
        return True
    except (TypeError, KeyError, ValueError, AttributeError):
        # The engine's parser lets a few odd values through as a plain TypeError (a list
        # as a royal id); the store treats those as refusals and asks the schema why.
        return True
    return False


def test_what_the_engine_cannot_parse_the_schema_refuses_with_a_path():
    seen_types = {}
    for p in all_payloads():
        seen_types.setdefault(p["type"], p)
    checked = 0
    for payload in seen_types.values():
        for key in list(payload):
            for value in WEIRD:
                mutated = copy.deepcopy(payload)
                mutated[key] = value
                if engine_refuses(mutated):
                    problem = schemas.payload_errors("splendor-duel", mutated)
                    assert problem is not None, mutated
                    assert problem[0].split(".")[0].split("[")[0] == key, (mutated, problem)
                    checked += 1
        extra = dict(payload, surprise=1)
        assert schemas.payload_errors("splendor-duel", extra) == ("surprise", "unknown field")
    assert checked > 100


@pytest.mark.parametrize(
    ("payload", "path", "words"),
    [
        ({"type": "card_purchased", "card": "1-01", "payment": {"red": 26}}, "payment.red",
         "0 to 25"),
        ({"type": "card_purchased", "card": "1-01", "payment": {"teal": 1}}, "payment.teal",
         "colour"),
        ({"type": "card_purchased", "card": "9-99", "payment": {}}, "card", "no Jewel card"),
        ({"type": "card_purchased", "payment": {}}, "card", "missing field"),
        ({"type": "tokens_discarded", "tokens": [1, 2]}, "tokens", "colour: count"),
        ({"type": "token_stolen", "color": "purple"}, "color", "unknown colour"),
        ({"type": "card_identified", "player": 2, "card": "1-01"}, "player", "out of range"),
        ({"type": "card_reserved", "gold": "a1"}, "card", "pyramid card or a deck"),
        ({"type": "card_reserved", "gold": "a1", "card": "1-01", "deck": 2}, "card", "level-2"),
        ({"type": "board_replenished", "tokens": ["red", "plaid"]}, "tokens[1]", "colour"),
        ({"type": "game_set_up", "first_player": 0, "board": [], "pyramid": {"1": ["x"]}},
         "pyramid.1[0]", "no Jewel card"),
        ([], "", "JSON object"),
        ({"spaces": ["c3"]}, "type", "missing field"),
    ],
)
def test_bad_payloads_name_the_field(payload, path, words):
    problem = schemas.payload_errors("splendor-duel", payload)
    assert problem is not None
    assert problem[0] == path
    assert words in problem[1]


def test_headers_and_meta():
    ok = {"players": ["Ann", "Bo"], "date": "2024-02-29", "tags": {"x": "y"}, "round": "2"}
    assert schemas.headers_errors(ok) is None
    assert schemas.headers_errors(dict(ok, date="2023-02-29"))[0] == "headers.date"
    assert schemas.headers_errors(dict(ok, players=["Ann", ""]))[0] == "headers.players[1]"
    assert schemas.headers_errors("Ann vs Bo") == ("headers", "expected a JSON object, got text")
    assert schemas.meta_errors({"comment": "ok", "annotations": ["!"]}) is None
    assert schemas.meta_errors({"annotations": "!"})[0] == "meta.annotations"
    assert schemas.meta_errors({"violations": []}) == ("meta.violations", "unknown field")
