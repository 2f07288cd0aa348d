"""What the site, the command line and the file helpers use of a store, whatever keeps it.

:class:`Recorder` is backend-neutral: :class:`recorder.sqlite.EventStore` and
:class:`recorder.postgres.PostgresStore` implement the same methods with the same
meaning (one contract suite, ``tests/recorder/test_contract.py``, runs over both), and
:func:`recorder.open_store` opens the one a path or URL names.
States and events are the game's own objects (``Any`` here), as in
:mod:`engine.protocol`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .errors import ImportRejected
from .listing import PlayerStats
from .pipeline import DEFAULT_BATCH, Tagged, Written
from .records import (
    AppendResult,
    Checked,
    GameImport,
    GamePage,
    GameRow,
    ImportResult,
    StoredEvent,
)
from .review import ReviewEvent
from .verify import Finding


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

    def list_games(
        self,
        player: str | None = None,
        result: str | None = None,
        date_from: Any = None,
        date_to: Any = None,
        limit: int = 50,
        offset: int = 0,
        order: str | None = None,
        kind: str | None = None,
        with_void: bool = False,
    ) -> list[GameRow]:
        """Games, newest first (or in another order of :data:`recorder.listing.ORDERS`),
        filtered (``kind``: only games of that kind; void games only ``with_void``)."""
        ...

    def list_page(
        self,
        player: str | None = None,
        result: str | None = None,
        date_from: Any = None,
        date_to: Any = None,
        kind: str | None = None,
        *,
        order: str | None = None,
        limit: int = 50,
        after: str | None = None,
        before: str | None = None,
        last: bool = False,
        offset: int = 0,
        with_void: bool = False,
    ) -> GamePage:
        """A page of :meth:`list_games`, found by its place (keyset paging): the first,
        the one after the place ``after`` or before ``before`` (a page's ``next`` and
        ``prev``), or the last; the same cost wherever the page is."""
        ...

    def player_stats(self, name: str) -> PlayerStats | None:
        """What a player's games add up to (any case), None for an unknown player."""
        ...

    def count_games(
        self,
        player: str | None = None,
        result: str | None = None,
        date_from: Any = None,
        date_to: Any = None,
        kind: str | None = None,
        *,
        at_most: int | None = None,
        with_void: bool = False,
    ) -> int:
        """How many games :meth:`list_games` would list, unpaged (with ``at_most``, no
        more than one more than that)."""
        ...

    def stored_content(self, game_id: str) -> tuple[str, dict[str, Any], list[StoredEvent]]:
        """(kind, headers, events) of a game, for exporting."""
        ...

    def issue_recorder_key(self, game_id: str) -> str:
        """A new recorder key for the game, replacing any earlier one; only its hash is
        kept (see :mod:`recorder.keys`).  GameNotFound for an unknown id."""
        ...

    def recorder_key_matches(self, game_id: str, key: str) -> bool:
        """Whether ``key`` is the game's recorder key, compared in constant time."""
        ...

    def recorder_key_fingerprint(self, game_id: str) -> str | None:
        """What a browser's session keeps of the game's recorder key (None: it has none):
        a new key changes it, so sessions unlocked with the old one end."""
        ...

    def revoke_recorder_key(self, game_id: str) -> bool:
        """Remove the game's recorder key (whether it had one): every key and session of
        it stops writing.  GameNotFound for an unknown id."""
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

    def issue_review_key(self, game_id: str) -> str:
        """A new review key: it adds to the game's review, never logs a move."""
        ...

    def review_key_matches(self, game_id: str, key: str) -> bool:
        """Whether ``key`` is the game's review key."""
        ...

    # --- upkeep ----------------------------------------------------------------------

    def rebuild_projections(self) -> int:
        """Recompute every game's summary from its events; the number of games."""
        ...

    def integrity_check(self) -> str:
        """The backend's own check of its storage (``ok`` when sound)."""
        ...

    # --- the chain (see docs/integrity.md) ---------------------------------------------

    def step_hash(self, game_id: str, step: int | None = None) -> str:
        """The game's chain hash at ``step`` (default its head), hex."""
        ...

    def step_hashes(self, game_id: str) -> list[str]:
        """The game's chain as stored, hex: the origin's hash, then each step's."""
        ...

    def heads(self, game_ids: Iterable[str] | None = None) -> list[tuple[str, int, str]]:
        """(game id, stored steps, head) of the given games (default: every game)."""
        ...

    def chain_findings(self, game_id: str) -> list[Finding]:
        """Where the game's stored chain does not follow from its content (none: it
        verifies)."""
        ...

    def verify(self, game_ids: Iterable[str] | None = None) -> list[Finding]:
        """Everything that does not hold in the storage and in the given games (default:
        every game): chains, projections against a fresh fold; none: it verifies."""
        ...
