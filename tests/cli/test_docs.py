"""Every command is documented, and every documented example runs.

The examples are the ``tablelog ...`` lines of the ```sh blocks of README.md and docs/*.md,
the ``$ tablelog ...`` lines of any block there (a transcript: the lines after one, up to
the next ``$``, are what it prints; the commands of one transcript run in order against
the same database, as they were typed), and the ``tablelog ...`` lines of the commands' help.
Each runs in a shell at the repository's root against a database holding the sample games
of fixtures/games; it must exit with the code its comment gives (``# exit 1``; 0 when it
says nothing) and print no traceback, and a transcript must print what it shows.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from interpreter import modules_after

from cli.main import cli, commands
from recorder import EventStore
from recorder.io import load_file

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.M | re.S)
_EXIT = re.compile(r"\s#\s*exit (\d+)\b")


@pytest.mark.parametrize("name", sorted(commands()))
def test_every_command_is_in_the_readme_and_has_help(name):
    assert f"`tablelog {name}" in README
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0
    assert commands()[name].help and len(commands()[name].help.strip()) > 20
    # words for a person: no line of Python (an assignment, a call's statement) slipped in
    code = re.compile(r"^\s*(\w+(\.\w+)* = \S|return\b|if .+:$|\w+\(.*\)$)", re.M)
    assert not code.search(commands()[name].help), commands()[name].help


@dataclass(frozen=True)
class Example:
    where: str
    command: str
    #: What a transcript shows it printing (None: not shown).
    output: str | None = None
    #: The commands of the same transcript before this one, run first on the same database.
    before: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        match = _EXIT.search(self.command)
        return int(match.group(1)) if match else 0


def _doc_examples(path: Path) -> list[Example]:
    name = path.relative_to(ROOT).as_posix()
    found = []
    for match in _FENCE.finditer(path.read_text(encoding="utf-8")):
        indent, lang, body = len(match.group(1)), match.group(2), match.group(3)
        lines = [line[indent:] for line in body.splitlines()]
        typed: list[str] = []
        for i, line in enumerate(lines):
            if lang == "sh" and line.startswith("tablelog "):
                found.append(Example(name, line))
            elif line.startswith("$ tablelog "):
                shown = []
                for out in lines[i + 1 :]:
                    if out.startswith("$ "):
                        break
                    shown.append(out)
                found.append(Example(name, line[2:], "\n".join(shown), tuple(typed)))
                typed.append(line[2:])
    return found


def _help_examples() -> list[Example]:
    return [
        Example(f"tablelog {name} --help", line.strip())
        for name, command in sorted(commands().items())
        for line in (command.help or "").splitlines()
        if line.strip().startswith("tablelog ")
    ]


EXAMPLES = [e for path in DOCS for e in _doc_examples(path)] + _help_examples()


def test_the_examples_are_found():
    places = {e.where for e in EXAMPLES}
    assert {"README.md", "docs/notation.md"} <= places
    assert {"tablelog check --help", "tablelog validate --help"} <= places
    assert any(e.output for e in EXAMPLES) and any(e.exit_code == 1 for e in EXAMPLES)


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("docs") / "samples.db"
    with EventStore.open(db) as store:
        for path in sorted((ROOT / "fixtures" / "games").glob("*.tl")):
            for record in load_file(path):
                store.import_game(record)
    return db


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{e.where}: {e.command[:60]}" for e in EXAMPLES]
)
def test_every_example_runs(example: Example, sample_db: Path, tmp_path: Path):
    db = tmp_path / "games.db"
    shutil.copyfile(sample_db, db)  # an example that imports changes only its own copy
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "TABLELOG_DB": str(db), "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    for earlier in example.before:
        subprocess.run(["bash", "-c", earlier], cwd=ROOT, env=env, capture_output=True, timeout=120)
    ran = subprocess.run(
        ["bash", "-c", example.command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in ran.stdout, ran.stdout
    assert ran.returncode == example.exit_code, ran.stdout
    if example.output is not None:
        assert ran.stdout.rstrip("\n") == example.output.rstrip("\n")


def _python_blocks() -> list[tuple[str, str]]:
    blocks = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for n, match in enumerate(re.finditer(r"```python\n(.*?)```", text, re.S), start=1):
            blocks.append((f"{path.relative_to(ROOT)} #{n}", match.group(1)))
    return blocks


@pytest.mark.parametrize(
    "code", [c for _, c in _python_blocks()], ids=[n for n, _ in _python_blocks()]
)
def test_every_python_example_runs(code: str, sample_db: Path, tmp_path: Path):
    """The Python examples in the README and docs/ run as written (against a copy of the
    sample database, from the project folder)."""
    db = tmp_path / "tablelog.db"
    shutil.copyfile(sample_db, db)
    env = {**os.environ, "TABLELOG_DB": str(db), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_every_command_is_found_in_the_module_the_group_names():
    """The group imports a command's module when the command is asked for: every module's
    commands are named there, under their module, and nothing else is."""
    import importlib
    import pkgutil

    import cli as package
    from cli.main import COMMAND_MODULES

    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"cli.{info.name}")
        for command in getattr(module, "COMMANDS", ()):
            if isinstance(command, click.Command):
                found[command.name] = info.name
    assert found == COMMAND_MODULES


#: ``tablelog validate`` of one game file, in a fresh interpreter.
VALIDATE_ONE_FILE = (
    "from cli.main import cli\n"
    "try:\n"
    "    cli(['validate', 'fixtures/games/points.tl'])\n"
    "except SystemExit as done:\n"
    "    assert done.code == 0, done.code\n"
)


def test_a_command_imports_its_own_module_alone():
    imported = modules_after(VALIDATE_ONE_FILE, "cli")
    assert "cli.check_cmds" in imported and "cli.log_cmds" not in imported, imported
    assert "cli.targets" not in imported, imported  # (check and moves read GAME:STEP)


def test_validating_a_game_file_loads_no_store_service():
    """What ``validate`` of a file without a review does not use is not imported (its
    classes cost start-up time): the store, its games list, the review's store."""
    imported = modules_after(VALIDATE_ONE_FILE, "recorder")
    assert "recorder.validate" in imported, imported
    for unused in ("recorder.listing", "recorder.review", "recorder.core", "recorder.sqlite"):
        assert unused not in imported, imported
