"""What a game supplies to the shared reader: its :class:`Grammar`.

The reader (:mod:`.reader`) knows the layout every game's notation shares: headers, the
setup lines, numbered turn lines, comments, marks and notes, ``undo``.  A game names
its decision keywords and gives, for each, the function that reads a decision's words
into its event (:data:`Reader`), the writer of an event's canonical text, and the reader
of its setup lines.  The builder (:mod:`.builder`) folds what is read with the game's
rules through its contract (:class:`engine.contract.Game`).

A decision reader takes the words after the keyword, the state (None: read the words
only, without the position, as after the first error, or to cache the event) and the
game's reading context (the seat names); it returns the event, or None when the words
alone do not say which (a payment left out, a card named by a description), and raises
:class:`Fail` with the index of the word at fault.

>>> g = Grammar(None, ["take"], {"take": lambda args, state, ctx: tuple(args)},
...             lambda state, event, names: "take " + " ".join(event), lambda *a: 0,
...             position=str)
>>> scan = g.turns.finditer("take c3 =W {hm}")
>>> [m.group("decision") or m.group("item") for m in scan if m.group()]
['take c3 =W', '{hm}']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..corrections import UNDO
from ..errors import Violation
from .lexer import turns_re

if TYPE_CHECKING:
    from ..contract import Game
    from .lexer import LogicalLines
    from .visitor import Visitor

#: Reads one decision's words after its keyword: ``(args, state or None, context)``.
Reader = Callable[[list[str], Any, Any], Any]
#: Writes an event's canonical text in the state before it, naming the seats.
Writer = Callable[[Any, Any, Sequence[str]], str]
#: Reads the setup line ``lines[k]`` into ``parts``: ``(visitor, lines, k, parts)``,
#: returning the index of the next line.
SetupReader = Callable[["Visitor", "LogicalLines", int, dict[str, Any]], int]
#: What a decision's words claim of the table beside its event (a take's written
#: colours): ``(place, what stands there)`` pairs of the state's table
#: (:attr:`Grammar.claimed`), checked each time the decision is read.
Claim = tuple[tuple[Any, Any], ...]
#: What a decision text stands for: the event, with its claim (None when it makes none).
Entry = tuple[Any, "Claim | None"]


class Fail(Exception):
    """Raised inside a decision reader: ``arg`` is the index of the offending argument
    (-1 for the keyword itself); the reader turns it into a positioned NotationError."""

    def __init__(self, kind: str, arg: int, message: str, violations: Sequence[Violation] = ()):
        super().__init__(message)
        self.kind = kind
        self.arg = arg
        self.message = message
        self.violations = list(violations)


class Grammar:
    """A game's notation as the shared reader needs it.

    ``rules`` are the game's rules (:class:`engine.contract.Game`: its title, kind,
    seats, new table, check, effects and force), ``position`` writes a state's position
    string (an error's position).  ``keywords`` are the decision keywords in the order
    the docs list them, ``readers`` each keyword's :data:`Reader`, ``move_text`` the
    :data:`Writer` of an event, ``read_setup_line`` the :data:`SetupReader`.

    ``bracketed`` maps the keywords that take one bracketed argument to its pattern;
    ``uncached`` are the keywords whose event depends on more than their words (the seat
    to move: never kept by text, read in the position), ``unkept`` those whose event is
    read from their words alone but seldom written twice (never kept by text);
    ``context`` makes the reading context from the seat names; ``claim`` gives what a
    decision's words claim of the table beside its event (:data:`Claim`: a take's
    written colours), checked each time it is read against the state's ``claimed``
    attribute (its table); ``refute`` says why the table is not as claimed (raising
    :class:`Fail`; when it does not, the rules judge the decision).
    ``setup_words`` (the words a setup line starts with) and ``setup_missing`` (what a
    setup still lacks, from its parts) describe the setup; ``numbered``: a turn line
    must start with its number until the first one does; ``result_problem`` says where
    the ``Result`` header disagrees with how the moves end (None when it agrees)."""

    def __init__(
        self,
        rules: Game,
        keywords: Sequence[str],
        readers: Mapping[str, Reader],
        move_text: Writer,
        read_setup_line: SetupReader,
        *,
        position: Callable[[Any], str],
        result_problem: Callable[[Mapping[str, Any], Any], Any] = lambda headers, state: None,
        bracketed: Mapping[str, str] | None = None,
        uncached: Collection[str] = (),
        unkept: Collection[str] = (),
        context: Callable[[Sequence[str]], Any] = tuple,
        setup_words: Sequence[str] = (),
        setup_missing: Callable[[Mapping[str, Any]], list[str]] = lambda parts: [],
        numbered: bool = True,
        claim: Callable[[str, list[str]], Claim | None] = lambda keyword, args: None,
        claimed: str = "",
        refute: Callable[[Any, list[str]], None] = lambda state, args: None,
    ):
        self.rules = rules
        self.position = position
        self.result_problem = result_problem
        self.keywords = tuple(keywords)
        if any(k.startswith(UNDO) for k in self.keywords):
            raise ValueError(f"a keyword starting with {UNDO!r} reads as a correction")
        self.readers = dict(readers)
        self.move_text = move_text
        self.read_setup_line = read_setup_line
        self.uncached = frozenset(uncached)
        self.unkept = frozenset(unkept)
        self.context = context
        self.setup_words = tuple(setup_words)
        self.setup_missing = setup_missing
        self.numbered = numbered
        self.claim = claim
        self.claimed = claimed
        self.refute = refute
        self._bracketed = dict(bracketed or {})
        #: Events read from decisions that need no position, by their text as written:
        #: events are immutable, so the same text always stands for the same event.
        self.cache: dict[str, Entry] = {}

    @cached_property
    def turns(self) -> re.Pattern[str]:
        """The scanner of the turn lines (:func:`.lexer.turns_re`), made when the first
        text is read: a command that reads none (a listing, an export) does without its
        few milliseconds of compiling."""
        return turns_re(self.keywords, self._bracketed)

    def write(self, state: Any, event: Any) -> str:
        """The canonical text of ``event`` in ``state``, naming the state's seats."""
        return self.move_text(state, event, state.names)

    def remember(self, text: str, entry: Entry) -> None:
        """Keep the event a decision text stands for (the cache is emptied when full)."""
        cache = self.cache
        if len(cache) > 100_000:
            cache.clear()
        cache[text] = entry
