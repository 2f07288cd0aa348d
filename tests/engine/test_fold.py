"""The one fold (engine.fold.Fold): every step's state, corrections, forced steps and
snapshots agree with a fresh fold of the same events, for every game."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.corrections import CorrectionRefused, Retraction
from engine.errors import IllegalMoveError
from engine.fold import SNAPSHOT_EVERY, Fold, fold
from engine.games import GAMES, get_game

KINDS = sorted(GAMES)


def _game_with_corrections(rules, seed: int) -> list:
    """A random game's first 40 events with two undos in it."""
    events = rules.random_game(random.Random(seed))[:40]
    # step 21 goes back to step 15; step 37 to step 25, which is the game's step 19
    return [*events[:20], Retraction(15), *events[15:30], Retraction(25), *events[19:]]


@pytest.mark.parametrize("kind", KINDS)
def test_every_step_equals_a_fresh_fold_of_its_standing_events(kind):
    rules = get_game(kind)
    events = _game_with_corrections(rules, 3)
    folded = Fold(rules, every=4).extend(events)
    assert folded.step == len(events)
    for step in range(len(events) + 1):
        fresh = fold(rules, events[:step]).head
        assert rules.position(folded.state_at(step)) == rules.position(fresh), step
    # the snapshots are copies: reading a step does not change the head or a snapshot
    head = rules.position(folded.head)
    rules.play(folded.state_at(7), events[7])  # (changes the state it was given)
    assert rules.position(folded.head) == head
    for step in (4, 6, 8):  # the snapshot at 4 it was made from, and the one at 8
        assert rules.position(folded.state_at(step)) == rules.position(
            fold(rules, events[:step]).head
        )


@pytest.mark.parametrize("kind", KINDS)
def test_standing_steps_leave_out_what_a_correction_took_back(kind):
    rules = get_game(kind)
    events = _game_with_corrections(rules, 4)
    folded = fold(rules, events)
    assert folded.standing == [*range(1, 16), *range(22, 26), *range(38, 59)]
    assert folded.step == 58


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_event_is_not_folded_and_names_its_step(kind):
    rules = get_game(kind)
    events = rules.random_game(random.Random(5))[:12]
    folded = fold(rules, events[:10])
    before = rules.position(folded.head)
    with pytest.raises(IllegalMoveError) as refused:
        folded.push(events[11])  # the event after next: not due yet
    assert refused.value.step == 11
    assert folded.step == 10 and rules.position(folded.head) == before
    with pytest.raises(CorrectionRefused):
        folded.push(Retraction(10))  # the game stands after step 10 already
    assert folded.step == 10


@pytest.mark.parametrize("kind", KINDS)
def test_a_fold_resumed_from_a_snapshot_reads_earlier_events_only_for_a_correction(kind):
    rules = get_game(kind)
    events = rules.random_game(random.Random(6))[:30]
    reads = []

    def earlier():
        reads.append(1)
        return events[:20], [False] * 20

    snapshot = fold(rules, events[:20]).head
    resumed = Fold.resume(rules, snapshot, 20, earlier).extend(events[20:25])
    assert not reads
    assert rules.position(resumed.head) == rules.position(fold(rules, events[:25]).head)
    resumed.push(Retraction(12))  # back before the snapshot: the earlier events are read
    assert reads == [1]
    assert resumed.step == 26
    assert resumed.standing == list(range(1, 13))
    assert rules.position(resumed.head) == rules.position(fold(rules, events[:12]).head)
    assert rules.position(resumed.state_at(22)) == rules.position(fold(rules, events[:22]).head)


def test_a_forced_step_keeps_its_violations():
    rules = get_game("splendor-duel")
    folded = fold(rules, rules.random_game(random.Random(8))[:1])
    apart = rules.parse_move(folded.head, "take a1 c3")  # not in one line
    found = rules.check(folded.head, apart)
    assert found
    with pytest.raises(IllegalMoveError):
        folded.push(apart)
    assert folded.push(apart, forced=True) == found
    assert folded.flagged == {2: found}
    assert folded.forced == {2}
    again = rules.parse_move(folded.state_at(1), "take a1 c3")
    with pytest.raises(IllegalMoveError):
        folded.push(again, forced=True)  # a1 is empty now: not even as played
    assert folded.step == 2


@pytest.mark.parametrize("kind", KINDS)
def test_read_moves_gives_each_event_its_canonical_text(kind):
    """What is played next, read at the table, comes with the text the notation writes
    for it, so the move is stored and answered without folding it again."""
    rules = get_game(kind)
    events = rules.random_game(random.Random(9))
    folded = Fold(rules, every=None)
    for step, event in enumerate(events[:60], start=1):
        state = folded.head.copy()
        text = rules.move_text(state, event)
        if step > 1:
            parsed = rules.read_moves(state, text, folded.events, [None] * (step - 1))
            assert not parsed.errors, (step, text, parsed.errors)
            assert parsed.events == [event] and parsed.texts == [text], step
        folded.push(event)
    parsed = rules.read_moves(folded.head.copy(), "undo", folded.events, [None] * 60)
    assert not parsed.errors and parsed.texts == ["undo"]
    assert type(parsed.events[0]) is Retraction


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("every", [None, 1, 3, 8])
def test_extend_folds_as_pushing_each_event_does(kind, every):
    """extend checks the events between two whole steps in a loop of its own: it must
    leave the fold as pushing them one at a time does (marks, corrections, snapshots)."""
    rules = get_game(kind)
    events = _game_with_corrections(rules, 6)
    marks = [i % 7 == 3 and type(e) is not Retraction for i, e in enumerate(events)]
    extended = Fold(rules, every=every).extend(events, marks)
    pushed = Fold(rules, every=every)
    for event, mark in zip(events, marks, strict=True):
        pushed.push(event, mark)
    assert extended.step == pushed.step == len(events)
    assert extended.forced == pushed.forced == {i + 1 for i, m in enumerate(marks) if m}
    assert extended._snapshots.keys() == pushed._snapshots.keys()
    for step in range(len(events) + 1):
        assert rules.position(extended.state_at(step)) == rules.position(pushed.state_at(step))


@pytest.mark.parametrize("kind", KINDS)
def test_a_fold_grown_by_events_folded_elsewhere_is_the_fold_of_them_all(kind):
    """:meth:`Fold.grown`, as the store's cache grows a game logged a move at a time: the
    events (two undos among them) applied by another fold, a move at a time; each new
    fold answers every step as a fresh fold does, and the one it grew from is unchanged."""
    rules = get_game(kind)
    events = _game_with_corrections(rules, 5)
    grown = Fold(rules).extend(events[:10])
    first = [rules.position(grown.state_at(s)) for s in range(11)]
    start = grown
    while grown.step < len(events):
        n = grown.step
        move = events[n : n + 3]
        elsewhere = Fold.resume(rules, grown.state_at(n), n, lambda n=n: (events[:n], [])).extend(
            move
        )
        grown = grown.grown(move, elsewhere.head)
    assert start.step == 10 and [rules.position(start.state_at(s)) for s in range(11)] == first
    fresh = fold(rules, events, every=1)
    for step in range(len(events) + 1):
        assert rules.position(grown.state_at(step)) == rules.position(fresh.state_at(step)), step
    # a snapshot kept about every SNAPSHOT_EVERY steps, as a fold would (moves of 3)
    steps = [0, *(s for s, _ in grown.snapshots()), grown.step]
    assert max(b - a for a, b in itertools.pairwise(steps)) <= SNAPSHOT_EVERY + 2


def test_a_fold_that_starts_at_a_snapshot_is_not_grown_by_an_undo_back_before_it():
    rules = get_game(KINDS[0])
    events = rules.random_game(random.Random(2))[:30]
    late = Fold.resume(rules, fold(rules, events[:20]).head, 20)
    with pytest.raises(ValueError, match="before step 20"):
        late.grown([Retraction(12)], fold(rules, events[:12]).head)
    assert late.grown([Retraction(20)], fold(rules, events[:20]).head).step == 21
