"""A game's review in the store, on every backend (a real SQLite file, the throwaway
PostgreSQL cluster) and for every game: saved lines, marks and notes are review events
apart from the record, whose chain and head do not change; the notation carries them
there and back byte for byte; verify checks them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.games import GAMES, get_game
from recorder import Recorder, open_store
from recorder import review as rv
from recorder.copy import copy_games
from recorder.io import export_notation, game_import_from_events, import_files, load_text

KINDS = sorted(GAMES)


def _stored(store: Recorder, kind: str, seed: int = 3) -> str:
    rules = get_game(kind)
    events = rules.random_game(random.Random(seed))
    names = [f"P{i}" for i in range(len(rules.new_state(None).names))]
    record = game_import_from_events(events, {"players": names}, kind=kind)
    return store.import_game(record).game_id


def _legal(store: Recorder, game_id: str, address: str, count: int, seed: int = 1) -> list[str]:
    """``count`` decisions that read from ``address`` (as a reviewer would type them)."""
    game = rv.load(store, game_id)
    state, _, _, _ = rv.position_at(game.record, game.review, address)
    rules = game.rules
    rng = random.Random(seed)
    moves: list[str] = []
    while len(moves) < count:
        texts = rules.legal_move_texts(state)
        rng.shuffle(texts)
        for text in texts:
            read = rules.read_moves(state, text)
            if read.ok:
                moves.append(read.texts[0] if len(read.texts) == 1 else text)
                state = read.state
                break
        else:
            break
    return moves


def _review(store: Recorder, game_id: str) -> None:
    """Two lines, one nested in the other, marks and notes on the record and a line."""
    first, _ = rv.save_line(store, game_id, "10", _legal(store, game_id, "10", 5), "Chloé")
    nested_from = f"10/{first.number}.2"
    rv.save_line(store, game_id, nested_from, _legal(store, game_id, nested_from, 3), "Ann")
    # a line in place of the first line's first decision, nested after it (K = 0)
    sibling = f"10/{first.number}.0"
    rv.save_line(store, game_id, sibling, _legal(store, game_id, sibling, 2, seed=9), "Bo")
    rv.add_mark(store, game_id, "14", "?!", "too greedy", "Chloé")
    rv.add_mark(store, game_id, f"10/{first.number}.1", "!!", None, "Ann")
    rv.add_mark(store, game_id, "20", None, "the turning point", "Bo")


@pytest.mark.parametrize("kind", KINDS)
def test_the_review_leaves_the_record_and_its_head_alone(recorder: Recorder, kind: str) -> None:
    game_id = _stored(recorder, kind)
    head = recorder.verification.step_hash(game_id)
    hashes = recorder.verification.step_hashes(game_id)
    main = export_notation(recorder, game_id, main_line=True)
    _review(recorder, game_id)
    assert recorder.verification.step_hash(game_id) == head
    assert recorder.verification.step_hashes(game_id) == hashes
    assert recorder.verification.verify([game_id]) == []
    assert len(recorder.review_events(game_id)) == 6
    # the record exported alone is what it was
    assert export_notation(recorder, game_id, main_line=True) == main
    with_review = rv.write_notation(recorder, game_id, recorder.game(game_id).headers, False)
    assert with_review != main and with_review.count("(") > main.count("(")


@pytest.mark.parametrize("kind", KINDS)
def test_a_reviewed_game_round_trips_byte_identical(recorder: Recorder, kind: str) -> None:
    game_id = _stored(recorder, kind)
    _review(recorder, game_id)
    headers = recorder.game(game_id).headers
    text = rv.write_notation(recorder, game_id, headers, False)
    (record,) = load_text(text, "reviewed.tl")
    # into a store of its own: the file's review becomes review events again
    rules = get_game(kind)
    parsed = rules.read_game(text, "reviewed.tl")
    assert parsed.ok, parsed.errors
    items = rv.from_parsed(rules, parsed)
    assert [k for k, _ in items].count("line") == 3
    # the import stores the file's review with the game, in its transaction
    other = _stored_copy(recorder, record)
    assert [(e.kind, e.body) for e in recorder.review_events(other)] == items
    assert rv.write_notation(recorder, other, recorder.game(other).headers, False) == text
    assert recorder.verification.verify([other]) == []


def _stored_copy(store: Recorder, record: Any) -> str:
    record.game_id = "copy" + "0" * 8
    record.parsed = None
    record.folded = None
    return store.import_game(record).game_id


@pytest.mark.parametrize("kind", KINDS)
def test_withdrawn_lines_stay_in_the_history(recorder: Recorder, kind: str) -> None:
    game_id = _stored(recorder, kind)
    line, _ = rv.save_line(recorder, game_id, "8", _legal(recorder, game_id, "8", 2), "Ann")
    rv.add_mark(recorder, game_id, f"8/{line.number}.1", "?", None, "Ann")
    rv.withdraw_line(recorder, game_id, line.number, "Ann")
    game = rv.load(recorder, game_id)
    assert game.review.lines[line.number].withdrawn
    assert not game.review.standing_marks()
    assert [e.kind for e in recorder.review_events(game_id)] == ["line", "mark", "withdraw"]
    main = export_notation(recorder, game_id, main_line=True)
    assert rv.write_notation(recorder, game_id, recorder.game(game_id).headers, False) == main
    with pytest.raises(rv.ReviewRefused, match="no standing saved line"):
        rv.add_mark(recorder, game_id, f"8/{line.number}.1", "!", None, "Ann")


@pytest.mark.parametrize("kind", KINDS)
def test_refusals_write_nothing(recorder: Recorder, kind: str) -> None:
    game_id = _stored(recorder, kind)
    steps = len(recorder.events(game_id))
    with pytest.raises(rv.ReviewRefused, match=r"a mark is one of ! \? !! \?\? !\? \?!"):
        rv.add_mark(recorder, game_id, "5", "!!!", None, "Ann")
    with pytest.raises(rv.ReviewRefused, match=f"steps 1 to {steps - 1}, not {steps + 5}"):
        rv.save_line(recorder, game_id, str(steps + 5), ["take a1"], "Ann")
    with pytest.raises(rv.ReviewRefused, match="400 decisions at most; this one has 10,000"):
        rv.save_line(recorder, game_id, "5", ["take a1"] * 10_000, "Ann")
    # an illegal decision: refused with its rule (and its page where the rulebook has one)
    game = rv.load(recorder, game_id)
    state = game.record.fold.state_at(5)
    legal = set(game.rules.legal_move_texts(state))
    later = [
        game.rules.move_text(game.record.fold.state_at(s), game.record.fold.event(s + 1))
        for s in range(6, 40)
    ]
    bad = next(t for t in later if t not in legal and not game.rules.read_moves(state, t).ok)
    with pytest.raises(rv.ReviewRefused) as refused:
        rv.save_line(recorder, game_id, "5", [bad], "Ann")
    assert refused.value.move == 1 and "move 1:" in str(refused.value)
    assert recorder.review_events(game_id) == []


def test_a_stale_review_length_is_a_conflict(recorder: Recorder) -> None:
    game_id = _stored(recorder, "splendor-duel")
    rv.add_mark(recorder, game_id, "5", "!", None, "Ann")
    with pytest.raises(rv.ReviewConflict, match="expected a review of 0 events, but it has 1"):
        rv.add_mark(recorder, game_id, "6", "?", None, "Bo", expected=0)
    assert len(recorder.review_events(game_id)) == 1


def test_review_events_are_append_only(recorder: Recorder, backend: Any) -> None:
    game_id = _stored(recorder, "splendor-duel")
    rv.add_mark(recorder, game_id, "5", "!", "a note", "Ann")
    for sql in (
        "UPDATE review_events SET author = 'Eve'",
        "DELETE FROM review_events",
    ):
        with pytest.raises(Exception, match="append-only"):
            backend.raw(sql)
    with pytest.raises(Exception, match="must be the next of its game"):
        backend.raw(
            "INSERT INTO review_events (game_id, seq, kind, body, author, recorded_at)"
            " VALUES (?, 5, 'mark', ?, 'Eve', '2024-01-01T00:00:00Z')",
            (game_id, '{"at": "5", "mark": "!", "note": null}'),
        )
    assert [(e.seq, e.author) for e in recorder.review_events(game_id)] == [(1, "Ann")]


def test_verify_names_a_review_that_no_longer_holds(recorder: Recorder, backend: Any) -> None:
    game_id = _stored(recorder, "splendor-duel")
    rv.add_mark(recorder, game_id, "5", "!", None, "Ann")
    # a mark on a step the game does not have, written behind the store's checks
    backend.raw(
        "INSERT INTO review_events (game_id, seq, kind, body, author, recorded_at)"
        " VALUES (?, 2, 'mark', ?, 'Eve', '2024-01-01T00:00:00Z')",
        (game_id, '{"at": "9999", "mark": "!", "note": null}'),
    )
    findings = recorder.verification.verify([game_id])
    assert [(f.check, f.game) for f in findings] == [("review", game_id)]
    assert "review event 2 (mark)" in findings[0].message and "9999" in findings[0].message


@pytest.mark.parametrize("kind", KINDS)
def test_import_stores_a_files_review_and_export_gives_the_file_back(
    recorder: Recorder, kind: str, tmp_path: Any
) -> None:
    game_id = _stored(recorder, kind)
    _review(recorder, game_id)
    text = export_notation(recorder, game_id)
    main = export_notation(recorder, game_id, main_line=True)
    path = tmp_path / "reviewed.tl"
    path.write_text(text, encoding="utf-8")
    # the same game under another id: the file's identity headers changed
    other = path.with_name("other.tl")
    other.write_text(text.replace("\n\n", '\n[Round "2"]\n\n', 1), encoding="utf-8")
    ((_, _, result),) = list(import_files(recorder, [other]))
    assert result.created and result.game_id != game_id
    # (a mark and its note given at once come back as two review events: the same review)
    assert {e.kind for e in recorder.review_events(result.game_id)} == {"line", "mark"}
    assert export_notation(recorder, result.game_id) == other.read_text(encoding="utf-8")
    assert recorder.verification.verify([result.game_id]) == []
    # the record's head is the head of the record alone: the review is not in the chain
    (alone,) = list(import_files(recorder, [_written(tmp_path / "main.tl", main)]))
    assert alone[2].game_id == game_id
    assert recorder.game(game_id).head == recorder.verification.step_hash(game_id)


def _written(path: Any, text: str) -> Any:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.backends("sqlite")
def test_copy_carries_the_review(recorder: Recorder, pg_url: str) -> None:
    game_id = _stored(recorder, "splendor")
    _review(recorder, game_id)
    rv.withdraw_line(recorder, game_id, 1, "Ann")
    with open_store(pg_url) as target:
        (copied,) = copy_games(recorder, target, [game_id])
        assert copied.problem is None, copied.problem
        assert target.review_events(game_id) == recorder.review_events(game_id)
        assert export_notation(target, game_id) == export_notation(recorder, game_id)
        assert target.verification.verify([game_id]) == []
