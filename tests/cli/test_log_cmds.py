"""``tablelog new``, ``log``, ``undo`` and ``cards``: a game logged at the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "fixtures" / "games").glob("*.tl"))
#: Classic Splendor's games, 2 to 4 players.
CLASSIC = sorted((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))
OUTCOME = ("[Result", "[Victory")


def _split(path: Path) -> tuple[str, list[str]]:
    """A fixture as the table knows it before the first move (headers but the outcome,
    and the setup), and its turn lines."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "".join(line for line in lines[:first] if not line.startswith(OUTCOME))
    return setup, [line.rstrip("\n") for line in lines[first:]]


def _run(db: Path, *args: str, input: str | None = None):
    return CliRunner().invoke(cli, [*args, "--db", str(db)], input=input)


def _new(db: Path, setup: str) -> str:
    result = _run(db, "new", "--json", "-", input=setup)
    assert result.exit_code == 0, result.output
    return str(json.loads(result.output)["id"])


def _steps(db: Path, game: str) -> int:
    with EventStore.open(db) as store:
        return store.game(game).event_count


@pytest.mark.parametrize(
    "path", GAMES + CLASSIC, ids=[f"{p.parent.parent.name}/{p.name}" for p in GAMES + CLASSIC]
)
def test_every_fixture_relogged_turn_by_turn_exports_as_its_file(path: Path, tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(path)
    game = _new(db, setup)
    for line in turns:
        before = _steps(db, game)
        result = _run(db, "log", game, line, "--expect", str(before))
        assert result.exit_code == 0, (line, result.output)
        assert f"step {before + 1}: " in result.output
    exported = _run(db, "export", game, "--format", "notation")
    assert exported.exit_code == 0
    assert exported.output == path.read_text(encoding="utf-8")


def _env(db: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "TABLELOG_DB": str(db), "PATH": bin_dir + os.pathsep + os.environ["PATH"]}


def _tablelog(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["tablelog", *args], env=_env(db), capture_output=True, text=True, timeout=60, check=False
    )


def test_a_few_moves_logged_by_real_processes(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "dispute.tl")
    (tmp_path / "setup.tl").write_text(setup, encoding="utf-8")
    made = _tablelog(db, "new", str(tmp_path / "setup.tl"))
    assert made.returncode == 0, made.stderr
    game = made.stdout.strip()  # the id alone (for $(tablelog new ...)); what next beside
    assert len(game) == 12 and f"log it with `tablelog record {game}`" in made.stderr
    for line in turns[:4]:
        ran = _tablelog(db, "log", game, line)
        assert ran.returncode == 0, ran.stderr
    assert _steps(db, game) == 1 + 4 + 1  # turn 4 reserves from the pyramid and reveals
    shown = _tablelog(db, "show", game)
    assert shown.returncode == 0 and "next: " in shown.stdout


def test_two_processes_logging_the_same_move_record_it_once(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "crowns.tl")
    game = _new(db, setup)
    for expect in (False, True):
        if expect:
            game = _new(db, setup)
        args = ["log", game, turns[0]] + (["--expect", "1"] if expect else [])
        procs = [
            subprocess.Popen(
                ["tablelog", *args],
                env=_env(db),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        codes = sorted(p.wait(timeout=60) for p in procs)
        # One writes; the other reads its text again against the game as it now stands
        # (turn 2, the other player's: refused) or, with --expect, finds it stale (3).
        errors = [p.stderr.read() for p in procs]
        assert codes[0] == 0 and codes[1] != 0, errors
        if expect:
            assert codes[1] == 3, errors
        assert _steps(db, game) == 2


def test_bad_input_is_refused_with_its_reason_and_nothing_written(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "dispute.tl")
    game = _new(db, setup)
    assert _run(db, "log", game, turns[0]).exit_code == 0
    cases = [
        # unknown game
        (["log", "nosuchgame", "take a1"], 1, "no game 'nosuchgame'"),
        # a move for the wrong player: Chloé is to move
        (["log", game, "2. Bob: take b3 b4 b5"], None, "Bob"),
        # not a move at all
        (["log", game, "tkae b3 b4"], 2, "take"),
        # a card that is not in the game: revealed while it lies in the pyramid
        (["log", game, "buy 3-07"], None, "3-07"),
        # a card already seen: reserve one from the pyramid that is not there
        (["log", game, "res 2-10 @b2 reveal 2-10"], None, "2-10"),
        # a stale expected step
        (["log", game, turns[1], "--expect", "1"], 3, "expected 1 step"),
        (["undo", game, "--expect", "5"], 3, "expected 5 steps"),
        (["undo", game, "--to", "7"], 1, "step 7"),
    ]
    for args, code, words in cases:
        result = _run(db, *args)
        assert result.exit_code != 0, (args, result.output)
        if code is not None:
            assert result.exit_code == code, (args, result.output)
        assert words in result.output, (args, result.output)
        assert "Traceback" not in result.output
        assert _steps(db, game) == 2, args


def test_an_illegal_move_is_cited_and_can_be_recorded_as_played(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "dispute.tl")
    game = _new(db, setup)
    for line in turns[:8]:
        assert _run(db, "log", game, line).exit_code == 0
    line = "9. Bob: take c1 e1 =KP"  # not in a line: d1 lies between them
    refused = _run(db, "log", game, line)
    assert refused.exit_code == 1
    assert "p." in refused.output and "--as-played" in refused.output
    steps = _steps(db, game)
    played = _run(db, "log", game, line, "--as-played")
    assert played.exit_code == 0, played.output
    assert "(played illegally)" in played.output
    assert _steps(db, game) == steps + 1
    with EventStore.open(db) as store:
        assert store.events(game)[-1].meta.get("played_illegally")


def test_classic_completes_what_the_rules_leave_no_choice_about(tmp_path: Path):
    """Classic Splendor: ``res CARD`` while Golds are left takes its Gold (``+Y``), as the
    rules make it; a buy without its payment that cannot be paid at all does not read
    (exit 2) and says what is missing."""
    db = tmp_path / "t.db"
    setup, _ = _split(CLASSIC[0])
    game = _new(db, setup)
    card = next(
        w for line in setup.splitlines() if line.startswith("level1") for w in line.split()[1:]
    )
    unread = _run(db, "log", game, f"buy {card}")
    assert unread.exit_code == 2 and "the payment is missing" in unread.output
    assert _steps(db, game) == 1
    checked = _run(db, "check", game, f"res {card}")
    assert checked.exit_code == 0, checked.output
    logged = _run(db, "log", game, f"res {card}")
    assert logged.exit_code == 0 and f"res {card} +Y" in logged.output
    assert _steps(db, game) == 2


def test_undo_and_undo_to_export_and_import_to_the_same_events(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "points.tl")
    game = _new(db, setup)
    for line in turns[:3]:
        assert _run(db, "log", game, line).exit_code == 0
    after_three = _steps(db, game)
    for line in turns[3:10]:
        assert _run(db, "log", game, line).exit_code == 0
    undone = _run(db, "undo", game)
    assert undone.exit_code == 0 and "undo" in undone.output
    assert _run(db, "undo", game, "--to", str(after_three)).exit_code == 0
    for line in turns[3:6]:
        assert _run(db, "log", game, line).exit_code == 0, line
    for fmt in ("notation", "json"):
        exported = _run(db, "export", game, "--format", fmt)
        assert exported.exit_code == 0
        path = tmp_path / f"game.{'tl' if fmt == 'notation' else 'json'}"
        path.write_text(exported.output, encoding="utf-8")
        other = tmp_path / f"other-{fmt}.db"
        assert _run(other, "import", str(path)).exit_code == 0
        with EventStore.open(db) as a, EventStore.open(other) as b:
            (row,) = b.listing.games()
            assert [e.payload for e in b.events(row.id)] == [e.payload for e in a.events(game)]


def test_undo_after_a_card_revealed_on_its_own_takes_back_the_card_alone(tmp_path: Path):
    """A purchase logged, then its card on its own (a wrong one): undo takes back the card,
    the purchase stays; the export reads back to the same game, and validates."""
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "points.tl")
    game = _new(db, setup)
    for line in turns[:5]:
        assert _run(db, "log", game, line).exit_code == 0
    assert _run(db, "log", game, "buy 1-16 (W1 B1 G1 R1)").exit_code == 0
    assert _run(db, "log", game, "reveal 1-24").exit_code == 0
    undone = _run(db, "undo", game, "--expect", "9")
    assert undone.exit_code == 0, undone.output
    assert undone.output.startswith("step 10: undo to 8 (the game stands as after step 8)")
    assert "reveal" in undone.output.splitlines()[-1]  # a card is due again, not a turn
    assert _run(db, "log", game, "reveal 1-11").exit_code == 0
    exported = _run(db, "export", game)
    (tmp_path / "g.tl").write_text(exported.output, encoding="utf-8")
    assert "undo to 8" in exported.output
    assert _run(tmp_path / "o.db", "validate", str(tmp_path / "g.tl")).exit_code == 0
    assert _run(tmp_path / "o.db", "import", str(tmp_path / "g.tl")).exit_code == 0
    with EventStore.open(tmp_path / "o.db") as other:
        (row,) = other.listing.games()
    assert _run(tmp_path / "o.db", "export", row.id).output == exported.output


def test_void_keeps_the_game_out_of_the_lists_and_refuses_moves(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, turns = _split(ROOT / "fixtures" / "games" / "points.tl")
    game = _new(db, setup)
    assert _run(db, "log", game, turns[0]).exit_code == 0
    refused = _run(db, "void", game)
    assert refused.exit_code == 2 and "--reason" in refused.output
    voided = _run(db, "void", game, "--reason", "wrong setup")
    assert voided.exit_code == 0 and voided.output == f"game {game} is void: wrong setup\n"
    listed = _run(db, "games")
    assert game not in listed.output and listed.output.rstrip().endswith("0 games")
    listed = _run(db, "games", "--all")
    assert game in listed.output and "void: wrong setup" in listed.output
    logged = _run(db, "log", game, turns[1])
    assert logged.exit_code == 1
    assert f"game {game} is void (wrong setup): nothing more can be logged" in logged.output
    assert _run(db, "undo", game).exit_code == 1 and _steps(db, game) == 2
    exported = _run(db, "export", game)
    assert '[Void "wrong setup"]' in exported.output
    assert _run(db, "verify").exit_code == 0
    again = _run(db, "void", game, "--reason", "twice")
    assert again.exit_code == 1 and "void already" in again.output


def test_cards_by_what_is_printed_and_only_unseen_ones_in_a_game(tmp_path: Path):
    db = tmp_path / "t.db"
    found = _run(db, "cards", "green", "3", "points", "crown")
    assert found.exit_code == 0
    assert "3-05" in found.output and "1 card" in found.output
    setup, _ = _split(ROOT / "fixtures" / "games" / "dispute.tl")
    game = _new(db, setup)
    everywhere = _run(db, "cards", "level", "3", "red")
    unseen = _run(db, "cards", "level", "3", "red", "--game", game)
    assert "3-10" in everywhere.output and "3-10" not in unseen.output  # in the pyramid
    wrong = _run(db, "cards", "purple")
    assert wrong.exit_code == 1 and "purple" in wrong.output


def test_royal_cards_by_id_or_what_is_printed_and_only_those_left_in_a_game(tmp_path: Path):
    db = tmp_path / "t.db"
    four = _run(db, "cards", "royal")
    assert four.exit_code == 0 and "4 cards" in four.output
    assert [line.split()[:4] for line in four.output.splitlines()[1:5]] == [
        ["R-1", "0", "2", "steal"],
        ["R-2", "0", "2", "again"],
        ["R-3", "0", "2", "privilege"],
        ["R-4", "0", "3"],
    ]
    assert "1 card" in _run(db, "cards", "R-4").output
    assert "R-2" in _run(db, "cards", "royal", "again").output
    game = _new(db, (ROOT / "fixtures" / "games" / "points.tl").read_text(encoding="utf-8"))
    left = _run(db, "cards", "royal", "--game", game)  # Bob took
    assert "R-4" not in left.output and "R-2" not in left.output and "2 cards" in left.output
    wrong = _run(db, "cards", "royal", "green")
    assert wrong.exit_code == 1 and "not something printed on a Royal card" in wrong.output


def test_new_asks_for_the_game_when_given_no_file(tmp_path: Path):
    db = tmp_path / "t.db"
    answers = "\n".join(
        [
            "splendor-duel",
            "Ann",
            "Bo",
            "Bo",
            "2025-03-14",
            "",  # no event
            "",  # no round
            "Kitchen",
            "GGRWY RWBRG YBRWK GYBKP PBWKK",
            "3-10",
            "3-01",
            "green 3 points crown",
            "2-10",
            "2-24",
            "2-20",
            "2-17",
            "1-11",
            "1-25",
            "L1 green",  # four fit: asked again
            "1-16",
            "1-10",
            "1-27",
            "",
        ]
    )
    result = _run(db, "new", input=answers)
    assert result.exit_code == 0, result.output
    assert "4 cards fit" in result.output and "3-05: L3 green 3pt 2cr" in result.output
    game = result.output.strip().splitlines()[-1]
    with EventStore.open(db) as store:
        row = store.game(game)
        assert row.players == ["Ann", "Bo"] and row.to_move == 1


def test_new_goes_back_a_question_at_a_time_and_keeps_event_and_round(tmp_path: Path):
    """A wrong answer costs a question: ``<`` asks the one before again (a player, a card
    of the pyramid, the whole line before), and Event and Round are headers."""
    db = tmp_path / "t.db"
    answers = [
        "splendor",  # the wrong game
        "<",  # back to the game from its first player
        "splendor-duel",
        "Ann",
        "Bob",  # a typo
        "<",
        "Bo",
        "Bo",
        "2025-03-14",
        "Club night",
        "3",
        "<",  # the round again
        "2",
        "Kitchen",
        "GGRWY RWBRG YBRWK GYBKP PBWKK",
        "3-10",
        "3-01",
        "3-05",
        "2-10",
        "<",  # the first level-2 card again
        "<",  # and back to the level-3 line, asked whole
        "3-10",
        "3-01",
        "3-05",
        "2-10",
        "2-24",
        "2-20",
        "2-17",
        "1-11",
        "1-25",
        "1-16",
        "1-10",
        "1-27",
        "",
    ]
    result = _run(db, "new", input="\n".join(answers))
    assert result.exit_code == 0, result.output
    game = result.output.strip().splitlines()[-1]
    exported = _run(db, "export", game).output
    assert '[Event "Club night"]' in exported and '[Round "2"]' in exported
    assert '[Player2 "Bo"]' in exported and '[First "Bo"]' in exported
    laid_out = [line.split() for line in exported.splitlines() if line.startswith("level")]
    assert laid_out[:2] == [
        ["level3", "3-10", "3-01", "3-05"],
        ["level2", "2-10", "2-24", "2-20", "2-17"],
    ]


def test_new_asks_a_refused_setup_line_again_keeping_the_other_answers(tmp_path: Path):
    """A board of 10 tokens is refused once the setup is read whole: its reasons are said
    once each, the board alone is asked again, and the cards typed are kept."""
    db = tmp_path / "t.db"
    cards = ["3-10", "3-01", "3-05", "2-10", "2-24", "2-20", "2-17"]
    cards += ["1-11", "1-25", "1-16", "1-10", "1-27"]
    answers = ["splendor-duel", "Ann", "Bo", "Ann", "2025-03-14", "", "", ""]
    answers += ["GGRWY RWBRG", *cards]
    answers += ["GGRWY RWBRG YBRWK GYBKP PBWKK", ""]
    result = _run(db, "new", input="\n".join(answers))
    assert result.exit_code == 0, result.output
    said = result.output
    assert "The board does not fit the rules:" in said and "Enter it again." in said
    assert said.count("the board lists 10 tokens; all 25 are placed on its 25 spaces") == 1
    assert said.count("the game has 4 tokens of each") == 7  # a line a colour, once each
    assert said.count("card 1 of 3") == 1  # the cards were not asked again
    with EventStore.open(db) as store:
        (row,) = store.listing.games()
        assert store.game(row.id).event_count == 1


def test_new_refuses_a_bad_setup_with_its_place_and_writes_nothing(tmp_path: Path):
    db = tmp_path / "t.db"
    setup, _ = _split(ROOT / "fixtures" / "games" / "dispute.tl")
    result = _run(db, "new", "-", input=setup.replace("3-10", "3-99"))
    assert result.exit_code == 1
    assert "<stdin>:" in result.output and "3-99" in result.output
    with EventStore.open(db) as store:
        assert store.listing.count() == 0
    no_file = _run(db, "new", str(tmp_path / "missing.tl"))
    assert no_file.exit_code == 1 and "missing.tl" in no_file.output


def test_key_gives_a_new_key_that_replaces_the_last(tmp_path: Path):
    db = tmp_path / "k.db"
    setup, _ = _split(GAMES[0])
    game = _new(db, setup)
    first = _run(db, "key", game, "--json")
    assert first.exit_code == 0, first.output
    answer = json.loads(first.output)
    key = answer["key"]
    assert answer["record_url"] == f"http://127.0.0.1:5000/games/{game}/record#key={key}"
    plain = _run(db, "key", game, "--site", "http://192.0.2.1:8000/")
    second, link = plain.output.split()
    assert link == f"http://192.0.2.1:8000/games/{game}/record#key={second}"
    with EventStore.open(db) as store:
        assert store.keys.matches(game, second)
        assert not store.keys.matches(game, key)
    missing = _run(db, "key", "nope")
    assert missing.exit_code == 1 and "no game 'nope'" in missing.output


def test_key_revoke_leaves_the_game_without_a_key(tmp_path: Path):
    db = tmp_path / "k.db"
    setup, _ = _split(GAMES[0])
    game = _new(db, setup)
    key = json.loads(_run(db, "key", game, "--json").output)["key"]
    revoked = _run(db, "key", game, "--revoke")
    assert revoked.exit_code == 0 and "revoked" in revoked.output and key not in revoked.output
    with EventStore.open(db) as store:
        assert not store.keys.matches(game, key)
        assert store.keys.fingerprint(game) is None
    again = _run(db, "key", game, "--revoke", "--json")
    assert json.loads(again.output) == {"id": game, "revoked": False}


def test_new_asks_classic_splendor_for_its_players_and_its_display(tmp_path: Path):
    """Three players (the fourth seat left empty), the nobles and the twelve cards by id
    or description; the game is the fixture's, so every turn of it logs."""
    db = tmp_path / "t.db"
    answers = "\n".join(
        [
            "splendor",
            "Chloe",
            "Dana",
            "Eli",
            "",  # no fourth player
            "Chloe",
            "2026-10-16",
            "",
            "",
            "Club house, Grenoble",
            "N-06",
            "noble B4",  # two fit (N-06 is taken, N-08 is left): found
            "noble 3 points",  # seven fit: asked again
            "N-01",
            "N-04",
            "3-19",
            "3-02",
            "3-16",
            "3-08",
            "2-18",
            "2-08",
            "2-12",
            "2-29",
            "1-09",
            "L1 black",  # several fit: asked again
            "1-37",
            "1-05",
            "1-17",
            "",
        ]
    )
    result = _run(db, "new", input=answers)
    assert result.exit_code == 0, result.output
    assert "N-08: N-08 noble 3 points requires B4 G4" in result.output
    assert "cards fit; say more" in result.output
    game = result.output.strip().splitlines()[-1]
    path = ROOT / "fixtures" / "splendor" / "games" / "three-players.tl"
    setup, turns = _split(path)
    exported = _run(db, "export", game, "--format", "notation").output
    laid_out = [line.split("{")[0].split() for line in setup.splitlines()[-4:]]
    assert [line.split() for line in exported.splitlines()[9:13]] == laid_out
    assert '[Player3 "Eli"]' in exported and "[Player4" not in exported
    for line in turns[:6]:
        assert _run(db, "log", game, line).exit_code == 0, line
    exported = _run(db, "export", game, "--format", "notation").output
    assert [line for line in exported.splitlines() if line[:1].isdigit()] == turns[:6]


def test_cards_of_classic_splendor_and_only_unseen_ones_in_a_classic_game(tmp_path: Path):
    db = tmp_path / "t.db"
    found = _run(db, "cards", "--kind", "splendor", "level", "3", "red")
    assert found.exit_code == 0, found.output
    lines = found.output.splitlines()
    assert lines[0].split() == ["id", "level", "colour", "bonus", "points", "cost"]
    assert "3-16  3      red     1      5       7 green 3 red" in found.output  # as printed
    assert lines[-1] == "4 cards"
    nobles = _run(db, "cards", "--kind", "splendor", "noble", "requires", "B4")
    assert nobles.output.splitlines()[0].split() == ["id", "level", "points", "requires"]
    assert "N-06  0      3       4 white 4 blue" in nobles.output
    setup, _ = _split(ROOT / "fixtures" / "splendor" / "games" / "three-players.tl")
    game = _new(db, setup)
    unseen = _run(db, "cards", "level", "3", "red", "--game", game, "--json")
    ids = [c["id"] for c in json.loads(unseen.output)]
    assert "3-16" not in ids and len(ids) == 3  # 3-16 lies in the display
    wrong = _run(db, "cards", "--kind", "splendor", "crown")
    assert wrong.exit_code == 1 and "'crown' is not something printed" in wrong.output


def test_new_refuses_a_file_that_is_not_utf8_or_empty_with_its_place(tmp_path: Path):
    """A setup saved in another encoding, or no text at all, is refused with the place and
    why (exit 1), never a traceback; nothing is stored."""
    db = tmp_path / "t.db"
    setup, _ = _split(ROOT / "fixtures" / "games" / "dispute.tl")
    latin = tmp_path / "latin1.tl"
    latin.write_bytes(setup.replace("[Date", '[Place "Café"]\n[Date').encode("latin-1"))
    for args, input, words in (
        (["new", str(latin)], None, f"{latin}:"),
        (["new", "-"], latin.read_bytes(), "<stdin>:"),
        (["new", "-"], b"", "<stdin>:1:1: no game here"),
    ):
        result = CliRunner().invoke(cli, [*args, "--db", str(db)], input=input)
        assert result.exit_code == 1, result.output
        assert words in result.output and "Traceback" not in result.output
        if input != b"":
            assert "not UTF-8 text" in result.output and "save the file as UTF-8" in result.output
    with EventStore.open(db) as store:
        assert store.listing.count() == 0


def test_record_without_a_game_says_where_ids_come_from(tmp_path: Path):
    asked = _run(tmp_path / "t.db", "record")
    assert asked.exit_code == 2 and "`tablelog new` starts one" in asked.output
