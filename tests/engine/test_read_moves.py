"""Logging at the table through the notation: one turn or decision read against a
position (``GameRules.read_moves``), corrections (``undo``, ``undo to K``) read, folded
and written back, retraction payloads, and cards named by description in place of ids."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_notation import HEAD as NOTATION_HEAD

from engine.corrections import Retraction, effective_steps, undo_target
from engine.fold import fold
from engine.games import get_game
from engine.splendor_duel.events import CardRevealed, event_from_dict, event_to_dict
from engine.splendor_duel.lookup import find_cards
from engine.splendor_duel.notation import GRAMMAR

GAME = get_game("splendor-duel")
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "games").glob("*.tl"))
NAMES = ("Ann", "Bob")
HEADERS = {"players": list(NAMES)}

#: The board as test_notation draws it (Gold on c5, d5, e5), the seats called Ann and Bob.
HEAD = NOTATION_HEAD.replace("Alice", "Ann")


def _split(text: str) -> tuple[str, list[str]]:
    """The headers and setup of a game (without Result and Victory), and its turn lines."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    head = [ln for ln in lines[:first] if not ln.startswith(("[Result", "[Victory"))]
    return "\n".join(head) + "\n", lines[first:]


def _start(text: str = HEAD):
    parsed = GAME.read_game(text)
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    return parsed.state, list(parsed.events), list(parsed.meta)


# --- read_moves on every turn line of the fixtures --------------------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_every_fixture_re_read_turn_by_turn_gives_the_same_events(path):
    text = path.read_text(encoding="utf-8")
    whole = GAME.read_game(text, str(path))
    head, turns = _split(text)
    state, events, meta = _start(head)
    before = GAME.position(state)
    for line in turns:
        got = GAME.read_moves(state, line, events, meta)
        assert got.errors == [], (line, [str(e) for e in got.errors])
        assert GAME.position(state) == before  # the caller's state is not changed
        events += got.events
        meta += got.meta
        state = got.state
        before = GAME.position(state)
    assert events == whole.events
    assert meta == whole.meta
    assert GAME.position(state) == GAME.position(whole.state)
    assert GAME.write_game(whole.headers, events, meta) == text


@pytest.mark.parametrize("path", FIXTURES[:2], ids=lambda p: p.stem)
def test_turn_lines_read_without_the_game_before_or_without_number_and_player(path):
    head, turns = _split(path.read_text(encoding="utf-8"))
    state, _, _ = _start(head)
    for line in turns:
        bare = line.split(": ", 1)[1] if ": " in line else line.split(". ", 1)[1]
        for text in (line, bare):
            got = GAME.read_moves(state, text)
            assert got.errors == [], (text, [str(e) for e in got.errors])
        state = got.state


def test_one_decision_at_a_time_continues_the_turn():
    state, events, meta = _start()
    got = GAME.read_moves(state, "res 3-01 @c5 {a start}")
    assert got.errors == [] and state.turn == 1 and got.state.awaiting == "reveal"
    assert got.meta == [{"comment": "a start"}]
    then = GAME.read_moves(got.state, "reveal 3-04")
    assert then.errors == [] and then.events == [CardRevealed("3-04")]
    assert then.state.turn == 2


def test_errors_carry_the_column_in_the_text():
    state, events, meta = _start()
    err = GAME.read_moves(state, "1. Ann: take z9").errors[0]
    assert (err.kind, err.line, err.column) == ("unknown", 1, 14)
    err = GAME.read_moves(state, "take a1 b5").errors[0]
    assert err.kind == "illegal" and err.column == 1 and err.violations
    assert err.violations[0].rule.page is not None  # cites the rulebook
    err = GAME.read_moves(state, "tkae a1").errors[0]
    assert err.kind == "syntax" and "did you mean take?" in err.message


def test_a_turn_or_player_that_does_not_match_names_what_is_due():
    state, events, meta = _start()
    err = GAME.read_moves(state, "3. Ann: take a1").errors[0]
    assert err.kind == "illegal" and err.column == 1
    assert "turn 3 starts here, but turn 1 is not over" in err.message
    assert err.violations[0].code == "turn.action_due"
    later = GAME.read_moves(state, "take a1").state
    err = GAME.read_moves(later, "1. Ann: take a2").errors[0]
    assert err.kind == "syntax" and err.column == 1
    assert "this is turn 2, not 1" in err.message and "Bob to play" in err.message
    err = GAME.read_moves(state, "1. Bob: take a1").errors[0]
    assert err.kind == "illegal" and err.column == 4
    assert "turn 1 is Ann's, not Bob's" in err.message and "Ann to play" in err.message
    err = GAME.read_moves(state, "1. Zoe: take a1").errors[0]
    assert err.kind == "unknown" and "no player 'Zoe'" in err.message


def test_a_player_named_without_the_turn_number_reads_as_that_players_turn():
    """``Ann: take a1`` (a name and a colon, as the docs allow a turn to be typed) is
    that player's turn: read when it is theirs, refused with whose turn it is when not;
    places are the typed text's."""
    state, events, meta = _start()
    assert GAME.read_moves(state, "Ann: take a1").events == GAME.read_moves(state, "take a1").events
    assert GAME.read_moves(state, "  ann:  take a1").events  # any case, spaces as they come
    err = GAME.read_moves(state, "Bob: take a1").errors[0]
    assert err.kind == "illegal" and err.column == 1
    assert "turn 1 is Ann's, not Bob's" in err.message
    err = GAME.read_moves(state, "Ann: take a1 z9").errors[0]
    assert err.column == 14 and "no space 'z9'" in err.message
    # a word before a colon that names nobody is not a turn: the decision's error
    err = GAME.read_moves(state, "Zoe: take a1").errors[0]
    assert err.column == 1 and "unknown decision 'Zoe:'" in err.message


def test_a_purchase_without_its_payment_says_the_payment_is_missing():
    """A purchase that reads but can be paid several ways is *incomplete*, not a syntax
    error: the message says what to add (both games)."""
    for kind in ("splendor-duel", "splendor"):
        rules = get_game(kind)
        events = rules.random_game(random.Random(3), list(NAMES))
        state = rules.new_state(NAMES)
        found = None
        for event in events:
            legal = [t for t in rules.legal_move_texts(state) if t.startswith("buy ")]
            cards = [t.split()[1] for t in legal]
            several = next((c for c in cards if cards.count(c) > 1), None)
            if several:
                found = (state.copy(), several)
                break
            rules.play(state, event)
        assert found is not None, kind
        at, card = found
        err = rules.read_moves(at, f"buy {card}").errors[0]
        assert err.kind == "incomplete" and err.column == 5, (kind, str(err))
        assert "ways" in err.message and "write the payment" in err.message
        assert str(err).split(": ")[1] == "incomplete move"


def test_nothing_to_read_is_an_error_and_a_leading_comment_goes_with_the_move():
    state, events, meta = _start()
    assert GAME.read_moves(state, "").errors[0].message.startswith("expected a turn")
    assert GAME.read_moves(state, "{just talk}").errors
    got = GAME.read_moves(state, "1. Ann: {thinking} take a1 {done}", events, meta)
    assert got.errors == [] and got.meta == [{"comment": "thinking done"}]
    assert meta[-1] is None  # the caller's meta is not changed


def test_a_move_marked_illegal_is_forced_and_flagged():
    state, events, meta = _start()
    got = GAME.read_moves(state, "take a1 c1 !illegal (disputed)", events, meta)
    assert got.errors == []
    assert got.meta == [{"annotations": ["disputed"], "played_illegally": True}]
    assert len(got.flagged) == 1 and got.flagged[0].event_number == 2
    assert got.flagged[0].violations[0].code == "take.not_a_line"
    refused = GAME.read_moves(state, "take a1 c1")
    assert refused.errors[0].kind == "illegal" and refused.events == []


# --- corrections ----------------------------------------------------------------------


def test_undo_takes_back_the_last_decision_with_its_reveal():
    state, events, meta = _start()
    got = GAME.read_moves(state, "1. Ann: res 3-01 @c5 reveal 3-04 undo", events, meta)
    assert got.errors == []
    assert got.events[-1] == Retraction(1)
    assert GAME.position(got.state) == GAME.position(state)
    again = GAME.read_moves(state, "undo", events, meta)
    assert again.errors[0].kind == "illegal"
    assert again.errors[0].violations[0].code == "correction.nothing_to_undo"
    assert GAME.read_moves(state, "undo").errors[0].kind == "syntax"  # needs the events
    assert "it is logged, not checked" in str(GAME.check_move(state, "undo").error)


def test_undo_to_a_step_and_its_errors():
    state, events, meta = _start()
    got = GAME.read_moves(state, "1. Ann: take a1 =W", events, meta)
    events += got.events
    meta += got.meta
    got = GAME.read_moves(got.state, "2. Bob: take b1 =B", events, meta)
    events += got.events
    meta += got.meta
    back = GAME.read_moves(got.state, "undo to 2 {Bob misread}", events, meta)
    assert back.errors == [] and back.events == [Retraction(2)]
    assert back.meta == [{"comment": "Bob misread"}]
    assert back.state.turn == 2
    bad = GAME.read_moves(got.state, "undo to 3", events, meta).errors[0]
    assert bad.kind == "illegal" and bad.column == 1
    assert bad.violations[0].code == "correction.nothing_retracted"
    bad = GAME.read_moves(got.state, "undo to 9", events, meta).errors[0]
    assert bad.violations[0].code == "correction.not_standing" and bad.event_number == 4
    bad = GAME.read_moves(got.state, "undo 2", events, meta).errors[0]
    assert bad.kind == "syntax" and bad.column == 6
    bad = GAME.read_moves(got.state, "undo !illegal", events, meta).errors[0]
    assert bad.kind == "syntax"


def test_a_file_with_corrections_folds_the_standing_steps():
    body = (
        "1. Ann: take a1 =W\n"
        "2. Bob: take b1 =B undo take c1 =G\n"
        "3. Ann: take d1 =R undo undo\n"
        "2. Bob: take e1 =K\n"
    )
    parsed = GAME.read_game(HEAD + body)
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    assert [type(e).__name__ for e in parsed.events].count("Retraction") == 3
    standing = [parsed.events[s - 1] for s in effective_steps(parsed.events)]
    direct = GAME.read_game(HEAD + "1. Ann: take a1 =W\n2. Bob: take e1 =K\n")
    assert standing == direct.events
    assert GAME.position(parsed.state) == GAME.position(direct.state)
    assert GAME.write_game(parsed.headers, parsed.events, parsed.meta).endswith(body)


def test_a_forced_move_is_forced_again_after_an_undo():
    body = "1. Ann: take a1 c1 !illegal\n2. Bob: take e1 =K undo take e2 =G\n"
    parsed = GAME.read_game(HEAD + body)
    assert parsed.errors == [] and len(parsed.flagged) == 1
    marks = [bool(m and m.get("played_illegally")) for m in parsed.meta]
    assert GAME.position(parsed.state) == GAME.position(
        fold(GAME, parsed.events, NAMES, marks).head
    )


def _random_game_with_undos(seed: int) -> list:
    rng = random.Random(seed)
    events = GAME.random_game(random.Random(seed))[:1]
    state = fold(GAME, events, NAMES).head
    for _ in range(rng.randrange(20, 140)):
        if state.awaiting == "over":
            break
        if rng.random() < 0.1 and len(effective_steps(events)) > 1:
            standing = effective_steps(events)
            k = undo_target(GAME, events) if rng.random() < 0.5 else rng.choice(standing[:-1])
            events.append(Retraction(k))
            state = fold(GAME, events, NAMES).head
            continue
        if state.awaiting == "reveal":
            level = (state.refill or (0, 0))[0]
            event = CardRevealed(rng.choice(sorted(state.unseen[level])))
        else:
            moves = [
                m
                for m in GAME.legal_moves(state)
                if not (m.type == "board_replenished" and m.tokens is None)
            ]
            if not moves:
                break
            event = rng.choice(moves)
        GAME.play(state, event)
        events.append(event)
    return events


@pytest.mark.parametrize("seed", range(120))
def test_random_games_with_undos_write_and_read_back_to_the_same_events(seed):
    events = _random_game_with_undos(seed)
    text = GAME.write_game(HEADERS, events)
    back = GAME.read_game(text, f"seed-{seed}")
    assert back.errors == [], [str(e) for e in back.errors]
    assert back.events == events
    assert GAME.write_game(back.headers, back.events, back.meta) == text
    # Every turn line re-logged one at a time gives the same events.
    head, turns = _split(text)
    state, logged, meta = _start(head)
    for line in turns:
        got = GAME.read_moves(state, line, logged, meta)
        assert got.errors == [], (line, [str(e) for e in got.errors])
        logged += got.events
        meta += got.meta
        state = got.state
    assert logged == events
    payloads = [GAME.event_to_dict(e) for e in events]
    final, problem, _ = GAME.validate_payloads(payloads, None, NAMES)
    assert problem is None and GAME.position(final) == GAME.position(back.state)


@pytest.mark.parametrize("seed", range(10))
def test_corrections_read_the_same_with_the_cache_of_decision_texts_empty(seed):
    text = GAME.write_game(HEADERS, _random_game_with_undos(seed))
    fast = GAME.read_game(text)
    GRAMMAR.cache.clear()
    slow = GAME.read_game(text)
    assert slow.errors == fast.errors == []
    assert (slow.events, slow.meta) == (fast.events, fast.meta)


# --- retraction payloads --------------------------------------------------------------


def test_retraction_payloads_round_trip():
    payload = {"type": "retraction", "back_to": 7}
    assert GAME.event_from_dict(payload) == Retraction(7)
    assert event_from_dict(payload) == Retraction(7)
    assert GAME.event_to_dict(Retraction(7)) == payload == event_to_dict(Retraction(7))
    with pytest.raises(ValueError, match="back_to"):
        GAME.event_from_dict({"type": "retraction", "back_to": 0})


def test_validate_payloads_names_a_retraction_that_cannot_stand():
    events = GAME.random_game(random.Random(4))[:6]
    payloads = [GAME.event_to_dict(e) for e in events]
    state, problem, _ = GAME.validate_payloads(
        [*payloads, {"type": "retraction", "back_to": 4}], None, GAME.seats.names(None)
    )
    assert problem is None
    assert GAME.position(state) == GAME.position(fold(GAME, events[:4]).head)
    state, problem, _ = GAME.validate_payloads(
        [*payloads, {"type": "retraction", "back_to": 9}], None, GAME.seats.names(None)
    )
    assert problem.event_number == 7 and problem.field == "back_to"
    assert problem.violations[0].code == "correction.not_standing"
    _, problem, _ = GAME.validate_payloads(
        [*payloads, {"type": "retraction", "back_to": "x"}], None, GAME.seats.names(None)
    )
    assert problem.event_number == 7 and problem.field == "back_to"


# --- cards by description -------------------------------------------------------------


def test_a_description_in_place_of_an_id():
    state, events, meta = _start()
    got = GAME.read_moves(state, 'res "white 3pt 2cr" @c5 reveal "L3 red 4pt"')
    assert got.errors == [], [str(e) for e in got.errors]
    reveal = find_cards("L3 red 4pt", state.unseen[2])
    assert [e.card for e in got.events] == ["3-01", reveal[0].id]
    many = GAME.read_moves(state, 'res "level 1" @c5').errors[0]
    assert many.kind == "unknown" and many.column == 5
    assert "fits 5 cards in the pyramid" in many.message and "1-01 (" in many.message
    none = GAME.read_moves(state, 'res "joker" @c5').errors[0]
    assert none.kind == "unknown" and "no card in the pyramid fits" in none.message
    word = GAME.read_moves(state, 'res "purple" @c5').errors[0]
    assert word.kind == "unknown" and "'purple' is not something printed" in word.message
    open_quote = GAME.read_moves(state, 'res "white 3pt @c5').errors[0]
    assert open_quote.kind == "syntax" and "never closed" in open_quote.message


def test_descriptions_in_the_setup_and_written_back_as_ids():
    text = HEAD.replace("level3  3-01 3-02 3-03", 'level3  "white 3pt 2cr" 3-02 3-03')
    parsed = GAME.read_game(text + '1. Ann: res 3-01 "L3 white" @c5 reveal 3-04\n')
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    written = GAME.write_game(parsed.headers, parsed.events, parsed.meta)
    assert "level3  3-01 3-02 3-03" in written and "res 3-01 @c5" in written


def test_find_cards_with_a_state_keeps_the_unseen_cards():
    state, _, _ = _start()
    assert [c.id for c in GAME.find_cards("white 3pt 2cr")] == ["3-01"]
    assert GAME.find_cards("white 3pt 2cr", state) == []  # in the pyramid: seen
    unseen = GAME.find_cards("level 3", state)
    assert len(unseen) == 10 and all(c.level == 3 for c in unseen)
    card = GAME.find_cards("3-01")[0]
    assert card.facts["color"] == "white" and card.facts["points"] == 3
    assert card.facts["cost"] == {"blue": 3, "red": 5, "black": 3, "pearl": 1}
    with pytest.raises(ValueError, match="purple"):
        GAME.find_cards("purple")
