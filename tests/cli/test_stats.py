"""``tablelog stats`` over a real SQLite file of 1,000 seeded random games (of both games,
2 to 4 players for classic Splendor), a finished game with a move played though illegal
and a game still in play: its figures agree with a count made here directly from the
stored events, folded by the engine alone."""

from __future__ import annotations

import json
import random
import sqlite3
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.fold import Fold
from engine.games import get_game
from recorder import EventStore
from recorder.io import game_import_from_events, load_file

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bo", "Chloé", "Dan", "Eve", "Farid"]
DUEL_GAMES, CLASSIC_GAMES = 800, 200


def _random_record(kind: str, seed: int) -> Any:
    rng = random.Random(seed)
    rules = get_game(kind)
    seats = 2 if kind == "splendor-duel" else rng.randint(2, 4)
    names = rng.sample(PLAYERS, seats)
    events = rules.random_game(rng, names)
    return game_import_from_events(
        events,
        {"players": names, "date": f"2025-{1 + seed % 12:02d}-{1 + seed % 28:02d}"},
        kind=kind,
    )


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "club.db"
    records = [_random_record("splendor-duel", seed) for seed in range(DUEL_GAMES)]
    records += [_random_record("splendor", 10_000 + seed) for seed in range(CLASSIC_GAMES)]
    # a finished game with a move the table let stand though illegal
    records += load_file(ROOT / "fixtures" / "games" / "dispute.tl")
    # a game still in play
    unfinished = _random_record("splendor-duel", 99_999)
    unfinished = game_import_from_events(
        [get_game("splendor-duel").event_from_dict(p) for p in unfinished.events[:40]],
        {"players": ["Ann", "Bo"]},
        kind="splendor-duel",
    )
    records.append(unfinished)
    # a finished game, then voided as started by mistake
    records.append(_random_record("splendor-duel", 88_888))
    with EventStore.open(path) as store:
        results = store.import_games(records)
        assert all(not isinstance(r, Exception) for r in results), results[:3]
        store.void_game(results[-1].game_id, "entered twice")  # type: ignore[union-attr]
    return path


def _count(db: Path, kind: str | None = None, player: str | None = None) -> dict[str, Any]:
    """The figures counted from the stored events themselves: each game's events read
    from the ``event_log`` view and folded by the engine (the move played though illegal
    forced); who started from the setup event's payload."""
    conn = sqlite3.connect(db)
    games = conn.execute(
        "SELECT id, kind, players FROM games WHERE id NOT IN (SELECT game_id FROM game_voids)"
        " ORDER BY no"
    ).fetchall()
    out: dict[str, Any] = {
        "games": 0,
        "unfinished": 0,
        "flagged": 0,
        "first_player_wins": 0,
        "places": Counter(),
        "place_wins": Counter(),
        "victory": Counter(),
        "bought": Counter(),
    }
    for game_id, game_kind, players in games:
        names = json.loads(players)
        if (kind and game_kind != kind) or (player and player not in names):
            continue
        rules = get_game(game_kind)
        rows = conn.execute(
            "SELECT payload, played_illegally FROM event_log WHERE game_id = ? ORDER BY sequence",
            (game_id,),
        ).fetchall()
        payloads = [json.loads(p) for p, _ in rows]
        fold = Fold(rules, names)
        for payload, illegal in zip(payloads, (i for _, i in rows), strict=True):
            fold.push(rules.event_from_dict(payload), bool(illegal))
        result = rules.status(fold.head).result
        if result is None:
            out["unfinished"] += 1
            continue
        out["games"] += 1
        out["flagged"] += any(i for _, i in rows)
        out["victory"][result.condition] += 1
        first = payloads[0]["first_player"]
        winner = result.winner
        out["first_player_wins"] += winner == first
        for seat in range(len(names)):
            place = (seat - first) % len(names)
            out["places"][place] += 1
            out["place_wins"][place] += winner == seat
        for p in payloads:
            if p["type"] == "card_purchased":
                out["bought"][game_kind, p["card"]] += 1
    return out


def _stats(db: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["stats", "--db", str(db), "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def test_the_figures_agree_with_a_count_from_the_stored_events(club: Path) -> None:
    figures = _stats(club)
    counted = _count(club)
    assert figures["games"] == counted["games"] == DUEL_GAMES + CLASSIC_GAMES + 1
    assert figures["left_out"] == {"unfinished": counted["unfinished"], "void": 1}
    assert counted["unfinished"] == 1
    assert figures["flagged"] == counted["flagged"] == 1
    assert figures["first_player_wins"] == counted["first_player_wins"]
    assert figures["first_player"]["wins"] == counted["first_player_wins"]
    assert figures["victory"] == dict(counted["victory"])
    assert sum(figures["victory"].values()) == figures["games"]
    shared = counted["games"] - sum(counted["place_wins"].values())
    assert figures["shared"] == shared
    assert {s["place"]: s["games"] for s in figures["by_seat"]} == dict(counted["places"])
    assert {s["place"]: s["wins"] for s in figures["by_seat"]} == dict(counted["place_wins"])
    # the top cards bought, as often as the stored purchases name them
    for card in figures["bought"]:
        assert card["times"] == counted["bought"][card["kind"], card["card"]]
        assert 0 <= card["winners_share"] <= 1 and card["words"]
    top = max(counted["bought"].values())
    assert figures["bought"][0]["times"] == top
    # the interval holds the rate, and the even rate is between 1/4 and 1/2
    first = figures["first_player"]
    assert first["interval"][0] <= first["rate"] <= first["interval"][1]
    assert 0.25 < first["expected"] < 0.5


def test_a_game_and_a_player_are_counted_alone(club: Path) -> None:
    classic = _stats(club, "--kind", "splendor")
    counted = _count(club, kind="splendor")
    assert classic["games"] == counted["games"] == CLASSIC_GAMES
    assert classic["kinds"] == {"splendor": CLASSIC_GAMES}
    assert classic["victory"] == dict(counted["victory"])
    assert all(c["kind"] == "splendor" for c in classic["bought"])

    eve = _stats(club, "--player", "Eve")
    counted = _count(club, player="Eve")
    assert eve["games"] == counted["games"] > 0
    assert eve["first_player_wins"] == counted["first_player_wins"]
    assert eve["player"]["name"] == "Eve" and eve["player"]["games"] == counted["games"]
    # a player is found as the games list finds one: any case, accents or not
    chloe = _stats(club, "--player", "CHLOE")
    assert chloe["player"]["name"] == "Chloé"
    assert chloe["games"] == chloe["player"]["games"] == _count(club, player="Chloé")["games"]
    assert sum(h["games"] for h in eve["head_to_head"] if "Eve" in h["players"]) >= eve["games"]


def test_the_text_and_the_plot(club: Path, tmp_path: Path) -> None:
    plot = tmp_path / "club.svg"
    result = CliRunner().invoke(cli, ["stats", "--db", str(club), "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    figures = _stats(club)
    lines = result.output.splitlines()
    assert lines[0] == (
        f"{figures['games']} finished games (1 with a move played though illegal); "
        "1 still in play, left out; 1 void, left out"
    )
    assert f"First player won {figures['first_player_wins']} of" in result.output
    assert f"charts written to {plot}" in result.output
    svg = ET.parse(plot).getroot()
    texts = [t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    for title in (
        "Wins by place in the turn order (95% interval)",
        "Games by victory",
        "Cards bought most (times · winners' share)",
        "Cards reserved most (times · winners' share)",
    ):
        assert title in texts
    assert any(t.startswith("Games by length in turns (median ") for t in texts)
    # one bar for each place in the turn order (2 to 4 players) and each card listed
    rects = list(svg.iter("{http://www.w3.org/2000/svg}rect"))
    assert len(rects) > 4 + len(figures["bought"]) + len(figures["reserved"])
    from web.images import png_size, svg_to_png

    assert png_size(svg_to_png(plot.read_text(encoding="utf-8")))[0] > 400


def test_an_empty_store_and_a_plot_that_cannot_be_written(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    result = CliRunner().invoke(cli, ["stats", "--db", str(db)])
    assert result.exit_code == 0 and result.output == "0 finished games\n"
    figures = _stats(db)
    assert figures["games"] == 0 and figures["first_player"]["rate"] is None
    result = CliRunner().invoke(
        cli, ["stats", "--db", str(db), "--plot", str(tmp_path / "no" / "such" / "dir.svg")]
    )
    assert result.exit_code == 1
    assert "dir.svg: cannot write the plot" in result.output
