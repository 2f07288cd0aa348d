"""What ``check`` and ``moves`` work on: the state a ``GAME``, ``GAME:STEP`` or position
string argument names, with the game's rules and a label for messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .options import Unreadable, opened

if TYPE_CHECKING:
    from engine.protocol import GameRules


@dataclass(frozen=True)
class Target:
    """A state to check moves in, the rules of its game, and how messages name it."""

    rules: GameRules
    state: Any
    label: str

    def where(self) -> str:
        """Where the game stands, in the game's words: ``turn 23: Bob to play: ...``."""
        status = self.rules.status(self.state)
        return status.due if status.phase == "setup" else f"turn {status.turn}: {status.due}"


def is_position(target: str) -> bool:
    """A position string has spaces between its fields; game ids and steps have none."""
    return len(target.split()) > 1


def read_position(text: str) -> tuple[GameRules, Any]:
    """The game and state a position string describes: the first registered game that
    reads it.  Raises :class:`Unreadable` (exit 2) when none does, with the reason of
    the game that claims the string (:meth:`GameRules.claims_position`), else the
    default game's, and the known kinds."""
    from engine.errors import EngineError
    from engine.games import DEFAULT_KIND, GAMES

    reasons: dict[str, str] = {}
    for kind, rules in GAMES.items():
        try:
            return rules, rules.parse_position(text)
        except EngineError as err:
            reasons[kind] = str(err)
    known = ", ".join(sorted(GAMES))
    if not reasons:
        raise Unreadable(f"no installed game reads positions (known kinds: {known})")
    fallback = DEFAULT_KIND if DEFAULT_KIND in reasons else next(iter(reasons))
    kind = next((k for k in reasons if GAMES[k].claims_position(text)), fallback)
    raise Unreadable(f"position of {GAMES[kind].title}, {reasons[kind]} (known kinds: {known})")


def load_target(target: str, db_path: str | None) -> Target:
    """The state ``target`` names: a position string, or a stored game after STEP events
    (the last step when omitted).  :class:`Unreadable` (exit 2) when it cannot be read."""
    if is_position(target):
        rules, state = read_position(target)
        return Target(rules, state, "the position")
    game_id, sep, step_text = target.rpartition(":")
    if not sep:
        game_id, step_text = target, ""
    step: int | None = None
    if step_text:
        if not step_text.isdigit():
            raise Unreadable(
                f"{target!r}: expected GAME, GAME:STEP (a step number) or a position string"
            )
        step = int(step_text)
    from engine.games import get_game

    with opened(db_path, must_exist=True, error=Unreadable) as store:
        kind = store.game(game_id).kind
        state = store.state_at(game_id, step)
        rules = get_game(kind)
    label = f"game {game_id}" + (f" at step {step}" if step is not None else "")
    return Target(rules, state, label)
