"""The fast path answers what Flask would, byte for byte, and leaves everything else to
Flask."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.test import Client

from web import create_app
from web.fast import FastPath

Games = Any


def _urls(games: Games) -> list[str]:
    gid, last, beyond = games.simulated[0], "{last}", "{beyond}"
    return [
        f"/api/games/{gid}/state?step={beyond}",
        f"/games/{gid}/step/{beyond}",
        f"/api/games/{gid}/state?step=0",
        f"/api/games/{gid}/state?step=7",
        f"/api/games/{gid}/state?step=07",
        f"/api/games/{gid}/state?step={last}",
        f"/api/games/{gid}/state",
        f"/api/games/{gid}/state?step=100000",
        f"/api/games/{gid}/state?step=-1",
        f"/api/games/{gid}/state?step=x",
        f"/api/games/{gid}/state?step=%C2%B2",
        f"/api/games/{gid}/state?step=3&step=4",
        f"/api/games/{gid}/state?step=",
        f"/api/games/{gid}/state/",
        "/api/games/nope/state?step=1",
        f"/api/games/{'x' * 300}/state?step=1",
        f"/api/games/{games.illegal}/state?step={games.illegal_step}",
        f"/games/{gid}/step/0",
        f"/games/{gid}/step/9",
        f"/games/{gid}/step/{last}",
        f"/games/{gid}/step/100000",
        f"/games/{gid}/step/9?move=royal%20R-1",
        f"/games/{gid}/step/9?move=",
        f"/games/{games.hostile}/step/{games.commented_step}",
        "/games/nope/step/1",
        f"/games/{gid}/step/-1",
        f"/games/{gid}/step/%C2%B2",
    ]


def _clients(games: Games) -> tuple[Any, Any]:
    config = {"DATABASE": games.path, "TESTING": True}
    return (
        create_app({**config, "FAST_PATH": True}).test_client(),
        create_app({**config, "FAST_PATH": False}).test_client(),
    )


def _same(a: Any, b: Any, url: str) -> None:
    assert a.status == b.status, url
    assert a.get_data() == b.get_data(), url
    assert sorted(a.headers.items()) == sorted(b.headers.items()), url


def test_the_fast_path_answers_as_flask_does(games: Games, store: Any) -> None:
    fast, flask = _clients(games)
    last = store.game(games.simulated[0]).event_count
    for url in _urls(games):
        url = url.replace("{last}", str(last)).replace("{beyond}", str(last + 1))
        for _ in range(2):  # rendered, then kept
            _same(fast.get(url), flask.get(url), url)
        etag = flask.get(url).headers.get("ETag")
        if etag:
            for tags in (etag, "W/" + etag, f'"nope", {etag}', '"nope"'):
                headers = {"If-None-Match": tags}
                _same(fast.get(url, headers=headers), flask.get(url, headers=headers), url)
        _same(fast.head(url), flask.head(url), url)


def test_the_fast_path_answers_alone_and_leaves_the_rest(games: Games) -> None:
    """Which requests reach the Flask app behind the fast path."""
    app = create_app({"DATABASE": games.path, "TESTING": True, "FAST_PATH": False})
    reached: list[str] = []
    inner = app.wsgi_app

    def flask_app(environ: dict[str, Any], start_response: Any) -> Any:
        reached.append(environ["PATH_INFO"] + "?" + environ.get("QUERY_STRING", ""))
        return inner(environ, start_response)

    client = Client(FastPath(app, flask_app))
    gid = games.simulated[1]

    def reaches_flask(url: str, **kw: Any) -> bool:
        reached.clear()
        response = client.get(url, **kw)
        assert response.status_code in (200, 304, 400, 404)
        return bool(reached)

    state = f"/api/games/{gid}/state?step=12"
    assert not reaches_flask(state)  # rendered by the fast path
    assert not reaches_flask(state)  # kept
    assert not reaches_flask(f"/api/games/{gid}/state")
    page = f"/games/{gid}/step/12"
    assert reaches_flask(page)  # a page is rendered by Flask's templates...
    assert not reaches_flask(page)  # ...and kept
    etag = client.get(page).headers["ETag"]
    assert reaches_flask(f"/games/{gid}/step/13", headers={"If-None-Match": '"x"'})
    assert not reaches_flask(page, headers={"If-None-Match": etag})
    for url in (
        f"/api/games/{gid}/state?step=100000",
        f"/api/games/{gid}/state?step=x",
        "/api/games/nope/state",
        f"/games/{gid}/step/12?move=x",
        "/games/nope/step/1",
        f"/api/games/{gid}",
        "/api/games",
        "/",
    ):
        assert reaches_flask(url), url


@pytest.mark.parametrize("per_thread", [False, True])
def test_a_damaged_record_is_left_to_flask(games: Games, tmp_path: Any, per_thread: bool) -> None:
    import shutil
    import sqlite3

    path = tmp_path / "corrupt.db"
    shutil.copy(games.path, path)
    gid = games.simulated[0]
    with sqlite3.connect(path) as conn:  # damaged by an outside tool
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute(
            "UPDATE events SET payload = ? WHERE game_id = ? AND sequence = 5",
            ('{"type": "tokens_taken", "spaces": ["z9"]}', gid),
        )
    client = create_app(
        {"DATABASE": str(path), "TESTING": True, "STORE_PER_THREAD": per_thread}
    ).test_client()
    r = client.get(f"/api/games/{gid}/state?step=9")
    assert r.status_code == 500 and r.get_json()["error"]["status"] == 500
    assert "ETag" not in r.headers
    assert client.get(f"/api/games/{gid}/state?step=3").status_code == 200
