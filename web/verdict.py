"""The "Is this legal here?" verdict, as the page and the check API show it: the game's
own :meth:`~engine.protocol.GameRules.check_move`, the same call as ``tablelog check``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.protocol import GameRules


@dataclass
class VerdictView:
    """The legality form's answer, ready to render or return as JSON."""

    text: str
    legal: bool
    move: str | None = None
    error: str | None = None
    violations: list[dict[str, Any]] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    #: The error's kind (``syntax``, ``incomplete``...), what is wrong and its column,
    #: for the page to say as the logging page does ("At column 6: ..."); the API's
    #: answer has them in ``error``.
    kind: str | None = None
    reason: str | None = None
    column: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "legal": self.legal,
            "move": self.move,
            "error": self.error,
            "violations": self.violations,
            "changes": self.changes,
        }


def check_text(rules: GameRules, state: Any, text: str) -> VerdictView:
    """Is the move written ``text`` legal in ``state``?  Never raises for bad input.
    ``move`` is how the game writes the decision it read (legal or not).

    >>> from engine.games import GAMES
    >>> rules = next(iter(GAMES.values()))
    >>> check_text(rules, rules.new_state(), "?").legal
    False
    """
    verdict = rules.check_move(state, text)
    move = verdict.text
    if move is None and verdict.event is not None:
        move = rules.move_text(state, verdict.event)
    err = verdict.error
    return VerdictView(
        text=text,
        legal=bool(verdict.legal),
        move=move,
        error=None if err is None else str(err),
        violations=[v.to_dict() for v in verdict.violations],
        changes=[str(c) for c in verdict.changes],
        kind=getattr(err, "kind", None),
        reason=None if err is None else str(getattr(err, "message", err)),
        column=getattr(err, "column", None),
    )
