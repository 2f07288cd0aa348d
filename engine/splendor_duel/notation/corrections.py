"""Corrections in the notation: ``undo`` (take back the last decision with the
observations that followed it) and ``undo to K`` (back to how the game stood after step
K), written where they happened, after the decisions they take back.

The reader hands an ``undo`` to the visitor (:meth:`.visitor.Visitor.visit_correction`);
the builder appends an :class:`engine.corrections.Retraction` and folds the standing steps
again (:func:`engine.corrections.fold`).  The writer writes the short form when it means
the same step.

>>> read_undo([]), read_undo(["to", "12"])
(None, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import corrections
from ...corrections import UNDO, Retraction
from ..game import RULES
from .arguments import Fail

_USAGE = "expected undo, or undo to STEP (a step number: the setup is step 1)"


def read_undo(args: list[str], illegal: bool = False) -> int | None:
    """The step ``undo to K`` goes back to, None for a plain ``undo``; ``illegal`` when
    it was marked ``!illegal`` (an error: a correction is not a move)."""
    if illegal:
        raise Fail(
            "syntax",
            len(args),
            f"{UNDO} takes steps back: it is not a move, and cannot be marked !illegal",
        )
    if not args:
        return None
    if args[0] != "to" or len(args) != 2:
        raise Fail("syntax", 0, _USAGE)
    if not args[1].isdigit() or int(args[1]) < 1:
        raise Fail("syntax", 1, _USAGE)
    return int(args[1])


def undo_text(events: Sequence[Any], retraction: Retraction) -> str:
    """``undo`` when it goes back where a plain undo after ``events`` goes, else
    ``undo to K`` (:func:`engine.corrections.undo_text`)."""
    return corrections.undo_text(RULES, events, retraction)
