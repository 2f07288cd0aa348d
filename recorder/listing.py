"""The filters and orders of a games listing (by player, result, date and game kind), as the SQL
the stores' ``list_page``, ``list_games`` and ``count_games`` run over the
``game_summaries`` projection, and a player's statistics.

A page is found by its place in the order (the key of the game before it: keyset
paging), read from an index of that order and filter: the first page and the
five-thousandth cost the same, and an address of a page keeps working as games are
added (see ``docs/store.md``)."""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.games import GAMES

from .access import SqlAccess
from .errors import StoreError
from .projections import fold_name
from .records import GamePage, GameRow

RESULT_STATUSES = ("finished", "playing", "setup")

#: The SQL name of :func:`fold_name` on the store's own connection: the players index
#: keeps each name folded (``game_players.folded``), so a search finds "Chloé" from
#: "chloe" with one index look-up.
FOLD_FUNCTION = "tablelog_fold"


@dataclass(frozen=True)
class Order:
    """One order of the games list: its key, SQL over ``game_summaries AS s``, sorted all
    one way and ending with the game's number (``game_no``), so that every game has a
    place of its own and a page starts after a place (keyset paging), not after a count
    of rows; migration 10 indexes each key (:data:`recorder.migrations.LIST_INDEXES`),
    after each filter's columns."""

    keys: tuple[str, ...]
    #: What each key's value is, to read a place back from an address.
    types: tuple[type, ...]
    descending: bool


#: The orders a listing offers; the first is the default.  Newest and oldest go by the
#: games' dates, then by when they were stored; undated games come after the dated ones
#: (``sort_date`` is the date or an empty one; ``undated`` sorts them last oldest first).
ORDERS: dict[str, Order] = {
    "newest": Order(("s.sort_date", "s.game_no"), (str, int), True),
    "oldest": Order(("s.undated", "s.sort_date", "s.game_no"), (bool, str, int), False),
    "activity": Order(("s.last_activity", "s.game_no"), (str, int), True),
    "longest": Order(("s.turns", "s.sort_date", "s.game_no"), (int, str, int), True),
}
DEFAULT_ORDER = next(iter(ORDERS))

#: A player with more games than this is listed by walking the order's index and looking
#: up each game's players (about ``limit * games / theirs`` look-ups); one with fewer, by
#: sorting their own games (at most this many).
PLAYER_SORT_AT_MOST = 2000


def get_order(order: str | None) -> Order:
    """The order called ``order`` (the default when None); StoreError for an unknown one."""
    key = order or DEFAULT_ORDER
    if key not in ORDERS:
        raise StoreError(f"unknown order {key!r} (one of {', '.join(ORDERS)})")
    return ORDERS[key]


def position_text(order: Order, values: tuple[Any, ...]) -> str:
    """A game's place in ``order`` (its key's values), as an address carries it: the
    values as JSON in URL-safe base64.

    >>> position_text(ORDERS["activity"], ("2024-05-01T20:15:03.123Z", 4051))
    'WyIyMDI0LTA1LTAxVDIwOjE1OjAzLjEyM1oiLDQwNTFd'
    """
    typed = [t(v) for t, v in zip(order.types, values, strict=True)]
    raw = json.dumps(typed, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def read_position(order: Order, text: str) -> tuple[Any, ...]:
    """The key's values of a place in ``order`` (:func:`position_text`); StoreError for
    a text that is not one (another order's place, or no place at all)."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        values = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        values = None
    if (
        not isinstance(values, list)
        or len(values) != len(order.types)
        or not all(type(v) is t for v, t in zip(values, order.types, strict=True))
    ):
        raise StoreError("not a place in this list (an address of another order, or cut short)")
    return tuple(values)


@dataclass(frozen=True)
class Filtered:
    """A listing's filters as SQL over ``game_summaries AS s`` (see :func:`filtered`)."""

    #: The WHERE clauses and their parameters, the player's aside.
    clauses: list[str]
    params: list[Any]
    #: The player's name as searches compare it (:func:`fold_name`), or None.
    player: str | None
    #: The kind asked for, and whether a result is asked for (a result without a kind
    #: reads each kind's index in turn: the indexes hold the kind before the result).
    kind: str | None
    by_result: bool


def filtered(
    player: str | None,
    result: str | None,
    date_from: Any,
    date_to: Any,
    kind: str | None = None,
    with_void: bool = False,
) -> Filtered:
    """A listing's filters (StoreError for a result or a kind no game knows); void games
    (voided, started by mistake) left out unless ``with_void``."""
    clauses: list[str] = []
    params: list[Any] = []
    if not with_void:
        # (a condition on the rows the order's index walk reads: void games are few)
        clauses.append("s.void = 0")
    if kind:
        if kind not in GAMES:
            raise StoreError(f"unknown game kind {kind!r} (one of {', '.join(GAMES)})")
        clauses.append("s.kind = ?")
        params.append(kind)
    if result:
        # (a game still being played or set up, or finished with a condition, by the
        # index on its ``result``; finished games, most of them, by the kind's index)
        if result == "finished":
            clauses.append("s.status = ?")
        elif result in RESULT_STATUSES or result in result_conditions():
            clauses.append("s.result = ?")
        else:
            raise StoreError(
                f"unknown result filter {result!r} (one of "
                f"{', '.join(RESULT_STATUSES + result_conditions())})"
            )
        params.append(result)
    # (on ``sort_date``, the first column of the newest index: a range of it)
    if date_from:
        clauses.append("s.sort_date >= ?")
        params.append(str(date_from))
    if date_to:
        clauses.append("s.sort_date <= ?")
        params.append(str(date_to))
        if not date_from:
            clauses.append("NOT s.undated")
    return Filtered(
        clauses, params, fold_name(player) if player else None, kind or None, bool(result)
    )


@functools.cache
def most_seats() -> int:
    """The most seats a game has, of every registered game (how often one player may sit
    at one game); asked when first needed, as it loads every game's package."""
    return max(rules.seats.maximum for rules in GAMES.values())


#: The games of a player (a folded name, ``?``), each once (a player may hold two seats
#: of one game), from the players' index.
PLAYER_GAMES = "(SELECT DISTINCT game_id FROM game_players WHERE folded = ?) AS p"

#: How many of a player's games (a folded name, ``?``) were voided: few, read from the
#: voids, so that a player's games are counted on the players' index alone and these
#: taken off (a count that asks every seat's summary whether it is void reads the
#: summaries of every game counted).
PLAYER_VOIDS_SQL = (
    "SELECT count(DISTINCT p.game_id) FROM game_voids AS v"
    " JOIN game_players AS p ON p.game_id = v.game_id WHERE p.folded = ?"
)

#: The games of a player (``?``), the player's own index: how many there are, up to a
#: bound (:data:`PLAYER_SORT_AT_MOST`), says how to list them.
PLAYER_GAMES_COUNT_SQL = (
    "SELECT count(*) FROM (SELECT 1 FROM game_players WHERE folded = ? LIMIT ?) AS c"
)


def keys_sql(
    f: Filtered,
    order: Order,
    *,
    after: tuple[Any, ...] | None = None,
    backward: bool = False,
    limit: int,
    offset: int = 0,
    player_first: bool = False,
) -> tuple[str, list[Any]]:
    """The SQL and parameters of a page's keys (each row: the order's key values, then
    the game's id): ``limit`` games after the place ``after`` (from the start when None;
    toward the start with ``backward``), ``offset`` skipped.

    ``player_first``: read the player's games from the players' index and sort them
    (a player with few games); else walk the order's index and look each game's players
    up.  A result without a kind walks each kind's index and merges the walks, every
    index holding the kind before the result."""
    desc = order.descending != backward
    direction = " DESC" if desc else ""
    columns = ", ".join(f"{k} AS k{i}" for i, k in enumerate(order.keys)) + ", s.game_id"
    sort = ", ".join(k + direction for k in order.keys)
    clauses, params = list(f.clauses), list(f.params)
    if after is not None:
        marks = ", ".join("?" * len(after))
        clauses.append(f"({', '.join(order.keys)}) {'<' if desc else '>'} ({marks})")
        params += after
    source = "game_summaries AS s"
    if f.player is not None and player_first:
        # (CROSS JOIN: SQLite reads the player's games first, as asked)
        source = f"{PLAYER_GAMES} CROSS JOIN game_summaries AS s"
        clauses = ["s.game_id = p.game_id", *clauses]
        params = [f.player, *params]
    elif f.player is not None:
        clauses.append(
            "EXISTS (SELECT 1 FROM game_players AS p WHERE p.game_id = s.game_id AND p.folded = ?)"
        )
        params.append(f.player)
    arms = [""]
    if f.by_result and f.kind is None and not (f.player is not None and player_first):
        arms = list(GAMES)
    count = offset + limit
    parts, out = [], []
    for arm in arms:
        where = (["s.kind = ?"] if arm else []) + clauses
        sql = f"SELECT {columns} FROM {source}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        parts.append(sql + f" ORDER BY {sort} LIMIT ?")
        out += ([arm] if arm else []) + params + [count]
    if len(parts) == 1:
        sql = parts[0][: parts[0].rindex(" LIMIT ?")]
        out.pop()
    else:
        sql = " UNION ALL ".join(f"SELECT * FROM ({p}) AS a{i}" for i, p in enumerate(parts))
        sql += " ORDER BY " + ", ".join(f"{i + 1}{direction}" for i in range(len(order.keys)))
    return sql + " LIMIT ? OFFSET ?", [*out, limit, offset]


def count_sql(f: Filtered, at_most: int | None) -> tuple[str, list[Any]]:
    """The SQL and parameters of how many games the filters leave: all of them, or at
    least ``at_most + 1`` where there are more (each kind's index read that far at most;
    a player's seats read at most that many times the most seats a game has, so that
    their games are counted each once without reading them all, as a DISTINCT would)."""
    clauses, params = list(f.clauses), list(f.params)
    if f.player is not None:
        source = "game_players AS p"
        if clauses:
            source += " CROSS JOIN game_summaries AS s"
            clauses.insert(0, "s.game_id = p.game_id")
        where = " AND ".join(["p.folded = ?", *clauses])
        params.insert(0, f.player)
        if at_most is None:
            return f"SELECT count(DISTINCT p.game_id) FROM {source} WHERE {where}", params
        return (
            f"SELECT count(DISTINCT g) FROM (SELECT p.game_id AS g FROM {source} WHERE {where}"
            " LIMIT ?) AS c",
            [*params, (at_most + 1) * most_seats()],
        )
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    if at_most is None:
        return f"SELECT count(*) FROM game_summaries AS s{where}", params
    arms = list(GAMES) if f.by_result and f.kind is None else [""]
    parts, out = [], []
    for arm in arms:
        conditions = (["s.kind = ?"] if arm else []) + clauses
        cond = (" WHERE " + " AND ".join(conditions)) if conditions else ""
        parts.append(
            f"SELECT count(*) AS n FROM (SELECT 1 FROM game_summaries AS s{cond} LIMIT ?) AS c"
        )
        out += ([arm] if arm else []) + params + [at_most + 1]
    return "SELECT sum(n) FROM (" + " UNION ALL ".join(parts) + ") AS t", out


@dataclass(frozen=True)
class PlayerStats:
    """What a player's games add up to (``name`` as the player's first stored game
    spells it)."""

    name: str
    games: int
    finished: int
    wins: int
    #: Wins by victory condition (``points``, ``resignation``...), most first.
    wins_by: dict[str, int]
    #: Finished games that ended in a shared win (a tie the rules leave shared).
    shared: int
    #: Turns per finished game, on average (None before the first finishes).
    average_turns: float | None


#: What a player's games add up to, in a few rows: (finished, won, condition, games,
#: turns), games grouped by whether they finished, whether the player's seat won (NULL:
#: nobody did) and how they ended (one pass over the player's games, added up by the
#: database rather than read out game by game).
PLAYER_STATS_SQL = """
SELECT s.status = 'finished', s.winner = p.seat, s.condition, count(*), sum(s.turns)
FROM game_players AS p JOIN game_summaries AS s ON s.game_id = p.game_id
WHERE p.folded = ? AND s.void = 0
GROUP BY 1, 2, 3
"""
#: The player's name as their first game (by date, undated first) spells it.
PLAYER_NAME_SQL = """
SELECT p.name FROM game_players AS p JOIN game_summaries AS s ON s.game_id = p.game_id
WHERE p.folded = ?
ORDER BY s.sort_date, s.game_id LIMIT 1
"""


def player_stats(name: Any, groups: list[Any]) -> PlayerStats | None:
    """Add up a player's ``groups`` (see :data:`PLAYER_STATS_SQL`); None when there is
    none."""
    if not groups:
        return None
    wins_by: dict[str, int] = {}
    shared = finished = turns = 0
    for ended, won, condition, games, their_turns in groups:
        if not ended:
            continue
        finished += games
        turns += their_turns or 0
        if won is None and condition == "shared":
            shared += games
        elif won and condition:
            wins_by[condition] = wins_by.get(condition, 0) + games
    return PlayerStats(
        name=str(name),
        games=sum(g[3] for g in groups),
        finished=finished,
        wins=sum(wins_by.values()),
        wins_by=dict(sorted(wins_by.items(), key=lambda kv: (-kv[1], kv[0]))),
        shared=shared,
        average_turns=turns / finished if finished else None,
    )


def result_conditions() -> tuple[str, ...]:
    """How games can be won, over every registered game (each game names its own)."""
    return tuple(dict.fromkeys(c for rules in GAMES.values() for c in rules.conditions))


class ListedStore(SqlAccess, Protocol):
    """What :class:`Listing` needs of a store besides its connections."""

    def games(self, ids: Sequence[str]) -> list[GameRow]:
        """The rows of the games ``ids``, in that order."""
        ...


class Listing:
    """A store's games list (``store.listing``): pages of games filtered and ordered,
    their count, a player's figures; all read from the projections (``game_summaries``,
    ``game_players``) by their indexes."""

    def __init__(self, store: ListedStore) -> None:
        self._store = store

    def page(
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
        """A page of the games list (filtered as :meth:`games`): the first ``limit``
        games in ``order``, or those after the place ``after``, or the last ones before
        the place ``before`` (the first page when fewer than ``limit`` are), or the last
        page (``last``); ``offset`` games skipped first (an old page number: each is an
        index entry read).  A place is the ``next`` or ``prev`` of a page
        (StoreError for one that is not a place in this order).  Void games are left
        out unless ``with_void``."""
        f = filtered(player, result, date_from, date_to, kind, with_void)
        o = get_order(order)
        limit = int(limit)
        with self._store.reading() as conn:
            first = f.player is not None and self._few_games(conn, f.player)

            def keys(
                place: tuple[Any, ...] | None, backward: bool, n: int, skip: int = 0
            ) -> list[tuple[Any, ...]]:
                sql, params = keys_sql(
                    f, o, after=place, backward=backward, limit=n, offset=skip, player_first=first
                )
                return [tuple(r) for r in conn.execute(sql, params).fetchall()]

            rows = [] if before is None else keys(read_position(o, before), True, limit + 1)
            if len(rows) > limit:
                page, more_before, more_after = rows[:limit][::-1], True, True
            elif last:
                rows = keys(None, True, limit + 1)
                page, more_before, more_after = rows[:limit][::-1], len(rows) > limit, False
            else:
                # (before a place with fewer games than a page before it: the first page)
                place = None if after is None or before is not None else read_position(o, after)
                rows = keys(place, False, limit + 1, int(offset))
                page, more_after = rows[:limit], len(rows) > limit
                start = page[0][:-1] if page else place
                more_before = start is not None and bool(keys(start, True, 1))
        games = self._store.games([r[-1] for r in page])
        return GamePage(
            games=games,
            next=position_text(o, page[-1][:-1]) if more_after and page else None,
            prev=position_text(o, page[0][:-1]) if more_before and page else None,
        )

    def _few_games(self, conn: Any, folded: str) -> bool:
        """Whether the player (a folded name) has few enough games to list by sorting
        theirs (:data:`recorder.listing.PLAYER_SORT_AT_MOST`)."""
        (n,) = conn.execute(PLAYER_GAMES_COUNT_SQL, (folded, PLAYER_SORT_AT_MOST + 1)).fetchone()
        return int(n) <= PLAYER_SORT_AT_MOST

    def games(
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
        """Games, newest first (or in another of :data:`recorder.listing.ORDERS`),
        filtered by a player's name (any seat, any case), a result (``finished``,
        ``playing``, ``setup`` or a victory condition of a game, such as ``points`` or
        ``resignation``), a date range (inclusive, on the ``date`` header) and the game's
        ``kind`` (a registered kind); ``offset`` games skipped (see :meth:`page`, which
        pages without counting); void games left out unless ``with_void``."""
        return self.page(
            player,
            result,
            date_from,
            date_to,
            kind,
            order=order,
            limit=limit,
            offset=offset,
            with_void=with_void,
        ).games

    def player_stats(self, name: str) -> PlayerStats | None:
        """What ``name``'s games add up to (any case, any accents), or None for an
        unknown player."""
        with self._store.reading() as conn:
            folded = fold_name(name)
            groups = conn.execute(PLAYER_STATS_SQL, (folded,)).fetchall()
            first = conn.execute(PLAYER_NAME_SQL, (folded,)).fetchone() if groups else None
        return player_stats(first[0] if first else None, groups)

    def count(
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
        """How many games :meth:`games` would list with these filters, unpaged; with
        ``at_most``, counted no further than one more than that (a list's "more than":
        as cheap with ten million games as with a hundred)."""
        f = filtered(player, result, date_from, date_to, kind, with_void)
        voids = 0
        with self._store.reading() as conn:
            if (
                f.player is not None
                and not with_void
                and not (result or date_from or date_to or kind)
            ):
                # (a player's games on the players' index alone, their void ones taken off)
                voids = int(conn.execute(PLAYER_VOIDS_SQL, (f.player,)).fetchone()[0] or 0)
                f = filtered(player, None, None, None, None, with_void=True)
                at_most = None if at_most is None else at_most + voids
            sql, params = count_sql(f, at_most)
            row = conn.execute(sql, params).fetchone()
        n = int(row[0] or 0) - voids
        at_most = None if at_most is None else at_most - voids
        # (a result without a kind is counted kind by kind, each up to the bound)
        return n if at_most is None else min(n, at_most + 1)
