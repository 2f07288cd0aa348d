"""The base every game builds on: what all games share is written here once.

A game (``engine/<game>/``) subclasses :class:`Game` and supplies its own rules (its new
table, ``check``, ``apply``, what may be forced now and what a consistent table is, its
legal decisions), its notation and its presentation (:class:`engine.protocol.GameRules`
lists them by job; ``docs/architecture.md`` has the table).  The base owns what is the
same in every game: playing an event (check, then apply), forcing an event that stood at
the table although the rules refuse it, folding a game with its corrections
(:class:`engine.fold.Fold`), folding a game given as JSON payloads as the store imports
it, and telling observations from decisions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from .corrections import Retraction, check_retraction
from .errors import UNWRITABLE, EventFormatError, IllegalMoveError, Violation
from .fold import Fold
from .notation.results import Flagged, PayloadProblem
from .protocol import Seats


class Game:
    """The shared half of :class:`engine.protocol.GameRules`; a game supplies the rest.

    What a subclass must define for the members here to work: :meth:`new_state`,
    :meth:`check`, :attr:`appliers`, :meth:`due`, :meth:`consistent`,
    :meth:`event_from_dict`, :meth:`move_text` and :meth:`position`, and the event types
    the table observes in :attr:`observation_types`.
    """

    #: The game's kind (its key in the registry), its title as a ``Game`` header names
    #: it, and how many players it seats.
    kind: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[Seats]

    #: The colours of the game's pieces (:data:`engine.picture.Palette`): its pictures
    #: draw with them and the site's pieces take their fills from them.
    palette: ClassVar[Mapping[str, tuple[str, str, str]]] = {
        "none": ("#9b958a", "#ffffff", "#6f685d")
    }

    #: Event types that the table observes (a card revealed, a blind reserve shown)
    #: rather than a player decides: an undo takes them back with the decision before.
    observation_types: ClassVar[frozenset[str]] = frozenset()

    # --- supplied by the game -------------------------------------------------------

    def new_state(self, names: Sequence[str] | None = None) -> Any:
        raise NotImplementedError

    def check(self, state: Any, event: Any) -> list[Violation]:
        """Every reason why ``event`` may not happen in ``state`` (empty if it may).  An
        event type the game does not know, a correction among them, is refused: the fold
        tells a correction apart only when the check refuses it."""
        raise NotImplementedError

    #: Event type -> its effect on the state, the event checked (or forced) already.
    appliers: ClassVar[Mapping[str, Callable[[Any, Any], None]]] = {}

    def apply(self, state: Any, event: Any) -> None:
        """The effect of an event already checked (or forced), in place."""
        self.appliers[event.type](state, event)

    def due(self, state: Any) -> Iterable[str]:
        """The event types that may happen now: only these can be forced."""
        raise NotImplementedError

    def consistent(self, state: Any) -> bool:
        """Whether every piece of ``state`` is accounted for once, no holding negative:
        a move forced as played must leave the table so."""
        raise NotImplementedError

    def event_from_dict(self, data: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def move_text(self, state: Any, event: Any) -> str:
        raise NotImplementedError

    def position(self, state: Any) -> str:
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------

    def claims_position(self, text: str) -> bool:
        """A position string is this game's when its first word is the game's kind (a
        game whose position strings begin otherwise says so by overriding this)."""
        return text.split(maxsplit=1)[:1] == [self.kind]

    @property
    def web_parts(self) -> tuple[str, str]:
        """Where the game's web parts are (its board's templates, its pieces' styles, its
        widgets): a folder of a package, as ``(package, folder)``.  By default the ``web``
        folder beside the game's own modules (``engine/<game>/web``): the package
        of the module that defines the game's class.  Only a name: the site finds the
        folder and reads it (``docs/games.md``, "A game's web parts")."""
        module = sys.modules[type(self).__module__]
        package = module.__name__ if hasattr(module, "__path__") else module.__package__
        return (package or module.__name__, "web")

    def play(self, state: Any, event: Any) -> None:
        """Check ``event`` and apply it to ``state`` in place; IllegalMoveError if refused."""
        violations = self.check(state, event)
        if violations:
            raise IllegalMoveError(violations)
        self.apply(state, event)

    def force(self, state: Any, event: Any) -> list[Violation]:
        """Apply an event that stood at the table although the rules refuse it; returns its
        violations (empty if it was legal after all).  It must be of a kind due now and
        must leave the table consistent (nobody pays what they do not hold, no card in two
        places); otherwise IllegalMoveError is raised with its violations.  So an
        observation the table cannot hold is never forced: it is a logging error, not a
        move played against the rules."""
        violations = self.check(state, event)
        if not violations:
            self.apply(state, event)
            return []
        if state.outcome is not None or event.type not in self.due(state):
            raise IllegalMoveError(violations)
        trial = state.copy()
        try:
            self.apply(trial, event)
        except (IndexError, KeyError, ValueError, AssertionError, TypeError):
            raise IllegalMoveError(violations) from None
        if not self.consistent(trial):
            raise IllegalMoveError(violations)
        for slot in type(state).__slots__:
            setattr(state, slot, getattr(trial, slot))
        return violations

    def fold(
        self,
        events: Iterable[Any] = (),
        names: Sequence[str] | None = None,
        marks: Sequence[bool] | None = None,
        *,
        every: int | None = None,
    ) -> Fold:
        """``events`` folded from the new table (those marked in ``marks`` forced), each
        checked; :attr:`engine.fold.Fold.head` is the state after them."""
        return Fold(self, names, every=every).extend(events, marks)

    def replay(
        self, events: Iterable[Any], names: Sequence[str] | None = None, upto: int | None = None
    ) -> Any:
        """The state after ``events`` (the first ``upto`` of them), each checked;
        IllegalMoveError carries the 1-based number of the refused event in ``step``."""
        if upto is not None:
            events = list(events)[: max(upto, 0)]
        return self.fold(events, names).head

    def after(self, state: Any, event: Any) -> Any:
        """The state after ``event``, checked; ``state`` itself is left unchanged."""
        new = state.copy()
        self.play(new, event)
        return new

    def states(self, events: Iterable[Any], names: Sequence[str] | None = None) -> Iterator[Any]:
        """The new table, then the state after each event (independent copies), each
        event checked."""
        fold = Fold(self, names, every=None)
        yield fold.head.copy()
        for event in events:
            fold.push(event)
            yield fold.head.copy()

    def is_observation(self, event: Any) -> bool:
        """Whether ``event`` is something the table observed rather than decided."""
        return event.type in self.observation_types

    def move_text_safe(self, state: Any, event: Any) -> str:
        """:meth:`move_text`, or the event's type where it cannot be written (an event
        refused in ``state`` may name what is not there)."""
        try:
            return self.move_text(state, event)
        except UNWRITABLE:
            return str(getattr(event, "type", "") or type(event).__name__)

    def validate_payloads(
        self,
        payloads: Sequence[Any],
        meta: Sequence[Mapping[str, Any] | None] | None,
        names: Sequence[str],
    ) -> tuple[Any, PayloadProblem | None, list[Flagged]]:
        """Fold a game given as JSON payloads (or the events a loader parsed from them,
        not parsed again), as the store imports it: every event parsed and checked, those
        whose meta says ``played_illegally`` forced and listed, a correction making the
        game stand again as after an earlier step.  Returns the state after the legal
        prefix, the first problem (or None, with its event number, field and violations)
        and the flagged events."""
        fold = Fold(self, names, every=None)
        flagged: list[Flagged] = []
        metas = list(meta or [])
        for number, payload in enumerate(payloads, start=1):
            state = fold.head
            m = metas[number - 1] if number - 1 < len(metas) else None
            forced = isinstance(m, Mapping) and bool(m.get("played_illegally"))
            if isinstance(payload, Mapping):
                try:
                    event = self.event_from_dict(payload)
                except EventFormatError as err:
                    problem = PayloadProblem(number, str(err), err.field, [], state.turn, None)
                    return state, problem, flagged
            else:
                event = payload
            if type(event) is Retraction:
                problems = check_retraction(fold.standing, number, event)
                if problems:
                    problem = PayloadProblem(
                        number,
                        f"the retraction back to step {event.back_to} cannot stand here",
                        "back_to",
                        problems,
                        state.turn,
                        self.position(state),
                    )
                    return state, problem, flagged
                fold.push(event)
                continue
            if not forced:
                try:
                    fold.push(event)
                except IllegalMoveError as err:  # refused: the state is unchanged
                    text = self.move_text_safe(state, event)
                    problem = PayloadProblem(
                        number,
                        f"{text} is not allowed here",
                        None,
                        err.violations,
                        state.turn,
                        self.position(state),
                    )
                    return state, problem, flagged
                continue
            before = self.position(state)
            text = self.move_text_safe(state, event)
            turn = state.turn
            try:
                violations = fold.push(event, forced=True)
            except IllegalMoveError as err:
                problem = PayloadProblem(
                    number, "cannot be replayed even as played", None, err.violations, turn, before
                )
                return state, problem, flagged
            flagged.append(Flagged(number, 0, 0, turn, text, violations, before))
        return fold.head, None, flagged
