"""Game files in and out: JSON game files, text notation files, canonical JSON export.

A JSON game file::

    {"format": "tablelog-game", "version": 1, "kind": "<the game's kind>",
     "id": "optional-id",
     "headers": {"players": ["Ann", "Bo"], "date": "2024-05-01", ...},
     "events": [{"type": "<the setup's type>", ...},
                {"type": "<a decision's type>", "<its field>": ...,
                 "meta": {"comment": "greedy"}}, ...]}

(each event is its game's payload: ``GameRules.event_to_dict``).

A file may also hold a list of such objects.  Text notation files (``*.tl``, or text that
starts with ``[``) are read by their game's reader (``[Game "..."]`` names the game, see
:func:`engine.games.game_for_notation`).  :func:`read_file` is the one reading of a file,
shared by importing (:func:`load_file`) and validating (:mod:`recorder.validate`), so both
judge a file alike.

:func:`export_json` writes the canonical form: keys sorted, 2-space indent, a trailing
newline, ``id`` only when it is not the one derived from the content, ``meta`` only when
a logger wrote something, ``event_id`` only when it was given rather than derived.  So
importing a canonical file and exporting it again gives the same bytes.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from engine.games import DEFAULT_KIND, UnknownGameKind, game_for_notation, get_game
from engine.protocol import GameRules, ParsedGame, seat_names

from .chain import dumps_sorted
from .checks import (
    EVENT_ID_RE,
    FILE_FORMAT,
    FILE_PAYLOAD_VERSION,
    FILE_VERSION,
    headers_problem,
    meta_problem,
)
from .errors import ImportRejected, unstorable_at, unstorable_in
from .pipeline import DEFAULT_BATCH, Tagged, fork_is_safe
from .prepare import (
    STORED_EVERY,
    content_digest,
    derived_event_id,
    derived_game_id,
    dumps,
    parse_payload,
    prepare_or_error,
)
from .projections import VOID_TAG
from .records import GameImport, ImportResult

if TYPE_CHECKING:
    from .protocol import Recorder

NOTATION_SUFFIXES = (".tl",)


def game_import_from_events(
    events: Sequence[Any],
    headers: Mapping[str, Any],
    meta: Sequence[Mapping[str, Any] | None] | None = None,
    *,
    kind: str = DEFAULT_KIND,
    game_id: str | None = None,
) -> GameImport:
    """A :class:`GameImport` from engine event objects (a simulated game, a parsed log):
    the events are its ``parsed``, each payload made when ``events`` is first read.

    >>> import random
    >>> rules = get_game(DEFAULT_KIND)
    >>> events = rules.random_game(random.Random(1))
    >>> record = game_import_from_events(events, {"players": ["Ann", "Bo"]})
    >>> record.kind == DEFAULT_KIND, record.events[0] == rules.event_to_dict(events[0])
    (True, True)
    """
    get_game(kind)  # (an unknown kind refused here, not when the payloads are made)
    return GameImport.of_events(
        kind,
        dict(headers),
        list(events),
        [None if m is None else dict(m) for m in meta] if meta is not None else None,
        game_id,
    )


# --- loading -----------------------------------------------------------------------------


@dataclass
class FileRead:
    """One reading of a game file: its ``source`` name and either the ``notation`` game
    its game's reader made of it (with that game's ``rules``), or its ``games`` as JSON
    documents turned into :class:`GameImport` records."""

    source: str
    rules: GameRules | None = None
    notation: ParsedGame | None = None
    games: list[GameImport] | None = None


def read_file(
    path: str | os.PathLike[str], *, stop_at_first_error: bool = True, to_store: bool = False
) -> FileRead:
    """Read a game file, JSON or text notation (detected from the name and content).

    Raises :class:`ImportRejected` naming the file and the place when the file cannot be
    read as a game file at all (not UTF-8, bad JSON, an unknown game, a bad JSON game);
    a notation game is read whole and its errors are left in ``notation.errors``
    (up to the first unless ``stop_at_first_error`` is False).  ``to_store``: a notation
    game is read to be stored, its fold keeping what the store keeps (each event's
    text, the snapshots), so that it is not folded again."""
    source = str(path)
    return read_text(
        decode(file_bytes(path), source),
        source,
        stop_at_first_error=stop_at_first_error,
        to_store=to_store,
    )


def file_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a game file, at most :data:`MAX_FILE_BYTES`: ImportRejected naming
    the file when it cannot be read, is a folder, or holds more (a file whose size says
    so is refused unread; a device or a pipe that never ends, after the limit)."""
    source = str(path)
    try:
        size = os.stat(path).st_size
        if size > MAX_FILE_BYTES:
            raise ImportRejected(None, f"a file of {size:,} bytes; {_LIMIT}", source=source)
        with open(path, "rb") as f:
            return bounded_read(f, source)
    except IsADirectoryError:
        patterns = ", ".join(f"*{suffix}" for suffix in GAME_SUFFIXES)
        raise ImportRejected(
            None, f"a folder holding no game file ({patterns})", source=source
        ) from None
    except OSError as err:
        raise ImportRejected(
            None, f"cannot read the file: {err.strerror or err}", source=source
        ) from None


def bounded_read(stream: BinaryIO, source: str) -> bytes:
    """All of ``stream`` (a file, standard input) up to :data:`MAX_FILE_BYTES`;
    ImportRejected naming ``source`` when it holds more, having read one byte more."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ImportRejected(None, f"more than {MAX_FILE_BYTES:,} bytes; {_LIMIT}", source=source)
    return data


#: The endings of the game files a folder is searched for.
GAME_SUFFIXES = (".tl", ".json")


def game_files(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """``paths`` with each folder replaced by the game files in it and its subfolders
    (:data:`GAME_SUFFIXES`; folders linked to are not entered), in name order, folder
    by folder; a folder holding none stays, for the reading to refuse it by name.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("b.tl", "a.json", "notes.txt", "old/c.tl", "old.x/d.tl"):
    ...         Path(tmp, name).parent.mkdir(exist_ok=True)
    ...         _ = Path(tmp, name).write_text("")
    ...     [os.path.relpath(p, tmp) for p in game_files([tmp])]
    ['a.json', 'b.tl', 'old/c.tl', 'old.x/d.tl']
    """
    out: list[str] = []
    for given in paths:
        path = str(Path(given))  # (as written, less a trailing slash or a leading ./)
        if not os.path.isdir(path):
            out.append(path)
            continue
        # (os.walk and strings, not Path.rglob: a Path made and sorted for each file costs
        # as much as listing the folder, before any file is read)
        found = [
            os.path.join(top, name)
            for top, _, names in os.walk(path)
            for name in names
            if name.endswith(GAME_SUFFIXES)
        ]
        found = [f for f in found if os.path.isfile(f)]  # (not a fifo, a link to nothing)
        found.sort(key=lambda f: f.split(os.sep))
        out.extend(found or [path])
    return out


def decode(data: bytes, source: str) -> str:
    """A game file's bytes as text (UTF-8, a byte order mark dropped); ImportRejected
    names the line and column of the first byte that is not UTF-8.

    >>> try:
    ...     decode("Caf\u00e9".encode("latin-1"), "game.tl")
    ... except ImportRejected as err:
    ...     print(err)
    game.tl:1:4: not UTF-8 text (byte 4, 0xe9): save the file as UTF-8
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        start = data.rfind(b"\n", 0, err.start) + 1
        line = data.count(b"\n", 0, err.start) + 1
        column = len(data[start : err.start].decode("utf-8-sig", "replace")) + 1
        raise ImportRejected(
            None,
            f"not UTF-8 text (byte {err.start + 1}, 0x{data[err.start]:02x}): "
            "save the file as UTF-8",
            source=source,
            line=line,
            column=column,
        ) from None


#: The largest game file read (a JSON archive of tens of thousands of games fits).
MAX_FILE_BYTES = 64 * 1024 * 1024
_LIMIT = f"the limit is {MAX_FILE_BYTES:,} (split the games into several files)"
#: The longest line of a notation file: a turn with a long comment is a few hundred characters;
#: a longer line is refused before it is read (reading it costs memory by its length).
MAX_LINE_CHARS = 100_000


#: The deepest nesting of lists and objects in a JSON game file: a file of games is six
#: deep (list, game, events, event, meta, annotations), a payload two or three more.
MAX_JSON_DEPTH = 32
_TOO_DEEP = f"invalid JSON: nested too deeply; the limit is {MAX_JSON_DEPTH} levels"


def _depth_within(value: Any, limit: int) -> bool:
    """Whether no list or object in ``value`` lies more than ``limit`` levels deep (a walk
    without recursion: the walkers after it, schemas and messages, may recurse)."""
    stack = [(value, 1)] if type(value) is dict or type(value) is list else []
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        children = item.values() if type(item) is dict else item
        if depth > limit:
            return False
        for child in children:
            if type(child) is dict or type(child) is list:
                push((child, depth + 1))
    return True


#: The largest notation file, in characters and in lines: one game's notation is a few
#: kilobytes and a few hundred lines, with long comments a few hundred kilobytes.  The
#: reader keeps an object per line, so these bound its memory (about 30 MB at the limit).
MAX_NOTATION_CHARS = 4_000_000
MAX_NOTATION_LINES = 100_000


def _refuse_large_notation(text: str, source: str) -> None:
    """ImportRejected for a notation file over :data:`MAX_NOTATION_CHARS` characters or
    :data:`MAX_NOTATION_LINES` lines, before it is read."""
    lines = text.count("\n") + 1
    if lines > MAX_NOTATION_LINES:
        raise ImportRejected(
            None,
            f"a notation file of {lines:,} lines; the limit is {MAX_NOTATION_LINES:,}",
            source=source,
            line=MAX_NOTATION_LINES + 1,
        )
    if len(text) > MAX_NOTATION_CHARS:
        raise ImportRejected(
            None,
            f"a notation file of {len(text):,} characters; the limit is "
            f"{MAX_NOTATION_CHARS:,} (one game's notation)",
            source=source,
        )


def _refuse_long_lines(text: str, source: str) -> None:
    """ImportRejected at the first line longer than :data:`MAX_LINE_CHARS`."""
    if len(text) <= MAX_LINE_CHARS:
        return
    start = 0
    line = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_LINE_CHARS:
            raise ImportRejected(
                None,
                f"a line of {stop - start:,} characters; the limit is {MAX_LINE_CHARS:,}",
                source=source,
                line=line,
                column=MAX_LINE_CHARS + 1,
            )
        if end < 0:
            return
        start = end + 1
        line += 1


def _refuse_unstorable(text: str, source: str) -> None:
    """ImportRejected at the line and column of a character no store keeps in ``text``
    (:func:`recorder.errors.unstorable_at`)."""
    found = unstorable_at(text)
    if found is not None:
        at, what = found
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise ImportRejected(None, what, source=source, line=line, column=column)


def read_text(
    text: str, source: str = "<string>", *, stop_at_first_error: bool = True, to_store: bool = False
) -> FileRead:
    """:func:`read_file` of ``text``; ``source`` names it in errors."""
    _refuse_unstorable(text, source)
    if not text.strip():
        raise ImportRejected(
            None,
            "no game here: expected a game in notation (its headers, then the setup) or a "
            "JSON game file",
            source=source,
            line=1,
            column=1,
        )
    if _is_notation(text, source):
        _refuse_long_lines(text, source)  # JSON may stand on one line: its reader is linear
        _refuse_large_notation(text, source)
        try:
            rules = game_for_notation(text)
        except UnknownGameKind as err:
            raise ImportRejected(None, str(err.args[0]), source=source) from None
        parsed = rules.read_game(
            text,
            source,
            stop_at_first_error=stop_at_first_error,
            texts=to_store,
            every=STORED_EVERY if to_store else None,
        )
        return FileRead(source, rules=rules, notation=parsed)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ImportRejected(
            None, f"invalid JSON: {err.msg}", source=source, line=err.lineno, column=err.colno
        ) from None
    except RecursionError:
        raise ImportRejected(None, _TOO_DEEP, source=source) from None
    except ValueError:  # the one other refusal of json: an integer too long to convert
        raise ImportRejected(
            None,
            f"invalid JSON: a number of more than {sys.get_int_max_str_digits()} digits",
            source=source,
        ) from None
    if not _depth_within(data, MAX_JSON_DEPTH):
        raise ImportRejected(None, _TOO_DEEP, source=source)
    if "\\u" in text:  # an escape may stand for half a character, or a NUL
        found = unstorable_in(data)
        if found is not None:
            where, what = found
            raise ImportRejected(
                None, f"{where or 'the document'}: {what} (a \\u escape)", source=source
            )
    if isinstance(data, list):
        if not data:
            raise ImportRejected(None, "the file holds an empty list of games", source=source)
        games = [
            game_import_from_document(item, source=source, game=i)
            for i, item in enumerate(data, start=1)
        ]
    else:
        games = [game_import_from_document(data, source=source)]
    return FileRead(source, games=games)


def load_file(path: str | os.PathLike[str]) -> list[GameImport]:
    """The games in a file, JSON or text notation (detected from the name and content).

    Raises :class:`ImportRejected` naming the file and the place (line and column for
    bad JSON or notation; event number and field for a bad event) on the first problem.
    Nothing is written: pass the result to :meth:`Recorder.import_game`.
    """
    return _games_of(read_file(path, to_store=True))


def load_text(text: str, source: str = "<string>") -> list[GameImport]:
    """The games in ``text`` (see :func:`load_file`); ``source`` names it in errors."""
    return _games_of(read_text(text, source, to_store=True))


def _games_of(read: FileRead) -> list[GameImport]:
    """The games of a file read, or ImportRejected at a notation game's first error."""
    if read.games is not None:
        return read.games
    assert read.notation is not None and read.rules is not None
    parsed = read.notation
    if parsed.errors:
        err = parsed.errors[0]
        violations = list(getattr(err, "violations", None) or [])
        raise ImportRejected(
            None,
            violations or str(getattr(err, "message", err)),
            source=read.source,
            line=getattr(err, "line", None),
            column=getattr(err, "column", None),
        )
    # the reader's fold, when it kept what the store keeps: the game is not folded again
    fold = parsed.fold
    if fold is None or fold.texts is None or fold.events is not parsed.events:
        fold = None
    record = GameImport.of_events(
        read.rules.kind,
        dict(parsed.headers),
        parsed.events if fold is not None else list(parsed.events),
        [None if m is None else dict(m) for m in parsed.meta] if parsed.meta else None,
    )
    record.folded = fold
    if parsed.lines or parsed.review:
        # the file's review (its lines checked by the reader): stored apart from the record
        from . import review  # (few files hold one: a command reading others goes without)

        tags = parsed.headers.get("tags") or {}
        author = " ".join(str(tags.get("Annotator") or "imported").split())[:100] or "imported"
        items = review.from_parsed(read.rules, parsed)
        try:  # (as the store will fold it: a review a file holds is checked as any other)
            review.fold_review(
                read.rules,
                review.RecordFold.of(read.rules, parsed.fold),
                [review.ReviewEvent(i, k, b, author, "") for i, (k, b) in enumerate(items, 1)],
            )
        except review.ReviewRefused as err:
            raise ImportRejected(None, f"the review: {err}", source=read.source) from None
        record.review = [[kind, body, author] for kind, body in items]
    return [record]


def _is_notation(text: str, source: str) -> bool:
    lower = source.lower()
    if lower.endswith(NOTATION_SUFFIXES):
        return True
    if lower.endswith(".json"):
        return False
    head = text.lstrip()
    if not head.startswith("["):
        return False
    # A JSON list of games opens with "[" then "{" (or is empty); notation headers such
    # as [Players "Ann" "Bo"] open with "[" then a letter.
    rest = head[1:].lstrip()
    return not (rest.startswith("{") or rest.startswith("]") or rest == "")


def game_import_from_document(
    data: Any, *, source: str | None = None, game: int | None = None
) -> GameImport:
    """Validate one JSON game document (already parsed) and turn it into a GameImport.

    The envelope is checked with its marshmallow schema, the headers and meta by
    :mod:`recorder.checks`; each payload with the game's own parser.  The engine events
    are kept in the GameImport, so checking the game does not parse them again; its
    ``events`` are the document's own dicts (an event's ``meta`` and ``event_id`` taken
    out), not copies."""

    def reject(number: int | None, message: str, path: str | None) -> ImportRejected:
        return ImportRejected(number, message, path or None, source=source, game=game)

    from .schemas import file_errors  # marshmallow: only a JSON document has an envelope

    problem = file_errors(data)
    if problem is not None:
        raise reject(None, problem[1], problem[0])
    kind = data["kind"]
    rules = get_game(kind)
    problem = headers_problem(data["headers"], rules.seats)
    if problem is not None:
        raise reject(None, problem[1], problem[0])
    payload_version = FILE_PAYLOAD_VERSION[data["version"]]
    upcast = payload_version != rules.payload_version
    from_dict = rules.event_from_dict
    events: list[dict[str, Any]] = []
    parsed: list[Any] = []
    metas: list[dict[str, Any] | None] = []
    ids: list[str | None] = []
    players: list[str | None] = []
    names = seat_names(data["headers"], rules.seats)
    for number, item in enumerate(data["events"], start=1):
        meta = event_id = player = None
        if (
            type(item) is dict
            and not upcast
            and "meta" not in item
            and "event_id" not in item
            and "by" not in item
        ):
            payload = item  # the common case: a current payload and nothing else
        else:
            if not isinstance(item, Mapping):
                raise reject(number, "an event is a JSON object", None)
            payload = dict(item)
            meta = payload.pop("meta", None)
            event_id = payload.pop("event_id", None)
            player = payload.pop("by", None)
            if player is not None and player not in names:
                raise reject(
                    number,
                    f"{_shown(player)} is not one of the game's players ({', '.join(names)})",
                    "by",
                )
            if upcast:
                try:
                    payload = rules.upcast(payload, payload_version)
                except Exception as err:  # an upcaster meeting a malformed old payload
                    raise reject(
                        number, f"cannot bring the payload up to date: {err}", None
                    ) from None
            if meta is not None:
                problem = meta_problem(meta)
                if problem is not None:
                    raise reject(number, problem[1], problem[0])
            if event_id is not None and (
                not isinstance(event_id, str) or not EVENT_ID_RE.match(event_id)
            ):
                raise reject(
                    number, "an event id is 1-100 letters, digits, '_', '.' or '-'", "event_id"
                )
        try:
            parsed.append(from_dict(payload))
        except (TypeError, ValueError, KeyError, AttributeError):
            try:  # the same parse again, for the error with its number and field
                parsed.append(parse_payload(rules, payload, number, ImportRejected))
            except ImportRejected as err:
                raise _located(err, source, game) from None
        events.append(payload)
        metas.append(meta)
        ids.append(event_id)
        players.append(player)
    record = GameImport(
        kind=kind,
        headers=dict(data["headers"]),
        meta=metas,
        game_id=data.get("id"),
        event_ids=ids if any(i is not None for i in ids) else None,
        players=players if any(p is not None for p in players) else None,
    )
    record.parsed_from(events, parsed)
    return record


# --- importing files ---------------------------------------------------------------------

#: With this many files or more, :func:`default_jobs` may check games in processes.
PARALLEL_FROM = 32
#: Files per task sent to a checking process.
TASK_FILES = 8
#: With this many files or more, :func:`default_jobs` validates in spawned processes: a
#: spawned process imports the modules afresh (0.2 to 0.3 s of CPU, 60 to 90 games'
#: checking), so two of them pay on two cores from about 150 to 200 files of a game each.
SPAWNED_FROM = 200


def default_jobs(files: int, *, writing: bool = True) -> int:
    """How many processes should read and check games when importing ``files`` files
    (``writing``), or validating them.

    With many files, every core checks, in processes forked from this one where that is
    safe (:func:`recorder.pipeline.fork_is_safe`): a copy starts with the modules loaded,
    so it pays from :data:`PARALLEL_FROM` files; importing, this process writes
    meanwhile, and every core's checking outruns this one's checking while a thread of
    its own writes.

    Else the processes would be spawned, each importing the modules afresh: validating,
    that pays only from :data:`SPAWNED_FROM` files; importing, 1 (this process checks
    while a thread of its own writes: SQLite writes without Python's global lock, so two
    cores are kept busy), or with more than two cores every core but the writer's."""
    cores = os.cpu_count() or 1
    if cores < 2 or files < PARALLEL_FROM:
        return 1
    if fork_is_safe():
        return cores
    if not writing:
        return cores if files >= SPAWNED_FROM else 1
    return cores - 1 if cores > 2 else 1


def import_files(
    store: Recorder,
    paths: Sequence[str | os.PathLike[str]],
    *,
    jobs: int = 1,
    batch_size: int = DEFAULT_BATCH,
) -> Iterator[tuple[str, int | None, ImportResult | ImportRejected]]:
    """Import game files, JSON or notation, in order: each file is read and validated and
    every game checked by the engine, here while a thread writes, or with ``jobs`` > 1 in
    that many processes while this one writes (``batch_size`` games per transaction, each
    game whole or absent).

    Yields per game ``(source, game, result)``: ``game`` numbers the game in a file that
    holds several (else None); ``result`` is the :class:`ImportResult` or the
    :class:`ImportRejected` that refused it, naming the file and the place.  A file that
    cannot be read yields one ImportRejected.  Nothing is yielded before it is committed.
    """
    sources = [str(p) for p in paths]
    numbered = list(enumerate(sources))
    if jobs > 1 and len(sources) > 1:
        size = TASK_FILES
    else:
        jobs, size = 0, 1
    tasks = (numbered[i : i + size] for i in range(0, len(numbered), size))
    ahead = 2 * batch_size // size + jobs
    for written in store.import_stream(tasks, _load_and_prepare, jobs, batch_size, ahead):
        for (index, game), result in written:
            yield sources[index], game, result


def _load_and_prepare(
    files: Sequence[tuple[int, str]],
) -> list[Tagged]:
    """A checking process's task for :func:`import_files`: read files and prepare their
    games, each tagged with (file index, game number in the file or None)."""
    out: list[Tagged] = []
    for index, source in files:
        try:
            games = load_file(source)
        except ImportRejected as err:
            out.append(((index, None), _located(err, source, None)))
            continue
        several = len(games) > 1
        games.reverse()  # taken from the end, each game's documents freed once prepared
        number = 0
        while games:
            record = games.pop()
            number += 1
            game = number if several else None
            item = prepare_or_error(record)
            if isinstance(item, ImportRejected):
                item = _located(item, source, game)
            out.append(((index, game), item))
    return out


def _shown(value: Any) -> str:
    """A value from a file, quoted and cut short for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _located(err: ImportRejected, source: str | None, game: int | None) -> ImportRejected:
    return cast(ImportRejected, err.located(source=source, game=game))


# --- exporting ---------------------------------------------------------------------------


def _exported_content(store: Recorder, game_id: str) -> tuple[str, dict[str, Any], list[Any]]:
    """The game's content as exported: a game voided after it was stored says so in its
    headers' tags (``[Void "reason"]``), which an import keeps."""
    kind, headers, stored = store.stored_content(game_id)
    reason = store.game(game_id).void
    found = headers.get("tags")
    tags: dict[str, Any] = found if isinstance(found, dict) else {}
    if reason is not None and VOID_TAG not in tags:
        headers = {**headers, "tags": {**tags, VOID_TAG: reason}}
    return kind, headers, stored


def game_document(store: Recorder, game_id: str) -> dict[str, Any]:
    """The canonical JSON document of a stored game (see the module docstring)."""
    kind, headers, stored = _exported_content(store, game_id)
    items = []
    digest_rows = []
    for ev in stored:
        item: dict[str, Any] = dict(ev.payload)
        user_meta = {k: v for k, v in ev.meta.items() if k != "violations"}
        if user_meta:
            item["meta"] = user_meta
        explicit = ev.event_id != derived_event_id(game_id, ev.sequence)
        if explicit:
            item["event_id"] = ev.event_id
        items.append(item)
        digest_rows.append(
            (
                dumps(ev.payload),
                dumps_sorted(user_meta) if user_meta else None,
                ev.event_id if explicit else None,
            )
        )
    doc: dict[str, Any] = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "kind": kind,
        "headers": headers,
        "events": items,
    }
    digest = content_digest(kind, dumps_sorted(headers), digest_rows)
    if derived_game_id(digest) != game_id:
        doc["id"] = game_id
    return doc


def export_json(store: Recorder, game_id: str) -> str:
    """The game as canonical JSON text: sorted keys, 2-space indent, trailing newline."""
    return (
        json.dumps(game_document(store, game_id), indent=2, sort_keys=True, ensure_ascii=False)
        + "\n"
    )


def export_notation(store: Recorder, game_id: str, *, main_line: bool = False) -> str:
    """The game in its game's text notation (``rules.write_game``), with its review (the
    saved lines, marks and notes added after the game) unless ``main_line``."""
    from . import review

    _, headers, _ = _exported_content(store, game_id)
    return review.write_notation(store, game_id, headers, main_line)
