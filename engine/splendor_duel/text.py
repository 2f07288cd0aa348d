"""A Splendor Duel position as readable text (pure: no I/O).

>>> import random
>>> from engine.splendor_duel import GAME, simulate
>>> state = GAME.replay(simulate.random_game(random.Random(2)), upto=1)
>>> print(render_state(state, ("Ann", "Bo")).splitlines()[0])
Turn 1: Bo to play (optional actions, then a mandatory action)
"""

from __future__ import annotations

from collections.abc import Sequence

from .catalogue import CARDS, COLOR_LETTERS, EMPTY, ROYALS
from .describe import result, tokens_text
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
    PlayerState,
    State,
)

_AWAITING = {
    ACTION: "to play (optional actions, then a mandatory action)",
    COLOR: "to choose the colour of the joker card just bought",
    BONUS_TOKEN: "to take a token of the bought card's colour from the board",
    STEAL: "to take a token from the opponent",
    ROYAL: "to take a Royal card",
    DISCARD: "to discard down to 10 tokens",
    REVEAL: "— the table reveals the card that refills the pyramid",
}


def _tokens(counts: Sequence[int], nothing: str = "none") -> str:
    """Token counts in the one wording (:func:`describe.tokens_text`)."""
    return tokens_text(counts) or nothing


def board_grid(state: State) -> list[str]:
    """The 5x5 board with column letters a-e and row digits 1-5 (``.`` for empty)."""
    lines = ["    a b c d e"]
    for row in range(5):
        cells = []
        for col in range(5):
            t = state.board[row * 5 + col]
            cells.append("." if t == EMPTY else COLOR_LETTERS[t])
        lines.append(f"  {row + 1} " + " ".join(cells))
    return lines


def _card(cid: str | None) -> str:
    if cid is None:
        return "(empty)"
    return f"{cid} {CARDS[cid].describe()}"


def _count(n: int, noun: str) -> str:
    """``1 crown``, ``2 crowns``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _player_lines(state: State, seat: int, name: str) -> list[str]:
    p: PlayerState = state.players[seat]
    points = p.card_points + p.royal_points
    lines = [
        f"{name} (seat {seat + 1}{', first player' if state.first_player == seat else ''}):"
        f" {_count(points, 'point')}, {_count(p.crowns, 'crown')},"
        f" {_count(p.privileges, 'privilege')}",
        f"  tokens   {_tokens(p.tokens)} ({p.token_count})",
        f"  bonuses  {_tokens(p.bonuses)}",
        f"  colour points {_tokens(p.color_points)}",
    ]
    cards = [
        f"{cid}{'' if color is None else '=' + COLOR_LETTERS[color]}" for cid, color in p.cards
    ]
    lines.append(f"  cards    {' '.join(cards) if cards else 'none'}")
    reserved = [cid if cid is not None else f"level-{lv} (unknown)" for lv, cid in p.reserved]
    lines.append(f"  reserved {', '.join(reserved) if reserved else 'none'}")
    lines.append(f"  royals   {', '.join(p.royals) if p.royals else 'none'}")
    return lines


def render_state(
    state: State,
    names: Sequence[str] | None = None,
    *,
    step: int | None = None,
    total: int | None = None,
) -> str:
    """The position as text: whose turn and at which point, the board with coordinates,
    the bag, the pyramid, the Royal cards and Privileges on the table, both players.
    ``names`` name the seats instead of the state's names."""
    if names is not None and tuple(names) != state.names:
        state = state.copy()
        state.names = (names[0], names[1])
    names = state.names
    lines: list[str] = []
    if state.awaiting == SETUP:
        lines.append("The game has not been set up yet.")
    elif state.awaiting == OVER or state.outcome is not None:
        over = result(state)
        if over is None:
            lines.append("The game is over.")
        else:
            lines.append(f"Game over after turn {state.turn}: {over.text}.")
    else:
        doing = _AWAITING.get(state.awaiting, f"to {state.awaiting}")
        lines.append(f"Turn {state.turn}: {names[state.current]} {doing}")
    if step is not None:
        lines.append(f"After step {step}" + (f" of {total}" if total is not None else ""))
    if state.awaiting == SETUP:
        return "\n".join(lines) + "\n"
    lines.append("")
    lines.append("Board:")
    lines.extend(board_grid(state))
    lines.append(f"Bag: {_tokens(state.bag, 'empty')}")
    lines.append(f"Privileges on the table: {state.table_privileges}")
    lines.append(f"Royal cards available: {', '.join(state.royals) if state.royals else 'none'}")
    lines.append("")
    lines.append("Pyramid:")
    for level in (2, 1, 0):
        row = state.pyramid[level]
        lines.append(f"  level {level + 1} (deck {state.decks[level]} left):")
        for slot, cid in enumerate(row):
            lines.append(f"    {slot + 1}. {_card(cid)}")
    for seat in (0, 1):
        lines.append("")
        lines.extend(_player_lines(state, seat, names[seat]))
    royals_known = [r for r in ROYALS if r not in state.royals]
    if royals_known:
        lines.append("")
        lines.append(f"Royal cards taken: {', '.join(royals_known)}")
    return "\n".join(lines) + "\n"


def render_compact(state: State) -> str:
    """The position in at most 18 lines of at most 80 characters, for a terminal where
    the table and the prompt must fit one screen (80 by 24): whose turn, the board with
    the bag, Privileges and Royal cards beside the pyramid, and two lines a player (their
    points, crowns and Privileges, tokens, bonuses and reserve).

    >>> import random
    >>> from engine.splendor_duel import GAME, simulate
    >>> state = GAME.replay(simulate.random_game(random.Random(2)), upto=12)
    >>> lines = render_compact(state).splitlines()
    >>> len(lines) <= 18 and max(map(len, lines)) <= 80
    True
    """
    first = render_state(state).splitlines()[0]
    if state.awaiting == SETUP:
        return first + "\n"
    left = board_grid(state)
    left.append(f"  bag {_tokens(state.bag, 'empty')}")
    left.append(f"  privileges {state.table_privileges}")
    left.append(f"  royals {' '.join(state.royals) if state.royals else 'none'}")
    right = []
    for level in (2, 1, 0):
        for slot, cid in enumerate(state.pyramid[level]):
            deck = f"  (deck {state.decks[level]})" if slot == 0 else ""
            right.append(f"{_card(cid) if cid else f'L{level + 1} (empty)'}{deck}")
    width = max(map(len, left))
    lines = [first]
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        lines.append(f"{a:<{width}}  {b}".rstrip())
    for seat in (0, 1):
        p = state.players[seat]
        points = p.card_points + p.royal_points
        mark = "*" if seat == state.current and state.outcome is None else " "
        lines.append(
            f"{mark}{state.names[seat]}: {_count(points, 'point')}, {_count(p.crowns, 'crown')},"
            f" {_count(p.privileges, 'privilege')}"
            + (f", royals {' '.join(p.royals)}" if p.royals else "")
        )
        reserved = [cid if cid is not None else f"L{lv}?" for lv, cid in p.reserved]
        lines.append(
            f"   tokens {_tokens(p.tokens)} ({p.token_count})  bonuses {_tokens(p.bonuses)}"
            + (f"  reserved {' '.join(reserved)}" if reserved else "")
        )
    return "\n".join(line[:80] for line in lines) + "\n"


__all__ = ["board_grid", "render_compact", "render_state"]


def text_view(state: State, compact: bool = False) -> str:
    """The table as text for a terminal (:meth:`engine.protocol.GameRules.text_view`):
    :func:`render_state`, or with ``compact`` :func:`render_compact`."""
    return render_compact(state) if compact else render_state(state)
