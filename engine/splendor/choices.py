"""Every legal next decision of classic Splendor as a :class:`engine.protocol.Choice`
(the texts of ``legal_move_texts``, in its order), with the things on the
table each one involves:

* ``W`` ``B`` ``G`` ``R`` ``K`` ``Y``: a colour of the bank (repeated: two tokens of one
  colour taken, each token returned);
* ``1-01``: a card, face up or reserved; ``deck-1`` .. ``deck-3``: the top of a deck,
  reserved blind; ``hidden-0-1``: seat 0's face-down reserved card of level 1;
* ``N-1``: a noble tile.

>>> import random
>>> from engine.splendor import GAME
>>> state = GAME.new_state(["Ann", "Bob"])
>>> for event in GAME.random_game(random.Random(2), ["Ann", "Bob"])[:1]:
...     GAME.play(state, event)
>>> first = choices(state)[0]
>>> first.text, first.targets, first.group, first.label
('take WBG', ('W', 'B', 'G'), 'take', 'Take white, blue, green')
"""

from __future__ import annotations

from typing import Any

from ..protocol import Choice
from . import game as _game
from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, MAX_TOKENS, NOBLES
from .describe import counts_text
from .events import CardIdentified, Event
from .notation import move_text
from .state import SETUP, State

GROUPS = {
    "tokens_taken": "take",
    "card_reserved": "reserve",
    "card_purchased": "buy",
    "turn_passed": "pass",
    "tokens_returned": "discard",
    "noble_visited": "noble",
    "card_revealed": "reveal",
    "card_identified": "identify",
}


def _hidden(seat: int, level: int) -> str:
    return f"hidden-{seat}-{level}"


def targets(state: State, event: Any) -> tuple[str, ...]:
    """The names of what ``event`` touches on the table (see the module's docstring)."""
    t = event.type
    if t == "tokens_taken":
        return tuple(COLOR_LETTERS[c] for c in event.colors)
    if t == "card_reserved":
        where = event.card if event.deck is None else f"deck-{event.deck}"
        return (where, "Y") if event.gold else (where,)
    if t == "card_purchased":
        cid = event.card
        shown = any(cid in row for row in state.display) or any(
            c == cid for _, c in state.player.reserved
        )
        return (cid,) if shown else (_hidden(state.current, CARDS[cid].level), cid)
    if t == "tokens_returned":
        return tuple(COLOR_LETTERS[c] for c in range(6) for _ in range(event.tokens[c]))
    if t == "noble_visited":
        return (event.noble,)
    if t == "card_revealed":
        return (event.card,)
    if t == "card_identified":
        return (_hidden(event.player, CARDS[event.card].level), event.card)
    return ()


def label(state: State, event: Any) -> str:
    """The decision in a few words."""
    t = event.type
    names = state.names
    if t == "tokens_taken":
        return "Take " + ", ".join(COLOR_NAMES[c] for c in event.colors)
    if t == "card_reserved":
        gold = " and a Gold" if event.gold else ""
        if event.deck is None:
            return f"Reserve {CARDS[event.card].describe()}{gold}"
        return f"Reserve the top level-{event.deck} card blind{gold}"
    if t == "card_purchased":
        return f"Buy {CARDS[event.card].describe()} paying {counts_text(event.payment)}"
    if t == "turn_passed":
        return "Pass (no action is possible)"
    if t == "tokens_returned":
        return f"Return {counts_text(event.tokens)} (down to {MAX_TOKENS} tokens)"
    if t == "noble_visited":
        return f"Noble {NOBLES[event.noble].describe()} visits"
    if t == "card_revealed":
        return f"{CARDS[event.card].describe()} is revealed"
    if t == "card_identified":
        return f"{names[event.player]}'s blind reserve is {CARDS[event.card].describe()}"
    return str(t)


def choice(state: State, event: Event) -> Choice:
    """``event``, legal in ``state``, as a :class:`Choice`."""
    return Choice(
        move_text(event),
        targets(state, event),
        GROUPS.get(event.type, event.type),
        label(state, event),
    )


def choices(state: State) -> list[Choice]:
    """Every legal next decision, as ``legal_move_texts`` lists them."""
    return [choice(state, event) for event in _game.legal_moves(state)]


def observations(state: State) -> list[Choice]:
    """Each blind reserve that may be shown now (every unseen card of its level)."""
    if state.awaiting == SETUP:
        return []
    out: list[Choice] = []
    n = len(state.players)
    for k in range(n):
        seat = (state.current + k) % n
        levels = sorted({lv for lv, cid in state.players[seat].reserved if cid is None})
        for level in levels:
            for cid in sorted(state.unseen[level - 1]):
                out.append(choice(state, CardIdentified(seat, cid)))
    return out
