"""The game is a package of its own: its ``pyproject.toml`` names it, depends on tablelog
and declares the entry point the registry finds it by (group ``tablelog.games``, the
entry's name its kind); installed by pip, the distribution's entry point loads the game."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import EntryPoint, distributions
from pathlib import Path

import pytest
from coloretto import GAME

HERE = Path(__file__).resolve().parents[1]


def test_the_pyproject_declares_the_entry_point_of_the_game() -> None:
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    assert project["name"] == "tablelog-coloretto"
    assert "tablelog" in project["dependencies"]
    entries = project["entry-points"]["tablelog.games"]
    assert entries == {GAME.kind: "coloretto:GAME"}


def test_pip_installs_a_distribution_whose_entry_point_loads_the_game(tmp_path: Path) -> None:
    # (built from a copy: setuptools writes its build folders beside the sources)
    source = tmp_path / "src"
    shutil.copytree(HERE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "tests"))
    target = tmp_path / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    if done.returncode and "build dependencies" in done.stderr:
        pytest.skip("pip cannot fetch the build backend (setuptools) here")
    assert done.returncode == 0, done.stderr
    found = _entries(target)
    assert [(ep.name, ep.value) for ep in found] == [("coloretto", "coloretto:GAME")]
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); "
            "from importlib.metadata import entry_points; "
            "game = entry_points(group='tablelog.games')['coloretto'].load(); "
            "print(game.kind, game.title, type(game).__module__, game.seats)",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split()[:3] == ["coloretto", "Coloretto", "coloretto"]


def _entries(target: Path) -> list[EntryPoint]:
    """The ``tablelog.games`` entry points of the distributions installed in ``target``."""
    return [
        ep
        for dist in distributions(path=[str(target)])
        for ep in dist.entry_points
        if ep.group == "tablelog.games"
    ]
