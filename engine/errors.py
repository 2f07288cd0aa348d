"""The engine's narrow error types and the violation record.

A *violation* says why one event is refused: a stable ``code`` for machines, a plain
``message`` with the concrete facts of the position, and the ``rule`` it breaks with its
rulebook section and page.  Adapters (CLI, web) turn the exceptions below into exit codes
or HTTP statuses; none of them is meant to reach a user as a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Rule:
    """A citation: a rulebook section and the page it is printed on."""

    section: str
    page: int | None = None
    source: str = "rulebook"

    def cite(self) -> str:
        """The citation as players quote it.

        >>> Rule("Take up to 3 tokens", 5).cite()
        'p.5, Take up to 3 tokens'
        >>> Rule("no second draw after a pass", None, "Board Game Arena rules summary").cite()
        'Board Game Arena rules summary: no second draw after a pass'
        """
        where = f"p.{self.page}, " if self.page is not None else ""
        prefix = "" if self.source == "rulebook" else f"{self.source}: "
        return f"{prefix}{where}{self.section}"

    def to_dict(self) -> dict[str, object]:
        return {"section": self.section, "page": self.page, "source": self.source}


@dataclass(frozen=True, slots=True)
class Violation:
    """Why an event is refused."""

    code: str
    message: str
    rule: Rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule.cite()})"

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "rule": self.rule.to_dict(),
            "citation": self.rule.cite(),
        }


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class EventFormatError(EngineError, ValueError):
    """An event's data is malformed: unknown type, missing or mistyped field, unknown card.

    ``field`` is the dotted path of the offending field when one is known.
    """

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


def check_fields(
    data: Mapping[str, Any], allowed: frozenset[str], required: tuple[str, ...]
) -> None:
    """Refuse a payload field the event does not have (the first by name), then a missing
    one, naming it (every game's payload parser starts here)."""
    extra = sorted(set(data) - allowed, key=str)
    if extra:
        raise EventFormatError("unknown field", str(extra[0]))
    for key in required:
        if key not in data:
            raise EventFormatError("missing field", key)


class IllegalMoveError(EngineError):
    """A well-formed event that the rules refuse in the current position."""

    def __init__(self, violations: list[Violation], step: int | None = None):
        self.violations = violations
        self.step = step
        where = f"event {step}: " if step is not None else ""
        super().__init__(where + "; ".join(str(v) for v in violations))


#: What a game's ``move_text`` may raise for an event it cannot write in a position (an
#: event the rules refuse there may name what is not on the table): its text is then its
#: type (:meth:`engine.contract.Game.move_text_safe`, the fold's texts).
UNWRITABLE = (EngineError, KeyError, IndexError, ValueError, TypeError, AttributeError)
