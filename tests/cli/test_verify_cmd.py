"""``tablelog verify`` and the head ``show`` prints, on real files: the same game recorded
three ways has one head, a change made behind the store's back is named by game and step,
and a shared file is matched against the stored game."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
DISPUTE = ROOT / "fixtures" / "games" / "dispute.tl"
DISPUTE_ID = "6138631be858"


def run(db: Path, *args: str, env: dict | None = None):
    return CliRunner().invoke(cli, [*args, "--db", str(db)], env=env or {})


def verified(db: Path, *args: str) -> dict:
    result = run(db, "verify", "--json", *args)
    return {"exit": result.exit_code, **json.loads(result.stdout)}


@pytest.fixture
def dispute(tmp_path: Path) -> Path:
    """A database holding the disputed sample game (comments, annotations, a move played
    though illegal)."""
    db = tmp_path / "a.db"
    assert run(db, "import", str(DISPUTE)).exit_code == 0
    return db


def tamper(db: Path, *statements: str) -> None:
    """Edit the file as anyone holding it can: triggers dropped, then made again."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        triggers = triggers.fetchall()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("PRAGMA ignore_check_constraints = ON")
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        for statement in statements:
            conn.execute(statement)
        for _, sql in triggers:
            conn.execute(sql)
        conn.execute("COMMIT")
    finally:
        conn.close()


def test_the_same_game_imported_from_notation_from_json_and_logged_has_one_head(dispute, tmp_path):
    head = verified(dispute)["games"][0]["head"]
    # From its JSON export, into another file.
    exported = tmp_path / "dispute.json"
    assert (
        run(dispute, "export", DISPUTE_ID, "--format", "json", "-o", str(exported)).exit_code == 0
    )
    from_json = tmp_path / "b.db"
    assert run(from_json, "import", str(exported)).exit_code == 0
    # Logged move by move, as at the table: `tablelog new` of the headers (without the
    # outcome, which a game being played has not) and the setup, then each turn line.
    text = DISPUTE.read_text(encoding="utf-8")
    turns = [line for line in text.splitlines() if line[:1].isdigit()]
    setup = text[: text.index("\n1. ")]
    setup = "\n".join(
        line for line in setup.splitlines() if not line.startswith(("[Result", "[Victory"))
    )
    (tmp_path / "new.tl").write_text(setup + "\n", encoding="utf-8")
    logged = tmp_path / "c.db"
    started = run(logged, "new", str(tmp_path / "new.tl"))
    assert started.exit_code == 0, started.output
    game = started.stdout.strip()
    for line in turns:
        result = run(logged, "log", game, line)
        assert result.exit_code == 0, (line, result.output)
    heads = [verified(db)["games"][0] for db in (dispute, from_json, logged)]
    assert [h["head"] for h in heads] == [head] * 3
    assert [h["steps"] for h in heads] == [128] * 3
    assert all(verified(db)["ok"] for db in (dispute, from_json, logged))


def test_show_and_verify_print_the_head(dispute):
    head = verified(dispute)["games"][0]["head"]
    shown = run(dispute, "show", DISPUTE_ID)
    assert shown.exit_code == 0
    assert shown.stdout.splitlines()[-1] == f"head {head[:12]}"
    earlier = run(dispute, "show", DISPUTE_ID, "--step", "40").stdout.splitlines()[-1]
    assert earlier.startswith("hash at step 40 ") and head[:12] not in earlier
    result = run(dispute, "verify")
    assert result.exit_code == 0
    assert result.stdout == (
        f"game {DISPUTE_ID}: ok, 128 steps, head {head[:12]}\nverified 1 game: ok\n"
    )


def test_the_keyed_head_is_the_hmac_of_the_head(dispute):
    head = verified(dispute)["games"][0]["head"]
    keyed = hmac.new(b"s3cret", head.encode(), hashlib.sha256).hexdigest()
    assert verified(dispute, "--key", "s3cret")["games"][0]["keyed_head"] == keyed
    from_env = run(dispute, "verify", "--json", env={"TABLELOG_CHAIN_KEY": "s3cret"})
    assert json.loads(from_env.stdout)["games"][0]["keyed_head"] == keyed
    assert verified(dispute, "--key", "other")["games"][0]["keyed_head"] != keyed
    assert "keyed_head" not in verified(dispute)["games"][0]


def test_verify_names_each_change_by_game_and_step(dispute, tmp_path):
    for seed_file in ("points.tl", "crowns.tl"):
        assert run(dispute, "import", str(ROOT / "fixtures" / "games" / seed_file)).exit_code == 0
    assert verified(dispute)["ok"]
    ids = [g["game"] for g in verified(dispute)["games"]]
    other = next(i for i in ids if i != DISPUTE_ID)
    g = DISPUTE_ID
    tamper(
        dispute,
        # A comment (step 13's: Chloé only saw the illegal move five turns later).
        "UPDATE events SET meta = json_set(meta, '$.comment', 'Chloé saw it at once.')"
        f" WHERE game_no = (SELECT no FROM games WHERE id = '{g}') AND sequence = 13",
        # A move's payload (another game).
        "UPDATE events SET (type, payload) = (SELECT e.type, e.payload FROM events AS e"
        f" WHERE e.game_no = (SELECT no FROM games WHERE id = '{other}') AND e.sequence = 2)"
        f" WHERE game_no = (SELECT no FROM games WHERE id = '{other}') AND sequence = 4",
    )
    result = run(dispute, "verify")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert any(
        line.startswith(f"game {g}: step 13: the stored hash does not follow") for line in lines
    )
    assert any(
        line.startswith(f"game {other}: step 4: the stored hash does not follow") for line in lines
    )
    assert lines[-1].startswith("verified 3 games: ")
    # The untouched game still verifies alone; a touched one is marked where it shows.
    third = next(i for i in ids if i not in (g, other))
    assert run(dispute, "verify", third).exit_code == 0
    shown = run(dispute, "show", g).stdout.splitlines()[-1]
    assert shown.endswith("(does not verify from step 13: see tablelog verify)")
    report = verified(dispute, g)
    assert report["exit"] == 1 and not report["ok"]
    assert {(f["game"], f["step"], f["check"]) for f in report["findings"]} == {(g, 13, "chain")}


#: The events of the game ``{g}`` (events are kept by the game's number).
GAME = "game_no = (SELECT no FROM games WHERE id = '{g}')"


@pytest.mark.parametrize(
    ("what", "statements", "named"),
    [
        (
            "a header",
            ["UPDATE games SET headers = json_set(headers, '$.place', 'Paris') WHERE id = '{g}'"],
            (1, "chain"),
        ),
        (
            "two steps swapped",
            [
                "UPDATE events SET sequence = -sequence WHERE "
                + GAME
                + " AND sequence IN (30, 31)",
                "UPDATE events SET sequence = 61 + sequence"
                " WHERE " + GAME + " AND sequence IN (-30, -31)",
            ],
            (30, "chain"),
        ),
        (
            "a step deleted",
            ["DELETE FROM events WHERE " + GAME + " AND sequence = 50"],
            (50, "chain"),
        ),
        (
            "the last step deleted",
            ["DELETE FROM events WHERE " + GAME + " AND sequence = 128"],
            (None, "head"),
        ),
        (
            "the summary",
            ["UPDATE game_summaries SET winner_name = 'Chloé' WHERE game_id = '{g}'"],
            (None, "projection"),
        ),
        (
            "an event's text",
            ["UPDATE events SET text = 'resign' WHERE " + GAME + " AND sequence = 40"],
            (40, "text"),
        ),
    ],
)
def test_verify_names_the_step_of_each_kind_of_change(dispute, what, statements, named):
    tamper(dispute, *(s.format(g=DISPUTE_ID) for s in statements))
    report = verified(dispute)
    assert report["exit"] == 1, what
    assert [f for f in report["findings"] if f["game"] is None] == [], what
    first = report["findings"][0]
    assert (first["game"], (first["step"], first["check"])) == (DISPUTE_ID, named), what


def test_verify_reports_an_unknown_game_and_a_missing_database(dispute, tmp_path):
    result = run(dispute, "verify", "nope")
    assert result.exit_code == 2 and "nope" in result.output
    assert run(tmp_path / "none.db", "verify").exit_code == 2


def test_verify_file_matches_an_export_and_catches_a_changed_file(dispute, tmp_path):
    for fmt in ("notation", "json"):
        out = tmp_path / f"export.{fmt}"
        assert run(dispute, "export", DISPUTE_ID, "--format", fmt, "-o", str(out)).exit_code == 0
        result = run(dispute, "verify", "--file", str(out), DISPUTE_ID)
        assert result.exit_code == 0, result.output
        assert f"matches game {DISPUTE_ID}: head " in result.stdout
    text = DISPUTE.read_text(encoding="utf-8")
    # A file of the game's beginning (exported before it went on) matches up to its end.
    short = tmp_path / "short.tl"
    short.write_text(
        "\n".join(
            line
            for line in text.splitlines()
            if not line.startswith(("[Result", "[Victory", "69. ", "68. "))
        )
        + "\n",
        encoding="utf-8",
    )
    result = run(dispute, "verify", "--file", str(short), DISPUTE_ID)
    assert result.exit_code == 0, result.output
    assert "up to step 125 of 128" in result.stdout
    # A comment changed in the shared file: the step that differs is named.
    changed = tmp_path / "changed.tl"
    changed.write_text(
        text.replace("Chloé only saw it five turns later", "Chloé saw it at once"),
        encoding="utf-8",
    )
    result = run(dispute, "verify", "--file", str(changed), DISPUTE_ID)
    assert result.exit_code == 1
    assert "does not match game 6138631be858: step 13 differs" in result.stdout
    report = json.loads(run(dispute, "verify", "--json", "--file", str(changed), DISPUTE_ID).stdout)
    assert (report["ok"], report["first_difference"], report["file_steps"]) == (False, 13, 128)
    # Other players: the origin differs.
    players = tmp_path / "players.tl"
    players.write_text(
        text.replace('[Player2 "Chloé"]', '[Player2 "Chloe"]').replace("Chloé:", "Chloe:"),
        encoding="utf-8",
    )
    result = run(dispute, "verify", "--file", str(players), DISPUTE_ID)
    assert result.exit_code == 1, result.output
    assert "the game's kind or headers differ" in result.stdout
    # Files that cannot be compared say why.
    assert run(dispute, "verify", "--file", str(changed)).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = run(dispute, "verify", "--file", str(bad), DISPUTE_ID)
    assert result.exit_code == 2 and "bad.json" in result.output


def test_verify_reports_a_malformed_row_a_missing_trigger_and_a_damaged_file(dispute):
    """What no chain covers: a game row whose headers are a JSON list (the site and
    ``games`` render around it), a refusal dropped, and SQLite's own integrity check."""
    conn = sqlite3.connect(dispute, isolation_level=None)
    for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'games'"
    ).fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE games SET headers = '[1, 2]'")
    conn.close()
    report = verified(dispute)
    assert report["exit"] == 1
    messages = [(f["game"], f["step"], f["message"]) for f in report["findings"]]
    assert (DISPUTE_ID, 1, "the stored headers are not a JSON object") in messages, messages
    assert any(
        game is None and "games_no_replace is missing" in message for game, _, message in messages
    ), messages
    assert run(dispute, "games").exit_code == 0  # listed around it
    # A damaged index: one byte of a date in the index of games by date, changed on disk.
    fresh = dispute.with_name("fresh.db")
    assert run(fresh, "import", str(DISPUTE)).exit_code == 0
    conn = sqlite3.connect(fresh)
    (root,) = conn.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'game_summaries_by_date'"
    ).fetchone()
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(fresh.read_bytes())
    at = data.index(b"2024-", (root - 1) * size, root * size)
    data[at + 3] ^= 1  # 2024 -> 2025 in the index only
    fresh.write_bytes(data)
    report = verified(fresh)
    assert report["exit"] == 1 and report["games"][0]["game"] == DISPUTE_ID
    assert [f["check"] for f in report["findings"]] == ["integrity"], report["findings"]
    assert "missing from index game_summaries_by_date" in report["findings"][0]["message"]


def test_show_prints_the_keyed_head_when_a_chain_key_is_set(dispute):
    head = verified(dispute)["games"][0]["head"]
    keyed = hmac.new(b"s3cret", head.encode(), hashlib.sha256).hexdigest()
    shown = run(dispute, "show", DISPUTE_ID, env={"TABLELOG_CHAIN_KEY": "s3cret"})
    assert shown.stdout.splitlines()[-1] == f"head {head[:12]}, keyed {keyed[:12]}"


@pytest.mark.parametrize("keyed", [False, True])
def test_a_tail_cut_with_its_head_is_found_by_a_head_kept_elsewhere(dispute, tmp_path, keyed):
    """The last steps removed and the stored head made the last remaining step's: the
    record verifies on its own; against the heads kept before (`tablelog heads`), it does
    not, plain or keyed."""
    env = {"TABLELOG_CHAIN_KEY": "club secret"} if keyed else {}
    listed = run(dispute, "heads", env=env)
    assert listed.exit_code == 0, listed.output
    (line,) = listed.output.splitlines()
    game, steps, head = line.split()
    assert game == DISPUTE_ID and int(steps) > 10
    kept = tmp_path / "heads.txt"
    kept.write_text("# kept on club night\n" + listed.output, encoding="utf-8")
    assert run(dispute, "verify", "--heads", str(kept), env=env).exit_code == 0
    cut = int(steps) - 3
    tamper(
        dispute,
        f"DELETE FROM events WHERE game_no = (SELECT no FROM games WHERE id = '{game}')"
        f" AND sequence > {cut}",
        "UPDATE games SET head = (SELECT lower(hex(hash)) FROM events"
        f" WHERE game_no = games.no AND sequence = {cut}) WHERE id = '{game}'",
    )
    alone = verified(dispute)
    assert all(f["check"] != "chain" for f in alone["findings"]), alone
    checked = run(dispute, "verify", "--heads", str(kept), env=env)
    assert checked.exit_code == 1
    assert f"game {game}: the head kept for it" in checked.output
    assert "is not the hash of any of its" in checked.output
    one = run(dispute, "verify", "--head", game, head, env=env)
    assert one.exit_code == 1 and "the head kept for it" in one.output
    bad = tmp_path / "bad.txt"
    bad.write_text("not a head line here\n", encoding="utf-8")
    refused = run(dispute, "verify", "--heads", str(bad))
    assert refused.exit_code == 2 and "bad.txt:1:1: expected GAME STEPS HEAD" in refused.output


def test_a_trigger_replaced_by_one_that_does_nothing_is_found(dispute):
    """The append-only triggers dropped and made again under the same names, doing
    nothing: the names are all there, the refusals are not."""
    conn = sqlite3.connect(dispute, isolation_level=None)
    try:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END")
    finally:
        conn.close()
    result = verified(dispute)
    assert result["exit"] == 1
    assert [f["message"] for f in result["findings"] if f["check"] == "trigger"] == [
        "the trigger events_no_update is not the one the store creates: the store's refusals "
        "may be off"
    ]
