"""Corrections in classic Splendor's notation: ``undo`` and ``undo to K`` read with the
game's events, written where they happened, and read back to the same game."""

from __future__ import annotations

import random

import pytest

from engine.corrections import Retraction
from engine.fold import fold
from engine.games import get_game
from engine.splendor import simulate

RULES = get_game("splendor")
NAMES = ["Ann", "Bert", "Cid"]


def _game(seed: int = 4, steps: int = 12) -> list:
    return simulate.random_game(random.Random(seed), players=3)[:steps]


def test_undo_is_read_with_the_games_events_and_written_back() -> None:
    events = _game()
    state = fold(RULES, events, NAMES).head
    move = RULES.legal_move_texts(state)[0]
    read = RULES.read_moves(state, f"{move} undo", events, [None] * len(events))
    assert not read.errors, read.errors
    assert len(read.events) == 2 and isinstance(read.events[1], Retraction)
    assert read.events[1].back_to == len(events)
    assert RULES.position(read.state) == RULES.position(state)  # back where it was
    whole = [*events, *read.events]
    text = RULES.write_game({"players": NAMES}, whole)
    assert f"{move} undo" in text
    again = RULES.read_game(text)
    assert not again.errors and again.events == whole
    assert RULES.write_game(again.headers, again.events) == text


def test_undo_to_a_step_and_its_refusals() -> None:
    events = _game()
    state = fold(RULES, events, NAMES).head
    back = RULES.read_moves(state, "undo to 3 {misdealt}", events, None)
    assert not back.errors and back.events == [Retraction(3)]
    assert back.meta == [{"comment": "misdealt"}]
    assert RULES.position(back.state) == RULES.position(fold(RULES, events[:3], NAMES).head)
    text = RULES.write_game({"players": NAMES}, [*events, *back.events], [None] * 12 + back.meta)
    assert "undo to 3 {misdealt}" in text
    for bad, words in [
        ("undo to 40", "cannot stand here"),
        ("undo sideways", "expected undo, or undo to STEP"),
        ("undo !illegal", "cannot be marked !illegal"),
    ]:
        refused = RULES.read_moves(state, bad, events, None)
        assert refused.errors and words in str(refused.errors[0]), (bad, refused.errors)
    alone = RULES.read_moves(state, "undo", None, None)
    assert "read with the game's events" in str(alone.errors[0])


@pytest.mark.parametrize("seed", range(3))
def test_a_logged_game_with_corrections_exports_and_reimports_the_same(tmp_path, seed) -> None:
    from recorder import EventStore
    from recorder.io import load_text
    from recorder.logbook import log, new_game, undo

    events = _game(seed, 1)
    setup = RULES.write_game({"players": NAMES}, events)
    with EventStore.open(tmp_path / "c.db") as store:
        game = new_game(store, setup)
        rng = random.Random(seed)
        undos = 0
        for turn in range(10):
            state = store.state_at(game)
            log(store, game, rng.choice(RULES.legal_move_texts(state)))
            if turn % 3 == 1:
                undo(store, game)
                undos += 1
        _, headers, stored = store.stored_content(game)
        text = RULES.write_game(headers, [e.event for e in stored], [e.meta for e in stored])
        assert text.count(" undo") == undos
        (record,) = load_text(text, "again.tl")
        assert record.events == [RULES.event_to_dict(e.event) for e in stored]
    with EventStore.open(tmp_path / "again.db") as other:
        copy = other.import_game(record).game_id
        assert RULES.position(other.state_at(copy)) == RULES.position(
            fold(RULES, [e.event for e in stored], NAMES).head
        )
