"""A long list drawn in a gevent worker lets the worker's other connections run between
its rows (``web.db.Turns``), so one client paging a long list does not hold up a short
request that arrives meanwhile on the same worker.

gevent patches a process as it starts, so each case runs in a process of its own: the
page is asked for in the main greenlet while a second greenlet, started just before,
waits to be let in; where it got in says whether the page was drawn in turns."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    from gevent import monkey
    monkey.patch_all()
    import json, sys
    import gevent
    from web import create_app

    db, path = sys.argv[1], sys.argv[2]
    app = create_app({"DATABASE": db, "PER_PAGE": 5, "RESPONSE_CACHE_BYTES": 0})
    client = app.test_client()
    assert client.get(path).status_code == 200  # (templates compiled, store opened)
    seen = []
    done = []

    def short_request():
        seen.append("answered before the page was done" if not done else "after")

    gevent.spawn(short_request)
    response = client.get(path)
    done.append(True)
    gevent.sleep(0)
    print(json.dumps({"status": response.status_code, "seen": seen}))
    """
)


def _run(db: str, path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, db, path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", ["/", "/api/games"])
def test_a_list_lets_a_short_request_in_between_its_rows(games: Any, path: str) -> None:
    answer = _run(games.path, path)
    assert answer["status"] == 200
    assert answer["seen"] == ["answered before the page was done"]


def test_turns_is_a_plain_list_outside_gevent() -> None:
    from web.db import Turns

    rows = Turns(x * 2 for x in range(4))
    assert rows == [0, 2, 4, 6] and list(rows) == [0, 2, 4, 6] and bool(Turns()) is False
