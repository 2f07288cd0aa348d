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


PACED = textwrap.dedent(
    """
    from gevent import monkey
    monkey.patch_all()
    import json, sys, time
    import gevent
    from web import create_app

    db = sys.argv[1]
    app = create_app({"DATABASE": db, "PER_PAGE": 5, "RESPONSE_CACHE_BYTES": 0})
    client = app.test_client()
    assert client.get("/").status_code == 200  # (templates compiled, store opened)
    rests = []
    sleep = gevent.sleep

    def watched(seconds=0, *args, **kwargs):
        if seconds > 1e-4:  # (a rest, not the turn taken between two rows)
            rests.append(seconds)
        return sleep(seconds, *args, **kwargs)

    gevent.sleep = watched
    alone = client.get("/?order=oldest").status_code
    rested_alone = list(rests)
    done, order = [], []

    def page(name):
        assert client.get("/").status_code == 200
        order.append(name)

    def short():
        assert client.get("/api/games/" + sys.argv[2] + "/state?step=3").status_code == 200
        order.append("short")

    first = gevent.spawn(page, "first page")
    second = gevent.spawn(page, "second page")
    third = gevent.spawn_later(0, short)
    gevent.joinall([first, second, third])
    print(json.dumps({"alone": alone, "rested_alone": rested_alone, "rests": rests,
                      "order": order}))
    """
)


def test_a_page_that_waited_for_its_turn_rests_while_short_requests_go_on(games: Any) -> None:
    """Two pages of the list at once in one gevent worker: one at a time, and the one that
    waited rests as long as the first took; the short request is answered before the
    second page; a page asked alone never rests."""
    out = subprocess.run(
        [sys.executable, "-c", PACED, games.path, games.simulated[0]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer["alone"] == 200 and answer["rested_alone"] == []
    assert len(answer["rests"]) == 1 and 0 < answer["rests"][0] < 10
    # the short request is answered while the pages are drawn, before the second one
    order = answer["order"]
    assert order.index("short") < order.index("second page")
    assert order.index("first page") < order.index("second page")
