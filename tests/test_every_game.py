"""What every registered game must do through the contract alone, run for each game the
registry finds (the built-in ones and any installed by entry point): seeded random games
written, read back and written again unchanged; every step's decisions the same through
the notation, the choices a page taps and the rules; positions, pictures and the table
as text; and the commands a club runs (validate, import, export, verify) on a real file.

A new game passes this file before anything game-specific is written for it."""

from __future__ import annotations

import inspect
import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from engine.contract import Game
from engine.games import GAMES, get_game
from engine.protocol import GameRules
from recorder.stores import open_store

KINDS = sorted(GAMES)
#: Games a kind: enough to meet every decision family, few enough for every registered game.
GAMES_A_KIND = 12
TABLELOG = [str(Path(sys.executable).with_name("tablelog"))]


def _names(rules, seed: int) -> list[str]:
    """Seat names for a table of a size the game allows, varying with ``seed``."""
    seats = rules.seats
    count = seats.minimum + seed % (seats.maximum - seats.minimum + 1)
    return ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:count]


@cache
def _random_games(kind: str) -> tuple[tuple[tuple[str, ...], tuple], ...]:
    rules = get_game(kind)
    out = []
    for seed in range(GAMES_A_KIND):
        names = _names(rules, seed)
        out.append((tuple(names), tuple(rules.random_game(random.Random(seed), names))))
    return tuple(out)


def _headers(names, seed: int) -> dict:
    return {"players": list(names), "date": f"2025-03-{1 + seed:02d}", "event": f"Round {seed}"}


@pytest.mark.parametrize("kind", KINDS)
def test_random_games_are_finished_and_round_trip_through_the_notation(kind):
    rules = get_game(kind)
    for seed, (names, events) in enumerate(_random_games(kind)):
        events = list(events)
        head = rules.fold(events, names).head
        assert rules.status(head).result is not None, (kind, seed, "a random game ends")
        text = rules.write_game(_headers(names, seed), events)
        parsed = rules.read_game(text, f"{kind}-{seed}.tl")
        assert parsed.errors == [], (kind, seed, str(parsed.errors[:1]))
        assert parsed.events == events, (kind, seed)
        assert parsed.names == names
        assert rules.write_game(parsed.headers, parsed.events, parsed.meta) == text, (kind, seed)


@pytest.mark.parametrize("kind", KINDS)
def test_every_step_offers_the_same_decisions_to_every_layer(kind):
    """The notation's legal texts, the choices a page taps and the rules' verdicts agree
    at each step of a game; positions and the played decisions' texts read back."""
    rules = get_game(kind)
    for seed, (names, events) in enumerate(_random_games(kind)[:4]):
        fold = rules.fold([], names)
        for n, event in enumerate(events, 1):
            state = fold.head
            if n > 1:  # after the setup: a table a page can draw and a player can read
                texts = rules.legal_move_texts(state)
                assert [c.text for c in rules.choices(state)] == texts, (kind, seed, n)
                for text in texts[:40]:
                    verdict = rules.check_move(state, text)
                    assert verdict.legal, (kind, seed, n, text, verdict.to_dict())
                written = rules.move_text(state, event)
                assert rules.parse_move(state, written) == event, (kind, seed, n, written)
                position = rules.position(state)
                assert rules.position(rules.parse_position(position)) == position, (kind, n)
            fold.push(event)
        assert fold.step == len(events)


@pytest.mark.parametrize("kind", KINDS)
def test_every_step_is_drawn_and_told(kind):
    rules = get_game(kind)
    names, events = _random_games(kind)[1]
    states = [rules.fold(list(events[:n]), names).head for n in range(1, len(events) + 1)]
    for n in (0, len(states) // 2, len(states) - 1):
        state = states[n]
        before = states[n - 1] if n else None
        view = rules.view(state, before)
        seats = [p["seat"] for p in view["players"]]
        assert seats == list(range(len(names))), (kind, n)
        assert [p["name"] for p in view["players"]] == list(names)
        svg = ET.fromstring(rules.picture(state, before, "heading"))
        assert svg.tag.endswith("svg"), (kind, n)
        lines = rules.text_view(state, compact=True).splitlines()
        assert 0 < len(lines) <= 19 and max(map(len, lines)) <= 80, (kind, n)
        json.dumps(rules.state_json(state))
        if before is not None:
            assert rules.event_lines(before, events[n], state), (kind, n)
    result = rules.status(states[-1]).result
    assert result is not None and result.text
    for card_id in list(rules.cards())[:: max(1, len(rules.cards()) // 10)]:
        assert rules.card_view(card_id), (kind, card_id)


@pytest.mark.parametrize("kind", KINDS)
def test_every_member_a_game_places_takes_the_contracts_arguments(kind):
    """Each function a game names in ``members`` is found where it is placed and can be
    called as the contract calls the member (its arguments, without ``self``)."""
    rules = get_game(kind)
    placed = {name for layer in type(rules).__mro__ for name in vars(layer).get("members", {})}
    assert placed, kind
    for name in sorted(placed):
        declared = getattr(GameRules, name, None) or getattr(Game, name)
        wanted = list(inspect.signature(declared).parameters.values())[1:]
        found = getattr(rules, name)
        assert callable(found), (kind, name)
        assert isinstance(inspect.getattr_static(type(rules), name), staticmethod), (kind, name)
        positional = [p.name for p in wanted if p.kind is p.POSITIONAL_OR_KEYWORD]
        keywords = {p.name: p.default for p in wanted if p.kind is p.KEYWORD_ONLY}
        inspect.signature(found).bind(*positional, **keywords)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_commands_validate_import_export_and_verify_every_game(
    kind, backend, tmp_path, request
):
    """A club's round: files written by the game's writer validate, import into a real
    store (an SQLite file; a PostgreSQL database), export byte-identical and verify,
    through the installed command line."""
    rules = get_game(kind)
    folder = tmp_path / "games"
    folder.mkdir()
    written = {}
    for seed, (names, events) in enumerate(_random_games(kind)[:4]):
        text = rules.write_game(_headers(names, seed), list(events))
        path = folder / f"{kind}-{seed}.tl"
        path.write_text(text, encoding="utf-8")
        written[seed] = text
    db = str(tmp_path / "club.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    env = {**os.environ, "TABLELOG_DB": db}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*TABLELOG, *args], capture_output=True, text=True, env=env, cwd=Path(__file__).parent
        )
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
        return done

    said = run("validate", str(folder)).stdout.splitlines()
    assert len(said) >= 4 and all(": ok, " in line for line in said[:4]), said
    run("import", str(folder))
    with open_store(db) as store:
        rows = store.listing.games(limit=100)
    assert len(rows) == 4 and {r.kind for r in rows} == {kind}
    by_round = {int(r.headers["event"].split()[-1]): r.id for r in rows}
    for seed, text in written.items():
        assert run("export", by_round[seed]).stdout == text, (kind, seed)
    run("verify")
    listed = run("games", "--kind", kind).stdout
    assert all(game_id[:8] in listed for game_id in by_round.values())
