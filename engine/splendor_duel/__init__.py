"""Splendor Duel (2 players): catalogue, state, events, rules, legal moves.

>>> import random
>>> from engine.splendor_duel import GAME, simulate
>>> events = simulate.random_game(random.Random(7))
>>> state = GAME.replay(events)
>>> state.outcome is not None
True
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

#: Event types made by a seat named in the event itself, not by the player to move.
_ACTOR_IN_EVENT = ("card_identified", "player_resigned")


@functools.cache
def _move_text() -> Callable[[State, _events.Event, Sequence[str] | None], str]:
    """The notation's ``move_text``, imported when first needed (a ``tablelog log``
    process starts without the notation) and then kept: an import statement in a method
    costs a look-up in the import machinery at every call, and a replay asks for the
    text of every event."""
    from .notation import move_text

    return move_text


class SplendorDuel(_game.DuelRules):
    """The :class:`engine.protocol.GameRules` implementation for Splendor Duel: the rules
    (:class:`engine.splendor_duel.game.DuelRules`) with the notation and the presentation."""

    payload_version = _events.PAYLOAD_VERSION
    conditions: Mapping[str, str] = _describe.SHORT_CONDITIONS
    playouts = _playout.PLAYOUTS
    palette = _colours.PALETTE

    #: The setup as the table lays it out (rulebook p.2): the board, then the pyramid.
    setup_lines: Sequence[SetupLine] = (
        SetupLine(
            "board",
            "Board",
            "The board's 25 tokens in spiral order from the centre (W B G R K P Y)",
            tokens=True,
        ),
        SetupLine("level3", "Level 3", "Level 3 cards in the pyramid, left to right", 3, 3),
        SetupLine("level2", "Level 2", "Level 2 cards, left to right", 2, 4),
        SetupLine("level1", "Level 1", "Level 1 cards, left to right", 1, 5),
    )
    setup_note = "The player who does not start takes a Privilege (rulebook p.2)."
    #: What only the table sees: the card turned into the pyramid, a blind reserve shown,
    #: the tokens drawn from the bag onto the board.
    table_questions: Sequence[TableQuestion] = (
        TableQuestion("reveal", "Card revealed into the pyramid (id or what is printed)"),
        TableQuestion("id", "The blind reserve, shown (id or what is printed)"),
        TableQuestion(
            "repl",
            "Tokens drawn from the bag, in the spiral order of the empty spaces "
            "(W B G R K P Y; - for none)",
            card=False,
        ),
    )

    def setup_after(self, first: int, players: int) -> list[str]:
        """The Privilege the player who does not start holds (rulebook p.2)."""
        held = ["0" if seat == first else "1" for seat in range(players)]
        return ["privileges " + " ".join(held)]

    # The payload parser is the events module's own function, bound here without a
    # wrapper: an import parses every event of every game.
    event_from_dict = staticmethod(_events.event_from_dict)
    event_to_dict = staticmethod(_events.event_to_dict)

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        return _events.upcast(payload, version)

    def legal_moves(self, state: State) -> list[_events.Event]:
        return _game.legal_moves(state)

    def acting_seat(self, state: State, event: _events.Event) -> int | None:
        if event.type in _ACTOR_IN_EVENT:
            return event.player  # type: ignore[union-attr]
        return None if state.awaiting == SETUP else state.current

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

        return read_moves(state, text, events, meta)

    def parse_move(self, state: State, text: str) -> _events.Event:
        from .notation import parse_move

        return parse_move(state, text, state.names)

    def check_move(self, state: State, text: str) -> Verdict:
        from .notation import check_move

        return check_move(state, text, state.names)

    def move_text(self, state: State, event: _events.Event) -> str:
        return _move_text()(state, event, state.names)

    def legal_move_texts(self, state: State) -> list[str]:
        from .notation import legal_move_texts

        return legal_move_texts(state, state.names)

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

        state = parse_position(text)
        state.names = self.new_state().names  # a position names no one: the default seats
        return state

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
        from .text import render_compact, render_state

        return render_compact(state) if compact else render_state(state)

    # --- reference data and random games ----------------------------------------------

    def cards(self) -> Mapping[str, Card]:
        from .catalogue import CARDS

        return {cid: _card(c) for cid, c in CARDS.items()}

    def card_view(self, card_id: str) -> dict[str, Any]:
        from .view import card_view

        return card_view(card_id)

    def find_cards(self, query: str, state: Any | None = None) -> list[Card]:
        """The cards that fit every word of ``query`` (``green 3 points crown``, ``level 2
        joker``, ``steal``, an id), by id; with ``state``, only those still unseen there
        (in a deck or reserved blind).  A query with ``royal`` or a Royal card's id
        (``R-4``) finds Royal cards (with ``state``, those still to be taken).  A word
        that fits nothing printed on a card raises
        :class:`engine.splendor_duel.lookup.CardQueryError` (a ValueError) naming it."""
        from .lookup import find_cards, find_royals, royal_words

        royals = find_royals(query, None if state is None else state.royals)
        if royals is not None:
            return [
                Card(
                    r.id,
                    0,
                    royal_words(r),
                    {"points": r.points, "abilities": [r.ability] if r.ability else []},
                )
                for r in royals
            ]
        candidates = None if state is None else set().union(*state.unseen)
        return [_card(c) for c in find_cards(query, candidates)]

    def random_game(
        self, rng: random.Random, names: Sequence[str] | None = None
    ) -> list[_events.Event]:
        from .simulate import random_game

        return random_game(rng, names)


def _card(c: Any) -> Card:
    """A catalogue card as the protocol's :class:`engine.protocol.Card`."""
    from .catalogue import COLOR_NAMES

    color = "joker" if c.is_joker else (COLOR_NAMES[c.color] if c.color is not None else None)
    facts = {
        "color": color,
        "bonus": c.bonus,
        "points": c.points,
        "crowns": c.crowns,
        "abilities": list(c.abilities),
        "cost": {COLOR_NAMES[i]: n for i, n in enumerate(c.cost) if n},
    }
    return Card(c.id, c.level, c.describe(), facts)


GAME = SplendorDuel()

__all__ = ["GAME", "IllegalMoveError", "SplendorDuel", "State"]
