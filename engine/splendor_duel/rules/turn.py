"""The turn's sequence (p.4-9): after an action, the abilities and Royal cards it made
due, the discard down to 10 tokens, the victory check and the refill of an emptied pyramid
slot, then the next turn; what is due at each point, and why any other event is refused;
the Royal card, the discard, a resignation and the end of the game."""

from __future__ import annotations

from ...errors import Violation
from .. import rules
from ..catalogue import (
    CARDS,
    COLOR_NAMES,
    GOLD,
    MAX_RESERVED,
    MAX_TOKENS,
    ROYALS,
    VICTORY_COLOR_POINTS,
    VICTORY_CROWNS,
    VICTORY_POINTS,
)
from ..describe import due, result
from ..events import Event, PlayerResigned, RoyalTaken, TokensDiscarded
from ..state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    SETUP,
    STEAL,
    Outcome,
    PlayerState,
    State,
)
from .facts import gain_privilege, not_set_up, refill_rule, refuse
from .moves import purchases


def _resolution_possible(state: State, kind: str) -> bool:
    """An ability or Royal card is skipped when it cannot happen (p.8: "ignore this effect")."""
    if kind == BONUS_TOKEN:
        return CARDS[state.last_card or ""].color in state.board
    if kind == STEAL:
        t = state.opponent.tokens
        return bool(t[0] or t[1] or t[2] or t[3] or t[4] or t[5])
    if kind == ROYAL:
        return bool(state.royals)
    return True


def advance(state: State) -> None:
    """Move to the next point of the turn once an action or resolution is done."""
    pending = state.pending
    while pending:
        kind = pending[0]
        if _resolution_possible(state, kind):
            state.awaiting = kind
            return
        pending.pop(0)
    current = state.current
    p = state.players[current]
    if sum(p.tokens) > MAX_TOKENS:
        state.awaiting = DISCARD
        return
    # Victory is checked at the end of the turn, after the discard (p.9).
    if (
        p.points >= VICTORY_POINTS
        or p.crowns >= VICTORY_CROWNS
        or max(p.color_points) >= VICTORY_COLOR_POINTS
    ):
        state.outcome = _victory(current, p)
        state.awaiting = OVER
        return
    refill = state.refill
    if refill is not None:
        if state.decks[refill[0]]:
            state.awaiting = REVEAL
            return
        state.refill = None
    # The next player's turn begins (the same player's after an extra turn).
    if state.extra_turn:
        state.extra_turn = False
    else:
        state.current = 1 - current
    state.turn += 1
    state.replenished = False
    state.last_card = None
    state.awaiting = ACTION
    if not any(state.bag):  # else the player may replenish: see after_optional
        after_optional(state)


def _victory(seat: int, p: PlayerState) -> Outcome:
    """How the player in ``seat`` won: points first, then crowns, then one colour."""
    if p.points >= VICTORY_POINTS:
        return Outcome(seat, "points")
    if p.crowns >= VICTORY_CROWNS:
        return Outcome(seat, "crowns")
    cp = p.color_points
    return Outcome(seat, "color", cp.index(max(cp)))


def after_optional(state: State) -> None:
    """If the player can neither replenish nor perform a mandatory action, the turn ends
    without one (tablelog's ruling; see ``rules.NO_ACTION_POSSIBLE``)."""
    if not state.replenished and any(state.bag):
        return
    if mandatory_action_possible(state):
        return
    advance(state)


def mandatory_action_possible(state: State) -> bool:
    """Can the player to move take tokens, reserve or purchase right now?"""
    board = state.board
    for t in board:
        if 0 <= t < GOLD:
            return True
    p = state.player
    if (
        GOLD in board
        and len(p.reserved) < MAX_RESERVED
        and (any(state.decks) or any(c for row in state.pyramid for c in row))
    ):
        return True
    found: list[Event] = []
    purchases(state, found)
    return bool(found)


def game_over(state: State) -> list[Violation]:
    """Why nothing can happen once the game is over: who won, and how."""
    over = result(state)
    text = "the game is over" if over is None else f"the game is over: {over.text}"
    return refuse("game.over", text, rules.VICTORY)


def out_of_order(state: State, event: Event) -> list[Violation]:
    """Why an event of a kind not due now is refused: what is due instead (in the one
    wording of :func:`describe.due`)."""
    t = event.type
    name = state.names[state.current]
    p = state.player
    if t == "game_set_up":
        return refuse("game.already_set_up", "the game is already set up", rules.SETUP)
    if t == "royal_taken" and state.awaiting != ROYAL:
        return refuse(
            "royal.not_due",
            f"{name} has {p.crowns} crown{'s' if p.crowns != 1 else ''} and no Royal card due; "
            "a Royal card is taken only on reaching the 3rd and the 6th crown",
            rules.CROWNS,
        )
    if t == "tokens_discarded" and state.awaiting != DISCARD:
        return refuse(
            "discard.not_due",
            f"{name} holds {p.token_count} tokens; tokens are discarded only down to "
            f"{MAX_TOKENS}, once the turn's actions are done",
            rules.TOKEN_LIMIT,
        )
    if state.awaiting == REVEAL:
        return refuse(
            "turn.reveal_due",
            f"{due(state)}, {rules.REFILL_TIMING} (not {t.replace('_', ' ')})",
            refill_rule(state),
        )
    code, rule = _DUE[state.awaiting]
    return refuse(code, f"{due(state)} (not {t.replace('_', ' ')})", rule)


#: What the state awaits -> the code and the rule of refusing another event meanwhile.
_DUE = {
    ACTION: ("turn.action_due", rules.PLAYER_TURN),
    COLOR: ("turn.color_due", rules.ABILITIES),
    BONUS_TOKEN: ("turn.bonus_token_due", rules.ABILITIES),
    STEAL: ("turn.steal_due", rules.ABILITIES),
    ROYAL: ("turn.royal_due", rules.CROWNS),
    DISCARD: ("turn.discard_due", rules.TOKEN_LIMIT),
}


def check_royal(state: State, e: RoyalTaken) -> list[Violation]:
    """Why that Royal card may not be taken."""
    if e.royal not in state.royals:
        owner = next(
            (state.names[i] for i, p in enumerate(state.players) if e.royal in p.royals), None
        )
        return refuse(
            "royal.not_available",
            f"{e.royal} is not available ({owner} took it)",
            rules.CROWNS,
        )
    return []


def apply_royal(state: State, e: RoyalTaken) -> None:
    """The Royal card goes to the player, with its points and ability."""
    p = state.player
    royal = ROYALS[e.royal]
    state.royals.remove(e.royal)
    p.royals.append(e.royal)
    p.points += royal.points
    state.pending.pop(0)
    if royal.ability == "steal":
        state.pending.insert(0, STEAL)
    elif royal.ability == "again":
        state.extra_turn = True
    elif royal.ability == "privilege":
        gain_privilege(state, state.current)
    advance(state)


def check_discard(state: State, e: TokensDiscarded) -> list[Violation]:
    """Why the tokens discarded are not an allowed discard down to 10."""
    p = state.player
    excess = p.token_count - MAX_TOKENS
    if sum(e.tokens) != excess:
        return refuse(
            "discard.count",
            f"{state.names[state.current]} holds {p.token_count} tokens and must discard exactly "
            f"{excess}, not {sum(e.tokens)}",
            rules.TOKEN_LIMIT,
        )
    for c in range(7):
        if e.tokens[c] > p.tokens[c]:
            return refuse(
                "discard.not_held",
                f"{state.names[state.current]} holds {p.tokens[c]} {COLOR_NAMES[c]}, "
                f"not {e.tokens[c]}",
                rules.TOKEN_LIMIT,
            )
    return []


def apply_discard(state: State, e: TokensDiscarded) -> None:
    """The discarded tokens go back to the bag."""
    tokens, bag = state.player.tokens, state.bag
    for c in range(7):
        n = e.tokens[c]
        if n:
            tokens[c] -= n
            bag[c] += n
    advance(state)


def check_resign(state: State, e: PlayerResigned) -> list[Violation]:
    """Why nobody may resign now (before the setup, after the end)."""
    if state.awaiting == SETUP:
        return not_set_up()
    if state.outcome is not None:
        return game_over(state)
    return []


def apply_resign(state: State, e: PlayerResigned) -> None:
    """The other player wins by resignation."""
    state.outcome = Outcome(1 - e.player, "resignation")
    state.awaiting = OVER
    state.pending.clear()
