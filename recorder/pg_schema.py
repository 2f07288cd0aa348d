"""The PostgreSQL schema, as an ordered list of migrations (:mod:`recorder.migrations` is
SQLite's).

The tables, columns, projections and views are SQLite's at the same schema version (see
``docs/store.md``), in PostgreSQL's words: JSON is kept as ``text`` holding exactly the
bytes the store wrote (the chain hashes them; ``jsonb`` would reorder keys), checked by a
cast; the chain's hashes are ``bytea``.  PostgreSQL starts at version 7 (SQLite's first
six migrations were steps toward it, and a PostgreSQL database never held their older
forms): its migration 7 makes the whole schema, and a later version adds its statements
to both lists under the same number, so one number means the same tables on both.

Migration 8 (each event's text; no repeats, see :mod:`recorder.migrations`) is Python as
SQLite's is: it folds each stored game once to compute the texts (:func:`migration_8`).
Migration 9 (a row that costs what it carries) gives each game a number (``games.no``,
an identity column beside the id, which stays the primary key), keys events and
snapshots by it, and keeps each event's type as its number in ``event_types``
(:func:`migration_9`).

What the database refuses, whoever connects (as the store's role):

* ``events``: ``UPDATE``, ``DELETE`` and ``TRUNCATE`` (triggers); an insert that is not
  the next sequence of its game (a trigger: one index look-up); two events at one step
  (the primary key ``(game_no, sequence)``: the expected-step check of concurrent
  writers is this unique constraint); a given event id used twice (a partial unique
  index), an event id holding ``:`` (a CHECK: a derived id, ``<game>:<sequence>``, is
  not stored but read from the event's place);
* ``games``: ``DELETE`` and ``TRUNCATE``, and changing a game's number, id, kind,
  players, date, place, tags, headers or creation time (a trigger: only ``status``,
  ``last_activity`` and ``head`` move as a game grows);
* ``event_types``: ``UPDATE``, ``DELETE`` and ``TRUNCATE`` (a type keeps its number).

The refusals are raised with SQLSTATE ``23001`` (restrict_violation), an integrity error
for every client.  A role that owns the tables can still disable the triggers (as a
superuser can anything): run the site as a role that does not own them, and see
``tablelog verify``, which names a missing or disabled trigger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .migrations import LIST_INDEXES

#: The store's refusal, raised by every guard: its message is the trigger's argument.
_REFUSE = """
CREATE FUNCTION tablelog_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'restrict_violation';
END $$;

CREATE FUNCTION tablelog_append_in_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.sequence <> 1 + COALESCE(
            (SELECT max(sequence) FROM events WHERE game_id = NEW.game_id), 0) THEN
        RAISE EXCEPTION 'events are append-only: a new event follows the last of its game'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION tablelog_games_keep_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.kind IS DISTINCT FROM OLD.kind
            OR NEW.players IS DISTINCT FROM OLD.players OR NEW.date IS DISTINCT FROM OLD.date
            OR NEW.place IS DISTINCT FROM OLD.place OR NEW.tags IS DISTINCT FROM OLD.tags
            OR NEW.headers IS DISTINCT FROM OLD.headers
            OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'a game''s id, kind, headers and creation time cannot be changed'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;
"""

_TABLES = """
CREATE TABLE schema_migrations (
    version integer PRIMARY KEY,
    description text NOT NULL,
    applied_at text NOT NULL
);

CREATE TABLE games (
    id text PRIMARY KEY,
    kind text NOT NULL,
    players text NOT NULL CHECK (players::json IS NOT NULL),
    date text,
    place text,
    tags text CHECK (tags IS NULL OR tags::json IS NOT NULL),
    headers text NOT NULL CHECK (headers::json IS NOT NULL),
    status text NOT NULL CHECK (status IN ('setup', 'playing', 'finished')),
    created_at text NOT NULL,
    last_activity text NOT NULL,
    head text CHECK (head IS NULL OR length(head) = 64)
);

CREATE TABLE events (
    game_id text NOT NULL REFERENCES games(id),
    sequence integer NOT NULL CHECK (sequence >= 1),
    event_id text NOT NULL
        CHECK (strpos(event_id, ':') = 0 OR event_id = game_id || ':' || sequence),
    type text NOT NULL,
    payload text NOT NULL CHECK (payload::json IS NOT NULL),
    payload_version integer NOT NULL,
    meta text CHECK (meta IS NULL OR meta::json IS NOT NULL),
    recorded_at text NOT NULL,
    hash bytea NOT NULL CHECK (length(hash) = 32),
    PRIMARY KEY (game_id, sequence)
);
CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE strpos(event_id, ':') = 0;
-- a setup payload may outgrow a B-tree entry; a hash index has no such limit
CREATE INDEX events_setup ON events USING hash (payload) WHERE sequence = 1;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse(
    'events are append-only: a stored event cannot be changed'
    ' (record a correction as a new event)');
CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: a stored event cannot be deleted');
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT
EXECUTE FUNCTION tablelog_refuse('events are append-only: the events cannot be truncated');
CREATE TRIGGER events_append_in_sequence BEFORE INSERT ON events FOR EACH ROW
EXECUTE FUNCTION tablelog_append_in_sequence();

CREATE TRIGGER games_keep_identity BEFORE UPDATE ON games FOR EACH ROW
EXECUTE FUNCTION tablelog_games_keep_identity();
CREATE TRIGGER games_no_delete BEFORE DELETE ON games FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse(
    'events are append-only: a game cannot be deleted (its record is kept)');
CREATE TRIGGER games_no_truncate BEFORE TRUNCATE ON games FOR EACH STATEMENT
EXECUTE FUNCTION tablelog_refuse('events are append-only: the games cannot be truncated');

CREATE TABLE game_summaries (
    game_id text PRIMARY KEY REFERENCES games(id),
    kind text NOT NULL,
    date text,
    status text NOT NULL,
    winner integer,
    winner_name text,
    condition text,
    turns integer NOT NULL,
    to_move integer,
    event_count integer NOT NULL,
    flagged_count integer NOT NULL,
    last_activity text NOT NULL
);
CREATE INDEX game_summaries_by_activity ON game_summaries (last_activity DESC, game_id);
CREATE INDEX game_summaries_by_date ON game_summaries (date);

CREATE TABLE game_players (
    game_id text NOT NULL REFERENCES games(id),
    seat integer NOT NULL,
    name text NOT NULL,
    folded text,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_name ON game_players (lower(name));
CREATE INDEX game_players_by_folded ON game_players (folded);

CREATE TABLE snapshots (
    game_id text NOT NULL REFERENCES games(id),
    step integer NOT NULL CHECK (step >= 1),
    position text NOT NULL,
    PRIMARY KEY (game_id, step)
);

CREATE TABLE recorder_keys (
    game_id text PRIMARY KEY REFERENCES games(id),
    key_hash text NOT NULL CHECK (length(key_hash) = 64),
    created_at text NOT NULL
);

CREATE VIEW game_list AS
SELECT
    s.game_id AS id,
    s.date,
    (SELECT string_agg(p.name, ' vs ' ORDER BY p.seat) FROM game_players AS p
        WHERE p.game_id = s.game_id) AS players,
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
            (SELECT string_agg(v, ' ') FROM jsonb_array_elements_text(p.j -> 'spaces') AS v)
        WHEN 'card_purchased' THEN
            (p.j ->> 'card') || ' paying ' ||
            COALESCE((SELECT string_agg(t.value || ' ' || t.key, ', ')
                      FROM jsonb_each_text(p.j -> 'payment') AS t), 'nothing')
        WHEN 'card_reserved' THEN
            COALESCE(p.j ->> 'card', 'level-' || (p.j ->> 'deck') || ' deck') ||
            ' with the Gold on ' || (p.j ->> 'gold')
        WHEN 'privilege_spent' THEN p.j ->> 'space'
        WHEN 'bonus_token_taken' THEN p.j ->> 'space'
        WHEN 'color_copied' THEN p.j ->> 'color'
        WHEN 'token_stolen' THEN p.j ->> 'color'
        WHEN 'royal_taken' THEN p.j ->> 'royal'
        WHEN 'card_revealed' THEN p.j ->> 'card'
        WHEN 'card_identified' THEN 'player ' || (p.j ->> 'player') || ': ' || (p.j ->> 'card')
        WHEN 'player_resigned' THEN 'player ' || (p.j ->> 'player')
        WHEN 'tokens_discarded' THEN
            (SELECT string_agg(t.value || ' ' || t.key, ', ')
             FROM jsonb_each_text(p.j -> 'tokens') AS t)
        WHEN 'board_replenished' THEN
            (SELECT string_agg(v, ' ') FROM jsonb_array_elements_text(p.j -> 'tokens') AS v)
        WHEN 'game_set_up' THEN 'player ' || (p.j ->> 'first_player') || ' starts'
        ELSE NULL
    END AS details,
    e.meta::jsonb ->> 'comment' AS comment,
    COALESCE((e.meta::jsonb ->> 'played_illegally')::boolean, false) AS played_illegally,
    e.payload,
    e.payload_version,
    e.event_id,
    e.recorded_at
FROM events AS e, LATERAL (SELECT e.payload::jsonb AS j) AS p;
"""

#: The events table since version 8 (SQLite's :data:`recorder.migrations.EVENTS_V8`):
#: an event id only where a writer gave one, no type (the payload's), the time as
#: milliseconds since 1970 (UTC) only where it differs from the event before's, and each
#: event's canonical text.
_EVENTS_V8 = """
CREATE TABLE events (
    game_id text NOT NULL REFERENCES games(id),
    sequence integer NOT NULL CHECK (sequence >= 1),
    event_id text CHECK (event_id IS NULL OR strpos(event_id, ':') = 0),
    payload text NOT NULL CHECK (payload::json IS NOT NULL),
    payload_version integer NOT NULL,
    meta text CHECK (meta IS NULL OR meta::json IS NOT NULL),
    recorded_at bigint CHECK (recorded_at IS NOT NULL OR sequence > 1),
    hash bytea NOT NULL CHECK (length(hash) = 32),
    text text NOT NULL,
    PRIMARY KEY (game_id, sequence)
);
CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE event_id IS NOT NULL;
-- a setup payload may outgrow a B-tree entry; a hash index has no such limit
CREATE INDEX events_setup ON events USING hash (payload) WHERE sequence = 1;
"""

_EVENTS_TRIGGERS = _TABLES[
    _TABLES.index("CREATE TRIGGER events_no_update") : _TABLES.index(
        "CREATE TRIGGER games_keep_identity"
    )
]

_EVENT_LOG_V8 = """
CREATE VIEW event_log AS
SELECT
    e.game_id,
    e.sequence,
    p.j ->> 'type' AS type,
    e.text,
    e.meta::jsonb ->> 'comment' AS comment,
    COALESCE((e.meta::jsonb ->> 'played_illegally')::boolean, false) AS played_illegally,
    e.payload,
    e.payload_version,
    COALESCE(e.event_id, e.game_id || ':' || e.sequence) AS event_id,
    to_char(timestamp 'epoch' + t.ms * interval '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at
FROM events AS e
    CROSS JOIN LATERAL (SELECT e.payload::jsonb AS j) AS p
    LEFT JOIN LATERAL (
        SELECT r.recorded_at AS ms FROM events AS r
        WHERE r.game_id = e.game_id AND r.sequence <= e.sequence AND r.recorded_at IS NOT NULL
        ORDER BY r.sequence DESC LIMIT 1) AS t ON true;
"""

#: Migration 8 before the rows: the version 7 table set aside, the new one made.
_MIGRATION_8_BEFORE = (
    """
DROP VIEW event_log;
DROP INDEX events_by_given_id;
DROP INDEX events_setup;
ALTER TABLE events RENAME TO events_v7;
ALTER INDEX events_pkey RENAME TO events_v7_pkey;
DO $$
DECLARE c record;
BEGIN
    -- the new table's constraints take the names a fresh schema gives them
    FOR c IN SELECT conname FROM pg_constraint
            WHERE conrelid = 'events_v7'::regclass AND contype <> 'p' LOOP
        EXECUTE format('ALTER TABLE events_v7 RENAME CONSTRAINT %I TO %I',
            c.conname, c.conname || '_v7');
    END LOOP;
END $$;
"""
    + _EVENTS_V8
    + _EVENTS_TRIGGERS
    + _EVENT_LOG_V8
)


def migration_8(conn: Any) -> None:
    """Rebuild the events table with each event's text and without repeats (see
    :func:`recorder.migrations.migration_8`), on a psycopg connection, in its
    transaction: the version 7 table is set aside, each game's rows go into the new one
    (the triggers and constraints check each), and the old one is dropped."""
    from .migrations import v8_rows
    from .records import time_text

    conn.execute(_MIGRATION_8_BEFORE.encode())
    games = conn.execute("SELECT id, kind, headers, created_at FROM games ORDER BY id").fetchall()
    for game_id, kind, headers_json, created in games:
        rows = conn.execute(
            "SELECT sequence, event_id, payload, payload_version, meta, recorded_at, hash"
            " FROM events_v7 WHERE game_id = %s ORDER BY sequence",
            (game_id,),
        ).fetchall()
        if not rows:
            continue
        new, last = v8_rows(game_id, kind, headers_json, created, rows)
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY events (game_id, sequence, event_id, payload, payload_version, meta,"
                " recorded_at, hash, text) FROM STDIN"
            ) as copy,
        ):
            for row in new:
                copy.write_row(row)
        _canonical_activity(conn, game_id, time_text(last))
    conn.execute(b"DROP TABLE events_v7")


def _canonical_activity(conn: Any, game_id: str, last: str) -> None:
    """:func:`recorder.migrations._canonical_activity` on a psycopg connection."""
    from .records import canonical_time

    for table, key in (("games", "id"), ("game_summaries", "game_id")):
        found = conn.execute(
            f"SELECT last_activity FROM {table} WHERE {key} = %s", (game_id,)
        ).fetchone()
        if found is None or found[0] == last:
            continue
        try:
            same = canonical_time(found[0]) == last
        except (TypeError, ValueError):
            same = False
        if same:
            conn.execute(f"UPDATE {table} SET last_activity = %s WHERE {key} = %s", (last, game_id))


#: Migration 9 before the rows: the games numbered in order of creation (ties by id), the
#: guards that name the game's key made again, the version 8 events and snapshots set
#: aside and the new ones made, with the table of event types.
_MIGRATION_9_BEFORE = """
DROP VIEW event_log;
ALTER TABLE games ADD COLUMN no integer;
UPDATE games SET no = n.no
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS no FROM games) AS n
WHERE n.id = games.id;
ALTER TABLE games ALTER COLUMN no SET NOT NULL;
ALTER TABLE games ALTER COLUMN no ADD GENERATED BY DEFAULT AS IDENTITY;
ALTER TABLE games ADD CONSTRAINT games_no_key UNIQUE (no);
SELECT setval(pg_get_serial_sequence('games', 'no'),
    (SELECT COALESCE(max(no), 0) + 1 FROM games), false);

CREATE OR REPLACE FUNCTION tablelog_games_keep_identity() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.no IS DISTINCT FROM OLD.no OR NEW.id IS DISTINCT FROM OLD.id
            OR NEW.kind IS DISTINCT FROM OLD.kind
            OR NEW.players IS DISTINCT FROM OLD.players OR NEW.date IS DISTINCT FROM OLD.date
            OR NEW.place IS DISTINCT FROM OLD.place OR NEW.tags IS DISTINCT FROM OLD.tags
            OR NEW.headers IS DISTINCT FROM OLD.headers
            OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'a game''s id, kind, headers and creation time cannot be changed'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION tablelog_append_in_sequence() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.sequence <> 1 + COALESCE(
            (SELECT max(sequence) FROM events WHERE game_no = NEW.game_no), 0) THEN
        RAISE EXCEPTION 'events are append-only: a new event follows the last of its game'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;

DROP INDEX events_by_given_id;
DROP INDEX events_setup;
ALTER TABLE events RENAME TO events_v8;
ALTER INDEX events_pkey RENAME TO events_v8_pkey;
ALTER TABLE snapshots RENAME TO snapshots_v8;
ALTER INDEX snapshots_pkey RENAME TO snapshots_v8_pkey;
DO $$
DECLARE c record;
BEGIN
    -- the new tables' constraints take the names a fresh schema gives them
    FOR c IN SELECT conrelid::regclass::text AS tab, conname FROM pg_constraint
            WHERE conrelid IN ('events_v8'::regclass, 'snapshots_v8'::regclass)
                AND contype <> 'p' LOOP
        EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I',
            c.tab, c.conname, c.conname || '_v8');
    END LOOP;
END $$;

CREATE TABLE event_types (
    kind text NOT NULL,
    code integer NOT NULL CHECK (code >= 1),
    name text NOT NULL CHECK (name ~ '^[A-Za-z0-9_]+$'),
    PRIMARY KEY (kind, code),
    UNIQUE (kind, name)
);
CREATE TRIGGER event_types_no_update BEFORE UPDATE ON event_types FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: an event type keeps its number');
CREATE TRIGGER event_types_no_delete BEFORE DELETE ON event_types FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: an event type keeps its number');
CREATE TRIGGER event_types_no_truncate BEFORE TRUNCATE ON event_types FOR EACH STATEMENT
EXECUTE FUNCTION tablelog_refuse('events are append-only: an event type keeps its number');

CREATE TABLE events (
    game_no integer NOT NULL REFERENCES games(no),
    sequence integer NOT NULL CHECK (sequence >= 1),
    event_id text CHECK (event_id IS NULL OR strpos(event_id, ':') = 0),
    type integer CHECK (type IS NULL OR type >= 1),
    payload text NOT NULL CHECK (payload::json IS NOT NULL),
    payload_version integer NOT NULL,
    meta text CHECK (meta IS NULL OR meta::json IS NOT NULL),
    recorded_at bigint CHECK (recorded_at IS NOT NULL OR sequence > 1),
    hash bytea NOT NULL CHECK (length(hash) = 32),
    text text NOT NULL,
    PRIMARY KEY (game_no, sequence)
);
CREATE UNIQUE INDEX events_by_given_id ON events (event_id) WHERE event_id IS NOT NULL;
-- a setup payload may outgrow a B-tree entry; a hash index has no such limit
CREATE INDEX events_setup ON events USING hash (payload) WHERE sequence = 1;

CREATE TABLE snapshots (
    game_no integer NOT NULL REFERENCES games(no),
    step integer NOT NULL CHECK (step >= 1),
    position bytea NOT NULL,
    PRIMARY KEY (game_no, step)
);
"""


def _event_log_v9() -> str:
    """The ``event_log`` view since version 9 (SQLite's
    :data:`recorder.migrations.EVENT_LOG_V9`): the game's id and the payload's type read
    from the tables that keep them once."""
    from .stored import PAYLOAD

    return f"""
CREATE VIEW event_log AS
SELECT
    g.id AS game_id,
    e.sequence,
    CASE WHEN e.type IS NULL THEN e.payload::jsonb ->> 'type' ELSE t.name END AS type,
    e.text,
    e.meta::jsonb ->> 'comment' AS comment,
    COALESCE((e.meta::jsonb ->> 'played_illegally')::boolean, false) AS played_illegally,
    {PAYLOAD} AS payload,
    e.payload_version,
    COALESCE(e.event_id, g.id || ':' || e.sequence) AS event_id,
    to_char(timestamp 'epoch' + r.ms * interval '1 millisecond',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at
FROM events AS e
    JOIN games AS g ON g.no = e.game_no
    LEFT JOIN event_types AS t ON t.kind = g.kind AND t.code = e.type
    LEFT JOIN LATERAL (
        SELECT b.recorded_at AS ms FROM events AS b
        WHERE b.game_no = e.game_no AND b.sequence <= e.sequence AND b.recorded_at IS NOT NULL
        ORDER BY b.sequence DESC LIMIT 1) AS r ON true;
"""


def migration_9(conn: Any) -> None:
    """Number the games, and rebuild the events and snapshots tables keyed by that number
    with each event's type as a number (see :func:`recorder.migrations.migration_9`), on
    a psycopg connection, in its transaction: the version 8 tables are set aside, each
    game's rows go into the new ones (the triggers and constraints check each), and the
    old ones are dropped."""
    from .migrations import TypeCodes, v9_rows, v9_snapshots

    conn.execute(_MIGRATION_9_BEFORE.encode())
    conn.execute((_EVENTS_TRIGGERS + _event_log_v9()).encode())
    types = TypeCodes()
    games = conn.execute("SELECT no, id, kind FROM games ORDER BY no").fetchall()
    with conn.cursor() as cur:
        for no, game_id, kind in games:
            rows = conn.execute(
                "SELECT sequence, event_id, payload, payload_version, meta, recorded_at, hash,"
                " text FROM events_v8 WHERE game_id = %s ORDER BY sequence",
                (game_id,),
            ).fetchall()
            if not rows:
                continue
            with cur.copy(
                "COPY events (game_no, sequence, event_id, type, payload, payload_version,"
                " meta, recorded_at, hash, text) FROM STDIN"
            ) as copy:
                for row in v9_rows(no, kind, rows, types):
                    copy.write_row(row)
        if types.new:
            cur.executemany(
                "INSERT INTO event_types (kind, code, name) VALUES (%s, %s, %s)", types.new
            )
    snapshots = conn.execute(
        b"SELECT g.no, s.step, s.position FROM snapshots_v8 AS s JOIN games AS g"
        b" ON g.id = s.game_id ORDER BY g.no, s.step"
    ).fetchall()
    with (
        conn.cursor() as cur,
        cur.copy(b"COPY snapshots (game_no, step, position) FROM STDIN") as copy,
    ):
        for row in v9_snapshots(snapshots):
            copy.write_row(row)
    conn.execute(b"DROP TABLE events_v8")
    conn.execute(b"DROP TABLE snapshots_v8")


#: Migration 10: the games list's indexes and each summary's game number (see
#: :data:`recorder.migrations.MIGRATION_10`), the same columns and expressions.
_MIGRATION_10 = """
ALTER TABLE game_summaries ADD COLUMN game_no integer NOT NULL DEFAULT 0;
ALTER TABLE game_summaries ADD COLUMN sort_date text
    GENERATED ALWAYS AS (COALESCE(date, '')) STORED;
ALTER TABLE game_summaries ADD COLUMN undated boolean GENERATED ALWAYS AS (date IS NULL) STORED;
ALTER TABLE game_summaries ADD COLUMN result text
    GENERATED ALWAYS AS (COALESCE(condition, status)) STORED;
UPDATE game_summaries AS s SET game_no = g.no FROM games AS g WHERE g.id = s.game_id;
DROP INDEX game_summaries_by_activity;
DROP INDEX game_summaries_by_date;
"""

#: Migration 11: games voided (see :data:`recorder.migrations.MIGRATION_11`).
_MIGRATION_11 = """
CREATE TABLE game_voids (
    game_id text PRIMARY KEY REFERENCES games(id),
    reason text NOT NULL CHECK (length(reason) > 0),
    recorded_at text NOT NULL
);
CREATE TRIGGER game_voids_no_update BEFORE UPDATE ON game_voids FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: a void cannot be changed');
CREATE TRIGGER game_voids_no_delete BEFORE DELETE ON game_voids FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: a void cannot be deleted');
CREATE TRIGGER game_voids_no_truncate BEFORE TRUNCATE ON game_voids FOR EACH STATEMENT
EXECUTE FUNCTION tablelog_refuse('events are append-only: the voids cannot be truncated');
ALTER TABLE game_summaries ADD COLUMN void integer NOT NULL DEFAULT 0;
UPDATE game_summaries SET void = 1 WHERE game_id IN (
    SELECT id FROM games WHERE (headers::jsonb -> 'tags' -> 'Void') IS NOT NULL);
"""

#: Migration 12: games' reviews (see :data:`recorder.migrations.MIGRATION_12`).
_MIGRATION_12 = """
CREATE TABLE review_events (
    game_id text NOT NULL REFERENCES games(id),
    seq integer NOT NULL CHECK (seq >= 1),
    kind text NOT NULL CHECK (kind IN ('line', 'mark', 'withdraw')),
    body jsonb NOT NULL,
    author text NOT NULL CHECK (length(author) BETWEEN 1 AND 100),
    recorded_at text NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER review_events_no_update BEFORE UPDATE ON review_events FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: a review event cannot be changed');
CREATE TRIGGER review_events_no_delete BEFORE DELETE ON review_events FOR EACH ROW
EXECUTE FUNCTION tablelog_refuse('events are append-only: a review event cannot be deleted');
CREATE TRIGGER review_events_no_truncate BEFORE TRUNCATE ON review_events FOR EACH STATEMENT
EXECUTE FUNCTION tablelog_refuse('events are append-only: the reviews cannot be truncated');
CREATE FUNCTION tablelog_review_in_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- (writers of one game's review take the game's row lock first: no two race here)
    IF NEW.seq != 1 + COALESCE(
        (SELECT max(seq) FROM review_events WHERE game_id = NEW.game_id), 0) THEN
        RAISE EXCEPTION 'events are append-only: a review event must be the next of its game';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER review_events_in_sequence BEFORE INSERT ON review_events FOR EACH ROW
EXECUTE FUNCTION tablelog_review_in_sequence();
CREATE TABLE review_keys (
    game_id text PRIMARY KEY REFERENCES games(id),
    key_hash text NOT NULL CHECK (length(key_hash) = 64),
    created_at text NOT NULL
);
"""

#: (version, description, SQL or a function of a psycopg connection), applied in order.
MIGRATIONS: list[tuple[int, str, str | Callable[[Any], None]]] = [
    (
        7,
        "the whole schema of version 7: games, append-only events (triggers refuse UPDATE,"
        " DELETE and TRUNCATE), the chain, projections, snapshots, recorder keys, views",
        _REFUSE + _TABLES,
    ),
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
        _MIGRATION_10 + LIST_INDEXES,
    ),
    (
        11,
        "games voided (started by mistake): their reasons, kept; void in summaries",
        _MIGRATION_11,
    ),
    (
        12,
        "games' reviews: append-only review events (saved lines, marks, notes) apart from"
        " the record; review keys",
        _MIGRATION_12,
    ),
]

#: The triggers that keep the record append-only and the games whole.
TRIGGERS = (
    "events_no_update",
    "events_no_delete",
    "events_no_truncate",
    "events_append_in_sequence",
    "games_keep_identity",
    "games_no_delete",
    "games_no_truncate",
    "event_types_no_update",
    "event_types_no_delete",
    "event_types_no_truncate",
    "game_voids_no_update",
    "game_voids_no_delete",
    "game_voids_no_truncate",
    "review_events_no_update",
    "review_events_no_delete",
    "review_events_no_truncate",
    "review_events_in_sequence",
)

#: The channel on which the store tells of appends (payload ``<game id> <steps>``).
CHANNEL = "tablelog_events"
