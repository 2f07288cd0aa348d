"""The serving workers' garbage collection (:func:`web.server.age_out`)."""

from __future__ import annotations

import gc
import time
import urllib.request
import weakref

from web import create_app
from web.server import AGE_EVERY, BackgroundServer, age_out


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_age_out_frees_what_became_unreachable_and_freezes_what_is_kept() -> None:
    """What is unreachable when a worker ages its objects out (a reference cycle, as a
    request leaves) is freed, not frozen for good; what is still held (a cache's entry)
    is frozen, and still freed when it is let go."""
    gc.collect()
    frozen_before = gc.get_freeze_count()
    try:
        dropped, kept = _Node(), _Node()
        dropped.other, kept.other = _Node(), _Node()
        dropped.other.other = dropped  # a cycle: only the collector frees it
        gone = weakref.ref(dropped)
        del dropped
        age_out()
        assert gone() is None
        assert gc.get_freeze_count() > frozen_before
        assert all(o is not kept for o in gc.get_objects())  # out of the collector's way
        held = weakref.ref(kept)
        del kept  # no cycle: freed at once, frozen or not
        assert held() is None
    finally:
        gc.unfreeze()


def _answers(url: str, count: int) -> None:
    for _ in range(count):
        with urllib.request.urlopen(url + "/") as response:
            assert response.status == 200


def test_waitress_ages_out_every_so_many_answers_as_the_workers_do() -> None:
    """``tablelog serve --server waitress`` (one process, threads) ages its objects out
    every :data:`AGE_EVERY` answers too; a server made without ``age`` (the tests' own)
    leaves the collector alone."""
    gc.collect()
    app = create_app({"DATABASE": ":memory:"})
    try:
        with BackgroundServer(app, threads=2) as plain:
            frozen_before = gc.get_freeze_count()
            _answers(plain.url, AGE_EVERY)
            assert gc.get_freeze_count() == frozen_before
        with BackgroundServer(app, threads=2, age=True) as aging:
            dropped = _Node()
            dropped.other = _Node()
            dropped.other.other = dropped
            gone = weakref.ref(dropped)
            del dropped
            _answers(aging.url, AGE_EVERY - 1)
            assert gc.get_freeze_count() == frozen_before
            _answers(aging.url, 1)
            deadline = time.monotonic() + 5  # aged after the answer is sent
            while gc.get_freeze_count() == frozen_before and time.monotonic() < deadline:
                time.sleep(0.01)
            assert gc.get_freeze_count() > frozen_before
            assert gone() is None  # collected before the freeze, not frozen for good
    finally:
        gc.unfreeze()
