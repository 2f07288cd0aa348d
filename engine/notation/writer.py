"""What every game's writer shares: the turn lines after the setup, each event folded as
it was played.  A game's writer (``engine/<game>/notation/writer.py``) writes its headers
and its setup lines, and asks :func:`turn_lines` for the rest, with its own text of a
decision."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..corrections import Retraction, undo_text
from ..errors import IllegalMoveError
from ..fold import refold_for_writing
from .marks import correction_suffix, meta_suffix


def play_as_played(
    rules: Any, state: Any, event: Any, meta: Mapping[str, Any] | None, number: int
) -> None:
    """Apply event ``number`` of a game being written: forced when its meta says it was
    played illegally, else checked; ValueError when it cannot be folded even so."""
    try:
        if meta and meta.get("played_illegally"):
            rules.force(state, event)
        else:
            rules.play(state, event)
    except IllegalMoveError as err:
        raise ValueError(
            f"event {number} ({event.type}) cannot be written: {err}; mark it as played "
            "illegally in its meta if it stood at the table"
        ) from None


def turn_lines(
    rules: Any,
    events: Sequence[Any],
    metas: Sequence[Mapping[str, Any] | None],
    names: Sequence[str],
    state: Any,
    text: Callable[[Any, Any], str],
    *,
    show_names: bool,
) -> tuple[list[str], Any]:
    """The turn lines of a game whose setup (``events[0]``, with ``metas[0]``) has left
    ``state``, and the state after the last event.

    One line a turn, ``12.`` (``12. Ann:`` with ``show_names``) then its decisions, each
    written ``text(state, event)`` in the state before it, with its marks
    (:func:`.marks.meta_suffix`) and folded as played (:func:`play_as_played`).  A
    correction stands where it happened, after the decisions it takes back (``undo``, or
    ``undo to K`` where a plain undo would go elsewhere); the lines after it follow the
    table as it stands again.  ValueError for a second setup or an event that cannot be
    folded even as played."""
    setup_type = type(events[0])
    body: list[str] = []
    line: list[str] = []
    line_turn = -1
    for number, (event, meta) in enumerate(zip(events[1:], metas[1:], strict=True), 2):
        if isinstance(event, Retraction):
            line.append(undo_text(rules, events[: number - 1], event) + correction_suffix(meta))
            state = refold_for_writing(rules, events[:number], metas[:number], names)
            continue
        if type(event) is setup_type:
            raise ValueError(f"event {number}: a game has one setup")
        if state.turn != line_turn:
            if line:
                body.append(" ".join(line))
            line_turn = state.turn
            prefix = f"{line_turn}."
            if show_names:
                prefix += f" {names[state.current]}:"
            line = [prefix]
        line.append(text(state, event) + meta_suffix(meta))
        play_as_played(rules, state, event, meta, number)
    if line:
        body.append(" ".join(line))
    return body, state
