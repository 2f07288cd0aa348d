"""The one fold: a game's events applied in order, for every game and every caller.

Import, append, the state at a step, verify, the replay's move list, the live stream and
the logging page all fold through :class:`Fold`.  It owns what every game's events share:

* each event is checked and applied once (``rules.play``); an event the table played
  although the rules refuse it (its meta says ``played_illegally``) is forced
  (``rules.force``) and its violations kept in :attr:`Fold.flagged`;
* a correction (:class:`engine.corrections.Retraction`) makes the game stand again as after
  an earlier step: the steps in between stay in the record, retracted;
* snapshots: a copy of the state every ``every`` steps, so the state at any step is the
  nearest snapshot plus a few events (``every=None``: none kept, for a fold that only
  goes forward);
* with ``texts``, each event's canonical text, as the store keeps it: the game's
  ``move_text`` in the position before the event (its type where the notation cannot
  write it), a correction's ``undo`` or ``undo to K`` after the events before it.

A fold may start from a snapshot (:meth:`Fold.resume`), the state after some step that a
cache kept; the events before it are then read only if a correction needs them.  A fold
is grown without folding again by events checked and applied elsewhere (:meth:`Fold.grown`,
a new fold that shares this one's snapshots): how the store's cache of folded games
follows a game logged a move at a time.

>>> import random
>>> from engine.games import DEFAULT_KIND, get_game
>>> from engine.corrections import Retraction
>>> rules = get_game(DEFAULT_KIND)
>>> events = rules.random_game(random.Random(1))[:6]
>>> fold = Fold(rules).extend(events + [Retraction(4)])
>>> fold.step, fold.standing
(7, [1, 2, 3, 4])
>>> rules.position(fold.head) == rules.position(fold.state_at(4))
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from .corrections import (
    CorrectionRefused,
    Retraction,
    check_retraction,
    effective_steps,
    undo_text,
)
from .errors import UNWRITABLE, EngineError, IllegalMoveError, Violation

#: A snapshot of the state is kept every this many steps (the replay's and the store's).
SNAPSHOT_EVERY = 8

#: What :meth:`Fold.extend` meets when the events given run out.
_END = object()

#: The events of steps 1..k with their played-illegally marks, read when a fold that
#: started from a snapshot at step k needs them (a correction going back before k).
Earlier = Callable[[], tuple[Sequence[Any], Sequence[bool]]]


class Fold:
    """A game's events folded in order; the state at any step on demand.

    ``rules`` is the game (:class:`engine.protocol.GameRules`: ``new_state``, ``play``,
    ``force``); ``names`` the seat names of the new table; ``writer`` writes an event's
    canonical text in a state, for ``texts`` (the game's ``move_text`` by default).
    :meth:`push` folds one event, :attr:`head` is the state after the last (the fold's
    own: copy it to keep it), :meth:`state_at` a fresh copy of the state after any step.
    """

    __slots__ = (
        "rules",
        "events",
        "forced",
        "flagged",
        "_head",
        "_first",
        "_snapshots",
        "_every",
        "_earlier",
        "texts",
        "_check",
        "_appliers",
        "_write",
    )

    def __init__(
        self,
        rules: Any,
        names: Sequence[str] | None = None,
        *,
        every: int | None = SNAPSHOT_EVERY,
        state: Any = None,
        step: int = 0,
        earlier: Earlier | None = None,
        texts: bool = False,
        writer: Callable[[Any, Any], str] | None = None,
    ) -> None:
        self.rules = rules
        head = rules.new_state(names) if state is None else state
        #: The events folded by this fold (steps ``first + 1`` ...).
        self.events: list[Any] = []
        #: The steps forced as played though illegal.
        self.forced: set[int] = set()
        #: The violations of each step forced though illegal, by step.
        self.flagged: dict[int, list[Violation]] = {}
        self._first = step
        self._head = head
        # the state a fold starts from; the new table is made again when asked for
        self._snapshots: dict[int, Any] = {step: None if state is None else head.copy()}
        self._every = every
        self._earlier = earlier
        #: With ``texts``: the canonical text of each event this fold folded (not of the
        #: earlier ones a resumed fold reads), in order; else None.
        self.texts: list[str] | None = [] if texts else None
        # the game's own check and effect, called for every event with no layer between
        self._check = rules.check
        self._appliers = rules.appliers
        #: What writes an event's text in the state before it (the game's ``move_text``,
        #: or its notation's writer where the rules alone are folded).
        self._write = rules.move_text if writer is None else writer

    @classmethod
    def resume(
        cls,
        rules: Any,
        state: Any,
        step: int,
        earlier: Earlier | None = None,
        *,
        every: int | None = SNAPSHOT_EVERY,
        texts: bool = False,
        writer: Callable[[Any, Any], str] | None = None,
    ) -> Fold:
        """A fold that goes on from ``state``, the state after ``step`` events (a snapshot
        a cache kept; the fold takes it over).  ``earlier`` reads the events before it,
        which only a correction going back before ``step`` needs."""
        return cls(
            rules,
            every=every,
            state=state,
            step=step,
            earlier=earlier,
            texts=texts,
            writer=writer,
        )

    # --- reading ---------------------------------------------------------------------

    @property
    def step(self) -> int:
        """The number of events folded (the step :attr:`head` stands at)."""
        return self._first + len(self.events)

    @property
    def first(self) -> int:
        """The step this fold started from (0, or a snapshot's it was resumed at): the
        states before it are worked out only from the earlier events."""
        return self._first

    @property
    def head(self) -> Any:
        """The state after the last event: the fold's own, changed by the next push."""
        return self._head

    @property
    def standing(self) -> list[int]:
        """The steps that stand: neither retracted nor a correction."""
        self._load_earlier()
        return effective_steps(self.events)

    def event(self, step: int) -> Any:
        """The event of ``step`` (1-based) as folded by this fold."""
        if step <= self._first:
            self._load_earlier()
        return self.events[step - self._first - 1]

    def state_at(self, step: int) -> Any:
        """A fresh copy of the state after ``step`` events (0: the table before any)."""
        if not 0 <= step <= self.step:
            raise IndexError(step)
        if step == self.step:
            return self._head.copy()
        if step < self._first:
            self._load_earlier()
        base = max(s for s in self._snapshots if s <= step)
        snapshot = self._snapshots[base]
        state = self.rules.new_state(self._head.names) if snapshot is None else snapshot.copy()
        for i in range(base - self._first, step - self._first):
            event = self.events[i]
            if type(event) is Retraction:
                state = self.state_at(event.back_to)
            else:
                self.rules.force(state, event)
        return state

    def snapshots(self) -> list[tuple[int, Any]]:
        """(step, state) of each snapshot this fold took, in order: the fold's own
        copies, to read and not to change (the state it started from is not one)."""
        return [
            (step, state) for step, state in sorted(self._snapshots.items()) if step > self._first
        ]

    def fork(self, step: int, *, texts: bool = False, writer: Any = None) -> Fold:
        """A new fold that goes on from the state after ``step`` of this one, as another
        line of play would (a line saved in a game's review branches there): the events
        up to ``step`` are this fold's, read only if a correction of the branch needs
        them; this fold is not changed.  ``step`` may be any step up to :attr:`step`."""
        state = self.state_at(step)

        def earlier() -> tuple[Sequence[Any], Sequence[bool]]:
            events = [self.event(s) for s in range(1, step + 1)]
            return events, [s in self.forced for s in range(1, step + 1)]

        return Fold.resume(self.rules, state, step, earlier, every=None, texts=texts, writer=writer)

    def grown(
        self,
        events: Sequence[Any],
        head: Any,
        forced: Iterable[int] = (),
        flagged: Mapping[int, list[Violation]] | None = None,
    ) -> Fold:
        """A new fold: this one carried on by ``events``, which were checked and applied
        already (by a fold of their own, or a reader) and leave ``head``, the new fold's
        own; ``forced``: the steps among them forced as played though illegal,
        ``flagged``: the violations of those the rules refuse, by step.  This
        fold is not changed and shares its snapshots, so that a cache grows a game's fold
        a move at a time without folding an event twice; its head is kept as one more
        snapshot when the one before it is :data:`SNAPSHOT_EVERY` steps back or more.

        ValueError when a correction among ``events`` goes back before :attr:`first`: the
        new fold would need the events before it, which this one has not read."""
        first = self._first
        if first and any(type(e) is Retraction and e.back_to < first for e in events):
            raise ValueError(f"a correction goes back before step {first}, where this fold starts")
        new = copy.copy(self)  # (the rules and the game's check and effects with it)
        new.events = [*self.events, *events]
        new.forced = self.forced | set(forced)
        new.flagged = {**self.flagged, **flagged} if flagged else dict(self.flagged)
        new.texts = None
        new._head = head
        new._snapshots = dict(self._snapshots)
        step = self.step
        if step - max(new._snapshots) >= SNAPSHOT_EVERY:
            new._snapshots[step] = self._head
        return new

    # --- folding ---------------------------------------------------------------------

    def push(self, event: Any, forced: bool = False) -> list[Violation]:
        """Fold one more event: checked and applied, or, ``forced``, applied as played
        though illegal (its violations returned and kept in :attr:`flagged`).
        IllegalMoveError (its ``step`` set) when it is refused or cannot be applied even
        as played; CorrectionRefused when a correction cannot stand here.  Nothing is
        folded then."""
        step = self.step + 1
        violations: list[Violation] = []
        texts = self.texts
        if type(event) is Retraction:
            problems = check_retraction(self.standing, step, event)
            if problems:
                raise CorrectionRefused(problems)
            if texts is not None:
                text = undo_text(self.rules, self.events, event)
            self._head = self.state_at(event.back_to)
            forced = False
        else:
            if texts is not None:
                text = self._text(event)
            if forced:
                try:
                    violations = self.rules.force(self._head, event)
                except IllegalMoveError as err:
                    raise IllegalMoveError(err.violations, step) from None
            else:
                refused = self._check(self._head, event)
                try:
                    if refused:
                        raise IllegalMoveError(refused)
                    self._appliers[event.type](self._head, event)
                except IllegalMoveError as err:  # an effect may refuse a template too
                    raise IllegalMoveError(err.violations, step) from None
            if violations:
                self.flagged[step] = violations
        self.events.append(event)
        if texts is not None:
            texts.append(text)
        if forced:
            self.forced.add(step)
        every = self._every
        if every and step % every == 0:
            self._snapshots[step] = self._head.copy()
        return violations

    def extend(self, events: Iterable[Any], marks: Sequence[bool] | None = None) -> Fold:
        """Fold ``events`` in order (those marked in ``marks`` forced); returns self.

        The same as :meth:`push` of each.  A fold calls it for every stored event, so the
        events between two that need :meth:`push` (one forced, one whose step takes a
        snapshot, a correction) are checked and applied in a loop that does nothing else:
        a correction is told apart only when the game's check refuses it, as every game
        refuses an event type it does not know.  ``events`` are taken one at a time, each
        after the one before is folded: a reader may work out the next from :attr:`head`
        (and stop giving them at any point).  On an error, the events before the one
        refused stay folded."""
        forced_at = [i for i, mark in enumerate(marks) if mark] if marks else []
        check, appliers, every = self._check, self._appliers, self._every
        texts = self.texts
        said = None if texts is None else texts.append
        text_of = self._text
        given = iter(events)
        i, f = 0, 0  # the index of the next event; the next forced one's in forced_at
        while True:
            folded, head = self.events, self._head
            done = len(folded)
            count = None  # how many events the loop may fold before one needs push
            if every:
                count = every - 1 - (self._first + done) % every
            while f < len(forced_at) and forced_at[f] < i:
                f += 1
            if f < len(forced_at):
                gap = forced_at[f] - i
                count = gap if count is None else min(count, gap)
            append = folded.append
            correction = None
            for event in given if count is None else islice(given, count):
                refused = check(head, event)
                try:
                    if refused:
                        if type(event) is Retraction:
                            correction = event
                            break
                        raise IllegalMoveError(refused)
                    if said:
                        text = text_of(event)
                    appliers[event.type](head, event)
                except IllegalMoveError as err:  # an effect may refuse a template too
                    raise IllegalMoveError(err.violations, self.step + 1) from None
                append(event)
                if said:
                    said(text)
            i += len(folded) - done
            # a correction, a forced event or a snapshot's step: the whole step
            event = correction if correction is not None else next(given, _END)
            if event is _END:
                return self
            self.push(event, f < len(forced_at) and forced_at[f] == i)
            i += 1

    def text(self, event: Any) -> str:
        """The canonical text of ``event`` as the next step: a correction's after the
        events before it, any other's in the position :attr:`head`."""
        if type(event) is Retraction:
            self._load_earlier()
            return undo_text(self.rules, self.events, event)
        return self._text(event)

    def _text(self, event: Any) -> str:
        """The canonical text of ``event`` (not a correction) in the position :attr:`head`."""
        try:
            return self._write(self._head, event)
        except UNWRITABLE:
            return str(getattr(event, "type", "") or type(event).__name__)

    def _load_earlier(self) -> None:
        """Fold the steps before this fold's start from the first, so that every step is
        known (a correction that goes back before the start needs them)."""
        if self._first == 0:
            return
        if self._earlier is None:
            raise ValueError(
                f"the events before step {self._first + 1} are needed and were not given"
            )
        events, marks = self._earlier()
        full = Fold(self.rules, self._head.names, every=self._every)
        full.extend(events, marks)
        if full.step != self._first:
            raise ValueError(f"{full.step} earlier events given for a fold from step {self._first}")
        later, head = self.events, self._head
        self.events = full.events + later
        self.forced |= full.forced
        self.flagged = {**full.flagged, **self.flagged}
        self._snapshots = {**full._snapshots, **self._snapshots}
        self._first = 0
        self._head = head
        self._earlier = None


def fold(
    rules: Any,
    events: Iterable[Any],
    names: Sequence[str] | None = None,
    marks: Sequence[bool] | None = None,
    *,
    every: int | None = None,
) -> Fold:
    """``events`` folded from the new table (those marked in ``marks`` forced): the
    fold, whose :attr:`Fold.head` is the state after them."""
    return Fold(rules, names, every=every).extend(events, marks)


def refold_for_writing(
    rules: Any,
    events: Sequence[Any],
    metas: Sequence[Mapping[str, Any] | None],
    names: Sequence[str],
) -> Any:
    """The state a writer goes on from after the correction that ends ``events``: the
    standing steps folded again (those whose meta says played illegally forced);
    ValueError naming the step when they no longer fold."""
    marks = [bool(m and m.get("played_illegally")) for m in metas]
    try:
        return fold(rules, events, names, marks).head
    except EngineError as err:
        raise ValueError(f"event {len(events)} (retraction) cannot be written: {err}") from None
