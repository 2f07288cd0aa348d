"""The golden games in fixtures/games and the illegal logs in fixtures/illegal.

The sample games must be legal, canonical and, together, show every ability, both Royal
thresholds, each victory condition, a blind reserve later identified, a forced replenish,
a discard and an annotated dispute.  Each illegal log must be refused with its expected
violation code at its expected line, or accepted with the facts its expectation states,
and every row of the wrong rules summary (rules README) has a log.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from engine.splendor_duel import GAME, game
from engine.splendor_duel.catalogue import CARDS
from engine.splendor_duel.events import BoardReplenished, CardPurchased, CardReserved
from engine.splendor_duel.notation import ParsedGame, parse_game, write_game
from engine.splendor_duel.state import State

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "fixtures" / "games"
ILLEGAL = ROOT / "fixtures" / "illegal"
EXPECTED = json.loads((ILLEGAL / "expected.json").read_text(encoding="utf-8"))

#: The "wrong summary says" column of the table in the rules README.
WRONG_SUMMARY_ROWS = [
    "25 gem tokens, 5 of each colour",
    "take up to 3 gems in a line only if all different colours, or 2 of one colour",
    "take 1 gem plus 1 Gold",
    "reserve without taking Gold",
    "never more than 10 tokens at any time",
    "a Privilege immediately gives a gem",
    "claim a Royal card when your crowns reach the number printed on it",
    "colour victory: a bonus in all 5 colours plus a Pearl bonus",
    "a turn is exactly one action",
    "first player: nothing special",
]


@cache
def sample(name: str) -> ParsedGame:
    path = GAMES / name
    return parse_game(path.read_text(encoding="utf-8"), str(path))


SAMPLES = sorted(p.name for p in GAMES.glob("*.tl"))


def test_there_are_at_least_five_sample_games():
    assert len(SAMPLES) >= 5


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_game_is_legal_complete_and_canonical(name):
    parsed = sample(name)
    assert parsed.errors == []
    assert parsed.state.outcome is not None
    headers = parsed.headers
    assert headers["players"] and headers["date"] and headers["place"]
    text = (GAMES / name).read_text(encoding="utf-8")
    assert write_game(parsed.headers, parsed.events, parsed.meta) == text
    assert sum(1 for m in parsed.meta if m and m.get("comment")) >= 5


def _features(parsed: ParsedGame) -> set[str]:
    found: set[str] = set()
    state = State()
    for event, meta in zip(parsed.events, parsed.meta, strict=True):
        if isinstance(event, CardPurchased):
            found.update(f"ability:{a}" for a in CARDS[event.card].abilities)
            if event.card == "3-11":
                found.add("3-11")
        if event.type == "royal_taken":
            found.add(f"royal at crown threshold {state.player.royals_due}")
        if isinstance(event, BoardReplenished) and not game.mandatory_action_possible(state):
            found.add("forced replenish")
        if isinstance(event, CardReserved) and event.deck and event.card is None:
            found.add("blind reserve")
        if event.type == "card_identified":
            found.add("blind reserve identified")
        if event.type == "tokens_discarded":
            found.add("discard")
        if meta and "disputed" in (meta.get("annotations") or []):
            found.add("disputed")
        if meta and meta.get("played_illegally"):
            found.add("played illegally")
        GAME.force(state, event)
    found.add(f"victory:{state.outcome.condition}")
    return found


def test_the_sample_games_together_show_every_feature():
    found: set[str] = set()
    for name in SAMPLES:
        found |= _features(sample(name))
    wanted = {
        "ability:again",
        "ability:wild",
        "ability:token",
        "ability:privilege",
        "ability:steal",
        "3-11",
        "royal at crown threshold 1",
        "royal at crown threshold 2",
        "victory:points",
        "victory:crowns",
        "victory:color",
        "blind reserve",
        "blind reserve identified",
        "forced replenish",
        "discard",
        "disputed",
        "played illegally",
    }
    assert wanted <= found, wanted - found


def test_the_dispute_is_flagged_not_refused():
    parsed = sample("dispute.tl")
    [flag] = parsed.flagged
    assert [v.code for v in flag.violations] == ["take.not_a_line"]
    assert parsed.meta[flag.event_number - 1]["annotations"] == [
        "disputed",
        "ruling: stands as played",
    ]


# --- the illegal logs -------------------------------------------------------------------


def test_every_wrong_summary_row_has_a_log():
    rows = {e.get("summary_row") for e in EXPECTED.values()}
    assert set(WRONG_SUMMARY_ROWS) <= rows


def test_every_log_in_the_folder_has_an_expectation():
    files = {p.name for p in ILLEGAL.glob("*.tl")}
    assert files == {name for name in EXPECTED if not name.startswith("../")}


def _facts_of(state: State) -> dict[str, object]:
    o = state.outcome
    return {
        "awaiting": state.awaiting,
        "over": o is not None,
        "condition": None if o is None else o.condition,
        "bonus_colours_max": max(sum(1 for b in p.bonuses if b) for p in state.players),
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_log_is_refused_or_accepted_as_expected(name):
    expect = EXPECTED[name]
    path = (ILLEGAL / name).resolve()
    parsed = parse_game(path.read_text(encoding="utf-8"), name)
    if expect["verdict"] == "refused":
        assert parsed.errors, "expected a refusal"
        err = parsed.errors[0]
        assert err.kind == expect["kind"], str(err)
        if "code" in expect:
            assert expect["code"] in [v.code for v in err.violations], str(err)
        assert err.line == expect["line"], str(err)
        assert str(err).startswith(f"{name}:{err.line}:{err.column}: ")
        return
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    states = list(GAME.states(parsed.events)) if "after_event" in expect or "last" in expect else []
    for key, value in (expect.get("final") or {}).items():
        assert _facts_of(parsed.state)[key] == value, key
    for number, facts in (expect.get("after_event") or {}).items():
        after = states[int(number)]
        assert [p.token_count for p in after.players] == facts["token_counts"]
    last = expect.get("last")
    if last:
        before, after = states[-2], states[-1]
        assert [
            a.privileges - b.privileges for a, b in zip(after.players, before.players, strict=True)
        ] == last["privilege_delta"]
        assert [
            a.token_count - b.token_count
            for a, b in zip(after.players, before.players, strict=True)
        ] == last["token_delta"]


def test_the_accepted_wrong_summary_claims_hold():
    """Spelled out: 11 tokens during a turn is fine, three of a colour gives the opponent a
    Privilege, a Privilege gives no token, five bonus colours do not win."""
    eleven = EXPECTED["summary-eleven-tokens-accepted.tl"]["after_event"]
    assert max(max(f["token_counts"]) for f in eleven.values()) == 11
    assert EXPECTED["summary-three-of-a-colour.tl"]["last"]["privilege_delta"] == [1, 0]
    assert EXPECTED["summary-privilege-gives-no-gem.tl"]["last"]["token_delta"] == [0, 0]
    assert EXPECTED["summary-five-bonus-colours.tl"]["final"] == {
        "over": False,
        "bonus_colours_max": 5,
    }
