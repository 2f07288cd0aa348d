"""Shared code names no game: the words of the games tablelog ships (their titles, pieces
and board) appear in no module outside the game packages, so that a game is a package
(docs/games.md) and what is shared works for any game the registry finds.

The check is issue #26's::

    grep -rniE 'splendor|noble|royal|privilege|crown|pearl|pyramid|spiral' \\
        recorder/ cli/ engine/*.py engine/notation/ web/

The one exemption: the SQL of past migrations, which still upgrades old stores and must
not change; it is named below string by string (a module-level constant, found with
:mod:`ast`), not file by file, so a new mention anywhere else in those files is caught.
pyproject.toml's entry points name the games too, on purpose: that is where a game is
registered.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORDS = re.compile(r"splendor|noble|royal|privilege|crown|pearl|pyramid|spiral", re.IGNORECASE)

#: The places checked, as the issue's grep names them: a folder (every file in it and its
#: subfolders) or a glob of files.
PLACES = ["recorder/", "cli/", "engine/*.py", "engine/notation/", "web/"]

#: The SQL of past migrations, by file and module-level name: each a string constant.
PAST_MIGRATIONS = {
    "recorder/migrations.py": {"MIGRATION_1"},
    "recorder/pg_schema.py": {"_TABLES"},
}


def files(place: str) -> list[Path]:
    found = sorted(ROOT.glob(place + "**/*") if place.endswith("/") else ROOT.glob(place))
    return [p for p in found if p.is_file() and "__pycache__" not in p.parts]


def exempt_lines(path: Path, names: set[str]) -> set[int]:
    """The lines of the string constants assigned to ``names`` at the top of ``path``."""
    lines: set[int] = set()
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Assign):
            continue
        targets = {t.id for t in node.targets if isinstance(t, ast.Name)} & names
        if not targets:
            continue
        strings = [
            s
            for s in ast.walk(node.value)
            if isinstance(s, ast.Constant) and isinstance(s.value, str)
        ]
        assert strings, f"{path}: {targets} holds no SQL string"
        found |= targets
        for s in strings:
            assert s.end_lineno is not None
            lines |= set(range(s.lineno, s.end_lineno + 1))
    assert found == names, f"{path}: no such migration SQL: {sorted(names - found)}"
    return lines


def mentions(path: Path, relative: str | None = None) -> list[str]:
    """Each line of ``path`` (``relative`` to the repository) naming a game's word."""
    relative = relative or path.relative_to(ROOT).as_posix()
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = path.read_bytes().decode("latin-1")
    names = PAST_MIGRATIONS.get(relative)
    exempt = exempt_lines(path, names) if names else set()
    return [
        f"{relative}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if WORDS.search(line) and number not in exempt
    ]


def test_the_check_finds_a_game_word(tmp_path: Path) -> None:
    """A mention is found in any case, in code, a comment or a string, in an exempted
    file too: only the past migration's SQL itself is let through (so a clean result
    means something)."""
    source = (ROOT / "recorder" / "migrations.py").read_text(encoding="utf-8")
    assert WORDS.search(source)  # the SQL of migration 1 names events of a game
    added = ["# the Nobles", 'LABEL = "a ROYAL card"', "def crowns() -> None: ..."]
    copy = tmp_path / "migrations.py"
    copy.write_text(source + "\n".join(added) + "\n", encoding="utf-8")
    end = len(source.splitlines())
    assert mentions(copy, "recorder/migrations.py") == [
        f"recorder/migrations.py:{end + k}: {line}" for k, line in enumerate(added, start=1)
    ]


@pytest.mark.parametrize("place", PLACES)
def test_shared_code_names_no_game(place: str) -> None:
    checked = files(place)
    assert checked, f"nothing to check at {place}"
    found = [m for path in checked for m in mentions(path)]
    assert not found, "shared code names a game:\n" + "\n".join(found)
