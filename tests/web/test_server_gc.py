"""The serving workers' garbage collection (:func:`web.server.age_out`)."""

from __future__ import annotations

import gc
import weakref

from web.server import age_out


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
