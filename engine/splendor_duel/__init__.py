"""Splendor Duel (2 players): catalogue, state, events, rules, legal moves.

>>> import random
>>> from engine.splendor_duel import simulate, game
>>> events = simulate.random_game(random.Random(7))
>>> state = game.replay(events)
>>> state.outcome is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalMoveError, Violation
from ..protocol import Card, ParsedGame, Status, Verdict
from . import describe as _describe
from . import events as _events
from . import game as _game
from .state import SEATS, SETUP, State

#: Event types made by a seat named in the event itself, not by the player to move.
_ACTOR_IN_EVENT = ("card_identified", "player_resigned")


class SplendorDuel:
    """The :class:`engine.protocol.GameRules` implementation for Splendor Duel."""

    kind = "splendor-duel"
    title = "Splendor Duel"
    payload_version = _events.PAYLOAD_VERSION
    seats = SEATS

    def new_state(self, names: Sequence[str] | None = None) -> State:
        return State(self.seats.names(names, 2))

    # The hot calls (an import parses and plays ~150 events a game) are the engine's own
    # functions, not wrappers: a wrapper's extra call cost about a tenth of the checking.
    event_from_dict = staticmethod(_events.event_from_dict)
    event_to_dict = staticmethod(_events.event_to_dict)

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        return _events.upcast(payload, version)

    check = staticmethod(_game.check)
    play = staticmethod(_game.play)

    def force(self, state: State, event: _events.Event) -> list[Violation]:
        return _game.force(state, event)

    def legal_moves(self, state: State) -> list[_events.Event]:
        return _game.legal_moves(state)

    def acting_seat(self, state: State, event: _events.Event) -> int | None:
        if event.type in _ACTOR_IN_EVENT:
            return event.player  # type: ignore[union-attr]
        return None if state.awaiting == SETUP else state.current

    # --- notation and positions -------------------------------------------------------

    def read_game(
        self, text: str, source: str = "<text>", *, stop_at_first_error: bool = True
    ) -> ParsedGame:
        from . import notation

        p = notation.parse_game(text, source, stop_at_first_error=stop_at_first_error)
        return ParsedGame(p.headers, p.events, p.meta, p.errors, p.state, p.flagged, p.names)

    def write_game(
        self,
        headers: Mapping[str, Any],
        events: Sequence[Any],
        meta: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> str:
        from . import notation

        return notation.write_game(dict(headers), list(events), meta)  # type: ignore[arg-type]

    def parse_move(self, state: State, text: str) -> _events.Event:
        from . import notation

        return notation.parse_move(state, text, state.names)

    def check_move(self, state: State, text: str) -> Verdict:
        from . import notation

        v = notation.check_move(state, text, state.names)
        payload = None if v.event is None else _events.event_to_dict(v.event)
        canonical = (
            None
            if v.event is None or not v.legal
            else notation.move_text(state, v.event, state.names)
        )
        return Verdict(v.legal, v.event, v.violations, v.changes, v.error, payload, canonical)

    def move_text(self, state: State, event: _events.Event) -> str:
        from . import notation

        return notation.move_text(state, event, state.names)

    def legal_move_texts(self, state: State) -> list[str]:
        from . import notation

        return notation.legal_move_texts(state, state.names)

    def position(self, state: State) -> str:
        from .position import position_string

        return position_string(state)

    def parse_position(self, text: str) -> State:
        from .position import parse_position

        return parse_position(text)

    def validate_payloads(
        self,
        payloads: Sequence[Mapping[str, Any]],
        meta: Sequence[Mapping[str, Any] | None],
        names: Sequence[str],
    ) -> Any:
        from . import notation

        return notation.validate_payloads(
            payloads,
            meta,
            self.seats.names(names, 2),  # type: ignore[arg-type]
        )

    # --- describing a step ------------------------------------------------------------

    def status(self, state: State) -> Status:
        return _describe.status(state)

    def summary(self, state: State) -> dict[str, Any]:
        """The status as the store's summary record (kept while the store moves over)."""
        s = _describe.status(state)
        return {
            "status": s.phase,
            "winner": None if s.result is None else s.result.winner,
            "condition": None if s.result is None else s.result.condition,
            "turns": s.turn,
            "to_move": s.to_move,
        }

    def changes(self, before: State, after: State) -> list[str]:
        from . import notation

        return notation.describe_changes(before, after, after.names)  # type: ignore[arg-type]

    def view(self, state: State, before: State | None = None) -> dict[str, Any]:
        raise NotImplementedError("moved from web/present.py into engine/splendor_duel/view.py")

    def text_view(self, state: State) -> str:
        from .text import render_state

        return render_state(state)

    # --- reference data and random games ----------------------------------------------

    def cards(self) -> Mapping[str, Card]:
        from .catalogue import CARDS

        return {
            cid: Card(cid, c.level, c.describe(), {"points": c.points, "crowns": c.crowns})
            for cid, c in CARDS.items()
        }

    def find_cards(self, query: str, state: Any | None = None) -> list[Card]:
        words = query.lower().split()
        cards = self.cards()
        if query.strip() in cards:
            return [cards[query.strip()]]
        found = [c for c in cards.values() if all(w in c.words.lower() for w in words)]
        if state is not None:
            unseen = set().union(*state.unseen)
            found = [c for c in found if c.id in unseen]
        return found

    def random_game(
        self, rng: random.Random, names: Sequence[str] | None = None
    ) -> list[_events.Event]:
        from .simulate import random_game

        return random_game(rng, names)


GAME = SplendorDuel()

__all__ = ["GAME", "IllegalMoveError", "SplendorDuel", "State"]
