"""The one in-memory cache (recorder/lru.py): its bounds, by count and by weight, its
order of forgetting, and its bound kept while threads share it."""

from __future__ import annotations

import threading

from recorder.lru import LRU


def test_the_least_recently_used_go_first() -> None:
    kept = LRU[str, int](2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" is now the most recent
    kept.put("c", 3)
    assert kept.get("b") is None and kept.get("a") == 1 and kept.get("c") == 3
    kept.put("a", 10)  # a key put again keeps one entry, with the new value
    assert len(kept) == 2 and kept.weight == 2 and kept.get("a") == 10
    kept.clear()
    assert len(kept) == 0 and kept.weight == 0 and kept.get("a") is None


def test_a_weighed_cache_holds_what_its_bound_allows() -> None:
    kept = LRU[str, bytes](10, len)
    kept.put("a", b"1234")
    kept.put("b", b"12345")
    assert kept.weight == 9
    kept.put("c", b"12")  # 11 bytes in all: "a", the least recent, leaves
    assert kept.get("a") is None and kept.weight == 7
    kept.put("huge", b"x" * 11)  # heavier than the whole bound: not kept, nothing leaves
    assert kept.get("huge") is None and len(kept) == 2
    assert LRU[str, int](0).setdefault("a", lambda: 1) == 1  # made, not kept
    assert len(LRU[str, int](0)) == 0


def test_setdefault_makes_the_value_once() -> None:
    made: list[int] = []

    def make() -> int:
        made.append(len(made))
        return len(made)

    kept = LRU[str, int](4)
    assert kept.setdefault("a", make) == kept.setdefault("a", make) == 1
    assert made == [0]


def test_threads_sharing_it_never_push_it_past_its_bound() -> None:
    kept = LRU[int, bytes](1_000, len)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            barrier.wait()
            for i in range(2_000):
                key = (seed * 7919 + i) % 300
                kept.put(key, b"x" * (1 + key % 17))
                found = kept.get((key * 31) % 300)
                assert found is None or len(found) == 1 + ((key * 31) % 300) % 17
                assert kept.weight <= 1_000
        except BaseException as err:  # handed to the test's thread
            errors.append(err)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert kept.weight == sum(len(kept.get(k) or b"") for k in range(300)) <= 1_000
