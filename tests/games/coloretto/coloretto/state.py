"""The Coloretto state: everything on the table and whose decision comes next.

The fold owns one mutable :class:`State` and changes it in place; :meth:`State.copy`
hands out an independent snapshot.  A player's cards are counts by kind (the seven
colours, jokers and "+2" cards); a row is the list of kinds laid next to its row card, in
the order they came.  The supply is face down: the state knows how many cards it holds,
whether the last-round card is still among them, and which cards are unseen (the box's
cards in play that nobody has seen yet: exactly the supply's, but for the last-round
card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.protocol import Seats

from .cards import BOX, COLOURS, LAST, row_capacities

# What the state waits for next (State.awaiting).
SETUP = "setup"  # the game_set_up event
TURN = "turn"  # the player's decision: draw a card or take a row
REVEAL = "reveal"  # an observation: what the card drawn is
PLACE = "place"  # the player's decision: the row the card drawn goes to
OVER = "over"  # the game has ended

#: Coloretto seats 2 to 5 players.
SEATS = Seats(2, 5)
#: Kinds a player can hold: the colours, jokers and "+2" cards.
HELD = LAST


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: the winners (several on a tie) and the ``condition``:
    ``points`` (one winner) or ``shared`` (a tie, the win shared)."""

    winners: tuple[int, ...]
    condition: str


class State:
    """A Coloretto position for 2 to 5 seats.  ``State(names)`` is the empty table
    waiting for the ``game_set_up`` event; the number of names is the number of players."""

    __slots__ = (
        "names",
        "removed",
        "hands",
        "rows",
        "capacity",
        "open",
        "out",
        "supply",
        "last_drawn",
        "unseen",
        "drawn",
        "discarded",
        "first_player",
        "current",
        "turn",
        "round",
        "awaiting",
        "outcome",
    )

    def __init__(self, names: Sequence[str] | None = None) -> None:
        self.names: tuple[str, ...] = SEATS.names(names)
        n = len(self.names)
        #: The colours removed from the box before the game.
        self.removed: tuple[int, ...] = ()
        #: Each seat's cards, counts by kind (colours, jokers, "+2").
        self.hands: list[list[int]] = [[0] * HELD for _ in range(n)]
        #: The cards next to each row card, in the order laid.
        self.rows: list[list[int]] = [[] for _ in row_capacities(n)]
        self.capacity: tuple[int, ...] = row_capacities(n)
        #: Which rows are still on the table this round (a row taken, or the third green
        #: row removed at 2 players, is not).
        self.open: list[bool] = [True] * len(self.rows)
        #: Which seats have taken a row this round (they sit the round out).
        self.out: list[bool] = [False] * n
        #: Face-down cards in the supply, the last-round card among them until drawn.
        self.supply = 0
        self.last_drawn = False
        #: The supply's cards by kind (colours, jokers, "+2"), the last-round card apart.
        self.unseen: list[int] = [0] * HELD
        #: The card drawn and revealed, waiting for its row (None when none is).
        self.drawn: int | None = None
        #: Cards out of the game (the third green row's at 2 players), counts by kind.
        self.discarded: list[int] = [0] * HELD
        self.first_player = 0
        self.current = 0
        #: Turns begun so far, every player's counted (1 is the first player's first).
        self.turn = 0
        #: Rounds begun so far.
        self.round = 0
        self.awaiting = SETUP
        self.outcome: Outcome | None = None

    def copy(self) -> State:
        s = State.__new__(State)
        s.names = self.names
        s.removed = self.removed
        s.hands = [h[:] for h in self.hands]
        s.rows = [r[:] for r in self.rows]
        s.capacity = self.capacity
        s.open = self.open[:]
        s.out = self.out[:]
        s.supply = self.supply
        s.last_drawn = self.last_drawn
        s.unseen = self.unseen[:]
        s.drawn = self.drawn
        s.discarded = self.discarded[:]
        s.first_player = self.first_player
        s.current = self.current
        s.turn = self.turn
        s.round = self.round
        s.awaiting = self.awaiting
        s.outcome = self.outcome
        return s

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def colours(self) -> tuple[int, ...]:
        """The colours in play (the box's seven but those removed)."""
        return tuple(c for c in range(len(COLOURS)) if c not in self.removed)

    def in_play(self) -> list[int]:
        """How many cards of each kind the game holds (the box's, but removed colours)."""
        return [0 if k in self.removed else BOX[k] for k in range(HELD)]

    def seen(self) -> list[int]:
        """Every card that is not in the supply, counts by kind: the players', the rows',
        the card drawn and the cards out of the game."""
        out = self.discarded[:]
        for hand in self.hands:
            for k in range(HELD):
                out[k] += hand[k]
        for row in self.rows:
            for k in row:
                out[k] += 1
        if self.drawn is not None:
            out[self.drawn] += 1
        return out

    def room(self, row: int) -> int:
        """How many more cards row ``row`` takes (0 for a row no longer on the table)."""
        if not self.open[row]:
            return 0
        return max(0, self.capacity[row] - len(self.rows[row]))
