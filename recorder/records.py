"""What crosses the recorder's boundary: a game to import, the results of writes, the
rows and events it reads back, and where the database lives by default."""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from engine.errors import Violation
from engine.games import DEFAULT_KIND, GAMES
from engine.protocol import Seats, seat_names

DEFAULT_DB = Path("data") / "tablelog.db"


def default_db_path() -> Path:
    """``$TABLELOG_DB`` when set, else ``./data/tablelog.db``."""
    return Path(os.environ.get("TABLELOG_DB") or DEFAULT_DB)


def utc_now() -> str:
    """The recorded-at text of now: ISO 8601 in UTC to the millisecond, ``Z`` suffixed."""
    now = _dt.datetime.now(_dt.UTC)
    return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)
_MS = _dt.timedelta(milliseconds=1)


def time_ms(text: str) -> int:
    """A time as the events table keeps it: milliseconds since 1970 (UTC) of an ISO 8601
    text (``2024-05-01T20:15:03.123Z``; one without a zone is UTC).  ValueError for a
    text that is not a time.

    >>> time_ms("2024-05-01T20:15:03.123Z"), time_ms("1970-01-01T00:00:01")
    (1714594503123, 1000)
    """
    if not isinstance(text, str):
        raise ValueError(f"not a time: {text!r}")
    when = _dt.datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.UTC)
    return (when - _EPOCH) // _MS


def time_text(ms: int) -> str:
    """The text of a stored time (:func:`time_ms`), as :func:`utc_now` writes it.

    >>> time_text(1714594503123)
    '2024-05-01T20:15:03.123Z'
    """
    when = _EPOCH + _dt.timedelta(milliseconds=ms)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def canonical_time(text: str) -> str:
    """``text`` as :func:`utc_now` would write the same millisecond (ValueError for a
    text that is not a time): what a stored time reads back as."""
    return time_text(time_ms(text))


def seats_of(kind: str) -> Seats:
    """The seats of game ``kind`` (two when the kind is unknown, as a stored row may be)."""
    rules = GAMES.get(kind)
    return rules.seats if rules is not None else Seats(2, 2)


@dataclass
class GameImport:
    """A whole game to import: headers, current-version event payloads and their meta.

    ``meta`` runs parallel to ``events`` (missing entries count as None); each entry may
    hold ``comment``, ``annotations`` and ``played_illegally``.  ``game_id`` None means
    "derive it from the content", which makes a re-import of the same game a no-op.
    ``event_ids`` (optional, parallel to ``events``) keeps ids given by an earlier store;
    ``recorded_at`` (parallel to ``events``) and ``created_at`` keep its times (as
    ``tablelog copy`` does), else they are the time of the import.  ``players``
    (optional, parallel to ``events``) names who made each event.

    A record made from engine events (:meth:`of_events`, a reader's game) makes each
    payload of ``events`` from its event only when ``events`` is first read: importing
    and validating work from the events themselves.
    """

    kind: str = DEFAULT_KIND
    headers: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    meta: list[dict[str, Any] | None] = field(default_factory=list)
    game_id: str | None = None
    event_ids: list[str | None] | None = None
    recorded_at: list[str] | None = None
    created_at: str | None = None
    #: The engine events of ``events`` when a loader already parsed them (checked, so
    #: they are not parsed twice); None to parse ``events``.
    parsed: list[Any] | None = field(default=None, repr=False, compare=False)
    #: Who made each event, when the file says (a JSON event's ``by``, parallel to
    #: ``events``): checked against whose turn it is, then dropped (the rules know it).
    players: list[str | None] | None = None
    #: The fold of ``parsed`` a reader made (:class:`engine.fold.Fold`, from the new
    #: table, with each event's text and the store's snapshots): the game is not folded
    #: again.  It stays in the process that read the game (not pickled).
    folded: Any = field(default=None, repr=False, compare=False)
    #: The review a notation file holds (its saved lines, marks and notes), as review
    #: events ``[kind, body, author]`` (:mod:`recorder.review`), stored with the game when
    #: the stored game has no review yet; None when it holds none.
    review: list[Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "folded": None}

    @classmethod
    def of_events(
        cls,
        kind: str,
        headers: dict[str, Any],
        events: list[Any],
        meta: list[dict[str, Any] | None] | None = None,
        game_id: str | None = None,
    ) -> GameImport:
        """The record of game ``kind``'s engine ``events`` (its ``parsed``), their payloads
        made when ``events`` is first read."""
        record = cls(kind=kind, headers=headers, meta=meta or [], game_id=game_id, parsed=events)
        record.__dict__["events"] = None
        return record

    def parsed_from(self, payloads: list[dict[str, Any]], parsed: list[Any]) -> None:
        """Set ``events`` to ``payloads`` and ``parsed`` to their engine events, one per
        payload (a loader's, who parsed them): the record is checked from ``parsed``
        while ``events`` is this same list."""
        self.events, self.parsed = payloads, parsed
        self.__dict__["_parsed_from"] = payloads

    def engine_events(self) -> list[Any] | None:
        """The engine events ``events`` stand for (those of :meth:`of_events`, its
        payloads not read, or :meth:`parsed_from`), else None: the payloads are to be
        parsed (given other payloads since, or read, and so perhaps changed)."""
        parsed = self.parsed
        payloads = self.__dict__["events"]
        if payloads is None or payloads is self.__dict__.get("_parsed_from"):
            return parsed
        return None


def _payloads(record: GameImport) -> list[dict[str, Any]]:
    payloads: list[dict[str, Any]] | None = record.__dict__["events"]
    if payloads is None:
        to_dict = GAMES[record.kind].event_to_dict
        # (the caller may change them: the record is checked from them from now on)
        payloads = record.__dict__["events"] = [to_dict(e) for e in record.parsed or ()]
    return payloads


def _set_payloads(record: GameImport, payloads: list[dict[str, Any]]) -> None:
    record.__dict__["events"] = payloads


def _parsed(record: GameImport) -> list[Any] | None:
    parsed: list[Any] | None = record.__dict__["parsed"]
    return parsed


def _set_parsed(record: GameImport, parsed: list[Any] | None) -> None:
    found = record.__dict__
    if found.get("events", ()) is None and parsed is not found["parsed"]:
        _payloads(record)  # (made from the events let go: they are the record's events)
    found["parsed"] = parsed


# (properties set on the class once the dataclass made its fields: ``events`` and
# ``parsed`` stay fields, given to the constructor, compared and shown as before)
GameImport.events = property(_payloads, _set_payloads)  # type: ignore[assignment]
GameImport.parsed = property(_parsed, _set_parsed)  # type: ignore[assignment]


@dataclass(frozen=True)
class ImportResult:
    """What importing one game did."""

    game_id: str
    #: False when the same game was already stored (nothing written).
    created: bool
    events: int
    #: ``(sequence, violations)`` of the events stored as played although illegal.
    flagged: list[tuple[int, list[Violation]]] = field(default_factory=list)
    #: Events appended to a stored game this file extends (``created`` is then False).
    appended: int = 0


@dataclass(frozen=True)
class AppendResult:
    """What appending events to a game did."""

    last_sequence: int
    first_sequence: int
    #: Rows written: 0 for an idempotent retry of events already stored.
    appended: int
    event_ids: list[str]
    already_stored: bool
    flagged: list[tuple[int, list[Violation]]]
    status: str
    #: The canonical text of each event stored (empty for an idempotent retry).
    texts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Checked:
    """Events the engine has read, checked and applied already, after the state the store
    gave for the step they follow (:meth:`recorder.protocol.Recorder.state_at`): what
    :meth:`~recorder.protocol.Recorder.append` then stores without folding them again.
    ``texts`` is each event's canonical notation, ``violations`` those of each event
    played though illegal (by its index; forced as its meta says), ``state`` the table
    after them (the game's own: the store keeps it as the head)."""

    events: list[Any]
    texts: list[str]
    violations: dict[int, list[Violation]]
    state: Any


@dataclass(frozen=True)
class GameRow:
    """A stored game with its summary."""

    id: str
    kind: str
    headers: dict[str, Any]
    status: str
    winner: int | None
    condition: str | None
    turns: int
    event_count: int
    created_at: str
    last_activity: str
    winner_name: str | None = None
    to_move: int | None = None
    #: Events stored as played although illegal.
    flagged_count: int = 0
    #: The game's head (:mod:`recorder.chain`): the hash of its last step, hex.
    head: str = ""
    #: Why the game was voided (started by mistake), or None: a void game is left out of
    #: the lists unless every game is asked for, and nothing more is logged to it.
    void: str | None = None
    #: The number of the game's review events (saved lines, marks, withdrawals), read
    #: with the row by :meth:`~recorder.core.Store.game` only (0 in the lists): what
    #: tells a page whether it has a review to draw without reading it.
    review_length: int = 0

    @property
    def players(self) -> list[str]:
        """The players' names in seat order (the game's default names where unnamed)."""
        return list(seat_names(self.headers, seats_of(self.kind)))


@dataclass(frozen=True)
class GamePage:
    """A page of the games list: its games, and the places of the pages either side
    (:func:`recorder.listing.position_text`: give ``next`` as ``after``, ``prev`` as
    ``before``), None where there is none."""

    games: list[GameRow]
    next: str | None
    prev: str | None


class StoredEvent(NamedTuple):
    """One stored event, read back (a named tuple: immutable, and made for every event
    a replay reads, so made cheaply: a tuple is built in one step, where a frozen
    dataclass sets each field through ``object.__setattr__``)."""

    sequence: int
    event_id: str
    type: str
    #: The payload upcast to the current version.
    payload: dict[str, Any]
    #: The version the payload was stored with.
    version: int
    recorded_at: str
    #: ``comment``, ``annotations``, ``played_illegally`` and, for those, ``violations``.
    meta: dict[str, Any]
    #: The engine's event object for the payload.
    event: Any = None
    #: The event's canonical notation text, as stored with it (``take a1 b1 c1 =WBG``;
    #: a correction ``undo`` or ``undo to K``).
    text: str = ""
    #: Stored in the same write as the step before it (a purchase and the card revealed
    #: after it, logged as one move), rather than entered on its own.
    with_previous: bool = False
