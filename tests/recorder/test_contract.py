"""The recorder's contract, for every store implementation: each test takes the
``recorder`` fixture (and ``backend`` for raw access), parametrised by backend in
conftest.py, so a PostgreSQL store only adds a backend there."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import HERE, record, simulated

from engine.splendor_duel import GAME
from engine.splendor_duel import events as ev
from engine.splendor_duel import game as rules
from engine.splendor_duel.catalogue import GOLD, SEGMENT_SET, SPACE_NAMES
from recorder import (
    AppendRejected,
    ConcurrencyError,
    CorruptEvent,
    EventIdConflict,
    GameImport,
    GameNotFound,
    ImportRejected,
    Recorder,
    StepOutOfRange,
    StoreError,
)
from recorder.io import game_import_from_events
from recorder.migrations import SCHEMA_VERSION


def payloads(seed: int) -> list[dict]:
    return [ev.event_to_dict(e) for e in simulated(seed)]


def count_rows(backend, game_id: str) -> int:
    return backend.raw(
        "SELECT count(*) FROM events WHERE game_no = (SELECT no FROM games WHERE id = ?)",
        (game_id,),
    )[0][0]


def illegal_take(state) -> dict:
    """Two tokens not in one line: refused by the rules, yet applicable as played."""
    spaces = [s for s, t in enumerate(state.board) if t >= 0 and t != GOLD]
    for a in spaces:
        for b in spaces:
            if a < b and (a, b) not in SEGMENT_SET:
                return {"type": "tokens_taken", "spaces": [SPACE_NAMES[a], SPACE_NAMES[b]]}
    raise AssertionError("no illegal take found")


def test_the_store_is_a_recorder(recorder, backend):
    assert isinstance(recorder, Recorder)
    with backend.open() as other:
        assert isinstance(other, Recorder)


# --- import and read ---------------------------------------------------------------------


def test_import_stores_every_event_and_folds_to_the_engine_state(recorder):
    result = recorder.import_game(record(1, date="2024-05-01", place="Lyon"))
    events = simulated(1)
    assert result.created and result.events == len(events) and result.flagged == []
    stored = recorder.events(result.game_id)
    assert [s.sequence for s in stored] == list(range(1, len(events) + 1))
    assert [s.payload for s in stored] == [ev.event_to_dict(e) for e in events]
    assert [s.event for s in stored] == list(events)
    assert all(s.version == 1 and s.meta == {} for s in stored)
    final = GAME.replay(events, names=("Ann", "Bo"))
    state = recorder.state_at(result.game_id)
    assert state.names == ("Ann", "Bo")
    assert rules.describe_state(state) == rules.describe_state(final)
    assert state.outcome == final.outcome
    row = recorder.game(result.game_id)
    assert row.status == "finished"
    assert row.winner == final.outcome.winner
    assert row.winner_name == ["Ann", "Bo"][final.outcome.winner]
    assert row.condition == final.outcome.condition
    assert row.turns == final.turn
    assert row.event_count == len(events)
    assert row.headers == {"players": ["Ann", "Bo"], "date": "2024-05-01", "place": "Lyon"}
    assert row.players == ["Ann", "Bo"]


def test_state_at_any_step_matches_the_engine_fold(recorder):
    gid = recorder.import_game(record(2)).game_id
    events = simulated(2)
    states = list(GAME.states(events, names=("Ann", "Bo")))
    for step in (0, 1, 2, 17, len(events) // 2, len(events)):
        got = recorder.state_at(gid, step)
        assert rules.describe_state(got) == rules.describe_state(states[step])
        assert got.players[0].tokens == states[step].players[0].tokens
    assert len(recorder.events(gid, upto=5)) == 5


def test_an_imported_game_keeps_snapshots_that_are_the_fresh_fold_of_their_step(recorder, backend):
    """An import keeps the position every STORED_EVERY steps and at the head (with and
    without meta), each the fresh fold of its step; a store that never saw the game
    folds any step from the nearest and reads the same state as a fold from the first."""
    from engine.splendor_duel.position import position_string
    from recorder.prepare import STORED_EVERY
    from recorder.stored import unpack_position

    events = simulated(3)
    plain = recorder.import_game(record(3)).game_id
    commented = recorder.import_game(
        replace(record(3, place="Lyon"), meta=[None] * 40 + [{"comment": "forty-one"}])
    ).game_id
    states = list(GAME.states(events, names=("Ann", "Bo")))
    n = len(events)
    for gid in (plain, commented):
        rows = backend.raw(
            "SELECT step, position FROM snapshots"
            " WHERE game_no = (SELECT no FROM games WHERE id = ?) ORDER BY step",
            (gid,),
        )
        assert [step for step, _ in rows] == [*range(STORED_EVERY, n, STORED_EVERY), n]
        # each kept packed (recorder.stored.pack_position)
        assert all(
            unpack_position(packed) == position_string(states[step]) for step, packed in rows
        )
        with backend.open() as fresh:
            for step in (1, STORED_EVERY - 1, STORED_EVERY, STORED_EVERY + 5, n - 1, n):
                got = fresh.state_at(gid, step)
                assert position_string(got) == position_string(states[step])
                assert got.names == ("Ann", "Bo")


def test_the_fold_a_store_keeps_in_memory_is_the_fresh_fold_at_every_step(recorder, backend):
    """A game logged a move at a time into a store that began from the stored head (its
    fold starts there), with an undo back before that start and a move played though
    illegal taken back: after each append the store keeps the game's fold at its head and
    chain hash, each state it holds is a fresh fold's, and the store reads the same.  A
    write the cache did not see (another process's) leaves the kept fold aside: the state
    read is the new head's."""
    from engine.corrections import Retraction, retraction_to_dict
    from engine.fold import Fold

    events = simulated(4)
    names = ("Ann", "Bo")
    gid = recorder.create_game({"players": list(names)}).id
    recorder.append(gid, 0, payloads(4)[:30])
    played, marks = list(events[:30]), [False] * 30

    def check(store) -> Any:
        fresh = Fold(GAME, names).extend(played, marks)
        assert GAME.position(store.state_at(gid)) == GAME.position(fresh.head)
        row = store.game(gid)
        kept = store.snapshots.get(gid, row.event_count, bytes.fromhex(row.head))
        assert kept is not None and kept.step == len(played)
        for step in range(kept.first, kept.step + 1):
            assert GAME.position(kept.state_at(step)) == GAME.position(fresh.state_at(step))
        return kept

    with backend.open() as store:
        assert store.snapshots is recorder.snapshots  # one cache for the database
        store.snapshots.clear()  # as in a new process
        store.state_at(gid)  # from the stored head: the fold starts at step 30
        assert store.snapshots.get(gid, 30, bytes.fromhex(store.game(gid).head)).first == 30
        moves = [
            [retraction_to_dict(Retraction(20))],
            [ev.event_to_dict(e) for e in events[20:23]],
            "illegal",
            "undo",
            *([ev.event_to_dict(e)] for e in events[23:45]),
        ]
        for move in moves:
            n = len(played)
            meta = None
            if move == "illegal":
                move, meta = [illegal_take(store.state_at(gid))], [{"played_illegally": True}]
            elif move == "undo":  # back to the step before the illegal move
                move = [retraction_to_dict(Retraction(n - 1))]
            store.append(gid, n, move, meta=meta)
            played += [GAME.event_from_dict(p) for p in move]
            marks += [meta is not None] * len(move)
            kept = check(store)
            # the undo went back before step 30, where the kept fold began: one begins there
            assert kept.first == 31
        kept_before = (bytes.fromhex(store.game(gid).head), kept)
        with backend.open() as other:
            other.append(gid, len(played), payloads(4)[45:50])
        store.snapshots.put(gid, *kept_before)  # the fold as this process last knew it
        head = bytes.fromhex(store.game(gid).head)
        played += events[45:50]
        assert store.snapshots.get(gid, len(played), head) is None
        marks += [False] * 5
        check(store)


def test_a_step_beyond_the_last_is_out_of_range(recorder):
    gid = recorder.import_game(record(2)).game_id
    n = len(simulated(2))
    with pytest.raises(StepOutOfRange, match=f"no step {n + 1} .*0 to {n}"):
        recorder.state_at(gid, n + 1)
    with pytest.raises(StepOutOfRange):
        recorder.state_at(gid, -1)


def test_unknown_games_are_named(recorder):
    for call in (
        lambda: recorder.game("nope"),
        lambda: recorder.events("nope"),
        lambda: recorder.state_at("nope", 0),
        lambda: recorder.append("nope", 0, payloads(1)[:1]),
    ):
        with pytest.raises(GameNotFound, match="no game 'nope'"):
            call()
    assert issubclass(GameNotFound, KeyError) and issubclass(GameNotFound, StoreError)


def test_a_recorder_key_is_kept_as_its_hash_and_replaced_by_a_new_one(recorder, backend):
    gid = recorder.import_game(record(3)).game_id
    assert not recorder.keys.matches(gid, "anything")  # no key yet
    first = recorder.keys.issue(gid)
    assert recorder.keys.matches(gid, first)
    assert not recorder.keys.matches(gid, first[:-1])
    assert not recorder.keys.matches("other", first)
    assert first not in repr(backend.raw("SELECT * FROM recorder_keys"))
    second = recorder.keys.issue(gid)
    assert second != first and recorder.keys.matches(gid, second)
    assert not recorder.keys.matches(gid, first)
    with pytest.raises(GameNotFound):
        recorder.keys.issue("nope")


def test_a_new_or_revoked_key_changes_the_fingerprint_sessions_keep(recorder, backend):
    gid = recorder.import_game(record(3)).game_id
    assert recorder.keys.fingerprint(gid) is None
    first = recorder.keys.issue(gid)
    held = recorder.keys.fingerprint(gid)
    assert held and first not in held and held == recorder.keys.fingerprint(gid)
    recorder.keys.issue(gid)
    assert recorder.keys.fingerprint(gid) not in (None, held)
    assert recorder.keys.revoke(gid) is True
    assert recorder.keys.fingerprint(gid) is None
    assert not recorder.keys.matches(gid, first)
    assert recorder.keys.revoke(gid) is False  # nothing left to revoke
    with pytest.raises(GameNotFound):
        recorder.keys.revoke("nope")


@pytest.mark.parametrize("bad", ["a\x00b", "a\udc80b"], ids=["nul", "half-character"])
def test_text_no_store_keeps_is_refused_alike_naming_its_field(recorder, backend, bad):
    """A NUL (PostgreSQL's text refuses it, and its jsonb, which the event log's view
    reads meta as, refuses its escape) or half a character, in the headers or a comment:
    the store's own refusal naming the field, on every backend, nothing written."""
    with pytest.raises(ImportRejected) as refused:
        recorder.import_game(record(3, ("Ann", bad)))
    assert refused.value.field == "headers.players[1]"
    with pytest.raises(ImportRejected) as refused:
        recorder.import_game(record(3, place=bad))
    assert refused.value.field == "headers.place"
    assert recorder.listing.count() == 0
    events = simulated(4)
    setup = game_import_from_events(events[:1], {"players": ["Ann", "Bo"]})
    gid = recorder.import_game(setup).game_id
    with pytest.raises(AppendRejected) as refused:
        recorder.append(gid, 1, [GAME.event_to_dict(events[1])], meta=[{"comment": bad}])
    assert refused.value.field == "meta.comment" and refused.value.event_number == 2
    assert len(recorder.events(gid)) == 1


def test_reimporting_the_same_game_is_a_no_op(recorder, backend):
    first = recorder.import_game(record(3))
    again = recorder.import_game(record(3))
    assert again.game_id == first.game_id and not again.created
    assert count_rows(backend, first.game_id) == first.events
    assert recorder.listing.count() == 1


def test_the_derived_game_id_depends_on_the_content(recorder):
    a = recorder.import_game(record(3)).game_id
    b = recorder.import_game(record(3, date="2024-01-02")).game_id
    c = recorder.import_game(record(4)).game_id
    assert len({a, b, c}) == 3


def test_a_given_id_with_other_content_is_refused(recorder, backend):
    recorder.import_game(replace(record(3), game_id="club-1"))
    with pytest.raises(ImportRejected, match="club-1 is already stored with different"):
        recorder.import_game(replace(record(4), game_id="club-1"))
    assert count_rows(backend, "club-1") == len(simulated(3))


def test_an_illegal_event_in_the_middle_of_an_import_writes_nothing(recorder, backend):
    rec = record(5)
    bad = list(rec.events)
    bad[40] = dict(bad[0])  # a second setup
    with pytest.raises(ImportRejected) as err:
        recorder.import_game(replace(rec, events=bad))
    assert err.value.event_number == 41
    assert "event 41:" in str(err.value) and "(p." in str(err.value)
    assert backend.raw("SELECT count(*) FROM events")[0][0] == 0
    assert backend.raw("SELECT count(*) FROM games")[0][0] == 0


def test_a_malformed_payload_is_refused_with_its_field(recorder):
    rec = record(5)
    bad = list(rec.events)
    bad[3] = {"type": "card_purchased", "card": "1-01", "payment": {"red": 99}}
    with pytest.raises(ImportRejected, match=r"event 4: payment\.red: .*0 to 25"):
        recorder.import_game(replace(rec, events=bad))
    bad[3] = {"type": "tokens_taken", "spaces": ["c3"], "colour": "red"}
    with pytest.raises(ImportRejected, match="event 4: colour: unknown field"):
        recorder.import_game(replace(rec, events=bad))


def test_played_illegally_events_are_stored_flagged_with_their_violations(recorder):
    setup = payloads(6)[0]
    state = GAME.replay([ev.event_from_dict(setup)])
    take = illegal_take(state)
    rec = GameImport(
        headers={"players": ["Ann", "Bo"]},
        events=[setup, take],
        meta=[None, {"played_illegally": True, "comment": "nobody noticed"}],
    )
    result = recorder.import_game(rec)
    assert [seq for seq, _ in result.flagged] == [2]
    stored = recorder.events(result.game_id)[1]
    assert stored.meta["played_illegally"] is True
    assert stored.meta["comment"] == "nobody noticed"
    assert stored.meta["violations"][0]["citation"].startswith("p.")
    assert recorder.game(result.game_id).flagged_count == 1
    # Without the flag the same event is refused.
    with pytest.raises(ImportRejected, match="event 2:"):
        recorder.import_game(replace(rec, meta=[None, None]))
    # It replays as played: the tokens left the board.
    after = recorder.state_at(result.game_id)
    assert sum(after.players[after.first_player].tokens) == 2


# --- the database refuses tampering ------------------------------------------------------


def test_raw_update_delete_and_replace_of_stored_events_fail(recorder, backend):
    gid = recorder.import_game(record(7)).game_id
    rows = (
        "SELECT * FROM events WHERE game_no = (SELECT no FROM games WHERE id = ?) ORDER BY sequence"
    )
    before = backend.raw(rows, (gid,))
    types = backend.raw("SELECT * FROM event_types ORDER BY kind, code")
    for sql in backend.tamper_statements(gid):
        with pytest.raises(backend.integrity_errors, match="append-only"):
            backend.raw(sql)
    assert backend.raw(rows, (gid,)) == before
    assert backend.raw("SELECT * FROM event_types ORDER BY kind, code") == types


# --- append --------------------------------------------------------------------------------


def test_append_checks_each_event_and_updates_the_summary(recorder):
    game = recorder.create_game({"players": ["Ann", "Bo"], "date": "2024-06-01"})
    assert game.status == "setup" and game.event_count == 0
    p = payloads(8)
    r1 = recorder.append(game.id, 0, p[:1])
    assert (r1.first_sequence, r1.last_sequence, r1.appended) == (1, 1, 1)
    assert recorder.game(game.id).status == "playing"
    r2 = recorder.append(game.id, 1, p[1:10])
    assert r2.last_sequence == 10 and r2.event_ids[0] == f"{game.id}:2"
    recorder.append(game.id, 10, p[10:])
    row = recorder.game(game.id)
    assert row.status == "finished" and row.event_count == len(p)
    assert recorder.state_at(game.id).outcome == GAME.replay(simulated(8)).outcome


def test_a_stale_expected_sequence_names_expected_and_actual(recorder):
    gid = recorder.create_game({"players": ["Ann", "Bo"]}).id
    p = payloads(8)
    recorder.append(gid, 0, p[:3])
    with pytest.raises(ConcurrencyError) as err:
        recorder.append(gid, 1, p[1:2])
    assert (err.value.expected, err.value.actual) == (1, 3)
    assert "expected sequence 1" in str(err.value) and "actual 3" in str(err.value)


def test_two_writers_at_the_same_expected_sequence_exactly_one_wins(backend):
    events = simulated(9)
    k = next(k for k in range(3, 40) if GAME.replay(events[:k]).awaiting == "action")
    p = payloads(9)
    with backend.open() as setup:
        gid = setup.create_game({"players": ["Ann", "Bo"]}).id
        setup.append(gid, 0, p[:k])
    # Two different next events, so the loser cannot pass for a retry of the winner.
    other = next(
        ev.event_to_dict(m)
        for m in rules.legal_moves(GAME.replay(events[:k]))
        if m.type == "tokens_taken" and ev.event_to_dict(m) != p[k]
    )
    stores = [backend.open(), backend.open()]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def write(i: int, payload: dict) -> None:
        barrier.wait()
        try:
            outcomes[i] = stores[i].append(gid, k, [payload])
        except ConcurrencyError as err:
            outcomes[i] = err

    threads = [
        threading.Thread(target=write, args=(0, p[k])),
        threading.Thread(target=write, args=(1, other)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    errors = [o for o in outcomes if isinstance(o, ConcurrencyError)]
    wins = [o for o in outcomes if not isinstance(o, ConcurrencyError)]
    assert len(errors) == 1 and len(wins) == 1
    assert (errors[0].expected, errors[0].actual) == (k, k + 1)
    assert count_rows(backend, gid) == k + 1


def test_eight_processes_racing_leave_contiguous_acknowledged_events(backend):
    seed = 10
    with backend.open() as recorder:
        gid = recorder.create_game({"players": ["Ann", "Bo"]}, game_id="race").id
    children = [
        subprocess.Popen(
            [sys.executable, str(HERE / "race_child.py"), backend.spec, gid, str(seed), str(w)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=str(HERE),
        )
        for w in range(8)
    ]
    acks: list[tuple[int, str]] = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        for line in out.splitlines():
            _, seq, eid = line.split()
            acks.append((int(seq), eid))
    with backend.open() as recorder:
        stored = recorder.events(gid)
        expected = payloads(seed)
        assert [s.sequence for s in stored] == list(range(1, len(expected) + 1))
        assert [s.payload for s in stored] == expected
        by_seq = {s.sequence: s.event_id for s in stored}
        assert sorted(seq for seq, _ in acks) == list(range(1, len(expected) + 1))
        for seq, eid in acks:
            assert by_seq[seq] == eid
        assert recorder.game(gid).status == "finished"


def test_an_idempotent_retry_adds_no_row(recorder, backend):
    gid = recorder.create_game({"players": ["Ann", "Bo"]}).id
    p = payloads(11)
    recorder.append(gid, 0, p[:1], event_ids=["e-1"])
    first = recorder.append(gid, 1, p[1:4], event_ids=["e-2", "e-3", "e-4"])
    again = recorder.append(gid, 1, p[1:4], event_ids=["e-2", "e-3", "e-4"])
    assert again.already_stored and again.appended == 0
    assert again.first_sequence == first.first_sequence
    assert again.last_sequence == first.last_sequence
    assert again.event_ids == first.event_ids
    assert count_rows(backend, gid) == 4
    # A known id with another payload is an error, not a retry.
    with pytest.raises(EventIdConflict, match="'e-4'.*different payload"):
        recorder.append(gid, 3, [p[1], p[2], p[4]], event_ids=["e-2", "e-3", "e-4"])
    # A known id in a batch with new ones is refused too.
    with pytest.raises(EventIdConflict):
        recorder.append(gid, 4, p[4:6], event_ids=["e-4", "e-5"])
    assert count_rows(backend, gid) == 4


def test_a_retry_with_other_metadata_is_refused_not_ignored(recorder, backend):
    """The same event id sent again with a different comment, annotations or mark: the
    old metadata used to be kept silently (issue 12); it is a conflict."""
    gid = recorder.create_game({"players": ["Ann", "Bo"]}).id
    p = payloads(13)
    recorder.append(gid, 0, p[:2], meta=[None, {"comment": "as said"}], event_ids=["m-1", "m-2"])
    same = recorder.append(
        gid, 0, p[:2], meta=[None, {"comment": "as said"}], event_ids=["m-1", "m-2"]
    )
    assert same.already_stored
    for other in (
        [None, {"comment": "said otherwise"}],
        [None, None],
        [None, {"comment": "as said", "annotations": ["!"]}],
        [{"comment": "new"}, {"comment": "as said"}],
    ):
        with pytest.raises(EventIdConflict, match="different comment, annotations"):
            recorder.append(gid, 0, p[:2], meta=other, event_ids=["m-1", "m-2"])
    with pytest.raises(EventIdConflict, match="'m-2'.*different comment"):
        recorder.append(gid, 0, p[:2], event_ids=["m-1", "m-2"])
    assert count_rows(backend, gid) == 2
    assert recorder.events(gid)[1].meta == {"comment": "as said"}


def test_a_failure_in_the_middle_of_a_batch_writes_nothing(recorder, backend):
    gid = recorder.create_game({"players": ["Ann", "Bo"]}).id
    p = payloads(12)
    recorder.append(gid, 0, p[:10])
    batch = [p[10], p[0], p[11]]  # a second setup in the middle
    with pytest.raises(AppendRejected) as err:
        recorder.append(gid, 10, batch)
    assert err.value.event_number == 12
    assert err.value.violations and "(p." in str(err.value)
    assert count_rows(backend, gid) == 10
    assert recorder.game(gid).event_count == 10
    # A malformed payload in the middle is refused before anything is written.
    with pytest.raises(AppendRejected, match=r"event 12: spaces\[0\]"):
        recorder.append(gid, 10, [p[10], {"type": "tokens_taken", "spaces": ["q9"]}])
    assert count_rows(backend, gid) == 10
    recorder.append(gid, 10, p[10:12])
    assert count_rows(backend, gid) == 12


# --- damaged files -------------------------------------------------------------------------


def test_corrupted_stored_json_names_game_and_sequence(recorder, backend):
    gid = recorder.import_game(record(13)).game_id
    backend.damage_payload(gid, 7, '{"type": "tokens_taken", "spaces": [')
    with pytest.raises(CorruptEvent, match=f"game {gid}, event 7: stored payload is not valid"):
        recorder.events(gid)
    # a step folded from the first event (none is kept before step 32) reads it
    with pytest.raises(CorruptEvent, match=f"game {gid}, event 7:"):
        recorder.state_at(gid, 10)
    assert len(recorder.events(gid, upto=6)) == 6
    recorder.state_at(gid, 6)


def test_a_stored_payload_that_no_longer_replays_names_game_and_sequence(recorder, backend):
    gid = recorder.import_game(record(13)).game_id
    backend.damage_payload(gid, 9, json.dumps(payloads(13)[0]))
    with pytest.raises(CorruptEvent, match=f"game {gid}, event 9: stored event no longer replays"):
        recorder.state_at(gid, 10)
    backend.damage_payload(gid, 9, '{"type": "tokens_taken", "spaces": ["zz"]}')
    with pytest.raises(CorruptEvent, match=f"game {gid}, event 9: stored payload cannot be read"):
        recorder.events(gid)


# --- listing and projections --------------------------------------------------------------


def test_list_and_count_games_filter_by_player_result_and_date(recorder):
    recorder.import_game(record(14, ("Ann", "Bo"), date="2024-01-10"))
    recorder.import_game(record(15, ("Cy", "Ann"), date="2024-02-10"))
    recorder.import_game(record(16, ("Cy", "Dee"), date="2024-03-10"))
    live = recorder.create_game({"players": ["Eve", "Ann"], "date": "2024-04-10"})
    recorder.append(live.id, 0, payloads(17)[:5])
    assert recorder.listing.count() == 4
    assert recorder.listing.count(player="ann") == 3
    assert recorder.listing.count(player="ANN", result="finished") == 2
    assert recorder.listing.count(result="playing") == 1
    assert [g.id for g in recorder.listing.games(result="playing")] == [live.id]
    assert recorder.listing.count(date_from="2024-02-01", date_to="2024-03-31") == 2
    conditions = {g.condition for g in recorder.listing.games(result="finished")}
    for condition in conditions:
        assert recorder.listing.count(result=condition) >= 1
    assert len(recorder.listing.games(limit=2)) == 2
    assert len(recorder.listing.games(limit=2, offset=3)) == 1
    assert recorder.listing.games(limit=1)[0].id == live.id  # most recent activity first


def test_list_and_count_games_filter_by_kind(recorder):
    import random

    from engine.games import get_game

    classic = get_game("splendor")
    names = ["Ann", "Bo", "Cy"]
    events = classic.random_game(random.Random(2), names)
    recorder.import_game(record(14, ("Ann", "Bo")))
    stored = recorder.import_game(
        GameImport(
            kind="splendor",
            headers={"players": names},
            events=[classic.event_to_dict(e) for e in events],
        )
    )
    assert [g.id for g in recorder.listing.games(kind="splendor")] == [stored.game_id]
    assert recorder.listing.count(kind="splendor") == 1
    assert recorder.listing.count(kind="splendor-duel") == 1
    assert recorder.listing.count(kind="splendor", player="bo", result="finished") == 1
    assert recorder.listing.count(kind="splendor", player="Dee") == 0
    with pytest.raises(StoreError, match="unknown game kind 'chess'"):
        recorder.listing.games(kind="chess")
    with pytest.raises(StoreError, match="unknown result filter"):
        recorder.listing.games(result="draw")


def test_rebuilt_projections_equal_the_incremental_ones(recorder, backend):
    recorder.import_game(record(18))
    gid = recorder.create_game({"players": ["Eve", "Ann"], "date": "2024-04-10"}).id
    p = payloads(19)
    recorder.append(gid, 0, p[:20])
    recorder.append(gid, 20, p[20:31])
    query = "SELECT * FROM game_summaries ORDER BY game_id"
    players = "SELECT * FROM game_players ORDER BY game_id, seat"
    games = "SELECT * FROM games ORDER BY id"
    before = [backend.raw(q) for q in (query, players, games)]
    backend.raw("DELETE FROM game_summaries")
    backend.raw("DELETE FROM game_players")
    assert recorder.rebuild_projections() == 2
    assert [backend.raw(q) for q in (query, players, games)] == before


# --- schema ---------------------------------------------------------------------------------


def test_the_schema_version_is_recorded(recorder, backend):
    assert recorder.schema_version == 12
    assert backend.raw("SELECT max(version) FROM schema_migrations") == [(12,)]
    assert {"game_list", "event_log"} <= backend.views()


@pytest.mark.backends("sqlite")
def test_sqlite_records_each_migration_and_runs_in_wal_mode(recorder, backend):
    versions = backend.raw("SELECT version FROM schema_migrations")
    assert versions == [(i,) for i in range(1, SCHEMA_VERSION + 1)]
    assert backend.raw("PRAGMA journal_mode")[0][0] == "wal"


def test_each_event_type_is_numbered_once_whichever_store_meets_it_first(recorder, backend):
    """Two stores on one database, each with its own memory of the numbers: a type is
    numbered by whichever writes it first, once per kind, and read back through its
    number by both."""
    import random

    from engine.games import get_game
    from recorder.io import game_import_from_events

    classic = get_game("splendor").random_game(random.Random(3), ["Ann", "Bo", "Cy"])
    with backend.open() as other:
        first = other.import_game(record(1)).game_id
        live = recorder.create_game({"players": ["Eve", "Fay"]}, game_id="live").id
        recorder.append(live, 0, payloads(2)[:10])
        three = game_import_from_events(classic, {"players": ["Ann", "Bo", "Cy"]}, kind="splendor")
        threes = recorder.import_game(three).game_id
        other.append(live, 10, payloads(2)[10:20])
        assert [e.payload for e in other.events(live)] == payloads(2)[:20]
        assert [e.payload for e in recorder.events(threes)] == [
            get_game("splendor").event_to_dict(e) for e in classic
        ]
        assert [e.payload for e in recorder.events(first)] == payloads(1)
    rows = backend.raw("SELECT kind, code, name FROM event_types ORDER BY kind, code")
    for kind in ("splendor", "splendor-duel"):
        codes = [code for k, code, _ in rows if k == kind]
        assert codes == list(range(1, len(codes) + 1))
    assert len({(k, name) for k, _, name in rows}) == len(rows)
    assert backend.raw("SELECT count(*) FROM events WHERE type IS NULL") == [(0,)]
    assert recorder.verification.verify() == []


def test_the_views_read_plainly(recorder, backend):
    gid = recorder.import_game(record(20, date="2024-05-05")).game_id
    (row,) = backend.raw("SELECT id, date, players, status FROM game_list")
    assert row == (gid, "2024-05-05", "Ann vs Bo", "finished")
    log = backend.raw(
        "SELECT sequence, type, text FROM event_log WHERE game_id = ? ORDER BY sequence",
        (gid,),
    )
    assert len(log) == len(simulated(20))
    assert all(text for _, t, text in log)


def test_a_newer_schema_or_a_foreign_file_is_refused(tmp_path):
    import sqlite3

    from recorder import EventStore, SchemaVersionError

    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(SchemaVersionError, match="newer"):
        EventStore.open(newer)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (x)")
    conn.close()
    with pytest.raises(SchemaVersionError, match="not a tablelog database"):
        EventStore.open(other)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="junk.db"):
        EventStore.open(junk)


def test_open_creates_the_folder_and_default_path_follows_the_environment(tmp_path, monkeypatch):
    from recorder import EventStore, default_db_path

    monkeypatch.setenv("TABLELOG_DB", str(tmp_path / "x" / "y.db"))
    assert default_db_path() == Path(tmp_path / "x" / "y.db")
    with EventStore.open() as recorder:
        assert recorder.path == tmp_path / "x" / "y.db"
    assert (tmp_path / "x" / "y.db").exists()
    monkeypatch.delenv("TABLELOG_DB")
    assert default_db_path() == Path("data/tablelog.db")


# --- the chain: whatever changes the record shows ------------------------------------------


def test_events_and_games_refuse_rewrites(recorder, backend):
    refuse_rewrites(recorder, backend, recursive_triggers=False)


@pytest.mark.backends("sqlite")
def test_events_and_games_refuse_rewrites_with_recursive_triggers(recorder, backend):
    """SQLite's REPLACE deletes without firing delete triggers unless recursive_triggers
    is on: the refusals hold either way."""
    refuse_rewrites(recorder, backend, recursive_triggers=True)


def refuse_rewrites(recorder, backend, *, recursive_triggers: bool) -> None:
    gid = recorder.import_game(record(7)).game_id
    empty = recorder.create_game({"players": ["Eve", "Fay"]}, game_id="empty").id
    tables = (
        "SELECT * FROM games ORDER BY id",
        "SELECT * FROM events ORDER BY game_no, sequence",
        "SELECT * FROM event_types ORDER BY kind, code",
    )
    before = [backend.raw(sql) for sql in tables]
    statements = [
        *backend.tamper_statements(gid),
        *backend.game_tamper_statements(gid),
        *backend.game_tamper_statements(empty),
    ]
    for sql in statements:
        with pytest.raises(backend.integrity_errors) as err:
            backend.raw(sql, recursive_triggers=recursive_triggers)
        assert "append-only" in str(err.value) or "cannot be changed" in str(err.value), sql
    assert [backend.raw(sql) for sql in tables] == before
    # Only the store's bookkeeping changes as a game grows.
    backend.raw(
        "UPDATE games SET status = 'playing', last_activity = 'now', head = ? WHERE id = ?",
        ("0" * 64, empty),
        recursive_triggers=recursive_triggers,
    )


def logged_game(seed: int) -> tuple[list[dict], list[dict | None]]:
    """A whole game's payloads with comments, annotations and a correction: the move
    at step 6 taken back at step 7 and played again at step 8."""
    p = payloads(seed)
    events = [*p[:6], {"type": "retraction", "back_to": 5}, *p[5:]]
    meta: list[dict | None] = [None] * len(events)
    meta[2] = {"comment": "Ann opens on the centre", "annotations": ["!?"]}
    meta[6] = {"comment": "wrong card"}
    meta[-1] = {"annotations": ["!"]}
    return events, meta


def test_the_same_game_has_the_same_head_however_it_was_recorded(recorder):
    events, meta = logged_game(9)
    headers = {"players": ["Ann", "Bo"], "date": "2024-06-01", "place": "Lyon"}
    whole = recorder.import_game(GameImport(headers=headers, events=events, meta=meta))
    head = recorder.game(whole.game_id).head
    assert len(head) == 64 and int(head, 16) >= 0
    # Logged move by move under another id, with event ids of the writer's own.
    live = recorder.create_game(headers, game_id="live").id
    assert recorder.game(live).head == recorder.verification.step_hash(whole.game_id, 0)
    for i, (event, m) in enumerate(zip(events, meta, strict=True)):
        recorder.append(live, i, [event], meta=[m], event_ids=[f"e{i}"])
        assert recorder.game(live).head == recorder.verification.step_hash(whole.game_id, i + 1)
    assert recorder.game(live).head == head
    # With the outcome in its headers (as an export of the finished game carries it).
    ended = recorder.game(whole.game_id)
    outcome = {
        **headers,
        "result": ("1-0", "0-1")[ended.winner],
        "tags": {"Victory": ended.condition},
    }
    again = recorder.import_game(
        GameImport(headers=outcome, events=events, meta=meta, game_id="with-result")
    )
    assert recorder.game(again.game_id).head == head
    # Another comment, another player or another place is another record.
    for i, (other_headers, other_meta) in enumerate(
        (
            (headers, [*meta[:2], {"comment": "Ann opens elsewhere"}, *meta[3:]]),
            (headers, [*meta[:-1], None]),
            ({**headers, "players": ["Ann", "Cy"]}, meta),
            ({**headers, "place": "Paris"}, meta),
        )
    ):
        other = recorder.import_game(
            GameImport(headers=other_headers, events=events, meta=other_meta, game_id=f"o{i}")
        )
        assert recorder.game(other.game_id).head != head
    assert recorder.verification.verify() == []


def first_findings(findings) -> dict[str, tuple[str, int | None]]:
    """Each game's first finding as (check, step)."""
    out: dict[str, tuple[str, int | None]] = {}
    for f in findings:
        out.setdefault(f.game, (f.check, f.step))
    return out


def test_verify_finds_the_stored_violations_of_a_flagged_move_edited(recorder, backend):
    """The violations kept for a decision played though illegal are outside the chain:
    verify finds them again by the fold, and names the step whose stored ones differ."""
    setup = payloads(6)[0]
    take = illegal_take(GAME.replay([ev.event_from_dict(setup)]))
    rec = GameImport(
        headers={"players": ["Ann", "Bo"]},
        events=[setup, take],
        meta=[None, {"played_illegally": True}],
    )
    flagged = recorder.import_game(rec).game_id
    clean = recorder.import_game(record(6)).game_id
    assert recorder.verification.verify() == []
    stored = recorder.events(flagged)[1].meta["violations"]
    code = stored[0]["code"]
    game = "game_no = (SELECT no FROM games WHERE id = '{}')"
    backend.tamper(
        # the flagged move's violation worded away
        f"UPDATE events SET meta = replace(meta, '\"{code}\"', '\"forgiven\"')"
        f" WHERE {game.format(flagged)} AND sequence = 2",
        # a violation added to a legal move
        'UPDATE events SET meta = \'{"violations": [{"code": "made_up"}]}\''
        f" WHERE {game.format(clean)} AND sequence = 3",
    )
    found = [f for f in recorder.verification.verify() if f.check == "violations"]
    assert [(f.game, f.step) for f in found] == sorted(
        [(flagged, 2), (clean, 3)], key=lambda x: x[0]
    )
    text = {f.game: str(f) for f in found}
    assert f"(forgiven) are not the ones the rules find ({code})" in text[flagged]
    assert "(made_up) are not the ones the rules find (none)" in text[clean]


def test_verify_names_each_change_by_game_and_step(recorder, backend):
    events, meta = logged_game(10)
    ids = []
    for i in range(8):
        gid = f"g{i}"
        recorder.import_game(
            GameImport(headers={"players": ["Ann", "Bo"]}, events=events, meta=meta, game_id=gid)
        )
        ids.append(gid)
    assert recorder.verification.verify() == []
    g = {gid: f"game_no = (SELECT no FROM games WHERE id = '{gid}')" for gid in ids}
    sequence_swap = (
        f"UPDATE events SET sequence = -sequence WHERE {g['g4']} AND sequence IN (10, 11)",
        f"UPDATE events SET sequence = 21 + sequence WHERE {g['g4']} AND sequence IN (-10, -11)",
    )
    backend.tamper(
        # g0 is left alone.
        # g1: a move's payload.
        f"UPDATE events SET (type, payload) = (SELECT type, payload FROM events WHERE {g['g1']}"
        f" AND sequence = 4) WHERE {g['g1']} AND sequence = 5",
        # g2: a comment.
        "UPDATE events SET meta = replace(meta, 'Ann opens on', 'Bo opens on')"
        f" WHERE {g['g2']} AND sequence = 3",
        # g3: a header (and its column, consistently).
        "UPDATE games SET headers = replace(headers, '\"Bo\"', '\"Cy\"'),"
        " players = replace(players, '\"Bo\"', '\"Cy\"') WHERE id = 'g3'",
        # g4: steps 10 and 11 swapped.
        *sequence_swap,
        # g5: step 20 deleted.
        f"DELETE FROM events WHERE {g['g5']} AND sequence = 20",
        # g6: the last step deleted, and its summary and snapshot with it.
        f"DELETE FROM events WHERE {g['g6']} AND sequence ="
        f" (SELECT max(sequence) FROM events WHERE {g['g6']})",
        # g7: the summary says someone else won.
        "UPDATE game_summaries SET winner_name = 'Eve' WHERE game_id = 'g7'",
    )
    findings = recorder.verification.verify()
    assert all(f.game in ids for f in findings)
    first = first_findings(findings)
    assert "g0" not in first
    assert first["g1"] == ("chain", 5)
    assert first["g2"] == ("chain", 3)
    assert first["g3"] == ("chain", 1)
    assert first["g4"] == ("chain", 10)
    assert first["g5"] == ("chain", 20)
    assert first["g6"][0] == "head"
    assert first["g7"] == ("projection", None)
    text = [str(f) for f in findings]
    assert any(t.startswith("game g1: step 5: the stored hash does not follow") for t in text)
    assert any(t.startswith("game g5: step 20: missing") for t in text)
    assert any("winner_name is 'Eve'" in t for t in text if t.startswith("game g7"))
    # Each change is named where it was made, even when several steps were changed.
    assert [f.step for f in findings if f.game == "g4" and f.check == "chain"] == [10, 11, 12]
    assert recorder.verification.verify(["g0"]) == []
    assert [f.game for f in recorder.verification.verify(["g2"])] == ["g2"]


def test_a_chain_rewritten_whole_still_differs_from_a_kept_head(recorder, backend):
    """Whoever recomputes every hash escapes the plain check; a head kept by a player
    (or keyed with the server's secret) still tells."""
    from recorder import chain

    gid = recorder.import_game(record(12)).game_id
    kept = recorder.game(gid).head
    game = f"game_no = (SELECT no FROM games WHERE id = '{gid}')"
    backend.tamper(
        f"UPDATE events SET (type, payload) = (SELECT type, payload FROM events WHERE {game}"
        f" AND sequence = 2) WHERE {game} AND sequence = 3"
    )
    rows = backend.raw(
        "SELECT l.payload, e.meta FROM event_log AS l JOIN events AS e"
        " ON e.game_no = (SELECT no FROM games WHERE id = l.game_id) AND e.sequence = l.sequence"
        " WHERE l.game_id = ? ORDER BY l.sequence",
        (gid,),
    )
    hashes = list(chain.stored_links("splendor-duel", {"players": ["Ann", "Bo"]}, rows))
    backend.tamper(
        *(
            f"UPDATE events SET hash = {backend.blob(h)} WHERE {game} AND sequence = {i}"
            for i, h in enumerate(hashes, start=1)
        ),
        f"UPDATE games SET head = '{hashes[-1].hex()}' WHERE id = '{gid}'",
    )
    assert [f.check for f in recorder.verification.chain_findings(gid)] == []
    assert recorder.game(gid).head != kept
    assert chain.keyed(recorder.game(gid).head, "secret") != chain.keyed(kept, "secret")


def test_verify_reports_a_dropped_trigger_and_a_changed_snapshot(recorder, backend):
    from recorder.prepare import STORED_EVERY

    gid = recorder.create_game({"players": ["Ann", "Bo"]}).id
    p = payloads(13)
    recorder.append(gid, 0, p[:STORED_EVERY])
    recorder.append(gid, STORED_EVERY, p[STORED_EVERY : STORED_EVERY + 8])
    game = f"game_no = (SELECT no FROM games WHERE id = '{gid}')"
    (step,) = backend.raw(f"SELECT max(step) FROM snapshots WHERE {game}")[0]
    backend.tamper(
        f"UPDATE snapshots SET position = (SELECT position FROM snapshots WHERE {game}"
        f" ORDER BY step LIMIT 1) WHERE {game} AND step = {step}",
    )
    backend.tamper("SELECT 1", keep_triggers_off=True)
    found = {(f.check, f.step) for f in recorder.verification.verify()}
    assert ("snapshot", step) in found
    assert ("trigger", None) in found


def test_a_snapshot_that_does_not_unpack_is_not_used_and_verify_names_it(recorder, backend):
    from recorder.prepare import STORED_EVERY

    gid = recorder.import_game(record(15)).game_id
    at = STORED_EVERY + 3
    want = GAME.position(recorder.state_at(gid, at))
    backend.tamper(
        f"UPDATE snapshots SET position = {backend.blob(b'not deflated')}"
        f" WHERE game_no = (SELECT no FROM games WHERE id = '{gid}') AND step = {STORED_EVERY}"
    )
    with backend.open() as fresh:
        assert GAME.position(fresh.state_at(gid, at)) == want  # folded from the first event
        findings = [(f.step, f.check, f.message) for f in fresh.verification.verify([gid])]
    assert findings == [(STORED_EVERY, "snapshot", "the snapshot cannot be read")]


def test_verify_reports_unreadable_rows_instead_of_failing(recorder, backend):
    events, meta = logged_game(14)
    for gid in ("list", "meta", "payload"):
        recorder.import_game(
            GameImport(headers={"players": ["Ann", "Bo"]}, events=events, meta=meta, game_id=gid)
        )
    backend.tamper(
        "UPDATE games SET headers = '[\"Ann\", \"Bo\"]' WHERE id = 'list'",
        "UPDATE events SET meta = 'not json'"
        " WHERE game_no = (SELECT no FROM games WHERE id = 'meta') AND sequence = 3",
        'UPDATE events SET type = NULL, payload = \'{"type": "nothing"}\''
        " WHERE game_no = (SELECT no FROM games WHERE id = 'payload') AND sequence = 4",
    )
    found = {(f.game, f.step, f.check) for f in recorder.verification.verify() if f.game}
    assert ("list", 1, "chain") in found
    assert ("meta", 3, "chain") in found
    assert ("payload", 4, "chain") in found
    assert ("payload", 4, "fold") in found


# --- a game voided -------------------------------------------------------------------------


def test_a_void_game_leaves_the_lists_takes_no_move_and_keeps_its_record(recorder, backend):
    """Voiding writes a reason no client may change or delete; the game leaves every list,
    count and statistic unless asked for with void games; nothing more is appended; it
    still exports (with its Void header, which an import keeps) and verifies."""
    from recorder import GameVoid, StoreError
    from recorder.io import export_json, export_notation, load_text

    kept = recorder.import_game(record(3, ("Ann", "Bo"))).game_id
    live = recorder.create_game({"players": ["Ann", "Dee"]}).id
    recorder.append(live, 0, payloads(4)[:5])
    events_before = backend.raw("SELECT count(*) FROM events")
    with pytest.raises(StoreError, match="one line of 1 to 200"):
        recorder.void_game(live, "  ")
    row = recorder.void_game(live, "started  by mistake")
    assert row.void == "started by mistake" and row.event_count == 5
    assert backend.raw("SELECT count(*) FROM events") == events_before  # nothing deleted
    assert [g.id for g in recorder.listing.games()] == [kept]
    assert recorder.listing.count() == 1 and recorder.listing.count(player="dee") == 0
    # a player's games counted on the players' index, the void one taken off, bounded too
    assert recorder.listing.count(player="ann") == 1
    assert recorder.listing.count(player="ann", at_most=0) == 1
    assert recorder.listing.count(player="ann", at_most=5) == 1
    assert recorder.listing.count(player="ann", with_void=True, at_most=5) == 2
    assert {g.id for g in recorder.listing.games(with_void=True)} == {kept, live}
    assert recorder.listing.count(with_void=True, at_most=10) == 2
    assert recorder.listing.page(player="Dee", with_void=True).games[0].void == row.void
    assert recorder.listing.player_stats("Ann").games == 1
    with pytest.raises(GameVoid, match="is void \\(started by mistake\\)"):
        recorder.append(live, 5, payloads(4)[5:6])
    with pytest.raises(GameVoid, match="void already"):
        recorder.void_game(live, "again")
    assert recorder.game(live).event_count == 5
    for sql in (
        "DELETE FROM game_voids",
        f"UPDATE game_voids SET reason = 'x' WHERE game_id = '{live}'",
    ):
        with pytest.raises(backend.integrity_errors, match="append-only"):
            backend.raw(sql)
    assert recorder.verification.verify() == []
    assert recorder.rebuild_projections() == 2 and recorder.listing.count() == 1
    assert recorder.verification.verify() == []

    text = export_notation(recorder, live)
    assert '[Void "started by mistake"]' in text
    again = recorder.import_game(load_text(text, "void.tl")[0]).game_id
    assert again != live and recorder.game(again).void == "started by mistake"
    assert export_notation(recorder, again) == text
    assert '"Void": "started by mistake"' in export_json(recorder, live)
    assert recorder.listing.count() == 1 and recorder.verification.verify() == []
