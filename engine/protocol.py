"""The small game-agnostic protocol every game package implements.

The store, the site and the CLI only speak to a game through this protocol, so a second
game (classic Splendor) plugs in by providing one more object of this shape and adding it
to :data:`engine.games.GAMES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .errors import Violation


class GameRules(Protocol):
    #: Stable kind stored with each game, e.g. ``splendor-duel``.
    kind: str
    #: Human title, e.g. ``Splendor Duel``.
    title: str
    #: Version of the event payload layout that :meth:`event_to_dict` writes.
    payload_version: int

    def new_state(self, names: tuple[str, str] | None = None) -> Any:
        """The empty table, before the setup event; ``names`` name the seats in messages."""

    def event_from_dict(self, data: Mapping[str, Any]) -> Any:
        """Parse a current-version payload; EventFormatError names the bad field."""

    def event_to_dict(self, event: Any) -> dict[str, Any]:
        """The payload of an event (current version)."""

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        """Bring a stored payload of an older ``version`` to the current layout."""

    def check(self, state: Any, event: Any) -> list[Violation]:
        """Why ``event`` is illegal in ``state`` (empty list: legal)."""

    def play(self, state: Any, event: Any) -> None:
        """Check and apply in place; raises IllegalMoveError."""

    def force(self, state: Any, event: Any) -> list[Violation]:
        """Apply an event that was played at the table although illegal, returning its
        violations; raises IllegalMoveError if it cannot be applied at all."""

    def legal_moves(self, state: Any) -> list[Any]:
        """Every legal next decision."""

    def summary(self, state: Any) -> dict[str, Any]:
        """Facts for listings: ``status`` (``setup``/``playing``/``finished``),
        ``winner`` (seat or None), ``condition``, ``turns``, ``to_move``."""
