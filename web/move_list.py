"""The move list of the replay: every step of a game grouped by turn, each a link to its
step.  It is the same for every step of a game and every game kind, so it is built once
per folded game as escaped markup (see :meth:`web.timeline.Timeline.memo`); the page marks
its own step in it.

>>> from web.timeline import Entry
>>> html = move_list([Entry(1, None, {}, {}, 0, None, "setup r", (), True)], ["<A>", "B"], "/s/")
>>> '<a href="/s/1" title="setup r">set-up</a>' in html
True
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape


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


def move_list(entries: Sequence[Any], names: Sequence[str], base: str) -> str:
    """The move list grouped by turn, each decision a link to its step.

    ``entries`` are :class:`web.timeline.Entry` objects; ``base`` the step address
    without its number.  Built once per game (the view marks the current step).
    """
    out = ['<ol class="moves" id="moves">']
    names = [escape(n) for n in names]
    for group in turn_groups(entries):
        first = group[0]
        turn_actor = first.actor if first.turn else None
        seat = f" seat-{turn_actor}" if turn_actor is not None else ""
        label = first.turn if first.turn else "Setup"
        who = f' <span class="who">{names[turn_actor]}</span>' if turn_actor is not None else ""
        out.append(
            f'<li class="turn{seat}"><span class="tno">{label}</span>{who}<ol class="steps">'
        )
        for e in group:
            out.append(_step_item(e, turn_actor, names, base))
        out.append("</ol></li>")
    if not entries:
        out.append('<li class="none">No moves recorded.</li>')
    out.append("</ol>")
    return "\n".join(out)


def _step_item(e: Any, turn_actor: int | None, names: Sequence[str], base: str) -> str:
    """One step of the move list: a link to its step, with its notes."""
    setup = e.setup
    title = f' title="{escape(e.text)}"' if setup else ""
    other = (
        f'<span class="who">{names[e.actor]}:</span> '
        if e.actor is not None and e.actor != turn_actor
        else ""
    )
    text = "set-up" if setup else escape(e.text)
    # A move taken back by a correction is struck through; the correction is a step
    # of its own.
    kind = ' class="retracted"' if e.retracted else ' class="correction"' if e.correction else ""
    parts = [f'<li id="m{e.step}"><a href="{base}{e.step}"{kind}{title}>{other}{text}</a>']
    for note in e.annotations:
        parts.append(f' <span class="annotation">{escape(note)}</span>')
    if e.played_illegally:
        why = "; ".join(str(v.get("message", "")) for v in e.violations)
        parts.append(f' <span class="flag" title="{escape(why)}">illegal</span>')
    if e.comment:
        parts.append(f'<p class="comment">{escape(e.comment)}</p>')
    parts.append("</li>")
    return "".join(parts)


def mark_current(html: str, step: int) -> Markup:
    """The move list ``html`` with ``step`` marked as the current one."""
    if step:
        mark = f'<li id="m{step}"><a '
        html = html.replace(mark, f'<li id="m{step}" class="current"><a aria-current="step" ', 1)
    return Markup(html)


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


def step_links(base: str, targets: dict[str, int | None]) -> dict[str, Markup]:
    """Each step link of the replay (by ``STEP_LINKS`` name) leading to its step in
    ``targets`` (``base`` is the step address without its number), or shown disabled
    where its target is None.  Built here rather than by a template macro: every page
    has six, and their escaping was a tenth of its rendering.

    >>> links = step_links("/g/a&b/", {"first": 0, "prev-turn": None})
    >>> str(links["first"])[:71]
    '<a class="btn nav-first" data-nav="first" href="/g/a&amp;b/0" title="Fi'
    >>> str(links["prev-turn"])[:57]
    '<span class="btn off nav-prev-turn" aria-disabled="true">'
    """
    href = escape(base)
    out = {}
    for rel, label, symbol, keys in STEP_LINKS:
        target = targets.get(rel)
        inner = f'<span aria-hidden="true">{symbol}</span><span class="lbl">{label}</span>'
        if target is None:
            html = f'<span class="btn off nav-{rel}" aria-disabled="true">{inner}</span>'
        else:
            html = (
                f'<a class="btn nav-{rel}" data-nav="{rel}" href="{href}{int(target)}" '
                f'title="{label} ({keys})" aria-keyshortcuts="{keys}">{inner}</a>'
            )
        out[rel] = Markup(html)
    return out
