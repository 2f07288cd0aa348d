"""Classic Splendor moves as people type them (engine/splendor/notation/typed.py): every
decision of a game, typed in lower case, with its letters apart or with commas, or with
its keyword capitalised, is read as the same event by the logging reader and by
``check_move``; a game file keeps its one strict reading."""

from __future__ import annotations

import random

from engine.games import get_game

RULES = get_game("splendor")
NAMES = ["Ann", "Bo", "Cy"]


def _variants(text: str) -> list[str]:
    key, *args = text.split()
    out = [text.lower(), key.capitalize() + " " + " ".join(args).lower()]
    if key in ("take", "ret"):
        out += [f"{key} {' '.join(args[0].lower())}", f"{key} {','.join(args[0])}"]
    if key == "buy":
        out.append(f"buy {args[0]} {args[1].lstrip('=').lower()}")
    return [v.strip() for v in out]


def test_every_decision_typed_by_hand_reads_as_written():
    events = RULES.random_game(random.Random(4), NAMES)
    state = RULES.new_state(NAMES)
    RULES.play(state, events[0])
    kinds: set[str] = set()
    for event in events[1:]:
        text = RULES.move_text(state, event)
        for typed in _variants(text):
            if typed.endswith("=-") or typed == text:
                continue
            read = RULES.read_moves(state, typed)
            assert not read.errors, (typed, [str(e) for e in read.errors])
            assert read.events == [event], typed
            verdict = RULES.check_move(state, typed)
            assert verdict.legal and verdict.text == text, typed
            kinds.add(event.type)
        RULES.play(state, event)
    assert {"tokens_taken", "card_purchased", "card_reserved", "card_revealed"} <= kinds


def test_a_typed_move_the_rules_refuse_is_refused_with_its_rule():
    events = RULES.random_game(random.Random(4), NAMES)
    state = RULES.new_state(NAMES)
    RULES.play(state, events[0])
    read = RULES.read_moves(state, "take wwb")
    assert read.errors and read.errors[0].kind == "illegal"
    assert read.errors[0].violations


def test_a_game_file_is_read_as_written():
    events = RULES.random_game(random.Random(4), NAMES)[:6]
    text = RULES.write_game({"players": NAMES}, events)
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    lowered = text.replace(first, first.lower().replace("1. ann:", "1. Ann:"))
    assert lowered != text
    parsed = RULES.read_game(lowered)
    assert parsed.errors and parsed.errors[0].line == text.splitlines().index(first) + 1


def test_every_error_of_a_game_is_one_error_each_not_a_cascade():
    """Reporting every error (``validate --all``): a classic line skipped for its error
    leaves the table behind the text, so the lines after it are checked for their words
    only; a later real error is still found, and no turn number is blamed for it."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "fixtures/splendor/games/three-players.tl"
    lines = path.read_text(encoding="utf-8").splitlines()
    five = next(i for i, line in enumerate(lines) if line.startswith("5. "))
    twelve = next(i for i, line in enumerate(lines) if line.startswith("12. "))
    lines[five] = lines[five].replace(": ", ": tkae ", 1)
    lines[twelve] = lines[twelve].split(":")[0] + ": buy 1-99 =WW"
    parsed = RULES.read_game("\n".join(lines) + "\n", stop_at_first_error=False)
    assert [e.line for e in parsed.errors] == [five + 1, twelve + 1], [
        str(e) for e in parsed.errors
    ]
    assert "unknown card '1-99'" in parsed.errors[1].message


def test_a_card_named_by_what_is_printed_on_it_in_quotes():
    """A quoted description stands for the one card it fits among those that can stand
    there (the display, the player's reserve, a deck's unseen cards); several that fit
    are listed, and nothing is read."""
    from engine.splendor.catalogue import CARDS

    events = RULES.random_game(random.Random(3), NAMES)
    state = RULES.new_state(NAMES)
    RULES.play(state, events[0])
    seen: set[str] = set()
    for event in events[1:80]:
        text = RULES.move_text(state, event)
        key, *args = text.split()
        card = next((a for a in args if a[:1].isdigit()), None)
        if key in ("buy", "res", "reveal") and card:
            printed = CARDS[card].describe().split(" ", 1)[1]  # without the id
            read = RULES.read_moves(state, text.replace(card, f'"{printed}"'))
            assert not read.errors and read.events == [event], (text, printed)
            seen.add(key)
        RULES.play(state, event)
    assert seen == {"buy", "res", "reveal"}
    state = RULES.new_state(NAMES)
    RULES.play(state, events[0])
    level1 = [c for c in state.display[0] if c]
    read = RULES.read_moves(state, 'res "level 1" +Y')
    (error,) = read.errors
    assert not read.events and f"{len(level1)} cards fit 'level 1' here" in error.message
    assert all(c in error.message for c in level1)
    assert "not something printed" in RULES.read_moves(state, 'res "purple" +Y').errors[0].message
    # a card that fits but cannot stand there is named, at the description's column
    face_up = level1[0]
    printed = CARDS[face_up].describe().split(" ", 1)[1]
    (error,) = RULES.read_moves(state, f'take WBG reveal "{printed}"').errors
    assert error.column == len("take WBG reveal ") + 1, str(error)
    assert error.message.endswith(f"({face_up} fits, but cannot be here)")


def test_a_purchase_without_its_payment_is_paid_the_one_way_or_asks_which():
    """``buy CARD`` where the player can pay one way reads as that way; where several,
    the reading names them and reads nothing; ``res CARD`` takes the Gold while Golds are
    left, and none when none is."""
    import pytest

    from engine.notation.results import NotationError
    from engine.splendor.notation import parse_move

    rules = get_game("splendor")
    one = several = None
    for seed in range(40):
        for state, _ in _positions(rules, random.Random(seed)):
            buys = [e for e in rules.legal_moves(state) if e.type == "card_purchased"]
            for cid in {e.card for e in buys}:
                ways = [e for e in buys if e.card == cid]
                if len(ways) == 1 and one is None:
                    one = (state.copy(), ways[0])
                if len(ways) > 1 and several is None:
                    several = (state.copy(), cid, len(ways))
            if one and several:
                break
        if one and several:
            break
    assert one is not None and several is not None
    state, event = one
    assert parse_move(state, f"buy {event.card}") == event
    state, cid, n = several
    with pytest.raises(NotationError, match=f"{cid} can be paid in {n} ways"):
        parse_move(state, f"buy {cid}")
    # a reserve's Gold: taken while any is left
    legal = rules.legal_moves(state)
    reserve = next(e for e in legal if e.type == "card_reserved" and e.deck is None)
    assert parse_move(state, f"res {reserve.card}").gold == bool(state.bank[5])
    state.bank[5] = 0
    assert parse_move(state, f"res {reserve.card}").gold is False


def _positions(rules, rng):
    """The positions of a random three-player game, each with the event played there."""
    from engine.fold import Fold

    names = ["Ann", "Bo", "Cy"]
    events = rules.random_game(rng, names)
    fold = Fold(rules, names, every=None)
    for event in events:
        yield fold.head, event
        fold.push(event)
