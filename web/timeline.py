"""A recorded game folded once: every step's state and move text, kept in a small cache.

Stored events are immutable and only ever appended, so a game's fold is identified by its
id and its event count; a game that grew is folded again on its next request.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.games import get_game

from .moves import move_text
from .present import player_names


class ReplayError(Exception):
    """A stored game that cannot be folded (it should not happen: the store checked it)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One step of the move list: the event that leads to state ``step``."""

    step: int
    event: Any
    payload: dict[str, Any]
    meta: dict[str, Any]
    turn: int
    actor: int | None
    text: str
    violations: tuple[dict[str, Any], ...]

    @property
    def comment(self) -> str | None:
        value = self.meta.get("comment")
        return value if isinstance(value, str) and value else None

    @property
    def annotations(self) -> list[str]:
        value = self.meta.get("annotations")
        return [str(a) for a in value] if isinstance(value, list) else []

    @property
    def played_illegally(self) -> bool:
        return bool(self.meta.get("played_illegally"))


class Timeline:
    """A game's rows and every state from step 0 (before any event) to the last step."""

    def __init__(self, row: Any, entries: list[Entry], states: list[Any]):
        self.row = row
        self.entries = entries
        self.states = states
        self.names = player_names(row.headers or {})
        #: Rendered fragments that depend only on the game, filled lazily by the views.
        self.memo: dict[Any, Any] = {}

    @property
    def last_step(self) -> int:
        return len(self.entries)

    @property
    def event_count(self) -> int:
        return len(self.entries)


_ACTOR_FROM_EVENT = ("card_identified", "player_resigned")


def build(row: Any, stored: list[Any]) -> Timeline:
    """Fold the stored events of ``row``; events played though illegal are forced."""
    rules = get_game(row.kind)
    names = player_names(row.headers or {})
    state = rules.new_state()
    states = [state.copy()]
    entries: list[Entry] = []
    for stored_event in stored:
        n = stored_event.sequence
        try:
            event = rules.event_from_dict(stored_event.payload)
            text = move_text(state, event, names)
            turn, current, awaiting = state.turn, state.current, state.awaiting
            found = rules.force(state, event)
        except EngineError as exc:
            raise ReplayError(f"event {n} of game {row.id} cannot be replayed: {exc}") from exc
        meta = dict(stored_event.meta or {})
        stored_violations = meta.get("violations")
        if isinstance(stored_violations, list) and stored_violations:
            violations = tuple(v if isinstance(v, dict) else {"message": str(v)}
                               for v in stored_violations)
        else:
            violations = tuple(v.to_dict() for v in found)
        if event.type in _ACTOR_FROM_EVENT:
            actor: int | None = event.player
        elif awaiting == "setup":
            actor = None
        else:
            actor = current
        entries.append(Entry(n, event, dict(stored_event.payload), meta, turn, actor, text,
                             violations))
        states.append(state.copy())
    return Timeline(row, entries, states)


class TimelineCache:
    """A thread-safe LRU of folded games, keyed by game id and checked by event count."""

    def __init__(self, size: int = 64):
        self.size = max(0, size)
        self._items: OrderedDict[str, Timeline] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, store: Any, game_id: str) -> Timeline:
        """The folded game ``game_id`` (GameNotFound from the store when unknown)."""
        row = store.game(game_id)
        with self._lock:
            cached = self._items.get(row.id)
            if cached is not None and cached.event_count == row.event_count:
                self._items.move_to_end(row.id)
                cached.row = row
                return cached
        timeline = build(row, store.events(row.id))
        if self.size:
            with self._lock:
                self._items[row.id] = timeline
                self._items.move_to_end(row.id)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return timeline

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
