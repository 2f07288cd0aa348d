"""The reports of reading notation, shared by every game (:mod:`engine.notation.results`)."""

from __future__ import annotations

from ...notation.results import ERROR_KINDS, Flagged, NotationError, PayloadProblem

__all__ = ["ERROR_KINDS", "Flagged", "NotationError", "PayloadProblem"]
