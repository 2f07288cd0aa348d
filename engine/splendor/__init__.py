"""Classic Splendor (2 to 4 players): catalogue, state, events, rules, legal moves,
notation, positions and random games, behind :class:`engine.protocol.GameRules`.

>>> import random
>>> from engine.splendor import GAME
>>> events = GAME.random_game(random.Random(7), ["Ann", "Bob", "Cid"])
>>> state = GAME.new_state(["Ann", "Bob", "Cid"])
>>> for e in events:
...     GAME.play(state, e)
>>> GAME.status(state).phase
'finished'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import IllegalMoveError, Violation
from ..protocol import Card, Choice, ParsedGame, SetupLine, Status, TableQuestion, Verdict
from . import colours as _colours
from . import describe as _describe
from . import events as _events
from . import game as _game
from . import playout as _playout
from .state import SETUP, State


@functools.cache
def _move_text() -> Callable[[_events.Event], str]:
    """The notation's ``move_text``, imported when first needed (a ``tablelog log``
    process starts without the notation) and then kept: a replay asks for the text of
    every event, and an import statement in a method looks it up at every call."""
    from .notation import move_text

    return move_text


class Splendor(_game.SplendorRules):
    """The :class:`engine.protocol.GameRules` implementation for classic Splendor: the
    rules (:class:`engine.splendor.game.SplendorRules`) with the notation and the
    presentation."""

    payload_version = _events.PAYLOAD_VERSION
    conditions: Mapping[str, str] = _describe.SHORT_CONDITIONS
    playouts = _playout.PLAYOUTS
    palette = _colours.PALETTE

    #: The setup as the table lays it out (rulebook, "Game setup"): the nobles (one more
    #: than the players), then four face-up cards of each level, level 3 first.
    setup_lines: Sequence[SetupLine] = (
        SetupLine("nobles", "Nobles", "Nobles revealed", 0, 1, per_seat=1, piece="noble"),
        SetupLine("level3", "Level 3", "Level 3 cards face up, left to right", 3, 4),
        SetupLine("level2", "Level 2", "Level 2 cards face up, left to right", 2, 4),
        SetupLine("level1", "Level 1", "Level 1 cards face up, left to right", 1, 4),
    )
    setup_note = (
        "The bank holds the rulebook's tokens for the number of players "
        "(4, 5 or 7 of each gem colour, 5 Gold)."
    )
    #: What only the table sees (the card turned face up to refill the display, a blind
    #: reserve shown) and the noble a player chooses when several may visit.
    table_questions: Sequence[TableQuestion] = (
        TableQuestion("reveal", "Card turned face up into the display (id or what is printed)"),
        TableQuestion("id", "A blind reserve, shown (id or what is printed)"),
        TableQuestion("noble", "The noble who visits (id or what is printed)"),
    )

    def setup_after(self, first: int, players: int) -> list[str]:
        return []

    event_from_dict = staticmethod(_events.event_from_dict)
    event_to_dict = staticmethod(_events.event_to_dict)

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        return _events.upcast(payload, version)

    def legal_moves(self, state: State) -> list[_events.Event]:
        return _game.legal_moves(state)

    def acting_seat(self, state: State, event: _events.Event) -> int | None:
        if isinstance(event, _events.CardIdentified):
            return event.player
        if state.awaiting == SETUP or event.type == "card_revealed":
            return None
        return state.current

    def card_actions(self, state: State, event: _events.Event) -> tuple[tuple[str, str], ...]:
        """A purchase's card; a reservation's card where the table saw it, else when the
        player shows it (``card_identified``)."""
        if isinstance(event, _events.CardPurchased):
            return (("bought", event.card),)
        if isinstance(event, _events.CardReserved) and event.card is not None:
            return (("reserved", event.card),)
        if isinstance(event, _events.CardIdentified):
            return (("reserved", event.card),)
        return ()

    # --- notation and positions -------------------------------------------------------

    def read_game(
        self,
        text: str,
        source: str = "<text>",
        *,
        stop_at_first_error: bool = True,
        texts: bool = False,
        every: int | None = None,
    ) -> ParsedGame:
        from .notation import parse_game

        return parse_game(
            text, source, stop_at_first_error=stop_at_first_error, texts=texts, every=every
        )

    def write_game(
        self,
        headers: Mapping[str, Any],
        events: Sequence[Any],
        meta: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> str:
        from .notation import write_game

        return write_game(headers, events, meta)

    def read_moves(
        self,
        state: State,
        text: str,
        events: Sequence[Any] | None = None,
        meta: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> ParsedGame:
        from .notation import read_moves

        return read_moves(state, text, events, meta)  # type: ignore[arg-type]

    def parse_move(self, state: State, text: str) -> _events.Event:
        from .notation import parse_move

        return parse_move(state, text)

    def check_move(self, state: State, text: str) -> Verdict:
        from .notation import check_move

        return check_move(state, text)

    def move_text(self, state: State, event: _events.Event) -> str:
        return _move_text()(event)

    def legal_move_texts(self, state: State) -> list[str]:
        from .notation import legal_move_texts

        return legal_move_texts(state)

    def choices(self, state: State) -> list[Choice]:
        from .choices import choices

        return choices(state)

    def observations(self, state: State) -> list[Choice]:
        from .choices import observations

        return observations(state)

    def position(self, state: State) -> str:
        from .position import position_string

        return position_string(state)

    def parse_position(self, text: str) -> State:
        from .position import parse_position

        return parse_position(text)

    def result_problem(
        self, headers: Mapping[str, Any], state: State
    ) -> tuple[str, str, Violation] | None:
        return _describe.result_problem(headers, state)

    # --- describing a step ------------------------------------------------------------

    def status(self, state: State) -> Status:
        return _describe.status(state)

    def progress(self, state: State) -> tuple[str, int]:
        return _describe.progress(state)

    def changes(self, before: State, after: State) -> list[str]:
        return _describe.changes(before, after)

    def view(self, state: State, before: State | None = None) -> dict[str, Any]:
        from .view import view

        return view(state, before)

    def event_lines(self, before: State, event: _events.Event, after: State) -> list[str]:
        from .view import event_lines

        return event_lines(before, event, after)

    def picture(self, state: State, before: State | None = None, heading: str = "") -> str:
        from .picture import picture

        return picture(state, before, heading)

    def state_json(self, state: State) -> dict[str, Any]:
        from .view import state_json

        return state_json(state)

    def result_short(self, winner: int, condition: str, names: Sequence[str]) -> str:
        return _describe.short_result(names[winner], condition)

    def text_view(self, state: State, compact: bool = False) -> str:
        from .view import text_view

        return text_view(state, compact)

    # --- reference data and random games ----------------------------------------------

    def cards(self) -> Mapping[str, Card]:
        from .lookup import CATALOGUE

        return CATALOGUE

    def card_view(self, card_id: str) -> dict[str, Any]:
        """A development card's view, or a noble's (``N-01``: its ``requires``)."""
        from .view import card_view

        return card_view(card_id)

    def find_cards(self, query: str, state: Any | None = None) -> list[Card]:
        from .lookup import find

        return find(query, state)

    def random_game(
        self, rng: random.Random, names: Sequence[str] | None = None
    ) -> list[_events.Event]:
        from .simulate import random_game

        return random_game(rng, names)


GAME = Splendor()

__all__ = ["GAME", "IllegalMoveError", "Splendor", "State"]
