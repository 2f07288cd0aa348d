"""Every legal next decision as a :class:`engine.protocol.Choice`: its text (as
:func:`.notation.legal_move_texts` writes it), the things on the table it involves, its
family and a label, for a page where a decision is built by tapping the table.

Nothing here holds a rule: the decisions are the ones :func:`.game.legal_moves` lists
(and, while a card is due in the pyramid, the unseen cards of its level); this module
only names what each one touches.  The target names are the ones the board templates
put on the pieces (``data-target``):

* ``a1`` .. ``e5``: a board space (the token on it, or the Gold a reserve takes);
* ``1-16``: a card, in the pyramid, in a reserve, or to be revealed or identified;
* ``deck-1`` .. ``deck-3``: the top of a deck, reserved blind;
* ``hidden-0-1`` .. ``hidden-1-3``: a face-down reserved card, by seat (0-based, as the
  view's ``seat``) and level;
* ``W`` ``B`` ``G`` ``R`` ``K`` ``P`` ``Y``: a colour (a joker's copy, a steal, each token
  of a discard: repeated as many times as tokens go back);
* ``R-1`` .. ``R-4``: a Royal card;
* ``priv``: a Privilege spent.

>>> import random
>>> from engine.splendor_duel import GAME, simulate
>>> state = GAME.replay(simulate.random_game(random.Random(5))[:1], ("Ann", "Bob"))
>>> first = choices(state)[0]
>>> first.text, first.targets, first.group
('take a1 =R', ('a1',), 'take')
>>> first.label
'Take red (a1)'
"""

from __future__ import annotations

from ..protocol import Choice
from . import game as _game
from .catalogue import CARDS, COLOR_LETTERS, SPACE_NAMES
from .describe import decision_label
from .events import (
    BonusTokenTaken,
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ColorCopied,
    Event,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
)
from .notation import move_text
from .state import REVEAL, SETUP, State

#: The family of each decision, by event type.
GROUPS = {
    "tokens_taken": "take",
    "privilege_spent": "privilege",
    "board_replenished": "replenish",
    "card_reserved": "reserve",
    "card_purchased": "buy",
    "color_copied": "copy",
    "bonus_token_taken": "token",
    "token_stolen": "steal",
    "royal_taken": "royal",
    "tokens_discarded": "discard",
    "card_revealed": "reveal",
    "card_identified": "identify",
    "player_resigned": "resign",
}


def hidden(seat: int, level: int) -> str:
    """The target name of ``seat``'s face-down reserved card of ``level``."""
    return f"hidden-{seat}-{level}"


def targets(state: State, event: Event) -> tuple[str, ...]:
    """The names of what ``event``, a decision of the player to move in ``state``, touches
    on the table (see the module's docstring)."""
    match event:
        case TokensTaken(spaces=spaces):
            return tuple(SPACE_NAMES[s] for s in spaces)
        case PrivilegeSpent(space=space):
            return ("priv", SPACE_NAMES[space])
        case BonusTokenTaken(space=space):
            return (SPACE_NAMES[space],)
        case CardReserved(gold=gold, card=card, deck=None):
            return (card or "", SPACE_NAMES[gold])
        case CardReserved(gold=gold, deck=deck):
            return (f"deck-{deck}", SPACE_NAMES[gold])
        case CardPurchased(card=card):
            shown = any(c == card for _, c in state.player.reserved) or any(
                c == card for row in state.pyramid for c in row
            )
            return (card,) if shown else (hidden(state.current, CARDS[card].level), card)
        case ColorCopied(color=color) | TokenStolen(color=color):
            return (COLOR_LETTERS[color],)
        case RoyalTaken(royal=royal):
            return (royal,)
        case TokensDiscarded(tokens=tokens):
            return tuple(COLOR_LETTERS[c] for c in range(7) for _ in range(tokens[c]))
        case CardRevealed(card=card):
            return (card,)
        case CardIdentified(player=player, card=card):
            return (hidden(player, CARDS[card].level), card)
    return ()


def choice(state: State, event: Event) -> Choice:
    """``event``, a legal decision or observation in ``state``, as a :class:`Choice`."""
    return Choice(
        move_text(state, event, state.names),
        targets(state, event),
        GROUPS.get(event.type, event.type),
        decision_label(state, event),
    )


def choices(state: State) -> list[Choice]:
    """Every legal next decision, in the order and the words of
    :func:`.notation.legal_move_texts` (a replenish as ``repl``, its draw left to the
    table; a blind reserve as ``res L2 @a1``; while a card is due, each card it may be)."""
    if state.awaiting == REVEAL:
        level = (state.refill or (0, 0))[0]
        return [choice(state, CardRevealed(cid)) for cid in sorted(state.unseen[level])]
    return [choice(state, event) for event in _game.legal_moves(state)]


def observations(state: State) -> list[Choice]:
    """What the table may observe now besides the decision due: each blind reserve
    shown (``id 1-02``, by the seat that holds it; every unseen card of its level),
    the seat to move first."""
    if state.awaiting == SETUP:
        return []
    out: list[Choice] = []
    order = (state.current, 1 - state.current)
    for seat in order:
        levels = sorted({lv for lv, cid in state.players[seat].reserved if cid is None})
        for level in levels:
            for cid in sorted(state.unseen[level - 1]):
                out.append(choice(state, CardIdentified(seat, cid)))
    return out
