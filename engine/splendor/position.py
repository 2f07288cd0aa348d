"""The position string: everything about a state on one line, and back.

Fields, separated by spaces: ``splendor``, the number of players, what is awaited, the
turn, the first player and the player to move (seats from 1), the bank (W B G R K Y
counts), the decks' sizes, the display per level (``-`` for a gap), the refill space,
the nobles on the table, then one field per player: tokens, bought cards, reserved cards
(``L2?`` for a blind reserve not shown), nobles.

>>> import random
>>> from engine.splendor import GAME, simulate
>>> state = GAME.replay(simulate.random_game(random.Random(1))[:9])
>>> parse_position(position_string(state)).__class__.__name__
'State'
>>> position_string(parse_position(position_string(state))) == position_string(state)
True
"""

from __future__ import annotations

from ..decks import decks_problem, twice
from ..errors import EngineError
from .catalogue import CARDS, CARDS_BY_LEVEL, COLOR_NAMES, NOBLES, token_counts
from .game import consistent
from .rules.turn import outcome
from .state import ACTION, NOBLE, OVER, RETURN, REVEAL, SEATS, State

_AWAITED = (ACTION, REVEAL, RETURN, NOBLE, OVER)


class PositionError(EngineError, ValueError):
    """A position string that does not describe a classic Splendor table."""


def _ids(ids: list[str]) -> str:
    return ",".join(ids) or "-"


def position_string(state: State) -> str:
    """The position string of ``state`` (after the setup)."""
    if state.awaiting not in _AWAITED:
        return f"splendor {len(state.players)} setup"
    display = "/".join(",".join(c or "-" for c in row) for row in state.display)
    refill = "-" if state.refill is None else f"{state.refill[0] + 1}.{state.refill[1] + 1}"
    parts = [
        "splendor",
        str(len(state.players)),
        state.awaiting,
        str(state.turn),
        str(state.first_player + 1),
        str(state.current + 1),
        ".".join(map(str, state.bank)),
        ".".join(map(str, state.decks)),
        display,
        refill,
        _ids(state.nobles),
    ]
    for p in state.players:
        reserved = [cid or f"L{lv}?" for lv, cid in p.reserved]
        parts.append(
            ";".join((".".join(map(str, p.tokens)), _ids(p.cards), _ids(reserved), _ids(p.nobles)))
        )
    return " ".join(parts)


def _counts(text: str, n: int, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(".")]
    except ValueError:
        raise PositionError(f"{what}: expected {n} numbers joined by dots, got {text!r}") from None
    if len(values) != n or min(values) < 0:
        raise PositionError(f"{what}: expected {n} counts of 0 or more, got {text!r}")
    return values


def _list(text: str, known: object, what: str) -> list[str]:
    if text == "-":
        return []
    out = text.split(",")
    for x in out:
        if x not in known:  # type: ignore[operator]
            raise PositionError(f"{what}: unknown {x!r}")
    return out


def parse_position(text: str) -> State:
    """The state a position string describes; PositionError says what is wrong."""
    fields = text.split()
    if len(fields) < 3 or fields[0] != "splendor":
        raise PositionError("a classic Splendor position starts with 'splendor' and the players")
    try:
        n = int(fields[1])
        SEATS.check(n)
    except (ValueError, EngineError):
        raise PositionError(f"players: expected 2 to 4, got {fields[1]!r}") from None
    state = State(SEATS.default_names(n))
    if fields[2] == "setup" and len(fields) == 3:
        return state
    if len(fields) != 11 + n:
        raise PositionError(f"expected {11 + n} fields for {n} players, got {len(fields)}")
    aw = fields[2]
    if aw not in _AWAITED:
        raise PositionError(f"awaited: unknown {aw!r}")
    state.awaiting = aw
    try:
        state.turn, first, current = int(fields[3]), int(fields[4]) - 1, int(fields[5]) - 1
    except ValueError:
        raise PositionError("turn, first and current player are numbers") from None
    if not (0 <= first < n and 0 <= current < n and state.turn >= 1):
        raise PositionError("turn, first or current player out of range")
    state.first_player, state.current = first, current
    state.bank = _counts(fields[6], 6, "bank")
    state.decks = _counts(fields[7], 3, "decks")
    rows = fields[8].split("/")
    if len(rows) != 3:
        raise PositionError("display: three levels joined by '/'")
    for level, row in enumerate(rows):
        cells = row.split(",")
        for c in cells:
            if c != "-" and (c not in CARDS or CARDS[c].level != level + 1):
                raise PositionError(f"display: {c!r} is not a level {level + 1} card")
        state.display[level] = [None if c == "-" else c for c in cells]
    if fields[9] != "-":
        try:
            lv, slot = (int(x) - 1 for x in fields[9].split("."))
        except ValueError:
            raise PositionError(f"refill: expected level.space, got {fields[9]!r}") from None
        state.refill = (lv, slot)
    state.nobles = _list(fields[10], NOBLES, "nobles")
    seen: set[str] = {c for row in state.display for c in row if c is not None}
    for seat in range(n):
        parts = fields[11 + seat].split(";")
        if len(parts) != 4:
            raise PositionError(f"player {seat + 1}: tokens;cards;reserved;nobles")
        p = state.players[seat]
        p.tokens = _counts(parts[0], 6, f"player {seat + 1} tokens")
        p.cards = _list(parts[1], CARDS, f"player {seat + 1} cards")
        for cid in p.cards:
            p.bonuses[CARDS[cid].color] += 1
        hidden = {f"L{lv}?": lv for lv in (1, 2, 3)}
        for r in [] if parts[2] == "-" else parts[2].split(","):
            if r in hidden:
                p.reserved.append((hidden[r], None))
            elif r in CARDS:
                p.reserved.append((CARDS[r].level, r))
            else:
                raise PositionError(f"player {seat + 1} reserved: unknown {r!r}")
        p.nobles = _list(parts[3], NOBLES, f"player {seat + 1} nobles")
        p.points = sum(CARDS[c].points for c in p.cards) + sum(NOBLES[x].points for x in p.nobles)
        seen.update(p.cards)
        seen.update(cid for _, cid in p.reserved if cid is not None)
    state.unseen = [set(ids) - seen for ids in CARDS_BY_LEVEL]
    if aw == OVER:
        state.outcome = outcome(state)
    problem = _components_problem(state)
    if problem is not None or not consistent(state):
        raise PositionError(problem or "the tokens or cards do not add up to one game's components")
    return state


def _components_problem(state: State) -> str | None:
    """What in a table read does not add up to one game's components (for ``players``
    players), in words: a colour's tokens, a card or noble in two places, a deck."""
    totals, counts = state.token_totals(), token_counts(len(state.players))
    for c, (n, want) in enumerate(zip(totals, counts, strict=True)):
        if n != want:
            return (
                f"the position holds {n} {COLOR_NAMES[c]} tokens in all (bank and players); "
                f"a game of {len(state.players)} has {want}"
            )
    places = [("the display", None, [cid for row in state.display for cid in row if cid])]
    places.append(("the table", None, state.nobles))
    for seat, p in enumerate(state.players, start=1):
        places.append((f"player {seat}'s cards", None, p.cards))
        places.append((f"player {seat}'s reserve", None, [cid for _, cid in p.reserved if cid]))
        places.append((f"player {seat}'s nobles", None, p.nobles))
    found = twice(places, "a card or noble")
    return found[0] if found is not None else decks_problem(state)
