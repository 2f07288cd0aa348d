"""What the commands share: the ``--db`` and ``--json`` options, the exit codes, and the
turning of library errors into a one-line message and an exit code.

This module imports nothing heavy: ``tablelog --help`` loads every command module, so the
recorder and the engine are imported inside the commands, when they run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .lines import completion_lines

if TYPE_CHECKING:
    from recorder import Recorder

#: Every game legal, the move legal, the command done.
EXIT_OK = 0
#: A game or a move is illegal; for the store commands, any error.
EXIT_ILLEGAL = 1
#: The input cannot be read at all (a missing file or game, a malformed position or move).
EXIT_UNREADABLE = 2
#: ``--expect N`` and the game has another number of steps: nothing was written.
EXIT_STALE = 3

F = TypeVar("F", bound=Callable[..., Any])


def db_option(command: F) -> F:
    """``--db PATH|URL``, passed as ``db_path`` (the text, or None for the default): an
    SQLite file (a path, or ``sqlite:PATH``) or a PostgreSQL database
    (``postgresql://...``), as :func:`recorder.open_store` reads it."""
    return click.option(
        "--db",
        "db_path",
        envvar="TABLELOG_DB",
        type=str,
        default=None,
        metavar="PATH|URL",
        help="The store: an SQLite file (PATH or sqlite:PATH) or a PostgreSQL database "
        "(postgresql://USER:PASSWORD@HOST:PORT/DB) [env TABLELOG_DB; default "
        "./data/tablelog.db].",
    )(command)


def json_option(command: F) -> F:
    """``--json``, passed as ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")(command)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON, non-ASCII letters kept."""
    import json

    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


class CommandError(click.ClickException):
    """A one-line message on stderr (``Error: ...``) and exit code 1, no traceback."""

    exit_code = EXIT_ILLEGAL


class Unreadable(CommandError):
    """Input that cannot be read at all: the message, and exit code 2."""

    exit_code = EXIT_UNREADABLE


class Stale(CommandError):
    """The game moved on since the caller looked (``--expect``): exit code 3."""

    exit_code = EXIT_STALE


def error_for(err: Exception, default: type[CommandError]) -> CommandError:
    """The command error (and so the exit code) of a library error: a stale expected step
    exits 3, text that does not read as a move 2, anything else ``default``'s code."""
    from recorder.logbook import BadMove, StaleStep

    if isinstance(err, StaleStep):
        return Stale(str(err))
    if isinstance(err, BadMove):
        return Unreadable("\n".join([str(err), *completion_lines(err.completions)]))
    return default(str(err))


@contextmanager
def opened(
    db_path: str | Path | None,
    *,
    must_exist: bool = False,
    error: type[CommandError] = CommandError,
) -> Iterator[Recorder]:
    """The store ``db_path`` names (else the default: see :mod:`recorder.places`), with
    the store's and the engine's errors raised inside the block turned into ``error``
    (:class:`CommandError`, or :class:`Unreadable` for a store only read from).
    ``must_exist``: refuse to create an SQLite file that is only to be read."""
    import recorder
    from engine.errors import EngineError
    from recorder.places import where

    place = where(db_path)
    if must_exist and isinstance(place, Path) and not place.exists():
        raise error(f"no database at {place} (set --db or TABLELOG_DB)")
    try:
        with recorder.open_store(place) as store:
            yield store
    except (recorder.StoreError, EngineError) as err:
        raise error_for(err, error) from None


class LazyChoice(click.Choice):  # type: ignore[type-arg]
    """A :class:`click.Choice` whose choices are loaded when first needed (parsing the
    option or printing its help), so the module that knows them is not imported for
    ``tablelog --help``."""

    def __init__(self, load: Callable[[], Sequence[str]]) -> None:
        self._load = load
        self._choices: tuple[str, ...] | None = None
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:
        if self._choices is None:
            self._choices = tuple(self._load())
        return self._choices

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:
        self._choices = tuple(value)


class KindInHelp(click.Command):
    """A command whose help shows a game's kind in its examples: ``{kind}`` in the text
    stands for the default game's kind, read from the registry when the help is read
    (not to run the command, nor for the one-line summary ``tablelog --help`` lists,
    which names no kind)."""

    _raw_help: str | None = None
    _summary = False

    @property
    def help(self) -> str | None:
        text = self._raw_help
        if self._summary or text is None or "{kind}" not in text:
            return text
        from engine.games import DEFAULT_KIND

        return text.replace("{kind}", DEFAULT_KIND)

    @help.setter
    def help(self, value: str | None) -> None:
        self._raw_help = value

    def get_short_help_str(self, limit: int = 45) -> str:
        self._summary = True
        try:
            return super().get_short_help_str(limit)
        finally:
            self._summary = False


class LazyHelpOption(click.Option):
    """An option whose help text is made when help is printed (``lazy_help``), for a
    text that quotes a library's figure without importing the library for every run."""

    def __init__(self, *args: Any, lazy_help: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lazy_help = lazy_help

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = self._lazy_help()
        return super().get_help_record(ctx)
