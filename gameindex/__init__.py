"""Which games are installed: the entry points that declare them, read from the installed
distributions' metadata and kept in a small cache file.

A game is a package that declares itself in its distribution's metadata::

    [project.entry-points."tablelog.games"]
    coloretto = "coloretto:GAME"          # the name is the game's kind

and one distribution (tablelog itself) declares the game of a notation file without a
``[Game "..."]`` header::

    [project.entry-points."tablelog.default_game"]
    splendor-duel = "engine.splendor_duel:GAME"

:func:`installed` returns that table (kind -> ``module:attr``, the default kind, the
conflicts found) without importing any game: :mod:`engine.games` imports a game when it is
first asked for.  This module is the registry's only I/O (pyproject's ``engine-pure``
contract names the one import that reaches it), so that the engine itself stays pure.

Reading the metadata means importing :mod:`importlib.metadata` and scanning every
distribution on ``sys.path``: tens of milliseconds, which ``tablelog log`` (run once per
move at the table) should not pay each time.  The table is therefore cached in a file
(``$TABLELOG_CACHE_DIR``, else ``$XDG_CACHE_HOME/tablelog``, else ``~/.cache/tablelog``;
one file per interpreter and path list), valid while the interpreter and the modification
times of the ``sys.path`` entries are unchanged: installing or removing a distribution
adds or removes a file or folder in one of them, which changes its time.  (Editing an
installed distribution's ``entry_points.txt`` in place is not seen: reinstall it, or
delete the cache file.)  When the cache cannot be read or written the table is read from
the metadata, so a read-only home only costs time.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import zlib
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint, EntryPoints

#: The entry point group of the games: name = the kind, value = ``module:attr`` of its rules.
GROUP = "tablelog.games"
#: The entry point group of the default game: name = its kind (value as in :data:`GROUP`).
DEFAULT_GROUP = "tablelog.default_game"
#: The environment variable that relocates the cache folder.
CACHE_ENV = "TABLELOG_CACHE_DIR"
#: The distribution whose default game gives way to any other distribution's.
HOME_DISTRIBUTION = "tablelog"

# Bumped when the cache file's layout changes, so an old file is not misread.
_FORMAT = 1


class Declared(NamedTuple):
    """One game as its distribution declares it."""

    kind: str
    #: ``module:attr`` (attr may be dotted), the entry point's value.
    target: str
    #: The distribution that declares it, ``name version``, for messages.
    distribution: str


class Table(NamedTuple):
    """The installed games, the default kind and what could not be settled."""

    #: The games, the default first, then by kind.
    games: tuple[Declared, ...]
    #: The game of a file without a ``[Game]`` header ("" when no game is installed).
    default: str
    #: Kind -> why it cannot be used (two distributions declare it).
    conflicts: dict[str, str]


def installed() -> Table:
    """The table of installed games, from the cache when it is still valid."""
    key = _cache_key()
    path = _cache_path()
    table = _read_cache(path, key) if path else None
    if table is None:
        table = scan()
        if path:
            _write_cache(path, key, table)
    return table


def scan() -> Table:
    """The table read from the installed distributions' metadata (no cache)."""
    # Imported here, not at the top: a valid cache spares every command this import,
    # the largest part of the scan's cost.
    from importlib.metadata import entry_points

    everything = entry_points()
    offers: dict[str, list[Declared]] = {}
    for ep in everything.select(group=GROUP):
        offers.setdefault(ep.name, []).append(Declared(ep.name, ep.value, _distribution(ep)))
    games: dict[str, Declared] = {}
    conflicts: dict[str, str] = {}
    for kind, found in offers.items():
        # Two distributions declaring one kind would give a stored game two meanings:
        # neither is used until one is uninstalled.
        targets = {d.target for d in found}
        if len(targets) > 1:
            names = "; ".join(sorted(f"{d.distribution} ({d.target})" for d in found))
            conflicts[kind] = f"game kind {kind!r} is declared by more than one package: {names}"
        else:
            games[kind] = found[0]
    default = _default(everything.select(group=DEFAULT_GROUP), games)
    # the default first, then the games tablelog ships, then the others, each by kind:
    # what lists every game's words (the victory conditions, the kinds) reads the same
    # whatever else is installed
    ordered = sorted(
        games.values(),
        key=lambda d: (d.kind != default, not _home(d.distribution), d.kind),
    )
    return Table(tuple(ordered), default, conflicts)


def _home(distribution: str) -> bool:
    """Whether ``distribution`` (as :func:`_distribution` names it) is tablelog's own."""
    return distribution.split(" ", 1)[0] == HOME_DISTRIBUTION


def _distribution(ep: EntryPoint) -> str:
    if ep.dist is None:
        return "an unnamed distribution"
    return f"{ep.dist.name} {ep.dist.version}"


def _default(declared: EntryPoints, games: dict[str, Declared]) -> str:
    """The default kind: the one declared by a distribution other than tablelog's own
    (a club's package may choose its default) in preference to tablelog's, then the
    first by distribution name and kind; a declaration that names no installed game
    is passed over.  Without any, the first installed kind in alphabetical order."""
    candidates = []
    for ep in declared:
        if ep.name not in games:
            continue
        name = _normalised(ep.dist.name) if ep.dist is not None else ""
        candidates.append((name == HOME_DISTRIBUTION, name, ep.name))
    if candidates:
        return min(candidates)[2]
    return min(games, default="")


def _normalised(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


# -- the cache ----------------------------------------------------------------------------


def _cache_key() -> list[object]:
    """What changes when a distribution is installed or removed: the interpreter, and
    each ``sys.path`` entry with its modification time (None for one that is missing)."""
    stamps: list[object] = [_FORMAT, sys.executable, sys.version]
    for entry in sys.path:
        try:
            stamps.append([entry, os.stat(entry or ".").st_mtime_ns])
        except OSError:
            stamps.append([entry, None])
    return stamps


def _cache_path() -> str | None:
    folder = os.environ.get(CACHE_ENV)
    if folder:
        folder = os.path.abspath(folder)
    else:
        base = os.environ.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base):  # unset, or relative: which XDG says to ignore
            base = os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "tablelog")
    if not os.path.isabs(folder):  # no home to expand ~ into
        return None
    # One file per interpreter and path list, so that two virtualenvs (or a test's
    # PYTHONPATH) do not overwrite each other's table at every run.
    where = "\0".join([sys.executable, *sys.path]).encode("utf-8", "surrogatepass")
    return os.path.join(folder, f"games-{zlib.crc32(where):08x}.json")


def _read_cache(path: str, key: list[object]) -> Table | None:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data["key"] != key:
            return None
        games = tuple(Declared(str(k), str(t), str(d)) for k, t, d in data["games"])
        conflicts = {str(k): str(v) for k, v in data["conflicts"].items()}
        return Table(games, str(data["default"]), conflicts)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write_cache(path: str, key: list[object], table: Table) -> None:
    data = {
        "key": key,
        "games": [[d.kind, d.target, d.distribution] for d in table.games],
        "default": table.default,
        "conflicts": table.conflicts,
    }
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(data, f)
        # Atomic: a command starting meanwhile reads the old table or the new, never half.
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
