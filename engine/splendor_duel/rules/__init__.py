"""The rules of Splendor Duel, one module per family of decisions, each holding the checks
of its events next to their effects on the state:

* :mod:`.start`: the table as set up;
* :mod:`.take`: the optional actions (spend a Privilege, replenish) and taking tokens;
* :mod:`.cards`: reserving, purchasing, revealing and identifying Jewel cards;
* :mod:`.abilities`: a joker's colour, the bonus token, the steal;
* :mod:`.turn`: the order of the turn's resolutions, what is due when, Royal cards, the
  discard, resignation and the end of the game;
* :mod:`.moves`: every legal next decision, and every way to pay for a card;
* :mod:`.facts`: what the checks of several families share.

:mod:`engine.splendor_duel.game` dispatches events to them.  This module itself holds the
rule citations every violation carries: the section and page of the official rulebook
(the printed page numbers), never a summary of it.  Where the rulebook leaves a detail open
(when a pyramid slot is refilled), the refusal still cites the rulebook's rule it applies
and its message names the ruling that settles the detail (``docs/rules.md`` lists both)."""

from __future__ import annotations

from ...errors import Rule

SETUP = Rule("Setup", 2)
PLAYER_TURN = Rule("Player turn: optional actions in order, then one mandatory action", 4)
USE_PRIVILEGE = Rule("Optional action 1, Use a Privilege", 4)
REPLENISH = Rule("Optional action 2, Replenish the Game Board", 4)
ORDER_OF_OPTIONAL = Rule(
    "Player turn: none, one or both optional actions, in the indicated order"
    " (1 Use a Privilege, 2 Replenish)",
    4,
)
MANDATORY = Rule("Mandatory Action", 5)
TAKE_TOKENS = Rule("Take up to 3 tokens", 5)
RESERVE = Rule("Take 1 Gold token and reserve 1 Jewel card", 6)
RESERVE_NEEDS_GOLD = Rule(
    "Take 1 Gold token and reserve 1 Jewel card: not possible with no Gold token on the board",
    6,
)
PURCHASE = Rule("Purchase 1 Jewel card", 6)
BONUSES = Rule("Purchase 1 Jewel card: bonuses reduce the cost, never below 0", 7)
ABILITIES = Rule("Card abilities", 8)
CROWNS = Rule("Crowns", 8)
TOKEN_LIMIT = Rule("End of player turn: discard down to 10 tokens", 9)
VICTORY = Rule("Victory conditions", 9)
REFILL_AFTER_RESERVE = Rule(
    "Take 1 Gold token and reserve 1 Jewel card: the card is replaced from the corresponding deck",
    6,
)
REFILL_AFTER_PURCHASE = Rule(
    "Purchase 1 Jewel card: the card is replaced from the corresponding deck", 7
)
#: When the slot is refilled: the rulebook says "replace it"; the publisher's ruling,
#: reported by Board Game Arena, says at the end of the turn.  Messages name it.
REFILL_TIMING = "refilled at the end of the turn, by the publisher's ruling"
NO_ACTION_POSSIBLE = Rule(
    "no mandatory action and an empty bag: the turn ends without one (the rulebook is silent;"
    " tablelog's ruling)",
    5,
)
