"""Move texts for the move list, and the "Is this legal here?" verdict.

Both come from the engine's notation module (``move_text`` and ``check_move``, the same
calls as ``tablelog moves`` and ``tablelog check``).  While that module is not installed
the move list falls back to a compact text built from the event's JSON form, and the
legality form explains that moves cannot be read yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.splendor_duel import events as _events
from engine.splendor_duel.state import State

try:  # the notation module may not be installed yet
    from engine.splendor_duel import notation as _notation
except ImportError:  # pragma: no cover - depends on the engine version
    _notation = None  # type: ignore[assignment]


def move_text(before: State, event: Any, names: tuple[str, str] | None = None) -> str:
    """The notation of ``event`` in the position ``before`` it."""
    if _notation is not None and hasattr(_notation, "move_text"):
        return str(_notation.move_text(before, event, names))
    return _fallback_text(event)


def _fallback_text(event: Any) -> str:
    data = _events.event_to_dict(event)
    kind = data.pop("type")
    parts = [kind.replace("_", " ")]
    for key, value in data.items():
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = " ".join(f"{k}:{v}" for k, v in value.items())
        parts.append(f"{key} {value}")
    return " · ".join(parts)


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
        return {"text": self.text, "legal": self.legal, "move": self.move, "error": self.error,
                "violations": self.violations, "changes": self.changes}


def check_text(state: State, text: str, names: tuple[str, str] | None = None) -> VerdictView:
    """Is the move written ``text`` legal in ``state``?  Never raises for bad input."""
    if _notation is None or not hasattr(_notation, "check_move"):
        return VerdictView(text, False,
                           error="moves in notation cannot be read by this version of tablelog")
    verdict = _notation.check_move(state, text, names)
    move = None
    if getattr(verdict, "event", None) is not None:
        try:
            move = move_text(state, verdict.event, names)
        except Exception:  # noqa: BLE001 - a best-effort echo of the parsed move
            move = None
    error = getattr(verdict, "error", None)
    return VerdictView(
        text=text,
        legal=bool(verdict.legal),
        move=move,
        error=None if error is None else str(error),
        violations=[v.to_dict() for v in (verdict.violations or [])],
        changes=[str(c) for c in (getattr(verdict, "changes", None) or [])],
    )
