"""Plain data for the replay page and the state API, and the table as text.

>>> from coloretto.state import State
>>> v = view(State(["Ann", "Bob"]))
>>> [p["name"] for p in v["players"]], [r["capacity"] for r in v["rows"]]
(['Ann', 'Bob'], [1, 2, 3])
"""

from __future__ import annotations

from typing import Any

from .cards import COLOURS, JOKER, KIND_BY_WORD, LETTERS, PLUS, WORDS, title
from .describe import cards_text, due, game_result, row_text
from .events import CardDrawn, CardPlaced, CardRevealed, Event, GameSetUp, RowTaken
from .lookup import CATALOGUE
from .scoring import best
from .state import OVER, SETUP, State


def _card(kind: int, new: bool = False) -> dict[str, Any]:
    return {
        "id": WORDS[kind],
        "color": WORDS[kind],
        "letter": LETTERS[kind],
        "title": CATALOGUE[WORDS[kind]].words,
        "new": new,
    }


def card_view(card_id: str) -> dict[str, Any]:
    """One card as the view draws it (KeyError: no such id).

    >>> card_view("joker")["letter"], card_view("plus")["color"]
    ('j', 'plus')
    """
    return _card(KIND_BY_WORD[card_id])


def _rows(state: State, before: State | None) -> list[dict[str, Any]]:
    out = []
    for r, row in enumerate(state.rows):
        old = before.rows[r] if before is not None and r < len(before.rows) else row
        out.append(
            {
                "row": r + 1,
                "target": f"row-{r + 1}",
                "capacity": state.capacity[r],
                "room": state.room(r),
                "open": state.open[r],
                "cards": [_card(k, i >= len(old)) for i, k in enumerate(row)],
                "emptied": before is not None and bool(old) and not row,
            }
        )
    return out


def _player(state: State, seat: int, before: State | None) -> dict[str, Any]:
    hand = state.hands[seat]
    old = before.hands[seat] if before is not None else hand
    score = best(hand, state.colours)
    o = state.outcome
    return {
        "seat": seat,
        "name": state.names[seat],
        "to_move": state.awaiting not in (SETUP, OVER) and state.current == seat,
        "winner": o is not None and seat in o.winners,
        "out": state.out[seat],
        "cards": [
            {
                "color": WORDS[c],
                "letter": LETTERS[c],
                "n": hand[c],
                "delta": hand[c] - old[c],
                "plus": c in score.plus,
            }
            for c in state.colours
        ],
        "jokers": {"n": hand[JOKER], "delta": hand[JOKER] - old[JOKER]},
        "plus_cards": {"n": hand[PLUS], "delta": hand[PLUS] - old[PLUS]},
        "count": sum(hand),
        "score": score.total,
        "plus_colours": [WORDS[c] for c in score.plus],
        "joker_colours": [WORDS[c] for c in score.jokers],
    }


def view(state: State, before: State | None = None) -> dict[str, Any]:
    """What the replay draws of ``state``; ``before`` marks what the step changed (a
    card laid in a row, a row emptied, counts in a player's hand: ``new``, ``emptied``,
    ``delta``)."""
    result = game_result(state)
    return {
        "kind": "coloretto",
        "turn": state.turn,
        "round": state.round,
        "due": due(state),
        "over": state.outcome is not None,
        "result": None if result is None else result.text,
        "supply": state.supply,
        "supply_delta": 0 if before is None else state.supply - before.supply,
        "last_round": state.last_drawn,
        "removed": [WORDS[c] for c in state.removed],
        "colours": [WORDS[c] for c in state.colours],
        "drawn": None if state.drawn is None else _card(state.drawn, True),
        "rows": _rows(state, before),
        "players": [_player(state, seat, before) for seat in range(len(state.names))],
    }


def state_json(state: State) -> dict[str, Any]:
    """``state`` as plain JSON values (the state API)."""
    return {
        "awaiting": state.awaiting,
        "turn": state.turn,
        "round": state.round,
        "current": state.current,
        "first_player": state.first_player,
        "supply": state.supply,
        "last_drawn": state.last_drawn,
        "removed": [WORDS[c] for c in state.removed],
        "rows": [
            {"cards": [WORDS[k] for k in row], "capacity": cap, "open": op}
            for row, cap, op in zip(state.rows, state.capacity, state.open, strict=True)
        ],
        "drawn": None if state.drawn is None else WORDS[state.drawn],
        "unseen": {WORDS[k]: n for k, n in enumerate(state.unseen) if n},
        "discarded": {WORDS[k]: n for k, n in enumerate(state.discarded) if n},
        "players": [
            {
                "name": state.names[seat],
                "out": state.out[seat],
                "cards": {WORDS[k]: n for k, n in enumerate(hand) if n},
                "score": best(hand, state.colours).total,
            }
            for seat, hand in enumerate(state.hands)
        ],
        "winners": None if state.outcome is None else list(state.outcome.winners),
    }


def event_lines(before: State, event: Event, after: State) -> list[str]:
    """What ``event`` did, in a few sentences (the replay's account of a step)."""
    name = before.names[before.current]
    out: list[str] = []
    match event:
        case GameSetUp():
            if after.removed:
                out.append("Removed from the box: " + ", ".join(WORDS[c] for c in after.removed))
            for seat, cards in enumerate(event.start):
                colours = " and ".join(WORDS[c] for c in cards)
                out.append(f"{after.names[seat]} starts with {colours}.")
            out.append(f"{after.names[after.first_player]} plays first.")
        case CardDrawn():
            out.append(f"{name} draws a card.")
        case CardRevealed(card=card):
            if after.last_drawn and not before.last_drawn:
                out.append(
                    f"It is the last-round card: set aside, this round is the last; "
                    f"{name} draws again."
                )
            else:
                out.append(f"It is {title(card)}.")
        case CardPlaced(row=row):
            what = "the card" if before.drawn is None else f"the {WORDS[before.drawn]} card"
            if before.drawn == PLUS:
                what = "the +2 card"
            out.append(f"{name} places {what} next to row {row + 1}.")
        case RowTaken(row=row):
            out.append(
                f"{name} takes row {row + 1} ({row_text(before.rows[row])}) "
                "and is out of the round."
            )
            gone = [k for r, cards in enumerate(before.rows) if r != row for k in cards]
            if after.round != before.round or after.outcome is not None:
                if gone:
                    out.append(f"The row left ({row_text(gone)}) goes out of the game.")
                if after.outcome is not None:
                    result = game_result(after)
                    out.append("The last round ends. " + (result.text if result else ""))
                else:
                    out.append(
                        f"The round ends: {after.names[after.current]} starts round {after.round}."
                    )
    return out


def _hand_letters(hand: list[int]) -> str:
    """A hand in letters and counts (``g3 b1 j1 +2``), for the compact view."""
    parts = [f"{LETTERS[c]}{hand[c]}" for c in range(len(COLOURS)) if hand[c]]
    if hand[JOKER]:
        parts.append(f"j{hand[JOKER]}")
    if hand[PLUS]:
        parts.append(f"+{hand[PLUS]}")
    return " ".join(parts) or "-"


def text_view(state: State, compact: bool = False) -> str:
    """The table as text for a terminal, what is due last; ``compact``: at most 19 lines
    of at most 80 characters, what is due left to the caller (cards by letter: ``b``
    blue, ``n`` brown, ``g`` green, ``r`` grey, ``o`` orange, ``p`` pink, ``y`` yellow,
    ``j`` joker, ``+`` a "+2" card)."""
    if state.awaiting == SETUP:
        return _fit([f"Coloretto · {', '.join(state.names)}"], compact, due(state))
    last = " · LAST ROUND" if state.last_drawn else ""
    lines = [
        f"Coloretto · round {state.round} · turn {state.turn} · supply {state.supply}{last}",
    ]
    if state.removed:
        lines.append("removed: " + ", ".join(WORDS[c] for c in state.removed))
    for r, row in enumerate(state.rows):
        if not state.open[r]:
            body = "(taken)" if state.outcome is None else "(off the table)"
        elif compact:
            body = " ".join(LETTERS[k] for k in row) or "-"
            body += " ." * state.room(r)
        else:
            body = row_text(row) + f" ({state.room(r)} more)"
        lines.append(f"row {r + 1} [{state.capacity[r]}]: {body}")
    if state.drawn is not None:
        lines.append(f"drawn: {title(state.drawn)}")
    width = max(len(n) for n in state.names)
    for seat, hand in enumerate(state.hands):
        mark = ">" if state.awaiting != OVER and seat == state.current else " "
        out = " (out)" if state.out[seat] else ""
        score = best(hand, state.colours).total
        cards = _hand_letters(hand) if compact else cards_text(hand)
        name = state.names[seat][:16] if compact else state.names[seat].ljust(width)
        lines.append(f"{mark} {name} {score:+d}: {cards}{out}")
    return _fit(lines, compact, due(state))


def _fit(lines: list[str], compact: bool, due_now: str) -> str:
    """The lines as one text: ``compact``, each cut to 80 characters and what is due left
    to the caller (who prints it with its prompt); else what is due last, and a line
    break after it (as every game's table as text ends)."""
    if compact:
        return "\n".join(line if len(line) <= 80 else line[:79] + "…" for line in lines)
    return "\n".join([*lines, due_now]) + "\n"
