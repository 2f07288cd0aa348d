"""Logging a game at the table, move by move: the library under ``tablelog new``, ``log``,
``undo`` and ``record`` (and, later, the phone page and the HTTP API).

Every call is one write to the store (:meth:`recorder.Recorder.append` or an
import), so it is atomic: either all it read is written, or nothing is.  A *step* is a
stored event, the setup included (a new game has 1 step); ``expect`` makes a call refuse
(:class:`StaleStep`) unless the game has exactly that many steps, so two loggers, or a
retried script, never record a move twice.

A new game of the default game, its headers and setup written as an exported game
begins (a random setup here):

>>> import random, tempfile, os
>>> from engine.games import DEFAULT_KIND
>>> from recorder import EventStore
>>> rules = get_game(DEFAULT_KIND)
>>> setup = rules.write_game(
...     {"players": ["Ann", "Bo"]}, rules.random_game(random.Random(3), ["Ann", "Bo"])[:1])
>>> with tempfile.TemporaryDirectory() as tmp:
...     with EventStore.open(os.path.join(tmp, "t.db")) as store:
...         gid = new_game(store, setup)
...         (store.game(gid).event_count, pending(store, gid).phase)
(1, 'playing')
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.corrections import UNDO, retraction_at, undo_text
from engine.errors import Violation
from engine.games import get_game
from engine.notation.lexer import ILLEGAL_MARK, TYPED_TURN_RE
from engine.protocol import GameRules, Status

from .errors import ConcurrencyError, EventIdConflict, ImportRejected, StoreError, unstorable_at
from .protocol import Recorder
from .records import Checked, ImportResult, StoredEvent
from .stored import violation_from_dict

#: How many times :func:`log` without ``expect`` reads the game again when another writer
#: appended between its reading and its writing (each time, the text is read anew against
#: the new state, so a move logged twice is refused rather than doubled).
RETRIES = 5

__all__ = [
    "Logged",
    "MoveRefused",
    "StaleStep",
    "log",
    "new_game",
    "pending",
    "undo",
]


@dataclass(frozen=True)
class Logged:
    """What a call wrote, and where the game stands after it."""

    game_id: str
    #: Steps stored before the call.
    steps_before: int
    #: Steps stored after it.
    steps: int
    #: What was written: the game's events, or :class:`engine.corrections.Retraction`.
    events: list[Any]
    #: Their canonical notation, one per event.
    texts: list[str]
    #: Per written event, its violations when it was recorded as played illegally.
    flagged: list[list[Violation]]
    #: Where the game stands now.
    status: Status
    #: Per written event, the meta stored with it (comments, annotations, the mark).
    meta: list[dict[str, Any] | None] = field(default_factory=list)
    #: Whether the move was stored already under the id the caller gave (a retry):
    #: nothing was written now, and the steps are where it stands.
    already: bool = False

    def to_dict(self) -> dict[str, Any]:
        """What was written and where the game stands, as JSON: the one answer of the
        API's logging calls (which add the step's ``url``, docs/api.md) and of ``tablelog
        log --json`` and ``undo --json``."""
        return {
            "id": self.game_id,
            "step": self.steps,
            "steps_before": self.steps_before,
            "texts": self.texts,
            "flagged": [[v.to_dict() for v in vs] for vs in self.flagged],
            "status": asdict(self.status),
            "already_stored": self.already,
        }


class IdTaken(StoreError):
    """The id a logger chose for a move names another move already stored (``texts``,
    at step ``step``); nothing was written."""

    def __init__(self, game_id: str, move_id: str, where: str, texts: list[str]):
        super().__init__(
            f"game {game_id}: the id {move_id!r} is already the id of {where}"
            + (f" ({'; '.join(texts)})" if texts else "")
            + ": nothing was written (a new move needs a new id)"
        )
        self.game_id = game_id
        self.move_id = move_id
        self.texts = texts


class StaleStep(ConcurrencyError):
    """The game does not have the expected number of steps (``expected``, ``actual``);
    nothing was written.  The CLI exits with code 3."""

    def __init__(self, game_id: str, expected: int, actual: int):
        StoreError.__init__(
            self,
            f"game {game_id}: expected {expected} step{'s' if expected != 1 else ''}, "
            f"but the game has {actual}; nothing was written (look at the game, then "
            f"log again with --expect {actual})",
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class MoveRefused(StoreError):
    """A move the rules refuse here: ``violations`` (each with its rule and page) and the
    ``text`` that was read; nothing was written.  Logging it again with ``as_played``
    records it as played at the table, flagged.  ``completions``: the legal decisions
    that complete the text (:func:`completions`), often what the player meant."""

    def __init__(
        self,
        game_id: str,
        text: str,
        violations: Sequence[Violation],
        where: str = "",
        completions: Sequence[str] = (),
        playable: bool = True,
    ):
        self.game_id = game_id
        self.text = text
        self.violations = list(violations)
        self.completions = list(completions)
        #: Whether the move can be recorded as played (``as_played``): False when even
        #: then it cannot be applied (a card bought with tokens the player does not hold).
        self.playable = playable
        reasons = "; ".join(str(v) for v in self.violations)
        super().__init__(f"{where or repr(text)}: illegal: {reasons}")


class BadMove(StoreError):
    """Text that does not read as a move here (``error``: the game's NotationError, with
    its column); nothing was written.  ``completions`` as for :class:`MoveRefused`."""

    def __init__(self, game_id: str, text: str, error: Any, completions: Sequence[str] = ()):
        self.game_id = game_id
        self.text = text
        self.error = error
        self.completions = list(completions)
        #: What is wrong, without the place (the notation error's message).
        self.reason = str(getattr(error, "message", error))
        #: Where in the text: the column (None when the error has no place).
        self.column: int | None = getattr(error, "column", None)
        #: The decision reads but leaves out a part the rules leave open (a payment).
        self.incomplete = getattr(error, "kind", None) == "incomplete"
        line = getattr(error, "line", 1)
        if self.column is None:
            super().__init__(self.reason)
        elif line == 1:
            super().__init__(f"column {self.column}: {self.reason}")
        else:
            super().__init__(f"line {line}, column {self.column}: {self.reason}")


# --- starting a game ---------------------------------------------------------------------


def new_game(store: Recorder, text: str, *, source: str = "<text>") -> str:
    """Store a new game from its headers and setup in notation (as an exported game reads
    up to its first turn; moves after the setup are allowed and checked; a JSON game file
    is read too) under a fresh random id, and return the id.  Never finds a stored game:
    this is the one way to start a second game with the same setup.  ImportRejected names
    what is wrong, with its line and column."""
    return start_game(store, text, source=source).game_id


def start_game(
    store: Recorder, text: str, *, source: str = "<text>", game_id: str | None = None
) -> ImportResult:
    """:func:`new_game` under ``game_id`` when given (else a fresh random one): the same
    text sent again under the same id finds the game it stored (``created`` False), so a
    creation retried after a lost answer makes no second game; other text under a stored
    id is refused (ImportRejected, field ``id``)."""
    from .io import load_text  # here: logging a move reads no game file

    records = load_text(text, source)
    if len(records) != 1:
        raise ImportRejected(None, f"{len(records)} games given; a new game is one", source=source)
    (record,) = records
    if not record.events:
        raise ImportRejected(
            None, "no setup: a new game needs the table as laid out", source=source
        )
    record.game_id = game_id or secrets.token_hex(6)
    return store.import_game(record)


# --- logging -------------------------------------------------------------------------------


def steps(store: Recorder, game_id: str) -> int:
    """How many steps the game has (GameNotFound for an unknown id)."""
    return store.game(game_id).event_count


def log(
    store: Recorder,
    game_id: str,
    text: str,
    *,
    expect: int | None = None,
    as_played: bool = False,
    move_id: str | None = None,
) -> Logged:
    """Append what ``text`` says was played next: one turn or one decision in notation,
    as a turn line of an exported game reads (``12. Ann: take a1 b1 c1 =WWB {note}``,
    ``take a1 b1 c1``, ``reveal 1-17``, ``undo``), read against the game as it stands.

    Refusals write nothing: GameNotFound; :class:`StaleStep` when ``expect`` is given and
    the game has another number of steps; :class:`BadMove` for text that does not read
    (the game's NotationError, with its column); :class:`MoveRefused` for an illegal move,
    unless ``as_played`` (or the text's own ``!illegal`` mark) records it as played,
    flagged.  Without ``expect``, a write that lost a race to another logger reads the
    text again against the new state (so the same move logged twice is refused).

    ``move_id``, an id the logger chose for the move (a phone that sends it again after
    losing the answer): its events are stored under it (``ID``, ``ID.2``...), and the same
    id sent again with the same move answers with the move as stored (``already``), not
    a second copy; :class:`IdTaken` when the id is another move's."""
    found = unstorable_at(text)
    if found is not None:
        raise BadMove(game_id, text, f"<move>:1:{found[0] + 1}: {found[1]}")
    if move_id is not None:
        stored = _stored_move(store, game_id, text, as_played, move_id)
        if stored is not None:
            return stored
    for attempt in range(RETRIES):
        before = _steps_or_stale(store, game_id, expect)
        kind = store.game(game_id).kind
        rules = get_game(kind)
        # The game exactly as it stood at ``before``: a write by another logger since then
        # makes the append below fail on its expected step, never the reading of the text.
        state = store.state_at(game_id, before)
        parsed = _read(
            rules, state.copy(), game_id, text, as_played, _history(store, game_id, text, before)
        )
        # Read, checked and applied once, by the reading: stored as it is.
        forced = [i for i, m in enumerate(parsed.meta) if m and m.get("played_illegally")]
        checked = Checked(
            list(parsed.events),
            list(parsed.texts),
            {i: list(f.violations) for i, f in zip(forced, parsed.flagged, strict=True)},
            parsed.state,
        )
        try:
            ids = None if move_id is None else move_event_ids(move_id, len(parsed.events))
            result = store.append(game_id, before, checked, meta=list(parsed.meta), event_ids=ids)
        except EventIdConflict as err:
            raise IdTaken(game_id, str(move_id), f"another game's event ({err})", []) from None
        except ConcurrencyError as err:
            if expect is not None:
                raise StaleStep(game_id, expect, err.actual) from None
            if attempt == RETRIES - 1:
                raise
            continue
        flagged = {seq: v for seq, v in result.flagged}
        return Logged(
            game_id=game_id,
            steps_before=before,
            steps=result.last_sequence,
            events=list(parsed.events),
            texts=result.texts,
            flagged=[flagged.get(before + 1 + i, []) for i in range(len(parsed.events))],
            status=rules.status(parsed.state),
            meta=[None if m is None else dict(m) for m in parsed.meta],
        )
    raise AssertionError("unreachable")  # pragma: no cover


def move_event_ids(move_id: str, count: int) -> list[str]:
    """The event ids of a move logged under ``move_id``: the id, then ``ID.2``, ``ID.3``
    for the observations read with it."""
    return [move_id, *(f"{move_id}.{i}" for i in range(2, count + 1))]


def _stored_move(
    store: Recorder, game_id: str, text: str, as_played: bool, move_id: str
) -> Logged | None:
    """The move stored under ``move_id`` in the game, when it is ``text`` read where it
    was stored (a retry): as :func:`log` answered it then; None when the id is not
    stored in the game; :class:`IdTaken` when it is another move's."""
    events = store.events(game_id)
    first = next((e for e in events if e.event_id == move_id), None)
    if first is None:
        return None
    before = first.sequence - 1
    rules = get_game(store.game(game_id).kind)
    state = store.state_at(game_id, before)
    try:
        parsed = _read(
            rules, state, game_id, text, as_played, _history(store, game_id, text, before)
        )
    except (BadMove, MoveRefused):
        parsed = None
    count = 0 if parsed is None else len(parsed.events)
    mine = events[before : before + count]
    ids = move_event_ids(move_id, count)
    if (
        parsed is None
        or len(mine) != count
        or [e.event_id for e in mine] != ids
        or [e.payload for e in mine] != [rules.event_to_dict(ev) for ev in parsed.events]
    ):
        taken = [e for e in events if e.event_id == move_id or e.event_id.startswith(move_id + ".")]
        raise IdTaken(game_id, move_id, f"step {first.sequence}", [e.text for e in taken])
    return Logged(
        game_id=game_id,
        steps_before=before,
        steps=before + count,
        events=[e.event for e in mine],
        texts=[e.text for e in mine],
        flagged=[[violation_from_dict(v) for v in e.meta.get("violations", [])] for e in mine],
        status=pending(store, game_id),
        meta=[{k: v for k, v in e.meta.items() if k != "violations"} or None for e in mine],
        already=True,
    )


def undo(
    store: Recorder, game_id: str, *, to: int | None = None, expect: int | None = None
) -> Logged:
    """Retract what was entered last: the last standing decision with the observations
    logged with it (a buy and the card revealed with it go together), or a last
    observation alone when it was entered on its own (a wrong card revealed after the buy
    was stored); with ``to``, everything after step ``to``.  One new event, nothing
    deleted; the notation writes a lone observation's undo as ``undo to K``.
    :class:`StaleStep` as for :func:`log`; CorrectionRefused (an EngineError, with its
    violations) when there is nothing to undo or ``to`` is not a standing step before the
    last."""
    before = _steps_or_stale(store, game_id, expect)
    kind = store.game(game_id).kind
    rules = get_game(kind)
    rows = store.events(game_id, before)
    stored = [e.event for e in rows]
    retraction = retraction_at(rules, stored, to, entered_apart(rows))
    try:
        result = store.append(game_id, before, [rules.event_to_dict(retraction)])
    except ConcurrencyError as err:
        raise StaleStep(game_id, expect if expect is not None else before, err.actual) from None
    return Logged(
        game_id=game_id,
        steps_before=before,
        steps=result.last_sequence,
        events=[retraction],
        texts=[undo_text(rules, stored, retraction)],
        flagged=[[]],
        status=pending(store, game_id),
        meta=[None],
    )


def entered_apart(rows: Sequence[StoredEvent]) -> set[int]:
    """The steps of ``rows`` (a game's stored events) that were entered on their own: each
    the first of what one write stored."""
    return {e.sequence for e in rows if not e.with_previous}


def pending(store: Recorder, game_id: str) -> Status:
    """Where the game stands and what it waits for (:attr:`Status.due`: a discard down to
    10 tokens, a card to reveal, a tile to choose...)."""
    kind = store.game(game_id).kind
    return get_game(kind).status(store.state_at(game_id))


# --- helpers -----------------------------------------------------------------------------


def _steps_or_stale(store: Recorder, game_id: str, expect: int | None) -> int:
    actual = steps(store, game_id)
    if expect is not None and expect != actual:
        raise StaleStep(game_id, expect, actual)
    return actual


def _history(
    store: Recorder, game_id: str, text: str, steps: int
) -> tuple[list[Any], list[Any]] | None:
    """The game's first ``steps`` events and meta, for a text that takes steps back
    (``undo``); None otherwise, so a plain move is read from the state alone."""
    if UNDO not in text.lower():
        return None
    stored = store.events(game_id, steps)
    return [e.event for e in stored], [e.meta or None for e in stored]


def _read(
    rules: GameRules,
    state: Any,
    game_id: str,
    text: str,
    as_played: bool,
    history: tuple[list[Any], list[Any]] | None = None,
) -> Any:
    """The events ``text`` means in ``state`` (``history``: the game's events and meta,
    for a correction); with ``as_played`` a refused decision is read again marked as
    played illegally."""
    events, meta = history if history is not None else (None, None)
    parsed = rules.read_moves(state, text, events, meta)
    if parsed.errors:
        err = parsed.errors[0]
        violations = list(getattr(err, "violations", None) or [])
        if violations and getattr(err, "kind", "illegal") == "illegal":
            again = rules.read_moves(state, _marked(text), events, meta)
            if as_played and not again.errors:
                return again
            raise MoveRefused(
                game_id,
                text,
                violations,
                _where(err, text),
                completions(rules, state, text),
                playable=not again.errors,
            )
        raise BadMove(game_id, text, err, completions(rules, state, text))
    if not parsed.events:
        raise BadMove(game_id, text, "no move in the text")
    return parsed


#: A refusal offers the legal decisions that complete the text written when there are at
#: most this many (more would be a guess, not a slip).
MAX_COMPLETIONS = 8


def completions(rules: GameRules, state: Any, text: str) -> list[str]:
    """The legal decisions in ``state`` whose notation starts with the words of ``text``
    and goes on, in the order the game lists them: what a player who left out a part
    meant (``res 1-02`` when a Gold is left, ``res 1-02 +Y``; ``buy 1-24``, each way to
    pay for it).  None when there are more than :data:`MAX_COMPLETIONS`, or when ``text``
    holds a comment or a mark."""
    if any(ch in text for ch in "{}!?"):
        return []
    if not _for_the_player_due(rules, state, text):
        return []  # another player's move is never offered: the table would log it
    words = text[_match_end(text) :].split()
    if not words:
        return []
    n = len(words)
    found = []
    for legal in rules.legal_move_texts(state):
        written = legal.split()
        if len(written) > n and written[:n] == words:
            found.append(legal)
    return found if len(found) <= MAX_COMPLETIONS else []


def _for_the_player_due(rules: GameRules, state: Any, text: str) -> bool:
    """Whether ``text`` names no player before its decision, or the one who acts now."""
    m = TYPED_TURN_RE.match(text)
    named = m and (m.group("name") or m.group("alone"))
    if not named:
        return True
    due = rules.status(state).to_move
    names = getattr(state, "names", ()) or ()
    return due is not None and due < len(names) and str(names[due]).casefold() == named.casefold()


def _match_end(text: str) -> int:
    m = TYPED_TURN_RE.match(text)  # a turn line's number and player: not a decision's
    return m.end() if m else 0


def _marked(text: str) -> str:
    """``text`` with the mark of a move played illegally after its decision."""
    if ILLEGAL_MARK in text:
        return text
    brace = text.find("{")
    if brace < 0:
        return f"{text.rstrip()} {ILLEGAL_MARK}"
    return f"{text[:brace].rstrip()} {ILLEGAL_MARK} {text[brace:]}"


def _where(err: Any, text: str) -> str:
    column = getattr(err, "column", None)
    return f"{text!r}, column {column}" if column else repr(text)


__all__ += ["BadMove", "RETRIES", "steps"]
