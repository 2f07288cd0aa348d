"""Hypothesis fuzzing of the store's Python API with junk of the right types: every
method of the Recorder contract, called with strings holding anything (NUL, lone
surrogates, huge or empty), numbers out of every range and payloads, headers and meta of
any JSON, must answer or raise the store's own error (a StoreError), on SQLite and on
PostgreSQL, and leave the record verifying."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recorder import GameImport, StoreError

EXAMPLES = int(os.environ.get("TABLELOG_FUZZ_EXAMPLES", "60"))

#: Strings as hostile input carries them: any text, the characters stores cannot hold,
#: words the store knows, and sizes past its limits.
texts = st.one_of(
    st.text(max_size=12),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=6),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "\ud800",
            "a\udfffb",
            "splendor",
            "splendor-duel",
            "finished",
            "crowns",
            "newest",
            "2024-01-01",
            "known",
            "x" * 5000,
        ]
    ),
)
numbers = st.one_of(st.integers(-3, 300), st.sampled_from([-(2**63), 2**63, 10**30, -(10**30)]))
json_values = st.recursive(
    st.none() | st.booleans() | numbers | st.floats(allow_nan=False) | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)
json_objects = st.dictionaries(texts, json_values, max_size=4)
#: Headers: junk, or a game's with junk put in.
headers = st.one_of(
    json_objects,
    st.builds(
        lambda extra, players: {"players": players, **extra},
        json_objects,
        st.lists(texts, min_size=0, max_size=5),
    ),
)


def _payloads(data: st.DataObject, real: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game's payloads, some replaced by junk objects or with junk put in."""
    out = [dict(p) for p in real[: data.draw(st.integers(0, 8))]]
    for _ in range(data.draw(st.integers(0, 3))):
        if not out or data.draw(st.booleans()):
            out.append(data.draw(json_objects))
        else:
            i = data.draw(st.integers(0, len(out) - 1))
            out[i][data.draw(st.sampled_from([*out[i], "type"]))] = data.draw(json_values)
    return out


@pytest.mark.parametrize("seed", [0])
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_junk_of_the_right_types_gets_the_stores_own_error(recorder, seed, data) -> None:
    real = record(seed)
    known = "known"
    try:
        recorder.game(known)
    except StoreError:
        recorder.create_game({"players": ["Ann", "Bo"]}, game_id=known)
    game_ids = st.one_of(st.just(known), texts)
    calls = {
        "create_game": lambda: recorder.create_game(
            data.draw(headers), kind=data.draw(texts), game_id=data.draw(st.none() | texts)
        ),
        "import_game": lambda: recorder.import_game(
            GameImport(
                kind=data.draw(st.sampled_from(["splendor-duel"]) | texts),
                headers=data.draw(headers),
                events=_payloads(data, real.events),
                meta=data.draw(st.lists(st.none() | json_objects, max_size=4)),
                game_id=data.draw(st.none() | texts),
            )
        ),
        "append": lambda: recorder.append(
            data.draw(game_ids),
            data.draw(numbers),
            _payloads(data, real.events),
            data.draw(st.none() | st.lists(st.none() | json_objects, max_size=4)),
            data.draw(st.none() | st.lists(texts, max_size=4)),
        ),
        "game": lambda: recorder.game(data.draw(game_ids)),
        "events": lambda: recorder.events(data.draw(game_ids), data.draw(st.none() | numbers)),
        "state_at": lambda: recorder.state_at(data.draw(game_ids), data.draw(st.none() | numbers)),
        "listing.games": lambda: recorder.listing.games(
            player=data.draw(st.none() | texts),
            result=data.draw(st.none() | texts),
            date_from=data.draw(st.none() | texts),
            date_to=data.draw(st.none() | texts),
            limit=data.draw(numbers),
            offset=data.draw(numbers),
            order=data.draw(st.none() | texts),
            kind=data.draw(st.none() | texts),
        ),
        "listing.count": lambda: recorder.listing.count(
            player=data.draw(st.none() | texts),
            result=data.draw(st.none() | texts),
            kind=data.draw(st.none() | texts),
        ),
        "listing.player_stats": lambda: recorder.listing.player_stats(data.draw(texts)),
        "stored_content": lambda: recorder.stored_content(data.draw(game_ids)),
        "keys.issue": lambda: recorder.keys.issue(data.draw(game_ids)),
        "keys.matches": lambda: recorder.keys.matches(data.draw(game_ids), data.draw(texts)),
        "verification.step_hash": lambda: recorder.verification.step_hash(
            data.draw(game_ids), data.draw(st.none() | numbers)
        ),
        "verification.heads": lambda: recorder.verification.heads([data.draw(game_ids)]),
        "verification.verify": lambda: recorder.verification.verify([data.draw(game_ids)]),
    }
    name = data.draw(st.sampled_from(sorted(calls)))
    try:
        calls[name]()
    except StoreError:
        pass
    except Exception as err:  # noqa: BLE001 - what escapes is the finding
        raise AssertionError(f"{name} raised {type(err).__name__}: {err}") from err
    assert recorder.verification.verify() == []
