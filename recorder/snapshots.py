"""The store's one cache of folded games (:class:`Snapshots`).

A store keeps each game it has folded lately as an :class:`engine.fold.Fold` (the state
every :data:`engine.fold.SNAPSHOT_EVERY` steps and at the head), whoever folded it: the
store itself for :meth:`~recorder.core.SqlStore.state_at` and
:meth:`~recorder.core.SqlStore.append`, the site for a replay (``web/timeline.py`` hands
the fold it made for the move list over).  An append grows the game's fold by the
events it stored (:meth:`engine.fold.Fold.grown`), so a game logged a move at a time is
folded from its start at most once in a process.

Every store over one database in a process shares its cache (:func:`for_database`): the
site's worker threads each keep a store of their own, and a move logged by one goes on
from the fold another made for a replay.  A fold is used only while the game's head is
the one it was folded to: the same step and the same chain hash (:mod:`recorder.chain`),
which stands for every event before it.  A fold in the cache is read and never changed,
so threads share it.  Behind it, the stored ``snapshots`` table keeps the head's
position and one every :data:`recorder.prepare.STORED_EVERY` steps (what a store opened
afresh starts from); ``tablelog verify`` checks those against a fresh fold.
"""

from __future__ import annotations

from engine.fold import Fold

from .lru import LRU

#: How many games' folds a database's cache keeps (the least lately used go first).
SIZE = 256

#: How many databases' caches a process keeps (the least lately opened go first).
DATABASES = 8


class Snapshots:
    """The folded games of a database, by game id, each with its head's chain hash: up
    to ``size`` of them, the least lately used leaving first."""

    def __init__(self, size: int = SIZE) -> None:
        self._items = LRU[str, tuple[bytes | None, Fold]](size)

    def get(self, game_id: str, step: int, head: bytes | None) -> Fold | None:
        """The game's fold if it stands at ``step`` with chain hash ``head`` (the game's
        head as stored now), else None."""
        item = self._items.get(game_id)
        if item is None or item[0] != head or item[1].step != step:
            return None
        return item[1]

    def put(self, game_id: str, head: bytes | None, fold: Fold) -> None:
        """Keep ``fold`` as the game's, folded to the step whose chain hash is ``head``;
        the caller changes it no more."""
        self._items.put(game_id, (head, fold))

    def clear(self) -> None:
        self._items.clear()


_caches = LRU[str, Snapshots](DATABASES)


def for_database(place: str) -> Snapshots:
    """The cache of the database at ``place`` (its file's resolved path, or its URL and
    schema), shared by every store over it in this process."""
    return _caches.setdefault(place, Snapshots)
