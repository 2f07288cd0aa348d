"""The statistics page and ``GET /api/stats`` over the site's test games (real SQLite
file): the figures the page shows are those of :func:`recorder.stats.club_stats`, its
charts are SVG in the page, and its filters are checked."""

from __future__ import annotations

import re
from typing import Any

from recorder import EventStore
from recorder.stats import club_stats


def _figures(path: str, **filters: Any) -> dict[str, Any]:
    with EventStore.open(path) as store:
        return club_stats(store, **filters)


def test_the_page_shows_the_figures(client: Any, games: Any) -> None:
    figures = _figures(games.path)
    assert figures["games"] >= 3 and figures["left_out"]["unfinished"] >= 1
    html = client.get("/stats").get_data(as_text=True)
    counted = re.search(r'<p class="counted" id="counted">(.*?)</p>', html, re.S)[1]  # type: ignore[index]
    assert f"<b>{figures['games']}</b> finished games counted" in counted
    assert f"{figures['left_out']['unfinished']} still in play, left out" in counted
    first = figures["first_player"]
    assert (
        f"First player won</span> <b>{figures['first_player_wins']}</b> of {first['games']}" in html
    )
    victory = re.search(r'<table class="stat-table" id="victory">(.*?)</table>', html, re.S)[1]  # type: ignore[index]
    shown = [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', victory)]
    assert shown == list(figures["victory"].values())
    # the charts are in the page, drawn on the server
    assert html.count('<svg class="plot"') == 5
    assert "Wins by place in the turn order (95% interval)" in html
    # a hostile name is text, never markup
    assert "<script>alert(1)</script>" not in html


def test_the_api_answers_the_same(client: Any, games: Any) -> None:
    answer = client.get("/api/stats")
    assert answer.status_code == 200 and answer.json == _figures(games.path)
    player = client.get("/api/stats?player=Ann").json
    assert player == _figures(games.path, player="Ann")
    assert player["player"]["name"] == "Ann" and player["games"] == 2


def test_the_filters_are_checked(client: Any) -> None:
    answer = client.get("/stats?kind=chess")
    assert answer.status_code == 400 and "parameter &#39;kind&#39;" in answer.get_data(as_text=True)
    answer = client.get("/api/stats?player=" + "x" * 101)
    assert answer.status_code == 400
    assert answer.json["error"]["message"] == "parameter 'player': at most 100 characters"
    html = client.get("/stats?player=Nobody").get_data(as_text=True)
    assert "<b>0</b> finished games counted" in html and '<svg class="plot"' not in html
