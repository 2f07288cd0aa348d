"""Tokens: the optional actions (spend a Privilege, replenish the board from the bag, p.4)
and the mandatory action "take up to 3 tokens" (p.5), each checked then applied."""

from __future__ import annotations

from ...errors import IllegalMoveError, Violation
from .. import rules
from ..catalogue import EMPTY, GOLD, PEARL, SEGMENT_SET, SPACE_NAMES, SPIRAL_SPACES
from ..events import BoardReplenished, PrivilegeSpent, TokensTaken
from ..state import State
from .facts import gain_privilege, refuse, token_on, tokens_words
from .turn import advance, after_optional


def check_privilege(state: State, e: PrivilegeSpent) -> list[Violation]:
    """Why the Privilege may not be spent on that space (none if it may)."""
    name = state.names[state.current]
    if state.replenished:
        return refuse(
            "privilege.after_replenish",
            f"{name} already replenished the board this turn; the optional actions come in "
            "their order, so Privileges are spent before replenishing, not after",
            rules.ORDER_OF_OPTIONAL,
        )
    if not state.player.privileges:
        return refuse("privilege.none_held", f"{name} holds no Privilege", rules.USE_PRIVILEGE)
    token = state.board[e.space]
    if token in (EMPTY, GOLD):
        code = "privilege.empty_space" if token == EMPTY else "privilege.gold"
        return refuse(
            code,
            f"{token_on(e.space, token)}; a Privilege takes 1 Gem or Pearl token, never Gold",
            rules.USE_PRIVILEGE,
        )
    return []


def apply_privilege(state: State, e: PrivilegeSpent) -> None:
    """The token goes to the player, the Privilege back to the table."""
    p = state.player
    p.privileges -= 1
    state.table_privileges += 1
    p.tokens[state.board[e.space]] += 1
    state.board[e.space] = EMPTY
    after_optional(state)


def check_replenish(state: State, e: BoardReplenished) -> list[Violation]:
    """Why the bag may not be emptied onto the board (none if it may)."""
    if not any(state.bag):
        return refuse(
            "replenish.bag_empty",
            "the bag is empty"
            + (" (the board was already replenished this turn)" if state.replenished else ""),
            rules.REPLENISH,
        )
    if e.tokens is None:
        return []
    drawn = [0] * 7
    for c in e.tokens:
        drawn[c] += 1
    if drawn != state.bag:
        return refuse(
            "replenish.tokens",
            f"the bag holds {tokens_words(state.bag)}, but the draw lists {tokens_words(drawn)}; "
            "every token in the bag goes onto the board",
            rules.REPLENISH,
        )
    return []


def apply_replenish(state: State, e: BoardReplenished) -> None:
    """The drawn tokens fill the empty spaces along the spiral; the opponent gains a Privilege."""
    if e.tokens is None:
        raise IllegalMoveError(
            [
                Violation(
                    "replenish.tokens",
                    "the tokens drawn from the bag are not given",
                    rules.REPLENISH,
                )
            ]
        )
    board = state.board
    drawn = iter(e.tokens)
    remaining = len(e.tokens)
    for space in SPIRAL_SPACES:
        if not remaining:
            break
        if board[space] == EMPTY:
            board[space] = next(drawn)
            remaining -= 1
    state.bag = [0] * 7
    state.replenished = True
    gain_privilege(state, 1 - state.current)
    after_optional(state)


def check_take(state: State, e: TokensTaken) -> list[Violation]:
    """Why the tokens may not be taken: count, Gold, gaps, not a line."""
    spaces = e.spaces
    # A straight line is 1 to 3 different spaces: only another list needs those checks.
    line = spaces in SEGMENT_SET
    if not line and not 1 <= len(spaces) <= 3:
        return refuse(
            "take.count",
            f"{len(spaces)} tokens listed; the action takes 1, 2 or 3 tokens",
            rules.TAKE_TOKENS,
        )
    if not line and len(set(spaces)) != len(spaces):
        twice = next(s for s in spaces if spaces.count(s) > 1)
        return refuse("take.same_space", f"{SPACE_NAMES[twice]} is listed twice", rules.TAKE_TOKENS)
    board = state.board
    for s in spaces:
        token = board[s]
        if token == GOLD:
            return refuse(
                "take.gold",
                f"{token_on(s, token)}; Gold is only taken by reserving a card",
                rules.TAKE_TOKENS,
            )
        if token == EMPTY:
            return refuse(
                "take.empty_space",
                f"{token_on(s, token)}; an empty space interrupts the line",
                rules.TAKE_TOKENS,
            )
    if not line:
        names = ", ".join(SPACE_NAMES[s] for s in spaces)
        return refuse(
            "take.not_a_line",
            f"{names} are not adjacent spaces in one straight line (row, column or diagonal) "
            "without a gap",
            rules.TAKE_TOKENS,
        )
    return []


def apply_take(state: State, e: TokensTaken) -> None:
    """The tokens go to the player; 3 of a colour or both Pearls give the opponent a Privilege."""
    board = state.board
    tokens = state.players[state.current].tokens
    colors = []
    for s in e.spaces:
        c = board[s]
        tokens[c] += 1
        board[s] = EMPTY
        colors.append(c)
    if len(colors) == 3 and colors[0] == colors[1] == colors[2] or colors.count(PEARL) == 2:
        gain_privilege(state, 1 - state.current)
    advance(state)
