"""The base every game builds on: what all games share is written here once.

A game (``engine/<game>/``) subclasses :class:`Game` and supplies its own rules (its new
table, ``check``, ``apply``, what may be forced now and what a consistent table is, its
legal decisions), its notation and its presentation (:class:`engine.protocol.GameRules`
lists them by job; ``docs/architecture.md`` has the table).  The base owns what is the
same in every game: playing an event (check, then apply), forcing an event that stood at
the table although the rules refuse it, folding a game with its corrections
(:class:`engine.fold.Fold`), folding a game given as JSON payloads as the store imports
it, and telling observations from decisions.

Where a game's members live is declared, not written out: :attr:`Game.members` names,
for each member the game's own modules implement, the function that does it
(``"read_game": "notation:parse_game"``).  The base resolves a name on its first use and
keeps the function on the game's class, so a game copies no wrapper and a process
imports a game's notation, views or pictures only when it first asks for them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from .corrections import Retraction, check_retraction
from .errors import UNWRITABLE, EventFormatError, IllegalMoveError, Violation
from .fold import Fold
from .notation.results import Flagged, NotationError, PayloadProblem
from .protocol import GameRules, Seats, Verdict, short_result

#: Every member the contract names (:class:`engine.protocol.GameRules`): what
#: :attr:`Game.members` may place.
CONTRACT_MEMBERS = frozenset(
    name
    for layer in GameRules.__mro__
    if layer.__module__ == GameRules.__module__
    for name in (*vars(layer), *getattr(layer, "__annotations__", {}))
    if not name.startswith("_")
)


#: Where the members live in a game laid out as ``docs/games.md`` describes (its events
#: in ``events``, its notation in ``notation``, its views in ``view``...): a game's
#: :attr:`Game.members` may start from it, ``{**LAYOUT, ...}``, and add what it places
#: elsewhere or beside.
LAYOUT: Mapping[str, str] = {
    "event_from_dict": "events:event_from_dict",
    "event_to_dict": "events:event_to_dict",
    "upcast": "events:upcast",
    "read_game": "notation:parse_game",
    "write_game": "notation:write_game",
    "read_moves": "notation:read_moves",
    "parse_move": "notation:parse_move",
    "position": "position:position_string",
    "parse_position": "position:parse_position",
    "result_problem": "describe:result_problem",
    "status": "describe:status",
    "progress": "describe:progress",
    "changes": "describe:changes",
    "choices": "choices:choices",
    "observations": "choices:observations",
    "view": "view:view",
    "event_lines": "view:event_lines",
    "state_json": "view:state_json",
    "card_view": "view:card_view",
    "picture": "picture:picture",
    "text_view": "view:text_view",
    "cards": "lookup:cards",
    "find_cards": "lookup:find",
    "random_game": "simulate:random_game",
}


def _package_of(cls: type) -> str:
    """The package of the module that defines ``cls`` (the game's ``engine/<game>/``)."""
    module = sys.modules[cls.__module__]
    package = module.__name__ if hasattr(module, "__path__") else module.__package__
    return package or module.__name__


class _Member:
    """A member that :attr:`Game.members` places in one of the game's modules: the first
    look-up imports the module and puts the function on the class in the place of this
    stand-in, so every later call is an ordinary attribute look-up."""

    __slots__ = ("home", "name", "module", "attribute")

    def __init__(self, home: type, name: str, module: str, attribute: str) -> None:
        self.home, self.name, self.module, self.attribute = home, name, module, attribute

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        found = getattr(importlib.import_module(self.module), self.attribute)
        setattr(self.home, self.name, staticmethod(found))
        return found


class Game:
    """The shared half of :class:`engine.protocol.GameRules`; a game supplies the rest.

    What a subclass must define for the members here to work: :meth:`new_state`,
    :meth:`check`, :attr:`appliers`, :meth:`due`, :meth:`consistent`,
    :meth:`event_from_dict`, :meth:`move_text` (or :meth:`event_text`) and
    :meth:`position`, and the event types the table observes in
    :attr:`observation_types`; :meth:`check_move` and :meth:`legal_move_texts` also want
    :meth:`parse_move`, :meth:`changes`, :meth:`event_to_dict` and :meth:`legal_moves`.

    A member may be a method of the subclass, or a function of one of the game's own
    modules named in :attr:`members`: ``{"position": "position:position_string"}``
    makes ``game.position(state)`` call ``position_string(state)`` of the module
    ``position`` of the game's package.  The function takes the member's arguments
    without ``self``.  It is looked up when first used (so ``tablelog log`` starts
    without importing the notation) and then kept on the class, where a call finds it
    as it finds a method defined there.  A name the contract does not know, a member
    both defined and placed, or a place not written ``module:function`` is a TypeError
    when the class is made.
    """

    #: Member name -> ``"module:function"``, the module relative to the package of the
    #: module that defines the class (``engine/<game>/``): each member of
    #: :class:`engine.protocol.GameRules` that one of the game's modules implements.
    members: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        placed = cls.__dict__.get("members", {})
        if not placed:
            return
        package = _package_of(cls)
        for name, place in placed.items():
            where, _, attribute = place.partition(":")
            if name not in CONTRACT_MEMBERS and not hasattr(Game, name):
                raise TypeError(f"{cls.__name__}.members: {name!r} is no member of a game")
            if name in cls.__dict__:
                raise TypeError(f"{cls.__name__}.members: {name!r} is also defined in the class")
            if not where or not attribute.isidentifier():
                raise TypeError(
                    f"{cls.__name__}.members: {name!r} is placed at {place!r}, "
                    "not at 'module:function'"
                )
            setattr(cls, name, _Member(cls, name, f"{package}.{where}", attribute))

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
        """The canonical notation of ``event`` played in ``state``: by default its
        :meth:`event_text`, for a game whose texts do not depend on the position."""
        return self.event_text(event)

    def event_text(self, event: Any) -> str:
        """The canonical notation of ``event`` wherever it is played (a game whose texts
        depend on the position supplies :meth:`move_text` instead)."""
        raise NotImplementedError

    def position(self, state: Any) -> str:
        raise NotImplementedError

    def event_to_dict(self, event: Any) -> dict[str, Any]:
        raise NotImplementedError

    def legal_moves(self, state: Any) -> list[Any]:
        raise NotImplementedError

    def parse_move(self, state: Any, text: str) -> Any:
        raise NotImplementedError

    def changes(self, before: Any, after: Any) -> list[str]:
        raise NotImplementedError

    #: How the game can be won: each condition with the words a listing puts after
    #: ``won`` (:attr:`engine.protocol.Rules.conditions`).
    conditions: Mapping[str, str] = {}

    # --- shared ---------------------------------------------------------------------

    def setup_after(self, first: int, players: int) -> list[str]:
        """No setup lines follow from who starts, as in most games."""
        return []

    # These serve every game whose pieces (parse_move, check, apply, changes,
    # legal_moves, move_text) say all there is to say; a game overrides one where its
    # table asks for more (moves that name the seats, a reveal listing a deck's cards).

    def check_move(self, state: Any, text: str) -> Verdict:
        """Is the decision ``text`` legal in ``state``?  Never raises for bad input."""
        try:
            event = self.parse_move(state, text)
        except NotationError as err:
            return Verdict(False, None, [], [], err)
        violations = self.check(state, event)
        after: list[str] = []
        if not violations:
            new = state.copy()
            self.apply(new, event)
            after = self.changes(state, new)
        return Verdict(
            not violations,
            event,
            violations,
            after,
            None,
            self.event_to_dict(event),
            self.move_text(state, event),
        )

    def legal_move_texts(self, state: Any) -> list[str]:
        """Every legal next decision, in canonical notation, in :meth:`legal_moves`'s
        order."""
        return [self.move_text(state, event) for event in self.legal_moves(state)]

    def result_short(self, winner: int, condition: str, names: Sequence[str]) -> str:
        """The short wording of a win (``Ann won on points``) from the game's
        :attr:`conditions`."""
        return short_result(names[winner], condition, self.conditions)

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
        return (_package_of(type(self)), "web")

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
