"""The Splendor Duel state: everything on the table and whose decision comes next.

The fold owns one mutable :class:`State` and changes it in place, which is several times
faster than building a new frozen state per event; :meth:`State.copy` hands out an
independent snapshot of any step.  Lists are indexed by colour (``catalogue.WHITE`` ..
``catalogue.GOLD``) and by board space (0..24).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..protocol import Seats
from .catalogue import (
    CARDS,
    CARDS_BY_LEVEL,
    EMPTY,
    PRIVILEGES,
    ROYAL_IDS,
    ROYALS,
)

# What the state waits for next (State.awaiting).
SETUP = "setup"  # the game_set_up event
ACTION = "action"  # optional actions (privileges, replenish) or the mandatory action
COLOR = "color"  # a joker's colour (wild ability)
BONUS_TOKEN = "bonus_token"  # the token ability: which space
STEAL = "steal"  # the steal ability: which colour
ROYAL = "royal"  # a Royal card on reaching the 3rd or 6th crown
DISCARD = "discard"  # down to 10 tokens at the end of the turn
REVEAL = "reveal"  # an observation: the card that refills the pyramid slot
OVER = "over"  # the game has ended

#: Splendor Duel seats exactly two players.
SEATS = Seats(2, 2)


def _two(names: Sequence[str]) -> tuple[str, str]:
    """The two seat names as a tuple (SeatsError for any other number of names)."""
    found = tuple(names)
    SEATS.check(len(found))
    return found[0], found[1]


_DEFAULT_NAMES = _two(SEATS.default_names())


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: ``condition`` is ``points``, ``crowns``, ``color`` or
    ``resignation``; ``color`` names the colour for a one-colour victory."""

    winner: int
    condition: str
    color: int | None = None


class PlayerState:
    """One player's holdings.  ``cards`` pairs each bought card with the colour it counts
    as (its bonus colour, a joker's copied colour, or None); ``reserved`` pairs each
    reserved card's level with its id (None while a blind reserve is unidentified)."""

    __slots__ = (
        "tokens",
        "bonuses",
        "color_points",
        "points",
        "crowns",
        "privileges",
        "cards",
        "reserved",
        "royals",
        "royals_due",
    )

    def __init__(self) -> None:
        self.tokens = [0] * 7
        self.bonuses = [0] * 5
        self.color_points = [0] * 5
        self.points = 0
        self.crowns = 0
        self.privileges = 0
        self.cards: list[tuple[str, int | None]] = []
        self.reserved: list[tuple[int, str | None]] = []
        self.royals: list[str] = []
        #: Royal cards earned by crown thresholds so far (taken or skipped for lack of one).
        self.royals_due = 0

    def copy(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.tokens = self.tokens[:]
        p.bonuses = self.bonuses[:]
        p.color_points = self.color_points[:]
        p.points = self.points
        p.crowns = self.crowns
        p.privileges = self.privileges
        p.cards = self.cards[:]
        p.reserved = self.reserved[:]
        p.royals = self.royals[:]
        p.royals_due = self.royals_due
        return p

    @property
    def token_count(self) -> int:
        return sum(self.tokens)

    @property
    def card_points(self) -> int:
        return sum(CARDS[c].points for c, _ in self.cards)

    @property
    def royal_points(self) -> int:
        return sum(ROYALS[r].points for r in self.royals)

    def has_bonus_card(self) -> bool:
        return any(self.bonuses)


class State:
    """A Splendor Duel position.  ``State()`` is the empty table,
    waiting for the ``game_set_up`` event; folding events brings it to any later step.
    ``State(names)`` names the two seats in messages (``Player 1`` and ``Player 2`` when
    no names are given)."""

    __slots__ = (
        "board",
        "bag",
        "pyramid",
        "decks",
        "unseen",
        "royals",
        "table_privileges",
        "players",
        "first_player",
        "current",
        "turn",
        "awaiting",
        "replenished",
        "pending",
        "last_card",
        "extra_turn",
        "refill",
        "outcome",
        "names",
    )

    def __init__(self, names: Sequence[str] | None = None) -> None:
        self.board = [EMPTY] * 25
        self.bag = [0] * 7
        self.pyramid: list[list[str | None]] = [[], [], []]
        #: Cards left in each deck (level 1, 2, 3).
        self.decks = [len(ids) for ids in CARDS_BY_LEVEL]
        #: Per level, the cards whose place is not known: in the deck or reserved blind.
        self.unseen: list[set[str]] = [set(ids) for ids in CARDS_BY_LEVEL]
        self.royals: list[str] = list(ROYAL_IDS)
        self.table_privileges = PRIVILEGES
        self.players = [PlayerState(), PlayerState()]
        self.first_player = 0
        self.current = 0
        #: Turn number, from 1; an extra turn ("again") counts as a turn.
        self.turn = 0
        self.awaiting = SETUP
        #: The board was replenished this turn (no Privilege may be spent after it).
        self.replenished = False
        #: Resolutions still due this turn, first first: COLOR, BONUS_TOKEN, STEAL, ROYAL.
        self.pending: list[str] = []
        #: The card whose ability is being resolved (its colour for the token ability).
        self.last_card: str | None = None
        self.extra_turn = False
        #: (level index, slot) of the pyramid slot to refill at the end of the turn.
        self.refill: tuple[int, int] | None = None
        self.outcome: Outcome | None = None
        #: How violation messages name the seats (``Player 1``, ``Player 2`` unless
        #: given); not part of the position.
        self.names: tuple[str, str] = _DEFAULT_NAMES if names is None else _two(names)

    def copy(self) -> State:
        s = State.__new__(State)
        s.board = self.board[:]
        s.bag = self.bag[:]
        s.pyramid = [row[:] for row in self.pyramid]
        s.decks = self.decks[:]
        s.unseen = [set(u) for u in self.unseen]
        s.royals = self.royals[:]
        s.table_privileges = self.table_privileges
        s.players = [self.players[0].copy(), self.players[1].copy()]
        s.first_player = self.first_player
        s.current = self.current
        s.turn = self.turn
        s.awaiting = self.awaiting
        s.replenished = self.replenished
        s.pending = self.pending[:]
        s.last_card = self.last_card
        s.extra_turn = self.extra_turn
        s.refill = self.refill
        s.outcome = self.outcome
        s.names = self.names
        return s

    # --- read-only helpers -------------------------------------------------------------

    @property
    def player(self) -> PlayerState:
        """The player whose decision is due (the checks and effects of the events most
        frequent in a game read ``players[current]`` directly: a property is a call)."""
        return self.players[self.current]

    @property
    def opponent(self) -> PlayerState:
        return self.players[1 - self.current]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def board_tokens(self) -> list[int]:
        """Tokens on the board by colour."""
        counts = [0] * 7
        for t in self.board:
            if t != EMPTY:
                counts[t] += 1
        return counts

    def token_totals(self) -> list[int]:
        """Every token by colour wherever it is (board, bag, players): always 4/2/3."""
        totals = self.board_tokens()
        for c in range(7):
            totals[c] += self.bag[c] + self.players[0].tokens[c] + self.players[1].tokens[c]
        return totals

    def card_locations(self) -> int:
        """How many Jewel cards are accounted for: pyramid, decks, bought, reserved (67)."""
        n = sum(1 for row in self.pyramid for c in row if c is not None) + sum(self.decks)
        for p in self.players:
            n += len(p.cards) + len(p.reserved)
        return n

    def hidden_reserved(self, level: int) -> int:
        """Blind reserves of ``level`` (1..3) not identified yet, both players."""
        return sum(1 for p in self.players for lv, cid in p.reserved if lv == level and cid is None)
