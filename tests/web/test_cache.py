"""Rendered steps kept in memory and validated by ``ETag``: conditional GETs, appends that
make a new version of a game, and the bounded cache itself."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate
from recorder import EventStore, GameImport
from web import create_app
from web.cache import Cached, ResponseCache, code_token, make_etag

Games = Any


def _conditional(client: Any, url: str, etag: str) -> Any:
    return client.get(url, headers={"If-None-Match": etag})


@pytest.mark.parametrize(
    "url",
    [
        "/games/{gid}/step/7",
        "/games/{gid}/step/0",
        "/api/games/{gid}/state?step=7",
        "/api/games/{gid}/state",
        "/api/games/{gid}",
    ],
)
def test_a_step_has_a_strong_etag_and_a_conditional_get_is_a_304(
    client: Any, games: Games, url: str
) -> None:
    url = url.format(gid=games.simulated[0])
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert first.headers["Cache-Control"] == "no-cache"
    again = _conditional(client, url, etag)
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag
    # a weak comparison of the same tag, and a list naming it, validate too
    assert _conditional(client, url, "W/" + etag).status_code == 304
    assert _conditional(client, url, f'"other", {etag}').status_code == 304
    assert _conditional(client, url, '"other"').status_code == 200


def test_the_cached_answer_is_the_answer(games: Games) -> None:
    """A second app (another worker process, an empty cache) renders the same bytes and
    the same ETag as the answer the first app keeps and serves again."""
    gid = games.simulated[1]
    one = create_app({"DATABASE": games.path, "TESTING": True}).test_client()
    two = create_app({"DATABASE": games.path, "TESTING": True}).test_client()
    for url in (f"/games/{gid}/step/12", f"/api/games/{gid}/state?step=12", f"/api/games/{gid}"):
        a1, a2 = one.get(url), one.get(url)
        b = two.get(url)
        assert a1.get_data() == a2.get_data() == b.get_data()
        assert a1.headers["ETag"] == a2.headers["ETag"] == b.headers["ETag"]
        assert a1.headers["Content-Type"] == b.headers["Content-Type"]


def test_every_step_and_answer_has_its_own_etag(client: Any, games: Games) -> None:
    gid, other = games.simulated[0], games.simulated[1]
    urls = [
        f"/games/{gid}/step/5",
        f"/games/{gid}/step/6",
        f"/games/{other}/step/5",
        f"/api/games/{gid}/state?step=5",
        f"/api/games/{gid}",
    ]
    tags = [client.get(u).headers["ETag"] for u in urls]
    assert len(set(tags)) == len(tags)
    # a step named by default (the last) is the same answer as that step named
    last = client.get(f"/api/games/{gid}").get_json()["event_count"]
    assert (
        client.get(f"/api/games/{gid}/state").headers["ETag"]
        == client.get(f"/api/games/{gid}/state?step={last}").headers["ETag"]
    )


def test_the_legality_form_is_not_cached(client: Any, games: Games) -> None:
    url = f"/games/{games.simulated[0]}/step/3"
    plain = client.get(url)
    checked = client.get(
        url, query_string={"move": "royal R-1"}, headers={"If-None-Match": plain.headers["ETag"]}
    )
    assert checked.status_code == 200 and "ETag" not in checked.headers
    assert 'class="verdict illegal"' in checked.get_data(as_text=True)


def test_errors_carry_no_etag(client: Any, games: Games) -> None:
    for url in (
        "/games/nope/step/1",
        f"/games/{games.simulated[0]}/step/100000",
        f"/api/games/{games.simulated[0]}/state?step=x",
    ):
        r = client.get(url)
        assert r.status_code in (400, 404) and "ETag" not in r.headers


# --- appends make a new version ----------------------------------------------------------


@pytest.fixture()
def growing(games: Games, tmp_path: Path) -> tuple[str, str, list[Any]]:
    """A copy of the database with the first 40 events of a simulated game, and the
    events that come next."""
    path = tmp_path / "growing.db"
    shutil.copy(games.path, path)
    events = simulate.random_game(random.Random(21))
    with EventStore.open(str(path)) as store:
        gid = store.import_game(
            GameImport(
                kind="splendor-duel",
                headers={"players": ["Iris", "Jo"], "date": "2024-06-01"},
                events=[ev.event_to_dict(e) for e in events[:40]],
                meta=[None] * 40,
                game_id=None,
            )
        ).game_id
    return str(path), gid, events


def test_an_append_makes_new_answers_and_old_etags_stop_matching(
    growing: tuple[str, str, list[Any]],
) -> None:
    path, gid, events = growing
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    page_url, state_url = f"/games/{gid}/step/40", f"/api/games/{gid}/state?step=40"
    last_url = f"/api/games/{gid}/state"
    page, state, last = client.get(page_url), client.get(state_url), client.get(last_url)
    assert state.get_json()["last_step"] == 40 and last.get_json()["step"] == 40
    assert 'data-nav="next"' not in page.get_data(as_text=True)
    assert client.get(f"/games/{gid}/step/41").status_code == 404

    with EventStore.open(path) as store:
        store.append(gid, 40, [ev.event_to_dict(events[40])])

    for url, before in ((page_url, page), (state_url, state), (last_url, last)):
        r = _conditional(client, url, before.headers["ETag"])
        assert r.status_code == 200, url
        assert r.headers["ETag"] != before.headers["ETag"]
    grown = client.get(page_url).get_data(as_text=True)
    assert "of 41</span>" in grown and f'data-nav="next" href="/games/{gid}/step/41"' in grown
    assert client.get(state_url).get_json()["last_step"] == 41
    assert client.get(last_url).get_json()["step"] == 41
    assert client.get(f"/games/{gid}/step/41").status_code == 200
    assert client.get(f"/api/games/{gid}").get_json()["event_count"] == 41
    # the state at step 40 itself is unchanged by the append
    assert client.get(state_url).get_json()["state"] == state.get_json()["state"]


def test_an_append_by_another_process_is_seen_by_a_warm_app(
    growing: tuple[str, str, list[Any]],
) -> None:
    """The game is folded and its answers cached before the append; the next request
    reads the grown game, not the kept answers."""
    path, gid, events = growing
    client = create_app({"DATABASE": path, "TESTING": True}).test_client()
    for step in range(35, 41):
        client.get(f"/games/{gid}/step/{step}")
        client.get(f"/api/games/{gid}/state?step={step}")
    with EventStore.open(path) as store:
        store.append(gid, 40, [ev.event_to_dict(e) for e in events[40:43]])
    fresh = create_app({"DATABASE": path, "TESTING": True}).test_client()
    for url in (
        f"/games/{gid}/step/38",
        f"/api/games/{gid}/state?step=43",
        f"/api/games/{gid}/state",
    ):
        warm, cold = client.get(url), fresh.get(url)
        assert warm.status_code == cold.status_code == 200
        assert warm.get_data() == cold.get_data() and warm.headers["ETag"] == cold.headers["ETag"]


# --- the parts -----------------------------------------------------------------------------


def test_response_cache_keeps_the_most_recent_within_its_bytes() -> None:
    cache = ResponseCache(max_bytes=100)

    def put(key: str, size: int) -> None:
        cache.put(key, Cached(b"x" * size, f'"{key}"', "text/plain"))

    put("a", 40)
    put("b", 40)
    assert cache.get("a") is not None  # "a" is now the most recent
    put("c", 40)  # over 100 bytes: "b", the least recent, leaves
    assert cache.get("b") is None and cache.get("a") and cache.get("c")
    assert cache.weight == 80 and len(cache) == 2
    put("a", 10)  # replacing an entry counts its new size only
    assert cache.weight == 50
    put("huge", 101)  # larger than the whole cache: not kept, nothing evicted
    assert cache.get("huge") is None and len(cache) == 2
    assert ResponseCache(max_bytes=0).get("a") is None
    cache.clear()
    assert len(cache) == 0 and cache.weight == 0


def test_etag_depends_on_every_part() -> None:
    base = make_etag("code", "page", ("g1", 10, "t0", "t1"), 3)
    assert base == make_etag("code", "page", ("g1", 10, "t0", "t1"), 3)
    for other in (
        make_etag("code2", "page", ("g1", 10, "t0", "t1"), 3),
        make_etag("code", "state-json", ("g1", 10, "t0", "t1"), 3),
        make_etag("code", "page", ("g2", 10, "t0", "t1"), 3),
        make_etag("code", "page", ("g1", 11, "t0", "t1"), 3),
        make_etag("code", "page", ("g1", 10, "t0", "t2"), 3),
        make_etag("code", "page", ("g1", 10, "t0", "t1"), 4),
    ):
        assert other != base


def test_code_token_changes_with_the_code(tmp_path: Path) -> None:
    folder = tmp_path / "web"
    (folder / "templates").mkdir(parents=True)
    (folder / "views.py").write_text("x = 1\n")
    (folder / "templates" / "page.html").write_text("<p>{{ x }}</p>\n")
    (folder / "notes.txt").write_text("not code\n")
    token = code_token([folder])
    assert token == code_token([folder])
    (folder / "notes.txt").write_text("still not code\n")
    assert code_token([folder]) == token
    (folder / "templates" / "page.html").write_text("<p>{{ y }}</p>\n")
    changed = code_token([folder])
    assert changed != token
    (folder / "views.py").write_text("x = 2\n")
    assert code_token([folder]) not in (token, changed)


# --- one path for every answer -------------------------------------------------------------


def test_every_answer_carries_the_security_headers(client: Any, games: Games) -> None:
    """Pages, JSON, kept answers, 304s, errors of either kind and static files all leave
    through the same hook."""
    gid = games.simulated[0]
    page = client.get(f"/games/{gid}/step/4")
    answers = [
        page,
        client.get(f"/games/{gid}/step/4"),  # kept
        client.get(f"/games/{gid}/step/4", headers={"If-None-Match": page.headers["ETag"]}),
        client.get(f"/api/games/{gid}/state?step=4"),
        client.get("/"),
        client.get("/api/games"),
        client.get("/games/nope/step/1"),
        client.get(f"/api/games/{gid}/state?step=x"),
        client.get("/static/site.css"),
        client.head(f"/games/{gid}/step/4"),
    ]
    assert [a.status_code for a in answers] == [200, 200, 304, 200, 200, 200, 404, 400, 200, 200]
    for answer in answers:
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        assert answer.headers.getlist("Content-Security-Policy") == [
            answer.headers["Content-Security-Policy"]
        ]
    head = answers[-1]
    assert head.get_data() == b"" and head.headers["ETag"] == page.headers["ETag"]


def test_a_request_named_by_its_etag_is_not_rendered(games: Games, monkeypatch: Any) -> None:
    """A conditional GET that will be a 304 costs no rendering, even in a worker that has
    not kept the answer."""
    gid = games.simulated[0]
    url = f"/games/{gid}/step/6"
    etag = create_app({"DATABASE": games.path, "TESTING": True}).test_client().get(url)
    fresh = create_app({"DATABASE": games.path, "TESTING": True})
    from web import site

    def no_render(*args: Any) -> str:
        raise AssertionError("rendered for a 304")

    monkeypatch.setattr(site, "_replay_page", no_render)
    r = fresh.test_client().get(url, headers={"If-None-Match": etag.headers["ETag"]})
    assert r.status_code == 304 and r.headers["ETag"] == etag.headers["ETag"]


@pytest.mark.parametrize("per_thread", [False, True])
def test_a_damaged_record_answers_409_past_the_damage_without_etag(
    damaged: tuple[str, str], per_thread: bool
) -> None:
    path, gid = damaged
    client = create_app(
        {"DATABASE": path, "TESTING": True, "STORE_PER_THREAD": per_thread}
    ).test_client()
    r = client.get(f"/api/games/{gid}/state?step=9")
    assert r.status_code == 409 and r.get_json()["error"]["status"] == 409
    assert "altered at step 5" in r.get_json()["error"]["message"]
    assert "ETag" not in r.headers and r.headers["X-Frame-Options"] == "DENY"
    assert client.get(f"/api/games/{gid}/state?step=3").status_code == 200
