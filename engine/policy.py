"""The default policy's one body, for every game's :class:`engine.protocol.Playouts`
(its ``choose``): kept apart from :mod:`engine.analysis`, which a game's package need
not import to be loaded."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # only annotations name it: the generator is always the caller's
    import random

#: A game's decision (its event type).
M = TypeVar("M")


def policy_choice(
    rng: random.Random,
    explore: float,
    scores: Callable[[Sequence[M]], list[float]],
    every: Callable[[], list[M]],
    likely: Callable[[], list[M]] | None = None,
) -> M:
    """A default policy's decision (a game's ``Playouts.choose``): with chance
    ``explore`` any of ``every()`` (every legal decision), else the best scored by
    ``scores`` (a tie drawn at random) among ``likely()``, the decisions that can be the
    best (a game lists them alone where that is cheaper: the purchases of a turn whose
    purchases outscore its other decisions), or among ``every()``."""
    if likely is None:
        moves = every()
        if len(moves) == 1:
            return moves[0]
        if rng.random() < explore:
            return moves[rng.randrange(len(moves))]
    elif rng.random() < explore:
        moves = every()
        return moves[rng.randrange(len(moves))]
    else:
        moves = likely()
    found = scores(moves)
    top = max(found)
    best = [m for m, f in zip(moves, found, strict=True) if f == top]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
