"""The canonical text of a game: headers, setup, one numbered line per turn.

>>> import random
>>> from engine.splendor_duel import simulate
>>> text = write_game({"players": ["Ann", "Bob"]}, simulate.random_game(random.Random(3)))
>>> text.splitlines()[:4]
['[Game "Splendor Duel"]', '[Player1 "Ann"]', '[Player2 "Bob"]', '[First "Bob"]']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...corrections import Retraction
from ...notation.lexer import TAG_NAME
from ...notation.marks import meta_suffix, name_fits_line
from ...notation.marks import tag as _tag
from ...notation.visitor import KNOWN_TAGS
from ...notation.writer import play_as_played, turn_lines
from ..catalogue import COLOR_NAMES
from ..events import Event, GameSetUp
from ..game import RULES
from ..state import State
from .decisions import move_text
from .players import distinct, header_names, seat_tag
from .setup import setup_lines

#: Header keys written under their own tag (the rest of the headers' keys are tags).
_OWN_KEYS = ("players", "tags", "result", "event", "date", "place")


def write_game(
    headers: Mapping[str, Any] | None,
    events: Sequence[Event | Retraction],
    meta: Sequence[Mapping[str, Any] | None] | None = None,
) -> str:
    """The canonical text of a game: headers, setup, one line per turn.

    A correction (:class:`engine.corrections.Retraction`) is written where it happened,
    after the decisions it takes back: ``undo``, or ``undo to K`` when a plain undo would
    go back elsewhere; the turn lines after it follow the position again.

    ``meta`` (parallel to ``events``) carries each decision's ``comment``,
    ``annotations`` and ``played_illegally`` flag; a decision flagged as played
    illegally is written with ``!illegal`` and folded as played (``game.force``).
    A ``Result`` (and ``Victory``) header is computed from the events when the headers
    give none.  Raises ValueError if the events cannot be folded even as played.
    """
    headers = dict(headers or {})
    names, named = header_names(headers)
    metas: list[Mapping[str, Any] | None] = list(meta) if meta is not None else []
    metas += [None] * (len(events) - len(metas))
    state = State(names)
    body: list[str] = []
    if events:
        setup = events[0]
        if not isinstance(setup, GameSetUp):
            raise ValueError("a game starts with its setup (game_set_up)")
        body.extend(setup_lines(setup, meta_suffix(metas[0]).strip()))
        play_as_played(RULES, state, setup, metas[0], 1)
        show_names = named and distinct(names) and all(name_fits_line(n) for n in names)
        # (the state names the seats ``names``: a decision's text names them from it)
        lines, state = turn_lines(
            RULES, events, metas, names, state, move_text, show_names=show_names
        )
        body.extend(lines)
    out = [_tag("Game", RULES.title)]
    for tag, key in KNOWN_TAGS:
        if headers.get(key) not in (None, ""):
            out.append(_tag(tag, headers[key]))
    if named:
        out.extend(_tag(seat_tag(seat), name) for seat, name in enumerate(names))
    if events:
        first = events[0].first_player  # type: ignore[union-attr]
        ref = names[first] if named and distinct(names) else str(first + 1)
        out.append(_tag("First", ref))
    raw_tags = headers.get("tags")
    tags: dict[str, Any] = raw_tags if isinstance(raw_tags, dict) else {}
    result, victory = _result_tags(state)
    out.append(_tag("Result", headers["result"] if headers.get("result") else result))
    if "Victory" in tags:
        out.append(_tag("Victory", tags["Victory"]))
    elif victory is not None:
        out.append(_tag("Victory", victory))
    for key, value in tags.items():
        if key != "Victory" and TAG_NAME.fullmatch(str(key)):
            out.append(_tag(str(key), value))
    for key, value in headers.items():
        if key in _OWN_KEYS:
            continue
        if isinstance(value, (str, int, float)) and TAG_NAME.fullmatch(key):
            out.append(_tag(key[:1].upper() + key[1:], value))
    text = "\n".join(out) + "\n"
    if body:
        text += "\n" + "\n".join(body) + "\n"
    return text


def _result_tags(state: State) -> tuple[str, str | None]:
    o = state.outcome
    if o is None:
        return "*", None
    result = "1-0" if o.winner == 0 else "0-1"
    victory = o.condition
    if o.condition == "color" and o.color is not None:
        victory = f"color {COLOR_NAMES[o.color]}"
    return result, victory
