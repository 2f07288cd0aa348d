"""Every route of the site, fuzzed: hypothesis draws path parts, query strings, headers and
bodies (known ids and steps mixed with hostile text, JSON of any shape, forms with and
without a key) and each answer must be no 5xx, carry the security headers, and be JSON
(``{"error": ...}``) when an API route refuses.

The routes are read from Flask's url_map, and :data:`REQUESTS` must hold a strategy for
each: a route added without one fails :func:`test_every_route_is_fuzzed`.  Bounded for
CI (``TABLELOG_FUZZ_EXAMPLES`` examples per route, 20 unless set); ``bench/soak.py``
fuzzes the real server for longer.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import FRAMEABLE, FRAMEABLE_HEADERS, SECURITY_HEADERS, create_app, routes

ROOT = Path(__file__).resolve().parents[2]
SETUP = (ROOT / "docs" / "examples" / "evening.tl").read_text(encoding="utf-8")
EXAMPLES = int(os.environ.get("TABLELOG_FUZZ_EXAMPLES", "20"))


@dataclass
class Site:
    """The app over a copy of the test games, a game made through the API (so its key is
    known), and ids and steps to draw from."""

    app: Any
    game_ids: list[str]
    key: str
    logged: str


@pytest.fixture(scope="module")
def site(games: Any, tmp_path_factory: pytest.TempPathFactory) -> Site:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    shutil.copy(games.path, path)
    # CSRF checks off: a form is fuzzed past the token into its handler (the token itself
    # is tested in test_writes.py)
    # one animation drawn at a time (the others wait): fuzzing starts many
    app = create_app(
        {
            "DATABASE": str(path),
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DRAWING_SLOTS": 1,
            # (an analysis a fuzzed request starts is short: the machine runs the suite)
            "ANALYSIS_PLAYOUTS": 2,
        }
    )
    made = app.test_client().post("/api/games", json={"notation": SETUP})
    assert made.status_code == 201, made.get_data(as_text=True)
    logged, key = made.get_json()["id"], made.get_json()["key"]
    ids = [*games.simulated[:2], games.hostile, games.illegal, logged]
    return Site(app, ids, key, logged)


# --- what a request is made of ----------------------------------------------------------

#: Text as a hostile client sends it: any character a URL or form can carry (lone
#: surrogates cannot be encoded at all), long runs, markup, numbers of many digits.
hostile_text = st.one_of(
    st.text(st.characters(exclude_categories=["Cs"]), max_size=40),
    st.sampled_from(
        ["", "0", "-1", "1e9", "9" * 5000, "<script>", "../../etc/passwd", "%00", "a" * 300]
    ),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | hostile_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner, max_size=4),
    max_leaves=12,
)
QUERY_NAMES = [
    "page", "per_page", "player", "result", "order", "kind", "status", "q", "step", "move",
    "after", "from", "to", "url", "format", "maxwidth", "maxheight", "all", "line",
    "at", "marked",
]  # fmt: skip
FORM_NAMES = [
    "move", "key", "secret", "kind", "form_id", "expect", "as_played", "to", "notation", "reason",
    "line", "from", "by", "at", "mark", "note",
]  # fmt: skip


@dataclass
class Drawn:
    """One request: where, how, with what."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any = None
    form: dict[str, str] | None = None
    raw: bytes | None = None


def _mostly(known: st.SearchStrategy[Any], other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``known`` three times in four, else ``other``: hostile values must not keep every
    request at the door (a 404) when the handler behind it is what is fuzzed."""
    return st.integers(0, 3).flatmap(lambda n: other if n == 0 else known)


def _path_part(site: Site, name: str) -> st.SearchStrategy[str]:
    if name == "game_id":
        # the game whose key is known most often, so writes get past the key
        return _mostly(st.sampled_from([*site.game_ids, *[site.logged] * 6]), hostile_text)
    if name == "step":
        return _mostly(st.integers(0, 130).map(str), hostile_text | st.integers(-3, 999).map(str))
    if name == "kind":
        return _mostly(st.sampled_from(["splendor-duel", "splendor"]), hostile_text)
    if name == "filename":
        return (
            st.sampled_from(
                ["site.css", "replay.js", "game.css", "record.js", "nope.js", "../web/api.py"]
            )
            | hostile_text
        )
    if name == "name":
        return _mostly(st.sampled_from(["Ann", "Bo", "<script>alert(1)</script>"]), hostile_text)
    return hostile_text


def _headers(site: Site) -> st.SearchStrategy[dict[str, str]]:
    auth = _mostly(
        st.just(f"Bearer {site.key}"),
        st.sampled_from([None, "Bearer wrong", "Basic x", "Bearer " + "k" * 500]),
    )
    etag = st.sampled_from([None, '"x"', "*", "W/" + "a" * 100])
    accept = st.sampled_from([None, "application/json", "text/event-stream", "*/*"])

    def build(a: str | None, e: str | None, c: str | None) -> dict[str, str]:
        out = {"Authorization": a, "If-None-Match": e, "Accept": c}
        return {k: v for k, v in out.items() if v is not None}

    return st.builds(build, auth, etag, accept)


def _body(site: Site, rule: str) -> st.SearchStrategy[dict[str, Any]]:
    """The body of a POST: JSON (of the route's shape or any), a form, or raw bytes."""
    moves = st.sampled_from(["take c3", "pass", "buy 1-11", "undo", "reserve 3-10"]) | hostile_text
    api_shaped = st.fixed_dictionaries(
        {},
        optional={
            "move": moves,
            "expect": st.integers(-2, 300) | hostile_text,
            "as_played": st.booleans() | hostile_text,
            "to": st.integers(-2, 300),
            "notation": st.sampled_from([SETUP, SETUP[:80], '[Game "Chess"]']) | hostile_text,
        },
    )
    form = st.dictionaries(
        st.sampled_from(FORM_NAMES), _mostly(st.just(site.key), moves), max_size=5
    )
    return st.one_of(
        st.builds(lambda j: {"json": j}, api_shaped | json_values),
        st.builds(lambda f: {"form": f}, form),
        st.builds(lambda b: {"raw": b}, st.binary(max_size=200)),
    )


def _request(site: Site, rule: Any, method: str) -> st.SearchStrategy[Drawn]:
    names = list(rule.arguments)

    def build(parts: list[str], query: dict[str, str], headers: dict[str, str], body: Any) -> Drawn:
        values = dict(zip(names, parts, strict=True))
        path = rule.rule
        for name, value in values.items():
            converter = f"<path:{name}>" if f"<path:{name}>" in path else f"<{name}>"
            path = path.replace(converter, quote(value, safe="") or "x")
        return Drawn(method, path, query, headers, **(body or {}))

    return st.builds(
        build,
        st.tuples(*(_path_part(site, n) for n in names)).map(list),
        st.dictionaries(st.sampled_from(QUERY_NAMES), hostile_text, max_size=4),
        _headers(site),
        _body(site, rule.rule) if method == "POST" else st.none(),
    )


#: Per (route, method): whether it is fuzzed as such.  A strategy is built from the rule
#: itself (its arguments named above); this table is the list the url_map must match, so
#: a new route is a decision to fuzz it (and how to name its arguments), not a default.
REQUESTS: dict[tuple[str, str], Callable[..., Any]] = {
    (rule, method): _request
    for rule, method in [
        ("/", "GET"),
        ("/api/games", "GET"),
        ("/api/games", "POST"),
        ("/api/games/<game_id>", "GET"),
        ("/api/games/<game_id>/analysis", "GET"),
        ("/api/games/<game_id>/check", "GET"),
        ("/api/games/<game_id>/events", "POST"),
        ("/api/games/<game_id>/review", "GET"),
        ("/api/games/<game_id>/review", "POST"),
        ("/api/games/<game_id>/state", "GET"),
        ("/api/games/<game_id>/stream", "GET"),
        ("/api/games/<game_id>/undo", "POST"),
        ("/api/stats", "GET"),
        ("/cards/<kind>/find", "GET"),
        ("/games", "GET"),
        ("/games/<game_id>", "GET"),
        ("/games/<game_id>/analysis", "GET"),
        ("/games/<game_id>/goto", "GET"),
        ("/games/<game_id>/record", "GET"),
        ("/games/<game_id>/record", "POST"),
        ("/games/<game_id>/record/key", "POST"),
        ("/games/<game_id>/record/undo", "GET"),
        ("/games/<game_id>/record/undo", "POST"),
        ("/games/<game_id>/record/void", "GET"),
        ("/games/<game_id>/record/void", "POST"),
        ("/games/<game_id>/review", "GET"),
        ("/games/<game_id>/review/lines", "POST"),
        ("/games/<game_id>/review/marks", "POST"),
        ("/games/<game_id>/review/withdraw", "POST"),
        ("/games/<game_id>/step/<step>", "GET"),
        ("/games/<game_id>/step/<step>.png", "GET"),
        ("/games/<game_id>/step/<step>.svg", "GET"),
        ("/games/<game_id>/step/<int:step>/taps", "GET"),
        ("/games/<game_id>.gif", "GET"),
        ("/games/<game_id>.tl", "GET"),
        ("/embed/<game_id>", "GET"),
        ("/embed/<game_id>/step/<step>", "GET"),
        ("/oembed", "GET"),
        ("/games/new", "GET"),
        ("/games/new", "POST"),
        ("/players/<name>", "GET"),
        ("/stats", "GET"),
        ("/static/<path:filename>", "GET"),
        ("/games-static/<kind>/<path:filename>", "GET"),
    ]
}


def _routes() -> list[tuple[str, str]]:
    return routes(create_app({"DATABASE": ":memory:", "TESTING": True}))


ROUTES = _routes()


def test_every_route_is_fuzzed() -> None:
    assert set(REQUESTS) == set(ROUTES), (
        "routes without a fuzzing strategy in REQUESTS (or strategies for routes gone): "
        f"{sorted(set(ROUTES) ^ set(REQUESTS))}"
    )


def _send(client: Any, drawn: Drawn) -> Any:
    kwargs: dict[str, Any] = {"query_string": drawn.query, "headers": drawn.headers}
    if drawn.method == "POST":
        if drawn.raw is not None:
            kwargs["data"] = drawn.raw
            kwargs["content_type"] = "application/json"
        elif drawn.form is not None:
            kwargs["data"] = drawn.form
        else:
            kwargs["json"] = drawn.json
    # a live stream never ends by itself: its status and headers are what is judged
    return client.open(drawn.path, method=drawn.method, buffered=False, **kwargs)


@pytest.mark.parametrize(("rule", "method"), ROUTES, ids=[f"{m} {r}" for r, m in ROUTES])
def test_a_fuzzed_request_never_fails_and_keeps_its_headers(
    site: Site, rule: str, method: str
) -> None:
    url_rule = next(r for r in site.app.url_map.iter_rules() if r.rule == rule)
    strategy = REQUESTS[(rule, method)](site, url_rule, method)
    client = site.app.test_client()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(strategy)
    def check(drawn: Drawn) -> None:
        answer = _send(client, drawn)
        try:
            where = f"{drawn.method} {drawn.path} {drawn.query}"
            assert answer.status_code < 500, (where, answer.status_code)
            # the embedded replay may be framed by any site; every other page refuses
            expected = FRAMEABLE_HEADERS if url_rule.endpoint in FRAMEABLE else SECURITY_HEADERS
            for name, value in expected:
                assert answer.headers.get(name) == value, (where, name)
            if drawn.path.startswith("/api/") and answer.status_code >= 400:
                assert answer.mimetype == "application/json", where
                error = answer.get_json()["error"]
                assert error["status"] == answer.status_code and error["message"], where
        finally:
            answer.close()

    check()


def test_a_body_over_the_request_limit_is_refused_naming_the_limit(site: Site) -> None:
    client = site.app.test_client()
    limit = site.app.config["MAX_CONTENT_LENGTH"]
    api = client.post(
        f"/api/games/{site.logged}/events",
        data=b'{"move": "' + b"a" * limit + b'"}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {site.key}"},
    )
    assert api.status_code == 413
    assert api.get_json()["error"]["message"] == (
        f"the request's body is larger than the limit of {limit:,} bytes"
    )
    form = client.post("/games/new", data={"notation": "x" * limit})
    assert form.status_code == 413
    assert f"larger than the limit of {limit:,} bytes" in form.get_data(as_text=True)
