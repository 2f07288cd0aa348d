"""The store's narrow error types.

Every error a user can cause (a bad file, an illegal event, a stale write, an unknown game)
is one of these, with a message that names the place: the file, the game, the event number
or sequence, the field, and for a refused move the rule with its rulebook page.  The CLI
and the web turn them into an exit code or an HTTP status; none is meant to reach a user as
a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import Violation
from engine.notation.results import shortened


class StoreError(Exception):
    """Base class of every error the recorder raises on bad input or a bad database."""


class GameNotFound(StoreError, KeyError):
    """No game with this id is stored."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        super().__init__(f"no game {game_id!r} in this database")

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class GameVoid(StoreError):
    """The game was voided (started by mistake): nothing more is logged to it, and it is
    not voided twice."""

    def __init__(self, game_id: str, reason: str, message: str = "nothing more can be logged"):
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id} is void ({reason}): {message}")


class StepOutOfRange(StoreError, IndexError):
    """A step beyond the last stored event (or below 0) was asked for."""

    def __init__(self, game_id: str, step: int, last: int):
        self.game_id = game_id
        self.step = step
        self.last = last
        super().__init__(f"game {game_id}: there is no step {step} (steps run from 0 to {last})")


class ConcurrencyError(StoreError):
    """Another writer appended first: the expected sequence is stale."""

    def __init__(self, game_id: str, expected: int, actual: int):
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game {game_id}: expected to append after event {expected}, "
            f"but the game now has {actual} events (expected sequence {expected}, "
            f"actual {actual}); reload and try again"
        )


class EventIdConflict(StoreError):
    """An event id that is already stored was sent with a different payload or place."""

    def __init__(self, event_id: str, message: str):
        self.event_id = event_id
        super().__init__(f"event id {event_id!r}: {message}")


class CorruptEvent(StoreError):
    """A stored event can no longer be read or replayed; names the game and the sequence."""

    def __init__(self, game_id: str, sequence: int, message: str):
        self.game_id = game_id
        self.sequence = sequence
        super().__init__(f"game {game_id}, event {sequence}: {message}")


class SchemaVersionError(StoreError):
    """The database was written by a newer tablelog, or is not a tablelog database."""


class EventRejected(StoreError):
    """An event (or a game's headers) refused before anything was written.

    ``event_number`` is the 1-based number of the event in its game (None for a problem
    outside the events, such as a header); ``violations`` the rules it breaks (empty for
    a format problem, whose text is in ``message``); ``field`` the dotted path of the
    offending field when one is known.  ``source``, ``line`` and ``column`` say where in a
    file the problem is, when it comes from one; ``game`` numbers the game inside a file
    that holds several.
    """

    def __init__(
        self,
        event_number: int | None,
        problem: str | Sequence[Violation],
        field: str | None = None,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        game: int | None = None,
    ):
        self.event_number = event_number
        if isinstance(problem, str):
            self.violations: list[Violation] = []
            self.message = _bounded(problem)
        else:
            self.violations = list(problem)
            self.message = "; ".join(str(v) for v in self.violations)
        # a field named by the file (an unknown key of 5,000 digits) is cut like a message
        self.field = field if field is None or len(field) <= 100 else f"{field[:60]}…"
        self.source = source
        self.line = line
        self.column = column
        self.game = game
        super().__init__(self._text())

    def _text(self) -> str:
        parts = []
        if self.source is not None:
            where = self.source
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            parts.append(where)
        if self.game is not None:
            parts.append(f"game {self.game}")
        if self.event_number is not None:
            parts.append(f"event {self.event_number}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)

    def located(self, *, source: str | None = None, game: int | None = None) -> EventRejected:
        """The same error placed in a file (and a game of that file)."""
        clone = type(self)(
            self.event_number,
            self.violations or self.message,
            self.field,
            source=source if source is not None else self.source,
            line=self.line,
            column=self.column,
            game=game if game is not None else self.game,
        )
        return clone

    def __str__(self) -> str:
        return self._text()

    def __reduce__(self) -> tuple:  # type: ignore[type-arg]
        # Picklable (errors travel back from the import worker processes).
        return (
            _rebuild_rejected,
            (
                type(self),
                self.event_number,
                self.violations or self.message,
                self.field,
                {
                    "source": self.source,
                    "line": self.line,
                    "column": self.column,
                    "game": self.game,
                },
            ),
        )


def _rebuild_rejected(
    cls: type[EventRejected],
    number: int | None,
    problem: str | Sequence[Violation],
    field: str | None,
    where: dict[str, Any],
) -> EventRejected:
    return cls(number, problem, field, **where)


#: The longest message an EventRejected keeps: a message quoting a hostile value (a list
#: of ten thousand numbers, a name of 5,000 digits) is cut, never echoed whole.
MESSAGE_LIMIT = 500


def _bounded(message: str) -> str:
    message = shortened(message)
    if len(message) <= MESSAGE_LIMIT:
        return message
    return f"{message[:MESSAGE_LIMIT]}… ({len(message):,} characters)"


class ImportRejected(EventRejected):
    """A game refused by ``import_game`` or ``load_file``: nothing of it was written."""


class AppendRejected(EventRejected):
    """A batch refused by ``append``: none of its events was written."""


def unstorable_at(text: str) -> tuple[int, str] | None:
    """The index of the first character of ``text`` that no store keeps, and what it is,
    or None: a lone surrogate (half a character, which no UTF-8 file holds but a caller's
    string may) or a NUL (U+0000, which PostgreSQL's text refuses; refused on SQLite too,
    so that every store takes the same games)."""
    nul = text.find("\x00")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        if nul < 0 or err.start < nul:
            return err.start, "not valid Unicode (half a character)"
    if nul >= 0:
        return nul, "a NUL character (U+0000), which no store keeps"
    return None


def unbindable(err: UnicodeEncodeError | OverflowError) -> StoreError:
    """The store's error for a value given to a query that its database cannot take: a
    text with a lone surrogate, a number past 64 bits.  Nothing is stored or found under
    it."""
    if isinstance(err, OverflowError):
        what = "a number past what the store keeps (64 bits)"
    else:
        what = f"a text holding {err.object[err.start : err.end]!a}, half a character"
    return StoreError(f"{what} was given, which no store keeps: nothing is stored or found")


def unstorable_in(value: Any, path: str = "") -> tuple[str, str] | None:
    """The dotted path (``players[1]``, ``tags.note``) of the first text in a JSON value
    that no store keeps (:func:`unstorable_at`), and what is wrong with it, or None."""
    if isinstance(value, str):
        found = unstorable_at(value)
        return None if found is None else (path, found[1])
    if isinstance(value, dict):
        for key, item in value.items():
            where = unstorable_in(key, path) or unstorable_in(
                item, f"{path}.{key}" if path else str(key)
            )
            if where is not None:
                return where
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            where = unstorable_in(item, f"{path}[{i}]")
            if where is not None:
                return where
    return None
