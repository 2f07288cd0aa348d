"""The one wording of what is due now, of how the game ended and of what a step changed.

>>> from engine.splendor.state import State
>>> due(State(["Ann", "Bob", "Cid"]))
'the table must be set up: 4 face-up cards per level and 4 nobles'
>>> short_result("Ann", "fewest_cards", SHORT_CONDITIONS)
'Ann won on fewest cards'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Violation
from ..protocol import Result, Status, phase_of, short_result
from .catalogue import COLOR_LETTERS, DISPLAY_SIZE, MAX_TOKENS, nobles_revealed
from .rules.facts import RULES, qualifying_nobles
from .state import ACTION, NOBLE, RETURN, REVEAL, SETUP, State

#: How a listing words each way of winning after the winner's name.
SHORT_CONDITIONS: Mapping[str, str] = {
    "points": "on points",
    "fewest_cards": "on fewest cards",
    "shared": "a shared win",
}


def counts_text(counts: list[int] | tuple[int, ...]) -> str:
    """Token counts as letters with counts (``W2 B1 Y1``), ``none`` when empty."""
    return " ".join(f"{COLOR_LETTERS[c]}{n}" for c, n in enumerate(counts) if n) or "none"


def due(state: State) -> str:
    """What is due now, in words."""
    aw = state.awaiting
    name = state.names[state.current]
    if aw == SETUP:
        return (
            f"the table must be set up: {DISPLAY_SIZE} face-up cards per level and "
            f"{nobles_revealed(len(state.players))} nobles"
        )
    if aw == ACTION:
        return f"{name} must take gems, reserve a card or buy a card"
    if aw == REVEAL:
        assert state.refill is not None
        return f"the level {state.refill[0] + 1} deck must reveal a card to refill the display"
    if aw == RETURN:
        excess = state.player.token_count - MAX_TOKENS
        return f"{name} must return {excess} token{'s' if excess != 1 else ''} down to 10"
    if aw == NOBLE:
        return f"{name} must receive a noble: {' or '.join(qualifying_nobles(state))}"
    result = game_result(state)
    return "the game is over" if result is None else result.text


def game_result(state: State) -> Result | None:
    """How the game ended, with the one wording of the victory."""
    o = state.outcome
    if o is None:
        return None
    names = state.names
    best = state.players[o.winners[0]]
    cards = len(best.cards)
    if o.condition == "points":
        text = f"{names[o.winners[0]]} won with {best.points} points"
    elif o.condition == "fewest_cards":
        text = (
            f"{names[o.winners[0]]} won on the tie-break: {best.points} points and the "
            f"fewest development cards ({cards})"
        )
    else:
        who = " and ".join(names[w] for w in o.winners)
        text = f"{who} shared the win with {best.points} points and {cards} cards each"
    short = short_result(names[o.winners[0]], o.condition, SHORT_CONDITIONS)
    if o.condition == "shared":
        short = " and ".join(names[w] for w in o.winners) + " shared the win"
    return Result(o.winners, o.condition, text, short)


def progress(state: State) -> tuple[str, int]:
    """The phase and turn of :func:`status`, without its words."""
    return phase_of(state.awaiting), state.turn


def status(state: State) -> Status:
    """Where the game stands."""
    phase = phase_of(state.awaiting)
    to_move = state.current if phase == "playing" else None
    return Status(phase, state.turn, to_move, due(state), game_result(state))


def changes(before: State, after: State) -> list[str]:
    """What one step changed, one line each."""
    out: list[str] = []
    if before.awaiting == SETUP and after.awaiting != SETUP:
        out.append(f"the table is set up; {after.names[after.first_player]} plays first")
    for seat, (p, q) in enumerate(zip(before.players, after.players, strict=True)):
        name = after.names[seat]
        if p.tokens != q.tokens:
            out.append(f"{name}'s tokens: {counts_text(p.tokens)} -> {counts_text(q.tokens)}")
        for cid in q.cards[len(p.cards) :]:
            out.append(f"{name} bought {cid}")
        if p.reserved != q.reserved:
            out.append(
                f"{name}'s reserve: {_reserve_text(p.reserved)} -> {_reserve_text(q.reserved)}"
            )
        for n in q.nobles[len(p.nobles) :]:
            out.append(f"{n} visited {name}")
        if p.points != q.points:
            out.append(f"{name}: {p.points} -> {q.points} points")
    for level in range(3):
        b, a = before.display[level], after.display[level]
        if b and b != a:
            for slot, (x, y) in enumerate(zip(b, a, strict=True)):
                if x != y:
                    out.append(
                        f"level {level + 1} space {slot + 1}: {x or 'empty'} -> {y or 'empty'}"
                    )
    if before.current != after.current and after.awaiting == ACTION:
        out.append(f"{after.names[after.current]}'s turn {after.turn}")
    if after.outcome is not None and before.outcome is None:
        result = game_result(after)
        assert result is not None
        out.append(result.text)
    return out


def _reserve_text(reserved: list[tuple[int, str | None]]) -> str:
    return " ".join(cid or f"L{lv}?" for lv, cid in reserved) or "none"


def result_tag(state: State) -> str:
    """``*`` while the game goes on, else the winning seats from 1 (``2``, ``1=3``)."""
    if state.outcome is None:
        return "*"
    return "=".join(str(w + 1) for w in state.outcome.winners)


def result_problem(headers: Mapping[str, Any], state: State) -> tuple[str, str, Violation] | None:
    """Whether a ``Result`` header (the winning seats from 1, ``2`` or ``1=3``; ``*``
    says nothing) agrees with how the moves end: None, or ``("result", message,
    violation)``."""
    result = headers.get("result")
    if not isinstance(result, str) or result.strip() in ("", "*"):
        return None
    actual = result_tag(state)
    if result.strip() == actual:
        return None
    o = state.outcome
    if o is None:
        said = f"the moves end on turn {state.turn} with the game still going"
    else:
        said = " and ".join(state.names[w] for w in o.winners) + f" won ({actual})"
    return (
        "result",
        f"the Result header says {result}",
        Violation("result.mismatch", said, RULES["end"]),
    )
