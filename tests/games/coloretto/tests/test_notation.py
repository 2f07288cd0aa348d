"""Coloretto's notation: every sample reads, and read -> write -> read gives the same
game (and the canonical text again); so do 200 seeded random games for each number of
players; errors name their line and column and the rule; a move typed by hand reads."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from coloretto import GAME
from coloretto.cards import WORDS
from coloretto.events import CardDrawn, CardPlaced, CardRevealed, RowTaken

from engine.corrections import Retraction

GAMES = Path(__file__).resolve().parents[1] / "games"
SAMPLES = sorted(GAMES.glob("*.tl"))
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def test_there_are_samples_for_every_number_of_players() -> None:
    seats = set()
    for path in SAMPLES:
        parsed = GAME.read_game(path.read_text(), str(path))
        seats.add(len(parsed.names))
    assert seats == {2, 3, 4, 5}


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_sample_reads_and_round_trips(path: Path) -> None:
    parsed = GAME.read_game(path.read_text(), str(path))
    assert parsed.errors == []
    state = parsed.state
    assert GAME.status(state).phase == "finished"
    assert state.last_drawn  # every complete game draws the last-round card
    text = GAME.write_game(parsed.headers, parsed.events, parsed.meta)
    again = GAME.read_game(text)
    assert again.errors == [] and again.events == parsed.events and again.meta == parsed.meta
    assert GAME.write_game(again.headers, again.events, again.meta) == text
    marks = [bool(m and m.get("played_illegally")) for m in parsed.meta]
    folded = GAME.fold(parsed.events, parsed.names, marks).head
    assert GAME.position(folded) == GAME.position(state) == GAME.position(again.state)


def test_the_annotated_sample_keeps_its_comments_marks_and_correction() -> None:
    path = GAMES / "2-players-annotated.tl"
    parsed = GAME.read_game(path.read_text(), str(path))
    comments = [m["comment"] for m in parsed.meta if m and "comment" in m]
    assert any("last-round card" in c for c in comments)
    assert any("!?" in m.get("annotations", []) for m in parsed.meta if m)
    assert any(isinstance(e, Retraction) for e in parsed.events)
    assert "undo" in GAME.write_game(parsed.headers, parsed.events, parsed.meta)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_200_random_games_round_trip(players: int) -> None:
    names = NAMES[:players]
    for seed in range(200):
        events = GAME.random_game(random.Random(seed), names)
        text = GAME.write_game({"players": names}, events)
        parsed = GAME.read_game(text, texts=True)
        assert parsed.errors == [], (seed, parsed.errors[0])
        assert parsed.events == events
        assert GAME.write_game(parsed.headers, parsed.events) == text
        assert GAME.position(parsed.state) == GAME.position(GAME.replay(events, names))
        assert parsed.texts[1:] == [GAME.move_text(parsed.state, e) for e in events[1:]]


def _three() -> str:
    return (
        '[Game "Coloretto"]\n[Player1 "Ann"]\n[Player2 "Bob"]\n[Player3 "Cid"]\n'
        '[First "Ann"]\n\nremoved pink\nstart blue / brown / green\n'
    )


def test_a_refused_decision_names_its_line_column_and_rule() -> None:
    text = _three() + (
        "1. Ann: draw yellow row 1\n2. Bob: draw yellow row 1\n3. Cid: draw yellow row 1\n"
        "4. Ann: draw orange row 1\n"
    )
    parsed = GAME.read_game(text)
    (error,) = parsed.errors
    assert (error.line, error.column, error.kind) == (12, 21, "illegal")
    assert error.violations[0].code == "place.full"
    assert error.violations[0].rule.page == 2
    assert "row 1 is not allowed here" in str(error)
    assert len(parsed.events) == 1 + 9 + 2  # the legal prefix, up to the card drawn


def test_syntax_errors_point_at_the_word() -> None:
    parsed = GAME.read_game(_three() + "1. Ann: drw yellow row 1\n")
    error = parsed.errors[0]
    assert (error.line, error.column) == (9, 9) and "did you mean draw" in error.message
    parsed = GAME.read_game(_three() + "1. Ann: draw +2 row 1\n")
    assert "plus" in parsed.errors[0].message and parsed.errors[0].column == 14
    parsed = GAME.read_game(_three() + "1. Bob: draw green row 1\n")
    assert (
        parsed.errors[0].kind == "unknown" and "not the player to move" in parsed.errors[0].message
    )


def test_the_setup_is_checked_as_the_table_lays_it_out() -> None:
    head = '[Game "Coloretto"]\n[Player1 "Ann"]\n[Player2 "Bob"]\n[First "2"]\n\n'
    good = GAME.read_game(head + "removed grey orange\nstart pink y / g blue\n")
    assert good.errors == [] and good.state.hands[0][5] == 1 and good.state.current == 1
    bad = GAME.read_game(head + "removed grey\nstart pink / green\n")
    assert bad.errors[0].kind == "illegal"
    assert {v.code for v in bad.errors[0].violations} == {"setup.removed", "setup.start"}
    unknown = GAME.read_game(head + "removed purple orange\nstart pink y / g blue\n")
    assert unknown.errors[0].kind == "unknown" and unknown.errors[0].column == 9
    missing = GAME.read_game(head + "removed grey orange\n1. Bob: draw\n")
    assert "start missing" in missing.errors[0].message


def test_the_result_header_must_agree() -> None:
    path = GAMES / "3-players.tl"
    text = path.read_text().replace('[Result "1"]', '[Result "2"]')
    parsed = GAME.read_game(text)
    assert parsed.errors[0].violations[0].code == "result.mismatch"


def test_moves_typed_by_hand() -> None:
    names = NAMES[:3]
    events = GAME.random_game(random.Random(9), names)
    state = GAME.replay(events[:1], names)
    for typed in (
        "Draw Green 2",
        "draw g row 2",
        "DRAW GREEN ROW 2",
        f"1. {names[state.current]}: draw green row 2",
    ):
        read = GAME.read_moves(state, typed)
        assert read.errors == [] and read.events == [CardDrawn(), CardRevealed(2), CardPlaced(1)], (
            typed
        )
        assert read.texts == ["draw", "green", "row 2"]
    assert GAME.parse_move(state, "draw") == CardDrawn()
    after = GAME.read_moves(state, "draw plus row 1").state
    assert GAME.parse_move(after, "Take row 1") == RowTaken(0)
    verdict = GAME.check_move(after, "take 1")
    assert verdict.legal and verdict.text == "take 1" and verdict.changes
    refused = GAME.check_move(after, "take 2")
    assert not refused.legal and refused.violations[0].code == "take.empty"
    assert GAME.check_move(after, "pass").error is not None


def test_undo_takes_back_the_decision_with_the_card_it_showed() -> None:
    names = NAMES[:2]
    events = GAME.random_game(random.Random(4), names)[:1]
    state = GAME.replay(events, names)
    colour = WORDS[state.colours[0]]
    read = GAME.read_moves(state, f"draw {colour} row 1")
    assert read.errors == [] and len(read.events) == 3
    events += read.events
    state = read.state
    undo = GAME.read_moves(state, "undo", events, [None] * len(events))
    assert undo.errors == [] and isinstance(undo.events[0], Retraction)
    assert undo.state.awaiting == "place"  # the placement undone, the card still drawn


def test_four_and_five_players_remove_nothing_and_may_say_so() -> None:
    head = '[Game "Coloretto"]\n' + "".join(
        f'[Player{i + 1} "{n}"]\n' for i, n in enumerate(NAMES[:4])
    )
    head += '[First "1"]\n\n'
    for removed in ("", "removed\n", "removed -\n", "removed none\n"):
        parsed = GAME.read_game(head + removed + "start blue / brown / green / grey\n")
        assert parsed.errors == [] and parsed.state.removed == (), removed
    parsed = GAME.read_game(head + "removed pink\nstart blue / brown / green / grey\n")
    assert parsed.errors[0].violations[0].code == "setup.removed"


def test_a_broken_text_is_reported_never_raised() -> None:
    rng = random.Random(0)
    texts = [path.read_text() for path in SAMPLES]
    words = ["draw", "row", "take", "green", "plus", "last", "j", "9", "undo", "!illegal"]
    words += ["{x", "(n)", "/", "removed", "start", "5.", "Bob:", "+2", "red", "undo to 3"]
    for _ in range(150):
        lines = rng.choice(texts).split("\n")
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(lines))
            ws = lines[k].split(" ")
            ws.insert(rng.randrange(len(ws) + 1), rng.choice(words))
            if len(ws) > 2 and rng.random() < 0.5:
                del ws[rng.randrange(len(ws))]
            lines[k] = " ".join(ws)
        text = "\n".join(lines)
        for stop in (True, False):
            parsed = GAME.read_game(text, stop_at_first_error=stop)
            for error in parsed.errors:
                assert error.line >= 1 and error.column >= 1 and error.message
        state = parsed.state
        typed = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 5)))
        GAME.read_moves(state, typed)
        GAME.check_move(state, typed)
