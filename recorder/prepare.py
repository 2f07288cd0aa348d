"""Preparing a game for the store, with no database: validation, the rules' checks, the
canonical forms the store keeps (payload and meta JSON), the content digest and the ids
derived from it.

A prepared game (:class:`Prepared`) is small and picklable: it crosses from a checking
process to the writing one in an import (:mod:`recorder.pipeline`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any

from engine.corrections import Retraction
from engine.errors import EngineError, EventFormatError, IllegalMoveError, Violation
from engine.fold import Fold
from engine.games import GAMES, get_game
from engine.protocol import GameRules, seat_names

from . import chain, projections
from .chain import dumps_sorted
from .checks import EVENT_ID_RE, GAME_ID_RE, headers_problem, meta_problem, payload_problem
from .errors import ImportRejected, unstorable_in
from .records import Checked, GameImport, canonical_time, time_ms
from .stored import join_type, split_type


@dataclass(slots=True)
class Prepared:
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
    #: of their payloads as stored (:func:`recorder.stored.split_type`: the type's name,
    #: then the rest of the payload, a JSON object, so the first ``{`` ends the name) each
    #: followed by a newline and the event's text (compact JSON holds no raw newline, so
    #: the first one ends the payload), or with ``with_meta`` of ``[type, rest of the
    #: payload, text, stored meta JSON]`` (the meta left out for an event without).
    events_json: str
    with_meta: bool
    event_count: int
    #: Event ids given by the caller, one per event (None: every id is derived).
    event_ids: list[str | None] | None
    flagged: list[tuple[int, list[Violation]]]
    #: The first event's payload JSON (the setup), by which a stored copy of the same
    #: game is found; None for a game without events.
    setup_json: str | None = None
    #: Whether the id is derived from the content (not given): only such a game may be
    #: found stored under another id (:func:`identity_headers`).
    derived: bool = False
    #: The game's head (:mod:`recorder.chain`), hex; it is also the last item of
    #: :attr:`game_row`.
    head: str = ""
    #: Each event's chain hash, raw (32 bytes each), one after the other: SQLite takes
    #: each event's from this one value (:func:`recorder.sqlite_import._insert_events_sql`).
    hashes: bytes = b""
    #: The times an earlier store kept: (created at, each event's recorded-at); None
    #: means the time of the write.
    times: tuple[str, tuple[str, ...]] | None = None
    #: (step, position) after every :data:`STORED_EVERY` steps and at the head: the
    #: store's snapshots of the game, so a step is folded from the nearest (the writer
    #: packs each position, :func:`recorder.stored.pack_position`).
    snapshots: tuple[tuple[int, str], ...] = ()
    #: The types of the game's events (their payloads' ``type``), which the store numbers
    #: (``event_types``) before it writes the game.
    types: frozenset[str] = frozenset()
    #: The review a notation file holds (:attr:`GameImport.review`), as JSON: written in
    #: the transaction that writes the game, apart from the record.
    review_json: str | None = None

    def created_and_last(self, now: str) -> tuple[str, str]:
        """(created at, last activity) of the game, its kept times or ``now``."""
        if self.times is None:
            return now, now
        created, recorded = self.times
        return created, max(recorded, default=created)

    def rows(self, now: str, game_no: int, codes: dict[str, int]) -> list[tuple[Any, ...]]:
        """The ``events`` rows of the game, every column in the table's order (game
        number, sequence, event id, type, payload, payload version, meta, recorded at,
        hash, text), recorded ``now`` unless the game keeps its times: the type as its
        number in ``codes`` (the store's for the game's kind) and the rest of the payload
        (a payload without a numbered type is kept whole), an event id only where one was
        given (a derived one is read back from the event's place), and a time (ms, see
        :func:`recorder.records.time_ms`) only where it differs from the event before's."""
        version = get_game(self.kind).payload_version
        given = self.event_ids or [None] * self.event_count
        times = [now] * self.event_count if self.times is None else self.times[1]
        out = []
        previous: int | None = None
        for seq, ((name, rest, text, meta, hash_), eid) in enumerate(
            zip(self._stored_rows(), given, strict=True), start=1
        ):
            ms = time_ms(times[seq - 1])
            code = codes.get(name) if name else None
            out.append(
                (
                    game_no,
                    seq,
                    eid,
                    code,
                    rest if code is not None else join_type(name, rest),
                    version,
                    meta,
                    None if ms == previous else ms,
                    hash_,
                    text,
                )
            )
            previous = ms
        return out

    def event_rows(self) -> list[tuple[str, str, str | None, bytes]]:
        """(payload JSON, text, stored meta JSON, raw chain hash) per event, for the slow
        paths."""
        return [
            (join_type(name, rest), text, meta, hash_)
            for name, rest, text, meta, hash_ in self._stored_rows()
        ]

    def _stored_rows(self) -> list[tuple[str, str, str, str | None, bytes]]:
        """(type, rest of the payload, text, stored meta JSON, raw chain hash) per event
        (see :attr:`events_json`)."""
        items = json.loads(self.events_json)
        h = self.hashes
        if not self.with_meta:
            out: list[tuple[str, str, str, str | None, bytes]] = []
            for i, item in enumerate(items):
                payload, text = item.split("\n", 1)
                cut = payload.index("{")
                out.append(
                    (payload[:cut], payload[cut:], text, None, h[i * HASH : i * HASH + HASH])
                )
            return out
        return [
            (
                item[0],
                item[1],
                item[2],
                item[3] if len(item) > 3 else None,
                h[i * HASH : i * HASH + HASH],
            )
            for i, item in enumerate(items)
        ]


#: Bytes of a raw chain hash (SHA-256).
HASH = 32

#: A snapshot is stored (the position after a step, which a store opened afresh folds a
#: later step from) every this many steps, besides the one at each game's head; in
#: memory a fold keeps one every :data:`engine.fold.SNAPSHOT_EVERY`.
STORED_EVERY = 32


#: Per event, as :func:`fold_events` returns it: payload JSON, stored meta JSON, the
#: logger's meta JSON (what a file holds), its canonical content as the chain hashes it
#: (:func:`recorder.chain.content`), for an event without meta the start of its element
#: in a game's events JSON (the payload as stored, its type's name then the rest, as a
#: JSON string, its closing quote left for the text to follow an escaped newline; empty
#: for an event with meta), and the payload's type (:func:`recorder.stored.split_type`;
#: empty for a payload kept whole).  The event's text goes beside it (it depends on the
#: position, where the row depends on the event alone).
_Row = tuple[str, str | None, str | None, bytes, str, str]

_CANONICAL: dict[str, dict[Any, _Row]] = {}
CACHE_LIMIT = 200_000


def dumps(value: Any) -> str:
    """Compact JSON, keys in their order (payloads as the engine writes them)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def parse_payload(rules: GameRules, raw: Any, number: int, cls: type[Any]) -> Any:
    """The engine event of a payload: the game's own parser is the one validator, and
    its refusal names the field (:func:`recorder.checks.payload_problem`)."""
    try:
        return rules.event_from_dict(raw)
    except (EventFormatError, TypeError, ValueError, KeyError, AttributeError) as err:
        path, message = payload_problem(err)
        raise cls(number, message, path or None) from None


def canonical(kind: str, rules: GameRules, event: Any) -> _Row:
    """The :data:`_Row` of an event without meta, cached by event: most events recur
    from game to game.  The payload is the engine's own output for an event it parsed, so
    it is not validated again."""
    cache = _CANONICAL.get(kind)
    if cache is None:
        cache = _CANONICAL[kind] = {}
    row = cache.get(event)
    if row is None:
        payload_json = dumps(rules.event_to_dict(event))
        name, rest = split_type(payload_json)
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        row = cache[event] = (
            payload_json,
            None,
            None,
            chain.content(payload_json, None),
            dumps(name + rest)[:-1] + "\\n",
            name,
        )
    return row


#: The end of an event's element in a game's events JSON, by its text: the text as a
#: JSON string without its opening quote (most texts recur from game to game).
_TEXT_JSON: dict[str, str] = {}


def _text_json(text: str) -> str:
    """``text`` as a JSON string without its opening quote (cached)."""
    out = _TEXT_JSON.get(text)
    if out is None:
        if len(_TEXT_JSON) >= CACHE_LIMIT:
            _TEXT_JSON.clear()
        out = _TEXT_JSON[text] = encode_basestring(text)[1:]
    return out


def stored_texts(
    rules: GameRules, events: Sequence[Any], marks: Sequence[bool], names: Sequence[str]
) -> list[str]:
    """The text of each of a stored game's events (engine events, in order, with their
    played-illegally marks), as an import or an append writes it (the fold's texts,
    :class:`engine.fold.Fold`).  Stops after the first event that no longer replays,
    whose text is the one it would have had."""
    folded = Fold(rules, names, every=None, texts=True)
    for event, mark in zip(events, marks, strict=True):
        try:
            folded.push(event, mark and type(event) is not Retraction)
        except EngineError:
            return [*(folded.texts or []), folded.text(event)]
    return folded.texts or []


def clean_meta(raw: Any, number: int, cls: type[Any]) -> dict[str, Any] | None:
    """A logger's meta, validated, with default values left out (None when empty)."""
    if raw is None:
        return None
    problem = meta_problem(raw)
    if problem is not None:
        raise cls(number, problem[1], problem[0])
    unstorable = unstorable_in(raw, "meta")
    if unstorable is not None:
        raise cls(number, unstorable[1], unstorable[0])
    out: dict[str, Any] = {}
    if raw.get("comment"):
        out["comment"] = raw["comment"]
    if raw.get("annotations"):
        out["annotations"] = list(raw["annotations"])
    if raw.get("played_illegally"):
        out["played_illegally"] = True
    return out or None


#: The flagged events of a fold: (event number, its violations) of each event played
#: though illegal that the rules refuse.
Flagged = list[tuple[int, list[Violation]]]


def fold_events(
    kind: str,
    rules: GameRules,
    fold: Fold,
    parsed: Sequence[Any],
    metas: Sequence[dict[str, Any] | None] | None,
    cls: type[Any],
    players: Sequence[str | None] | None = None,
) -> tuple[list[_Row], Flagged]:
    """Fold ``parsed`` onto ``fold`` (:class:`engine.fold.Fold`, which keeps their texts)
    as the events after its step, those whose meta says played illegally forced
    (``metas`` None: no event has meta); their :data:`_Row` and flagged events.  With
    ``players`` (a file saying who made each event), each named player must be the one
    the rules say acts, so a move entered for the wrong player is refused rather than
    applied to the other.  ``cls`` (ImportRejected, AppendRejected) names the first
    event refused; nothing of it is folded."""
    first = fold.step + 1
    marks = None if metas is None else [bool(m and m.get("played_illegally")) for m in metas]
    try:
        if players is None:
            fold.extend(parsed, marks)
        else:
            _extend_by_player(rules, fold, parsed, marks, players, cls)
    except EngineError as err:
        number = fold.step + 1
        if not isinstance(err, IllegalMoveError):
            raise cls(number, str(err)) from None
        if marks and marks[number - first]:
            raise cls(
                number,
                "marked as played illegally, but it cannot be replayed even as played: "
                + "; ".join(str(v) for v in err.violations),
            ) from None
        raise cls(number, err.violations) from None
    return event_rows(kind, rules, parsed, metas, fold.flagged, first)


def _extend_by_player(
    rules: GameRules,
    fold: Fold,
    parsed: Sequence[Any],
    marks: Sequence[bool] | None,
    players: Sequence[str | None],
    cls: type[Any],
) -> None:
    names = list(fold.head.names)
    for i, event in enumerate(parsed):
        player = players[i] if i < len(players) else None
        if player is not None:
            number = fold.step + 1
            seat = rules.acting_seat(fold.head, event)
            if seat is None:
                raise cls(number, f"the file says {player} made it, but no player makes it", "by")
            if names[seat] != player:
                raise cls(
                    number,
                    f"the file says {player} made it, but it is {names[seat]}'s to make",
                    "by",
                )
        fold.push(event, bool(marks and marks[i]))


def event_rows(
    kind: str,
    rules: GameRules,
    events: Sequence[Any],
    metas: Sequence[dict[str, Any] | None] | None,
    violations: Mapping[int, list[Violation]],
    first: int,
) -> tuple[list[_Row], Flagged]:
    """The :data:`_Row` of each of ``events`` (checked or forced already, numbered from
    ``first``), and those flagged: ``violations`` by event number, of the events played
    though illegal that the rules refuse."""
    if metas is None:
        cache = _CANONICAL.get(kind) or {}
        return [cache.get(e) or canonical(kind, rules, e) for e in events], []
    rows: list[_Row] = []
    flagged: Flagged = []
    for i, event in enumerate(events):
        refused = violations.get(first + i, [])
        if refused:
            flagged.append((first + i, refused))
        rows.append(event_row(kind, rules, event, metas[i], refused))
    return rows, flagged


def event_row(
    kind: str,
    rules: GameRules,
    event: Any,
    meta: dict[str, Any] | None,
    violations: Sequence[Violation] = (),
) -> _Row:
    """The :data:`_Row` of an event checked or forced already, with its meta and, for one
    played though illegal, its violations (kept in the stored meta, outside the chain)."""
    row = canonical(kind, rules, event)
    if meta is None:
        return row
    payload_json = row[0]
    user_json = dumps_sorted(meta)
    stored_json = user_json
    if violations:
        stored = dict(meta)
        stored["violations"] = [v.to_dict() for v in violations]
        stored_json = dumps_sorted(stored)
    return (
        payload_json,
        stored_json,
        user_json,
        chain.content(payload_json, user_json),
        "",
        row[5],
    )


def checked_rows(
    kind: str,
    rules: GameRules,
    checked: Checked,
    metas: Sequence[dict[str, Any] | None],
    first: int,
) -> tuple[list[_Row], Flagged]:
    """The rows of events the engine checked and applied already (:class:`Checked`), and
    those flagged, numbered from ``first``."""
    violations = {first + i: v for i, v in checked.violations.items()}
    return event_rows(kind, rules, checked.events, metas, violations, first)


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
    """The id of a game imported without one: the first 12 hex digits of its digest."""
    return digest[:12]


def derived_event_id(game_id: str, sequence: int) -> str:
    """The id of an event stored without one: ``<game id>:<sequence>``.  Caller-given ids
    never contain ``:``, so the two kinds never collide; ids that follow their game keep
    the unique index's inserts local (each lands beside the last, in a page already at
    hand), where random UUIDs would scatter them over the whole index."""
    return f"{game_id}:{sequence}"


@dataclass(slots=True)
class _Fields:
    """A game's import record with its fields validated, before any event is folded."""

    kind: str
    rules: GameRules
    headers: dict[str, Any]
    headers_json: str
    metas: list[dict[str, Any] | None] | None
    parsed: list[Any]
    given_ids: list[str | None]
    times: tuple[str, tuple[str, ...]] | None
    names: tuple[str, ...]


def _checked_fields(record: GameImport) -> _Fields:
    """Every field of ``record`` validated (kind, headers, events, meta, ids, times) and
    its payloads parsed; ImportRejected names the first that is not right."""
    kind = record.kind
    if not isinstance(kind, str) or kind not in GAMES:
        raise ImportRejected(
            None, f"unknown game kind {kind!r} (known: {', '.join(sorted(GAMES))})", "kind"
        )
    rules = get_game(kind)
    problem = headers_problem(record.headers, rules.seats)
    if problem is not None:
        raise ImportRejected(None, problem[1], problem[0])
    unstorable = unstorable_in(record.headers, "headers")
    if unstorable is not None:
        raise ImportRejected(None, unstorable[1], unstorable[0])
    headers = dict(record.headers)
    headers_json = dumps_sorted(headers)
    parsed = record.engine_events()
    if parsed is None:
        raw_events = record.events
        if not isinstance(raw_events, list):
            raise ImportRejected(None, "expected a list of events", "events")
        n = len(raw_events)
    else:
        n = len(parsed)
    raw_meta = record.meta or []
    if len(raw_meta) > n:
        raise ImportRejected(None, f"{len(raw_meta)} meta entries for {n} events", "meta")
    if record.game_id is not None and (
        not isinstance(record.game_id, str) or not GAME_ID_RE.match(record.game_id)
    ):
        raise ImportRejected(None, "a game id is 1-64 letters, digits, '_' or '-'", "id")
    given_ids = check_event_ids(record.event_ids, n, ImportRejected)
    times = _times(record, n)

    metas: list[dict[str, Any] | None] | None = None
    if any(m is not None for m in raw_meta):
        metas = [clean_meta(m, i, ImportRejected) for i, m in enumerate(raw_meta, start=1)]
        metas += [None] * (n - len(metas))
        if all(m is None for m in metas):
            metas = None
    if parsed is None:
        parsed = [
            parse_payload(rules, raw, i, ImportRejected)
            for i, raw in enumerate(raw_events, start=1)
        ]
    names = seat_names(headers, rules.seats)
    return _Fields(kind, rules, headers, headers_json, metas, parsed, given_ids, times, names)


def _check_result(rules: GameRules, headers: dict[str, Any], state: Any) -> None:
    """ImportRejected when the outcome the headers state is not where the moves end."""
    problem_of_result = rules.result_problem(headers, state)
    if problem_of_result is not None:
        header, message, violation = problem_of_result
        field = "headers.result" if header == "result" else f"headers.tags.{header}"
        said = f" ({violation.rule.cite()})" if violation.message in message else f": {violation}"
        raise ImportRejected(None, message + said, field)


def check_import(record: GameImport, state: Any = None) -> None:
    """What an import would refuse in ``record``, storing nothing (``tablelog validate``
    says it): its fields, and every event checked by the engine, unless ``state`` is
    given: the table after the record's events as the reader that made the record folded
    them (each checked, once); then the outcome the headers state against it."""
    c = _checked_fields(record)
    if state is None or record.players is not None:
        fold = Fold(c.rules, c.names, every=None)
        fold_events(c.kind, c.rules, fold, c.parsed, c.metas, ImportRejected, record.players)
        state = fold.head
    _check_result(c.rules, c.headers, state)


def prepare_game(record: GameImport) -> Prepared:
    """Validate a whole game and check every event with the engine (no database)."""
    c = _checked_fields(record)
    kind, rules, headers, headers_json = c.kind, c.rules, c.headers, c.headers_json
    metas, parsed, given_ids, times, names = c.metas, c.parsed, c.given_ids, c.times, c.names
    n = len(parsed)
    explicit = any(g is not None for g in given_ids)
    fold = record.folded
    if fold is not None and record.players is None and fold.events is parsed:
        # the reader's fold of these events (with their texts and snapshots)
        folded, flagged = event_rows(kind, rules, parsed, metas, fold.flagged, 1)
    else:
        fold = Fold(rules, names, every=STORED_EVERY, texts=True)
        folded, flagged = fold_events(
            kind, rules, fold, parsed, metas, ImportRejected, record.players
        )
    state, texts = fold.head, fold.texts or []
    position = rules.position
    snapshots = [(step, position(kept)) for step, kept in fold.snapshots() if step < n]
    if n:
        snapshots.append((n, position(state)))
    _check_result(rules, headers, state)
    if metas is None and not explicit:
        digest = _digest_plain(kind, headers_json, [r[0] for r in folded])
    else:
        digest = content_digest(
            kind, headers_json, [(r[0], r[2], e) for r, e in zip(folded, given_ids, strict=True)]
        )
    game_id = record.game_id or derived_game_id(digest)
    hashes = chain_hashes(kind, headers, folded)
    head = (hashes[-1] if hashes else chain.origin(kind, headers)).hex()
    tags = headers.get("tags")
    known = _TEXT_JSON.get
    flagged_count = 0 if metas is None else sum(1 for m in metas if m and m.get("played_illegally"))
    summary = projections.summary_record(rules, state, names)
    return Prepared(
        kind=kind,
        game_id=game_id,
        headers_json=headers_json,
        game_row=(
            game_id,
            kind,
            dumps(names),
            headers.get("date"),
            headers.get("place"),
            None if tags is None else dumps_sorted(tags),
            headers_json,
            summary["status"],
            head,
        ),
        summary_row=projections.summary_row(
            game_id,
            kind,
            headers.get("date"),
            summary,
            n,
            flagged_count,
            void=projections.void_reason(headers) is not None,
        ),
        events_json=(
            "["
            + ",".join(
                [r[4] + (known(t) or _text_json(t)) for r, t in zip(folded, texts, strict=True)]
            )
            + "]"
            if metas is None
            else dumps(
                [
                    [*split_type(r[0]), t] if r[1] is None else [*split_type(r[0]), t, r[1]]
                    for r, t in zip(folded, texts, strict=True)
                ]
            )
        ),
        with_meta=metas is not None,
        event_count=n,
        event_ids=given_ids if explicit else None,
        flagged=flagged,
        setup_json=folded[0][0] if folded else None,
        derived=record.game_id is None and not explicit,
        head=head,
        hashes=b"".join(hashes),
        times=times,
        snapshots=tuple(snapshots),
        types=frozenset([r[5] for r in folded]) - _UNTYPED,
        review_json=None if not record.review else dumps(record.review),
    )


def _times(record: GameImport, n: int) -> tuple[str, tuple[str, ...]] | None:
    """The game's kept times (:attr:`Prepared.times`), each a text, one per event."""
    if record.recorded_at is None and record.created_at is None:
        return None
    recorded = record.recorded_at or []
    if (
        not isinstance(record.created_at, str)
        or not isinstance(recorded, list)
        or len(recorded) != n
        or not all(isinstance(t, str) and t for t in recorded)
        or not _times_read(record.created_at, recorded)
    ):
        raise ImportRejected(
            None, f"expected a creation time and {n} recorded-at times, one per event", "times"
        )
    # (each recorded time as it reads back: the store keeps milliseconds)
    return record.created_at, tuple([canonical_time(t) for t in recorded])


def _times_read(created: str, recorded: Sequence[str]) -> bool:
    """Whether every kept time reads as a time (the store keeps each as milliseconds)."""
    try:
        time_ms(created)
        for t in recorded:
            time_ms(t)
    except ValueError:
        return False
    return True


def chain_hashes(
    kind: str, headers: dict[str, Any], folded: Sequence[_Row], start: bytes | None = None
) -> list[bytes]:
    """The raw hash of each step of ``folded`` (:mod:`recorder.chain`), chained from
    ``start`` (a raw hash; default the game's origin)."""
    h = chain.origin(kind, headers) if start is None else start
    link = chain.link
    out: list[bytes] = []
    append = out.append
    for row in folded:
        h = link(h, row[3])
        append(h)
    return out


#: The type of a payload kept whole (:func:`recorder.stored.split_type`).
_UNTYPED = frozenset([""])


def prepare_or_error(record: GameImport) -> Prepared | ImportRejected:
    """:func:`prepare_game`, or the error that refused the game."""
    try:
        return prepare_game(record)
    except ImportRejected as err:
        return err


def check_event_ids(ids: Any, n: int, cls: type[Any]) -> list[str | None]:
    """Event ids given by a caller, one per event, each well formed and given once."""
    if ids is None:
        return [None] * n
    if not isinstance(ids, list | tuple) or len(ids) != n:
        raise cls(None, f"expected {n} event ids, one per event", "event_ids")
    seen: set[str] = set()
    for i, eid in enumerate(ids, start=1):
        if eid is None:
            continue
        if not isinstance(eid, str) or not EVENT_ID_RE.match(eid):
            raise cls(i, "an event id is 1-100 letters, digits, '_', '.' or '-'", "event_id")
        if eid in seen:
            raise cls(i, f"event id {eid!r} is given twice", "event_id")
        seen.add(eid)
    return list(ids)


def user_meta_json(meta_text: str | None) -> str | None:
    """The logger's part of a stored meta JSON (its violations left out), as sorted JSON."""
    return chain.logger_meta(meta_text)
