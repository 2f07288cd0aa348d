"""The projections: each game's summary row and its players, for listing and filtering.

A summary is built in one place, :func:`summary_record`, from the game's own
``rules.status(state)`` (:func:`engine.protocol.summary_fields`); an import, an append and
:func:`rebuild` all write that record.  The players are the game's seat names, one row
per seat in ``game_players``; the ``game_list`` view joins them in seat order.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.games import UnknownGameKind, get_game
from engine.protocol import GameRules, seat_names, summary_fields

from .errors import StoreError
from .records import time_text
from .stored import EVENTS_OF_GAMES, GAME_NO, PAYLOAD


def fold_name(name: str) -> str:
    """A player's name as searches compare it: accents and case dropped, spaces single.

    >>> fold_name("  Chloé   DUPONT"), fold_name("Straße"), fold_name("Zoë") == fold_name("zoe")
    ('chloe dupont', 'strasse', True)
    """
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def json_columns(n: int) -> str:
    """``json_extract(value, '$[0]'), ...`` for the first ``n`` items of a JSON row."""
    return ", ".join(f"json_extract(value, '$[{i}]')" for i in range(n))


#: The columns of ``game_summaries`` that :func:`summary_row` fills, in its order.
SUMMARY_COLUMNS = (
    "game_id",
    "kind",
    "date",
    "status",
    "winner",
    "winner_name",
    "condition",
    "turns",
    "to_move",
    "event_count",
    "flagged_count",
    "void",
)

#: The game's number, as its summary keeps it for the list's orders (the games row's,
#: written first in the same transaction), for the game id ``{}``.
_NUMBER = "(SELECT no FROM games WHERE id = {})"
#: New summaries from a JSON list of :func:`summary_row` rows (``?1``) at time ``?2``.
INSERT_SUMMARIES = (
    f"INSERT OR REPLACE INTO game_summaries ({', '.join(SUMMARY_COLUMNS)}, last_activity,"
    f" game_no) SELECT {json_columns(len(SUMMARY_COLUMNS))}, ?2,"
    f" {_NUMBER.format(json_columns(1))} FROM json_each(?1)"
)
#: The players of new games from a JSON list of :func:`player_rows` (``?1``).  Their
#: folded names come made: folding them in the statement would call into Python for
#: every name, each call waiting for the interpreter's lock while another thread checks.
INSERT_PLAYERS = (
    "INSERT OR REPLACE INTO game_players (game_id, seat, name, folded)"
    f" SELECT {json_columns(4)} FROM json_each(?1)"
)
#: One game's summary, new or replacing its row (SQL both SQLite and PostgreSQL read):
#: its :func:`summary_row`, its last activity and its id again (for its creation time).
UPSERT_SUMMARY = (
    f"INSERT INTO game_summaries ({', '.join(SUMMARY_COLUMNS)}, last_activity, game_no)"
    f" VALUES ({', '.join('?' * (len(SUMMARY_COLUMNS) + 1))}, {_NUMBER.format('?')})"
    " ON CONFLICT (game_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in (*SUMMARY_COLUMNS[1:], "last_activity"))
)


def player_rows(games: Iterable[tuple[str, str]]) -> list[tuple[str, int, str, str]]:
    """The ``game_players`` rows (game id, seat, name, folded name) of games given as
    (id, seat names as a JSON list)."""
    return [
        (game_id, seat, name, fold_name(name))
        for game_id, names_json in games
        for seat, name in enumerate(map(str, json.loads(names_json)))
    ]


def summary_record(rules: GameRules, state: Any, names: Sequence[str]) -> dict[str, Any]:
    """Where the game in ``state`` stands, as the flat record the summary row keeps."""
    return summary_fields(rules.status(state), names)


def summary_row(
    game_id: str,
    kind: str,
    date: Any,
    summary: Mapping[str, Any],
    event_count: int,
    flagged_count: int,
    *,
    void: bool,
) -> tuple[Any, ...]:
    """The ``game_summaries`` row (:data:`SUMMARY_COLUMNS`) of a game (``void``: the game
    was voided, :func:`void_reason`)."""
    return (
        game_id,
        kind,
        date,
        summary["status"],
        summary["winner"],
        summary["winner_name"],
        summary["condition"],
        summary["turns"] or 0,
        summary["to_move"],
        event_count,
        flagged_count,
        int(void),
    )


#: The header (a tag) that says a game was voided, and why: ``[Void "started by mistake"]``.
VOID_TAG = "Void"

#: The reasons of the games voided after they were stored, by game id.
VOIDS_SQL = "SELECT game_id, reason FROM game_voids"


def void_reason(headers: Mapping[str, Any], voided: str | None = None) -> str | None:
    """Why the game was voided, or None: ``voided``, the reason stored when it was voided
    after it was stored, else its headers' ``Void`` tag (a file of a void game, imported)."""
    if voided:
        return voided
    tags = headers.get("tags")
    reason = tags.get(VOID_TAG) if isinstance(tags, Mapping) else None
    return str(reason) if reason else None


def write_summary(conn: Any, row: Sequence[Any], now: str) -> None:
    """Write (or replace) one game's summary row, last active ``now``."""
    conn.execute(UPSERT_SUMMARY, (*row, now, row[0]))


def rebuild(
    conn: Any,
    replay: Callable[[str, str, GameRules, Sequence[Any], Sequence[str]], Any],
) -> int:
    """Recompute ``game_summaries``, ``game_players`` and each game's status and last
    activity from the events, inside the caller's transaction; ``replay(game id, kind,
    rules, rows, names)`` folds stored rows (sequence, payload, version, meta).  Returns
    the number of games."""
    games = conn.execute("SELECT id, kind, headers, created_at FROM games ORDER BY id").fetchall()
    voids = dict(conn.execute(VOIDS_SQL).fetchall())
    conn.execute("DELETE FROM game_summaries")
    conn.execute("DELETE FROM game_players")
    for gid, kind, headers_json, created in games:
        try:
            rules = get_game(kind)
        except UnknownGameKind as err:
            raise StoreError(f"game {gid}: {err}") from None
        rows = conn.execute(
            f"SELECT e.sequence, {PAYLOAD}, e.payload_version, e.meta FROM {EVENTS_OF_GAMES}"
            " WHERE g.id = ? ORDER BY e.sequence",
            (gid,),
        ).fetchall()
        headers = json.loads(headers_json)
        names = seat_names(headers, rules.seats)
        state = replay(gid, kind, rules, rows, names)
        summary = summary_record(rules, state, names)
        (last,) = conn.execute(
            f"SELECT MAX(recorded_at) FROM events WHERE game_no = {GAME_NO}", (gid,)
        ).fetchone()
        last = created if last is None else time_text(int(last))
        flagged = sum(1 for r in rows if r[3] and json.loads(r[3]).get("played_illegally"))
        conn.execute(
            "UPDATE games SET status = ?, last_activity = ? WHERE id = ?",
            (summary["status"], last, gid),
        )
        void = void_reason(headers, voids.get(gid)) is not None
        row = summary_row(gid, kind, headers.get("date"), summary, len(rows), flagged, void=void)
        write_summary(conn, row, last)
        conn.executemany(
            "INSERT INTO game_players (game_id, seat, name, folded) VALUES (?, ?, ?, ?)",
            [(gid, seat, name, fold_name(name)) for seat, name in enumerate(names)],
        )
    return len(games)
