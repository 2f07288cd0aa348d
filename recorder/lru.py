"""The one shape of every cache kept in memory by the store and the site (folded games,
rendered answers, analyses read, games' facts): a bounded mapping, safe to share
between threads, that forgets the least recently used entries first.

>>> kept = LRU[str, int](2)
>>> kept.put("a", 1); kept.put("b", 2); kept.get("a")
1
>>> kept.put("c", 3)  # "b" was the least recently used
>>> kept.get("b") is None, len(kept)
(True, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """Up to ``bound`` entries, or with ``weigh``, entries weighing up to ``bound`` in
    all (a value heavier than that alone is not kept)."""

    def __init__(self, bound: int, weigh: Callable[[V], int] | None = None) -> None:
        self.bound = max(0, bound)
        self._weigh = weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept under ``key``, now the most recently used; None if none."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key``; the least recently used leave to make room."""
        weight = self._weight_of(value)
        if weight > self.bound:
            return
        with self._lock:
            self._put(key, value, weight)

    def setdefault(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under ``key``, or ``make()`` kept there now (made once)."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
            made = make()
            self._put(key, made, self._weight_of(made))
            return made

    def _weight_of(self, value: V) -> int:
        return 1 if self._weigh is None else self._weigh(value)

    def _put(self, key: K, value: V, weight: int) -> None:
        items = self._items
        old = items.pop(key, None)
        if old is not None:
            self._weight -= self._weight_of(old)
        items[key] = value
        self._weight += weight
        while self._weight > self.bound:
            _, gone = items.popitem(last=False)
            self._weight -= self._weight_of(gone)

    @property
    def weight(self) -> int:
        """What the entries weigh in all (their count, without ``weigh``)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._weight = 0
