"""A recorded game folded once (:class:`engine.fold.Fold`): its move list (notation, turn,
who) and the state at any step, kept in a small cache.  The fold of a game as recorded
goes to the store's cache of folded games too (:mod:`recorder.snapshots`), where the
next move logged to the game goes on from it.

Stored events are immutable and only ever appended, so a game's fold is identified by its
id, its event count and its head; a game that grew is folded again on its next request.

A record changed behind the store's back (a payload edited, steps swapped or removed, a
head that is not the last step's) is still shown: the fold stops at the first step that
is not as recorded (:class:`Altered`: where, and what ``tablelog verify`` says of it),
and the game is the steps before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.corrections import Retraction
from engine.errors import EngineError
from engine.fold import Fold
from engine.picture import step_heading
from engine.protocol import GameRules
from recorder import CorruptEvent
from recorder.lru import LRU

from . import boards


class Altered(NamedTuple):
    """Where a stored game's record was changed behind the store's back: ``step``, the
    first step not shown (the steps before it are; one past the last when only the head
    does not verify), and what is wrong there (the fold's refusal, verify's findings)."""

    step: int
    reasons: tuple[str, ...]

    def where(self) -> str:
        """Where and what, as the page's banner says it after its own opening."""
        return f"at step {self.step}: " + "; ".join(self.reasons)

    def message(self, game_id: str) -> str:
        """The facts in one sentence, as the API's errors and the stream say them."""
        return (
            f"game {game_id}: the record was altered {self.where()}"
            " (tablelog verify names every change)"
        )


class Entry(NamedTuple):
    """One step of the move list: the event that leads to state ``step`` (a named tuple:
    immutable, and made for every step of every game folded, so made cheaply: a tuple is
    built in one step, where a frozen dataclass sets each field through
    ``object.__setattr__``)."""

    step: int
    event: Any
    payload: dict[str, Any]
    meta: dict[str, Any]
    turn: int
    actor: int | None
    text: str
    violations: tuple[dict[str, Any], ...]
    #: The event set the table up (the game awaited it): the move list shows it short.
    setup: bool = False
    #: Taken back by a later correction (the move list strikes it through).
    retracted: bool = False
    #: Stored in the same write as the step before it (``StoredEvent.with_previous``).
    with_previous: bool = False

    @property
    def correction(self) -> bool:
        """Whether this step is a correction (it takes earlier steps back)."""
        return type(self.event) is Retraction

    @property
    def comment(self) -> str | None:
        value = self.meta.get("comment")
        return value if isinstance(value, str) and value else None

    @property
    def annotations(self) -> list[str]:
        value = self.meta.get("annotations")
        return [str(a) for a in value] if isinstance(value, list) else []

    @property
    def played_illegally(self) -> bool:
        return bool(self.meta.get("played_illegally"))


class Timeline:
    """A game's row, its move list and the state at any step (0: before any event)."""

    def __init__(self, row: Any, entries: list[Entry], fold: Fold, altered: Altered | None = None):
        self.row = row
        self.entries = entries
        #: The game's stored event count (more than the steps shown when ``altered``).
        self.event_count = int(row.event_count)
        #: Where the record was altered behind the store's back, or None.
        self.altered = altered
        self.names = boards.names(row)
        self.rules: GameRules = fold.rules
        self._fold = fold
        #: The steps entered on their own, each the first of what one write stored (what
        #: a plain undo takes back: :func:`engine.corrections.undo_target`).
        self.apart = {e.step for e in entries if not e.with_previous}
        #: Things computed from the game alone (rendered fragments, JSON), filled lazily.
        self.memo: dict[Any, Any] = {}

    @property
    def fold(self) -> Fold:
        """The record folded (the state at any step shown)."""
        return self._fold

    @property
    def last_step(self) -> int:
        """The last step shown: the last stored one, or the last before an alteration."""
        return len(self.entries)

    def state(self, step: int) -> Any:
        """A fresh copy of the state after ``step`` events (0 <= step <= last_step)."""
        return self._fold.state_at(step)

    def step_lines(self, step: int, before: Any, state: Any) -> list[str]:
        """What step ``step`` did, in words (``before`` and ``state``: the states around
        it): the game's account of a move; for a correction, the step the game stands at
        again; for a step taken back, which correction took it back."""
        entry = self.entries[step - 1]
        if entry.correction:
            back = entry.event.back_to
            return [f"Undo: the game stands again as after step {back}."]
        lines = list(self.rules.event_lines(before, entry.event, state))
        if entry.retracted:
            later = next(
                (e.step for e in self.entries[step:] if e.correction and e.event.back_to < step),
                None,
            )
            if later is not None:
                lines.append(f"Taken back by the undo of step {later}.")
        return lines

    def heading(self, step: int) -> str:
        """The line that names step ``step`` and the decision that led there, as the move
        list writes it (:func:`engine.picture.step_heading`)."""
        entry = self.entries[step - 1] if step > 0 else None
        if entry is None:
            return step_heading(step, self.last_step, None, None, "")
        actor = None if entry.actor is None else self.names[entry.actor]
        return step_heading(
            step,
            self.last_step,
            entry.turn,
            actor,
            entry.text,
            setup=entry.setup,
            illegal=entry.played_illegally,
        )

    def picture(self, step: int) -> str:
        """The game's picture of step ``step`` (SVG text), headed by :meth:`heading`."""
        before, state = self.states_around(step)
        return self.rules.picture(state, before, self.heading(step))

    def states_around(self, step: int) -> tuple[Any | None, Any]:
        """The states before and after event ``step`` (None before step 0)."""
        if step == 0:
            return None, self.state(0)
        return self.state(step - 1), self.state(step)


def build(
    row: Any,
    stored: list[Any],
    findings: Sequence[Any] = (),
    unreadable: Altered | None = None,
) -> Timeline:
    """Fold the stored events of ``row`` (:class:`engine.fold.Fold`, a snapshot every
    :data:`engine.fold.SNAPSHOT_EVERY` steps); events played though illegal are forced.
    The fold stops at the first step not as recorded: one missing, one that no longer
    replays, the first that ``findings`` (the store's chain findings) name, or
    ``unreadable``, where the store could read no further (``stored`` ends before it)."""
    rules = boards.rules(row.kind)
    fold = Fold(rules, boards.names(row))
    entries: list[Entry] = []
    progress, acting_seat, push = rules.progress, rules.acting_seat, fold.push
    chained = [f for f in findings if f.step is not None]
    changed = min((f.step for f in chained), default=None)
    altered: Altered | None = None
    for stored_event in stored:
        n = stored_event.sequence
        if n != fold.step + 1:
            altered = _altered(fold.step + 1, f"step {fold.step + 1} is missing", chained)
            break
        if changed is not None and n >= changed:
            altered = _altered(n, "", chained)
            break
        meta = stored_event.meta or {}
        state = fold.head
        try:
            event = getattr(stored_event, "event", None)
            if event is None:
                event = rules.event_from_dict(stored_event.payload)
            if type(event) is Retraction:
                actor, found = None, []
                push(event)
                # an undo is told on the turn it returns to (where the game stands after
                # it), so the move list groups it with the turn played again
                phase, turn = progress(fold.head)
            else:
                phase, turn = progress(state)
                actor = acting_seat(state, event)
                found = push(event, bool(meta.get("played_illegally")))
        except EngineError as exc:
            altered = _altered(n, f"event {n} no longer replays: {exc}", chained)
            break
        # the event's canonical text as the store wrote it (checked by verify)
        text = stored_event.text
        stored_violations = meta.get("violations") if meta else None
        if isinstance(stored_violations, list) and stored_violations:
            violations = tuple(
                v if isinstance(v, dict) else {"message": str(v)} for v in stored_violations
            )
        else:
            violations = tuple([v.to_dict() for v in found]) if found else ()
        entries.append(
            Entry(
                n,
                event,
                stored_event.payload,
                meta,
                turn,
                actor,
                text,
                violations,
                phase == "setup",
                False,
                bool(getattr(stored_event, "with_previous", False)),
            )
        )
    if altered is None and unreadable is not None:
        altered = _altered(unreadable.step, unreadable.reasons[0], chained)
    if altered is None and len(chained) < len(findings):  # only the head does not verify
        altered = Altered(fold.step + 1, tuple(f.message for f in findings if f.step is None))
    if any(e.correction for e in entries):
        taken_back = set(range(1, fold.step + 1)) - set(fold.standing)
        entries = [
            e._replace(retracted=True) if e.step in taken_back and not e.correction else e
            for e in entries
        ]
    return Timeline(row, entries, fold, altered)


def _altered(step: int, reason: str, findings: Sequence[Any]) -> Altered:
    """What is wrong at ``step``: ``reason`` and the chain's findings there."""
    said = [f.message for f in findings if f.step == step]
    return Altered(step, tuple([reason, *said] if reason else said))


class TimelineCache:
    """The folded games of the site, keyed by game id and checked by event count and
    head: up to ``size`` of them, the least lately shown leaving first."""

    def __init__(self, size: int = 256):
        self._items = LRU[str, Timeline](size)

    def peek(self, row: Any) -> Timeline | None:
        """The cached fold of ``row``'s game if it is up to date."""
        cached = self._items.get(row.id)
        if cached is None or cached.event_count != row.event_count or cached.row.head != row.head:
            return None
        cached.row = row
        return cached

    def get(self, store: Any, game_id: str) -> Timeline:
        """The folded game ``game_id`` (GameNotFound from the store when unknown)."""
        return self.for_row(store, store.game(game_id))

    def for_row(self, store: Any, row: Any) -> Timeline:
        """The folded game of ``row``, as far as ``row`` says it is recorded (an append
        made since ``row`` was read is left for the next request)."""
        cached = self.peek(row)
        if cached is not None:
            return cached
        try:
            stored, unreadable = store.events(row.id, row.event_count), None
        except CorruptEvent as err:  # the events before it read
            stored = store.events(row.id, err.sequence - 1)
            unreadable = Altered(err.sequence, (f"event {err.sequence} cannot be read",))
        timeline = build(row, stored, store.verification.chain_findings(row.id), unreadable)
        if timeline.altered is None and row.event_count and row.head:
            # the record as stored, folded: the store's next append to the game, or the
            # state of a step asked of it, goes on from this fold
            store.snapshots.put(row.id, bytes.fromhex(row.head), timeline.fold)
        self._items.put(row.id, timeline)
        return timeline

    def clear(self) -> None:
        self._items.clear()
