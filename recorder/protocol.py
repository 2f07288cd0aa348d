"""What the site, the command line and the file helpers use of a store, whatever keeps it.

:class:`Recorder` is backend-neutral: :class:`recorder.sqlite.EventStore` and
:class:`recorder.postgres.PostgresStore` implement the same methods with the same
meaning (one contract suite, ``tests/recorder/test_contract.py``, runs over both), and
:func:`recorder.open_store` opens the one a path or URL names.

A store keeps games and their events (and each game's review); what is built over
them is a service of its own, written once over the store's connections for both
backends: ``store.keys`` (who may write a game), ``store.listing`` (the games list) and
``store.verification`` (the chain, the folds, the database); ``store.snapshots`` keeps the
games folded lately for whoever needs one again.
States and events are the game's own objects (``Any`` here), as in
:mod:`engine.protocol`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from .errors import ImportRejected
from .keys import Keys
from .listing import Listing
from .pipeline import DEFAULT_BATCH, Tagged, Written
from .records import (
    AppendResult,
    Checked,
    GameImport,
    GameRow,
    ImportResult,
    StoredEvent,
)
from .review import ReviewEvent
from .snapshots import Snapshots
from .verify import Finding, Verification


@runtime_checkable
class Recorder(Protocol):
    """An append-only record of games: every event checked by its game's rules when
    written, any step of a game rebuilt by folding its events."""

    @classmethod
    def open(cls, where: Any = None, /, *, clock: Callable[[], str] | None = None) -> Recorder:
        """Open the store at ``where`` (a file for SQLite; the default store when None),
        creating it and bringing its schema up to date; ``clock`` returns the
        recorded-at text."""
        ...

    @property
    def schema_version(self) -> int:
        """The version of the store's schema."""
        ...

    def close(self) -> None:
        """Release the store (idempotent)."""
        ...

    def __enter__(self) -> Recorder: ...

    def __exit__(self, *exc: object) -> None: ...

    # --- writing ---------------------------------------------------------------------

    def create_game(
        self, headers: dict[str, Any], *, kind: str = ..., game_id: str | None = None
    ) -> GameRow:
        """A new game with no events yet, for logging live with :meth:`append`."""
        ...

    def import_game(self, record: GameImport) -> ImportResult:
        """Store a whole game, every event checked, or nothing (ImportRejected)."""
        ...

    def import_games(
        self,
        records: Sequence[GameImport],
        *,
        batch_size: int = DEFAULT_BATCH,
        workers: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[ImportResult | ImportRejected]:
        """Import many games, each whole or not at all; per record its result or error."""
        ...

    def import_stream(
        self,
        tasks: Iterable[Any],
        prepare: Callable[[Any], list[Tagged]],
        workers: int = 0,
        batch_size: int = DEFAULT_BATCH,
        ahead: int = 8,
    ) -> Iterator[list[Written]]:
        """The import pipeline over ``tasks`` (see :mod:`recorder.pipeline`)."""
        ...

    def append(
        self,
        game_id: str,
        expected_sequence: int,
        events: Sequence[Mapping[str, Any]] | Checked,
        meta: Sequence[Mapping[str, Any] | None] | None = None,
        event_ids: Sequence[str] | None = None,
    ) -> AppendResult:
        """Append events after ``expected_sequence`` (ConcurrencyError if stale): payloads,
        each checked here, or :class:`Checked` events, stored as the engine read them."""
        ...

    def void_game(self, game_id: str, reason: str) -> GameRow:
        """Void a game started by mistake (GameVoid when it is void already): kept, left
        out of the lists, nothing more logged to it; its row, void."""
        ...

    # --- reading ---------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow:
        """The game's row (GameNotFound for an unknown id)."""
        ...

    def events(self, game_id: str, upto: int | None = None) -> list[StoredEvent]:
        """The game's events in order, payloads upcast to the current version."""
        ...

    def state_at(self, game_id: str, step: int | None = None, *, row: GameRow | None = None) -> Any:
        """The game's state after ``step`` events (all when None); ``row``, the game's
        row when the caller has it, saves looking the game up again."""
        ...

    def games(self, ids: Sequence[str]) -> list[GameRow]:
        """The rows of the games ``ids``, in that order (an unknown id left out)."""
        ...

    def stored_content(self, game_id: str) -> tuple[str, dict[str, Any], list[StoredEvent]]:
        """(kind, headers, events) of a game, for exporting."""
        ...

    # --- the review (recorder.review) -------------------------------------------------

    def review_events(self, game_id: str) -> list[ReviewEvent]:
        """The game's review events in order, apart from its record."""
        ...

    def append_review(
        self,
        game_id: str,
        expected: int,
        items: Sequence[tuple[str, Mapping[str, Any]]],
        author: str,
        *,
        recorded_at: Sequence[str] | None = None,
        authors: Sequence[str] | None = None,
    ) -> list[ReviewEvent]:
        """Append checked review events after the first ``expected``, in one transaction;
        ReviewConflict when the review has another length.  The record is not touched."""
        ...

    # --- upkeep ----------------------------------------------------------------------

    def rebuild_projections(self) -> int:
        """Recompute every game's summary from its events; the number of games."""
        ...

    def integrity_check(self) -> str:
        """The backend's own check of its storage (``ok`` when sound)."""
        ...

    # --- the services over it: the connections they read and write with ----------------

    #: Now, as the recorded-at text.
    clock: Callable[[], str]

    def reading(self) -> AbstractContextManager[Any]:
        """A connection to read with (``?`` parameters, on either backend)."""
        ...

    def writing(self) -> AbstractContextManager[Any]:
        """One write transaction: committed when the block ends, rolled back on an error."""
        ...

    def storage_findings(self) -> list[Finding]:
        """What does not hold in the database itself (its storage, its guards)."""
        ...

    #: Who may write a game over HTTP: its recorder and review keys (:mod:`recorder.keys`).
    keys: Keys
    #: The games list: pages, counts, a player's figures (:mod:`recorder.listing`).
    listing: Listing
    #: Verifying the record: chains, folds against the projections, the database
    #: (:mod:`recorder.verify`).
    verification: Verification
    #: The games folded lately, shared by whoever folds one (:mod:`recorder.snapshots`).
    snapshots: Snapshots
