"""A database written by the previous tablelog at schema version 2 (frozen in
``fixtures/schema2.db``) opens, migrates to the current schema and reads back exactly as
it did: the same exports byte for byte, the same ``show`` text and the same ``game_list``
rows, last activity untouched."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore
from recorder.migrations import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "schema2_expected.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("schema2") / "schema2.db"
    shutil.copyfile(FIXTURES / "schema2.db", path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    finally:
        conn.close()
    with EventStore.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 12
        assert store.integrity_check() == "ok"
    return path


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same games imported into a database made by today's code."""
    path = tmp_path_factory.mktemp("fresh") / "fresh.db"
    root = FIXTURES.parents[2]
    files = [*sorted((root / "fixtures" / "games").glob("*.tl")), FIXTURES / "v1_game.json"]
    result = CliRunner().invoke(cli, ["import", "--db", str(path), *map(str, files)])
    assert result.exit_code == 0, result.output
    return path


def sha256_of(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--db", str(db)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return hashlib.sha256(result.stdout_bytes).hexdigest()


def test_the_migrated_file_has_no_player_columns(migrated):
    conn = sqlite3.connect(migrated)
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(game_summaries)")}
    finally:
        conn.close()
    assert not {"player_0", "player_1"} & columns
    assert {"game_id", "winner_name", "last_activity"} <= columns


def test_the_game_list_rows_are_unchanged_last_activity_included(migrated):
    conn = sqlite3.connect(migrated)
    conn.row_factory = sqlite3.Row
    try:
        rows = {row["id"]: dict(row) for row in conn.execute("SELECT * FROM game_list")}
    finally:
        conn.close()
    assert rows == {gid: expected["list_row"] for gid, expected in EXPECTED.items()}


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_exports_are_byte_identical_and_show_replays_as_a_fresh_import(migrated, fresh, game_id):
    expected = EXPECTED[game_id]
    assert (
        sha256_of(migrated, "export", game_id, "--format", "notation")
        == (expected["notation_sha256"])
    )
    assert sha256_of(migrated, "export", game_id, "--format", "json") == expected["json_sha256"]
    # show's wording may change with the code; what it shows must not depend on the migration
    assert sha256_of(migrated, "show", game_id) == sha256_of(fresh, "show", game_id)
    assert sha256_of(migrated, "show", game_id, "--step", "40") == sha256_of(
        fresh, "show", game_id, "--step", "40"
    )


def test_the_migrated_file_verifies_and_has_the_heads_of_a_fresh_import(migrated, fresh):
    with EventStore.open(migrated) as old, EventStore.open(fresh) as new:
        assert old.verification.verify() == []
        heads = {gid: head for gid, _, head in old.verification.heads()}
        assert heads == {gid: head for gid, _, head in new.verification.heads() if gid in heads}
        assert set(heads) == set(EXPECTED)
