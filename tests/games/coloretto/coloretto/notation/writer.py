"""The canonical text of a Coloretto game: headers, setup, one line per turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.corrections import Retraction
from engine.notation.lexer import TAG_NAME
from engine.notation.marks import meta_suffix, name_fits_line
from engine.notation.marks import tag as _tag
from engine.notation.visitor import KNOWN_TAGS
from engine.notation.writer import play_as_played, turn_lines

from ..describe import result_tag
from ..events import Event, GameSetUp
from ..game import RULES
from ..state import SEATS, State
from .decisions import move_text
from .setup import setup_lines


def header_names(
    headers: Mapping[str, Any], events: Sequence[Any] = ()
) -> tuple[tuple[str, ...], bool]:
    """The seat names of the headers and whether the headers named them.  Unnamed, the
    seats are counted from the setup (its start cards, one group a seat)."""
    given = headers.get("players")
    if isinstance(given, Sequence) and not isinstance(given, str) and given:
        return SEATS.names(list(given)), True
    count = SEATS.minimum
    if events and isinstance(events[0], GameSetUp):
        count = min(max(len(events[0].start), SEATS.minimum), SEATS.maximum)
    return SEATS.default_names(count), False


def _text(state: State, event: Event) -> str:
    """A decision's text, the same in every position."""
    return move_text(event)


def write_game(
    headers: Mapping[str, Any] | None,
    events: Sequence[Event | Retraction],
    meta: Sequence[Mapping[str, Any] | None] | None = None,
) -> str:
    """The canonical text of a game; ValueError if the events cannot be folded even as
    played (a refused event must be flagged ``played_illegally`` in its meta)."""
    headers = dict(headers or {})
    names, _ = header_names(headers, events)
    metas: list[Mapping[str, Any] | None] = list(meta) if meta is not None else []
    metas += [None] * (len(events) - len(metas))
    state = State(names)
    body: list[str] = []
    show_names = len(set(names)) == len(names) and all(map(name_fits_line, names))
    if events:
        setup = events[0]
        if not isinstance(setup, GameSetUp):
            raise ValueError("a game starts with its setup (game_set_up)")
        lines = setup_lines(setup)
        lines[-1] += meta_suffix(metas[0])
        body.extend(lines)
        play_as_played(RULES, state, setup, metas[0], 1)
        lines, state = turn_lines(RULES, events, metas, names, state, _text, show_names=show_names)
        body.extend(lines)
    out = [_tag("Game", RULES.title)]
    for tag, key in KNOWN_TAGS:
        if headers.get(key) not in (None, ""):
            out.append(_tag(tag, headers[key]))
    # Every seat is written, named or not: the number of players is part of the game.
    out.extend(_tag(f"Player{seat + 1}", name) for seat, name in enumerate(names))
    if events and isinstance(events[0], GameSetUp):
        out.append(_tag("First", str(events[0].first_player + 1)))
    out.append(_tag("Result", headers["result"] if headers.get("result") else result_tag(state)))
    raw_tags = headers.get("tags")
    tags: dict[str, Any] = raw_tags if isinstance(raw_tags, dict) else {}
    for key, value in tags.items():
        if TAG_NAME.fullmatch(str(key)):
            out.append(_tag(str(key), value))
    text = "\n".join(out) + "\n"
    if body:
        text += "\n" + "\n".join(body) + "\n"
    return text
