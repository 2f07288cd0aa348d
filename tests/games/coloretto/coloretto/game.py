"""Coloretto's rules as the fold plays them (:class:`ColorettoRules`, the instance
:data:`RULES`): its table, its check and effects (:mod:`.rules`), what may be forced and
what the table observes.  :class:`engine.contract.Game` adds ``play``, ``force``,
``fold`` and ``is_observation``; the package's ``GAME`` adds the notation and the
presentation, and the notation, below it, plays and folds with :data:`RULES`."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contract import Game

from . import rules as _rules
from .state import SEATS, State


class ColorettoRules(Game):
    """Coloretto's rules: the table of 2 to 5 seats and its events."""

    kind = "coloretto"
    title = "Coloretto"
    seats = SEATS
    #: What the table observes rather than decides: the card drawn (rulebook, "A. Draw
    #: and place a card"; the last-round card among them).
    observation_types = frozenset({"card_revealed"})

    def new_state(self, names: Sequence[str] | None = None) -> State:
        return State(self.seats.names(names))

    check = staticmethod(_rules.check)
    appliers = _rules.APPLIERS
    due = staticmethod(_rules.due)
    consistent = staticmethod(_rules.consistent)


#: The rules alone, for the notation (see :class:`ColorettoRules`).
RULES = ColorettoRules()
