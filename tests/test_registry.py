"""The games are found by entry point (gameindex, engine/games.py): the built-in games
through tablelog's own metadata, another distribution's game once it is installed, the
cache of the table following what is installed, the default game as declared, and a
broken game reported without taking the others down.

A distribution "installed" for a test is a ``*.dist-info`` folder (METADATA and
entry_points.txt) with its module beside it, in a folder put on PYTHONPATH of a fresh
Python or ``tablelog`` process: importlib.metadata finds it there as it finds one that pip
installed.  Each process gets its own cache folder (TABLELOG_CACHE_DIR)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib.metadata import distribution
from pathlib import Path

import pytest

import gameindex
from engine.games import DEFAULT_KIND, GAMES, game_for_notation, get_game

ROOT = Path(__file__).resolve().parents[1]
TABLELOG = Path(sys.executable).with_name("tablelog")
CLASSIC_FILE = next((ROOT / "fixtures" / "splendor" / "games").glob("*.tl"))

#: A game of kind "fake": the default game under another kind and title.
FAKE_GAME = """
from engine.games import DEFAULT_KIND, get_game

class _Rules:
    kind = "fake"
    title = "Fake Game"

    def __getattr__(self, name):
        return getattr(get_game(DEFAULT_KIND), name)

GAME = _Rules()
"""


#: The games tablelog itself declares: what a process whose path holds no other game finds
#: (this test run's own processes also find the games of tests/games, installed for it).
BUILT_IN = sorted(
    ep.name for ep in distribution("tablelog").entry_points if ep.group == gameindex.GROUP
)


def in_order(*kinds: str) -> list[str]:
    """The registry's order: the default game first, then tablelog's own games, then
    the others, each by kind."""
    return sorted(kinds, key=lambda kind: (kind != DEFAULT_KIND, kind not in BUILT_IN, kind))


def install(site: Path, name: str, entry_points: str, module: str | None = None) -> Path:
    """A distribution ``name`` 0.1 on ``site`` declaring ``entry_points`` (the text of an
    entry_points.txt), with the module ``name``.py holding ``module`` if given."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    if module is not None:
        (site / f"{name}.py").write_text(module)
    return info


def environment(site: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return env | {"PYTHONPATH": str(site), gameindex.CACHE_ENV: str(cache)}


def python(code: str, site: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        env=environment(site, cache),
        capture_output=True,
        text=True,
        timeout=60,
    )


def tablelog(*args: str, site: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TABLELOG), *args],
        env=environment(site, cache),
        capture_output=True,
        text=True,
        timeout=60,
    )


KINDS = "import engine.games as g; print(' '.join(g.GAMES))"


def kinds(site: Path, cache: Path) -> list[str]:
    done = python(KINDS, site, cache)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    return folder


@pytest.fixture()
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


# --- the built-in games -------------------------------------------------------------------


def test_the_built_in_games_are_tablelogs_entry_points() -> None:
    declared = {
        ep.name: ep.value
        for ep in distribution("tablelog").entry_points
        if ep.group == gameindex.GROUP
    }
    assert declared == {
        "splendor-duel": "engine.splendor_duel:GAME",
        "splendor": "engine.splendor:GAME",
    }
    assert set(declared) <= set(GAMES)
    for kind in set(GAMES) - set(declared):  # the test games, from their own distributions
        assert get_game(kind).kind == kind
    for kind, target in declared.items():
        rules = get_game(kind)
        assert rules.kind == kind
        assert f"{type(rules).__module__}".startswith(target.split(":")[0])
    [default] = [
        ep.name
        for ep in distribution("tablelog").entry_points
        if ep.group == gameindex.DEFAULT_GROUP
    ]
    assert default == DEFAULT_KIND
    assert list(GAMES)[0] == DEFAULT_KIND  # the default game is tried first


def test_a_game_is_imported_when_first_asked_for(site: Path, cache: Path) -> None:
    code = (
        "import sys, engine.games as g\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.count('.') == 1"
        " and m.startswith('engine.') and hasattr(sys.modules[m], 'GAME'))\n"
        "print(loaded())\n"
        "g.get_game(g.DEFAULT_KIND)\n"
        "print(loaded())\n"
    )
    done = python(code, site, cache)
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.splitlines()
    assert before == "[]"
    assert after == repr([f"engine.{DEFAULT_KIND.replace('-', '_')}"])


def test_a_file_without_a_game_header_is_of_the_default_game() -> None:
    text = CLASSIC_FILE.read_text(encoding="utf-8")
    headerless = "\n".join(line for line in text.splitlines() if not line.startswith("[Game "))
    assert game_for_notation(text).kind != DEFAULT_KIND  # the header counts...
    assert game_for_notation(headerless) is get_game(DEFAULT_KIND)  # ...and its absence


# --- a game another distribution installs -------------------------------------------------


def test_an_installed_game_is_listed_by_the_cli(site: Path, cache: Path) -> None:
    install(site, "fakegame", "[tablelog.games]\nfake = fakegame:GAME\n", FAKE_GAME)
    shown = tablelog("games", "--help", site=site, cache=cache)
    assert shown.returncode == 0, shown.stderr
    assert f"[{'|'.join(in_order(*BUILT_IN, 'fake'))}]" in " ".join(shown.stdout.split())
    refused = tablelog("games", "--kind", "nope", site=site, cache=cache)
    assert refused.returncode == 2
    assert "'fake'" in refused.stderr
    done = python(
        "from engine.games import get_game, game_for_notation as g\n"
        "print(get_game('fake').title, g('[Game \"fake game\"]').kind)",
        site,
        cache,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Fake", "Game", "fake"]


def test_the_default_game_is_declared_in_metadata(site: Path, cache: Path) -> None:
    """Another distribution's default (here, a club's choice) wins over tablelog's; a
    default naming no installed game is passed over."""
    code = (
        "from pathlib import Path\n"
        "from engine.games import DEFAULT_KIND, game_for_notation\n"
        f"text = Path({str(CLASSIC_FILE)!r}).read_text()\n"
        "text = '\\n'.join(l for l in text.splitlines() if not l.startswith('[Game '))\n"
        "print(DEFAULT_KIND, game_for_notation(text).kind)"
    )
    assert python(code, site, cache).stdout.split() == [DEFAULT_KIND] * 2
    other = next(kind for kind in BUILT_IN if kind != DEFAULT_KIND)
    install(site, "aaa-nothing", "[tablelog.default_game]\nnothing = nothing:GAME\n")
    install(site, "club", f"[tablelog.default_game]\n{other} = whatever:GAME\n")
    done = python(code, site, cache)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [other, other]


# --- the cache ------------------------------------------------------------------------------


def test_the_cache_follows_what_is_installed(site: Path, cache: Path) -> None:
    builtin = kinds(site, cache)
    [cache_file] = cache.iterdir()
    # The table is read from the cache while nothing is installed or removed: a kind
    # written into the file shows.
    data = json.loads(cache_file.read_text())
    data["games"].append(["ghost", "ghost:GAME", "ghost 0.1"])
    cache_file.write_text(json.dumps(data))
    assert kinds(site, cache) == [*builtin, "ghost"]  # (appended: not in the usual order)
    # Installing a distribution invalidates it...
    info = install(site, "fakegame", "[tablelog.games]\nfake = fakegame:GAME\n", FAKE_GAME)
    assert kinds(site, cache) == in_order(*builtin, "fake")
    # ...and so does removing one.
    for path in info.iterdir():
        path.unlink()
    info.rmdir()
    assert kinds(site, cache) == builtin


def test_the_cache_is_in_the_users_cache_folder(site: Path, tmp_path: Path) -> None:
    env = environment(site, tmp_path) | {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    del env[gameindex.CACHE_ENV]
    done = subprocess.run([sys.executable, "-c", KINDS], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    [cached] = (tmp_path / "xdg" / "tablelog").iterdir()
    assert [g[0] for g in json.loads(cached.read_text())["games"]] == done.stdout.split()


def test_without_a_writable_cache_the_table_is_read_each_time(site: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    install(site, "fakegame", "[tablelog.games]\nfake = fakegame:GAME\n", FAKE_GAME)
    assert kinds(site, blocker / "cache") == in_order(*BUILT_IN, "fake")
    assert not (blocker / "cache").exists()


# --- games that cannot be used ----------------------------------------------------------------


def test_a_broken_game_is_reported_and_the_others_still_work(site: Path, cache: Path) -> None:
    install(site, "brokengame", "[tablelog.games]\nbroken = brokengame:GAME\n", "import nowhere_\n")
    done = python("from engine.games import get_game; get_game('broken')", site, cache)
    assert done.returncode == 1
    message = done.stderr.splitlines()[-1]
    assert message.startswith("engine.games.GameUnavailable: ")
    for part in ("'broken' cannot be loaded", "brokengame 0.1", "brokengame:GAME"):
        assert part in message
    assert "ModuleNotFoundError: No module named 'nowhere_'" in message
    # "broken" sorts before "splendor": finding a classic file's game passes it over.
    checked = tablelog("validate", str(CLASSIC_FILE), site=site, cache=cache)
    assert checked.returncode == 0, checked.stderr + checked.stdout
    searched = tablelog("cards", "--kind", "broken", "green", site=site, cache=cache)
    assert searched.returncode == 1
    assert "Error: game kind 'broken' cannot be loaded" in searched.stderr
    assert tablelog("cards", "--kind", "splendor", "green", site=site, cache=cache).returncode == 0


def test_a_game_of_another_kind_than_its_entry_point_is_refused(site: Path, cache: Path) -> None:
    install(site, "fakegame", "[tablelog.games]\nother = fakegame:GAME\n", FAKE_GAME)
    done = python("from engine.games import get_game; get_game('other')", site, cache)
    assert "GameUnavailable" in done.stderr
    assert "'other' cannot be used (entry point other = fakegame:GAME of fakegame 0.1)" in (
        done.stderr
    )
    assert "has kind 'fake'" in done.stderr
    # The module itself when the value names no attribute, as EntryPoint.load() does;
    # and a value that names nothing.
    install(site, "other", "[tablelog.games]\nmodule = fakegame\nnonsense = fake game!\n")
    code = (
        "from engine.games import get_game, GameUnavailable\n"
        "for kind in ('module', 'nonsense'):\n"
        "    try:\n"
        "        get_game(kind)\n"
        "    except GameUnavailable as err:\n"
        "        print(err)\n"
    )
    module, nonsense = python(code, site, cache).stdout.splitlines()
    assert module.endswith(
        "(entry point module = fakegame of other 0.1): the object it names has kind None"
    )
    assert nonsense.endswith("ValueError: not a module:attribute reference")


def test_a_kind_two_distributions_declare_is_used_by_neither(site: Path, cache: Path) -> None:
    install(site, "fakegame", "[tablelog.games]\nfake = fakegame:GAME\n", FAKE_GAME)
    install(site, "fakegame2", "[tablelog.games]\nfake = fakegame2:GAME\n", FAKE_GAME)
    code = (
        "from engine.games import GAMES, get_game\n"
        "print(sorted(GAMES), sorted(r.kind for r in GAMES.values()))\n"
        "get_game('fake')"
    )
    done = python(code, site, cache)
    assert done.stdout.split("] [")[0].endswith("'fake', 'splendor', 'splendor-duel'")
    assert "'fake'" not in done.stdout.split("] [")[1]
    assert "declared by more than one package: fakegame 0.1" in done.stderr
    assert "fakegame2 0.1 (fakegame2:GAME)" in done.stderr
