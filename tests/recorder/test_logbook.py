"""Logging at the table (recorder/logbook.py): steps, corrections, snapshots, and the same
game found again on re-import."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from engine.corrections import CorrectionError, Retraction
from engine.fold import fold
from engine.games import get_game
from recorder import EventStore, GameNotFound, StepOutOfRange
from recorder.io import export_json, game_import_from_events, load_file, load_text
from recorder.logbook import StaleStep, new_game, pending, undo
from recorder.prepare import STORED_EVERY
from recorder.stored import unpack_position

RULES = get_game("splendor-duel")
ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"


def _setup_text(path: Path) -> str:
    """A fixture's headers and setup, as the table knows them before the first move: the
    file up to its first turn, without the headers that say how it ended."""
    lines = _without_outcome(path).splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return "".join(lines[:first])


@pytest.fixture
def store(tmp_path: Path):
    with EventStore.open(tmp_path / "t.db") as s:
        yield s


def _live(store: EventStore, seed: int, upto: int) -> tuple[str, list]:
    events = RULES.random_game(random.Random(seed))
    gid = store.create_game({"players": ["Ann", "Bo"]}).id
    store.append(gid, 0, [RULES.event_to_dict(e) for e in events[:upto]])
    return gid, events


def _position(state) -> str:
    return RULES.position(state)


# --- snapshots ------------------------------------------------------------------------------


def test_snapshots_are_the_fresh_fold_of_their_step(store, tmp_path):
    gid, events = _live(store, 5, 1)
    n = min(len(events), 3 * STORED_EVERY + 5)
    for i in range(1, n):
        store.append(gid, i, [RULES.event_to_dict(events[i])])
    conn = sqlite3.connect(tmp_path / "t.db")
    rows = conn.execute(
        "SELECT step, position FROM snapshots WHERE game_no = (SELECT no FROM games WHERE id = ?)",
        (gid,),
    ).fetchall()
    steps = sorted(step for step, _ in rows)
    # One every STORED_EVERY steps, and the head.
    assert steps == [*range(STORED_EVERY, n, STORED_EVERY), n]
    for step, packed in rows:
        assert unpack_position(packed) == _position(fold(RULES, events[:step], ("Ann", "Bo")).head)
    # A store that never saw the game starts from the head's snapshot, and reads the
    # same state as a fold from the first event.
    with EventStore.open(tmp_path / "t.db") as fresh:
        assert _position(fresh.state_at(gid)) == _position(
            fold(RULES, events[:n], ("Ann", "Bo")).head
        )
        assert fresh.state_at(gid).names == ("Ann", "Bo")
        for step in (1, STORED_EVERY, STORED_EVERY + 3, n):
            assert _position(fresh.state_at(gid, step)) == _position(
                fold(RULES, events[:step]).head
            )
    # Given the game's row, the store reads the same states without looking it up again.
    with EventStore.open(tmp_path / "t.db") as fresh:
        row = fresh.game(gid)
        for step in (0, 1, STORED_EVERY - 1, STORED_EVERY, STORED_EVERY + 3, n, n):
            state = fresh.state_at(gid, step, row=row)
            assert _position(state) == _position(fold(RULES, events[:step]).head)
            assert state.names == ("Ann", "Bo")
        with pytest.raises(StepOutOfRange):
            fresh.state_at(gid, n + 1, row=row)


def test_without_snapshots_the_store_folds_from_the_first_event(store, tmp_path):
    gid, events = _live(store, 6, 40)
    sqlite3.connect(tmp_path / "t.db", isolation_level=None).execute("DELETE FROM snapshots")
    with EventStore.open(tmp_path / "t.db") as fresh:
        assert _position(fresh.state_at(gid)) == _position(fold(RULES, events[:40]).head)
        fresh.append(gid, 40, [RULES.event_to_dict(events[40])])
        assert _position(fresh.state_at(gid)) == _position(fold(RULES, events[:41]).head)


# --- corrections ----------------------------------------------------------------------------


def test_undo_takes_back_the_last_decision_with_what_followed_it(store):
    gid, events = _live(store, 7, 30)
    logged = undo(store, gid)
    assert logged.steps_before == 30 and logged.steps == 31
    (retraction,) = logged.events
    assert isinstance(retraction, Retraction)
    stored = [e.event for e in store.events(gid)]
    assert _position(store.state_at(gid)) == _position(fold(RULES, stored).head)
    assert _position(store.state_at(gid)) == _position(
        fold(RULES, events[: retraction.back_to]).head
    )
    assert not RULES.is_observation(events[retraction.back_to])
    assert all(RULES.is_observation(e) for e in events[retraction.back_to + 1 : 30])
    # The game goes on from there: the retracted decision can be played again.
    store.append(gid, 31, [RULES.event_to_dict(events[retraction.back_to])])
    assert pending(store, gid) == RULES.status(fold(RULES, events[: retraction.back_to + 1]).head)


def test_undo_to_a_step_and_nothing_written_on_refusal(store):
    gid, events = _live(store, 8, 25)
    with pytest.raises(StaleStep) as stale:
        undo(store, gid, to=10, expect=24)
    assert (stale.value.expected, stale.value.actual) == (24, 25)
    with pytest.raises(CorrectionError):
        undo(store, gid, to=25)
    with pytest.raises(GameNotFound):
        undo(store, "nope")
    assert store.game(gid).event_count == 25
    logged = undo(store, gid, to=10, expect=25)
    assert logged.texts == ["undo to 10"]
    assert _position(store.state_at(gid)) == _position(fold(RULES, events[:10]).head)
    # Step 15 is retracted now: it cannot be gone back to.
    with pytest.raises(CorrectionError):
        undo(store, gid, to=15)
    assert store.game(gid).status == "playing" and store.game(gid).event_count == 26


def test_a_game_with_corrections_exports_and_imports_to_the_same_events(store, tmp_path):
    gid, events = _live(store, 9, 30)
    undo(store, gid)
    undo(store, gid, to=12)
    store.append(gid, 32, [RULES.event_to_dict(e) for e in events[12:20]])
    text = export_json(store, gid)
    with EventStore.open(tmp_path / "other.db") as other:
        (record,) = load_text(text, "game.json")
        result = other.import_game(record)
        assert [e.payload for e in other.events(result.game_id)] == [
            e.payload for e in store.events(gid)
        ]
        assert _position(other.state_at(result.game_id)) == _position(store.state_at(gid))
        assert other.game(result.game_id).turns == store.game(gid).turns
        assert other.rebuild_projections() == 1
        assert other.game(result.game_id).turns == store.game(gid).turns


# --- the same game on re-import -------------------------------------------------------------


def _without_outcome(path: Path) -> str:
    return "".join(
        line
        for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
        if not line.startswith(("[Result", "[Victory"))
    )


def test_a_stored_game_is_found_with_or_without_its_result(store):
    path = GAMES / "dispute.tl"
    first = store.import_game(load_file(path)[0])
    (record,) = load_text(_without_outcome(path), "no-result.tl")
    again = store.import_game(record)
    assert (again.game_id, again.created, again.appended) == (first.game_id, False, 0)
    # And the other way round, in one batch.
    (plain,) = load_text(_without_outcome(GAMES / "crowns.tl"), "plain.tl")
    results = store.import_games([plain, load_file(GAMES / "crowns.tl")[0]])
    assert results[0].game_id == results[1].game_id
    assert store.listing.count() == 2


def test_a_longer_file_of_a_stored_game_appends_its_new_moves(store):
    path = GAMES / "points.tl"
    lines = _without_outcome(path).splitlines(keepends=True)
    first_turn = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    (short_record,) = load_text("".join(lines[: first_turn + 10]), "short.tl")
    stored = store.import_game(short_record)
    (record,) = load_file(path)
    longer = store.import_game(record)
    assert longer.game_id == stored.game_id and not longer.created
    assert longer.appended == len(record.events) - len(short_record.events)
    assert [e.payload for e in store.events(stored.game_id)] == record.events
    assert store.game(stored.game_id).status == "finished"
    # The shorter record is now a record of the stored game: found, nothing written.
    again = store.import_game(short_record)
    assert again.game_id == stored.game_id and again.appended == 0
    assert store.listing.count() == 1


def test_new_is_the_one_way_to_a_second_game_with_the_same_setup(store):
    path = GAMES / "colour.tl"
    imported = store.import_game(load_file(path)[0])
    a = new_game(store, _setup_text(path))
    b = new_game(store, _setup_text(path))
    assert len({imported.game_id, a, b}) == 3
    assert store.game(a).event_count == store.game(b).event_count == 1
    # A file of the game is found as the first stored one, not as a new game.
    again = store.import_game(load_file(path)[0])
    assert again.game_id == imported.game_id and not again.created


def test_a_game_and_a_variant_with_the_same_setup_are_two_games(store):
    events = RULES.random_game(random.Random(11))
    other = RULES.random_game(random.Random(11))[:20]
    a = store.import_game(game_import_from_events(events[:30], {"players": ["A", "B"]}))
    b = store.import_game(game_import_from_events(other, {"players": ["A", "C"]}))
    assert a.game_id != b.game_id and b.created


# --- what a refusal offers ----------------------------------------------------------------


def test_completions_are_the_legal_decisions_that_go_on_from_the_words_written():
    """A decision written without a part it needs is completed from the legal decisions:
    the text's words are the start of each one offered, and every one offered is legal;
    none when the words start too many (a guess, not a slip) or hold a comment."""
    from recorder.logbook import MAX_COMPLETIONS, completions

    events = RULES.random_game(random.Random(11))
    state = RULES.new_state(("Ann", "Bo"))
    seen_buy = seen_reserve = False
    for event in events:
        if state.awaiting == "action":
            legal = RULES.legal_move_texts(state)
            for text in {" ".join(t.split()[:2]) for t in legal if t.startswith(("buy", "res"))}:
                offered = completions(RULES, state, text)
                starting = [t for t in legal if t.startswith(text + " ")]
                assert offered == (starting if len(starting) <= MAX_COMPLETIONS else [])
                assert all(RULES.check_move(state, t).legal for t in offered)
                mover = state.names[RULES.status(state).to_move]
                other = state.names[1 - RULES.status(state).to_move]
                assert completions(RULES, state, f"{state.turn}. {mover}: {text}") == offered
                assert completions(RULES, state, f"{state.turn}. {other}: {text}") == []
                assert completions(RULES, state, text + " {a note}") == []
                seen_buy |= text.startswith("buy") and bool(offered)
                seen_reserve |= text.startswith("res") and bool(offered)
            takes = [t for t in legal if t.startswith("take ")]
            many = len(takes) > MAX_COMPLETIONS
            assert completions(RULES, state, "take") == ([] if many else takes)
        RULES.play(state, event)
    assert seen_buy and seen_reserve


def test_a_classic_reserve_or_purchase_is_completed_where_the_rules_leave_no_choice(store):
    """Classic Splendor: ``res CARD`` takes the Gold while any is left (``+Y``), and
    ``buy CARD`` pays the one way the player can, as the fixture's own lines say (a
    purchase that can be paid several ways: tests/engine/test_splendor_typed.py)."""
    from recorder.logbook import log

    path = ROOT / "fixtures" / "splendor" / "games" / "three-players.tl"
    lines = path.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "\n".join(line for line in lines[:first] if not line.startswith(("[Result", "[Vic")))
    gid = new_game(store, setup + "\n")
    for line in lines[first:]:
        if line.startswith("7."):
            break
        log(store, gid, line.split(": ", 1)[1])
    assert log(store, gid, "res 2-12").texts == ["res 2-12 +Y"]  # (7. Chloe: res 2-12 +Y)
    log(store, gid, "reveal 2-27")
    assert log(store, gid, "buy 1-17").texts == ["buy 1-17 =WBY"]  # (8. Dana: buy 1-17 =WBY)


# --- one pass per logged move ----------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "seed", "names"),
    [("splendor-duel", 22, ["Ann", "Bo"]), ("splendor", 3, ["Ann", "Bo", "Cy", "Di"])],
)
def test_logging_a_move_checks_and_applies_each_new_event_once(
    tmp_path, rules_calls, kind, seed, names
):
    """A move logged to a game of 150 events: the store's snapshot of the head is at
    hand (a fresh process: nothing in memory), so nothing is folded from the start; the
    move's events are read, checked and applied once, then stored with their texts."""
    from recorder.logbook import log

    rules = get_game(kind)
    events = rules.random_game(random.Random(seed), names)
    assert len(events) > 151
    path = tmp_path / "g.db"
    with EventStore.open(path) as s:
        gid = s.create_game({"players": names}, kind=kind).id
        s.append(gid, 0, [rules.event_to_dict(e) for e in events[:150]])
        text = rules.move_text(s.state_at(gid), events[150])
    counted = rules_calls(kind)
    with EventStore.open(path) as s:  # as a new `tablelog log` process opens it
        logged = log(s, gid, text)
        assert counted == {"check": 1, "apply": 1}
        assert logged.steps == 151 and logged.texts == [text]
        assert s.events(gid)[-1].text == text
        fresh = fold(rules, events[:151], names).head
        assert rules.position(s.state_at(gid)) == rules.position(fresh)


# --- undo takes back what was entered last ------------------------------------------------


def test_undo_takes_back_a_card_revealed_on_its_own_and_the_file_reads_the_same(store, tmp_path):
    """A card revealed after the purchase was stored goes back alone (the purchase stays);
    a purchase logged with its reveal goes back with it.  The notation writes the lone
    undo so that the exported file reads to the same standing steps, export to export."""
    from engine.corrections import effective_steps
    from recorder.io import export_notation
    from recorder.logbook import log
    from recorder.validate import validate_file

    path = GAMES / "points.tl"
    gid = new_game(store, _setup_text(path))
    turns = [line for line in path.read_text().splitlines() if line[:1].isdigit()]
    for line in turns[:5]:
        log(store, gid, line)
    bought = log(store, gid, "6. Alice: buy 1-16 (W1 B1 G1 R1)").steps
    log(store, gid, "reveal 1-24")  # the wrong card, typed after the purchase was stored
    logged = undo(store, gid)
    assert logged.events == [Retraction(bought)] and logged.texts == [f"undo to {bought}"]
    assert pending(store, gid).due == RULES.status(store.state_at(gid, bought)).due
    log(store, gid, "reveal 1-11")
    before_buy = store.game(gid).event_count
    log(store, gid, turns[6])  # a purchase and its reveal, entered as one line
    assert undo(store, gid).events == [Retraction(before_buy)]
    log(store, gid, turns[6])
    assert store.game(gid).event_count == before_buy + 5

    text = export_notation(store, gid)
    assert f"undo to {bought}" in text
    (tmp_path / "g.tl").write_text(text, encoding="utf-8")
    (report,) = validate_file(tmp_path / "g.tl")
    assert report.ok, report.errors
    with EventStore.open(tmp_path / "other.db") as other:
        again = other.import_game(load_text(text, "g.tl")[0]).game_id
        assert export_notation(other, again) == text
        assert effective_steps([e.event for e in other.events(again)]) == effective_steps(
            [e.event for e in store.events(gid)]
        )
        assert undo(other, again).events == [Retraction(before_buy)]


def test_did_you_mean_never_offers_another_players_move(store):
    """A refusal offers the legal decisions that complete the text written, but only when
    the text names no player or the one due: never a move for another player to log."""
    from recorder.logbook import MoveRefused, completions, log

    path = GAMES / "points.tl"
    gid = new_game(store, _setup_text(path))
    state = store.state_at(gid)  # Bob plays first
    assert completions(RULES, state, "Bob: take a1 a2") != []
    assert completions(RULES, state, "take a1 a2") == completions(RULES, state, "Bob: take a1 a2")
    assert completions(RULES, state, "Alice: take a1 a2") == []
    assert completions(RULES, state, "1. Alice: take a1 a2") == []
    with pytest.raises(MoveRefused) as refused:
        log(store, gid, "Alice: take a1 a2")
    assert "it is Bob's turn" in str(refused.value)
    assert refused.value.completions == []
    assert log(store, gid, "Bob: take a1 a2 a3").texts == ["take a1 a2 a3 =WWG"]
