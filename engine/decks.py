"""The hidden side of a game dealt from levelled decks of cards, some reserved face
down, for its playouts (:class:`engine.protocol.Playouts`): what a position has not
revealed, dealt into a world; and what a position read must hold for its cards to add
up (:func:`twice`, :func:`decks_problem`).

A position knows which cards are unseen at each level (in the deck or reserved blind:
``state.unseen``), never their order.  A world shuffles the unseen cards of each level,
shows each blind reserve not yet shown as the first of them and keeps the rest as the
deck, top last; a card due to refill the table is drawn from it.  A game gives its own
events and effects (:class:`Decks`); its state has ``unseen``, ``players`` (each with
``reserved``, ``(level, card or None)`` pairs), ``awaiting``, ``refill`` and ``outcome``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # only annotations name it: the generator is always the caller's
    import random

T = TypeVar("T")


class World:
    """A position with its hidden side guessed: ``decks`` per level, the next card to
    come out last."""

    __slots__ = ("state", "decks", "rng")

    def __init__(self, state: Any, decks: list[list[str]], rng: random.Random) -> None:
        self.state = state
        self.decks = decks
        self.rng = rng


def mover(world: World) -> int:
    """The seat to decide next."""
    return world.state.current  # type: ignore[no-any-return]


class Decks:
    """A game's deal and draws: its effects by event type (``appliers``), its reserve
    event (``reserved(gold, card, deck)``), the events of a blind reserve shown
    (``identified(seat, card)``) and of a card revealed (``revealed(card)``), and what
    its state awaits while a card is due (``reveal``)."""

    def __init__(
        self,
        appliers: Mapping[str, Callable[[Any, Any], None]],
        reserved: type[Any],
        identified: Callable[[int, str], Any],
        revealed: Callable[[str], Any],
        reveal: str,
    ) -> None:
        self.appliers = appliers
        self.reserved = reserved
        self.identified = identified
        self.revealed = revealed
        self.reveal = reveal

    def deal(self, state: Any, rng: random.Random) -> World:
        """A world of ``state``: each level's unseen cards (sorted first, so that a seed
        gives the same world whatever the set's order) shuffled, each blind reserve not
        yet shown given the first of them, the rest the deck; a reveal due is then made."""
        s = state.copy()
        decks: list[list[str]] = []
        identify = self.appliers["card_identified"]
        for level in range(3):
            ids = sorted(s.unseen[level])
            rng.shuffle(ids)
            for seat, p in enumerate(s.players):
                for lv, cid in list(p.reserved):
                    if cid is None and lv == level + 1:
                        identify(s, self.identified(seat, ids.pop()))
            decks.append(ids)
        world = World(s, decks, rng)
        self._settle(world)
        return world

    def play(self, world: World, decision: Any) -> None:
        """Play ``decision``: a blind reserve takes its deck's next card; then the table
        is refilled if due."""
        s = world.state
        if type(decision) is self.reserved and decision.deck is not None and decision.card is None:
            card = world.decks[decision.deck - 1].pop()
            decision = self.reserved(decision.gold, card, decision.deck)
        self.appliers[decision.type](s, decision)
        if s.awaiting == self.reveal:
            self._settle(world)

    def decision(self, event: Any) -> Any:
        """A blind reserve as a decision names no card."""
        if type(event) is self.reserved and event.deck is not None and event.card is not None:
            return self.reserved(event.gold, None, event.deck)
        return event

    def _settle(self, world: World) -> None:
        """Make the observations due: the cards refilling the table."""
        s = world.state
        reveal = self.appliers["card_revealed"]
        while s.awaiting == self.reveal and s.outcome is None:
            level = s.refill[0] if s.refill is not None else 0
            reveal(s, self.revealed(world.decks[level].pop()))


def twice(
    places: Sequence[tuple[str, T, Sequence[str | None]]], pieces: str
) -> tuple[str, T] | None:
    """The first piece that lies in two of ``places`` (each ``(where, tag, the pieces
    that lie there)``, None standing for an empty slot), or twice in one: why, in words
    (``pieces`` names what is in one place at most), and the tag of its second place;
    None when every piece lies in one.

    >>> twice([("the display", 8, ["1-05", None]), ("player 1's cards", 11, ["1-05"])],
    ...       "a card")
    ("1-05 is in the display and player 1's cards: a card is in one place", 11)
    >>> twice([("the table", 3, ["A", "A"])], "a tile")
    ('A is twice in the table: a tile is in one place', 3)
    """
    every = [piece for _, _, held in places for piece in held if piece is not None]
    if len(set(every)) == len(every):  # (every position read is checked: one pass in C)
        return None
    seen: dict[str, str] = {}
    for where, tag, held in places:
        for piece in held:
            if piece is None:
                continue
            first = seen.get(piece)
            if first is not None:
                both = f"twice in {where}" if first == where else f"in {first} and {where}"
                return f"{piece} is {both}: {pieces} is in one place", tag
            seen[piece] = where
    raise AssertionError("a piece counted twice was not found twice")


def decks_problem(state: Any) -> str | None:
    """Why the decks of ``state`` do not add up, in words: each level's deck holds as
    many cards as the position leaves unseen of that level, less those reserved face
    down (``state.decks``, ``state.unseen``, ``state.hidden_reserved(level)``)."""
    for level in (1, 2, 3):
        deck, blind = state.decks[level - 1], state.hidden_reserved(level)
        unseen = len(state.unseen[level - 1])
        if deck + blind != unseen:
            reserved = f" and {blind} reserved face down" if blind else ""
            return (
                f"decks: the level-{level} deck holds {deck} cards{reserved}, but the "
                f"position leaves {unseen} level-{level} cards unseen"
            )
    return None
