"""docs/api.md: every example runs against a real server started here, over the sample
games of fixtures/games, and answers what the example shows (the fields it shows: an
example leaves out what changes from one database to another)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recorder import EventStore
from recorder.io import load_file
from web import create_app

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"
BASE = "http://127.0.0.1:5000"

_EXAMPLE = re.compile(r"```sh\ncurl -s '(?P<url>[^']+)'\n```\s*```json\n(?P<shown>.*?)```", re.S)
_WRITE = re.compile(
    r"```sh\ncurl -s -X POST '(?P<url>[^']+)'(?P<headers>(?: -H '[^']+')*)"
    r" -d '(?P<body>[^']*)'\n```\s*```json\n(?P<shown>.*?)```",
    re.S,
)


def examples() -> list[tuple[str, Any]]:
    text = DOC.read_text(encoding="utf-8")
    found = [(m["url"], json.loads(m["shown"])) for m in _EXAMPLE.finditer(text)]
    writes = len(write_examples())
    assert len(found) + writes == text.count("curl -s"), "every curl example shows its answer"
    return found


def write_examples() -> list[tuple[str, dict[str, str], bytes, Any]]:
    """The POST examples, in the order the docs give them: (url, headers, body, shown)."""
    text = DOC.read_text(encoding="utf-8")
    found = []
    for m in _WRITE.finditer(text):
        headers = dict(h.split(": ", 1) for h in re.findall(r"-H '([^']+)'", m["headers"]))
        found.append((m["url"], headers, m["body"].encode(), json.loads(m["shown"])))
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from web.server import BackgroundServer

    path = str(tmp_path_factory.mktemp("api-docs") / "samples.db")
    with EventStore.open(path) as store:
        for source in sorted((ROOT / "fixtures" / "games").glob("*.tl")):
            for record in load_file(source):
                store.import_game(record)
    app = create_app({"DATABASE": path, "STORE_PER_THREAD": True})
    with BackgroundServer(app, threads=2) as running:
        yield running


def fetch(url: str) -> tuple[int, str, Any]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], json.load(answer)
    except urllib.error.HTTPError as err:
        return err.code, err.headers["Content-Type"], json.load(err)


def shows(shown: Any, actual: Any, where: str = "") -> None:
    """Every field ``shown`` is in ``actual`` with the same value; a list shown is a
    prefix of the actual list (an example may stop early)."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}.{key} is not in the answer"
            shows(value, actual[key], f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(actual, list) and len(shown) <= len(actual), where
        for i, value in enumerate(shown):
            shows(value, actual[i], f"{where}[{i}]")
    else:
        assert shown == actual, f"{where}: the docs show {shown!r}, the server says {actual!r}"


@pytest.mark.parametrize(("url", "shown"), examples(), ids=[u for u, _ in examples()])
def test_every_api_example_answers_what_the_docs_show(server, url, shown):
    assert url.startswith(BASE + "/api/")
    status, content_type, body = fetch(server.url + url[len(BASE) :])
    error = shown.get("error")
    if isinstance(error, dict):
        expected = error["status"]
    else:  # (work started in the background answers 202 until it is done)
        expected = 202 if shown.get("state") in ("working", "waiting") else 200
    assert status == expected
    assert content_type.startswith("application/json")
    shows(shown, body)


def test_the_writing_examples_answer_what_the_docs_show(tmp_path):
    """Create a game, log a move, lose a race, be refused, undo: in the docs' order, on a
    real server over an empty database, with the key the first answer gave."""
    from web.server import BackgroundServer

    found = write_examples()
    assert len(found) >= 5
    app = create_app({"DATABASE": str(tmp_path / "w.db"), "STORE_PER_THREAD": True})
    made: dict[str, str] = {}
    with BackgroundServer(app, threads=2) as running:
        for url, headers, body, shown in found:
            for name, value in made.items():
                url = url.replace(f"${name}", value)
                headers = {k: v.replace(f"${name}", value) for k, v in headers.items()}
            request = urllib.request.Request(
                running.url + url[len(BASE) :], data=body, headers=headers, method="POST"
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    status, answered = answer.status, json.load(answer)
            except urllib.error.HTTPError as err:
                status, answered = err.code, json.load(err)
            error = shown.get("error")
            assert status == (error["status"] if isinstance(error, dict) else 201), answered
            shows(shown, answered)
            if "key" in answered:
                made = {"ID": answered["id"], "KEY": answered["key"]}
    with EventStore.open(str(tmp_path / "w.db")) as store:
        assert store.game(made["ID"]).event_count == 3


def test_every_route_is_documented():
    from web.api import bp

    text = DOC.read_text(encoding="utf-8")
    app = create_app({"DATABASE": ":memory:", "TESTING": True})
    routes = [
        (method, r.rule)
        for r in app.url_map.iter_rules()
        if r.endpoint.startswith(bp.name + ".")
        for method in sorted((r.methods or set()) - {"HEAD", "OPTIONS"})
    ]
    assert routes
    for method, rule in routes:
        route = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", "<id>", rule)
        assert f"`{method} {route}" in text, (method, rule)
