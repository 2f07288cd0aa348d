"""Everything a layer above the engine may know about a game.

``recorder/``, ``web/`` and ``cli/`` reach a game only through :func:`engine.games.get_game`
and the :class:`GameRules` object it returns: the seats, a new table, events and their
payloads, the rules (check, play, force, legal moves), the notation and position strings,
the description of a step (what changed, what is due now, how the game ended: one wording
each), the view the replay draws (plain data, no HTML), the reference data (cards by id and
by what is printed on them) and random games for benches and fixtures.

A game package (``engine/<game>/``, or any installed package: ``docs/games.md``) provides
one object of this shape and declares it as an entry point, which :mod:`engine.games`
finds.  States and events stay the package's own types
(``Any`` here): a layer above only hands them back to the same game.  Every state has a
``names`` attribute, the seat names its messages use.

The shared records below (:class:`Seats`, :class:`Result`, :class:`Status`, :class:`Verdict`,
:class:`Card`) are game-agnostic: the store keeps :class:`Status` facts as its summary row,
the site and the CLI print their texts as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .errors import EngineError, Violation

if TYPE_CHECKING:  # only annotations name it: the generator is always the caller's
    import random

#: How a seat is called when the game's headers give no name (1-based, as players count).
DEFAULT_SEAT_NAME = "Player {n}"


class SeatsError(EngineError, ValueError):
    """A game was given a number of seats it is not played with."""


@dataclass(frozen=True, slots=True)
class Seats:
    """How many players a game seats, and what they are called when nobody said.

    >>> Seats(2, 4).names(["Ann", "", "Cid"])
    ('Ann', 'Player 2', 'Cid')
    >>> Seats(2, 2).names(None)
    ('Player 1', 'Player 2')
    >>> Seats(2, 4).names(["Ann"])
    Traceback (most recent call last):
    ...
    engine.protocol.SeatsError: 1 player given; this game seats 2 to 4
    """

    minimum: int
    maximum: int

    def default_names(self, count: int | None = None) -> tuple[str, ...]:
        """``Player 1``, ``Player 2``, ... for ``count`` seats (the minimum by default)."""
        return _default_names(self.minimum if count is None else count)

    def check(self, count: int) -> None:
        """Raise :class:`SeatsError` unless ``count`` players can play."""
        if not self.minimum <= count <= self.maximum:
            span = (
                str(self.minimum)
                if self.minimum == self.maximum
                else f"{self.minimum} to {self.maximum}"
            )
            plural = "player" if count == 1 else "players"
            raise SeatsError(f"{count} {plural} given; this game seats {span}")

    def names(self, given: Sequence[Any] | None, count: int | None = None) -> tuple[str, ...]:
        """The seat names: ``given`` where it names a seat, the default name elsewhere.
        ``count`` (default: how many were given, at least the minimum) is checked."""
        given = list(given or ())
        n = count if count is not None else max(len(given), self.minimum)
        self.check(n)
        defaults = self.default_names(n)
        return tuple(
            given[i].strip()
            if i < len(given) and isinstance(given[i], str) and given[i].strip()
            else defaults[i]
            for i in range(n)
        )


@functools.cache
def _default_names(count: int) -> tuple[str, ...]:
    """The default names of ``count`` seats (made once: every game read asks)."""
    return tuple(DEFAULT_SEAT_NAME.format(n=i + 1) for i in range(count))


def seat_names(headers: Mapping[str, Any] | None, seats: Seats) -> tuple[str, ...]:
    """The seat names of a game from its stored headers (``players``: a list of names).

    This is the one place that reads seat names from headers.

    >>> seat_names({"players": ["Ann", "Bob"]}, Seats(2, 2))
    ('Ann', 'Bob')
    >>> seat_names({}, Seats(2, 2))
    ('Player 1', 'Player 2')
    """
    names = headers.get("players") if isinstance(headers, Mapping) else None
    if not isinstance(names, Sequence) or isinstance(names, str):
        names = None
    else:
        names = list(names)[: seats.maximum]
    return seats.names(names)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winning seats (several on a shared win), the ``condition``
    (a stable word per game: ``points``, ``resignation``...) and ``text``, the one wording
    of the victory (``Ann won on points (20 or more)``)."""

    winners: tuple[int, ...]
    condition: str
    text: str
    #: A short form for listings (``Ann won on points``).
    short: str = ""

    @property
    def winner(self) -> int | None:
        """The single winner, or None on a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None


@dataclass(frozen=True, slots=True)
class Status:
    """Where a game stands: what the store keeps as its summary and what every page and
    command says about it."""

    #: ``setup`` (waiting for the table to be laid out), ``playing`` or ``finished``.
    phase: str
    #: Turns begun so far (0 before the first).
    turn: int
    #: The seat whose turn it is while the game is played (None in setup and once over).
    to_move: int | None
    #: What is due now, in words (``Ann must discard down to 10 tokens``).
    due: str
    #: How the game ended, None while it goes on.
    result: Result | None = None


def phase_of(awaiting: str) -> str:
    """:attr:`Status.phase` of a state that awaits ``awaiting``: every game names what its
    table awaits before the setup ``setup`` and once the game is over ``over``."""
    return "setup" if awaiting == "setup" else "finished" if awaiting == "over" else "playing"


@dataclass(frozen=True, slots=True)
class Verdict:
    """Is a decision typed in notation legal here?  ``event`` is None when the text does
    not read as a decision (``error`` says where and why); ``payload`` is the event's
    payload; ``changes`` says what a legal decision changes, in words; ``text`` is the
    canonical notation of the decision."""

    legal: bool
    event: Any
    violations: Sequence[Violation]
    changes: Sequence[str]
    error: Any = None
    payload: Mapping[str, Any] | None = None
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "event": None if self.payload is None else dict(self.payload),
            "violations": [v.to_dict() for v in self.violations],
            "changes": list(self.changes),
            "error": None if self.error is None else self.error.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Card:
    """A card as printed, for look-ups by what players see.  ``facts`` holds the game's
    own printed facts (a colour, points, an ability, a cost...) as plain values."""

    id: str
    level: int
    words: str
    facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal next decision, for a page where it is built by tapping the table.

    ``text`` is the decision in canonical notation, exactly as
    :meth:`GameRules.legal_move_texts` gives it; ``targets`` are the things on the table it
    involves, by stable names the game's board templates also use (for instance: board
    spaces ``a1`` .. ``e5``, card ids ``1-16``, ``deck-2`` for a face-down card of a
    deck, colour letters ``W`` ``B`` ...; a name repeats where a decision counts several
    of one thing, as a discard of two red tokens); ``group`` says which family of
    decisions it belongs to (``take``, ``buy``, ``reserve``, ``reveal``, ``discard``,
    ``identify``, ...: the game's own words); ``label`` says it in a few words, in the
    game's one wording (a purchase says its payment).  Choices that differ only by a
    payment share their ``targets`` and ``group``.
    """

    text: str
    targets: tuple[str, ...]
    group: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        """The choice as plain JSON values."""
        return {
            "text": self.text,
            "targets": list(self.targets),
            "group": self.group,
            "label": self.label,
        }


@dataclass(frozen=True, slots=True)
class SetupLine:
    """One line of a game's setup in notation, in the order the table lays it out: what
    ``tablelog new`` asks and what the new-game page has fields for.

    ``word`` starts the line in notation (``level3``), ``label`` names it on a form
    (``Level 3``) and ``prompt`` is the question asked for it.  A line of cards gives their
    ``level`` (0 for cards outside the numbered decks, such as tiles) and how many the
    table lays out: ``count``, plus ``per_seat`` for each player (:meth:`needed`);
    ``piece`` is what one of them is called when asked for (``card`` unless the game
    names it otherwise).  A line without a ``level`` is typed as it is written; ``tokens``
    says it lists the tokens on the board's spaces in the board's own order, which a page
    may draw as a board.
    """

    word: str
    label: str
    prompt: str
    level: int | None = None
    count: int = 0
    per_seat: int = 0
    tokens: bool = False
    piece: str = "card"

    @property
    def cards(self) -> bool:
        """Whether the line lists cards (found by id or by what is printed on them)."""
        return self.level is not None

    def needed(self, players: int) -> int:
        """How many cards the line holds at a table of ``players``."""
        return self.count + self.per_seat * players


@dataclass(frozen=True, slots=True)
class TableQuestion:
    """A decision logged by its ``keyword`` and a card the table sees, which a logger is
    asked for (``prompt``) rather than typing it whole: the card revealed to refill the
    display, a face-down card shown, a tile awarded.  ``card`` False: the answer is free
    text written after the keyword (the tokens drawn from a bag)."""

    keyword: str
    prompt: str
    card: bool = True


@dataclass
class ParsedGame:
    """What reading one game in notation gave: its ``headers`` (``players`` a list of seat
    names), the ``events`` read (up to the first error unless every error was asked for),
    the ``meta`` of each event (comments, annotations, the mark of a move played illegally;
    None where there is none), the ``errors`` met (each a NotationError of the game's
    notation, with its line and column), the ``state`` after the events, the events played
    though illegal (``flagged``), the seat ``names``, from ``read_moves`` (or when asked
    for) each event's canonical ``texts``, and the ``fold`` that folded the events."""

    headers: dict[str, Any]
    events: list[Any]
    meta: list[dict[str, Any] | None]
    errors: list[Any]
    state: Any
    flagged: list[Any] = field(default_factory=list)
    names: tuple[str, ...] = ()
    #: The canonical notation of each event read, written in the position before it (as
    #: :meth:`GameRules.move_text` gives it; a correction as the notation writes it):
    #: filled by :meth:`GameRules.read_moves`, whose caller stores it with the events.
    texts: list[str] = field(default_factory=list)
    #: The fold of the events read (:class:`engine.fold.Fold`, ``state`` its head; its
    #: texts and snapshots as the reading was asked to keep them): a caller that stores
    #: the game takes them from it rather than folding the events again.
    fold: Any = None
    #: The review the text holds: its saved lines (:class:`engine.review.Line`) by the
    #: position they branch at, and the marks and notes (``annotations``, ``comment``)
    #: the review added to the record's decisions, by step.
    lines: dict[int, list[Any]] = field(default_factory=dict)
    review: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


class Playouts(Protocol):
    """What a game gives :mod:`engine.analysis` to play positions out and search them.

    A *world* is the game's own object: a copy of a position with one guess at everything
    hidden in it (the decks' order, blind reserves, the bag's draws) dealt from what the
    position has not revealed, never from the record's future, and with every observation
    due resolved from that guess, so that a decision is always due in it (or the game is
    over).  Decisions are the game's events as :meth:`Rules.legal_moves` gives them (a
    blind reserve or a replenish as its template), hashable."""

    def deal(self, state: Any, rng: random.Random) -> Any:
        """A world of ``state`` (left unchanged); its later draws use ``rng``."""
        ...

    def decisions(self, world: Any) -> list[Any]:
        """Every decision legal in ``world`` (it is never asked of a finished one)."""
        ...

    def mover(self, world: Any) -> int:
        """The seat whose decision is due in ``world``."""
        ...

    def advance(self, world: Any, decision: Any) -> None:
        """Play ``decision`` in ``world``, then the observations it calls for (the card
        under a blind reserve, the tokens drawn, the card refilling the display), drawn
        from the world's guess."""
        ...

    def scores(self, world: Any, decisions: Sequence[Any]) -> list[float]:
        """How much the default policy likes each of ``decisions`` (higher is better, on
        a scale where 10 is a clear preference): the search's priors."""
        ...

    def choose(self, world: Any) -> Any:
        """The default policy's decision in ``world``: as a player would, mostly the best
        scored of :meth:`decisions`, sometimes another (with the world's ``rng``).  A
        playout asks it at every step: it may leave unlisted the decisions it knows it
        would not pick."""
        ...

    def shares(self, world: Any) -> tuple[float, ...] | None:
        """Each seat's share of the win once the game in ``world`` is over (1 to the
        winner; split on a shared win or a game that runs past the playouts' limit), None
        while it goes on."""
        ...

    def decision(self, event: Any) -> Any:
        """The decision a recorded ``event`` made, as :meth:`decisions` names it (a blind
        reserve or a replenish without what the table saw)."""
        ...


class Rules(Protocol):
    """A game's rules: its table, its events, what is legal and how a game ends.  The
    base :class:`engine.contract.Game` gives ``play``, ``force`` and ``is_observation``
    from the game's ``check``, ``apply``, ``due``, ``consistent`` and observation types."""

    #: Stable kind stored with each game (its entry point's name), e.g. ``coloretto``.
    kind: str

    #: Human title, e.g. ``Coloretto``; also the notation's ``[Game "..."]`` header.
    title: str

    #: Version of the event payload layout that :meth:`event_to_dict` writes.
    payload_version: int

    #: How many players the game seats.
    seats: Seats

    #: How positions are played out and searched (:mod:`engine.analysis`).
    playouts: Playouts

    #: How the game can be won: each stable ``condition`` word (see :class:`Result`) with
    #: the short words a listing puts after the winner's name (``points``: ``on points``).
    conditions: Mapping[str, str]

    def new_state(self, names: Sequence[str] | None = None) -> Any:
        """The empty table before the setup event, for these seat names (their number
        is the number of players; None: the minimum, with default names)."""
        ...

    def event_from_dict(self, data: Mapping[str, Any]) -> Any:
        """Parse a current-version payload; EventFormatError names the bad field."""
        ...

    def event_to_dict(self, event: Any) -> dict[str, Any]:
        """The payload of an event (current version)."""
        ...

    def upcast(self, payload: Mapping[str, Any], version: int) -> dict[str, Any]:
        """Bring a stored payload of an older ``version`` to the current layout."""
        ...

    def check(self, state: Any, event: Any) -> list[Violation]:
        """Why ``event`` is illegal in ``state`` (empty list: legal)."""
        ...

    def play(self, state: Any, event: Any) -> None:
        """Check and apply in place; raises IllegalMoveError."""
        ...

    def force(self, state: Any, event: Any) -> list[Violation]:
        """Apply an event that was played at the table although illegal, returning its
        violations; raises IllegalMoveError if it cannot be applied at all."""
        ...

    def legal_moves(self, state: Any) -> list[Any]:
        """Every legal next decision."""
        ...

    def is_observation(self, event: Any) -> bool:
        """Whether ``event`` is something the table observed (a card revealed, a blind
        reserve shown) rather than a player's decision; an undo takes back a decision
        together with the observations that followed it."""
        ...

    def acting_seat(self, state: Any, event: Any) -> int | None:
        """The seat that makes ``event`` in ``state`` (None for the setup and for what the
        table observes on nobody's behalf)."""
        ...

    def card_actions(self, state: Any, event: Any) -> tuple[tuple[str, str], ...]:
        """What ``event`` (made in ``state``) does with cards, for a club's statistics:
        ``("bought", card_id)`` and ``("reserved", card_id)`` pairs, a card reserved
        unseen counted when the table is shown it; empty for every other event."""
        ...

    def status(self, state: Any) -> Status:
        """Where the game stands: phase, turn, whose decision, what is due, the result."""
        ...

    def progress(self, state: Any) -> tuple[str, int]:
        """:attr:`Status.phase` and :attr:`Status.turn` of ``state`` without the words of
        the rest: cheap enough to ask before every event of a game (a replay's move list
        groups its steps by turn)."""
        ...

    def result_problem(
        self, headers: Mapping[str, Any], state: Any
    ) -> tuple[str, str, Violation] | None:
        """Whether the outcome the headers state (``result``, and any the game's own
        tags say) agrees with ``state``, where the moves end: None, or ``(header,
        message, violation)``.  Notation and JSON imports alike are checked by it."""
        ...

    def random_game(self, rng: random.Random, names: Sequence[str] | None = None) -> list[Any]:
        """A complete legal game chosen with ``rng`` (benches, fixtures, samples)."""
        ...


class Notation(Protocol):
    """A game's text: its setup's lines, reading and writing games and moves, positions.
    ``validate_payloads`` (a game given as JSON, folded as the store imports it) is the
    base's."""

    #: The setup's lines in the order the table lays them out (``tablelog new`` asks
    #: them, the new-game page has a field for each card of them).
    setup_lines: Sequence[SetupLine]

    #: What the table does at the setup besides its lines, in a sentence for whoever sets
    #: up (``""``: nothing).
    setup_note: str

    #: The decisions a logger is asked for by keyword (see :class:`TableQuestion`).
    table_questions: Sequence[TableQuestion]

    def setup_after(self, first: int, players: int) -> list[str]:
        """The setup lines that follow from who starts (seat ``first``, from 0) at a table
        of ``players``, written after :attr:`setup_lines` (say, a token given to the
        player who does not start); most games have none."""
        ...

    def read_game(
        self,
        text: str,
        source: str = "<text>",
        *,
        stop_at_first_error: bool = True,
        texts: bool = False,
        every: int | None = None,
    ) -> ParsedGame:
        """Read one game in notation; never raises for bad input (errors are collected).
        With ``texts`` its fold (``ParsedGame.fold``) keeps each event's canonical text,
        and a snapshot every ``every`` steps: what a store keeps of the game."""
        ...

    def write_game(
        self,
        headers: Mapping[str, Any],
        events: Sequence[Any],
        meta: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> str:
        """The canonical notation of a game (reading it back gives the same events)."""
        ...

    def read_moves(
        self,
        state: Any,
        text: str,
        events: Sequence[Any] | None = None,
        meta: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> ParsedGame:
        """Read what was played next in ``state``: one turn or one decision in notation, with
        or without its number and player, comments and marks allowed, exactly as a turn line
        of an exported game reads (``12. Ann: take a1 b1 c1 =WWB {comment}``, ``reveal
        1-17``, ``undo``, ``undo to K``), cards named by id or by description.  ``state`` is
        not changed.  ``events`` and ``meta`` are the game's stored events so far (``state``
        their fold): ``undo`` needs them, and with them errors and flagged moves carry the
        game's step numbers.  Returns the events (a correction as an
        :class:`engine.corrections.Retraction`) with their meta, the state after them and
        the moves marked as played illegally (``flagged``, forced); never raises for bad
        input (``errors`` says where, by column, and why)."""
        ...

    def parse_move(self, state: Any, text: str) -> Any:
        """The decision ``text`` means in ``state``; NotationError says why not."""
        ...

    def check_move(self, state: Any, text: str) -> Verdict:
        """Is the decision ``text`` legal in ``state``?  Never raises for bad input."""
        ...

    def move_text(self, state: Any, event: Any) -> str:
        """The canonical notation of ``event`` played in ``state``."""
        ...

    def legal_move_texts(self, state: Any) -> list[str]:
        """Every legal next decision, in canonical notation."""
        ...

    def position(self, state: Any) -> str:
        """The position string: everything about ``state`` on one line."""
        ...

    def parse_position(self, text: str) -> Any:
        """The state a position string describes; PositionError says where it is wrong."""
        ...

    def claims_position(self, text: str) -> bool:
        """Whether ``text``, a position string that no game reads, is meant for this game,
        so that the reason given is this game's (the base's: its first word is the kind)."""
        ...

    def validate_payloads(
        self,
        payloads: Sequence[Any],
        meta: Sequence[Mapping[str, Any] | None],
        names: Sequence[str],
    ) -> Any:
        """Fold stored payloads (or the events a loader parsed from them) with full
        checks, as an import does; the game's report of the first problem (event number,
        field, violations)."""
        ...


class Presentation(Protocol):
    """What a game shows people: the replay's view and words, a picture, the table as
    text, the choices a page taps, its cards by what is printed on them."""

    def choices(self, state: Any) -> list[Choice]:
        """Every legal next decision as :meth:`legal_move_texts` gives it (the same texts in
        the same order), each with the things on the table it involves, its family and a
        short label (see :class:`Choice`): what a page needs to build a decision by
        tapping the table."""
        ...

    def observations(self, state: Any) -> list[Choice]:
        """What the table may observe now besides the decision due, as choices (say, a
        face-down card shown: ``id 1-02``, group ``identify``, targets the hidden card
        ``hidden-0-1`` and the card's id); each one's text is legal in ``state``."""
        ...

    def changes(self, before: Any, after: Any) -> list[str]:
        """What one step changed, one line each, in words."""
        ...

    def view(self, state: Any, before: Any | None = None) -> dict[str, Any]:
        """What the replay draws of ``state`` (plain data, no HTML); ``before`` marks what
        the step changed.  Its ``players`` list holds one panel per seat, each with at
        least ``seat``, ``name``, ``to_move`` and ``winner``; the rest is for the game's
        own board templates (its :attr:`web_parts`)."""
        ...

    def event_lines(self, before: Any, event: Any, after: Any) -> list[str]:
        """What ``event`` did, played in ``before`` and giving ``after``, in a few short
        sentences (the replay's account of a step, where :meth:`changes` lists every
        difference)."""
        ...

    def picture(self, state: Any, before: Any | None = None, heading: str = "") -> str:
        """A picture of ``state`` as an SVG document (text) of a fixed size, for pasting
        into a chat: the table, every seat, what is due and, with ``before`` (the state
        before the step), what the step changed; ``heading`` is the line under the
        players' names (:func:`engine.picture.step_heading`).  Pure: the site's images
        and ``tablelog show --image`` both draw it."""
        ...

    def state_json(self, state: Any) -> dict[str, Any]:
        """``state`` as plain JSON values, for the state API (its layout is the game's)."""
        ...

    def result_short(self, winner: int, condition: str, names: Sequence[str]) -> str:
        """The short wording of a win (``Ann won on points``, :attr:`Result.short`) from
        the facts a stored summary keeps, for listings that do not fold the game."""
        ...

    def text_view(self, state: Any, compact: bool = False) -> str:
        """The table as text for a terminal; ``compact``, in at most 19 lines of at most
        80 characters (with a prompt, one screen of 80 by 24)."""
        ...

    def cards(self) -> Mapping[str, Card]:
        """Every card of the game by id."""
        ...

    def card_view(self, card_id: str) -> dict[str, Any]:
        """One card of :meth:`cards` as the replay draws it (the same plain data as the
        cards in :meth:`view`), for pages that show cards outside a table (a card picker).
        KeyError for an unknown id."""
        ...

    @property
    def palette(self) -> Mapping[str, tuple[str, str, str]]:
        """The colours of the game's pieces by name: fill, ink, rim
        (:data:`engine.picture.Palette`)."""
        ...

    @property
    def web_parts(self) -> tuple[str, str]:
        """Where the game's web parts are, as ``(package, folder)``: the templates that
        draw its board, its styles and widgets (``docs/games.md``); the site reads them."""
        ...

    def find_cards(self, query: str, state: Any | None = None) -> list[Card]:
        """Cards whose printed facts match every word of ``query`` (an id matches
        itself), by id; with ``state``, only the cards that can still be revealed there.
        A word that fits nothing printed on a card raises a ValueError naming it."""
        ...


class GameRules(Rules, Notation, Presentation, Protocol):
    """The rules and texts of one game, as the layers above the engine use them: its
    :class:`Rules`, :class:`Notation` and :class:`Presentation`."""


def short_result(name: str, condition: str, conditions: Mapping[str, str]) -> str:
    """The short wording of a win in listings (:attr:`Result.short`): ``Ann won on
    points``, the words after ``won`` being the game's for the condition
    (:attr:`Rules.conditions`), or ``Ann shared the win``.

    >>> short_result("Ann", "points", {"points": "on points"})
    'Ann won on points'
    """
    if condition == "shared":
        return f"{name} shared the win"
    return f"{name} won {conditions.get(condition, condition)}"


def summary_fields(status: Status, names: Iterable[str]) -> dict[str, Any]:
    """The facts of :class:`Status` as a flat record (store projections, JSON API)."""
    names = tuple(names)
    result = status.result
    winner = None if result is None else result.winner
    return {
        "status": status.phase,
        "turns": status.turn,
        "to_move": status.to_move,
        "due": status.due,
        "winner": winner,
        "winner_name": None if winner is None else names[winner],
        "condition": None if result is None else result.condition,
        "result": "" if result is None else result.text,
    }
