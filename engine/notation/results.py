"""What reading any game's notation reports: the positioned error, the decision kept although marked
``!illegal``, and the first problem of a game given as JSON payloads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import EngineError, Violation

ERROR_KINDS = ("syntax", "unknown", "incomplete", "illegal")
#: How a report names each kind of notation error.
KIND_WORDS = {
    "syntax": "syntax error",
    "unknown": "unknown name",
    "incomplete": "incomplete move",
    "illegal": "illegal move",
}


class NotationError(EngineError, ValueError):
    """A problem in a text log, with its place.

    ``kind`` is ``syntax`` (the text cannot be read), ``unknown`` (an unknown card, space,
    colour, piece or player), ``incomplete`` (a decision that reads but leaves out a part
    the rules leave open: a purchase's payment when it can be paid several ways) or
    ``illegal`` (a well-formed decision the rules refuse;
    ``violations`` say why, each citing the rulebook).  For illegal decisions ``turn``,
    ``event_number`` (1-based, the setup is event 1) and ``position`` (the position
    string before the decision) are filled in.

    >>> str(NotationError("syntax", "g.tl", 3, 7, "expected a card id"))
    'g.tl:3:7: syntax error: expected a card id'
    """

    def __init__(
        self,
        kind: str,
        source: str,
        line: int,
        column: int,
        message: str,
        violations: Sequence[Violation] = (),
        *,
        turn: int | None = None,
        event_number: int | None = None,
        position: str | None = None,
    ):
        self.kind = kind
        self.source = source
        self.line = line
        self.column = column
        self.message = shortened(message)
        self.violations = list(violations)
        self.turn = turn
        self.event_number = event_number
        self.position = position
        super().__init__(str(self))

    def __str__(self) -> str:
        what = KIND_WORDS.get(self.kind, self.kind)
        head = f"{self.source}:{self.line}:{self.column}: {what}: {self.message}"
        if self.violations:
            head += " — " + "; ".join(str(v) for v in self.violations)
        return head

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (used by ``tablelog validate --json`` and the web API)."""
        return {
            "kind": self.kind,
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "violations": [v.to_dict() for v in self.violations],
            "turn": self.turn,
            "event_number": self.event_number,
            "position": self.position,
        }


@dataclass
class Flagged:
    """A decision marked ``!illegal``: kept as played, with the rules it broke."""

    event_number: int
    line: int
    column: int
    turn: int
    text: str
    violations: list[Violation]
    position: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "event_number": self.event_number,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "text": self.text,
            "violations": [v.to_dict() for v in self.violations],
            "position": self.position,
        }


@dataclass
class PayloadProblem:
    """The first problem of a game given as JSON payloads: ``event_number`` (1-based),
    the ``field`` when a payload is malformed, the message and violations."""

    event_number: int
    message: str
    field: str | None
    violations: list[Violation]
    turn: int | None
    position: str | None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "event_number": self.event_number,
            "message": self.message,
            "field": self.field,
            "violations": [v.to_dict() for v in self.violations],
            "turn": self.turn,
            "position": self.position,
        }


#: A quoted piece of the input longer than this is shown by its start and its length.
QUOTE_LIMIT = 60
_QUOTED = re.compile(r"'([^'\\\n]*+(?:\\.[^'\\\n]*+)*+)'")


def shortened(message: str) -> str:
    """``message`` with each long quoted piece of input cut to its start, so that a
    hostile token (5,000 digits, a whole line) never fills a verdict.

    >>> shortened("unknown decision '" + "9" * 100 + "'")[-30:]
    "99999999999…' (100 characters)"
    """
    if len(message) <= QUOTE_LIMIT:
        return message
    return _QUOTED.sub(_cut, message)


def _cut(m: re.Match[str]) -> str:
    quoted = m.group(1)
    if len(quoted) <= QUOTE_LIMIT:
        return m.group()
    return f"'{quoted[:QUOTE_LIMIT]}…' ({len(quoted)} characters)"
