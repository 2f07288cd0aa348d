"""The pages through Flask's test client: games list, replay, legality form, errors."""

from __future__ import annotations

import re
from typing import Any

import pytest
from markupsafe import escape

from engine.games import get_game
from engine.splendor_duel import game
from engine.splendor_duel.catalogue import COLOR_LETTERS, EMPTY, GOLD, SEGMENT_SET, SPACE_NAMES
from engine.splendor_duel.events import TokensTaken, event_from_dict

RULES = get_game("splendor-duel")

Games = Any
HOSTILE = "<script>alert(1)</script>"

SPACE_RE = re.compile(r'data-space="([a-e][1-5])" data-token="([A-Z]?)"')
PLAYER_TOKEN_RE = re.compile(r'data-color="([A-Z])">(\d+)')

#: A game of the list, by its row's link (each row also links its picture to share).
GAME_LINK = r'<td class="players"><a href="/games/([0-9a-f]+)[/"]'


def board_shown(html: str) -> dict[str, str]:
    return dict(SPACE_RE.findall(html))


def player_tokens_shown(html: str, seat: int) -> dict[str, int]:
    section = html.split(f'data-seat="{seat}"', 1)[1].split("</section>", 1)[0]
    return {c: int(n) for c, n in PLAYER_TOKEN_RE.findall(section)}


def board_expected(state: Any) -> dict[str, str]:
    return {
        SPACE_NAMES[s]: ("" if t == EMPTY else COLOR_LETTERS[t]) for s, t in enumerate(state.board)
    }


def text(response: Any) -> str:
    return response.get_data(as_text=True)


# --- games list ----------------------------------------------------------------------------


def test_games_list_shows_players_date_result_and_length(client: Any, store: Any) -> None:
    r = client.get("/?per_page=10")
    assert r.status_code == 200
    html = text(r)
    assert "Ann" in html and "Bert" in html and "2024-01-10" in html
    row = store.game(store.listing.games(player="Dana")[0].id)
    assert f"{row.turns} turns" in html
    assert "won on" in html or "won by resignation" in html
    assert "in progress" in html  # the unfinished game


def test_games_list_filters_by_player(client: Any) -> None:
    html = text(client.get("/?player=Ann&per_page=10"))
    assert html.count('class="players"') == 2
    assert "Dana" not in html


def test_games_list_filters_by_result(client: Any, store: Any) -> None:
    html = text(client.get("/?result=playing&per_page=10"))
    assert "Carla" in html and "Ann" not in html
    finished = store.listing.count(result="finished")
    html = text(client.get("/?result=finished&per_page=10"))
    assert html.count('class="players"') == finished
    assert "Carla" not in html


def test_games_list_pages(client: Any, store: Any) -> None:
    first = text(client.get("/"))
    assert first.count('class="players"') == 2
    assert f'<span class="count">{store.listing.count()}</span>' in first
    after = re.search(r'<a rel="next" href="/\?after=([\w-]+)"', first)
    assert after and 'rel="prev"' not in first and '<a rel="last" href="/?page=last"' in first
    second = text(client.get(f"/?after={after[1]}"))
    assert re.search(r'<a rel="prev" href="/\?before=[\w-]+"', second)
    assert '<a rel="first" href="/"' in second
    ids_first = set(re.findall(GAME_LINK, first))
    ids_second = set(re.findall(GAME_LINK, second))
    assert ids_first and ids_second and not ids_first & ids_second
    back = re.search(r'<a rel="prev" href="(/\?before=[\w-]+)"', second)
    assert back and set(re.findall(GAME_LINK, text(client.get(back[1])))) == (ids_first)


def test_games_list_paging_keeps_the_filters(client: Any) -> None:
    html = text(client.get("/?player=Ann&per_page=1"))
    assert '<a rel="next" href="/?player=Ann&amp;per_page=1&amp;after=' in html
    assert '<a rel="last" href="/?player=Ann&amp;per_page=1&amp;page=last"' in html


def test_an_old_page_number_leads_to_that_page_by_its_place(client: Any, store: Any) -> None:
    """``?page=N`` (the list's addresses before it paged by place) is sent on to the
    address of the same page, which keeps showing those games as others are added."""
    r = client.get("/?page=2&per_page=3")
    assert r.status_code == 302 and r.headers["Location"].startswith("/?per_page=3&after=")
    shown = re.findall(GAME_LINK, text(client.get(r.headers["Location"])))
    assert shown == [g.id for g in store.listing.games(limit=3, offset=3)]
    r = client.get("/api/games?page=2&per_page=3")
    assert r.status_code == 302 and "after=" in r.headers["Location"]
    assert [g["id"] for g in client.get(r.headers["Location"]).get_json()["games"]] == shown


@pytest.mark.parametrize(
    "query",
    ["page=0", "page=x", "per_page=0", "per_page=1000", "result=draw", "player=" + "x" * 101],
)
def test_games_list_bad_parameter_is_400(client: Any, query: str) -> None:
    r = client.get("/?" + query)
    assert r.status_code == 400
    assert "<!doctype html>" in text(r) and "Traceback" not in text(r)


def test_games_list_page_beyond_the_last_leads_to_the_last(client: Any, store: Any) -> None:
    r = client.get("/?page=999")
    assert r.status_code == 302 and r.headers["Location"] == "/?page=last"
    last = text(client.get("/?page=last"))
    assert 'rel="next"' not in last and '<a rel="first" href="/"' in last
    shown = re.findall(GAME_LINK, last)
    assert shown == [g.id for g in store.listing.games(limit=1000)][-len(shown) :]


@pytest.mark.parametrize("place", ["x", "WyJ4Il0", "W10", "WzEsMiwzXQ"])
def test_games_list_with_a_place_that_is_not_one_is_400(client: Any, place: str) -> None:
    r = client.get(f"/?after={place}")
    assert r.status_code == 400 and "parameter &#39;after&#39;" in text(r)
    assert client.get(f"/api/games?before={place}").status_code == 400


# --- replay --------------------------------------------------------------------------------


def test_game_address_redirects_to_the_last_step(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    r = client.get(f"/games/{gid}")
    assert r.status_code == 302
    assert r.headers["Location"] == f"/games/{gid}/step/{store.game(gid).event_count}"


@pytest.mark.parametrize("step", [0, 1, 2, 17, 60])
def test_replay_shows_the_engine_state(client: Any, games: Games, store: Any, step: int) -> None:
    gid = games.simulated[1]
    html = text(client.get(f"/games/{gid}/step/{step}"))
    state = store.state_at(gid, step)
    assert board_shown(html) == board_expected(state)
    for seat in (0, 1):
        shown = player_tokens_shown(html, seat)
        assert shown == {COLOR_LETTERS[c]: state.players[seat].tokens[c] for c in range(7)}
    assert f'data-bag="{sum(state.bag)}"' in html
    assert f'Step <b class="stepno">{step}</b> of {store.game(gid).event_count}' in html


def test_replay_draws_the_pyramid_royals_and_decks(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    html = text(client.get(f"/games/{gid}/step/30"))
    state = store.state_at(gid, 30)
    for row in state.pyramid:
        for cid in row:
            if cid is not None:
                assert f'data-card="{cid}"' in html
    for level in (1, 2, 3):
        assert f"level-{level} deck: {state.decks[level - 1]} card" in html
    for royal in state.royals:
        assert f'data-royal="{royal}"' in html


def test_replay_highlights_what_a_step_changed(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    events = store.events(gid)
    n = next(e.sequence for e in events if e.type == "tokens_taken")
    html = text(client.get(f"/games/{gid}/step/{n}"))
    for space in events[n - 1].payload["spaces"]:
        assert re.search(rf'class="space taken" data-space="{space}"', html)
    buy = next(e for e in events if e.type == "card_purchased")
    html = text(client.get(f"/games/{gid}/step/{buy.sequence}"))
    assert re.search(rf'class="card [^"]*mini new" [^>]*data-card="{buy.payload["card"]}"', html)
    assert "bought " + buy.payload["card"] in html


def test_replay_move_list_links_every_step_and_marks_the_current(
    client: Any, games: Games, store: Any
) -> None:
    gid = games.simulated[2]
    last = store.game(gid).event_count
    html = text(client.get(f"/games/{gid}/step/5"))
    links = re.findall(rf'href="/games/{gid}/step/(\d+)"', html)
    assert set(range(1, last + 1)) <= {int(x) for x in links}
    current = re.findall(
        r'<li id="m(\d+)" class="current"><a aria-current="step" href="([^"]+)"', html
    )
    assert current == [("5", f"/games/{gid}/step/5")]
    before = store.state_at(gid, 4)
    event = event_from_dict(store.events(gid)[4].payload)
    assert str(escape(RULES.move_text(before, event))) in html


def test_replay_navigation_links(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    last = store.game(gid).event_count
    html = text(client.get(f"/games/{gid}/step/10"))
    # "first" is the table as the setup laid it out (step 1), not step 0's empty table
    for rel, target in (("first", 1), ("prev", 9), ("next", 11), ("last", last)):
        assert f'data-nav="{rel}" href="/games/{gid}/step/{target}"' in html
    assert 'data-first="1"' in html
    assert 'data-nav="first"' not in text(client.get(f"/games/{gid}/step/1"))
    start = text(client.get(f"/games/{gid}/step/0"))
    assert 'data-nav="prev"' not in start and 'data-nav="next"' in start
    end = text(client.get(f"/games/{gid}/step/{last}"))
    assert 'data-nav="next"' not in end


def test_replay_at_the_end_says_who_won_and_how(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    row = store.game(gid)
    html = text(client.get(f"/games/{gid}/step/{row.event_count}"))
    names = row.headers["players"]
    assert 'class="outcome"' in html
    assert f"{names[row.winner]} won" in html


def test_slider_form_without_javascript_redirects(client: Any, games: Games) -> None:
    gid = games.simulated[0]
    r = client.get(f"/games/{gid}/goto?step=12")
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{gid}/step/12"
    assert client.get(f"/games/{gid}/goto?step=x").status_code == 400
    assert client.get(f"/games/{gid}/goto?step=100000").status_code == 404
    assert client.get("/games/nope/goto?step=1").status_code == 404


def test_comments_annotations_and_illegal_flags_are_shown(client: Any, games: Games) -> None:
    html = text(client.get(f"/games/{games.hostile}/step/{games.commented_step}"))
    assert "sneaky &lt;script&gt;alert(3)&lt;/script&gt;" in html
    assert '<span class="annotation">!?</span>' in html
    assert '<span class="annotation">&lt;i&gt;</span>' in html
    html = text(client.get(f"/games/{games.illegal}/step/{games.illegal_step}"))
    assert "played though illegal" in html
    assert "nobody noticed" in html
    assert 'class="flag"' in html
    assert 'class="violations"' in html and "p." in html


def test_player_names_and_headers_are_escaped(client: Any, games: Games) -> None:
    for url in (
        f"/games/{games.hostile}/step/0",
        f"/games/{games.hostile}/step/5",
        "/?per_page=10",
    ):
        html = text(client.get(url))
        assert HOSTILE not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<b>Co</b>" not in html
        assert "<img src=x" not in html
        assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/replay.js" defer>']


def test_pages_carry_a_content_security_policy(client: Any, games: Games) -> None:
    for url in ("/", f"/games/{games.simulated[0]}/step/3", "/games/nope"):
        csp = client.get(url).headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert client.get("/static/replay.js").status_code == 200
    assert client.get("/static/site.css").status_code == 200


@pytest.mark.parametrize(
    "url,status",
    [
        ("/games/nope", 404),
        ("/games/nope/step/1", 404),
        ("/games/{gid}/step/100000", 404),
        ("/games/{gid}/step/abc", 400),
        ("/games/{gid}/step/-1", 400),
        ("/no/such/page", 404),
    ],
)
def test_errors_are_pages_not_tracebacks(client: Any, games: Games, url: str, status: int) -> None:
    r = client.get(url.format(gid=games.simulated[0]))
    assert r.status_code == status
    html = text(r)
    assert "<!doctype html>" in html and "Traceback" not in html
    assert f'<span class="status">{status}</span>' in html


# --- is this legal here? -------------------------------------------------------------------


def _a_legal_move(store: Any, gid: str, step: int) -> str:
    state = store.state_at(gid, step)
    move = next(m for m in game.legal_moves(state) if m.type == "tokens_taken")
    return RULES.move_text(state, move)


def test_legality_form_says_legal(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    step = next(e.sequence for e in store.events(gid) if e.type == "tokens_taken")
    move = _a_legal_move(store, gid, step - 1)
    html = text(client.get(f"/games/{gid}/step/{step - 1}", query_string={"move": move}))
    assert 'class="verdict legal"' in html
    assert "<b>Legal.</b>" in html


def test_legality_form_names_the_broken_rule(client: Any, games: Games, store: Any) -> None:
    gid = games.simulated[0]
    step = next(e.sequence for e in store.events(gid) if e.type == "tokens_taken") - 1
    state = store.state_at(gid, step)
    gems = [s for s, t in enumerate(state.board) if t not in (EMPTY, GOLD)]
    pair = next((a, b) for a in gems for b in gems if a < b and (a, b) not in SEGMENT_SET)
    illegal = RULES.move_text(state, TokensTaken(pair))
    html = text(client.get(f"/games/{gid}/step/{step}", query_string={"move": illegal}))
    assert 'class="verdict illegal"' in html
    assert "<b>Illegal.</b>" in html
    assert '<ul class="violations">' in html and "<cite>p.5, Take up to 3 tokens</cite>" in html


def test_legality_form_unreadable_move(client: Any, games: Games) -> None:
    gid = games.simulated[0]
    html = text(client.get(f"/games/{gid}/step/3", query_string={"move": "<b>zzz"}))
    assert 'class="verdict illegal"' in html
    assert "&lt;b&gt;zzz" in html and "<b>zzz" not in html


def test_legality_form_too_long_is_400(client: Any, games: Games) -> None:
    r = client.get(f"/games/{games.simulated[0]}/step/3", query_string={"move": "x" * 500})
    assert r.status_code == 400


def test_a_corrupt_record_shows_its_steps_before_the_damage(damaged: tuple[str, str]) -> None:
    from web import create_app

    path, gid = damaged
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    r = client.get(f"/games/{gid}/step/3")
    assert r.status_code == 200 and "Traceback" not in text(r)
    assert 'class="altered"' in text(r) and "</b> at step 5: " in text(r)
    assert 'max="4"' in text(r) and "data-stream" not in text(r)
    r = client.get(f"/games/{gid}/step/9")  # past the damage: the last step shown
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/games/{gid}/step/4")
    r = client.get(f"/api/games/{gid}")
    body = r.get_json()
    assert r.status_code == 200 and body["altered"]["step"] == 5
    assert [e["sequence"] for e in body["events"]] == [1, 2, 3, 4]


def test_the_games_address_leads_to_the_games_list(client: Any) -> None:
    r = client.get("/games?player=Ann&per_page=50")
    assert r.status_code == 301
    assert r.headers["Location"] == "/?player=Ann&per_page=50"
    assert client.get(r.headers["Location"]).status_code == 200
