"""Every decision keyword with its reader and every event type with its writer, the
canonical text of one decision (:func:`move_text`), and the game's :data:`GRAMMAR`: what
the shared reader (:mod:`engine.notation.reader`) reads Splendor Duel with.

>>> from engine.splendor_duel.position import parse_position
>>> from engine.splendor_duel.events import TokensTaken
>>> s = parse_position(
...     "WBGRK/PPWBG/RKWBG/RKWBG/RKYYY - 1-01,1-02,1-03,1-04,1-05/2-01,2-02,2-03,2-04/"
...     "3-01,3-02,3-03 25/20/10 -/-/-/0/-/0 -/-/-/1/-/0 2 R-1,R-2,R-3,R-4 1 1 1 action"
...     " - - - - -")
>>> move_text(s, TokensTaken((0, 1, 2)))
'take a1 b1 c1 =WBG'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...notation.grammar import Grammar
from ..describe import result_problem
from ..events import Event
from ..game import RULES
from ..position import position_string
from ..state import State
from . import cards, royal_resign, setup, tokens
from .arguments import Context
from .keywords import KEYWORDS
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
    seat names a decision may refer to (by default the state's own)."""
    etype = event.type
    if etype in POSITIONAL:
        return WRITERS[etype](state_before, event, names or state_before.names)
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


# --- the grammar the shared reader reads with --------------------------------------

#: A payment in brackets, as :func:`.arguments.is_payment` has it (``(B1 R2 Y1)``,
#: ``()``, ``(-)``): the one bracketed argument of ``buy``.
_COUNTS = r"(?:[WBGRKPY]\d{0,2})+"
PAYMENT = rf"\([^\S\n]*+(?:-|{_COUNTS}(?:[^\S\n]++{_COUNTS})*+)?[^\S\n]*+\)"

#: Splendor Duel's notation for the shared reader (:mod:`engine.notation.reader`).
#: The events of ``id`` and ``resign`` depend on the seat to move, and a replenish's
#: draws rarely repeat: those are never kept by their text.
GRAMMAR = Grammar(
    RULES,
    KEYWORDS,
    READERS,
    move_text,
    setup.read_setup_line,
    position=position_string,
    result_problem=result_problem,
    bracketed={"buy": PAYMENT},
    uncached=("id", "resign"),
    unkept=("repl",),
    context=Context,
    setup_words=setup.SETUP_WORDS,
    setup_missing=setup.setup_parts_missing,
    claim=tokens.take_claim,
    claimed="board",
    refute=tokens.check_take_colors,
)
