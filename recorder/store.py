"""The event store: one SQLite file, append-only events, projections for listing.

>>> import random, tempfile, os
>>> from engine.splendor_duel import simulate
>>> from recorder import EventStore
>>> from recorder.io import game_import_from_events
>>> events = simulate.random_game(random.Random(3))
>>> with tempfile.TemporaryDirectory() as tmp:
...     with EventStore.open(os.path.join(tmp, "t.db")) as store:
...         result = store.import_game(game_import_from_events(events, {"players": ["Ann", "Bo"]}))
...         again = store.import_game(game_import_from_events(events, {"players": ["Ann", "Bo"]}))
...         (result.created, again.created, result.events == len(events),
...          store.state_at(result.game_id).is_over)
(True, False, True, True)

Writes take the database's write lock first (``BEGIN IMMEDIATE``), so concurrent writers,
in threads or processes, queue behind one another; the expected-sequence check, the rule
checks and the inserts all happen under that lock, and either everything of a call is
committed or nothing is.  See ``docs/store.md`` for the schema and the choices behind it.
"""

from __future__ import annotations

import datetime as _dt
import gc
import hashlib
import json
import os
import queue
import secrets
import sqlite3
import sys
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from engine.errors import EngineError, EventFormatError, IllegalMoveError, Violation
from engine.games import GAMES, UnknownGameKind, get_game
from engine.protocol import GameRules

from . import schemas
from .errors import (
    AppendRejected,
    ConcurrencyError,
    CorruptEvent,
    EventIdConflict,
    GameNotFound,
    ImportRejected,
    SchemaVersionError,
    StepOutOfRange,
    StoreError,
)
from .migrations import MIGRATIONS, SCHEMA_VERSION

DEFAULT_DB = Path("data") / "tablelog.db"
#: How long a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT_S = 30.0


def default_db_path() -> Path:
    """``$TABLELOG_DB`` when set, else ``./data/tablelog.db``."""
    return Path(os.environ.get("TABLELOG_DB") or DEFAULT_DB)


def _utc_now() -> str:
    now = _dt.datetime.now(_dt.UTC)
    return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --- records ---------------------------------------------------------------------------


@dataclass
class GameImport:
    """A whole game to import: headers, current-version event payloads and their meta.

    ``meta`` runs parallel to ``events`` (missing entries count as None); each entry may
    hold ``comment``, ``annotations`` and ``played_illegally``.  ``game_id`` None means
    "derive it from the content", which makes a re-import of the same game a no-op.
    ``event_ids`` (optional, parallel to ``events``) keeps ids given by an earlier store.
    """

    kind: str = "splendor-duel"
    headers: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    meta: list[dict[str, Any] | None] = field(default_factory=list)
    game_id: str | None = None
    event_ids: list[str | None] | None = None
    #: The engine events of ``events`` when a loader already parsed them (checked, so
    #: they are not parsed twice); None to parse ``events``.
    parsed: list[Any] | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class ImportResult:
    game_id: str
    #: False when the same game was already stored (nothing written).
    created: bool
    events: int
    #: ``(sequence, violations)`` of the events stored as played although illegal.
    flagged: list[tuple[int, list[Violation]]] = field(default_factory=list)


@dataclass(frozen=True)
class AppendResult:
    last_sequence: int
    first_sequence: int
    #: Rows written: 0 for an idempotent retry of events already stored.
    appended: int
    event_ids: list[str]
    already_stored: bool
    flagged: list[tuple[int, list[Violation]]]
    status: str


@dataclass(frozen=True)
class GameRow:
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

    @property
    def players(self) -> list[str]:
        """The players' names in seat order (``player 0``, ``player 1`` when unnamed)."""
        return _player_names(self.headers)


@dataclass(frozen=True)
class StoredEvent:
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


def _player_names(headers: Mapping[str, Any]) -> list[str]:
    players = headers.get("players")
    if isinstance(players, list) and len(players) == 2:
        return [str(p) for p in players]
    return ["player 0", "player 1"]


# --- preparation (pure: validation, rule checks, canonical forms) ---------------------


@dataclass(slots=True)
class _Prepared:
    """A game validated, checked by the rules and reduced to the exact values the writer
    stores.  It crosses from a checking process to the writing one, so it is small: the
    events travel as one JSON text that SQLite itself turns into rows."""

    kind: str
    game_id: str
    headers_json: str
    #: ``games`` row without the times: id, kind, players, date, place, tags, headers, status.
    game_row: tuple[Any, ...]
    #: ``game_summaries`` row without last_activity: game_id .. flagged_count.
    summary_row: tuple[Any, ...]
    #: The events as one JSON array, which SQLite turns into rows (:func:`_insert_events_sql`):
    #: of their payload JSON texts, or with ``with_meta`` of ``[type, payload JSON, stored
    #: meta JSON]`` (the meta left out for an event without).
    events_json: str
    with_meta: bool
    event_count: int
    #: Event ids given by the caller, one per event (None: every id is derived).
    event_ids: list[str | None] | None
    flagged: list[tuple[int, list[Violation]]]

    def event_rows(self) -> list[tuple[str, str, str | None]]:
        """(type, payload JSON, stored meta JSON) per event, for the slow paths."""
        items = json.loads(self.events_json)
        if not self.with_meta:
            return [(json.loads(payload)["type"], payload, None) for payload in items]
        return [(item[0], item[1], item[2] if len(item) > 2 else None) for item in items]


#: Per event, as :func:`_fold_new` returns it: type, payload JSON, stored meta JSON, the
#: logger's meta JSON (what a file holds), and for an event without meta its element in a
#: game's events JSON (the payload as a JSON string; empty for an event with meta).
_Row = tuple[str, str, str | None, str | None, str]

_CANONICAL: dict[str, dict[Any, _Row]] = {}
_PARSED: dict[tuple[str, int, int, str], Any] = {}
_CACHE_LIMIT = 200_000


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _dumps_sorted(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def _format_problem(err: EventFormatError) -> tuple[str | None, str]:
    text = str(err)
    if err.field and text.startswith(err.field + ": "):
        text = text[len(err.field) + 2 :]
    return err.field, text


def _parse_payload(kind: str, rules: GameRules, raw: Any, number: int, cls: type) -> Any:
    """The engine event of a payload.  The engine's parser is the validator (it refuses
    exactly what the payload schema refuses, as tests/recorder/test_schemas.py proves);
    when it refuses, the marshmallow schema words the error and names the field."""
    try:
        return rules.event_from_dict(raw)
    except EventFormatError as err:
        problem = schemas.payload_errors(kind, raw)
        if problem is None:
            path, message = _format_problem(err)
        else:
            path, message = problem
        raise cls(number, message, path or None) from None
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        problem = schemas.payload_errors(kind, raw)
        path, message = problem if problem else (None, f"malformed event: {err}")
        raise cls(number, message, path or None) from None


def _canonical(kind: str, rules: GameRules, event: Any) -> _Row:
    """The :data:`_Row` of an event without meta, cached by event: most events recur
    from game to game.  The payload is the engine's own output for an event it parsed, so
    it is not validated again."""
    cache = _CANONICAL.get(kind)
    if cache is None:
        cache = _CANONICAL[kind] = {}
    row = cache.get(event)
    if row is None:
        payload = rules.event_to_dict(event)
        etype = payload["type"]
        payload_json = _dumps(payload)
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        row = cache[event] = (etype, payload_json, None, None, _dumps(payload_json))
    return row


def _clean_meta(raw: Any, number: int, cls: type) -> dict[str, Any] | None:
    """A logger's meta, validated, with default values left out (None when empty)."""
    if raw is None:
        return None
    problem = schemas.meta_errors(raw)
    if problem is not None:
        raise cls(number, problem[1], problem[0])
    out: dict[str, Any] = {}
    if raw.get("comment"):
        out["comment"] = raw["comment"]
    if raw.get("annotations"):
        out["annotations"] = list(raw["annotations"])
    if raw.get("played_illegally"):
        out["played_illegally"] = True
    return out or None


def _fold_new(
    kind: str,
    rules: GameRules,
    state: Any,
    parsed: Sequence[Any],
    metas: Sequence[dict[str, Any] | None] | None,
    first_number: int,
    cls: type,
) -> tuple[list[_Row], list[tuple[int, list[Violation]]]]:
    """Check and apply ``parsed`` events to ``state`` in place (``metas`` None: no event
    has meta); returns a :data:`_Row` per event and the events flagged as played
    illegally with their violations."""
    out: list[_Row] = []
    flagged: list[tuple[int, list[Violation]]] = []
    play = rules.play
    if metas is None:
        # The common case, kept lean: no meta, every event checked and applied.
        cache = _CANONICAL.get(kind) or {}
        number = first_number
        try:
            for event in parsed:
                row = cache.get(event) or _canonical(kind, rules, event)
                play(state, event)
                out.append(row)
                number += 1
        except IllegalMoveError as err:
            raise cls(number, err.violations) from None
        return out, flagged
    for i, event in enumerate(parsed):
        number = first_number + i
        row = _canonical(kind, rules, event)
        etype, payload_json = row[0], row[1]
        meta = metas[i]
        if meta is not None and meta.get("played_illegally"):
            try:
                violations = rules.force(state, event)
            except IllegalMoveError as err:
                raise cls(
                    number,
                    "marked as played illegally, but it cannot be replayed even as played: "
                    + "; ".join(str(v) for v in err.violations),
                ) from None
            user_json = _dumps_sorted(meta)
            stored_json = user_json
            if violations:
                flagged.append((number, violations))
                stored = dict(meta)
                stored["violations"] = [v.to_dict() for v in violations]
                stored_json = _dumps_sorted(stored)
            out.append((etype, payload_json, stored_json, user_json, ""))
            continue
        try:
            play(state, event)
        except IllegalMoveError as err:
            raise cls(number, err.violations) from None
        if meta is None:
            out.append(row)
        else:
            user_json = _dumps_sorted(meta)
            out.append((etype, payload_json, user_json, user_json, ""))
    return out, flagged


def content_digest(
    kind: str, headers_json: str, events: Sequence[tuple[str, str | None, str | None]]
) -> str:
    """SHA-256 of a game's canonical content: kind, headers, and per event the payload,
    the logger's meta and an explicitly given event id.  A game imported without an id
    gets the first 12 hex digits as its id."""
    text = f"tablelog-game 1\n{kind}\n{headers_json}\n" + "".join(
        [
            f"{payload_json}\t{user_meta or ''}\t{event_id or ''}\n"
            for payload_json, user_meta, event_id in events
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _digest_plain(kind: str, headers_json: str, payloads: Sequence[str]) -> str:
    """:func:`content_digest` of a game whose events carry no meta and no given ids."""
    text = f"tablelog-game 1\n{kind}\n{headers_json}\n"
    if payloads:
        text += "\t\t\n".join(payloads) + "\t\t\n"
    return hashlib.sha256(text.encode()).hexdigest()


def derived_game_id(digest: str) -> str:
    return digest[:12]


def derived_event_id(game_id: str, sequence: int) -> str:
    """The id of an event stored without one: ``<game id>:<sequence>``.  Caller-given ids
    never contain ``:``, so the two kinds never collide; ids that follow their game keep
    the unique index's inserts local, which measured 4x faster than random UUIDs."""
    return f"{game_id}:{sequence}"


def prepare_game(record: GameImport) -> _Prepared:
    """Validate a whole game and check every event with the engine (no database)."""
    kind = record.kind
    if not isinstance(kind, str) or kind not in GAMES:
        raise ImportRejected(
            None, f"unknown game kind {kind!r} (known: {', '.join(sorted(GAMES))})", "kind"
        )
    rules = get_game(kind)
    problem = schemas.headers_errors(record.headers)
    if problem is not None:
        raise ImportRejected(None, problem[1], problem[0])
    headers = dict(record.headers)
    headers_json = _dumps_sorted(headers)
    raw_events = record.events
    if not isinstance(raw_events, list):
        raise ImportRejected(None, "expected a list of events", "events")
    n = len(raw_events)
    raw_meta = record.meta or []
    if len(raw_meta) > n:
        raise ImportRejected(None, f"{len(raw_meta)} meta entries for {n} events", "meta")
    if record.game_id is not None and (
        not isinstance(record.game_id, str) or not schemas.GAME_ID_RE.match(record.game_id)
    ):
        raise ImportRejected(None, "a game id is 1-64 letters, digits, '_' or '-'", "id")
    given_ids = _check_event_ids(record.event_ids, n, ImportRejected)
    explicit = any(g is not None for g in given_ids)

    metas: list[dict[str, Any] | None] | None = None
    if any(m is not None for m in raw_meta):
        metas = [_clean_meta(m, i, ImportRejected) for i, m in enumerate(raw_meta, start=1)]
        metas += [None] * (n - len(metas))
        if all(m is None for m in metas):
            metas = None
    parsed = record.parsed
    if parsed is None or len(parsed) != n:
        parsed = [
            _parse_payload(kind, rules, raw, i, ImportRejected)
            for i, raw in enumerate(raw_events, start=1)
        ]
    names = _player_names(headers)
    state = rules.new_state((names[0], names[1]))
    folded, flagged = _fold_new(kind, rules, state, parsed, metas, 1, ImportRejected)
    if metas is None and not explicit:
        digest = _digest_plain(kind, headers_json, [r[1] for r in folded])
    else:
        digest = content_digest(
            kind, headers_json, [(r[1], r[3], e) for r, e in zip(folded, given_ids, strict=True)]
        )
    game_id = record.game_id or derived_game_id(digest)
    summary = rules.summary(state)
    status = summary["status"]
    winner = summary.get("winner")
    tags = headers.get("tags")
    flagged_count = 0 if metas is None else sum(1 for m in metas if m and m.get("played_illegally"))
    return _Prepared(
        kind=kind,
        game_id=game_id,
        headers_json=headers_json,
        game_row=(
            game_id,
            kind,
            _dumps(names),
            headers.get("date"),
            headers.get("place"),
            None if tags is None else _dumps_sorted(tags),
            headers_json,
            status,
        ),
        summary_row=(
            game_id,
            kind,
            names[0],
            names[1],
            headers.get("date"),
            status,
            winner,
            None if winner is None else names[winner],
            summary.get("condition"),
            summary.get("turns") or 0,
            summary.get("to_move"),
            n,
            flagged_count,
        ),
        events_json=(
            "[" + ",".join([r[4] for r in folded]) + "]"
            if metas is None
            else _dumps([[r[0], r[1]] if r[2] is None else [r[0], r[1], r[2]] for r in folded])
        ),
        with_meta=metas is not None,
        event_count=n,
        event_ids=given_ids if explicit else None,
        flagged=flagged,
    )


def _prepare_or_error(record: GameImport) -> _Prepared | ImportRejected:
    try:
        return prepare_game(record)
    except ImportRejected as err:
        return err


def _prepare_chunk(records: Sequence[GameImport]) -> list[tuple[None, _Prepared | ImportRejected]]:
    """A checking process's task: prepare a few games (see :meth:`EventStore.import_games`)."""
    return [(None, _prepare_or_error(r)) for r in records]


def _worker_init() -> None:
    """Set up a checking process: its heap is mostly modules and caches that live as long
    as it does, and the games it checks make no reference cycles worth chasing often, so
    the cyclic garbage collector runs far less often (about 5% of the checking time)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def _check_event_ids(ids: Any, n: int, cls: type) -> list[str | None]:
    if ids is None:
        return [None] * n
    if not isinstance(ids, list | tuple) or len(ids) != n:
        raise cls(None, f"expected {n} event ids, one per event", "event_ids")
    seen: set[str] = set()
    for i, eid in enumerate(ids, start=1):
        if eid is None:
            continue
        if not isinstance(eid, str) or not schemas.EVENT_ID_RE.match(eid):
            raise cls(i, "an event id is 1-100 letters, digits, '_', '.' or '-'", "event_id")
        if eid in seen:
            raise cls(i, f"event id {eid!r} is given twice", "event_id")
        seen.add(eid)
    return list(ids)


# --- the store -------------------------------------------------------------------------

#: Games per import transaction: each game is still whole or absent, and one sync to disk
#: serves them all (500 measured about 7% faster than 100, and more gains little).
DEFAULT_BATCH = 500
#: Games per task sent to a checking process: enough to make the hand-over cheap, few
#: enough to keep every process busy until the end.
TASK_GAMES = 25
#: SQLite's page cache while importing, as ``PRAGMA cache_size`` takes it (negative: KiB).
IMPORT_CACHE_SIZE = -65536
#: Most ``?`` parameters in one statement (SQLite's limit is far higher).
_MAX_PARAMS = 500

#: Games whose events go into the database in one statement.
GAMES_PER_STATEMENT = 8


def _insert_events_sql(games: int) -> str:
    """New games' events in one statement: SQLite's ``json_each`` turns the games' events
    JSON (their arrays of payload texts, see :class:`_Prepared`, joined into one) into
    rows, numbered from 1 in each game, with derived event ids.  Parameters: payload
    version, recorded-at time, the JSON, the first game's id, then per further game its
    id and the index of its first event in the JSON.

    One call per few games instead of eight parameters per event, so the writer does
    almost nothing in Python, and nothing per event.  The type is read back from the
    payload, which measured cheaper than sending it alongside.  Several games per call,
    because the writer thread needs Python's global lock back after every statement:
    eight games a statement imported about 6% faster than one (sixteen, no faster).

    ``json_each`` walks an array in order, so each game's events arrive in sequence; were
    it ever not to, the append trigger would refuse the insert (nothing would be stored
    out of order), and sorting them here measured 4% of the writing."""
    game, first = "?4", "0"
    for i in range(1, games):
        game = f"CASE WHEN key >= ?{4 + 2 * i} THEN ?{3 + 2 * i} ELSE {game} END"
        first = f"CASE WHEN key >= ?{4 + 2 * i} THEN ?{4 + 2 * i} ELSE {first} END"
    return (
        "INSERT INTO events (game_id, sequence, event_id, type, payload, payload_version,"
        " meta, recorded_at) SELECT game, sequence, game || ':' || sequence,"
        " json_extract(payload, '$.type'), payload, ?1, NULL, ?2 FROM (SELECT"
        f" {game} AS game, key + 1 - {first} AS sequence, value AS payload FROM json_each(?3))"
    )


_INSERT_EVENTS = {n: _insert_events_sql(n) for n in range(1, GAMES_PER_STATEMENT + 1)}


def _columns(n: int) -> str:
    return ", ".join(f"json_extract(value, '$[{i}]')" for i in range(n))


#: The rows of new games, their summaries and their players, one statement each for a
#: whole batch (from the JSON lists of :attr:`_Prepared.game_row` and ``summary_row``).
_INSERT_GAMES = (
    "INSERT INTO games (id, kind, players, date, place, tags, headers, status, created_at,"
    f" last_activity) SELECT {_columns(8)}, ?2, ?2 FROM json_each(?1)"
)
_INSERT_SUMMARIES = (
    "INSERT OR REPLACE INTO game_summaries (game_id, kind, player_0, player_1, date, status,"
    " winner, winner_name, condition, turns, to_move, event_count, flagged_count,"
    f" last_activity) SELECT {_columns(13)}, ?2 FROM json_each(?1)"
)
_INSERT_PLAYERS = (
    "INSERT OR REPLACE INTO game_players (game_id, seat, name)"
    " SELECT json_extract(value, '$[0]'), 0, json_extract(value, '$[2]') FROM json_each(?1)"
    " UNION ALL"
    " SELECT json_extract(value, '$[0]'), 1, json_extract(value, '$[3]') FROM json_each(?1)"
)
#: The same for a game whose events carry meta: ``[[type, payload, meta], ...]``.
_INSERT_EVENTS_WITH_META = (
    "INSERT INTO events (game_id, sequence, event_id, type, payload, payload_version, meta,"
    " recorded_at) SELECT ?1, key + 1, ?1 || ':' || (key + 1), json_extract(value, '$[0]'),"
    " json_extract(value, '$[1]'), ?2, json_extract(value, '$[2]'), ?3 FROM json_each(?4)"
)


def _stored_game_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` name stored games (one look-up per few hundred ids)."""
    found: set[str] = set()
    for start in range(0, len(ids), _MAX_PARAMS):
        part = ids[start : start + _MAX_PARAMS]
        found.update(
            row[0]
            for row in conn.execute(
                f"SELECT id FROM games WHERE id IN ({','.join('?' * len(part))})", part
            )
        )
    return found


def _prepared_chunks(
    tasks: Iterable[Any],
    prepare: Callable[[Any], list[tuple[Any, _Prepared | ImportRejected]]],
    workers: int,
    ahead: int,
) -> Iterator[list[tuple[Any, _Prepared | ImportRejected]]]:
    """``prepare(task)`` for each task, in order: here, or in ``workers`` processes (more
    than one) with up to ``ahead`` tasks in flight, so that they keep checking while the
    writer writes a batch, and prepared games never pile up in memory."""
    if workers <= 1:
        for task in tasks:
            yield prepare(task)
        return
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    # spawn: the processes start clean rather than as copies of a caller that may hold
    # threads, locks and an open database connection.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init)
    window: deque[Future[list[tuple[Any, _Prepared | ImportRejected]]]] = deque()
    try:
        for task in tasks:
            window.append(pool.submit(prepare, task))
            if len(window) >= max(ahead, 2 * workers):
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _batches(
    chunks: Iterable[list[tuple[Any, _Prepared | ImportRejected]]], size: int
) -> Iterator[list[tuple[Any, _Prepared | ImportRejected]]]:
    """The prepared games of ``chunks`` regrouped ``size`` at a time (the last fewer).
    The first batches are smaller (32, 64, ... games): the writer waits for the first
    one, and 500 games take about 0.4 s to check."""
    pending: list[tuple[Any, _Prepared | ImportRejected]] = []
    now = min(size, 32)
    for items in chunks:
        pending.extend(items)
        while len(pending) >= now:
            head, pending = pending[:now], pending[now:]
            now = min(size, 2 * now)
            yield head
    if pending:
        yield pending


#: How often the interpreter offers its global lock to another thread while an import
#: writes in a thread of its own, in seconds (Python's default is 0.005).
IMPORT_SWITCH_INTERVAL = 0.00005
_SWITCHES = threading.Lock()
_switch_users = 0
_switch_saved = 0.005


@contextmanager
def _prompt_thread_switches() -> Iterator[None]:
    """While it lasts, a thread waiting for the interpreter's lock gets it within 0.05 ms
    rather than 5: the import's writer thread needs it back after every game's SQLite
    statement (~0.7 ms), and waiting 5 ms each time made the thread useless (importing
    measured ~630 games/s with 1 ms, ~870 with 0.2 ms, ~990 with 0.05 ms).  The interval
    is restored when the last import that asked for it ends."""
    global _switch_users, _switch_saved
    with _SWITCHES:
        if _switch_users == 0:
            _switch_saved = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_saved, IMPORT_SWITCH_INTERVAL))
        _switch_users += 1
    try:
        yield
    finally:
        with _SWITCHES:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_saved)


def _split_sql(script: str) -> Iterator[str]:
    """The statements of a script (trigger bodies hold semicolons of their own)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            buffer = ""
            if statement and not all(
                part.strip().startswith("--") or not part.strip() for part in statement.splitlines()
            ):
                yield statement
    if buffer.strip():
        yield buffer


class EventStore:
    """An append-only record of games in one SQLite file.  Open with :meth:`open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Callable[[], str]):
        self._conn = conn
        self.db = sqlite_utils.Database(conn)
        self.path = path
        self._clock = clock
        self._lock = threading.RLock()
        self._states: OrderedDict[str, tuple[int, Any]] = OrderedDict()

    # --- opening -----------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], str] | None = None
    ) -> EventStore:
        """Open (creating it and its folder if need be) the database at ``path``
        (default :func:`default_db_path`), in WAL mode with ``synchronous=FULL``, and
        apply pending schema migrations.  ``clock`` returns the recorded-at text."""
        target = Path(path) if path is not None else default_db_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(
                str(target), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise StoreError(f"{target}: cannot open the database: {err}") from None
        try:
            store = cls(conn, target, clock or _utc_now)
            store._configure()
            store._migrate()
        except sqlite3.DatabaseError as err:
            conn.close()
            raise StoreError(f"{target}: not a usable tablelog database: {err}") from None
        except BaseException:
            conn.close()
            raise
        return store

    def _configure(self) -> None:
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        self.db.enable_wal()
        # FULL: in WAL mode, NORMAL may lose the last commits on power loss; FULL syncs
        # the log at every commit, so an acknowledged event survives it.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")

    def _migrate(self) -> None:
        conn = self._conn
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.path}: schema version {version} is newer than this tablelog "
                f"understands ({SCHEMA_VERSION}); upgrade tablelog"
            )
        with self._transaction():
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if (
                version == 0
                and conn.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                ).fetchone()[0]
            ):
                raise SchemaVersionError(
                    f"{self.path}: this SQLite file holds other tables; it is not a "
                    "tablelog database"
                )
            for number, description, script in MIGRATIONS:
                if number <= version:
                    continue
                for statement in _split_sql(script):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (version, description, applied_at) "
                    "VALUES (?, ?, ?)",
                    (number, description, self._clock()),
                )
                conn.execute(f"PRAGMA user_version = {number}")

    @property
    def schema_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the database's write lock from its start."""
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # --- importing ---------------------------------------------------------------------

    def import_game(self, record: GameImport) -> ImportResult:
        """Check every event of a whole game with the engine and store it in one
        transaction, or nothing (ImportRejected names the first bad event).  Importing
        the same content again changes nothing and returns ``created=False``."""
        result = self._write_batch([prepare_game(record)])[0]
        if isinstance(result, ImportRejected):
            raise result
        return result

    def import_games(
        self,
        records: Sequence[GameImport],
        *,
        batch_size: int = DEFAULT_BATCH,
        workers: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[ImportResult | ImportRejected]:
        """Import many games: each is stored whole or not at all, as with
        :meth:`import_game`, but up to ``batch_size`` games share one transaction (one
        sync to disk).  With ``workers`` > 1 the validation and rule checking (pure,
        CPU-bound) run in that many processes while this one writes.  ``progress`` is
        called with the number of games done after each batch.  Returns, per record, its
        result or the error that refused it."""
        batch_size = max(1, batch_size)
        if workers > 1 and len(records) > batch_size:
            size = max(1, min(TASK_GAMES, batch_size))
        else:
            workers, size = 0, batch_size
        chunks = (records[i : i + size] for i in range(0, len(records), size))
        out: list[ImportResult | ImportRejected] = []
        ahead = 2 * batch_size // size + workers
        for written in self.import_stream(chunks, _prepare_chunk, workers, batch_size, ahead):
            out.extend(result for _, result in written)
            if progress:
                progress(len(out))
        return out

    def import_stream(
        self,
        tasks: Iterable[Any],
        prepare: Callable[[Any], list[tuple[Any, _Prepared | ImportRejected]]],
        workers: int = 0,
        batch_size: int = DEFAULT_BATCH,
        ahead: int = 8,
    ) -> Iterator[list[tuple[Any, ImportResult | ImportRejected]]]:
        """The import pipeline: ``prepare`` turns each task into ``(tag, prepared game or
        the error that refused it)`` pairs, in ``workers`` processes when more than one
        (else here), and this process writes them ``batch_size`` games per transaction;
        yields each written batch as ``(tag, result)`` pairs, in task order.  With
        processes, up to ``ahead`` tasks are in flight: enough to keep them checking while
        a batch is written.

        ``prepare`` must be a module-level function (it is sent to the processes by
        name); :func:`prepare_game` makes a prepared game from a :class:`GameImport`."""
        batches = _batches(_prepared_chunks(tasks, prepare, workers, ahead), max(1, batch_size))
        with self._import_settings(threaded=workers <= 1):
            if workers > 1:
                # The processes check; this thread only writes.
                for batch in batches:
                    yield self._write_tagged(batch)
            else:
                yield from self._write_in_thread(batches)

    @contextmanager
    def _import_settings(self, *, threaded: bool) -> Iterator[None]:
        with self._lock:
            cache_size = self._conn.execute("PRAGMA cache_size").fetchone()[0]
            # A bigger page cache for the import: each game's rows land at their own
            # place in the event table, and the pages stay at hand for the next ones.
            self._conn.execute(f"PRAGMA cache_size = {IMPORT_CACHE_SIZE}")
        try:
            if threaded:
                with _prompt_thread_switches():
                    yield
            else:
                yield
        finally:
            with self._lock:
                self._conn.execute(f"PRAGMA cache_size = {int(cache_size)}")

    def _write_in_thread(
        self, batches: Iterator[list[tuple[Any, _Prepared | ImportRejected]]]
    ) -> Iterator[list[tuple[Any, ImportResult | ImportRejected]]]:
        """Write ``batches`` in a thread of their own while this one prepares the next:
        SQLite does its work without Python's global lock, so checking and writing run
        on two cores in one process, with nothing to hand between processes."""
        todo: queue.Queue[list[tuple[Any, _Prepared | ImportRejected]] | None] = queue.Queue(2)
        done: queue.Queue[list[tuple[Any, ImportResult | ImportRejected]] | BaseException]
        done = queue.Queue()

        def write() -> None:
            failed = False
            while (batch := todo.get()) is not None:
                if failed:
                    continue  # keep taking batches, so that the other thread never blocks
                try:
                    done.put(self._write_tagged(batch))
                except BaseException as err:  # handed to the other thread, which raises it
                    failed = True
                    done.put(err)

        writer = threading.Thread(target=write, name="tablelog-import-writer", daemon=True)
        writer.start()
        sent = received = 0
        closed = False
        try:
            for batch in batches:
                todo.put(batch)
                sent += 1
                while received < sent:  # hand back what is written, without waiting
                    try:
                        item = done.get_nowait()
                    except queue.Empty:
                        break
                    received += 1
                    if isinstance(item, BaseException):
                        raise item
                    yield item
            todo.put(None)
            closed = True
            while received < sent:
                item = done.get()
                received += 1
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            # Whatever happens here, what was handed over is written (or refused by the
            # error already raised) before the thread ends.
            if not closed:
                todo.put(None)
            writer.join()

    def _write_tagged(
        self, items: Sequence[tuple[Any, _Prepared | ImportRejected]]
    ) -> list[tuple[Any, ImportResult | ImportRejected]]:
        results = self._write_batch([item for _, item in items])
        return [(tag, result) for (tag, _), result in zip(items, results, strict=True)]

    def _write_batch(
        self, prepared: Sequence[_Prepared | ImportRejected]
    ) -> list[ImportResult | ImportRejected]:
        """Write prepared games in one transaction, each whole or not at all; returns per
        game its result or the error that refused it."""
        with self._transaction() as conn:
            return self._write_games(conn, prepared, self._clock())

    def _write_games(
        self,
        conn: sqlite3.Connection,
        prepared: Sequence[_Prepared | ImportRejected],
        now: str,
    ) -> list[ImportResult | ImportRejected]:
        results: list[ImportResult | ImportRejected | None] = [None] * len(prepared)
        stored = _stored_game_ids(conn, [p.game_id for p in prepared if isinstance(p, _Prepared)])
        seen: set[str] = set()
        fast: list[int] = []
        slow: list[int] = []
        for i, p in enumerate(prepared):
            if isinstance(p, ImportRejected):
                results[i] = p
                continue
            # New games with derived event ids cannot clash with anything stored or with
            # one another, so they are inserted together; a game already stored (or seen
            # earlier in the batch) is compared, and one with given event ids may clash,
            # so those go one by one, each under its own savepoint.
            if p.game_id in stored or p.game_id in seen or p.event_ids is not None:
                slow.append(i)
            else:
                fast.append(i)
            seen.add(p.game_id)
        if fast:
            conn.execute("SAVEPOINT new_games")
            try:
                self._insert_games(conn, [prepared[i] for i in fast], now)  # type: ignore[misc]
            except sqlite3.IntegrityError:
                # Not expected; write them one by one below, where a refusal is one game's.
                conn.execute("ROLLBACK TO new_games")
                slow = sorted(slow + fast)
                fast = []
            conn.execute("RELEASE new_games")
            for i in fast:
                p = prepared[i]
                assert isinstance(p, _Prepared)
                results[i] = ImportResult(p.game_id, True, p.event_count, p.flagged)
        for i in slow:
            p = prepared[i]
            assert isinstance(p, _Prepared)
            conn.execute("SAVEPOINT game")
            try:
                results[i] = self._write_prepared(conn, p, now)
            except ImportRejected as err:
                conn.execute("ROLLBACK TO game")
                results[i] = err
            conn.execute("RELEASE game")
        return results  # type: ignore[return-value]

    def create_game(
        self, headers: dict[str, Any], *, kind: str = "splendor-duel", game_id: str | None = None
    ) -> GameRow:
        """A new game with no events yet, for logging live with :meth:`append`.  Without
        ``game_id`` a fresh random id is chosen; an id already in use is refused."""
        record = GameImport(
            kind=kind, headers=headers, events=[], game_id=game_id or secrets.token_hex(6)
        )
        prepared = prepare_game(record)
        with self._transaction() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (prepared.game_id,)).fetchone():
                raise ImportRejected(None, f"game {prepared.game_id} already exists", "id")
            self._insert_games(conn, [prepared], self._clock())
        return self.game(prepared.game_id)

    def _insert_games(self, conn: sqlite3.Connection, games: Sequence[_Prepared], now: str) -> None:
        """Insert new games: their rows, events and projections (no checks here: the
        triggers and constraints still refuse anything out of place)."""
        conn.execute(_INSERT_GAMES, (_dumps([p.game_row for p in games]), now))
        plain: dict[str, list[_Prepared]] = {}
        for p in games:
            version = get_game(p.kind).payload_version
            if p.event_ids is None and not p.with_meta:
                plain.setdefault(p.kind, []).append(p)
            elif p.event_ids is None:
                conn.execute(_INSERT_EVENTS_WITH_META, (p.game_id, version, now, p.events_json))
            else:
                conn.executemany(
                    "INSERT INTO events (game_id, sequence, event_id, type, payload,"
                    " payload_version, meta, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            p.game_id,
                            seq,
                            given or derived_event_id(p.game_id, seq),
                            etype,
                            payload,
                            version,
                            meta,
                            now,
                        )
                        for seq, ((etype, payload, meta), given) in enumerate(
                            zip(p.event_rows(), p.event_ids, strict=True), start=1
                        )
                    ],
                )
        for kind, same in plain.items():
            version = get_game(kind).payload_version
            for start in range(0, len(same), GAMES_PER_STATEMENT):
                part = same[start : start + GAMES_PER_STATEMENT]
                events = ",".join([p.events_json[1:-1] for p in part if p.event_count])
                params: list[Any] = [version, now, f"[{events}]", part[0].game_id]
                first = part[0].event_count
                for p in part[1:]:
                    params += (p.game_id, first)
                    first += p.event_count
                conn.execute(_INSERT_EVENTS[len(part)], params)
        summaries = _dumps([p.summary_row for p in games])
        conn.execute(_INSERT_SUMMARIES, (summaries, now))
        conn.execute(_INSERT_PLAYERS, (summaries,))

    def _write_prepared(self, conn: sqlite3.Connection, p: _Prepared, now: str) -> ImportResult:
        """Write one game, comparing it with a stored game of the same id."""
        gid = p.game_id
        existing = conn.execute("SELECT kind, headers FROM games WHERE id = ?", (gid,)).fetchone()
        if existing is not None:
            if self._same_content(conn, p, existing):
                return ImportResult(gid, False, p.event_count, p.flagged)
            raise ImportRejected(None, f"game {gid} is already stored with different content", "id")
        if p.event_ids is not None:
            given = [eid for eid in p.event_ids if eid is not None]
            taken = {
                row[0]: row[1:]
                for start in range(0, len(given), _MAX_PARAMS)
                for row in conn.execute(
                    "SELECT event_id, game_id, sequence FROM events WHERE event_id IN ("
                    + ",".join("?" * len(given[start : start + _MAX_PARAMS]))
                    + ")",
                    given[start : start + _MAX_PARAMS],
                )
            }
            for number, eid in enumerate(p.event_ids, start=1):
                if eid in taken:
                    other, seq = taken[eid]
                    raise ImportRejected(
                        number,
                        f"event id {eid!r} is already stored (game {other}, event {seq})",
                        "event_id",
                    )
        try:
            self._insert_games(conn, [p], now)
        except sqlite3.IntegrityError as err:
            raise ImportRejected(None, f"game {gid} cannot be stored: {err}") from None
        return ImportResult(gid, True, p.event_count, p.flagged)

    def _same_content(self, conn: sqlite3.Connection, p: _Prepared, existing: Any) -> bool:
        kind, headers_json = existing
        if kind != p.kind or headers_json != p.headers_json:
            return False
        stored = conn.execute(
            "SELECT sequence, event_id, payload, meta FROM events WHERE game_id = ?"
            " ORDER BY sequence",
            (p.game_id,),
        ).fetchall()
        rows = p.event_rows()
        if len(stored) != len(rows):
            return False
        given = p.event_ids or [None] * len(rows)
        for (seq, eid, payload, meta), (_, ppayload, pmeta), geid in zip(
            stored, rows, given, strict=True
        ):
            if payload != ppayload or _user_meta_json(meta) != _user_meta_json(pmeta):
                return False
            if eid != (geid if geid is not None else derived_event_id(p.game_id, seq)):
                return False
        return True

    @staticmethod
    def _write_summary(
        conn: sqlite3.Connection,
        gid: str,
        kind: str,
        headers: Mapping[str, Any],
        summary: Mapping[str, Any],
        event_count: int,
        flagged_count: int,
        now: str,
    ) -> None:
        names = _player_names(headers)
        winner = summary.get("winner")
        conn.execute(
            "INSERT OR REPLACE INTO game_summaries (game_id, kind, player_0, player_1, date,"
            " status, winner, winner_name, condition, turns, to_move, event_count,"
            " flagged_count, last_activity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                gid,
                kind,
                names[0],
                names[1],
                headers.get("date"),
                summary["status"],
                winner,
                None if winner is None else names[winner],
                summary.get("condition"),
                summary.get("turns") or 0,
                summary.get("to_move"),
                event_count,
                flagged_count,
                now,
            ),
        )

    # --- appending ---------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        expected_sequence: int,
        events: Sequence[Mapping[str, Any]],
        meta: Sequence[Mapping[str, Any] | None] | None = None,
        event_ids: Sequence[str] | None = None,
    ) -> AppendResult:
        """Append ``events`` (current-version payloads) after event ``expected_sequence``
        of ``game_id``: each is checked by the engine against the state folded so far,
        and all are written in one transaction or none are.

        * a stale ``expected_sequence`` raises :class:`ConcurrencyError` (expected and
          actual named);
        * ``event_ids`` sent again with the same payloads return the same result and
          write nothing (an idempotent retry); a known id with another payload or in
          another place raises :class:`EventIdConflict`;
        * an illegal event raises :class:`AppendRejected` with its would-be sequence;
          events whose meta says ``played_illegally`` are applied as played and their
          violations kept in the meta.
        """
        if not isinstance(events, list | tuple) or not events:
            raise AppendRejected(None, "expected a non-empty list of events", "events")
        if (
            not isinstance(expected_sequence, int)
            or isinstance(expected_sequence, bool)
            or expected_sequence < 0
        ):
            raise AppendRejected(
                None, "expected a sequence number of 0 or more", "expected_sequence"
            )
        n = len(events)
        if meta is not None and (not isinstance(meta, list | tuple) or len(meta) != n):
            raise AppendRejected(None, f"expected {n} meta entries, one per event", "meta")
        given = _check_event_ids(
            list(event_ids) if event_ids is not None else None, n, AppendRejected
        )
        first = expected_sequence + 1
        metas = [
            _clean_meta(m, first + i, AppendRejected) for i, m in enumerate(meta or [None] * n)
        ]
        kind, names = self._kind_and_names(game_id)
        rules = get_game(kind)
        parsed = [
            _parse_payload(kind, rules, raw, first + i, AppendRejected)
            for i, raw in enumerate(events)
        ]
        with self._transaction() as conn:
            actual = self._last_sequence(conn, game_id)
            if event_ids is not None:
                retry = self._idempotent_retry(conn, game_id, kind, rules, parsed, given)
                if retry is not None:
                    return retry
            if actual != expected_sequence:
                raise ConcurrencyError(game_id, expected_sequence, actual)
            state = self._state_for_write(conn, game_id, kind, rules, actual, names)
            folded, flagged = _fold_new(kind, rules, state, parsed, metas, first, AppendRejected)
            now = self._clock()
            ids = [g or derived_event_id(game_id, first + i) for i, g in enumerate(given)]
            version = rules.payload_version
            try:
                conn.executemany(
                    "INSERT INTO events (game_id, sequence, event_id, type, payload,"
                    " payload_version, meta, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (game_id, first + i, ids[i], etype, payload, version, stored, now)
                        for i, (etype, payload, stored, _, _) in enumerate(folded)
                    ],
                )
            except sqlite3.IntegrityError as err:
                raise EventIdConflict(
                    ", ".join(i for i in given if i), f"cannot be stored: {err}"
                ) from None
            summary = rules.summary(state)
            headers_json, created = conn.execute(
                "SELECT headers, created_at FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            flagged_total = conn.execute(
                "SELECT flagged_count FROM game_summaries WHERE game_id = ?", (game_id,)
            ).fetchone()
            flagged_count = (flagged_total[0] if flagged_total else 0) + sum(
                1 for m in metas if m and m.get("played_illegally")
            )
            conn.execute(
                "UPDATE games SET status = ?, last_activity = ? WHERE id = ?",
                (summary["status"], now, game_id),
            )
            self._write_summary(
                conn,
                game_id,
                kind,
                json.loads(headers_json),
                summary,
                actual + n,
                flagged_count,
                now,
            )
        self._remember_state(game_id, actual + n, state)
        return AppendResult(
            last_sequence=actual + n,
            first_sequence=first,
            appended=n,
            event_ids=ids,
            already_stored=False,
            flagged=flagged,
            status=summary["status"],
        )

    def _idempotent_retry(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        kind: str,
        rules: GameRules,
        parsed: Sequence[Any],
        given: Sequence[str | None],
    ) -> AppendResult | None:
        ids = [g for g in given if g is not None]
        if not ids:
            return None
        marks = ",".join("?" * len(ids))
        found = {
            row[0]: row[1:]
            for row in conn.execute(
                f"SELECT event_id, game_id, sequence, payload, meta FROM events"
                f" WHERE event_id IN ({marks})",
                ids,
            )
        }
        if not found:
            return None
        if len(found) != len(given) or len(ids) != len(given):
            missing = [g for g in given if g not in found]
            raise EventIdConflict(
                next(iter(found)),
                "is already stored, but this batch also holds events that are not "
                f"({len(missing)} of {len(given)}); a retry must resend the same batch",
            )
        sequences: list[int] = []
        flagged: list[tuple[int, list[Violation]]] = []
        for eid, event in zip(ids, parsed, strict=True):
            stored_game, seq, payload, meta = found[eid]
            payload_json = _canonical(kind, rules, event)[1]
            if stored_game != game_id:
                raise EventIdConflict(eid, f"is already stored in game {stored_game}")
            if payload != payload_json:
                raise EventIdConflict(
                    eid, f"is already stored as event {seq} with a different payload"
                )
            if sequences and seq != sequences[-1] + 1:
                raise EventIdConflict(eid, "is already stored, out of this batch's order")
            sequences.append(seq)
            if meta:
                violations = json.loads(meta).get("violations")
                if violations:
                    flagged.append((seq, [_violation_from_dict(v) for v in violations]))
        status = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        return AppendResult(
            last_sequence=sequences[-1],
            first_sequence=sequences[0],
            appended=0,
            event_ids=list(ids),
            already_stored=True,
            flagged=flagged,
            status=status,
        )

    def _kind(self, game_id: str) -> str:
        return self._kind_and_names(game_id)[0]

    def _kind_and_names(self, game_id: str) -> tuple[str, tuple[str, str]]:
        """The game's kind and its players' names (for the engine's messages)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT kind, players FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        names = _player_names({"players": json.loads(row[1])})
        return str(row[0]), (names[0], names[1])

    @staticmethod
    def _last_sequence(conn: sqlite3.Connection, game_id: str) -> int:
        row = conn.execute(
            "SELECT MAX(sequence) FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(row[0] or 0)

    def _state_for_write(
        self,
        conn: sqlite3.Connection,
        game_id: str,
        kind: str,
        rules: GameRules,
        actual: int,
        names: tuple[str, str],
    ) -> Any:
        cached = self._states.get(game_id)
        if cached is not None and cached[0] == actual:
            return cached[1].copy()
        rows = conn.execute(
            "SELECT sequence, payload, payload_version, meta FROM events WHERE game_id = ?"
            " ORDER BY sequence",
            (game_id,),
        ).fetchall()
        return self._replay_rows(game_id, kind, rules, rows, names)

    def _remember_state(self, game_id: str, sequence: int, state: Any) -> None:
        with self._lock:
            self._states[game_id] = (sequence, state)
            self._states.move_to_end(game_id)
            while len(self._states) > 64:
                self._states.popitem(last=False)

    # --- reading -----------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow:
        """The game's row; :class:`GameNotFound` for an unknown id."""
        rows = self._game_rows("WHERE g.id = ?", [game_id], "", [])
        if not rows:
            raise GameNotFound(game_id)
        return rows[0]

    def _game_rows(
        self, where: str, params: list[Any], tail: str, tail_params: list[Any]
    ) -> list[GameRow]:
        sql = (
            "SELECT g.id, g.kind, g.headers, s.status, s.winner, s.condition, s.turns,"
            " s.event_count, g.created_at, s.last_activity, s.winner_name, s.to_move,"
            " s.flagged_count FROM games AS g JOIN game_summaries AS s ON s.game_id = g.id "
            + where
            + tail
        )
        with self._lock:
            rows = self._conn.execute(sql, params + tail_params).fetchall()
        return [
            GameRow(
                id=r[0],
                kind=r[1],
                headers=json.loads(r[2]),
                status=r[3],
                winner=r[4],
                condition=r[5],
                turns=r[6],
                event_count=r[7],
                created_at=r[8],
                last_activity=r[9],
                winner_name=r[10],
                to_move=r[11],
                flagged_count=r[12],
            )
            for r in rows
        ]

    def events(self, game_id: str, upto: int | None = None) -> list[StoredEvent]:
        """The game's events in order (the first ``upto`` when given), payloads upcast
        to the current version.  A payload that cannot be read raises
        :class:`CorruptEvent` naming the game and the sequence."""
        kind = self._kind(game_id)
        rules = get_game(kind)
        rows = self._event_rows(game_id, upto, full=True)
        out = []
        for seq, eid, etype, payload_text, version, meta_text, recorded in rows:
            payload = _decode(game_id, seq, payload_text, "payload")
            meta = _decode(game_id, seq, meta_text, "meta") if meta_text else {}
            if not isinstance(payload, dict) or not isinstance(meta, dict):
                raise CorruptEvent(game_id, seq, "stored payload or meta is not a JSON object")
            try:
                current = (
                    payload if version == rules.payload_version else rules.upcast(payload, version)
                )
                event = rules.event_from_dict(current)
            except EngineError as err:
                raise CorruptEvent(game_id, seq, f"stored payload cannot be read: {err}") from None
            out.append(
                StoredEvent(
                    sequence=seq,
                    event_id=eid,
                    type=etype,
                    payload=dict(current),
                    version=version,
                    recorded_at=recorded,
                    meta=meta,
                    event=event,
                )
            )
        return out

    def _event_rows(self, game_id: str, upto: int | None, *, full: bool) -> list[Any]:
        cols = (
            "sequence, event_id, type, payload, payload_version, meta, recorded_at"
            if full
            else "sequence, payload, payload_version, meta"
        )
        sql = f"SELECT {cols} FROM events WHERE game_id = ?"
        params: list[Any] = [game_id]
        if upto is not None:
            sql += " AND sequence <= ?"
            params.append(upto)
        with self._lock:
            return self._conn.execute(sql + " ORDER BY sequence", params).fetchall()

    def state_at(self, game_id: str, step: int | None = None) -> Any:
        """The engine state after the first ``step`` events (all when None; 0 is the
        empty table).  :class:`StepOutOfRange` for a step beyond the last event."""
        kind, names = self._kind_and_names(game_id)
        rules = get_game(kind)
        if step is not None and (not isinstance(step, int) or step < 0):
            raise StepOutOfRange(game_id, step, self._count(game_id))
        rows = self._event_rows(game_id, step, full=False)
        if step is not None and len(rows) < step:
            raise StepOutOfRange(game_id, step, len(rows))
        return self._replay_rows(game_id, kind, rules, rows, names)

    def _count(self, game_id: str) -> int:
        with self._lock:
            return self._last_sequence(self._conn, game_id)

    def _replay_rows(
        self,
        game_id: str,
        kind: str,
        rules: GameRules,
        rows: Sequence[Any],
        names: tuple[str, str] | None = None,
    ) -> Any:
        """Fold stored rows (sequence, payload, version, meta) with the rules."""
        state = rules.new_state(names)
        current = rules.payload_version
        parsed = _PARSED
        play = rules.play
        for seq, payload_text, version, meta_text in rows:
            key = (kind, version, current, payload_text)
            event = parsed.get(key)
            if event is None:
                event = _parse_stored(game_id, seq, rules, payload_text, version, current)
                if len(parsed) >= _CACHE_LIMIT:
                    parsed.clear()
                parsed[key] = event
            try:
                if (
                    meta_text
                    and '"played_illegally"' in meta_text
                    and _decode(game_id, seq, meta_text, "meta").get("played_illegally")
                ):
                    rules.force(state, event)
                else:
                    play(state, event)
            except IllegalMoveError as err:
                raise CorruptEvent(game_id, seq, f"stored event no longer replays: {err}") from None
            except AttributeError:
                raise CorruptEvent(game_id, seq, "stored meta is not a JSON object") from None
        return state

    def list_games(
        self,
        player: str | None = None,
        result: str | None = None,
        date_from: Any = None,
        date_to: Any = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameRow]:
        """Games, most recent activity first, filtered by a player's name (either seat,
        any case), a result (``finished``, ``playing``, ``setup`` or a victory condition
        ``points``, ``crowns``, ``color``, ``resignation``) and a date range (inclusive,
        on the ``date`` header)."""
        where, params = _filters(player, result, date_from, date_to)
        return self._game_rows(
            where,
            params,
            " ORDER BY s.last_activity DESC, s.game_id LIMIT ? OFFSET ?",
            [int(limit), int(offset)],
        )

    def count_games(
        self,
        player: str | None = None,
        result: str | None = None,
        date_from: Any = None,
        date_to: Any = None,
    ) -> int:
        """How many games :meth:`list_games` would list with these filters, unpaged."""
        where, params = _filters(player, result, date_from, date_to)
        with self._lock:
            row = self._conn.execute(
                "SELECT count(*) FROM games AS g JOIN game_summaries AS s ON s.game_id = g.id "
                + where,
                params,
            ).fetchone()
        return int(row[0])

    # --- projections ---------------------------------------------------------------------

    def rebuild_projections(self) -> int:
        """Recompute ``game_summaries``, ``game_players`` and each game's status and last
        activity from the events, in one transaction; returns the number of games."""
        with self._transaction() as conn:
            games = conn.execute(
                "SELECT id, kind, headers, created_at FROM games ORDER BY id"
            ).fetchall()
            conn.execute("DELETE FROM game_summaries")
            conn.execute("DELETE FROM game_players")
            for gid, kind, headers_json, created in games:
                try:
                    rules = get_game(kind)
                except UnknownGameKind as err:
                    raise StoreError(f"game {gid}: {err}") from None
                rows = conn.execute(
                    "SELECT sequence, payload, payload_version, meta FROM events"
                    " WHERE game_id = ? ORDER BY sequence",
                    (gid,),
                ).fetchall()
                state = self._replay_rows(gid, kind, rules, rows)
                headers = json.loads(headers_json)
                summary = rules.summary(state)
                last = (
                    conn.execute(
                        "SELECT MAX(recorded_at) FROM events WHERE game_id = ?", (gid,)
                    ).fetchone()[0]
                    or created
                )
                flagged = sum(1 for r in rows if r[3] and json.loads(r[3]).get("played_illegally"))
                conn.execute(
                    "UPDATE games SET status = ?, last_activity = ? WHERE id = ?",
                    (summary["status"], last, gid),
                )
                self._write_summary(conn, gid, kind, headers, summary, len(rows), flagged, last)
                names = _player_names(headers)
                self.db.table("game_players").insert_all(
                    [
                        {"game_id": gid, "seat": 0, "name": names[0]},
                        {"game_id": gid, "seat": 1, "name": names[1]},
                    ]
                )
        with self._lock:
            self._states.clear()
        return len(games)

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer (``ok`` when the file is sound)."""
        with self._lock:
            rows = self._conn.execute("PRAGMA integrity_check").fetchall()
        return "\n".join(str(r[0]) for r in rows)

    def stored_content(self, game_id: str) -> tuple[str, dict[str, Any], list[StoredEvent]]:
        """(kind, headers, events) of a game, for exporting."""
        row = self.game(game_id)
        return row.kind, row.headers, self.events(game_id)


def _user_meta_json(meta_text: str | None) -> str | None:
    if not meta_text:
        return None
    meta = json.loads(meta_text)
    meta.pop("violations", None)
    return _dumps_sorted(meta) if meta else None


def _violation_from_dict(data: Mapping[str, Any]) -> Violation:
    from engine.errors import Rule

    rule = data.get("rule") or {}
    return Violation(
        str(data.get("code", "")),
        str(data.get("message", "")),
        Rule(str(rule.get("section", "")), rule.get("page"), str(rule.get("source", "rulebook"))),
    )


def _decode(game_id: str, seq: int, text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError) as err:
        raise CorruptEvent(game_id, seq, f"stored {what} is not valid JSON: {err}") from None


def _parse_stored(
    game_id: str, seq: int, rules: GameRules, text: str, version: int, current: int
) -> Any:
    payload = _decode(game_id, seq, text, "payload")
    try:
        if version != current:
            payload = rules.upcast(payload, version)
        return rules.event_from_dict(payload)
    except EngineError as err:
        raise CorruptEvent(game_id, seq, f"stored payload cannot be read: {err}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise CorruptEvent(game_id, seq, f"stored payload cannot be read: {err}") from None


RESULT_STATUSES = ("finished", "playing", "setup")
RESULT_CONDITIONS = ("points", "crowns", "color", "resignation")


def _filters(
    player: str | None, result: str | None, date_from: Any, date_to: Any
) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if player:
        clauses.append("g.id IN (SELECT game_id FROM game_players WHERE name = ?)")
        params.append(player)
    if result:
        if result in RESULT_STATUSES:
            clauses.append("s.status = ?")
        elif result in RESULT_CONDITIONS:
            clauses.append("s.condition = ?")
        else:
            raise StoreError(
                f"unknown result filter {result!r} (one of "
                f"{', '.join(RESULT_STATUSES + RESULT_CONDITIONS)})"
            )
        params.append(result)
    if date_from:
        clauses.append("s.date >= ?")
        params.append(str(date_from))
    if date_to:
        clauses.append("s.date <= ?")
        params.append(str(date_to))
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


__all__ = [
    "AppendResult",
    "EventStore",
    "GameImport",
    "GameRow",
    "ImportResult",
    "StoredEvent",
    "default_db_path",
    "prepare_game",
]
