"""The move list of the replay and its step links, as plain data for
``templates/moves.html``: the steps of a game grouped by turn, where "previous turn" and
"next turn" lead, and each step link's words and target.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any


def turn_groups(entries: Sequence[Any]) -> list[list[Any]]:
    """The entries grouped by turn, as the move list shows them: a group runs from one
    player's decision until the next player's (the set-up is a group of its own).

    >>> from web.timeline import Entry
    >>> es = [Entry(n, None, {}, {}, t, a, "", ()) for n, t, a in ((1, 0, None), (2, 1, 0),
    ...       (3, 1, 0), (4, 2, 1))]
    >>> [[e.step for e in g] for g in turn_groups(es)]
    [[1], [2, 3], [4]]
    """
    groups: list[list[Any]] = []
    for e in entries:
        if not groups or e.turn != groups[-1][0].turn:
            groups.append([])
        groups[-1].append(e)
    return groups


def turn_steps(starts: Sequence[int], step: int, last: int) -> tuple[int | None, int | None]:
    """Where "previous turn" and "next turn" lead from ``step``: the first step of the
    turn before (of this turn when ``step`` is inside it, step 0 before the first) and of
    the next turn (the last step from the last turn); None where there is nowhere to go.
    ``starts`` are the first steps of the turns, in order.

    >>> starts = [1, 2, 4]
    >>> [turn_steps(starts, s, 5) for s in (0, 1, 3, 4, 5)]
    [(None, 1), (0, 2), (2, 4), (2, 5), (4, None)]
    """
    i = bisect_left(starts, step)
    prev = starts[i - 1] if i else (0 if step > 0 else None)
    j = bisect_right(starts, step)
    nxt = starts[j] if j < len(starts) else (last if step < last else None)
    return prev, nxt


#: The replay's step links, in the order the bar shows them: what each is called, its
#: symbol and its key.
STEP_LINKS = (
    ("first", "First", "⇤", "Home"),
    ("prev-turn", "Previous turn", "«", "Shift+ArrowLeft"),
    ("prev", "Previous", "◀", "ArrowLeft"),
    ("next", "Next", "▶", "ArrowRight"),
    ("next-turn", "Next turn", "»", "Shift+ArrowRight"),
    ("last", "Last", "⇥", "End"),
)


def step_links(targets: dict[str, int | str | None]) -> list[dict[str, Any]]:
    """The step links of the replay, in ``STEP_LINKS`` order: what each is called, its
    symbol, its key, and the step it leads to in ``targets`` (None: shown disabled; a
    text: the step with its query, a what-if line's).

    >>> first, prev_turn, *_ = step_links({"first": 0, "prev-turn": None})
    >>> first
    {'rel': 'first', 'label': 'First', 'symbol': '⇤', 'keys': 'Home', 'target': 0}
    >>> prev_turn["target"] is None
    True
    """
    return [
        {"rel": rel, "label": label, "symbol": symbol, "keys": keys, "target": targets.get(rel)}
        for rel, label, symbol, keys in STEP_LINKS
    ]
