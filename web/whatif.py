"""What-if lines on the replay page: decisions played from any step of a game, in the
page's address, checked by the rules and written nowhere (docs/review.md).

A line lives in the address as repeated ``line`` parameters, one decision each in
notation (``/games/<id>/step/20?line=buy+1-16+(W1+B1+R1)&line=reveal+1-21``): the step
is where the line goes from (its first decision replaces the record's next one, as a saved
line's ``from``), and the K-th decision's page is the address with the first K parameters.
A link shares the line, the browser's back button walks it, and the typed path is a plain
GET form that adds one more ``line`` parameter (it works without JavaScript).  An address
whose decisions are not one canonical text each (several decisions in one parameter, a
decision written loosely, an empty field) is redirected to the canonical one, so that
each step of a line has exactly one address.

The line is read with the review's own reader (:func:`recorder.review.read_line`): the
rules that a saved line must obey are the ones a what-if line is checked by, so a line
played here can be saved as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from flask import current_app
from werkzeug.exceptions import HTTPException

from engine.picture import step_heading
from engine.review import MAX_LINE
from recorder import review as rv
from recorder.review import ReviewRefused, read_line

from .db import get_store
from .timeline import Entry, Timeline

SOURCE = re.compile(r"<moves?>:\d+:\d+: ")


class LineRefused(HTTPException):
    """A 400 page for an address whose line cannot be played, with a link back to the
    longest part of it that can (the line before the refused decision): the app's error
    handler draws it (``web._register_errors``)."""

    code = 400
    title = "Not a line of this game"

    def __init__(self, message: str, back: str | None = None, move: int | None = None):
        super().__init__(description=message)
        self.back = back
        #: The number of the decision refused for what it says (its words or the rules),
        #: None when the address itself is out of bounds.
        self.move = move


@dataclass
class WhatIf:
    """A line played from step ``start`` of the record: its decisions' canonical texts
    and events, one each, and the state after each (``states[k]``: after K+1 of them)."""

    start: int
    texts: list[str]
    events: list[Any]
    states: list[Any]
    #: The state at ``start``, where the line goes from.
    origin: Any

    def __len__(self) -> int:
        return len(self.texts)

    def state(self, k: int) -> Any:
        """The state after the line's first ``k`` decisions."""
        return self.origin if k == 0 else self.states[k - 1]


def query(texts: Sequence[str]) -> str:
    """The query string of a line (``line=...&line=...``), empty for no line."""
    return urlencode([("line", t) for t in texts])


def address(base: str, start: int, texts: Sequence[str]) -> str:
    """The address of the step after ``texts`` of a line from ``start``: the record's
    step itself for no decision."""
    q = query(texts)
    return f"{base}{start}?{q}" if q else f"{base}{start}"


def read(tl: Timeline, start: int, moves: Sequence[str], base: str) -> WhatIf:
    """The line of ``moves`` from step ``start`` of ``tl``'s record, read and checked
    (LineRefused: a 400 page naming the decision and the rule it breaks)."""
    if start > tl.last_step:
        raise LineRefused(
            f"a line goes from a step of the game: it has steps 0 to {tl.last_step}, not {start}"
        )
    if len(moves) > MAX_LINE:
        raise LineRefused(
            f"a line holds {MAX_LINE} decisions at most; this address has {len(moves):,}",
            address(base, start, moves[:MAX_LINE]),
        )
    limit = int(current_app.config["MAX_MOVE_LENGTH"])
    for k, move in enumerate(moves, start=1):
        if len(move) > limit:
            raise LineRefused(
                f"Decision {k} of the line is longer than {limit} characters",
                address(base, start, moves[: k - 1]),
            )
    origin = tl.state(start)
    if not moves:  # the line's first page (the logging page's what-if mode starts there)
        return WhatIf(start, [], [], [], origin)
    try:
        events, texts, states = read_line(tl.rules, origin, moves)
    except ReviewRefused as err:
        k = err.move or len(moves)
        # the reader's own place ("<move>:1:1: ") means nothing in an address
        reason = SOURCE.sub("", str(err).removeprefix(f"move {err.move}: "))
        raise LineRefused(
            f"Decision {k} of the line from step {start}, {moves[k - 1]!r}, is refused: {reason}",
            address(base, start, moves[: k - 1]),
            k,
        ) from None
    return WhatIf(start, texts, events, states, origin)


def entry(tl: Timeline, line: WhatIf, k: int) -> Entry:
    """The K-th decision of ``line`` (from 1) as the replay page draws a step."""
    before, event = line.state(k - 1), line.events[k - 1]
    return Entry(
        step=line.start + k,
        event=event,
        payload={},
        meta={},
        turn=before.turn,
        actor=tl.rules.acting_seat(before, event),
        text=line.texts[k - 1],
        violations=(),
    )


def heading(tl: Timeline, line: WhatIf, k: int) -> str:
    """The line under the picture of a line's step: which decision of which line."""
    e = entry(tl, line, k)
    actor = None if e.actor is None else tl.names[e.actor]
    where = step_heading(line.start + k, tl.last_step, e.turn, actor, e.text)
    return (
        f"What if, from step {line.start}: decision {k} of {len(line)} · "
        + where.split(" · ", 1)[-1]
    )


def picture(tl: Timeline, line: WhatIf) -> str:
    """The game's picture of the line's last step (SVG text)."""
    k = len(line)
    return tl.rules.picture(line.state(k), line.state(k - 1), heading(tl, line, k))


def as_it_happened(tl: Timeline, line: WhatIf) -> str | None:
    """What the table observed next in the record, when it can still be observed at the
    end of ``line`` (the card that was revealed, if it is still unseen): the first of
    the record's observations after the line's start that the line has not used and that
    the rules allow now; None when the line awaits no observation or none fits."""
    state = line.state(len(line))
    legal = set(tl.rules.legal_move_texts(state))
    used = set(line.texts)
    for e in tl.entries[line.start :]:
        if tl.rules.is_observation(e.event) and e.text not in used and e.text in legal:
            return e.text
    return None


# --- the review as a line's page shows it ----------------------------------------------


def standing(tl: Timeline) -> rv.Review | None:
    """The game's review as it stands, folded on the replay's own fold of the record (one
    store read: its review events); None when the record was altered (the review names
    steps the replay does not show) or the review no longer holds (``verify`` says why)."""
    if tl.altered is not None:
        return None
    try:
        return rv.fold_review(
            tl.rules, rv.RecordFold.of(tl.rules, tl.fold), get_store().review_events(tl.row.id)
        )
    except rv.ReviewRefused:
        return None


def saved_as(review: rv.Review | None, start: int, texts: list[str]) -> rv.SavedLine | None:
    """The standing saved line that is exactly the line from record step ``start``."""
    if review is None:
        return None
    for line in review.lines.values():
        if line.origin == str(start) and line.texts == texts and review.standing(line.number):
            return line
    return None


def line_paths(review: rv.Review) -> dict[int, list[str]]:
    """Each standing saved line's decisions from the record step its first ancestor goes
    from (``root``): its ancestors' decisions up to where it branches, then its own, so
    that its K-th decision's what-if address is the root step with that path's first
    decisions (a nested line's own decisions come after its parent's first ones)."""
    paths: dict[int, list[str]] = {}
    for number, line in sorted(review.lines.items()):
        if not review.standing(number):
            continue
        head: list[str] = []
        if line.parent is not None:  # a standing line's parent stands, and comes first
            parent = review.lines[line.parent]
            above = paths[line.parent]
            head = above[: len(above) - len(parent.texts)] + parent.texts[: line.at - parent.at]
        paths[number] = head + line.texts
    return paths


def saved_address(review: rv.Review | None, start: int, texts: list[str]) -> str | None:
    """The review's address (``STEP/LINE.K``) of the what-if step after ``texts`` from
    record step ``start``, when a standing saved line holds it; None otherwise."""
    if review is None or not texts:
        return None
    for number, path in line_paths(review).items():
        line = review.lines[number]
        own = len(path) - len(line.texts)
        if line.root == start and len(texts) > own and path[: len(texts)] == texts:
            return f"{start}/{number}.{len(texts) - own}"
    return None


def anchor(address: str) -> str:
    """An address as an element id (``20/1.2`` → ``20-1-2``)."""
    return address.replace("/", "-").replace(".", "-")


def review_tree(tl: Timeline, review: Any, base: str) -> list[dict[str, Any]]:
    """The record's decisions, each with its mark and notes and the saved lines that go
    in its place, each of those a list of steps the same way (lines nest): what the
    review page and the replay's move list draw."""
    marks = review.standing_marks()
    paths = line_paths(review)
    children: dict[tuple[int | None, int], list[Any]] = {}
    for number in paths:
        line = review.lines[number]
        children.setdefault((line.parent, line.at), []).append(line)

    def step(address: str, text: str, href: str, who: str | None, below: list[Any]) -> Any:
        m = marks.get(address) or {}
        return {
            "at": address,
            "id": anchor(address),
            "text": text,
            "href": href,
            "who": who,
            "mark": m.get("mark"),
            "notes": list(m.get("notes") or ()),
            "lines": [line_view(x) for x in below],
        }

    def line_view(line: Any) -> dict[str, Any]:
        path = paths[line.number]
        own = len(path) - len(line.texts)
        return {
            "number": line.number,
            "by": line.author,
            "steps": [
                step(
                    f"{line.root}/{line.number}.{k}",
                    text,
                    address(base, line.root, path[: own + k]),
                    None,
                    children.get((line.number, line.at + k), []),
                )
                for k, text in enumerate(line.texts, start=1)
            ],
        }

    return [
        step(
            str(e.step),
            e.text,
            f"{base}{e.step}",
            None if e.actor is None else tl.names[e.actor],
            children.get((None, e.step - 1), []),
        )
        for e in tl.entries
        if not e.setup
    ]
