"""The table as set up (rulebook p.2): the 25 tokens on the spiral, the pyramid of 12
cards, the first player, and the second player's Privilege."""

from __future__ import annotations

from ...errors import Violation
from .. import rules
from ..catalogue import CARDS, COLOR_NAMES, PRIVILEGES, PYRAMID_SIZES, SPIRAL_SPACES, TOKEN_COUNTS
from ..events import GameSetUp
from ..state import ACTION, State


def check_setup(state: State, e: GameSetUp) -> list[Violation]:
    """Every way the setup differs from the rulebook's (p.2)."""
    out: list[Violation] = []
    if len(e.board) != 25:
        out.append(
            Violation(
                "setup.board_size",
                f"the board lists {len(e.board)} tokens; all 25 are placed on its 25 spaces",
                rules.SETUP,
            )
        )
    counts = [0] * 7
    for c in e.board:
        counts[c] += 1
    for c, n in enumerate(counts):
        if n != TOKEN_COUNTS[c]:
            out.append(
                Violation(
                    "setup.tokens",
                    f"the board holds {n} {COLOR_NAMES[c]} token{'s' if n != 1 else ''}; "
                    "the game has 4 tokens of each of the 5 gem colours, 2 Pearls and 3 Gold",
                    rules.SETUP,
                )
            )
    seen: set[str] = set()
    for level, row in enumerate(e.pyramid, start=1):
        if len(row) != PYRAMID_SIZES[level - 1]:
            out.append(
                Violation(
                    "setup.pyramid",
                    f"level {level} of the pyramid has {len(row)} cards; "
                    "the pyramid has 5 level-1, 4 level-2 and 3 level-3 cards",
                    rules.SETUP,
                )
            )
        for cid in row:
            if CARDS[cid].level != level:
                out.append(
                    Violation(
                        "setup.card_level",
                        f"{cid} is a level-{CARDS[cid].level} card, listed in level {level}",
                        rules.SETUP,
                    )
                )
            if cid in seen:
                out.append(Violation("setup.duplicate_card", f"{cid} is listed twice", rules.SETUP))
            seen.add(cid)
    if e.privileges is not None:
        second = 1 - e.first_player
        expected = [0, 0]
        expected[second] = 1
        if list(e.privileges) != expected:
            out.append(
                Violation(
                    "setup.privileges",
                    f"the setup gives {state.names[0]} {e.privileges[0]} and {state.names[1]} "
                    f"{e.privileges[1]} Privileges; the first player's opponent "
                    f"({state.names[second]}) starts with 1 Privilege and the first player "
                    "with none",
                    rules.SETUP,
                )
            )
    return out


def apply_setup(state: State, e: GameSetUp) -> None:
    """Lay out the table; the first player's turn begins."""
    board = state.board
    for space, token in zip(SPIRAL_SPACES, e.board, strict=True):
        board[space] = token
    state.pyramid = [list(row) for row in e.pyramid]
    for level, row in enumerate(e.pyramid):
        state.decks[level] -= len(row)
        state.unseen[level].difference_update(row)
    state.first_player = state.current = e.first_player
    second = state.players[1 - e.first_player]
    second.privileges = 1
    state.table_privileges = PRIVILEGES - 1
    state.turn = 1
    state.awaiting = ACTION
