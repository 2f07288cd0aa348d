"""What is played next: one turn or decision read against a position (:func:`read_moves`),
what one decision means in a position (:func:`parse_move`), whether
it is legal there and what it changes (:func:`check_move`), and every legal decision as
text (:func:`legal_move_texts`).

Decisions and messages name the seats ``names``, by default the state's own (those of
its game): :class:`engine.splendor_duel.SplendorDuel` places its ``parse_move``,
``check_move`` and ``legal_move_texts`` here as they are.

>>> import random
>>> from engine.splendor_duel import GAME, simulate
>>> state = GAME.replay(simulate.random_game(random.Random(5))[:1])
>>> verdict = check_move(state, "take a1", ("Ann", "Bob"))
>>> verdict.legal, verdict.text, verdict.payload
(True, 'take a1 =R', {'type': 'tokens_taken', 'spaces': ['a1']})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...corrections import UNDO
from ...errors import Violation
from ...notation import builder as _builder
from ...notation.lexer import TOKEN_RE, did_you_mean
from ...notation.results import NotationError
from ...protocol import ParsedGame, Verdict
from .. import describe
from .. import game as _game
from ..events import BoardReplenished, Event, event_to_dict
from ..state import REVEAL, State
from .arguments import Context, Fail, is_payment
from .builder import GameBuilder
from .decisions import READERS, move_text
from .keywords import KEYWORDS
from .typed import readings


def _named(state: State, names: Sequence[str] | None) -> State:
    """``state`` naming the seats ``names`` (a copy when they differ: the caller's state
    is not renamed); the engine's messages name the players from it."""
    if not names or tuple(names) == tuple(state.names):
        return state
    state = state.copy()
    state.names = tuple(names)  # type: ignore[assignment]
    return state


def read_moves(
    state: State,
    text: str,
    events: Sequence[Any] | None = None,
    meta: Sequence[Mapping[str, Any] | None] | None = None,
) -> ParsedGame:
    """What was played next in ``state``: one turn or one decision, exactly as a turn line
    of a game reads (``12. Ann: take a1 b1 c1 =WWB {comment}``, ``take a1 b1 c1``,
    ``reveal 1-17``, ``undo``), read by the game reader (:class:`.builder.GameBuilder`)
    from the position on; one decision typed by hand (``Take b4 c4``, ``take c2,c3``)
    is read by its one reading when it has one (:mod:`.typed`).  ``state`` is not
    changed.

    ``events`` (with their ``meta``) are the game's events so far, ``state`` their fold:
    ``undo`` needs them, and errors and flagged decisions then carry the step numbers of
    the game.  The result holds the events read (a correction as a Retraction), their
    meta, the state after them, the decisions marked ``!illegal`` (forced, ``flagged``)
    and the errors (source ``<move>``, line and column in ``text``).  Never raises for
    bad input.

    >>> import random
    >>> from engine.splendor_duel import GAME, simulate
    >>> events = simulate.random_game(random.Random(5))[:1]
    >>> state = GAME.replay(events)
    >>> got = read_moves(state, "1. take a1 {first}", events)
    >>> got.events, got.meta, got.state.turn
    ([TokensTaken(spaces=(0,))], [{'comment': 'first'}], 2)
    >>> read_moves(got.state, "undo", events + got.events).events
    [Retraction(back_to=1, type='retraction')]
    >>> print(read_moves(state, "take a1 z9").errors[0])
    <move>:1:9: unknown name: no space 'z9' on the board (columns a-e, rows 1-5)
    """
    parsed = _read_moves(state, text, events, meta)
    if parsed.events or not parsed.errors or parsed.errors[0].kind == "illegal":
        return parsed
    # One decision typed by hand (``Take b4 c4``): its one reading, if it has one.
    read = []
    for reading in readings(text, state):
        if reading != text:
            again = _read_moves(state, reading, events, meta)
            if again.events and not again.errors:
                read.append((reading, again))
    if len(read) == 1:
        return read[0][1]
    if read:
        parsed.errors = [_ambiguous(text, [r for r, _ in read])]
    return parsed


def _read_moves(
    state: State,
    text: str,
    events: Sequence[Any] | None,
    meta: Sequence[Mapping[str, Any] | None] | None,
) -> ParsedGame:
    return _builder.read_moves(GameBuilder, state, text, events, meta)


def parse_move(
    state: State, text: str, names: Sequence[str] | None = None, *, unobserved: bool = False
) -> Event:
    """The event one decision written in notation stands for, in ``state``, read as people
    type it: case, spacing and separators are forgiven wherever the reading is unambiguous
    (``Take b4 c4``, ``take c2,c3,c4``, ``take c2c3c4``, ``BUY 2-05``, ``b4`` while a
    bonus token is due; :mod:`.typed`).  A text that may be read several ways is a syntax
    error listing the readings.  ``unobserved``: a replenish may leave out its draws (a
    move checked, not logged).

    Raises NotationError (source ``<move>``, line 1) if the text cannot be read.  The
    event is not checked against the rules: use ``game.check`` or :func:`check_move`.
    """
    ctx = Context(tuple(names or state.names), unobserved)
    try:
        return _parse_exact(state, text, ctx)
    except NotationError as err:
        if err.kind == "illegal":
            raise
        first = err
    read: list[tuple[str, Event]] = []
    for reading in readings(text, state):
        if reading == text:
            continue
        try:
            read.append((reading, _parse_exact(state, reading, ctx)))
        except NotationError:
            continue
    if len(read) == 1:
        return read[0][1]
    if len(read) > 1:
        raise _ambiguous(text, [r for r, _ in read])
    raise first


def _ambiguous(text: str, texts: Sequence[str]) -> NotationError:
    """The error of a text typed by hand that can be read several ways."""
    shown = " or ".join(repr(t) for t in texts)
    return NotationError(
        "syntax", "<move>", 1, 1, f"{text.strip()!r} can be read as {shown}: say which"
    )


def _parse_exact(state: State, text: str, ctx: Context) -> Event:
    """The event ``text``, written in notation as it is, stands for in ``state``."""
    tokens = TOKEN_RE.findall(text)
    spots = [m.start() + 1 for m in TOKEN_RE.finditer(text)]

    def fail(
        kind: str, k: int, message: str, violations: Sequence[Violation] = ()
    ) -> NotationError:
        column = spots[k] if 0 <= k < len(spots) else len(text) + 1
        return NotationError(kind, "<move>", 1, column, message, violations)

    if not tokens:
        raise fail("syntax", 0, f"expected a decision ({', '.join(KEYWORDS)})")
    keyword = tokens[0]
    reader = READERS.get(keyword)
    if keyword == UNDO:
        raise fail("syntax", 0, f"{UNDO} takes back logged steps: it is logged, not checked")
    if reader is None:
        hint = did_you_mean(keyword, KEYWORDS)
        raise fail(
            "syntax",
            0,
            f"unknown decision {keyword!r}{hint}; expected one of {', '.join(KEYWORDS)}",
        )
    end = len(tokens)
    for k in range(1, len(tokens)):
        t = tokens[k]
        if t in READERS and tokens[k - 1] != "by":
            raise fail("syntax", k, "one decision at a time")
        if t[0] in "{!?})" or (t[0] == "(" and not (keyword == "buy" and is_payment(t))):
            end = k
            break
    try:
        event = reader(tokens[1:end], state, ctx)
    except Fail as f:
        raise fail(f.kind, f.arg + 1, f.message, f.violations) from None
    assert event is not None
    return event


def check_move(state: State, text: str, names: Sequence[str] | None = None) -> Verdict:
    """Is the decision ``text`` legal in ``state``?  If not, why (violations citing the
    rulebook); if so, what it changes.  ``payload`` and ``text`` (the canonical notation)
    are filled in whenever the text reads as a decision.  Never raises for bad input."""
    state = _named(state, names)
    try:
        event = parse_move(state, text, state.names, unobserved=True)
    except NotationError as err:
        return Verdict(False, None, err.violations, [], err)
    payload = event_to_dict(event)
    try:
        canonical: str | None = move_text(state, event, state.names)
    except (IndexError, KeyError, ValueError, TypeError):
        canonical = None
    violations = _game.check(state, event)
    if violations:
        return Verdict(False, event, violations, [], None, payload, canonical)
    if isinstance(event, BoardReplenished) and event.tokens is None:
        changes = describe.replenish_changes(state)
    else:
        after = state.copy()
        _game.apply(after, event)
        changes = describe.changes(state, after)
    return Verdict(True, event, [], changes, None, payload, canonical)


def legal_move_texts(state: State, names: Sequence[str] | None = None) -> list[str]:
    """Every legal next decision in notation (for ``tablelog moves``).  Observations are
    listed as what may be entered: ``repl`` (then the drawn tokens), a blind reserve
    ``res L2 @SPACE`` (its card unknown) and, when a card must be revealed, each card
    that may come from the deck."""
    if state.awaiting == REVEAL:
        level = (state.refill or (0, 0))[0]
        return [f"reveal {cid}" for cid in sorted(state.unseen[level])]
    seat_names = tuple(names or state.names)
    return [move_text(state, event, seat_names) for event in _game.legal_moves(state)]
