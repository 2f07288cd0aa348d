"""The checks of a record: every real payload passes the game's own parser, which is the
one payload validator and names the field it refuses; headers fill the game's seats;
meta; a JSON file's envelope; and reading a game in notation needs no marshmallow."""

from __future__ import annotations

import copy

import pytest
from conftest import simulated
from hypothesis import given, settings
from hypothesis import strategies as st
from interpreter import modules_after

from engine.errors import EventFormatError
from engine.protocol import Seats
from engine.splendor_duel import events as ev
from recorder import checks, schemas

WEIRD = [None, -1, 0, 1, 4, 99, True, 2.5, "", "x", "C3", "R", "red", "1-01", [], ["c3"], {}]


def all_payloads() -> list[dict]:
    return [ev.event_to_dict(e) for seed in range(1, 6) for e in simulated(seed)]


def test_every_payload_of_real_games_is_valid():
    payloads = all_payloads()
    assert {p["type"] for p in payloads} >= {"game_set_up", "tokens_taken", "card_purchased"}
    for p in payloads:
        assert checks.payload_errors("splendor-duel", p) is None, p


def test_every_event_type_is_known_and_an_unknown_one_is_refused():
    for t in ev.EVENT_TYPES:
        problem = checks.payload_errors("splendor-duel", {"type": t})
        assert problem is None or problem[0] != "type", (t, problem)
    assert checks.payload_errors("splendor-duel", {"type": "dance"})[0] == "type"
    assert checks.payload_errors("chess", {"type": "move"})[1].startswith("unknown game kind")


def engine_refuses(payload: object) -> bool:
    try:
        ev.event_from_dict(payload)
    except EventFormatError:
        return True
    except (TypeError, KeyError, ValueError, AttributeError):
        # A plain TypeError from the parser counts as a refusal too (the store says so).
        return True
    return False


def test_what_the_engine_cannot_parse_is_refused_with_a_path():
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
                    problem = checks.payload_errors("splendor-duel", mutated)
                    assert problem is not None, mutated
                    assert problem[0].split(".")[0].split("[")[0] == key, (mutated, problem)
                    checked += 1
        extra = dict(payload, surprise=1)
        assert checks.payload_errors("splendor-duel", extra) == ("surprise", "unknown field")
    assert checked > 100


@pytest.mark.parametrize(
    ("payload", "path", "words"),
    [
        (
            {"type": "card_purchased", "card": "1-01", "payment": {"red": 26}},
            "payment.red",
            "0 to 25",
        ),
        (
            {"type": "card_purchased", "card": "1-01", "payment": {"teal": 1}},
            "payment.teal",
            "colour",
        ),
        ({"type": "card_purchased", "card": "9-99", "payment": {}}, "card", "no Jewel card"),
        ({"type": "card_purchased", "payment": {}}, "card", "missing field"),
        ({"type": "tokens_discarded", "tokens": [1, 2]}, "tokens", "colour: count"),
        ({"type": "token_stolen", "color": "purple"}, "color", "unknown colour"),
        ({"type": "card_identified", "player": 2, "card": "1-01"}, "player", "0 or 1"),
        ({"type": "card_reserved", "gold": "a1"}, "card", "pyramid card or a deck"),
        ({"type": "card_reserved", "gold": "a1", "card": "1-01", "deck": 2}, "card", "level-2"),
        ({"type": "board_replenished", "tokens": ["red", "plaid"]}, "tokens[1]", "colour"),
        (
            {"type": "game_set_up", "first_player": 0, "board": [], "pyramid": {"1": ["x"]}},
            "pyramid.1[0]",
            "no Jewel card",
        ),
        ([], "", "JSON object"),
        ({"spaces": ["c3"]}, "type", "missing field"),
    ],
)
def test_bad_payloads_name_the_field(payload, path, words):
    problem = checks.payload_errors("splendor-duel", payload)
    assert problem is not None
    assert problem[0] == path
    assert words in problem[1]


def test_headers_and_meta():
    ok = {"players": ["Ann", "Bo"], "date": "2024-02-29", "tags": {"x": "y"}, "round": "2"}
    assert checks.headers_problem(ok) is None
    assert checks.headers_problem(dict(ok, date="2023-02-29"))[0] == "headers.date"
    assert checks.headers_problem(dict(ok, players=["Ann", ""]))[0] == "headers.players[1]"
    assert checks.headers_problem("Ann vs Bo") == ("headers", "expected a JSON object, got text")
    assert checks.meta_problem({"comment": "ok", "annotations": ["!"]}) is None
    assert checks.meta_problem({"annotations": "!"})[0] == "meta.annotations"
    assert checks.meta_problem({"violations": []}) == ("meta.violations", "unknown field")


@pytest.mark.parametrize(
    ("headers", "problem"),
    [
        ({}, ("headers.players", "missing field")),
        ({"players": "Ann, Bo"}, ("headers.players", "expected a list of names, got text")),
        ({"players": ["Ann", 7]}, ("headers.players[1]", "expected text, got 7")),
        ({"players": ["Ann", "B" * 101]}, ("headers.players[1]", "longer than 100 characters")),
        ({"players": ["A"], "place": None}, ("headers.place", "may not be null")),
        (
            {"players": ["A"], "date": "2024-5-1"},
            ("headers.date", "expected a date as YYYY-MM-DD, got '2024-5-1'"),
        ),
        ({"players": ["A"], "tags": ["x"]}, ("headers.tags", "expected a JSON object, got a list")),
        (
            {"players": ["A"], "tags": {"": "x"}},
            ("headers.tags", "a tag's name: must not be empty"),
        ),
        ({"players": ["A"], "tags": {"table": 4}}, ("headers.tags.table", "expected text, got 4")),
        ({"players": ["A"], "round": None}, ("headers.round", "expected text, got None")),
        ({"players": ["A"], "round": "r" * 1001}, ("headers.round", "longer than 1000 characters")),
        (
            {"players": ["A"], "n" * 101: "x"},
            ("headers." + "n" * 20 + "…", "a header name longer than 100 characters"),
        ),
    ],
)
def test_a_bad_header_is_named_with_what_is_wrong(headers, problem):
    assert checks.headers_problem(headers) == problem


@pytest.mark.parametrize(
    ("meta", "problem"),
    [
        ([], ("meta", "expected a JSON object, got a list")),
        ({"comment": 3}, ("meta.comment", "expected text, got 3")),
        ({"annotations": ["!", None]}, ("meta.annotations[1]", "may not be null")),
        ({"annotations": ["!"] * 51}, ("meta.annotations", "more than 50 annotations")),
        ({"played_illegally": 1}, ("meta.played_illegally", "expected true or false, got 1")),
        ({"comment": "ok", "by": "Ann"}, ("meta.by", "unknown field")),
    ],
)
def test_a_bad_meta_is_named_with_what_is_wrong(meta, problem):
    assert checks.meta_problem(meta) == problem


def test_a_json_files_envelope_is_checked_by_its_schema():
    ok = {
        "format": "tablelog-game",
        "version": 1,
        "kind": "splendor-duel",
        "headers": {},
        "events": [],
    }
    assert schemas.file_errors(ok) is None  # the headers are checked apart, against the seats
    assert schemas.file_errors([]) == ("", "expected a JSON object, got a list")
    assert schemas.file_errors(dict(ok, version=2)) == ("version", "2 is out of range (1 to 1)")
    assert schemas.file_errors(dict(ok, kind="chess"))[1].startswith("unknown game kind 'chess'")
    assert schemas.file_errors(dict(ok, id="a b")) == (
        "id",
        "a game id is 1-64 letters, digits, '_' or '-'",
    )
    assert schemas.file_errors({k: v for k, v in ok.items() if k != "headers"}) == (
        "headers",
        "missing field",
    )
    assert schemas.file_errors(dict(ok, events={})) == ("events", "expected a list of events")


def test_reading_and_checking_a_game_in_notation_imports_no_marshmallow():
    # Every ``tablelog validate`` and import of a .tl file pays for what it imports;
    # marshmallow is for a JSON file's envelope alone.
    code = (
        "from recorder.validate import validate_file\n"
        "reports = list(validate_file('fixtures/games/points.tl'))\n"
        "assert reports and all(r.ok for r in reports), reports\n"
    )
    assert modules_after(code, "marshmallow") == []
    assert modules_after(code + "from recorder import schemas", "marshmallow")  # it can fail


def test_headers_fill_the_games_seats():
    three = {"players": ["Ann", "Bo", "Cy"]}
    assert checks.headers_problem(three) is None  # the seats are the game's to say
    assert checks.headers_problem(three, Seats(2, 2)) == (
        "headers.players",
        "3 players given; this game seats 2",
    )
    assert checks.headers_problem(three, Seats(2, 4)) is None
    assert checks.headers_problem({"players": ["Ann"]}, Seats(2, 4))[1].endswith("seats 2 to 4")


# --- payload_errors and the engine's parser refuse the same payloads ----------------------
#
# payload_errors asks the game's parser, so the two agree; what both accept, the engine
# writes back in a form that passes again.

ODD = [None, True, False, 0, 1, 2, 3, 4, -1, 25, 26, 1.0, 0.0, 2.0, 2.5, "", "c3", "C3"]
ODD += ["f6", "R-1", "R-9", "1-01", "2-01", "3-13", "9-99", "red", "R", "r", "Red", "gold"]
ODD += ["Y", "pearl", "teal", [], ["c3"], ["red", "blue"], {}, {"red": 1}, {"1": []}, "x", [1]]


def seed_payloads() -> list[dict]:
    """One real payload per event type and shape, plus the shapes random games rarely make."""
    seen: dict[tuple, dict] = {}
    for p in all_payloads():
        seen.setdefault((p["type"], tuple(sorted(p))), p)
    for extra in (
        {"type": "card_reserved", "gold": "a1", "deck": 2},
        {"type": "card_reserved", "gold": "a1", "deck": 1, "card": "1-01"},
        {"type": "board_replenished", "tokens": None},
        {"type": "card_identified", "player": 1, "card": "1-01"},
        {"type": "player_resigned", "player": 1},
    ):
        seen.setdefault((extra["type"], tuple(sorted(extra))), extra)
    return list(seen.values())


SEEDS = seed_payloads()


def paths(value: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for key, sub in value.items():
            out += paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            out += paths(sub, (*prefix, i))
    return out


def mutate(rng, payload: dict) -> dict:
    """The payload with one or two random changes anywhere in it: a value replaced by an
    odd one, a key dropped or added, a list repeated past its bounds."""
    p = copy.deepcopy(payload)
    for _ in range(rng.randint(1, 2)):
        where = rng.choice([q for q in paths(p) if q] or [()])
        if not where:
            p[rng.choice(["spaces", "card", "deck", "x"])] = copy.deepcopy(rng.choice(ODD))
            continue
        parent = p
        for key in where[:-1]:
            parent = parent[key]
        last = where[-1]
        roll = rng.random()
        if roll < 0.7:
            parent[last] = copy.deepcopy(rng.choice(ODD))
        elif roll < 0.8 and isinstance(parent, dict):
            del parent[last]
        elif roll < 0.9 and isinstance(parent[last], list):
            parent[last] = parent[last] * rng.randint(2, 30)
        elif isinstance(parent, dict):
            parent[rng.choice(["1", "2", "4", "red", "R", "gold", "deck", "card"])] = copy.deepcopy(
                rng.choice(ODD)
            )
    return p


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_payload_errors_and_the_engine_parser_refuse_the_same_payloads(seed, rng):
    payload = mutate(rng, seed)
    refused_by_engine = engine_refuses(payload)
    problem = checks.payload_errors("splendor-duel", payload)
    assert refused_by_engine == (problem is not None), (payload, problem)
    if not refused_by_engine:
        # What both accept, the engine writes back in a form the schema accepts too.
        assert (
            checks.payload_errors("splendor-duel", ev.event_to_dict(ev.event_from_dict(payload)))
            is None
        )


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "card_reserved", "gold": "a1", "deck": 2.0},
        {"type": "player_resigned", "player": 1.0},
        {"type": "game_set_up", "first_player": 0.0, "board": [], "pyramid": {}},
        {"type": "card_identified", "player": 1.0, "card": "1-01"},
    ],
)
def test_a_float_is_not_a_whole_number(payload):
    assert engine_refuses(payload)
    path, message = checks.payload_errors("splendor-duel", payload)
    assert path in payload and "got " in message


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "tokens_taken", "spaces": ["a1"] * 26},
        {"type": "board_replenished", "tokens": ["red"] * 26},
        {
            "type": "game_set_up",
            "first_player": 0,
            "board": [],
            "pyramid": {},
            "privileges": [4, -1],
        },
    ],
)
def test_counts_beyond_the_board_are_for_the_rules_to_refuse(payload):
    # Well formed; the rules refuse them with the rule broken (p.5 take up to 3 tokens...).
    assert not engine_refuses(payload)
    assert checks.payload_errors("splendor-duel", payload) is None
