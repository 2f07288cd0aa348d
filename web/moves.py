"""Move texts for the move list, and the "Is this legal here?" verdict: both from the
engine's notation module, the same calls as ``tablelog moves`` and ``tablelog check``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.splendor_duel import notation
from engine.splendor_duel.state import State


def move_text(before: State, event: Any, names: tuple[str, str] | None = None) -> str:
    """The notation of ``event`` in the position ``before`` it."""
    return notation.move_text(before, event, names)


@dataclass
class VerdictView:
    """The legality form's answer, ready to render or return as JSON."""

    text: str
    legal: bool
    move: str | None = None
    error: str | None = None
    violations: list[dict[str, Any]] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "legal": self.legal,
            "move": self.move,
            "error": self.error,
            "violations": self.violations,
            "changes": self.changes,
        }


def check_text(state: State, text: str, names: tuple[str, str] | None = None) -> VerdictView:
    """Is the move written ``text`` legal in ``state``?  Never raises for bad input.

    >>> from engine.splendor_duel.state import State
    >>> check_text(State(), "take c3").legal
    False
    """
    verdict = notation.check_move(state, text, names)
    move = None if verdict.event is None else move_text(state, verdict.event, names)
    return VerdictView(
        text=text,
        legal=bool(verdict.legal),
        move=move,
        error=None if verdict.error is None else str(verdict.error),
        violations=[v.to_dict() for v in verdict.violations],
        changes=[str(c) for c in verdict.changes],
    )
