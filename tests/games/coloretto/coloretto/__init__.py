"""Coloretto (Michael Schacht, ABACUSSPIELE 2003; Rio Grande Games in English), 2 to 5
players: rules, events, notation, positions, the view, a picture and random games,
behind :class:`engine.protocol.GameRules`.  A game packaged outside tablelog's code: the
registry finds :data:`GAME` by the entry point ``coloretto = "coloretto:GAME"`` of the
group ``tablelog.games``.

>>> import random
>>> from coloretto import GAME
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

from engine.errors import IllegalMoveError, Violation
from engine.protocol import Card, Choice, ParsedGame, SetupLine, Status, TableQuestion, Verdict

from . import colours as _colours
from . import describe as _describe
from . import events as _events
from . import game as _game
from . import playout as _playout
from . import rules as _rules
from .state import SETUP, State


@functools.cache
def _move_text() -> Callable[[Any], str]:
    """The notation's ``move_text``, imported when first needed and then kept."""
    from .notation import move_text

    return move_text


class Coloretto(_game.ColorettoRules):
    """The :class:`engine.protocol.GameRules` implementation for Coloretto: the rules
    (:class:`coloretto.game.ColorettoRules`) with the notation and the presentation."""

    payload_version = _events.PAYLOAD_VERSION
    conditions: Mapping[str, str] = _describe.SHORT_CONDITIONS
    playouts = _playout.PLAYOUTS
    #: The cards' colours (fill, ink, rim): the picture's and the web pieces'.
    palette = _colours.PALETTE

    #: The setup as the table lays it out (rulebook, Preparation; For two players): the
    #: colours taken out of the box, then each player's start cards.
    setup_lines: Sequence[SetupLine] = (
        SetupLine(
            "removed",
            "Removed colours",
            "Colours removed from the box (2 players: two, 3 players: one; "
            "4 and 5 players: none, write -)",
        ),
        SetupLine(
            "start",
            "Start cards",
            "Each player's start cards in seat order, seats apart by / "
            "(green / blue / pink; 2 players: two each, green yellow / blue pink)",
        ),
    )
    setup_note = (
        "One row card per player (the three green row cards at 2 players); 15 cards "
        "under the last-round card, the rest of the shuffled supply on it."
    )
    #: What only the table sees: the card drawn.  Asked after ``draw`` (``draw`` typed
    #: alone, or the only decision legal at a round's start), its answer logs ``draw
    #: green``: the decision, then the card's own word, the observation.
    table_questions: Sequence[TableQuestion] = (
        TableQuestion(
            "draw", "The card drawn (a colour, joker, +2, or last for the last-round card)"
        ),
    )

    def setup_after(self, first: int, players: int) -> list[str]:
        return []

    event_from_dict = staticmethod(_events.event_from_dict)
    event_to_dict = staticmethod(_events.event_to_dict)

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        return _events.upcast(payload, version)

    def legal_moves(self, state: State) -> list[Any]:
        return _rules.legal_moves(state)

    def acting_seat(self, state: State, event: Any) -> int | None:
        if state.awaiting == SETUP or event.type == "card_revealed":
            return None
        return state.current

    def card_actions(self, state: State, event: Any) -> tuple[tuple[str, str], ...]:
        """A row taken: each of its cards collected, counted as ``bought`` (the club's
        statistics count the cards players collect so)."""
        if isinstance(event, _events.RowTaken) and 0 <= event.row < len(state.rows):
            from .cards import WORDS

            return tuple(("bought", WORDS[k]) for k in state.rows[event.row])
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

        return read_moves(state, text, events, meta)

    def parse_move(self, state: State, text: str) -> Any:
        from .notation import parse_move

        return parse_move(state, text)

    def check_move(self, state: State, text: str) -> Verdict:
        from .notation import check_move

        return check_move(state, text)

    def move_text(self, state: State, event: Any) -> str:
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

    def event_lines(self, before: State, event: Any, after: State) -> list[str]:
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
        from .view import card_view

        return card_view(card_id)

    def find_cards(self, query: str, state: Any | None = None) -> list[Card]:
        from .lookup import find

        return find(query, state)

    def random_game(self, rng: random.Random, names: Sequence[str] | None = None) -> list[Any]:
        from .simulate import random_game

        return random_game(rng, names)


GAME = Coloretto()

__all__ = ["GAME", "Coloretto", "IllegalMoveError", "State"]
