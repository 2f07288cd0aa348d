"""The end of a turn and of the game (rulebook, "Selecting tokens", "The nobles", "END OF
THE GAME"): after the action the display is refilled, the player returns tokens down to
10, a noble whose requirement the bonuses meet visits (one a turn, the player's choice
among several, never refused); when a player has 15 points the round is finished so that
every player has had as many turns, and the most points win, ties going to the player
with the fewest development cards."""

from __future__ import annotations

from ...errors import Violation
from ..catalogue import COLOR_LETTERS, COLOR_NAMES, END_POINTS, MAX_TOKENS, NOBLES
from ..describe import due
from ..events import Event, NobleVisited, TokensReturned
from ..state import ACTION, NOBLE, OVER, RETURN, REVEAL, Outcome, State
from .facts import plural, qualifying_nobles, violation


def after_action(state: State) -> None:
    """What the turn awaits once its action is applied: the display refilled first."""
    if state.refill is not None:
        state.awaiting = REVEAL
    else:
        after_refill(state)


def after_refill(state: State) -> None:
    """Tokens returned down to 10, when the player holds more."""
    if sum(state.players[state.current].tokens) > MAX_TOKENS:
        state.awaiting = RETURN
    else:
        after_return(state)


def after_return(state: State) -> None:
    """A noble visits when the bonuses meet a requirement; otherwise the turn ends."""
    if state.nobles and qualifying_nobles(state):
        state.awaiting = NOBLE
    else:
        end_turn(state)


def end_turn(state: State) -> None:
    """The next player's turn, or the end of the game when a player has reached 15 points
    and the round is complete (the next player would be the first player again)."""
    n = len(state.players)
    nxt = (state.current + 1) % n
    if nxt == state.first_player and any(p.points >= END_POINTS for p in state.players):
        state.outcome = outcome(state)
        state.awaiting = OVER
        return
    state.current = nxt
    state.turn += 1
    state.awaiting = ACTION


def outcome(state: State) -> Outcome:
    """The most points win; a tie goes to the fewest development cards bought."""
    best = max(p.points for p in state.players)
    leaders = [i for i, p in enumerate(state.players) if p.points == best]
    if len(leaders) == 1:
        return Outcome((leaders[0],), "points")
    fewest = min(len(state.players[i].cards) for i in leaders)
    winners = tuple(i for i in leaders if len(state.players[i].cards) == fewest)
    return Outcome(winners, "fewest_cards" if len(winners) == 1 else "shared")


# --- tokens returned -------------------------------------------------------------------


def check_return(state: State, event: TokensReturned) -> list[Violation]:
    p = state.player
    for c, n in enumerate(event.tokens):
        if n > p.tokens[c]:
            return violation(
                "return.not_held",
                f"{state.names[state.current]} returns {n} {_color(c)} but holds {p.tokens[c]}",
                "ten_tokens",
            )
    left = p.token_count - sum(event.tokens)
    if left != MAX_TOKENS:
        return violation(
            "return.count",
            f"{state.names[state.current]} holds {p.token_count} tokens and must return "
            f"{plural(p.token_count - MAX_TOKENS, 'token')}, not {sum(event.tokens)}",
            "ten_tokens",
        )
    return []


def apply_return(state: State, event: TokensReturned) -> None:
    p = state.player
    for c, n in enumerate(event.tokens):
        if n:
            p.tokens[c] -= n
            state.bank[c] += n
    after_return(state)


# --- nobles ----------------------------------------------------------------------------


def check_noble(state: State, event: NobleVisited) -> list[Violation]:
    if event.noble not in state.nobles:
        return violation("noble.not_on_table", f"{event.noble} is not on the table", "nobles")
    requires = NOBLES[event.noble].requires
    bonuses = state.player.bonuses
    short = [f"{need} {_color(c)}" for c, need in enumerate(requires) if bonuses[c] < need]
    if short:
        return violation(
            "noble.not_earned",
            f"{event.noble} requires {', '.join(short)} bonuses; "
            f"{state.names[state.current]} has {_bonus_text(bonuses)}",
            "nobles",
        )
    return []


def apply_noble(state: State, event: NobleVisited) -> None:
    state.nobles.remove(event.noble)
    p = state.player
    p.nobles.append(event.noble)
    p.points += NOBLES[event.noble].points
    end_turn(state)


# --- what is not due -------------------------------------------------------------------


def game_over(state: State) -> list[Violation]:
    return violation("turn.game_over", "the game is over", "end")


def out_of_order(state: State, event: Event) -> list[Violation]:
    """An event of a kind not due now, refused with what is due in describe's wording;
    a noble's visit cites the nobles' rule (a noble visits at the end of a turn whose
    bonuses meet its requirement), whatever is due."""
    rule = {
        REVEAL: "refill",
        RETURN: "ten_tokens",
        NOBLE: "nobles",
        ACTION: "one_action",
    }.get(state.awaiting, "one_action")
    if event.type == "noble_visited":
        rule = "nobles"
    what = _DECISION_NAMES.get(event.type, f"a {event.type.replace('_', ' ')}")
    code = f"turn.out_of_order.{state.awaiting}"
    return violation(code, f"{what} is not due: {due(state)}", rule)


#: Each decision as a refusal names it ("a purchase is not due: ...").
_DECISION_NAMES = {
    "tokens_taken": "a take",
    "card_reserved": "a reserve",
    "card_purchased": "a purchase",
    "tokens_returned": "a return of tokens",
    "noble_visited": "a noble's visit",
    "card_revealed": "a card turned face up",
    "card_identified": "a blind reserve shown",
    "turn_passed": "a pass",
}


def _color(c: int) -> str:
    return COLOR_NAMES[c]


def _bonus_text(bonuses: list[int]) -> str:
    return " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(bonuses) if n) or "none"
