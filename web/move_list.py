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

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape


def move_list(entries: Sequence[Any], names: Sequence[str], base: str) -> str:
    """The move list grouped by turn, each decision a link to its step.

    ``entries`` are :class:`web.timeline.Entry` objects; ``base`` the step address
    without its number.  Built once per game (the view marks the current step).
    """
    out = ['<ol class="moves" id="moves">']
    turn_no: int | None = None
    turn_actor: int | None = None
    names = [escape(n) for n in names]
    for e in entries:
        if e.turn != turn_no:
            if turn_no is not None:
                out.append("</ol></li>")
            turn_no = e.turn
            turn_actor = e.actor if e.turn else None
            seat = f" seat-{turn_actor}" if turn_actor is not None else ""
            label = e.turn if e.turn else "Setup"
            who = f' <span class="who">{names[turn_actor]}</span>' if turn_actor is not None else ""
            out.append(
                f'<li class="turn{seat}"><span class="tno">{label}</span>{who}<ol class="steps">'
            )
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
        kind = (
            ' class="retracted"' if e.retracted else ' class="correction"' if e.correction else ""
        )
        parts = [f'<li id="m{e.step}"><a href="{base}{e.step}"{kind}{title}>{other}{text}</a>']
        for note in e.annotations:
            parts.append(f' <span class="annotation">{escape(note)}</span>')
        if e.played_illegally:
            why = "; ".join(str(v.get("message", "")) for v in e.violations)
            parts.append(f' <span class="flag" title="{escape(why)}">illegal</span>')
        if e.comment:
            parts.append(f'<p class="comment">{escape(e.comment)}</p>')
        parts.append("</li>")
        out.append("".join(parts))
    if turn_no is None:
        out.append('<li class="none">No moves recorded.</li>')
    else:
        out.append("</ol></li>")
    out.append("</ol>")
    return "\n".join(out)


def mark_current(html: str, step: int) -> Markup:
    """The move list ``html`` with ``step`` marked as the current one."""
    if step:
        mark = f'<li id="m{step}"><a '
        html = html.replace(mark, f'<li id="m{step}" class="current"><a aria-current="step" ', 1)
    return Markup(html)
