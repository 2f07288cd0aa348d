"""The games list: its orders (newest first by default), a player's statistics on the
list and on their own page, over the fixture games in a real SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore
from recorder.io import load_file
from recorder.listing import ORDERS
from web import create_app
from web.summary import ORDER_LABELS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures" / "games").glob("*.tl")) + sorted(
    (ROOT / "fixtures" / "splendor" / "games").glob("*.tl")
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("listing") / "l.db"
    with EventStore.open(path) as store:
        for source in FIXTURES:
            for record in load_file(source):
                store.import_game(record)
    return path


def _rows(db: Path, **kw: Any) -> list[Any]:
    with EventStore.open(db) as store:
        return store.listing.games(limit=1000, **kw)


def test_every_order_has_a_label() -> None:
    assert list(ORDER_LABELS) == list(ORDERS)


def test_newest_first_by_the_games_dates_unless_asked_otherwise(db: Path) -> None:
    rows = _rows(db)
    dated = [r.headers.get("date") for r in rows]
    known = [d for d in dated if d]
    assert len(known) >= 3 and known == sorted(known, reverse=True)
    assert all(d for d in dated[: len(known)])  # undated games come last
    oldest = [r.headers.get("date") for r in _rows(db, order="oldest") if r.headers.get("date")]
    assert oldest == sorted(known)
    turns = [r.turns for r in _rows(db, order="longest")]
    assert turns == sorted(turns, reverse=True)
    activity = [r.last_activity for r in _rows(db, order="activity")]
    assert activity == sorted(activity, reverse=True)


def test_the_page_the_api_and_the_cli_list_in_the_order_asked(db: Path) -> None:
    client = create_app({"DATABASE": str(db), "TESTING": True}).test_client()
    expected = [r.id for r in _rows(db, order="longest")]
    api = client.get("/api/games?order=longest&per_page=100").get_json()
    assert [g["id"] for g in api["games"]] == expected
    page = client.get("/?order=longest&per_page=100").get_data(as_text=True)
    # a finished game's link opens its start, one in progress where it stands
    assert [page.index(f'href="/games/{gid}') for gid in expected] == sorted(
        page.index(f'href="/games/{gid}') for gid in expected
    )
    assert '<option value="longest" selected>' in page
    assert client.get("/?order=sideways").status_code == 400
    listed = CliRunner().invoke(cli, ["games", "--order", "longest", "--db", str(db)])
    assert listed.exit_code == 0
    lines = [line.split()[0] for line in listed.output.splitlines()[1 : 1 + len(expected)]]
    assert lines == expected


def test_a_players_statistics_add_up_their_games(db: Path) -> None:
    name = "Alice"
    mine = _rows(db, player=name)
    assert len(mine) >= 2
    finished = [r for r in mine if r.status == "finished"]
    won = [r for r in finished if r.winner is not None and r.players[r.winner] == name]
    with EventStore.open(db) as store:
        stats = store.listing.player_stats(name.upper())  # any case
    assert stats is not None and stats.name == name
    assert (stats.games, stats.finished, stats.wins) == (len(mine), len(finished), len(won))
    assert sum(stats.wins_by.values()) == len(won)
    assert stats.average_turns == pytest.approx(sum(r.turns for r in finished) / len(finished))
    client = create_app({"DATABASE": str(db), "TESTING": True}).test_client()
    page = client.get(f"/players/{name}").get_data(as_text=True)
    assert f"<h1>{name}</h1>" in page and f"<dd>{len(mine)}" in page
    listed = client.get(f"/?player={name.lower()}").get_data(as_text=True)
    assert f'href="/players/{name}"' in listed and f"{len(mine)} games, {len(won)} won" in listed
    assert client.get("/players/Nobody%20at%20all").status_code == 404


def test_a_player_is_found_whatever_the_case_and_accents(db: Path) -> None:
    client = create_app({"DATABASE": str(db), "TESTING": True}).test_client()
    from recorder.projections import fold_name

    every = client.get("/api/games?per_page=100").get_json()["games"]
    exact = client.get("/api/games?player=Chloé").get_json()["games"]
    expected = [g["id"] for g in every if any(fold_name(p) == "chloe" for p in g["players"])]
    assert {"Chloé", "Chloe"} <= {p for g in every for p in g["players"]}  # both spellings
    assert sorted(g["id"] for g in exact) == sorted(expected)
    for typed in ("chloe", "CHLOE", "Chloe", "  chloé "):
        found = client.get("/api/games", query_string={"player": typed}).get_json()["games"]
        assert [g["id"] for g in found] == [g["id"] for g in exact], typed
    page = client.get("/?player=chloe").get_data(as_text=True)
    assert 'href="/players/Chlo' in page
    assert client.get("/players/chloe").status_code == 200
    listed = CliRunner().invoke(cli, ["games", "--player", "CHLOE", "--db", str(db)])
    assert all(g["id"] in listed.output for g in exact)


def test_the_page_the_api_and_the_cli_filter_by_the_game(db: Path) -> None:
    client = create_app({"DATABASE": str(db), "TESTING": True}).test_client()
    every = _rows(db)
    classic = [r.id for r in every if r.kind == "splendor"]
    assert len(classic) == 6 and len(every) > len(classic)
    assert [r.id for r in _rows(db, kind="splendor")] == classic
    api = client.get("/api/games?kind=splendor&per_page=100").get_json()
    assert [g["id"] for g in api["games"]] == classic and api["total"] == len(classic)
    assert {g["kind"] for g in api["games"]} == {"splendor"}
    page = client.get("/?kind=splendor&per_page=100").get_data(as_text=True)
    assert all(f'href="/games/{gid}' in page for gid in classic)
    assert not any(f'href="/games/{r.id}' in page for r in every if r.kind != "splendor")
    assert '<option value="splendor" selected>Splendor</option>' in page
    assert '<option value="splendor-duel">Splendor Duel</option>' in page
    assert page.count('<span class="game-title">Splendor</span>') == len(classic)
    paged = client.get("/?kind=splendor&per_page=2").get_data(as_text=True)
    assert '<a rel="next" href="/?kind=splendor&amp;per_page=2&amp;after=' in paged
    duel = client.get("/api/games?kind=splendor-duel&per_page=100").get_json()
    assert duel["total"] == len(every) - len(classic)
    bad = client.get("/?kind=chess")
    assert bad.status_code == 400 and "parameter &#39;kind&#39;" in bad.get_data(as_text=True)
    assert client.get("/api/games?kind=chess").status_code == 400
    listed = CliRunner().invoke(cli, ["games", "--kind", "splendor", "--db", str(db)])
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert [line.split()[0] for line in lines[1:-1]] == classic
    assert all(line.split()[1] == "Splendor" for line in lines[1:-1])
    assert lines[-1] == "6 games"


def test_the_count_and_a_players_statistics_stop_at_their_bounds(db: Path) -> None:
    """Past ``LIST_COUNT_AT_MOST`` games the list says "N+" (the API ``more_than``), and
    past ``LIST_STATS_AT_MOST`` a player's games it links to their page rather than add
    them all up on every page of the list."""
    client = create_app(
        {"DATABASE": str(db), "TESTING": True, "LIST_COUNT_AT_MOST": 3, "LIST_STATS_AT_MOST": 1}
    ).test_client()
    assert '<span class="count">3+</span>' in client.get("/").get_data(as_text=True)
    body = client.get("/api/games").get_json()
    assert body["total"] is None and body["more_than"] == 3
    exact = client.get("/api/games?kind=splendor&result=playing").get_json()
    assert exact["total"] == 0 and "more_than" not in exact
    listed = client.get("/?player=Alice").get_data(as_text=True)
    assert 'more than 1 games <a href="/players/Alice">statistics</a>' in listed
    assert client.get("/players/Alice").status_code == 200
