"""Every decision keyword with its reader and every event type with its writer, the
canonical text of one decision (:func:`move_text`), and the cache of decision texts
that lets plain lines skip the token-by-token reading.

>>> from engine.splendor_duel.position import parse_position
>>> from engine.splendor_duel.events import TokensTaken
>>> s = parse_position(
...     "WBGRK/PPWBG/RKWBG/RKWBG/RKYYY - 1-01,1-02,1-03,1-04,1-05/2-01,2-02,2-03,2-04/"
...     "3-01,3-02,3-03 25/20/10 -/-/-/0/-/0 -/-/-/1/-/0 2 R-1,R-2,R-3,R-4 1 1 1 action"
...     " - - - - -")
>>> move_text(s, TokensTaken((0, 1, 2)))
'take a1 b1 c1 =WBG'
>>> learn("take a1 b1 c1 =WBG")
(TokensTaken(spaces=(0, 1, 2)), ((0, 0), (1, 1), (2, 2)))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..events import Event
from ..state import State
from . import cards, royal_resign, setup, tokens
from .arguments import Context, Fail
from .lexer import KEYWORDS, TOKEN_RE
from .players import default_names

#: Reads one decision's arguments (state None: the syntax only).
Reader = Callable[[list[str], State | None, Context], Event | None]
#: Writes one event's canonical text in the state before it, naming the seats.
Writer = Callable[[State, Any, Sequence[str]], str]

READERS: dict[str, Reader] = {
    "priv": tokens.read_priv,
    "repl": tokens.read_repl,
    "take": tokens.read_take,
    "res": cards.read_res,
    "buy": cards.read_buy,
    "copy": cards.read_copy,
    "token": tokens.read_token,
    "steal": tokens.read_steal,
    "royal": royal_resign.read_royal,
    "disc": tokens.read_disc,
    "reveal": cards.read_reveal,
    "id": cards.read_id,
    "resign": royal_resign.read_resign,
}
assert tuple(READERS) == KEYWORDS

WRITERS: dict[str, Writer] = {
    "tokens_taken": tokens.write_take,
    "card_purchased": cards.write_buy,
    "card_revealed": cards.write_reveal,
    "privilege_spent": tokens.write_priv,
    "card_reserved": cards.write_res,
    "board_replenished": tokens.write_repl,
    "color_copied": cards.write_copy,
    "bonus_token_taken": tokens.write_token,
    "token_stolen": tokens.write_steal,
    "royal_taken": royal_resign.write_royal,
    "tokens_discarded": tokens.write_disc,
    "card_identified": cards.write_id,
    "player_resigned": royal_resign.write_resign,
    "game_set_up": setup.write_setup_event,
}


#: Event types whose text depends on the position: a take names the colours on the board,
#: an identification and a resignation name a seat unless it is the one to move.
POSITIONAL = frozenset({"tokens_taken", "card_identified", "player_resigned"})
#: The texts of the other events, by event (events are immutable, so one always reads
#: the same): a store writes the text of every event it folds.
_TEXTS: dict[Event, str] = {}


def move_text(state_before: State, event: Event, names: Sequence[str] | None = None) -> str:
    """The canonical notation of ``event`` in the position before it; ``names`` are the
    seat names a decision may refer to (default ``Player 1``, ``Player 2``)."""
    etype = event.type
    if etype in POSITIONAL:
        return WRITERS[etype](state_before, event, names or default_names())
    text = _TEXTS.get(event)
    if text is not None:
        return text
    writer = WRITERS.get(etype)
    if writer is None:
        raise ValueError(f"unknown event type {etype!r}")
    text = writer(state_before, event, names or default_names())
    if len(_TEXTS) > 100_000:
        _TEXTS.clear()
    _TEXTS[event] = text
    return text


# --- the cache of decision texts -------------------------------------------------------

#: What a decision text stands for: the event, with the (space, colour) pairs a take's
#: written colours claim (to check against the board).
Entry = tuple[Event, tuple[tuple[int, int], ...] | None]

#: Events read from decisions that need no position (most of them), by their text:
#: events are immutable, so the same text always stands for the same event.
TEXT_CACHE: dict[str, Entry] = {}
#: Decisions whose event depends on the seat names: never cached.
UNCACHED = frozenset({"id", "resign"})
_NO_NAMES = Context(())


def remember(keyword: str, args: list[str], event: Event, text: str | None = None) -> Entry:
    """Keep the event a decision text stands for (not a replenish: its draws rarely
    repeat), with the (space, colour) pairs a take's written colours claim."""
    colors = tokens.take_colors(args) if keyword == "take" else None
    entry = (event, colors)
    if keyword != "repl":
        if len(TEXT_CACHE) > 100_000:
            TEXT_CACHE.clear()
        TEXT_CACHE[text or (keyword + " " + " ".join(args) if args else keyword)] = entry
    return entry


def learn(text: str) -> Entry | None:
    """Read a decision of a plain line that needs no position; None if it needs one (or
    is wrong: the token-by-token path then reports it with its place).  Its words are
    one space apart (:data:`.lexer.PLAIN_TURNS_RE`) but in a payment's brackets."""
    words = text.split(" ") if "(" not in text else TOKEN_RE.findall(text)
    keyword = words[0]
    reader = READERS.get(keyword)
    if reader is None or keyword in UNCACHED:
        return None
    try:
        event = reader(words[1:], None, _NO_NAMES)
    except Fail:
        return None
    if event is None:
        return None
    return remember(keyword, words[1:], event, text)
