"""The session behind ``tablelog record`` (cli/record_session.py), without a terminal:
what it asks, what TAB offers, what each line logs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cli.record_session import Session
from engine.games import get_game
from recorder import EventStore
from recorder.logbook import log, new_game

ROOT = Path(__file__).resolve().parents[2]
#: A fixture's first turns: Bob starts; Alice's sixth turn buys 1-16 and 1-11 is revealed.
POINTS = ROOT / "fixtures" / "games" / "points.tl"
OPENING = [
    "take a1 a2 a3",
    "priv c5 take e1 e2 e3",
    "take d2 d3 d4",
    "take b1 c1 d1",
    "take a4 b4 c4",
]


def setup_text(path: Path) -> str:
    """The headers and setup of a fixture, as the table knows them before the first move."""
    lines = [
        line
        for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
        if not line.startswith(("[Result", "[Victory"))
    ]
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return "".join(lines[:first])


@pytest.fixture
def store(tmp_path: Path):
    with EventStore.open(tmp_path / "t.db") as s:
        yield s


@pytest.fixture
def game(store: EventStore) -> str:
    gid = new_game(store, setup_text(POINTS))
    for line in OPENING:
        log(store, gid, line)
    return gid


def test_the_opening_shows_the_table_and_what_is_due(store, game):
    session = Session(store, game)
    text = "\n".join(session.opening())
    assert "3-08 L3 black 4pt cost W2 R2 K6  (deck 10)" in text  # the pyramid, compact
    assert "*Alice: 0 points, 0 crowns, 1 privilege" in text  # the mover, marked
    board = session.compact_board()
    assert len(board) <= 19 and max(map(len, board)) <= 80
    assert "reserved none" not in text  # compact: what says nothing is left out
    assert "reserved none" in "\n".join(session.handle("show"))  # the whole table
    assert "step 7, turn 6: Alice to play" in text
    assert session.prompt() == "8 Alice> "


def test_completion_offers_the_legal_decisions_and_the_commands(store, game):
    session = Session(store, game)
    legal = session.rules.legal_move_texts(session.state)
    offered = [text for text, _ in session.completions("")]
    assert offered == legal
    buys = [text for text, _ in session.completions("buy")]
    assert buys and all(t.startswith("buy ") for t in buys)
    assert set(buys) == {t for t in legal if t.startswith("buy")}
    assert ("undo", "") in session.completions("un")
    assert session.completions("take z9") == []
    # A card by what is printed on it, where the decision names a card.
    assert session.completions("buy black") == [
        ("buy 1-16 (W1 B1 G1 R1)", session.cards()["1-16"].words)
    ]
    assert session.completions("buy green") == []  # 1-12 is green, but Alice cannot pay it


def test_a_due_reveal_is_asked_for_and_found_by_description(store, game):
    session = Session(store, game)
    out = session.handle("buy 1-16 (W1 B1 G1 R1)")
    assert "step 8: buy 1-16 (W1 B1 G1 R1)" in out
    assert session.question.kind == "card"
    assert session.prompt() == "reveal> "
    # TAB offers the cards that may come from the level-1 deck, with what is printed.
    cards = dict(session.completions("green"))
    assert "1-11" in cards and all("green" in words for words in cards.values())
    assert all(i.startswith("1-") for i in cards)
    # Several cards fit: listed, asked again; nothing written.
    out = session.handle("green")
    assert "cards fit" in out[0] and session.steps == 8
    out = session.handle('reveal "green cost W1 B1 R1 K1"')
    assert out[0].startswith("1-11: ")
    assert "step 9: reveal 1-11" in out
    assert session.question.kind == "move"
    assert session.prompt() == "10 Bob> "


def test_a_description_that_fits_nothing_is_asked_again(store, game):
    session = Session(store, game)
    session.handle("buy 1-16 (W1 B1 G1 R1)")
    out = session.handle("purple")
    assert "is not something printed on a card" in out[0]
    assert session.question.kind == "card" and session.steps == 8


def test_an_illegal_move_is_cited_and_can_be_recorded_as_played(store, game):
    session = Session(store, game)
    out = session.handle("take b2 c3 e5")
    assert out[0] == "illegal: take b2 c3 e5"
    assert any("(p." in line for line in out[1:])
    assert session.question.kind == "confirm" and session.steps == 7
    out = session.handle("n")
    assert out == ["not logged"] and session.steps == 7
    session.handle("take b2 c3 e5")
    out = session.handle("y")
    assert "(played illegally)" in out[0]
    assert session.steps == 8


def test_a_move_that_cannot_be_played_even_as_played_is_not_asked_again(store, game):
    session = Session(store, game)
    out = session.handle("take a1 c3 e5")  # a1 is empty: not even as played
    assert out[0] == "illegal: take a1 c3 e5"
    assert "cannot be recorded even as played" in out[-1]
    assert session.question.kind == "move" and session.steps == 7  # not asked


def test_undo_and_undo_to(store, game):
    session = Session(store, game)
    session.handle("buy 1-16 (W1 B1 G1 R1)")
    session.handle("1-11")
    # the card was entered on its own, after the purchase was stored: it goes back alone
    out = session.handle("undo")
    assert out[0] == "step 10: undo to 8 (the game stands as after step 8)"
    assert session.prompt() == "reveal> "
    out = session.handle("undo")
    assert out[0] == "step 11: undo (the game stands as after step 7)"
    assert session.prompt() == "12 Alice> "
    # several steps at once: said in turns and asked first (a step is easily taken for a
    # turn); anything but yes undoes nothing
    out = session.handle("undo to 2")
    # the steps standing after step 2 (8 and 9 were taken back, 10 and 11 are undos)
    assert out[0].startswith("undo to step 2 takes back 5 steps (3-7): back to turn 2")
    assert session.prompt() == "undo to step 2? [y/N] " and session.steps == 11
    assert session.handle("n") == ["nothing undone"] and session.steps == 11
    session.handle("undo to 2")
    out = session.handle("y")
    assert out[0] == "step 12: undo to 2 (the game stands as after step 2)"
    assert "nothing undone" in session.handle("undo to 99")[0]
    # a step that no longer stands is refused at once, not asked
    assert session.handle("undo to 2")[0].startswith("nothing undone: ")
    assert session.question.kind == "move"


def test_a_comment_goes_with_the_next_move(store, game):
    session = Session(store, game)
    assert "next move" in session.handle("comment {a fine} buy")[0]
    out = session.handle("buy 1-16 (W1 B1 G1 R1)")
    assert out[0] == "step 8: buy 1-16 (W1 B1 G1 R1)"
    assert store.events(game)[-1].meta.get("comment") == "(a fine) buy"
    assert session.comment == ""


def test_check_writes_nothing(store, game):
    session = Session(store, game)
    out = session.handle("check take a1 c3 e5")
    assert out[0].startswith("illegal: take a1 c3 e5")
    assert any("(p." in line for line in out)
    assert session.handle("check take b2")[0] == "legal: take b2 =K (step 7; nothing written)"
    assert session.handle("check fly away")[0].startswith("cannot read the move")
    assert session.steps == 7


def test_a_stale_step_reloads_and_says_what_was_logged(store, game):
    session = Session(store, game)
    log(store, game, "buy 1-16 (W1 B1 G1 R1)")  # another logger, meanwhile
    out = session.handle("take b2")
    assert "another logger wrote meanwhile" in out[0]
    assert "  step 8: buy 1-16 (W1 B1 G1 R1)" in out
    assert out[-1].startswith("not logged: 'take b2'")
    assert session.steps == 8 and session.question.kind == "card"


def test_replenish_alone_asks_for_the_tokens_drawn(store, game):
    session = Session(store, game)
    out = session.handle("repl")
    assert session.question.kind == "text" and "Tokens drawn" in out[0]
    assert session.prompt() == "repl> "
    assert session.handle("") == ["nothing logged"]
    assert session.question.kind == "move"


def test_quit_and_resume_continue_from_the_same_step(store, game):
    session = Session(store, game)
    session.handle("buy 1-16 (W1 B1 G1 R1)")
    session.handle("comment lost")
    out = session.handle("quit")
    assert session.done and "resumes" in out[-1] and "was not logged" in out[0]
    again = Session(store, game)
    assert again.steps == 8 and again.question.kind == "card"
    assert again.prompt() == "reveal> "


def test_help_names_every_command(store, game):
    text = "\n".join(Session(store, game).handle("help"))
    for word in ("undo", "comment", "show", "check", "help", "quit", "reveal", "repl"):
        assert word in text
    assert "(now: priv, take, res, buy; " in text  # the decision words due now


def test_a_blind_reserve_shown_later_is_asked_for_by_description(store, game):
    session = Session(store, game)
    session.handle("res L2 @b3")
    assert session.prompt() == "9 Bob> "
    out = session.handle("id")
    assert session.question.kind == "card" and out == [session.question.prompt]
    words = session.cards()["2-13"].words
    out = session.handle(words)
    assert out[0] == f"2-13: {words}"
    assert "step 9: id 2-13 by Alice" in out
    assert session.prompt() == "10 Bob> "


def test_record_reads_its_lines_from_a_pipe(tmp_path: Path):
    from click.testing import CliRunner

    from cli.main import cli

    db = tmp_path / "p.db"
    with EventStore.open(db) as s:
        gid = new_game(s, setup_text(POINTS))
    lines = "take a1 a2 a3\nfly away\ntake e1 e2 e3\n"  # the pipe ends: as quit
    result = CliRunner().invoke(cli, ["record", "--db", str(db), gid], input=lines)
    assert result.exit_code == 0, result.output
    assert "2 Bob> take a1 a2 a3\nstep 2: take a1 a2 a3 =WWG" in result.output
    assert "3 Alice> fly away\nnot understood" in result.output
    assert "step 3: take e1 e2 e3 =WGK" in result.output
    assert result.output.rstrip().endswith(f"`tablelog record {gid}` resumes here")
    with EventStore.open(db) as s:
        assert s.game(gid).event_count == 3


#: Classic Splendor, three players (Chloe, Dana, Eli), as the fixture was dealt.
CLASSIC = ROOT / "fixtures" / "splendor" / "games" / "three-players.tl"


def test_classic_splendor_at_the_table(store):
    """One classic game logged as the table plays it: the compact table, TAB, the card
    turned face up into the display by description, a blind reserve shown later (by
    the seat that holds it), undo; then a noble chosen when two may visit."""
    from engine.games import get_game

    session = Session(store, new_game(store, setup_text(CLASSIC)))
    text = "\n".join(session.opening())
    assert "nobles N-06 3pt W4 B4 · N-08 3pt B4 G4 · N-01" in text and "*Chloe: 0pt" in text
    assert "N-06 3pt W4 B4" in text and "(deck 26)" in text
    assert "  2-18: " in text and ", cost " in text  # each face-up card as printed
    assert "step 1, turn 1: Chloe must take gems" in text and session.prompt() == "2 Chloe> "
    takes = [t for t, _ in session.completions("take R")]
    assert takes == ["take RR"]  # the only take of two reds, or of red first
    assert "step 2: take RR" in session.handle("take RR")
    # A reserve from the display: the level-2 card that refills it is asked for.
    assert [t for t, _ in session.completions("res 2-1")] == ["res 2-18 +Y", "res 2-12 +Y"]
    out = session.handle("res 2-18 +Y")
    assert "step 3: res 2-18 +Y" in out and session.prompt() == "reveal> "
    assert out[-1] == session.question.prompt and "display" in out[-1]
    unseen = [i for i, _ in session.completions("")]  # the level-2 cards still unseen
    assert len(unseen) == 26 and all(i.startswith("2-") for i in unseen)
    assert not {"2-18", "2-08", "2-12", "2-29"} & set(unseen)
    assert [i for i, _ in session.completions("white cost G3")] == ["2-02"]
    assert "2 cards fit" in session.handle("white 1 point")[0] and session.steps == 3
    out = session.handle("red 2 points cost W1 B4 G2")  # 2-22, as printed
    assert out[:2] == ["2-22: 2-22 level 2 red 2 points cost W1 B4 G2", "step 4: reveal 2-22"]
    assert session.prompt() == "5 Eli> "
    session.handle("take WW")
    # A reserve typed without its Gold while Golds are left takes it (the rules leave no
    # choice); a blind reserve, shown later: the card is asked for, logged with its
    # holder's seat.
    out = session.handle("res L2")
    assert out[0] == "step 6: res L2 +Y" and session.steps == 6
    assert session.handle("id") == [session.question.prompt] and session.prompt() == "id> "
    out = session.handle("2-01")
    assert out[:2] == ["2-01: 2-01 level 2 white 1 point cost W2 B3 R3", "step 7: id 2-01 @1"]
    assert session.prompt() == "8 Dana> "
    out = session.handle("undo")  # the card shown, entered on its own
    assert out[0] == "step 8: undo to 6 (the game stands as after step 6)"
    out = session.handle("undo")  # then the reserve
    assert out[0] == "step 9: undo (the game stands as after step 5)"
    assert session.prompt() == "10 Chloe> "

    # Two nobles may visit Bo: he chooses, by what is printed on the tile.
    rules = get_game("splendor")
    names = ["Ann", "Bo", "Cy"]
    events = rules.random_game(random.Random(0), names)[:125]
    session = Session(store, new_game(store, rules.write_game({"players": names}, events)))
    assert session.standing().endswith("Bo must receive a noble: N-03 or N-04")
    assert session.prompt() == "noble> " and "noble who visits" in session.opening()[-2]
    assert [i for i, _ in session.completions("")] == ["N-03", "N-04"]
    assert "2 cards fit" in session.handle("3 points")[0]
    out = session.handle("requires B3 G3 R3")
    assert out[:2] == ["N-04: N-04 noble 3 points requires B3 G3 R3", "step 126: noble N-04"]


def test_tab_shows_what_is_printed_on_the_card_a_decision_names(store):
    """A Royal card by its points and ability, a card to buy by its printed words."""
    gid = new_game(store, setup_text(POINTS))
    turns = [
        line.split(": ", 1)[1]
        for line in POINTS.read_text(encoding="utf-8").splitlines()
        if line[:1].isdigit() and int(line.split(".", 1)[0]) < 21
    ]
    for line in [*turns, "buy 2-13 (B2 R1 P1)"]:
        log(store, gid, line)
    session = Session(store, gid)
    assert session.completions("royal") == [
        ("royal R-1", "royal 2pt steal"),
        ("royal R-2", "royal 2pt again"),
        ("royal R-3", "royal 2pt privilege"),
        ("royal R-4", "royal 3pt"),
    ]
    log(store, gid, "royal R-4 reveal 2-10")
    session = Session(store, gid)
    buys = session.completions("buy")
    assert buys and all(note == session.cards()[text.split()[1]].words for text, note in buys)


def test_an_answer_to_the_tables_question_may_carry_its_comment(store, game):
    """``reveal> 1-11 {lucky}``: the comment goes with the card revealed, not with the
    decision after it; a comment alone is kept for the answer."""
    session = Session(store, game)
    session.handle("buy 1-16 (W1 B1 G1 R1)")
    assert session.prompt() == "reveal> "
    out = session.handle("{the last green one}")
    assert out[-1].startswith("Card revealed") and session.steps == 8
    out = session.handle("green cost W1 B1 R1 K1 {drawn at last}")
    assert "step 9: reveal 1-11" in out
    assert store.events(game)[-1].meta["comment"] == "the last green one drawn at last"
    assert session.comment == ""


def test_a_purchase_without_its_payment_and_a_mistyped_card_are_told_what_is_meant(store):
    """A purchase that can be paid several ways is incomplete (the ways said), not "not
    understood"; at the ``reveal>`` prompt a mistyped word or keyword gets a "did you
    mean"; a player's name without the turn number reads as that player's turn."""
    rules = get_game("splendor-duel")
    events = rules.random_game(random.Random(3))[:17]  # 1-12 can then be paid two ways
    gid = new_game(store, rules.write_game({"players": ["Ann", "Bo"]}, events))
    session = Session(store, gid)
    out = session.handle("buy 1-12")
    assert out[0].startswith("incomplete: buy 1-12: 1-12 can be paid in 2 ways (")
    assert out[0].endswith("; write the payment") and "not understood" not in out[0]
    assert session.steps == 17

    session = Session(store, new_game(store, setup_text(POINTS)))
    out = session.handle("Alice: take a1 a2 a3")
    assert out[0] == "illegal: Alice: take a1 a2 a3" and "Bob's turn" in out[1]
    assert session.handle("Bob: take a1 a2 a3")[0] == "step 2: take a1 a2 a3 =WWG"
    for line in OPENING[1:]:
        session.handle(line)
    session.handle("buy 1-16 (W1 B1 G1 R1)")
    assert session.prompt() == "reveal> "
    out = session.handle("greem 1 point")
    assert out[0].startswith("'greem' is not something printed on a card (did you mean green?)")
    assert session.handle("reveel 1-11")[0] == (
        "'reveel' is not printed on a card (did you mean reveal 1-11?)"
    )
    assert session.prompt() == "reveal> "


def test_tab_completes_the_card_revealed_on_the_decisions_line(store, game):
    """A decision typed as short as it reads, then ``reveal`` and a card's id or printed
    words: TAB offers the cards that can be turned face up after it, on the same line, so
    a turn is one line; the line logs both."""
    session = Session(store, game)
    offered = session.completions("buy 1-16 reveal 1-1")
    assert [t for t, _ in offered][:2] == ["buy 1-16 reveal 1-11", "buy 1-16 reveal 1-13"]
    assert all(t.startswith("buy 1-16 reveal 1-1") for t, _ in offered)
    (only,) = session.completions("buy 1-16 Reveal green cost W1")
    assert only == ("buy 1-16 reveal 1-11", "L1 green cost W1 B1 R1 K1")
    assert len(session.completions("buy 1-16 (W1 B1 G1 R1) ")) == 25  # every unseen level-1
    assert session.completions("take a1 reveal 1-1") == []  # nothing to reveal after a take
    assert session.handle(only[0])[:2] == ["step 8: buy 1-16 (W1 B1 G1 R1)", "step 9: reveal 1-11"]
    assert session.prompt() == "10 Bob> "


def test_a_card_revealed_is_typed_on_the_decisions_line_by_what_is_printed(store, game):
    session = Session(store, game)
    out = session.handle("buy 1-16 reveal green cost W1 B1 R1 K1 {the green one}")
    assert out[:2] == ["step 8: buy 1-16 (W1 B1 G1 R1)", "step 9: reveal 1-11"]
    assert store.events(game)[-1].meta.get("comment") == "the green one"
    assert session.prompt() == "10 Bob> "
