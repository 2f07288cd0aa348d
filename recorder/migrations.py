"""The database schema, as an ordered list of migrations.

Each migration runs once, inside the same ``BEGIN IMMEDIATE`` transaction that records it
in ``schema_migrations`` and sets ``PRAGMA user_version``; :meth:`EventStore.open` applies
the pending ones.  A database whose version is newer than the last migration here is
refused rather than guessed at.

The tables, in the words of the game:

* ``games`` — one row per game: id, kind, headers (JSON) and the header facts worth a
  column (players, date, place, tags), status, created and last-activity times;
* ``events`` — the record itself: one row per event, numbered from 1 in each game, append
  only (triggers refuse UPDATE, DELETE and INSERT OR REPLACE, and an insert out of
  sequence); event ids given by a writer are unique (a partial index), and a derived id
  (``<game id>:<sequence>``) must be its own row's (a CHECK);
* ``game_summaries`` and ``game_players`` — projections for listing and filtering, updated
  in the same transaction as the events and rebuildable from them; a game's players are
  its ``game_players`` rows, one per seat, however many seats it has (migration 3);
* ``snapshots`` — a cache: a game's position string after a step (migration 4);
* ``recorder_keys`` — the hash of each game's recorder key (migration 5);
* ``review_events`` and ``review_keys`` — each game's review (lines saved after the game,
  marks and notes), append-only and apart from the record, and its key (migration 12);
* each event's ``hash`` and each game's ``head`` — the chain that makes a change to the
  record evident (:mod:`recorder.chain`, migration 6); the games' identity is kept by
  triggers that refuse, whatever the connection's settings, deleting or replacing a game
  and changing its id, kind, players, headers or creation time;
* each event's canonical ``text`` (migration 8), and a row that carries nothing twice: an
  event id only when a writer gave one (a derived one is read from the event's place), no
  type (the payload's), and the time as milliseconds, only where it differs from the
  event before's;
* a row that costs what it carries (migration 9): games numbered in order of creation
  (``games.no``), events and snapshots keyed by that number, and each event's type as a
  number (``event_types``, per game kind) beside the rest of its payload;
* an index per order and filter of the games list, each game's creation time kept in its
  summary for it (migration 10);
* views ``game_list`` and ``event_log`` for reading the file in any SQLite tool.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from engine.errors import EngineError
from engine.games import UnknownGameKind, get_game
from engine.protocol import seat_names

from . import chain
from .errors import CorruptEvent
from .prepare import stored_texts
from .records import canonical_time, time_ms, time_text
from .stored import PAYLOAD, decode, pack_position, parse_stored, split_type

APPEND_ONLY = "events are append-only"

MIGRATION_1 = f"""
CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at TEXT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    players TEXT NOT NULL CHECK (json_valid(players)),
    date TEXT,
    place TEXT,
    tags TEXT CHECK (tags IS NULL OR json_valid(tags)),
    headers TEXT NOT NULL CHECK (json_valid(headers)),
    status TEXT NOT NULL CHECK (status IN ('setup', 'playing', 'finished')),
    created_at TEXT NOT NULL,
    last_activity TEXT NOT NULL
);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(id),
    sequence INTEGER NOT NULL CHECK (sequence >= 1),
    event_id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    payload_version INTEGER NOT NULL,
    meta TEXT CHECK (meta IS NULL OR json_valid(meta)),
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (game_id, sequence)
) WITHOUT ROWID;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT,
        '{APPEND_ONLY}: a stored event cannot be changed (record a correction as a new event)');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a stored event cannot be deleted');
END;

-- Fires before any conflict resolution, so INSERT OR REPLACE / OR IGNORE on a stored
-- event is refused too (a REPLACE would otherwise delete the stored row without firing
-- the delete trigger unless recursive_triggers is on).  Three index look-ups: the event
-- before exists (or this is event 1), none at or after it, and the event id is new.
CREATE TRIGGER events_append_in_sequence BEFORE INSERT ON events
WHEN (NEW.sequence > 1 AND NOT EXISTS (
        SELECT 1 FROM events WHERE game_id = NEW.game_id AND sequence = NEW.sequence - 1))
    OR EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id AND sequence >= NEW.sequence)
    OR EXISTS (SELECT 1 FROM events WHERE event_id = NEW.event_id)
BEGIN
    SELECT RAISE(ABORT,
        '{APPEND_ONLY}: a new event follows the last of its game, under a new event id');
END;

CREATE TRIGGER games_keep_identity
BEFORE UPDATE OF id, kind, players, date, place, tags, headers, created_at ON games
BEGIN
    SELECT RAISE(ABORT, 'a game''s id, kind, headers and creation time cannot be changed');
END;

CREATE TRIGGER games_keep_recorded BEFORE DELETE ON games
WHEN EXISTS (SELECT 1 FROM events WHERE game_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a game with recorded events cannot be deleted');
END;

CREATE TABLE game_summaries (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    kind TEXT NOT NULL,
    player_0 TEXT,
    player_1 TEXT,
    date TEXT,
    status TEXT NOT NULL,
    winner INTEGER,
    winner_name TEXT,
    condition TEXT,
    turns INTEGER NOT NULL,
    to_move INTEGER,
    event_count INTEGER NOT NULL,
    flagged_count INTEGER NOT NULL,
    last_activity TEXT NOT NULL
);
CREATE INDEX game_summaries_by_activity ON game_summaries (last_activity DESC, game_id);
CREATE INDEX game_summaries_by_date ON game_summaries (date);

CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL COLLATE NOCASE,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_by_name ON game_players (name);

CREATE VIEW game_list AS
SELECT
    s.game_id AS id,
    s.date,
    s.player_0 || ' vs ' || s.player_1 AS players,
    g.place,
    s.status,
    s.winner_name AS winner,
    s.condition,
    s.turns,
    s.event_count AS events,
    s.flagged_count AS played_illegally,
    s.last_activity
FROM game_summaries AS s JOIN games AS g ON g.id = s.game_id;

CREATE VIEW event_log AS
SELECT
    e.game_id,
    e.sequence,
    e.type,
    CASE e.type
        WHEN 'tokens_taken' THEN
            (SELECT group_concat(value, ' ') FROM json_each(e.payload, '$.spaces'))
        WHEN 'card_purchased' THEN
            json_extract(e.payload, '$.card') || ' paying ' ||
            COALESCE((SELECT group_concat(value || ' ' || key, ', ')
                      FROM json_each(e.payload, '$.payment')), 'nothing')
        WHEN 'card_reserved' THEN
            COALESCE(json_extract(e.payload, '$.card'),
                     'level-' || json_extract(e.payload, '$.deck') || ' deck') ||
            ' with the Gold on ' || json_extract(e.payload, '$.gold')
        WHEN 'privilege_spent' THEN json_extract(e.payload, '$.space')
        WHEN 'bonus_token_taken' THEN json_extract(e.payload, '$.space')
        WHEN 'color_copied' THEN json_extract(e.payload, '$.color')
        WHEN 'token_stolen' THEN json_extract(e.payload, '$.color')
        WHEN 'royal_taken' THEN json_extract(e.payload, '$.royal')
        WHEN 'card_revealed' THEN json_extract(e.payload, '$.card')
        WHEN 'card_identified' THEN
            'player ' || json_extract(e.payload, '$.player') || ': ' ||
            json_extract(e.payload, '$.card')
        WHEN 'player_resigned' THEN 'player ' || json_extract(e.payload, '$.player')
        WHEN 'tokens_discarded' THEN
            (SELECT group_concat(value || ' ' || key, ', ')
             FROM json_each(e.payload, '$.tokens'))
        WHEN 'board_replenished' THEN
            (SELECT group_concat(value, ' ') FROM json_each(e.payload, '$.tokens'))
        WHEN 'game_set_up' THEN
            'player ' || json_extract(e.payload, '$.first_player') || ' starts'
        ELSE NULL
    END AS details,
    json_extract(e.meta, '$.comment') AS comment,
    COALESCE(json_extract(e.meta, '$.played_illegally'), 0) AS played_illegally,
    e.payload,
    e.payload_version,
    e.event_id,
    e.recorded_at
FROM events AS e;
"""

# Migration 2 rebuilds the events table (SQLite cannot change a column's constraints in
# place) with the same columns and rows, for cheaper inserts:
#
# * derived event ids (``<game id>:<sequence>``) are tied to their row by a CHECK, so they
#   are unique because the primary key is, and only ids given by a writer (never holding
#   ``:``) need the unique index, now a partial one: one index insert less per event;
# * the append trigger makes two look-ups instead of three, and none for a derived id:
#   the new event's sequence must be one more than the game's last (this alone refuses an
#   INSERT OR REPLACE or OR IGNORE of a stored event, and any gap), and a given id must
#   not be stored yet.
#
# Together they leave each event one index entry and one look-up fewer to write and keep.
_EVENTS_V2 = """
CREATE TABLE events_v2 (
    game_id TEXT NOT NULL REFERENCES games(id),
    sequence INTEGER NOT NULL CHECK (sequence >= 1),
    event_id TEXT NOT NULL
        CHECK (instr(event_id, ':') = 0 OR event_id = game_id || ':' || sequence),
    type TEXT NOT NULL,
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    payload_version INTEGER NOT NULL,
    meta TEXT CHECK (meta IS NULL OR json_valid(meta)),
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (game_id, sequence)
) WITHOUT ROWID;
"""

MIGRATION_2 = (
    _EVENTS_V2
    + """
INSERT INTO events_v2 (game_id, sequence, event_id, type, payload, payload_version, meta,
                       recorded_at)
SELECT game_id, sequence, event_id, type, payload, payload_version, meta, recorded_at
FROM events ORDER BY game_id, sequence;

DROP VIEW event_log;
DROP TRIGGER games_keep_recorded;
DROP TRIGGER events_no_update;
DROP TRIGGER events_no_delete;
DROP TRIGGER events_append_in_sequence;
DROP TABLE events;
ALTER TABLE events_v2 RENAME TO events;

CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE instr(event_id, ':') = 0;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT,
        '{APPEND_ONLY}: a stored event cannot be changed (record a correction as a new event)');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a stored event cannot be deleted');
END;

-- Fires before any conflict resolution, so INSERT OR REPLACE / OR IGNORE on a stored
-- event is refused too (a REPLACE would otherwise delete the stored row without firing
-- the delete trigger unless recursive_triggers is on).  One index look-up (the game's
-- last sequence), and a second for an id given by a writer.
CREATE TRIGGER events_append_in_sequence BEFORE INSERT ON events
WHEN NEW.sequence <> 1 + COALESCE(
        (SELECT MAX(sequence) FROM events WHERE game_id = NEW.game_id), 0)
    OR (instr(NEW.event_id, ':') = 0 AND EXISTS (
        SELECT 1 FROM events WHERE event_id = NEW.event_id AND instr(event_id, ':') = 0))
BEGIN
    SELECT RAISE(ABORT,
        '{APPEND_ONLY}: a new event follows the last of its game, under a new event id');
END;

CREATE TRIGGER games_keep_recorded BEFORE DELETE ON games
WHEN EXISTS (SELECT 1 FROM events WHERE game_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a game with recorded events cannot be deleted');
END;
"""
    + MIGRATION_1[MIGRATION_1.index("CREATE VIEW event_log AS") :]
).replace("{APPEND_ONLY}", APPEND_ONLY)

# Migration 3 keeps the players of a game as a list, for any number of seats: the summary
# loses its two player columns, and ``game_list`` joins the names ``game_players`` holds,
# in seat order (nothing else changes, last activity included).
MIGRATION_3 = """
DROP VIEW game_list;
ALTER TABLE game_summaries DROP COLUMN player_0;
ALTER TABLE game_summaries DROP COLUMN player_1;

CREATE VIEW game_list AS
SELECT
    s.game_id AS id,
    s.date,
    (SELECT group_concat(name, ' vs ') FROM
        (SELECT p.name FROM game_players AS p WHERE p.game_id = s.game_id ORDER BY p.seat))
        AS players,
    g.place,
    s.status,
    s.winner_name AS winner,
    s.condition,
    s.turns,
    s.event_count AS events,
    s.flagged_count AS played_illegally,
    s.last_activity
FROM game_summaries AS s JOIN games AS g ON g.id = s.game_id;
"""

# Migration 4 keeps snapshots: a game's state after a step as its position string, so
# appending and reading the head fold only the steps after the nearest snapshot.  They are
# caches, written with the events in the same transaction (at the head, and every
# ``STORED_EVERY`` steps); deleting them all changes nothing but speed.  It also indexes
# each game's setup, by which an import finds a game stored under another id (the same
# game with or without its Result header, or a shorter record of it).
MIGRATION_4 = """
CREATE TABLE snapshots (
    game_id TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL CHECK (step >= 1),
    position TEXT NOT NULL,
    PRIMARY KEY (game_id, step)
) WITHOUT ROWID;

CREATE INDEX events_setup ON events (payload) WHERE sequence = 1;
"""

# Migration 5 keeps each game's recorder key, the secret that lets a phone write the game
# over HTTP, as its SHA-256 only (see :mod:`recorder.keys`).
MIGRATION_5 = """
CREATE TABLE recorder_keys (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    key_hash TEXT NOT NULL CHECK (length(key_hash) = 64),
    created_at TEXT NOT NULL
) WITHOUT ROWID;
"""

# Migration 6 chains the record (:mod:`recorder.chain`): each event gets the hash of its
# step, chained over the step before it (raw, 32 bytes: half the size of its hex, which
# the import would write for every event), and each game its head (hex).  SQLite cannot compute
# SHA-256, so the backfill is Python: the events table is rebuilt (as migration 2 did:
# a NOT NULL column with a CHECK cannot be added to a table holding rows) with every row
# and its hash, and its triggers, indexes and view are made again.  The games' triggers
# are completed so that no client, whatever its settings, can replace or delete a game:
# ``INSERT OR REPLACE INTO games`` deletes the old row without firing DELETE triggers
# when recursive triggers are off, so a BEFORE INSERT trigger refuses an id already
# stored; and a game without events cannot be deleted either (a game logged live starts
# without any).  Only the store's bookkeeping columns change as a game grows: status,
# last activity and head.
_EVENTS_V6 = _EVENTS_V2.replace("events_v2", "events_v6").replace(
    "    recorded_at TEXT NOT NULL,\n",
    "    recorded_at TEXT NOT NULL,\n"
    "    hash BLOB NOT NULL CHECK (typeof(hash) = 'blob' AND length(hash) = 32),\n",
)

_MIGRATION_6_AFTER = (
    """
DROP VIEW event_log;
DROP TRIGGER games_keep_recorded;
DROP TRIGGER events_no_update;
DROP TRIGGER events_no_delete;
DROP TRIGGER events_append_in_sequence;
DROP TABLE events;
ALTER TABLE events_v6 RENAME TO events;

CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE instr(event_id, ':') = 0;
CREATE INDEX events_setup ON events (payload) WHERE sequence = 1;
"""
    + MIGRATION_2[
        MIGRATION_2.index("CREATE TRIGGER events_no_update") : MIGRATION_2.index(
            "CREATE TRIGGER games_keep_recorded"
        )
    ]
    + """
CREATE TRIGGER games_no_delete BEFORE DELETE ON games
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a game cannot be deleted (its record is kept)');
END;

-- Fires before any conflict resolution: an INSERT OR REPLACE of a stored game (which,
-- without recursive triggers, would delete the stored row without firing the delete
-- trigger) is refused, whatever the connection's settings.
CREATE TRIGGER games_no_replace BEFORE INSERT ON games
WHEN EXISTS (SELECT 1 FROM games WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT,
        'a game''s id, kind, headers and creation time cannot be changed: the id is stored');
END;
"""
    + MIGRATION_1[MIGRATION_1.index("CREATE VIEW event_log AS") :]
)


def migration_6(conn: sqlite3.Connection) -> None:
    """Rebuild the events table with each event's chain hash, and give each game its
    head (see the note above); in the caller's transaction."""
    for statement in (
        _EVENTS_V6,
        "ALTER TABLE games ADD COLUMN head TEXT CHECK (head IS NULL OR length(head) = 64)",
    ):
        conn.execute(statement)
    games = conn.execute("SELECT id, kind, headers FROM games ORDER BY id").fetchall()
    for game_id, kind, headers_json in games:
        rows = conn.execute(
            "SELECT sequence, event_id, type, payload, payload_version, meta, recorded_at"
            " FROM events WHERE game_id = ? ORDER BY sequence",
            (game_id,),
        ).fetchall()
        headers = json.loads(headers_json)
        hashes = list(chain.stored_links(kind, headers, [(r[3], r[5]) for r in rows]))
        conn.executemany(
            "INSERT INTO events_v6 (game_id, sequence, event_id, type, payload,"
            " payload_version, meta, recorded_at, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, *row, h) for row, h in zip(rows, hashes, strict=True)],
        )
        head = (hashes[-1] if hashes else chain.origin(kind, headers)).hex()
        conn.execute("UPDATE games SET head = ? WHERE id = ?", (head, game_id))
    for statement in split_sql(_MIGRATION_6_AFTER.replace("{APPEND_ONLY}", APPEND_ONLY)):
        conn.execute(statement)


def split_sql(script: str) -> Iterator[str]:
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


#: (version, description, SQL or a function of the connection), applied in order.
# Migration 7 keeps each player's name folded (accents and case dropped) beside it, so a
# search for "chloe" finds "Chloé" through an index.  The folding is Python's
# (:func:`recorder.projections.fold_name`), registered on the store's connection as
# ``tablelog_fold``; it is only ever called by the store's own statements, never by the
# schema, so any other SQLite client still reads and checks the file.
MIGRATION_7 = """
ALTER TABLE game_players ADD COLUMN folded TEXT;
UPDATE game_players SET folded = tablelog_fold(name);
CREATE INDEX game_players_by_folded ON game_players (folded);
"""

# Migration 8 keeps each event's canonical text, and nothing twice (see the module's
# text): the events table is rebuilt once more (a NOT NULL column cannot be added to a
# table holding rows, nor a column dropped from under a view and triggers), each game
# folded once to compute its texts (:func:`recorder.prepare.stored_texts`, as an import
# or an append writes them).  A derived event id (``<game>:<sequence>``) is left out and
# read back from the event's place, the type is read from the payload, and a time is kept
# as milliseconds since 1970 (UTC), NULL where it is the event before's (the events of
# one import or one append share a time).  What a stored game cannot give (an unknown
# kind, an event that no longer replays) keeps its payload's type as text; ``tablelog
# verify`` names such a game anyway.
EVENTS_V8 = """
CREATE TABLE events_v8 (
    game_id TEXT NOT NULL REFERENCES games(id),
    sequence INTEGER NOT NULL CHECK (sequence >= 1),
    event_id TEXT CHECK (event_id IS NULL OR instr(event_id, ':') = 0),
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    payload_version INTEGER NOT NULL,
    meta TEXT CHECK (meta IS NULL OR json_valid(meta)),
    recorded_at INTEGER
        CHECK (typeof(recorded_at) = 'integer' OR (recorded_at IS NULL AND sequence > 1)),
    hash BLOB NOT NULL CHECK (typeof(hash) = 'blob' AND length(hash) = 32),
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, sequence)
) WITHOUT ROWID;
"""

#: The ``event_log`` view since migration 8: each event's type (its payload's), its
#: text, its comment and mark, its event id (given, or derived from its place) and its
#: time as text (the nearest one stored at or before it).
EVENT_LOG_V8 = """
CREATE VIEW event_log AS
SELECT
    e.game_id,
    e.sequence,
    json_extract(e.payload, '$.type') AS type,
    e.text,
    json_extract(e.meta, '$.comment') AS comment,
    COALESCE(json_extract(e.meta, '$.played_illegally'), 0) AS played_illegally,
    e.payload,
    e.payload_version,
    COALESCE(e.event_id, e.game_id || ':' || e.sequence) AS event_id,
    strftime('%Y-%m-%dT%H:%M:%S', e.ms / 1000, 'unixepoch') || printf('.%03dZ', e.ms % 1000)
        AS recorded_at
FROM (
    SELECT
        events.*,
        (SELECT t.recorded_at FROM events AS t
            WHERE t.game_id = events.game_id AND t.sequence <= events.sequence
                AND t.recorded_at IS NOT NULL
            ORDER BY t.sequence DESC LIMIT 1) AS ms
    FROM events
) AS e;
"""

_MIGRATION_8_AFTER = (
    """
DROP VIEW event_log;
DROP TRIGGER events_no_update;
DROP TRIGGER events_no_delete;
DROP TRIGGER events_append_in_sequence;
DROP TABLE events;
ALTER TABLE events_v8 RENAME TO events;

CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE event_id IS NOT NULL;
CREATE INDEX events_setup ON events (payload) WHERE sequence = 1;
"""
    + MIGRATION_2[
        MIGRATION_2.index("CREATE TRIGGER events_no_update") : MIGRATION_2.index(
            "-- Fires before any conflict resolution"
        )
    ]
    + """
-- Fires before any conflict resolution, so INSERT OR REPLACE / OR IGNORE on a stored
-- event is refused too (a REPLACE would otherwise delete the stored row without firing
-- the delete trigger unless recursive_triggers is on).  One index look-up (the game's
-- last sequence), and a second for an id given by a writer.
CREATE TRIGGER events_append_in_sequence BEFORE INSERT ON events
WHEN NEW.sequence <> 1 + COALESCE(
        (SELECT MAX(sequence) FROM events WHERE game_id = NEW.game_id), 0)
    OR (NEW.event_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM events WHERE event_id = NEW.event_id))
BEGIN
    SELECT RAISE(ABORT,
        '{APPEND_ONLY}: a new event follows the last of its game, under a new event id');
END;
"""
    + EVENT_LOG_V8
).replace("{APPEND_ONLY}", APPEND_ONLY)


def game_texts(
    game_id: str,
    kind: str,
    headers_json: str,
    rows: Sequence[tuple[Any, str, int, str | None]],
) -> list[str]:
    """The text of each stored event of a game (rows of sequence, payload JSON, payload
    version and meta JSON, in order), as the store writes it (:func:`stored_texts`); an
    event past one that cannot be read or replayed, and every event of a game of an
    unknown kind, keeps its payload's type."""
    texts: list[str] = []
    try:
        rules = get_game(kind)
        headers = json.loads(headers_json)
        names = seat_names(headers if isinstance(headers, dict) else {}, rules.seats)
        events: list[Any] = []
        marks: list[bool] = []
        current = rules.payload_version
        for seq, payload, version, meta in rows:
            events.append(parse_stored(game_id, seq, rules, payload, version, current))
            marked = meta and decode(game_id, seq, meta, "meta")
            marks.append(bool(isinstance(marked, dict) and marked.get("played_illegally")))
    except (UnknownGameKind, CorruptEvent, EngineError, ValueError):
        pass
    else:
        texts = stored_texts(rules, events, marks, names)
    return texts + [_payload_type(row[1]) for row in rows[len(texts) :]]


def _payload_type(payload: str) -> str:
    try:
        value = json.loads(payload)
    except ValueError:
        return ""
    return str(value.get("type", "")) if isinstance(value, dict) else ""


def stored_ms(text: Any, fallback: int) -> int:
    """A time of an earlier schema (ISO text) as the events table keeps it since
    migration 8; ``fallback`` for one that does not read as a time."""
    try:
        return time_ms(text)
    except (TypeError, ValueError):
        return fallback


def v8_rows(
    game_id: str, kind: str, headers_json: str, created: Any, rows: list[Any]
) -> tuple[list[tuple[Any, ...]], int]:
    """A game's version 7 event rows (sequence, event id, payload, version, meta,
    recorded at, hash) as migration 8 stores them, and the game's last time (ms): each
    event's text from a fold, a derived id left out, the time in milliseconds where it
    differs from the event before's (the first event's always)."""
    texts = game_texts(game_id, kind, headers_json, [(r[0], r[2], r[3], r[4]) for r in rows])
    new = []
    previous = last = stored_ms(created, 0)
    for (seq, eid, payload, version, meta, recorded, hash_), text in zip(rows, texts, strict=True):
        ms = stored_ms(recorded, previous)
        new.append(
            (
                game_id,
                seq,
                None if eid == f"{game_id}:{seq}" else eid,
                payload,
                version,
                meta,
                ms if ms != previous or seq == 1 else None,
                hash_,
                text,
            )
        )
        previous = ms
        last = max(last, ms)
    return new, last


def migration_8(conn: sqlite3.Connection) -> None:
    """Rebuild the events table with each event's text and without repeats (see the note
    above), in the caller's transaction."""
    conn.execute(EVENTS_V8)
    games = conn.execute("SELECT id, kind, headers, created_at FROM games ORDER BY id").fetchall()
    for game_id, kind, headers_json, created in games:
        rows = conn.execute(
            "SELECT sequence, event_id, payload, payload_version, meta, recorded_at, hash"
            " FROM events WHERE game_id = ? ORDER BY sequence",
            (game_id,),
        ).fetchall()
        if not rows:
            continue
        new, last = v8_rows(game_id, kind, headers_json, created, rows)
        conn.executemany(
            "INSERT INTO events_v8 (game_id, sequence, event_id, payload, payload_version,"
            " meta, recorded_at, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            new,
        )
        _canonical_activity(conn, game_id, time_text(last))
    for statement in split_sql(_MIGRATION_8_AFTER):
        conn.execute(statement)


def _canonical_activity(conn: Any, game_id: str, last: str) -> None:
    """Write a game's last activity as a stored time reads back (``last``) where the
    stored text means the same millisecond in other words (an earlier clock's)."""
    for table, key in (("games", "id"), ("game_summaries", "game_id")):
        row = conn.execute(f"SELECT last_activity FROM {table} WHERE {key} = ?", (game_id,))
        found = row.fetchone()
        if found is None or found[0] == last:
            continue
        try:
            same = canonical_time(found[0]) == last
        except (TypeError, ValueError):
            same = False
        if same:
            conn.execute(f"UPDATE {table} SET last_activity = ? WHERE {key} = ?", (last, game_id))


# Migration 9 makes a stored event cost what it carries: the game's text id in every
# event's key and the type's name in every payload were most of what a row repeated, and
# the snapshots' position strings a tenth of the file (now kept deflated,
# :func:`recorder.stored.pack_position`).
# Games get a number in order of creation (``games.no``, the table's rowid), by which
# their events and snapshots are kept (an integer key of a byte or two, and a new game's
# rows go at the end of the tables); the game's id stays its name everywhere else.  Each
# event's type is kept as its number in ``event_types`` (per game kind, numbered as first
# met; its rows can be neither changed nor removed) beside the rest of the payload, and
# read back joined (:data:`recorder.stored.PAYLOAD`), byte for byte as written.  The
# games table is made again (SQLite cannot add a primary key to a table): its rows are
# set aside, the table dropped and made anew under its name, with the foreign keys of
# the tables that refer to it checked at the commit (``defer_foreign_keys``), when every
# game is back.  The events and snapshots tables are rebuilt with every row.
GAMES_V9 = """
CREATE TABLE games (
    no INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    players TEXT NOT NULL CHECK (json_valid(players)),
    date TEXT,
    place TEXT,
    tags TEXT CHECK (tags IS NULL OR json_valid(tags)),
    headers TEXT NOT NULL CHECK (json_valid(headers)),
    status TEXT NOT NULL CHECK (status IN ('setup', 'playing', 'finished')),
    created_at TEXT NOT NULL,
    last_activity TEXT NOT NULL,
    head TEXT CHECK (head IS NULL OR length(head) = 64)
);
"""

#: The games' guards since migration 9: a game's number is part of what it is.
GAMES_TRIGGERS_V9 = f"""
CREATE TRIGGER games_keep_identity
BEFORE UPDATE OF no, id, kind, players, date, place, tags, headers, created_at ON games
BEGIN
    SELECT RAISE(ABORT, 'a game''s id, kind, headers and creation time cannot be changed');
END;

CREATE TRIGGER games_no_delete BEFORE DELETE ON games
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a game cannot be deleted (its record is kept)');
END;

-- Fires before any conflict resolution: an INSERT OR REPLACE of a stored game, by its
-- id or its number (which, without recursive triggers, would delete the stored row
-- without firing the delete trigger), is refused, whatever the connection's settings.
CREATE TRIGGER games_no_replace BEFORE INSERT ON games
WHEN EXISTS (SELECT 1 FROM games WHERE id = NEW.id OR no = NEW.no)
BEGIN
    SELECT RAISE(ABORT,
        'a game''s id, kind, headers and creation time cannot be changed: the id is stored');
END;
"""

EVENT_TYPES_V9 = f"""
CREATE TABLE event_types (
    kind TEXT NOT NULL,
    code INTEGER NOT NULL CHECK (code >= 1),
    name TEXT NOT NULL CHECK (name <> '' AND name NOT GLOB '*[^A-Za-z0-9_]*'),
    PRIMARY KEY (kind, code),
    UNIQUE (kind, name)
) WITHOUT ROWID;

CREATE TRIGGER event_types_no_update BEFORE UPDATE ON event_types
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: an event type keeps its number');
END;

CREATE TRIGGER event_types_no_delete BEFORE DELETE ON event_types
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: an event type keeps its number');
END;

-- Before any conflict resolution: a number or a name stored for the kind is not given
-- again (INSERT OR REPLACE would otherwise rename every event of that type).
CREATE TRIGGER event_types_no_replace BEFORE INSERT ON event_types
WHEN EXISTS (SELECT 1 FROM event_types
    WHERE kind = NEW.kind AND (code = NEW.code OR name = NEW.name))
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: an event type keeps its number');
END;
"""

EVENTS_V9 = """
CREATE TABLE events_v9 (
    game_no INTEGER NOT NULL REFERENCES games(no),
    sequence INTEGER NOT NULL CHECK (sequence >= 1),
    event_id TEXT CHECK (event_id IS NULL OR instr(event_id, ':') = 0),
    type INTEGER CHECK (type IS NULL OR type >= 1),
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    payload_version INTEGER NOT NULL,
    meta TEXT CHECK (meta IS NULL OR json_valid(meta)),
    recorded_at INTEGER
        CHECK (typeof(recorded_at) = 'integer' OR (recorded_at IS NULL AND sequence > 1)),
    hash BLOB NOT NULL CHECK (typeof(hash) = 'blob' AND length(hash) = 32),
    text TEXT NOT NULL,
    PRIMARY KEY (game_no, sequence)
) WITHOUT ROWID;

CREATE TABLE snapshots_v9 (
    game_no INTEGER NOT NULL REFERENCES games(no),
    step INTEGER NOT NULL CHECK (step >= 1),
    position BLOB NOT NULL CHECK (typeof(position) = 'blob'),
    PRIMARY KEY (game_no, step)
) WITHOUT ROWID;
"""

#: The ``event_log`` view since migration 9: as migration 8's (each event's game id,
#: type, text, comment and mark, payload, event id and time as text), the game's id and
#: the payload's type read from the tables that keep them once.
EVENT_LOG_V9 = f"""
CREATE VIEW event_log AS
SELECT
    g.id AS game_id,
    e.sequence,
    CASE WHEN e.type IS NULL THEN json_extract(e.payload, '$.type') ELSE t.name END AS type,
    e.text,
    json_extract(e.meta, '$.comment') AS comment,
    COALESCE(json_extract(e.meta, '$.played_illegally'), 0) AS played_illegally,
    {PAYLOAD} AS payload,
    e.payload_version,
    COALESCE(e.event_id, g.id || ':' || e.sequence) AS event_id,
    strftime('%Y-%m-%dT%H:%M:%S', e.ms / 1000, 'unixepoch') || printf('.%03dZ', e.ms % 1000)
        AS recorded_at
FROM (
    SELECT
        events.*,
        (SELECT r.recorded_at FROM events AS r
            WHERE r.game_no = events.game_no AND r.sequence <= events.sequence
                AND r.recorded_at IS NOT NULL
            ORDER BY r.sequence DESC LIMIT 1) AS ms
    FROM events
) AS e
    JOIN games AS g ON g.no = e.game_no
    LEFT JOIN event_types AS t ON t.kind = g.kind AND t.code = e.type;
"""


def v9_snapshots(rows: Iterable[tuple[int, int, str]]) -> list[tuple[int, int, bytes]]:
    """Snapshot rows (game number, step, position string) as schema 9 keeps them: the
    position packed (:func:`recorder.stored.pack_position`)."""
    return [(no, step, pack_position(position)) for no, step, position in rows]


_MIGRATION_9_AFTER = (
    """
DROP TABLE events;
DROP TABLE snapshots;
ALTER TABLE events_v9 RENAME TO events;
ALTER TABLE snapshots_v9 RENAME TO snapshots;

CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE event_id IS NOT NULL;
CREATE INDEX events_setup ON events (payload) WHERE sequence = 1;
"""
    + MIGRATION_2[
        MIGRATION_2.index("CREATE TRIGGER events_no_update") : MIGRATION_2.index(
            "-- Fires before any conflict resolution"
        )
    ]
    + """
-- Fires before any conflict resolution, so INSERT OR REPLACE / OR IGNORE on a stored
-- event is refused too (a REPLACE would otherwise delete the stored row without firing
-- the delete trigger unless recursive_triggers is on).  One index look-up (the game's
-- last sequence), and a second for an id given by a writer.
CREATE TRIGGER events_append_in_sequence BEFORE INSERT ON events
WHEN NEW.sequence <> 1 + COALESCE(
        (SELECT MAX(sequence) FROM events WHERE game_no = NEW.game_no), 0)
    OR (NEW.event_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM events WHERE event_id = NEW.event_id))
BEGIN
    SELECT RAISE(ABORT,
        '{APPEND_ONLY}: a new event follows the last of its game, under a new event id');
END;
"""
    + GAMES_TRIGGERS_V9
    + EVENT_LOG_V9
).replace("{APPEND_ONLY}", APPEND_ONLY)


class TypeCodes:
    """The numbers of event types, per game kind (``event_types``): :meth:`code` gives a
    type's, numbering a type not met yet after the kind's last; :attr:`new` lists the
    (kind, code, name) rows numbered here, for the caller to insert."""

    def __init__(self, known: Iterable[tuple[str, int, str]] = ()):
        self.codes: dict[str, dict[str, int]] = {}
        for kind, code, name in known:
            self.codes.setdefault(kind, {})[name] = code
        self.new: list[tuple[str, int, str]] = []

    def code(self, kind: str, name: str) -> int:
        codes = self.codes.setdefault(kind, {})
        found = codes.get(name)
        if found is None:
            found = codes[name] = max(codes.values(), default=0) + 1
            self.new.append((kind, found, name))
        return found


def v9_rows(
    game_no: int, kind: str, rows: Sequence[Any], types: TypeCodes
) -> list[tuple[Any, ...]]:
    """A game's version 8 event rows (sequence, event id, payload, version, meta,
    recorded at, hash, text) as migration 9 stores them: keyed by the game's number, the
    payload's type as its number for the game's kind (``types``) and the rest of the
    payload; a payload that does not begin with its type is kept whole."""
    out = []
    for seq, eid, payload, version, meta, recorded, hash_, text in rows:
        name, rest = split_type(payload)
        code = types.code(kind, name) if name else None
        out.append((game_no, seq, eid, code, rest, version, meta, recorded, hash_, text))
    return out


def migration_9(conn: sqlite3.Connection) -> None:
    """Number the games, and rebuild the events and snapshots tables keyed by that number
    with each event's type as a number (see the note above), in the caller's
    transaction."""
    conn.execute("PRAGMA defer_foreign_keys = ON")
    conn.execute("DROP VIEW event_log")
    conn.execute("CREATE TEMP TABLE games_v8 AS SELECT rowid AS r, * FROM games")
    conn.execute("DROP TABLE games")
    conn.execute(GAMES_V9)
    conn.execute(
        "INSERT INTO games (no, id, kind, players, date, place, tags, headers, status,"
        " created_at, last_activity, head) SELECT row_number() OVER (ORDER BY created_at, r),"
        " id, kind, players, date, place, tags, headers, status, created_at, last_activity,"
        " head FROM temp.games_v8 ORDER BY created_at, r"
    )
    conn.execute("DROP TABLE temp.games_v8")
    for statement in split_sql(EVENT_TYPES_V9 + EVENTS_V9):
        conn.execute(statement)
    types = TypeCodes()
    for no, game_id, kind in conn.execute("SELECT no, id, kind FROM games ORDER BY no").fetchall():
        rows = conn.execute(
            "SELECT sequence, event_id, payload, payload_version, meta, recorded_at, hash, text"
            " FROM events WHERE game_id = ? ORDER BY sequence",
            (game_id,),
        ).fetchall()
        conn.executemany(
            "INSERT INTO events_v9 (game_no, sequence, event_id, type, payload,"
            " payload_version, meta, recorded_at, hash, text)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            v9_rows(no, kind, rows, types),
        )
    conn.executemany("INSERT INTO event_types (kind, code, name) VALUES (?, ?, ?)", types.new)
    conn.executemany(
        "INSERT INTO snapshots_v9 (game_no, step, position) VALUES (?, ?, ?)",
        v9_snapshots(
            conn.execute(
                "SELECT g.no, s.step, s.position FROM snapshots AS s JOIN games AS g"
                " ON g.id = s.game_id ORDER BY g.no, s.step"
            )
        ),
    )
    for statement in split_sql(_MIGRATION_9_AFTER):
        conn.execute(statement)


# Migration 10 indexes the games list (:mod:`recorder.listing`) for pages found by their
# place, not counted out: each order a list offers has its key (the columns it sorts by,
# all one way, the game's number last, so every game has a place of its own), and an index per
# order and filter holds that key after the filter's columns, so a page is a walk of 50
# entries from a place, whatever the page and however many games are stored.  Every key
# ends with the game's number (``game_no``, the games row's, kept in the summary for
# these keys: given in order of creation, so newest and oldest break ties of date by when
# the game was stored; two or three bytes an entry where the id and the creation time
# took some forty); an undated game sorts as an empty date (``sort_date``:
# last, newest first) or after the dated ones (``undated``, oldest first).  A result
# filter reads ``result``: the condition a finished game ended on, else its status (a
# finished game with none: ``finished``); "finished" itself, most games, reads the kind's
# index.  Those three are generated columns, not expressions in the indexes: SQLite finds
# a place in an index by a row of values (``(a, b, c) < (?, ?, ?)``) only over columns.
# A result without a kind reads each kind's index in turn; the player filter is the
# players' index's.  The two
# indexes these replace (by activity with the game id the other way, by date alone) go.
_LIST_KEYS = {
    "newest": "sort_date, game_no",
    "oldest": "undated, sort_date, game_no",
    "activity": "last_activity, game_no",
    "longest": "turns, sort_date, game_no",
}
_LIST_FILTERS = {
    "": "",
    "_kind": "kind, ",
    "_kind_result": "kind, result, ",
}
#: The list's indexes (see the note above), one statement a line, the same text on
#: SQLite and PostgreSQL.
LIST_INDEXES = "".join(
    f"CREATE INDEX game_summaries_{order}{name} ON game_summaries ({prefix}{key});\n"
    for order, key in _LIST_KEYS.items()
    for name, prefix in _LIST_FILTERS.items()
)

MIGRATION_10 = (
    """
ALTER TABLE game_summaries ADD COLUMN game_no INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_summaries ADD COLUMN sort_date TEXT
    GENERATED ALWAYS AS (COALESCE(date, '')) VIRTUAL;
ALTER TABLE game_summaries ADD COLUMN undated INTEGER GENERATED ALWAYS AS (date IS NULL) VIRTUAL;
ALTER TABLE game_summaries ADD COLUMN result TEXT
    GENERATED ALWAYS AS (COALESCE(condition, status)) VIRTUAL;
UPDATE game_summaries SET game_no = (SELECT no FROM games WHERE id = game_id);
DROP INDEX game_summaries_by_activity;
DROP INDEX game_summaries_by_date;
"""
    + LIST_INDEXES
)

# Migration 11 lets a game started by mistake be voided: a row of ``game_voids`` (its
# reason and time), which no client may change or delete, as events; the game's summary
# says so (``void``), so the lists leave it out by a condition on the rows their index
# walk reads (the indexes stay as they are: a void game is rare, so the walk reads about
# as many entries as before).  A game imported with a ``Void`` header (its tags) is void
# from its headers, which the chain holds.
MIGRATION_11 = f"""
CREATE TABLE game_voids (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    reason TEXT NOT NULL CHECK (length(reason) > 0),
    recorded_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER game_voids_no_update BEFORE UPDATE ON game_voids
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a void cannot be changed');
END;

CREATE TRIGGER game_voids_no_delete BEFORE DELETE ON game_voids
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a void cannot be deleted');
END;

ALTER TABLE game_summaries ADD COLUMN void INTEGER NOT NULL DEFAULT 0;
UPDATE game_summaries SET void = 1 WHERE game_id IN (
    SELECT id FROM games WHERE json_extract(headers, '$.tags.Void') IS NOT NULL);
"""

# Migration 12 holds each game's review (what-if lines saved after the game, marks and
# notes added to its steps): events of their own, numbered from 1 in each game, each with
# its author and time, append-only as the record is (a saved line is withdrawn by a later
# event, never deleted), and kept apart from ``events`` so that the record's chain and head
# never change with the review.  ``review_keys`` holds the hash of each game's review key,
# which may add to the review and never log a move.
MIGRATION_12 = f"""
CREATE TABLE review_events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('line', 'mark', 'withdraw')),
    body TEXT NOT NULL CHECK (json_valid(body)),
    author TEXT NOT NULL CHECK (length(author) BETWEEN 1 AND 100),
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER review_events_no_update BEFORE UPDATE ON review_events
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a review event cannot be changed');
END;

CREATE TRIGGER review_events_no_delete BEFORE DELETE ON review_events
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a review event cannot be deleted');
END;

CREATE TRIGGER review_events_in_sequence BEFORE INSERT ON review_events
WHEN NEW.seq != 1 + COALESCE(
    (SELECT max(seq) FROM review_events WHERE game_id = NEW.game_id), 0)
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: a review event must be the next of its game');
END;

CREATE TABLE review_keys (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    key_hash TEXT NOT NULL CHECK (length(key_hash) = 64),
    created_at TEXT NOT NULL
) WITHOUT ROWID;
"""

MIGRATIONS: list[tuple[int, str, str | Callable[[sqlite3.Connection], None]]] = [
    (1, "games, append-only events, game summaries, game players, views", MIGRATION_1),
    (2, "events: partial index of given event ids, two-look-up append trigger", MIGRATION_2),
    (3, "game summaries: players as a list (game_players), for any number of seats", MIGRATION_3),
    (4, "snapshots of positions (a cache of the fold); index of setups", MIGRATION_4),
    (5, "recorder keys (their hashes): who may write a game over HTTP", MIGRATION_5),
    (6, "the chain: each event's hash and each game's head; games kept whole", migration_6),
    (7, "players' names folded (accents and case) for searches", MIGRATION_7),
    (
        8,
        "events: each event's canonical text; no repeats (derived ids, the type, the time"
        " as milliseconds once per batch)",
        migration_8,
    ),
    (
        9,
        "games numbered; events and snapshots keyed by the game's number, each event's type"
        " as a number (event_types)",
        migration_9,
    ),
    (
        10,
        "the games list: each game's number in its summary; an index per order and filter",
        MIGRATION_10,
    ),
    (11, "games voided (started by mistake): their reasons, kept; void in summaries", MIGRATION_11),
    (
        12,
        "games' reviews: append-only review events (saved lines, marks, notes) apart from"
        " the record; review keys",
        MIGRATION_12,
    ),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]
