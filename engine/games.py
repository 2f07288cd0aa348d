"""Registry of the games tablelog knows, by kind.

A game is an installed package that declares its rules object in the entry point group
``tablelog.games`` (the entry point's name is the game's kind); the game of a notation
file without a ``[Game "..."]`` header is declared in ``tablelog.default_game``.  The
table of entry points comes from :mod:`gameindex` (which reads the installed metadata and
caches it); this module names no game.

A game's module is imported when its game is first asked for, so a command that works on
one game (``tablelog log``, at the table) does not load the others.  A game whose module
cannot be imported, or whose object is not of the kind its entry point names, does not
stop the others: asking for it raises :class:`GameUnavailable`, which says why and which
distribution declared it.

>>> DEFAULT_KIND in GAMES
True
>>> get_game(DEFAULT_KIND).kind == DEFAULT_KIND
True
>>> get_game("no-such-game")
Traceback (most recent call last):
...
engine.games.UnknownGameKind: unknown game kind 'no-such-game' (known: ...)
"""

from __future__ import annotations

import importlib
import re
from collections.abc import ItemsView, Iterator, Mapping, ValuesView

import gameindex

from .errors import EngineError
from .protocol import GameRules


class UnknownGameKind(EngineError, KeyError):
    """A kind (or a notation file's game title) no installed game has."""

    def __str__(self) -> str:
        # The message as written: KeyError's own str() would quote it like a key.
        return str(self.args[0]) if self.args else ""


class GameUnavailable(UnknownGameKind):
    """A kind that is declared but cannot be used: its module fails to import, its
    object is of another kind, or two distributions declare it."""


class _Registry(Mapping[str, GameRules]):
    """The games by kind; a game's module is imported on first use.

    The keys are every declared kind.  Iterating the values or the items gives the games
    that load and passes over one that does not (a broken game must not take a listing
    of the others down); asking for it by kind raises :class:`GameUnavailable`."""

    def __init__(self, table: gameindex.Table) -> None:
        self._declared = {d.kind: d for d in table.games}
        self._kinds = [d.kind for d in table.games] + sorted(table.conflicts)
        self._loaded: dict[str, GameRules] = {}
        self._unavailable: dict[str, str] = dict(table.conflicts)

    def __getitem__(self, kind: str) -> GameRules:
        rules = self._loaded.get(kind)
        if rules is not None:
            return rules
        if kind in self._unavailable:
            raise GameUnavailable(self._unavailable[kind])
        declared = self._declared[kind]
        try:
            rules = _load(declared)
        except GameUnavailable as err:
            self._unavailable[kind] = str(err.args[0])
            raise
        self._loaded[kind] = rules
        return rules

    def __contains__(self, kind: object) -> bool:
        return kind in self._declared or kind in self._unavailable

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def values(self) -> ValuesView[GameRules]:
        """The games that load, in the registry's order (the default first)."""
        return _Values(self)

    def items(self) -> ItemsView[str, GameRules]:
        """Each kind that loads with its game."""
        return _Items(self)

    def available(self) -> Iterator[tuple[str, GameRules]]:
        """Each kind that loads with its game, each game imported as the loop reaches it."""
        for kind in self._kinds:
            try:
                yield kind, self[kind]
            except GameUnavailable:
                continue

    def unavailable(self) -> dict[str, str]:
        """Each declared kind found unusable so far, and why (a kind not yet asked for
        is not tried: see :func:`check_all`)."""
        return dict(self._unavailable)


class _Values(ValuesView[GameRules]):
    _mapping: _Registry

    def __iter__(self) -> Iterator[GameRules]:
        return (rules for _, rules in self._mapping.available())


class _Items(ItemsView[str, GameRules]):
    _mapping: _Registry

    def __iter__(self) -> Iterator[tuple[str, GameRules]]:
        return self._mapping.available()


#: An entry point's value, as importlib.metadata reads it: ``module``, ``module:attr`` or
#: ``module:attr.attr``, extras in brackets after it (ignored).
_TARGET = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?(\[.*\]\s*)?$")


def _load(declared: gameindex.Declared) -> GameRules:
    """The object an entry point names (as ``EntryPoint.load`` finds it, from the cached
    value, without importing importlib.metadata), checked to be a game of its kind."""
    where = f"entry point {declared.kind} = {declared.target} of {declared.distribution}"
    try:
        target = _TARGET.match(declared.target)
        if target is None:
            raise ValueError("not a module:attribute reference")
        found: object = importlib.import_module(target["module"])
        for attr in target["attr"].split(".") if target["attr"] else ():
            found = getattr(found, attr)
    except Exception as err:
        # Whatever a third-party module raises while it loads (an ImportError, a
        # SyntaxError, an error of its own) is the game's fault, not the caller's.
        raise GameUnavailable(
            f"game kind {declared.kind!r} cannot be loaded ({where}): {type(err).__name__}: {err}"
        ) from err
    kind = getattr(found, "kind", None)
    if kind != declared.kind:
        raise GameUnavailable(
            f"game kind {declared.kind!r} cannot be used ({where}): "
            f"the object it names has kind {kind!r}"
        )
    return found  # type: ignore[return-value]


_TABLE = gameindex.installed()

#: The game of a notation file without a ``[Game "..."]`` header, as declared in the
#: entry point group ``tablelog.default_game``.
DEFAULT_KIND = _TABLE.default

GAMES: _Registry = _Registry(_TABLE)


def get_game(kind: str) -> GameRules:
    """The rules of ``kind``; UnknownGameKind lists the known kinds, GameUnavailable
    (a subclass) says why a declared kind cannot be used."""
    try:
        return GAMES[kind]
    except GameUnavailable:
        raise
    except (KeyError, TypeError):
        raise UnknownGameKind(
            f"unknown game kind {kind!r} (known: {', '.join(sorted(GAMES))})"
        ) from None


def check_all() -> dict[str, str]:
    """Load every declared game; each kind that cannot be used, and why."""
    for _ in GAMES.available():
        pass
    return GAMES.unavailable()


_GAME_HEADER = re.compile(r'^\s*\[\s*Game\s+"([^"\\]*+(?:\\.[^"\\]*+)*+)"\s*\]', re.M)


def game_for_notation(text: str) -> GameRules:
    """The game a notation file is written for, from its ``[Game "..."]`` header (a file
    without one is a game of the default kind); UnknownGameKind names the title."""
    match = _GAME_HEADER.search(text[:4096])
    if match is None:
        return get_game(DEFAULT_KIND)
    title = match.group(1)
    for _, rules in GAMES.available():
        if rules.title.casefold() == title.casefold():
            return rules
    known = ", ".join(sorted(r.title for r in GAMES.values()))
    broken = "".join(f"; {why}" for why in GAMES.unavailable().values())
    raise UnknownGameKind(f"unknown game {title!r} (known: {known}){broken}")
