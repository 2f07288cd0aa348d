"""The games list found by places (keyset paging), on every backend: each order and
filter walked page by page from its first page by ``next`` and from its last by ``prev``,
against the order worked out here from the games' own rows; places that keep their
meaning as games are added; counts that stop where asked; and the plans the databases
make of each page: a walk of an index, never a sort of every game."""

from __future__ import annotations

import itertools
import random
from typing import Any

import psycopg
import pytest
from conftest import record

from engine.games import GAMES, get_game
from recorder import GameImport, GameRow, StoreError
from recorder.listing import ORDERS, PLAYER_SORT_AT_MOST, filtered, keys_sql
from recorder.projections import fold_name

#: The filters walked (as ``list_page`` takes them).
FILTERS: list[dict[str, str]] = [
    {},
    {"kind": "splendor-duel"},
    {"kind": "splendor"},
    {"result": "finished"},
    {"result": "playing"},
    {"result": "points"},
    {"kind": "splendor-duel", "result": "finished"},
    {"kind": "splendor-duel", "result": "crowns"},
    {"player": "ANN"},
    {"player": "chloe", "result": "finished"},
    {"player": "eve"},
    {"date_from": "2024-01-01", "date_to": "2024-02-29"},
    {"date_to": "2024-01-31"},
    {"date_from": "2024-03-01", "kind": "splendor"},
]


def fill(recorder: Any) -> None:
    """Games of both kinds, finished, played and set up, dated and not, many on one
    date, some stored in one batch (one creation time)."""
    dates = ["2024-03-01", "2024-03-01", None, "2024-01-15", "2024-03-01", None, "2023-12-31"]
    names = [("Ann", "Bo"), ("Chloé", "Ann"), ("Bo", "Dee"), ("Dee", "Chloe")]
    for seed in range(14):
        date = dates[seed % len(dates)]
        recorder.import_game(record(seed, names[seed % 4], **({"date": date} if date else {})))
    recorder.import_games(
        [record(seed, ("Ann", "Eve"), date="2024-02-02") for seed in range(14, 20)]
    )
    classic = get_game("splendor")
    for seed in range(3):
        players = ["Ann", "Bo", "Cy"][: 2 + seed % 2]
        events = classic.random_game(random.Random(seed), players)
        recorder.import_game(
            GameImport(
                kind="splendor",
                headers={"players": players, **({"date": "2024-03-01"} if seed else {})},
                events=[classic.event_to_dict(e) for e in events],
            )
        )
    recorder.import_game(record(30, ("Eve", "EVE"), date="2024-02-02"))  # two seats, one game
    for seed in range(20, 23):
        live = recorder.create_game({"players": ["Ann", "Dee"], "date": "2024-03-02"})
        events = record(seed).events
        if seed != 20:  # (one stays at its setup)
            recorder.append(live.id, 0, events[: 5 * (seed - 19)])


def numbers(backend: Any) -> dict[str, int]:
    """Each game's number (in order of creation), by id."""
    return dict(backend.raw("SELECT id, no FROM games"))


def expected(rows: list[GameRow], order: str, no: dict[str, int], **f: str) -> list[str]:
    """The ids of ``rows`` that pass the filters ``f``, in ``order``, worked out here
    (``no``: the games' numbers, by id)."""

    def passes(r: GameRow) -> bool:
        if f.get("kind") and r.kind != f["kind"]:
            return False
        result = f.get("result")
        if result and result not in (r.status, r.condition):
            return False
        date = r.headers.get("date")
        if f.get("date_from") and (date is None or date < f["date_from"]):
            return False
        if f.get("date_to") and (date is None or date > f["date_to"]):
            return False
        player = f.get("player")
        return not player or fold_name(player) in {fold_name(p) for p in r.players}

    def key(r: GameRow) -> tuple[Any, ...]:
        date = r.headers.get("date")
        return {
            "newest": (date or "", no[r.id]),
            "oldest": (date is None, date or "", no[r.id]),
            "activity": (r.last_activity, no[r.id]),
            "longest": (r.turns, date or "", no[r.id]),
        }[order]

    kept = sorted((r for r in rows if passes(r)), key=key, reverse=ORDERS[order].descending)
    return [r.id for r in kept]


def walk(recorder: Any, order: str, limit: int, **f: str) -> tuple[list[str], list[list[str]]]:
    """Every game by ``next`` from the first page, and every page by ``prev`` from the
    last one (in the order the list shows them)."""
    forward, page = [], recorder.listing.page(**f, order=order, limit=limit)
    assert page.prev is None
    while True:
        forward += [g.id for g in page.games]
        assert len(page.games) == limit or page.next is None
        if page.next is None:
            break
        page = recorder.listing.page(**f, order=order, limit=limit, after=page.next)
    backward, page = [], recorder.listing.page(**f, order=order, limit=limit, last=True)
    assert page.next is None
    while True:
        backward.insert(0, [g.id for g in page.games])
        if page.prev is None:
            break
        page = recorder.listing.page(**f, order=order, limit=limit, before=page.prev)
    return forward, backward


@pytest.mark.parametrize("player_sort_at_most", [PLAYER_SORT_AT_MOST, 0])
def test_every_order_and_filter_pages_through_every_game_once(
    recorder: Any, backend: Any, monkeypatch: pytest.MonkeyPatch, player_sort_at_most: int
) -> None:
    """Both ways of listing a player's games (theirs sorted, or the order's index walked
    with their games looked up) give the same pages."""
    monkeypatch.setattr("recorder.listing.PLAYER_SORT_AT_MOST", player_sort_at_most)
    fill(recorder)
    rows = recorder.listing.games(limit=1000)
    assert len(rows) == 27
    for order, f, limit in itertools.product(ORDERS, FILTERS, (1, 4)):
        want = expected(rows, order, numbers(backend), **f)
        assert [g.id for g in recorder.listing.games(**f, order=order, limit=1000)] == want
        forward, backward = walk(recorder, order, limit, **f)
        assert forward == want, (order, f, limit)
        # back from the last page, the pages are the list's from its end; the first one
        # is the list's first page, whole (it may hold games the page after it shows)
        flat = [gid for page in backward[1:] for gid in page]
        assert flat == want[len(want) - len(flat) :], (order, f, limit)
        assert backward[0] == want[:limit], (order, f, limit)


def test_a_place_keeps_its_meaning_as_games_are_added(recorder: Any, backend: Any) -> None:
    fill(recorder)
    for order in ORDERS:
        first = recorder.listing.page(order=order, limit=5)
        before = [g.id for g in first.games]
        recorder.import_game(record(40 + len(before), ("Zed", "Yan"), date="2099-01-01"))
        recorder.import_game(record(41 + len(before), ("Zed", "Yan"), date="1999-01-01"))
        recorder.import_game(record(42 + len(before), ("Zed", "Yan")))
        want = expected(recorder.listing.games(limit=1000), order, numbers(backend))
        after = recorder.listing.page(order=order, limit=5, after=first.next)
        at = want.index(before[-1]) + 1
        assert [g.id for g in after.games] == want[at : at + 5]


def test_counts_stop_where_asked(recorder: Any, backend: Any) -> None:
    fill(recorder)
    rows = recorder.listing.games(limit=1000)
    for f in FILTERS:
        total = len(expected(rows, "newest", numbers(backend), **f))
        assert recorder.listing.count(**f) == total
        for at_most in (0, 2, 5, 100):
            assert recorder.listing.count(**f, at_most=at_most) == min(total, at_most + 1)


def test_a_place_of_another_order_or_none_is_refused(recorder: Any) -> None:
    fill(recorder)
    place = recorder.listing.page(order="longest", limit=2).next
    for other in ("newest", "oldest", "activity"):
        with pytest.raises(StoreError, match="not a place in this list"):
            recorder.listing.page(order=other, after=place)
    for text in ("", "!!", "bnVsbA", "WyJhIiwxLDJd"):
        with pytest.raises(StoreError, match="not a place in this list"):
            recorder.listing.page(before=text)


def test_each_summary_keeps_its_games_number(recorder: Any, backend: Any) -> None:
    fill(recorder)
    differ = (
        "SELECT count(*) FROM game_summaries AS s JOIN games AS g ON g.id = s.game_id"
        " WHERE s.game_no <> g.no OR s.sort_date <> COALESCE(g.date, '')"
    )
    assert backend.raw(differ) == [(0,)]
    assert recorder.verification.verify() == []
    backend.raw("DELETE FROM game_summaries")
    recorder.rebuild_projections()
    assert backend.raw(differ) == [(0,)]
    assert backend.raw("SELECT count(*) FROM game_summaries") == [(27,)]


# --- the plans: a page is a walk of an index ------------------------------------------------

#: The filters whose every page is one index's walk (a result without a kind walks one
#: index per kind; a player's walk looks up each game's players; a date range is a range
#: of the newest index, whatever the order).
ONE_WALK = [
    f
    for f in FILTERS
    if "player" not in f
    and not ("result" in f and "kind" not in f)
    and "date_to" not in f
    and "date_from" not in f
]


def plans(backend: Any, order: str, f: dict[str, str], place: bool) -> str:
    """The database's plan of a page's keys, as text."""
    o = ORDERS[order]
    after = tuple(t() for t in o.types) if place else None
    sql, params = keys_sql(
        filtered(
            f.get("player"), f.get("result"), f.get("date_from"), f.get("date_to"), f.get("kind")
        ),
        o,
        after=after,
        limit=50,
    )
    if backend.name == "sqlite":
        rows = backend.raw("EXPLAIN QUERY PLAN " + sql, tuple(params))
        return "\n".join(r[3] for r in rows)
    with psycopg.connect(backend.url, autocommit=True) as conn:
        # (a few rows: told not to read the table whole, the planner shows the index's
        # walk it would take for many)
        conn.execute("SET enable_seqscan = off")
        conn.execute("SET enable_sort = off")
        text = sql.replace("%", "%%").replace("?", "%s")
        rows = conn.execute(f"EXPLAIN {text}".encode(), params).fetchall()
        return "\n".join(r[0] for r in rows)


def test_each_page_is_a_walk_of_an_index(recorder: Any, backend: Any) -> None:
    fill(recorder)
    for order, place in itertools.product(ORDERS, (False, True)):
        for f in ONE_WALK:
            plan = plans(backend, order, f, place)
            if backend.name == "sqlite":
                assert "TEMP B-TREE" not in plan and "USING" in plan, (order, f, plan)
                assert "game_summaries_" + order in plan, plan
                assert not place or ")<(" in plan or ")>(" in plan, (order, f, plan)
            else:
                assert "Sort" not in plan and "Seq Scan" not in plan, (order, f, plan)
                assert "game_summaries_" + order in plan, plan
                assert not place or "ROW(" in plan, (order, f, plan)
        for f in FILTERS:
            if f in ONE_WALK or "player" in f or "date_from" in f or "date_to" in f:
                continue
            plan = plans(backend, order, f, place)
            # one walk of the kind's index per kind, each at most a page long
            walks = plan.count("game_summaries_" + order + "_kind")
            assert walks == len(GAMES) and "Seq Scan" not in plan and "SCAN s" not in plan, plan
