"""The one wording of what is due now, of how the game ended and of what a step changed.

>>> from coloretto.state import State
>>> due(State(["Ann", "Bob", "Cid"]))
'the table must be set up: one colour removed, a start card each, who starts'
>>> short_result("Ann", "points", SHORT_CONDITIONS)
'Ann won on points'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import Violation
from engine.protocol import Result, Status, phase_of, short_result

from .cards import COLOURS, JOKER, PLUS, WORDS, plural, removed_count, start_count, title
from .rules import RULES, scores
from .state import PLACE, REVEAL, SETUP, TURN, State

#: How a listing words each way of winning after the winner's name.
SHORT_CONDITIONS: Mapping[str, str] = {"points": "on points", "shared": "a shared win"}


def due(state: State) -> str:
    """What is due now, in words."""
    aw = state.awaiting
    name = state.names[state.current]
    if aw == SETUP:
        n = len(state.names)
        removed = {0: "", 1: "one colour removed, ", 2: "two colours removed, "}[removed_count(n)]
        each = "a start card each" if start_count(n) == 1 else "two start cards each"
        return f"the table must be set up: {removed}{each}, who starts"
    if aw == TURN:
        if any(state.room(r) for r in range(len(state.rows))):
            return f"{name} must draw a card or take a row"
        return f"{name} must take a row: every row is full"
    if aw == REVEAL:
        again = " again (the last-round card is set aside)" if _just_last(state) else ""
        return f"the table must say what {name} drew{again}"
    if aw == PLACE:
        assert state.drawn is not None
        return f"{name} must place {title(state.drawn)} next to a row"
    result = game_result(state)
    return "the game is over" if result is None else result.text


def _just_last(state: State) -> bool:
    """Whether the last-round card was drawn on this very draw (the player draws again):
    it is drawn and the supply holds exactly the 15 cards laid under it."""
    return state.last_drawn and state.awaiting == REVEAL and state.supply == 15


def game_result(state: State) -> Result | None:
    """How the game ended, with the one wording of the victory."""
    o = state.outcome
    if o is None:
        return None
    names = state.names
    points = scores(state)[o.winners[0]]
    if o.condition == "points":
        text = f"{names[o.winners[0]]} won with {points} points"
        short = short_result(names[o.winners[0]], o.condition, SHORT_CONDITIONS)
    else:
        who = " and ".join(names[w] for w in o.winners)
        text = f"{who} shared the win with {points} points each"
        short = f"{who} shared the win"
    return Result(o.winners, o.condition, text, short)


def progress(state: State) -> tuple[str, int]:
    """The phase and turn of :func:`status`, without its words."""
    return phase_of(state.awaiting), state.turn


def status(state: State) -> Status:
    """Where the game stands."""
    phase = phase_of(state.awaiting)
    to_move = state.current if phase == "playing" else None
    return Status(phase, state.turn, to_move, due(state), game_result(state))


def cards_text(hand: Sequence[int]) -> str:
    """A player's cards in words (``green 3, blue 1, joker 1, +2 2``), ``none`` when
    empty."""
    parts = [f"{WORDS[c]} {hand[c]}" for c in range(len(COLOURS)) if hand[c]]
    if hand[JOKER]:
        parts.append(f"joker {hand[JOKER]}")
    if hand[PLUS]:
        parts.append(f"+2 {hand[PLUS]}")
    return ", ".join(parts) or "none"


def row_text(row: Sequence[int]) -> str:
    """A row's cards in words (``green, joker``), ``empty`` when empty."""
    return ", ".join("+2" if k == PLUS else WORDS[k] for k in row) or "empty"


def changes(before: State, after: State) -> list[str]:
    """What one step changed, one line each."""
    out: list[str] = []
    if before.awaiting == SETUP and after.awaiting != SETUP:
        if after.removed:
            out.append("removed from the box: " + ", ".join(WORDS[c] for c in after.removed))
        out.append(f"the table is set up; {after.names[after.first_player]} plays first")
    if before.awaiting == TURN and after.awaiting == REVEAL:
        out.append(f"{after.names[after.current]} draws the supply's top card")
    if after.supply != before.supply and before.awaiting != SETUP:
        out.append(f"the supply: {before.supply} -> {after.supply} cards")
    if after.drawn is not None and before.drawn is None:
        out.append(f"the card drawn: {title(after.drawn)}")
    if after.last_drawn and not before.last_drawn:
        out.append("the last-round card is drawn: this round is the last")
    for seat, (p, q) in enumerate(zip(before.hands, after.hands, strict=True)):
        if p != q and before.awaiting != SETUP:
            out.append(f"{after.names[seat]}'s cards: {cards_text(p)} -> {cards_text(q)}")
    for r, (a, b) in enumerate(zip(before.rows, after.rows, strict=True)):
        if a != b:
            out.append(f"row {r + 1}: {row_text(a)} -> {row_text(b)}")
    if after.discarded != before.discarded:
        gone = [after.discarded[k] - before.discarded[k] for k in range(len(after.discarded))]
        out.append(f"{plural(sum(gone), 'card')} of the row left on the table out of the game")
    for seat in range(len(after.names)):
        if after.out[seat] and not before.out[seat]:
            out.append(f"{after.names[seat]} is out of the round")
    if after.round != before.round and before.awaiting != SETUP:
        out.append(f"round {after.round} begins: {after.names[after.current]} starts")
    elif before.current != after.current and after.awaiting == TURN:
        out.append(f"{after.names[after.current]}'s turn {after.turn}")
    if after.outcome is not None and before.outcome is None:
        result = game_result(after)
        assert result is not None
        out.append(result.text)
    return out


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
