"""What every test folder shares: the games installed from ``tests/games/`` (each its own
distribution, installed with pip as a user would, so that the registry finds it by its
entry point in every test process and in every command a test runs), a throwaway
PostgreSQL cluster per test process (see tests/pgcluster.py), and a fresh schema of it
per test."""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from pgcluster import SKIP_REASON, Cluster, find_bindir  # noqa: E402

#: The games packaged outside the project's code, each a folder with its pyproject.toml.
TEST_GAMES = sorted(p.parent for p in (HERE / "games").glob("*/pyproject.toml"))
#: Where the controller tells its xdist workers the test games are installed.
TEST_GAMES_ENV = "TABLELOG_TEST_GAMES"
#: Seconds an install of an earlier version of the test games is kept after its last use.
DAY = 24 * 3600


def _install_test_games() -> Path:
    """Install the games of ``tests/games/`` into one folder with pip (not into the
    virtualenv: ``make run`` serves the project's own games) and return it.  The folder
    is named by a digest of the games' files, so an unchanged set is installed once
    (beside the virtualenv when there is one, else in the temporary folder)."""
    digest = hashlib.sha256()
    for game in TEST_GAMES:
        for f in sorted(game.rglob("*")):
            parts = f.relative_to(game).parts
            # (what pip's build leaves in the folder is not the game's)
            built = {"__pycache__", "build"} & set(parts) or parts[0].endswith(".egg-info")
            if f.is_file() and not built and f.suffix != ".pyc":
                digest.update("/".join(parts).encode() + b"\0" + f.read_bytes())
    venv = Path(sys.prefix)
    base = venv if venv != Path(sys.base_prefix) else Path(tempfile.gettempdir())
    target = base / "tablelog-test-games" / digest.hexdigest()[:16]
    if not (target / ".installed").exists():
        args = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--upgrade", "--target"]
        done = subprocess.run(
            [*args, str(target), *map(str, TEST_GAMES)], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise pytest.UsageError(f"installing tests/games failed:\n{done.stderr[-3000:]}")
    (target / ".installed").touch()  # (when it was last used)
    for older in target.parent.iterdir():
        # the installs of earlier versions, unless a run still under way may use one
        used = older / ".installed" if (older / ".installed").exists() else older
        if older != target and used.stat().st_mtime < time.time() - DAY:
            shutil.rmtree(older, ignore_errors=True)
    return target


def _put_test_games_on_path() -> None:
    """The test games on this process's path and, through PYTHONPATH, on that of every
    process it starts (the commands and servers the tests run), before any module of
    the tests imports the registry (this conftest is the first one pytest loads).  The
    first process of a run installs them and names the folder in the environment;
    xdist's workers, which start without PYTHONPATH on their path, read it there."""
    if not TEST_GAMES:
        return
    target = os.environ.get(TEST_GAMES_ENV)
    if target is None:
        target = os.environ[TEST_GAMES_ENV] = str(_install_test_games())
        paths = [target, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    if target not in sys.path:
        sys.path.insert(0, target)


_put_test_games_on_path()


def need_postgres() -> Path:
    """The PostgreSQL binaries' folder; without them, skip (fail under CI=true)."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and no PostgreSQL binaries: .ci/run installs postgresql")
        pytest.skip(SKIP_REASON)
    return bindir


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium for the whole run (the browser tests of tests/web and of each
    game of tests/games): see tests/browsing.py."""
    from browsing import chromium

    with chromium() as b:
        yield b


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """This test process's PostgreSQL server (started on first use, stopped at the end)."""
    cluster = Cluster(need_postgres()).init().start()
    atexit.register(cluster.remove)  # also when a run is interrupted
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of a fresh, empty schema of the test process's PostgreSQL server."""
    return pg_cluster.new_schema()


@pytest.fixture
def rules_calls(monkeypatch):
    """``rules_calls(kind)``: a dict counting, from then on, how often the rules of
    ``kind`` checked and applied an event (the real checks and effects still run).  A
    game's check is its ``game.check`` (called by its notation, and by its rules object
    for the fold); every effect goes through its table ``game.APPLIERS``."""
    import importlib

    from engine.games import get_game

    def count(kind: str) -> dict[str, int]:
        module = importlib.import_module(type(get_game(kind)).__module__ + ".game")
        calls = {"check": 0, "apply": 0}

        def counting(what, fn):
            def call(state, event):
                calls[what] += 1
                return fn(state, event)

            return call

        check = counting("check", module.check)
        monkeypatch.setattr(module, "check", check)
        monkeypatch.setattr(type(module.RULES), "check", staticmethod(check))
        for etype, fn in list(module.APPLIERS.items()):
            monkeypatch.setitem(module.APPLIERS, etype, counting("apply", fn))
        return calls

    return count
