"""Classic Splendor notation (``docs/notation-splendor.md``): the shared lexer and reports
(:mod:`engine.notation`), this game's decisions (:mod:`.decisions`), the reader
(:mod:`.reader`) and the writer (:mod:`.writer`).

>>> import random
>>> from engine.splendor import simulate
>>> events = simulate.random_game(random.Random(3), players=3)
>>> text = write_game({"players": ["Ann", "Bob", "Cid"]}, events)
>>> parsed = parse_game(text)
>>> parsed.errors, parsed.events == events, write_game(parsed.headers, parsed.events) == text
([], True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...corrections import fold
from ...errors import EventFormatError
from ...notation.payloads import PayloadGame, fold_payloads
from ...notation.results import Flagged, NotationError, PayloadProblem
from ...protocol import Verdict
from .. import game as _game
from ..events import Event, event_from_dict, event_to_dict
from ..position import position_string
from ..state import State
from .decisions import KEYWORDS, move_text, parse_decision
from .reader import parse_game, read_moves
from .typed import reading
from .writer import write_game


def parse_move(state: State, text: str) -> Event:
    """The decision ``text`` means in ``state``, read as people type it (``Take wbg``:
    :mod:`.typed`); NotationError says why not."""
    words = text.split()
    if not words:
        raise NotationError("syntax", "<move>", 1, 1, "an empty decision")
    try:
        return parse_decision(words, len(state.players))
    except EventFormatError as err:
        canonical = reading(text)
        if canonical is not None:
            try:
                return parse_decision(canonical.split(), len(state.players))
            except EventFormatError:
                pass
        raise NotationError("syntax", "<move>", 1, 1, str(err)) from None


def check_move(state: State, text: str) -> Verdict:
    """Is the decision ``text`` legal in ``state``?  Never raises for bad input."""
    from ..describe import changes

    try:
        event = parse_move(state, text)
    except NotationError as err:
        return Verdict(False, None, [], [], err)
    violations = _game.check(state, event)
    after: list[str] = []
    if not violations:
        new = state.copy()
        _game.apply_unchecked(new, event)
        after = changes(state, new)
    return Verdict(
        not violations, event, violations, after, None, event_to_dict(event), move_text(event)
    )


def legal_move_texts(state: State) -> list[str]:
    """Every legal next decision, in canonical notation."""
    return [move_text(e) for e in _game.legal_moves(state)]


def validate_payloads(
    payloads: Sequence[Any],
    meta: Sequence[Mapping[str, Any] | None] | None = None,
    names: Sequence[str] | None = None,
) -> tuple[State, PayloadProblem | None, list[Flagged]]:
    """Fold a game given as JSON payloads as the store imports it (``played_illegally``
    events forced); the state after the legal prefix, the first problem, the flagged."""
    game = PayloadGame(
        event_from_dict,
        _game.check,
        _game.force,
        _game.apply_unchecked,
        lambda state, event: _text(event),
        position_string,
        lambda events, marks: fold(_rules(), events, names, marks).state,
    )
    return fold_payloads(game, State(names), payloads, meta)


def _rules() -> Any:
    from .. import GAME

    return GAME


def _text(event: Event) -> str:
    try:
        return move_text(event)
    except ValueError:
        return event.type


__all__ = [
    "KEYWORDS",
    "NotationError",
    "check_move",
    "legal_move_texts",
    "move_text",
    "parse_game",
    "parse_move",
    "read_moves",
    "validate_payloads",
    "write_game",
]
