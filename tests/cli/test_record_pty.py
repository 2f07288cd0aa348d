"""``tablelog record`` driven through a real pseudo-terminal: TAB offers only the legal
decisions, the reveal prompt takes a description, an illegal move is cited and recorded as
played, undo takes it back, Ctrl-C loses nothing and the next session resumes there.

What the terminal shows is matched loosely (prompt-toolkit draws with escape sequences,
and moves the cursor rather than writing a prompt's last space);
the timeouts are generous and nothing is timed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from recorder import EventStore
from recorder.logbook import log, new_game

from .test_record_session import CLASSIC, OPENING, POINTS, setup_text

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60


def spawn(db: Path, game: str) -> pexpect.spawn:
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm", "COLUMNS": "150"}
    return pexpect.spawn(
        sys.executable,
        ["-c", "from cli.main import cli; cli()", "record", "--db", str(db), game],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        dimensions=(50, 150),
        timeout=TIMEOUT,
    )


def offered(child: pexpect.spawn, wanted: list[str]) -> str:
    """Wait until the completion menu has shown every one of ``wanted``; what it showed."""
    seen, menu = set(), ""
    while len(seen) < len(wanted):
        seen.add(wanted[child.expect_exact(wanted)])
        menu += child.before
    return menu


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_record_through_a_terminal(tmp_path: Path):
    db = tmp_path / "t.db"
    with EventStore.open(db) as store:
        game = new_game(store, setup_text(POINTS))
        for line in OPENING:
            log(store, game, line)

    child = spawn(db, game)
    try:
        child.expect_exact("8 Alice>")
        # TAB after "buy": the two purchases Alice can make, not the cards she cannot pay.
        child.send("buy\t")
        menu = offered(child, ["buy 1-16 (W1 B1 G1 R1)", "buy 1-21 (W1 B1 G1 K1)"])
        assert "buy 1-10" not in menu and "buy 1-12" not in menu and "take" not in menu
        child.send("\x15")  # Ctrl-U: clear the line
        child.send("buy 1-16 (W1 B1 G1 R1)\r")
        child.expect_exact("step 8: buy 1-16 (W1 B1 G1 R1)")
        # The card revealed into the pyramid, by what is printed on it.
        child.expect_exact("reveal>")
        child.send("green cost W1 B1 R1 K1\r")
        child.expect_exact("step 9: reveal 1-11")
        child.expect_exact("10 Bob>")
        # An illegal move: cited with its rule and page, then recorded as played.
        child.send("take b2 c3 e5\r")
        child.expect_exact("illegal: take b2 c3 e5")
        child.expect(r"\(p\.\d")
        child.expect_exact("[y/N]")
        child.send("y\r")
        child.expect_exact("(played illegally)")
        child.expect_exact("11 Bob>")  # Bob now holds 12 tokens: a discard is due
        child.send("undo\r")
        child.expect_exact("step 11: undo (the game stands as after step 9)")
        child.expect_exact("12 Bob>")
        child.sendintr()  # Ctrl-C: the session ends, nothing is lost
        child.expect_exact("resumes here")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)

    child = spawn(db, game)
    try:
        child.expect_exact("12 Bob>")
        child.send("quit\r")
        child.expect_exact("resumes here")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    with EventStore.open(db) as store:
        assert store.game(game).event_count == 11


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_record_classic_splendor_through_a_terminal(tmp_path: Path):
    """Classic Splendor at the table: the compact table, TAB offers the reserves of the
    cards typed, the card turned face up is taken by what is printed on it."""
    db = tmp_path / "t.db"
    with EventStore.open(db) as store:
        game = new_game(store, setup_text(CLASSIC))
        log(store, game, "take RR")

    child = spawn(db, game)
    try:
        child.expect_exact("*Dana: 0pt")  # the compact table, whose turn it is
        child.expect_exact("3 Dana>")
        child.send("res 2-1\t")
        menu = offered(child, ["res 2-18 +Y", "res 2-12 +Y"])
        assert "take" not in menu and "res 2-08" not in menu
        child.send("\x15")  # Ctrl-U: clear the line
        child.send("res 2-18 +Y\r")
        child.expect_exact("step 3: res 2-18 +Y")
        child.expect_exact("reveal>")
        child.send("red 2 points cost W1 B4 G2\r")
        child.expect_exact("step 4: reveal 2-22")
        child.expect_exact("5 Eli>")
        child.sendintr()  # Ctrl-C: nothing is lost
        child.expect_exact("resumes here")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    with EventStore.open(db) as store:
        assert store.game(game).event_count == 4


def typed_turns(path: Path) -> list[str]:
    """Each turn of a fixture as a player types it at the prompt: without its number,
    player and comments, and without what the session fills in (a payment the rules leave
    no choice about, the colours of the tokens taken), each turn read here to the same
    events as the fixture's line; the card revealed typed on the same line by what is
    printed on it (``buy 1-16 reveal L1 green cost W1 B1 R1 K1``), by id where those
    words fit two cards still unseen."""
    import re

    from engine.games import get_game

    rules = get_game("splendor-duel")
    cards = rules.cards()
    state = rules.read_game(setup_text(path)).state
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line[:1].isdigit():
            continue
        whole = " ".join(re.sub(r"\{[^}]*\}", "", line.split(": ", 1)[1]).split())
        meant = rules.read_moves(state, whole)
        unpaid = re.sub(r" \([^)]*\)", "", whole)
        for short in (re.sub(r" =[A-Z]+", "", unpaid), unpaid, re.sub(r" =[A-Z]+", "", whole)):
            read = rules.read_moves(state, short)
            if not read.errors and read.events == meant.events:
                break
        else:
            short = whole
        found = re.search(r" reveal (\d-\d\d)$", short)
        if found:
            words = str(cards[found.group(1)].words)
            described = short[: found.start()] + f' reveal "{words}"'
            if rules.read_moves(state, described).events == meant.events:
                short = described.replace('"', "")  # (the session quotes them)
        out.append(short)
        state = meant.state
    return out


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_whole_game_at_80_by_24_keeps_the_table_on_screen_at_every_prompt(tmp_path: Path):
    """``fixtures/games/points.tl`` logged turn by turn through a terminal of 80 columns
    and 24 rows, drawn by a terminal emulator: at every prompt the screen shows the
    board, the pyramid and the mover's tokens, and the game ends as the fixture does.
    Every line entered and every TAB is counted: at most 1.2 a turn on average (issue
    25's target), each turn one line, the card revealed typed with its decision."""
    import pyte

    db = tmp_path / "t.db"
    with EventStore.open(db) as store:
        game = new_game(store, setup_text(POINTS))
    turns = typed_turns(POINTS)
    assert len(turns) == 53
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)

    class Screen:
        def write(self, data: str) -> None:
            stream.feed(data)

        def flush(self) -> None:
            pass

    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"}
    env.pop("COLUMNS", None)
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from cli.main import cli; cli()", "record", "--db", str(db), game],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=TIMEOUT,
    )
    child.logfile_read = Screen()
    prompt = r"\d+ (Alice|Bob)>|reveal>"
    lines = tabs = 0
    try:
        for number, turn in enumerate(turns, start=1):
            child.expect(prompt)
            assert child.match.group(1), (number, "a prompt of its own for a card")
            shown = "\n".join(screen.display)
            mover = child.match.group(1) or ""
            assert "    a b c d e" in shown, (number, shown)  # the board
            assert "(deck " in shown, (number, shown)  # the pyramid
            assert f"*{mover}: " in shown and "tokens " in shown, (number, shown)
            child.sendline(turn)
            lines, tabs = lines + 1, tabs + turn.count("\t")
            child.expect(r"step \d+: ")  # (past the prompt drawn again with the line)
        child.expect_exact("Bob won")
    finally:
        child.close(force=True)
    with EventStore.open(db) as store:
        assert store.game(game).status == "finished"
    per_turn = (lines + tabs) / len(turns)
    print(f"points.tl at the terminal: {lines} lines and {tabs} TABs, {per_turn:.2f} a turn")
    assert per_turn <= 1.2
