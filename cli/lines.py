"""The lines the commands print of the library's answers: a rule's violations, a verdict
on a move, the legal decisions a refused text may have meant, what a write stored.  Shared
by ``log``, ``undo``, ``check`` and ``record``; like :mod:`cli.options`, it imports
nothing heavy."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recorder.logbook import Logged


def violation_lines(violations: Iterable[Any]) -> list[str]:
    """One line per violation (dicts, or the engine's Violation records)."""
    out = []
    for v in violations:
        v = v if isinstance(v, dict) else v.to_dict()
        out.append(f"  - {v['code']}: {v['message']} ({v['citation']})")
    return out


def verdict_lines(verdict: Any, text: str, where: str) -> list[str]:
    """A verdict on the move ``text`` checked ``where`` (a position, in words): cannot be
    read (the column and why), legal (what it changes), or illegal (each rule broken)."""
    shown = verdict.text or text
    err = verdict.error
    if err is not None and err.kind != "illegal":
        head = f"cannot read the move {text!r}: column {err.column}: {err.message}"
        return [head, *violation_lines(err.violations)]
    if verdict.legal:
        return [f"legal: {shown} ({where})", *(f"  {change}" for change in verdict.changes)]
    reason = f": {err.message}" if err is not None else ""
    return [f"illegal: {shown} ({where}){reason}", *violation_lines(verdict.violations)]


def completion_lines(completions: list[str]) -> list[str]:
    """What a refusal says of the legal decisions that complete the text written
    (:func:`recorder.logbook.completions`): nothing when there are none."""
    if not completions:
        return []
    if len(completions) == 1:
        return [f"did you mean: {completions[0]}"]
    return ["did you mean one of:", *(f"  {text}" for text in completions)]


def written_lines(logged: Logged) -> list[str]:
    """What a write stored, one line per step: a correction says where the game stands
    now, a move played illegally lists its violations (``log``, ``undo``, ``record``)."""
    first = logged.steps_before + 1
    lines = []
    for i, (text, flagged) in enumerate(zip(logged.texts, logged.flagged, strict=True)):
        mark = " (played illegally)" if flagged else ""
        back_to = getattr(logged.events[i], "back_to", None)
        if back_to is not None:
            mark = f" (the game stands as after step {back_to})"
        lines.append(f"step {first + i}: {text}{mark}")
        lines += violation_lines(flagged)
    return lines
