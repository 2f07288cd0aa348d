"""The setup (rulebook, "Game setup"): 4 face-up cards of each level and as many nobles as
players plus one; the tokens are the rulebook's for the number of players."""

from __future__ import annotations

from ...errors import Violation
from ..catalogue import CARDS, DISPLAY_SIZE, nobles_revealed
from ..events import GameSetUp
from ..state import ACTION, State
from .facts import RULES


def check_setup(state: State, event: GameSetUp) -> list[Violation]:
    """The setup's display and nobles, for this number of players."""
    out: list[Violation] = []
    n = len(state.players)
    if not 0 <= event.first_player < n:
        out.append(
            Violation(
                "setup.first_player",
                f"no seat {event.first_player + 1} at a table of {n}",
                RULES["setup"],
            )
        )
    seen: set[str] = set()
    for level, row in enumerate(event.display, start=1):
        if len(row) != DISPLAY_SIZE:
            out.append(
                Violation(
                    "setup.display",
                    f"level {level} shows {len(row)} cards; the setup reveals {DISPLAY_SIZE}",
                    RULES["setup"],
                )
            )
        for cid in row:
            if CARDS[cid].level != level:
                out.append(
                    Violation("setup.display", f"{cid} is not a level {level} card", RULES["setup"])
                )
            if cid in seen:
                out.append(Violation("setup.display", f"{cid} is shown twice", RULES["setup"]))
            seen.add(cid)
    want = nobles_revealed(n)
    if len(event.nobles) != want:
        out.append(
            Violation(
                "setup.nobles",
                f"{len(event.nobles)} nobles revealed; a game of {n} reveals {want}",
                RULES["setup_players"],
            )
        )
    if len(set(event.nobles)) != len(event.nobles):
        out.append(Violation("setup.nobles", "a noble is revealed twice", RULES["setup"]))
    return out


def apply_setup(state: State, event: GameSetUp) -> None:
    for level, row in enumerate(event.display):
        state.display[level] = list(row)
        state.decks[level] -= len(row)
        state.unseen[level].difference_update(row)
    state.nobles = list(event.nobles)
    state.first_player = state.current = event.first_player
    state.turn = 1
    state.awaiting = ACTION
