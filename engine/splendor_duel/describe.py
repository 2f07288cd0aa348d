"""Splendor Duel in words: what is due now, how the game ended, token counts.

Each fact has one wording here; the notation, the rules' messages, the site and the CLI
all take it from this module (through :class:`engine.protocol.GameRules` above the engine).

>>> from engine.splendor_duel.state import State
>>> due(State(("Ann", "Bob")))
'The table is not set up yet'
>>> tokens_text([2, 1, 0, 0, 0, 0, 1])
'W2 B Y'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..protocol import Result, Status
from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, MAX_TOKENS
from .state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    SETUP,
    STEAL,
    State,
)

#: The victory conditions in words (rulebook p.9, End of the game).
CONDITION_WORDS = {
    "points": "on Prestige points (20 or more)",
    "crowns": "on Crowns (10 or more)",
    "color": "on one colour (10 or more points in it)",
    "resignation": "by resignation",
}

#: The same, short, for listings.
SHORT_CONDITIONS = {
    "points": "on points",
    "crowns": "on crowns",
    "color": "on one colour",
    "resignation": "by resignation",
}


def tokens_text(counts: Sequence[int]) -> str:
    """``W2 B1 Y1`` as ``W2 B Y``: counts by colour letter (empty string when all zero)."""
    return " ".join(
        f"{COLOR_LETTERS[c]}{n}" if n > 1 else COLOR_LETTERS[c] for c, n in enumerate(counts) if n
    )


def result(state: State) -> Result | None:
    """How the game ended, in words, or None while it goes on."""
    o = state.outcome
    if o is None:
        return None
    names = state.names
    winner = names[o.winner]
    if o.condition == "resignation":
        text = f"{winner} won: {names[1 - o.winner]} resigned"
    elif o.condition == "color" and o.color is not None:
        text = f"{winner} won on {COLOR_NAMES[o.color]} (10 or more points in one colour)"
    else:
        text = f"{winner} won {CONDITION_WORDS.get(o.condition, o.condition)}"
    return Result((o.winner,), o.condition, text, short_result(winner, o.condition))


def short_result(winner: str, condition: str) -> str:
    """``Ann won on crowns``: a win in the short words of listings."""
    return f"{winner} won {SHORT_CONDITIONS.get(condition, condition)}"


def due(state: State) -> str:
    """Whose decision is due and what it is, in words."""
    aw = state.awaiting
    names = state.names
    name = names[state.current]
    p = state.player
    if aw == SETUP:
        return "The table is not set up yet"
    if aw == OVER:
        r = result(state)
        return r.text if r is not None else "The game is over"
    if aw == ACTION:
        if state.replenished:
            return f"{name} to play the mandatory action (the board was replenished this turn)"
        return f"{name} to play: optional actions (Privilege, Replenish), then the mandatory action"
    if aw == COLOR:
        return f"{name} chooses the colour that joker {state.last_card} copies"
    if aw == BONUS_TOKEN:
        card = CARDS[state.last_card or ""]
        color = COLOR_NAMES[card.color] if card.color is not None else "matching"
        return f"{name} takes a {color} token from the board ({card.id}'s ability)"
    if aw == STEAL:
        return f"{name} takes a Gem or Pearl token from {names[1 - state.current]}"
    if aw == ROYAL:
        return f"{name} has {p.crowns} crowns and picks a Royal card"
    if aw == DISCARD:
        return f"{name} holds {p.token_count} tokens and discards down to {MAX_TOKENS}"
    if aw == REVEAL:
        level = (state.refill or (0, 0))[0] + 1
        return f"A level-{level} card is revealed into the empty pyramid slot"
    return aw


def status(state: State) -> Status:
    """Where the game stands (see :class:`engine.protocol.Status`)."""
    if state.awaiting == SETUP:
        phase = "setup"
    else:
        phase = "finished" if state.awaiting == OVER else "playing"
    to_move = state.current if phase == "playing" else None
    return Status(phase, state.turn, to_move, due(state), result(state))
