"""The classic Splendor state: everything on the table and whose decision comes next.

Like the Duel package, the fold owns one mutable :class:`State` and changes it in place;
:meth:`State.copy` hands out an independent snapshot.  Token lists are indexed by colour
(``catalogue.WHITE`` .. ``catalogue.GOLD``), bonus lists by gem colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..protocol import Seats
from .catalogue import CARDS, CARDS_BY_LEVEL, token_counts

# What the state waits for next (State.awaiting).
SETUP = "setup"  # the game_set_up event
ACTION = "action"  # the turn's one action
REVEAL = "reveal"  # an observation: the card that refills the display
RETURN = "return"  # tokens returned down to 10 at the end of the turn
NOBLE = "noble"  # the noble who visits, chosen among those the bonuses meet
OVER = "over"  # the game has ended

#: Classic Splendor seats 2 to 4 players.
SEATS = Seats(2, 4)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: the winners (several only when points and cards tie) and the
    ``condition``: ``points`` (most points) or ``fewest_cards`` (the tie-break decided)."""

    winners: tuple[int, ...]
    condition: str


class PlayerState:
    """One player's holdings.  ``reserved`` pairs each reserved card's level with its id
    (None while a blind reserve is not shown)."""

    __slots__ = ("tokens", "bonuses", "points", "cards", "reserved", "nobles")

    def __init__(self) -> None:
        self.tokens = [0] * 6
        self.bonuses = [0] * 5
        self.points = 0
        self.cards: list[str] = []
        self.reserved: list[tuple[int, str | None]] = []
        self.nobles: list[str] = []

    def copy(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.tokens = self.tokens[:]
        p.bonuses = self.bonuses[:]
        p.points = self.points
        p.cards = self.cards[:]
        p.reserved = self.reserved[:]
        p.nobles = self.nobles[:]
        return p

    @property
    def token_count(self) -> int:
        return sum(self.tokens)


class State:
    """A classic Splendor position for 2 to 4 seats.  ``State(names)`` is the empty table
    waiting for the ``game_set_up`` event; the number of names is the number of players."""

    __slots__ = (
        "bank",
        "display",
        "decks",
        "unseen",
        "nobles",
        "players",
        "first_player",
        "current",
        "turn",
        "awaiting",
        "refill",
        "outcome",
        "names",
    )

    def __init__(self, names: Sequence[str] | None = None) -> None:
        self.names: tuple[str, ...] = SEATS.names(names)
        n = len(self.names)
        self.bank = list(token_counts(n))
        #: The face-up cards per level (index 0 is level 1), None for an empty space.
        self.display: list[list[str | None]] = [[], [], []]
        #: Cards left in each deck (level 1, 2, 3).
        self.decks = [len(ids) for ids in CARDS_BY_LEVEL]
        #: Per level, the cards whose place is not known: in the deck or reserved blind.
        self.unseen: list[set[str]] = [set(ids) for ids in CARDS_BY_LEVEL]
        #: The noble tiles still on the table.
        self.nobles: list[str] = []
        self.players = [PlayerState() for _ in range(n)]
        self.first_player = 0
        self.current = 0
        #: Turns begun so far, every player's turn counted (1 is the first player's first).
        self.turn = 0
        self.awaiting = SETUP
        #: (level index, space) of the display space to refill, while a reveal is due.
        self.refill: tuple[int, int] | None = None
        self.outcome: Outcome | None = None

    def copy(self) -> State:
        s = State.__new__(State)
        s.bank = self.bank[:]
        s.display = [row[:] for row in self.display]
        s.decks = self.decks[:]
        s.unseen = [set(u) for u in self.unseen]
        s.nobles = self.nobles[:]
        s.players = [p.copy() for p in self.players]
        s.first_player = self.first_player
        s.current = self.current
        s.turn = self.turn
        s.awaiting = self.awaiting
        s.refill = self.refill
        s.outcome = self.outcome
        s.names = self.names
        return s

    @property
    def player(self) -> PlayerState:
        """The player whose decision is due."""
        return self.players[self.current]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def token_totals(self) -> list[int]:
        """Every token by colour wherever it is (bank and players): the game's counts."""
        totals = self.bank[:]
        for p in self.players:
            for c in range(6):
                totals[c] += p.tokens[c]
        return totals

    def card_locations(self) -> int:
        """How many development cards are accounted for: display, decks, bought, reserved."""
        n = sum(1 for row in self.display for c in row if c is not None) + sum(self.decks)
        for p in self.players:
            n += len(p.cards) + len(p.reserved)
        return n

    def hidden_reserved(self, level: int) -> int:
        """Blind reserves of ``level`` (1..3) not shown yet, every player."""
        return sum(1 for p in self.players for lv, cid in p.reserved if lv == level and cid is None)


def card_points(cards: Sequence[str]) -> int:
    """Points printed on ``cards``."""
    return sum(CARDS[c].points for c in cards)
