"""The position string: everything about a state on one line, and back.

Fields, separated by spaces: ``coloretto``, the number of players, what is awaited, the
turn, the round, the player to move (from 1), the supply's cards, ``last`` once the
last-round card is drawn (``-`` before), the colours removed (``-``: none), the rows
(``/`` between them: each row's cards by word, ``-`` for an empty row, ``x`` for a row
no longer on the table this round), the card drawn waiting for its row (``-``: none),
the cards out of the game, then one field per player: ``in`` or ``out`` (of the round)
and their cards with counts (``in:green2,joker1``).  The cards still in the supply are
what is left of the game's.

>>> import random
>>> from coloretto import GAME
>>> state = GAME.replay(GAME.random_game(random.Random(1), ["A", "B", "C"])[:9], ["A", "B", "C"])
>>> position_string(parse_position(position_string(state))) == position_string(state)
True
"""

from __future__ import annotations

import re

from engine.errors import EngineError

from .cards import COLOURS, KIND_BY_WORD, LAST, WORDS, row_capacities
from .rules import consistent, outcome
from .state import HELD, OVER, PLACE, REVEAL, SEATS, TURN, State

_AWAITED = (TURN, REVEAL, PLACE, OVER)
_COUNT = re.compile(r"([a-z]+)(\d+)")


class PositionError(EngineError, ValueError):
    """A position string that does not describe a Coloretto table."""


def _counts(counts: list[int]) -> str:
    return ",".join(f"{WORDS[k]}{n}" for k, n in enumerate(counts) if n) or "-"


def position_string(state: State) -> str:
    """The position string of ``state`` (after the setup)."""
    if state.awaiting not in _AWAITED:
        return f"coloretto {len(state.names)} setup"
    rows = "/".join(
        "x" if not state.open[r] else ",".join(WORDS[k] for k in row) or "-"
        for r, row in enumerate(state.rows)
    )
    parts = [
        "coloretto",
        str(len(state.names)),
        state.awaiting,
        str(state.turn),
        str(state.round),
        str(state.current + 1),
        str(state.supply),
        "last" if state.last_drawn else "-",
        ",".join(WORDS[c] for c in state.removed) or "-",
        rows,
        "-" if state.drawn is None else WORDS[state.drawn],
        _counts(state.discarded),
    ]
    for seat, hand in enumerate(state.hands):
        parts.append(("out:" if state.out[seat] else "in:") + _counts(hand))
    return " ".join(parts)


def _kind(word: str, what: str) -> int:
    k = KIND_BY_WORD.get(word)
    if k is None or k == LAST:
        raise PositionError(f"{what}: unknown card {word!r}")
    return k


def _parse_counts(text: str, what: str) -> list[int]:
    counts = [0] * HELD
    if text == "-":
        return counts
    for item in text.split(","):
        m = _COUNT.fullmatch(item)
        if m is None:
            raise PositionError(f"{what}: expected a card and its count (green2), got {item!r}")
        counts[_kind(m.group(1), what)] += int(m.group(2))
    return counts


def _int(text: str, what: str, low: int) -> int:
    if not text.isdigit() or int(text) < low:
        raise PositionError(f"{what}: expected a number from {low}, got {text!r}")
    return int(text)


def parse_position(text: str) -> State:
    """The state a position string describes; PositionError says what is wrong."""
    fields = text.split()
    if len(fields) < 3 or fields[0] != "coloretto":
        raise PositionError("a Coloretto position starts with 'coloretto' and the players")
    if not fields[1].isdigit() or not SEATS.minimum <= int(fields[1]) <= SEATS.maximum:
        raise PositionError(f"players: expected 2 to 5, got {fields[1]!r}")
    n = int(fields[1])
    state = State(SEATS.default_names(n))
    if fields[2] == "setup" and len(fields) == 3:
        return state
    if len(fields) != 12 + n:
        raise PositionError(f"expected {12 + n} fields for {n} players, got {len(fields)}")
    if fields[2] not in _AWAITED:
        raise PositionError(f"awaited: unknown {fields[2]!r}")
    state.awaiting = fields[2]
    state.turn = _int(fields[3], "turn", 1)
    state.round = _int(fields[4], "round", 1)
    current = _int(fields[5], "player to move", 1)
    if current > n:
        raise PositionError(f"player to move: no seat {current} at a table of {n}")
    state.current = state.first_player = current - 1
    state.supply = _int(fields[6], "supply", 0)
    if fields[7] not in ("last", "-"):
        raise PositionError(f"last round: 'last' or '-', got {fields[7]!r}")
    state.last_drawn = fields[7] == "last"
    removed = [] if fields[8] == "-" else [_kind(w, "removed") for w in fields[8].split(",")]
    if any(c >= len(COLOURS) for c in removed):
        raise PositionError("removed: colours only")
    state.removed = tuple(sorted(removed))
    rows = fields[9].split("/")
    state.capacity = row_capacities(n)
    if len(rows) != len(state.capacity):
        raise PositionError(f"rows: expected {len(state.capacity)} rows joined by '/'")
    for r, row in enumerate(rows):
        state.open[r] = row != "x"
        state.rows[r] = [] if row in ("x", "-") else [_kind(w, "rows") for w in row.split(",")]
    state.drawn = None if fields[10] == "-" else _kind(fields[10], "drawn")
    state.discarded = _parse_counts(fields[11], "out of the game")
    for seat in range(n):
        status, _, cards = fields[12 + seat].partition(":")
        if status not in ("in", "out"):
            raise PositionError(f"player {seat + 1}: 'in:' or 'out:' and the cards")
        state.out[seat] = status == "out"
        state.hands[seat] = _parse_counts(cards, f"player {seat + 1}")
    if (state.awaiting == PLACE) != (state.drawn is not None):
        raise PositionError("a card drawn waits for its row exactly when a place is due")
    seen = state.seen()
    state.unseen = [max(0, k) for k in (a - b for a, b in zip(state.in_play(), seen, strict=True))]
    if state.awaiting == OVER:
        state.outcome = outcome(state)
    if not consistent(state):
        raise PositionError("the cards do not add up to one game's cards in play")
    return state
