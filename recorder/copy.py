"""Copying every game from one store to another (SQLite or PostgreSQL, either way), and
proving each copy.

Each game goes through the destination's own import (:meth:`Recorder.import_games`):
every event is checked by the rules again, the destination's triggers and constraints
apply, and a game is stored whole or not at all.  The copy keeps what the record is:
the game's id, its headers, each event's payload, meta (comment, annotations, the
played-illegally mark) and any event id a writer gave, and the times (created, each
event's recorded-at).  Afterwards each game is read back from the destination and
compared with the source: every event (sequence, id, payload, meta, time) and the chain,
step by step to the head.  A game already in the destination with the same content is
left as it is (a copy can be run again); one with other content under the same id is
refused and named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ImportRejected, StoreError
from .prepare import derived_event_id
from .protocol import Recorder
from .records import GameImport, ImportResult

#: Games read from the source and written to the destination at a time.
BATCH = 100


@dataclass(frozen=True)
class Copied:
    """One game's copy: its id, its events, whether it was new in the destination, and
    what went wrong (None: copied and verified)."""

    game_id: str
    events: int
    created: bool
    problem: str | None = None


def game_record(store: Recorder, game_id: str) -> GameImport:
    """A stored game as the import that stores it again, ids and times kept."""
    row = store.game(game_id)
    kind, headers, stored = store.stored_content(game_id)
    given = [
        None if ev.event_id == derived_event_id(game_id, ev.sequence) else ev.event_id
        for ev in stored
    ]
    return GameImport(
        kind=kind,
        headers=headers,
        events=[dict(ev.payload) for ev in stored],
        meta=[{k: v for k, v in ev.meta.items() if k != "violations"} or None for ev in stored],
        game_id=game_id,
        event_ids=given if any(g is not None for g in given) else None,
        recorded_at=[ev.recorded_at for ev in stored],
        created_at=row.created_at,
    )


def _fingerprint(store: Recorder, game_id: str) -> list[tuple[Any, ...]]:
    return [
        (ev.sequence, ev.event_id, ev.payload, ev.meta, ev.recorded_at)
        for ev in store.events(game_id)
    ]


def _copy_review(source: Recorder, target: Recorder, game_id: str) -> None:
    """The game's review events the copy lacks (its review a beginning of the source's),
    with their authors and times: the review goes with the record."""
    have = target.review_events(game_id)
    want = source.review_events(game_id)
    if len(have) >= len(want) or have != want[: len(have)]:
        return  # (the same, or another review: ``differences`` says so)
    rest = want[len(have) :]
    target.append_review(
        game_id,
        len(have),
        [(e.kind, e.body) for e in rest],
        rest[0].author,
        recorded_at=[e.recorded_at for e in rest],
        authors=[e.author for e in rest],
    )


def differences(source: Recorder, target: Recorder, game_id: str) -> str | None:
    """Where ``target``'s copy of a game differs from ``source``'s (None: the same
    events, the same chain to the same head, and the same review)."""
    if source.review_events(game_id) != target.review_events(game_id):
        return "the copy's review differs from the source's"
    want, got = _fingerprint(source, game_id), _fingerprint(target, game_id)
    if len(want) != len(got):
        return f"the copy has {len(got)} events, the source {len(want)}"
    for a, b in zip(want, got, strict=True):
        if a != b:
            return f"event {a[0]} differs from the source's"
    chain_a, chain_b = (
        source.verification.step_hashes(game_id),
        target.verification.step_hashes(game_id),
    )
    for step, (x, y) in enumerate(zip(chain_a, chain_b, strict=True)):
        if x != y:
            return f"the chain differs from step {step}"
    if source.game(game_id).head != target.game(game_id).head:
        return "the head differs from the source's"
    findings = target.verification.chain_findings(game_id)
    if findings:
        return f"the copy's chain does not verify: {findings[0]}"
    return None


def copy_games(
    source: Recorder,
    target: Recorder,
    game_ids: Iterable[str] | None = None,
    *,
    batch: int = BATCH,
    progress: Callable[[Sequence[Copied]], None] | None = None,
) -> list[Copied]:
    """Copy the given games (default: every game) from ``source`` to ``target``, then
    verify each (see the module's text); per game what happened.  ``progress`` is called
    with each batch's results."""
    ids = [g for g, _, _ in source.verification.heads()] if game_ids is None else list(game_ids)
    out: list[Copied] = []
    for start in range(0, len(ids), batch):
        chunk = ids[start : start + batch]
        records: list[GameImport] = []
        done: list[Copied] = []
        for game_id in chunk:
            try:
                records.append(game_record(source, game_id))
            except StoreError as err:
                done.append(Copied(game_id, 0, False, f"cannot be read from the source: {err}"))
        results = target.import_games(records, batch_size=batch) if records else []
        for rec, result in zip(records, results, strict=True):
            done.append(_checked(source, target, rec, result))
        out += done
        if progress is not None:
            progress(done)
    return out


def _checked(
    source: Recorder, target: Recorder, rec: GameImport, result: ImportResult | ImportRejected
) -> Copied:
    game_id = rec.game_id or ""
    if isinstance(result, ImportRejected):
        return Copied(game_id, len(rec.events), False, f"not copied: {result}")
    try:
        # (a game voided after it was stored is voided in the copy too, for the same reason)
        reason = source.game(game_id).void
        if reason is not None and target.game(game_id).void is None:
            target.void_game(game_id, reason)
        _copy_review(source, target, game_id)
        problem = differences(source, target, game_id)
    except StoreError as err:
        problem = f"cannot be read back: {err}"
    if problem is not None:
        problem = f"copied, but {problem}"
    return Copied(game_id, len(rec.events), result.created, problem)
