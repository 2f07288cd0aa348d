"""Coloretto's rules, one check and one effect per event, and the legal decisions.

The rules as the rulebook gives them (Rio Grande Games' English edition of the 2003
ABACUSSPIELE game; its four pages: overview, contents and preparation on page 1, the
turn on page 2, the special cards, the end and the scoring on page 3, the game for two
on page 4; the section names are the rulebook's, the page numbers as that sheet is
laid out):

* a turn is one of two actions: draw the supply's top card and lay it next to a row
  card with room (three cards at most; a green row card's own number at two players),
  or take a row with at least one card, which puts the player out of the round; when
  every row is full, a row must be taken;
* the round ends when every player has taken a row; the player who took the last row
  starts the next one (at two players the third row then leaves the table, its cards
  out of the game);
* the last-round card lies under the supply's top cards, 15 under it: drawn, it is set
  aside and the player draws again; the round is played out and the game ends;
* the setup: a row card per player (the three green ones at two), one colour removed
  at three players (two at two), each player's start card (two each at two) of a colour
  nobody else starts with, the starting player by lot.

Checked against the rulebook's text as published sources quote it (the preparation, the
turn and the 15 cards under the last-round card; the changes for two players; the
player who took the last row beginning the next round; the scoring table and the
example of a joker placed where it scores most).  Where a detail could not be checked
the program takes the most common reading, and says so here: at two players the four
start cards are of four different colours (as one card each of a different colour at
three to five); a tie shares the win (no tie-break could be found); a joker may be any
colour in play, one the player holds none of too (:mod:`.scoring`).

>>> from coloretto import GAME
>>> from coloretto.events import GameSetUp, RowTaken
>>> state = GAME.replay([GameSetUp(0, (5,), ((0,), (1,), (2,)))], ["Ann", "Bob", "Cid"])
>>> for v in check(state, RowTaken(1)):
...     print(v.code, "-", v)
take.empty - row 2 has no card to take (p.2, B. Take a card row: a row with at least one card)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import Rule, Violation

from .cards import (
    COLOURS,
    LAST,
    UNDER_LAST,
    WORDS,
    plural,
    removed_count,
    row_capacities,
    start_count,
    title,
)
from .events import CardDrawn, CardPlaced, CardRevealed, Event, GameSetUp, RowTaken
from .scoring import best
from .state import HELD, OVER, PLACE, REVEAL, SETUP, TURN, Outcome, State

#: Every rule a violation may cite, by a short key.
RULES: dict[str, Rule] = {
    "setup": Rule("Preparation", 1),
    "setup_removed": Rule("Preparation: with 3 players, remove the cards of one color", 1),
    "setup_start": Rule("Preparation: each player takes one card of a different color", 1),
    "supply": Rule("Preparation: 15 cards under the 'last round' card", 1),
    "turn": Rule("Game play: draw and place a card, or take a card row", 2),
    "draw": Rule("A. Draw and place a card: at most 3 cards next to a row card", 2),
    "drawn": Rule("A. Draw and place a card: the player draws the top-most card", 2),
    "place": Rule("A. Draw and place a card: and places it face up next to a row card", 2),
    "draw_full": Rule(
        "A. Draw and place a card: when every row card has 3 cards, a row must be taken", 2
    ),
    "take": Rule("B. Take a card row: a row with at least one card", 2),
    "out": Rule("B. Take a card row: the player is out of the round", 2),
    "round": Rule("End of a round: the player who took the last row begins the next", 2),
    "last": Rule("Special cards: 'last round': set aside, the player draws another card", 3),
    "end": Rule("Game end and scoring", 3),
    "two": Rule("For two players: the green row cards hold 1, 2 and 3 cards", 4),
    "two_setup": Rule("For two players: remove two colors; each takes two cards", 4),
    "cards": Rule("Contents: 63 color cards, 10 '+2' cards, 3 jokers, 1 'last round' card", 1),
}


def violation(code: str, message: str, rule: str) -> list[Violation]:
    """A one-violation list (the usual answer of a check)."""
    return [Violation(code, message, RULES[rule])]


def _name(state: State) -> str:
    return state.names[state.current]


# --- the setup ---------------------------------------------------------------------------


def check_setup(state: State, event: GameSetUp) -> list[Violation]:
    """Who starts, the colours removed and the start cards, for this number of players."""
    out: list[Violation] = []
    n = len(state.names)
    two = n == 2
    if not 0 <= event.first_player < n:
        out.append(
            Violation(
                "setup.first_player",
                f"no seat {event.first_player + 1} at a table of {n}",
                RULES["setup"],
            )
        )
    want = removed_count(n)
    removed_rule = RULES["two_setup" if two else "setup_removed"]
    if len(event.removed) != want:
        said = ", ".join(WORDS[c] for c in event.removed) or "none"
        out.append(
            Violation(
                "setup.removed",
                f"{n} players remove {plural(want, 'colour')} from the box, not {said}",
                removed_rule,
            )
        )
    if len(set(event.removed)) != len(event.removed):
        out.append(Violation("setup.removed", "a colour is removed twice", removed_rule))
    each = start_count(n)
    start_rule = RULES["two_setup" if two else "setup_start"]
    if len(event.start) != n:
        out.append(
            Violation(
                "setup.start",
                f"start cards for {plural(len(event.start), 'seat')}; the table has {n}",
                start_rule,
            )
        )
    seen: set[int] = set()
    for seat, cards in enumerate(event.start):
        who = state.names[seat] if seat < n else f"seat {seat + 1}"
        if len(cards) != each:
            out.append(
                Violation(
                    "setup.start",
                    f"{who} starts with {plural(len(cards), 'card')}; "
                    f"each player takes {plural(each, 'card')}",
                    start_rule,
                )
            )
        for c in cards:
            if c in event.removed:
                out.append(
                    Violation(
                        "setup.start",
                        f"{who}'s start card is {WORDS[c]}, a colour removed from the box",
                        start_rule,
                    )
                )
            elif c in seen:
                out.append(
                    Violation(
                        "setup.start",
                        f"{who}'s start card is {WORDS[c]}, a colour another start card has",
                        start_rule,
                    )
                )
            seen.add(c)
    return out


def apply_setup(state: State, event: GameSetUp) -> None:
    n = len(state.names)
    state.removed = tuple(sorted(event.removed))
    unseen = state.in_play()
    for seat, cards in enumerate(event.start):
        for c in cards:
            state.hands[seat][c] += 1
            unseen[c] -= 1
    state.unseen = unseen
    state.supply = sum(unseen) + 1  # the last-round card among them
    state.last_drawn = False
    state.capacity = row_capacities(n)
    state.rows = [[] for _ in state.capacity]
    state.open = [True] * len(state.rows)
    state.out = [False] * n
    state.first_player = state.current = event.first_player
    state.turn = state.round = 1
    state.awaiting = TURN


# --- a turn: draw, or take a row ---------------------------------------------------------


def _rows_rule(state: State) -> str:
    return "two" if len(state.names) == 2 else "draw"


def check_draw(state: State, event: CardDrawn) -> list[Violation]:
    """A card may be drawn while a row has room (and the supply a card)."""
    if not any(state.room(r) for r in range(len(state.rows))):
        return violation(
            "draw.rows_full",
            f"every row on the table is full: {_name(state)} must take a row",
            "draw_full",
        )
    if state.supply <= 0:
        return violation("draw.no_supply", "the supply has no card left", "supply")
    return []


def apply_draw(state: State, event: CardDrawn) -> None:
    state.awaiting = REVEAL


def _row_problem(state: State, row: int) -> list[Violation] | None:
    """A row that is not on the table (None when it is)."""
    count = len(state.rows)
    if not 0 <= row < count:
        rule = "two" if count == 3 and len(state.names) == 2 else "turn"
        return violation(
            "row.unknown", f"no row {row + 1}: the table has {plural(count, 'row')}", rule
        )
    if not state.open[row]:
        return violation(
            "row.taken",
            f"row {row + 1} was taken this round and is no longer on the table",
            "out",
        )
    return None


def check_take(state: State, event: RowTaken) -> list[Violation]:
    problem = _row_problem(state, event.row)
    if problem is not None:
        return problem
    if not state.rows[event.row]:
        return violation("take.empty", f"row {event.row + 1} has no card to take", "take")
    return []


def apply_take(state: State, event: RowTaken) -> None:
    hand = state.hands[state.current]
    for k in state.rows[event.row]:
        hand[k] += 1
    state.rows[event.row] = []
    state.open[event.row] = False
    state.out[state.current] = True
    if all(state.out):
        end_round(state)
    else:
        next_turn(state)


# --- the card drawn ----------------------------------------------------------------------


def check_reveal(state: State, event: CardRevealed) -> list[Violation]:
    """The card drawn: one the supply still holds, the last-round card exactly when it
    is the next card (15 lie under it)."""
    k = event.card
    above = state.supply - UNDER_LAST - 1  # cards still over the last-round card
    if k == LAST:
        if state.last_drawn:
            return violation("reveal.last_twice", "the last-round card was drawn already", "last")
        if above != 0:
            return violation(
                "reveal.last_early",
                f"the last-round card lies under {UNDER_LAST} cards; the supply holds "
                f"{state.supply - 1} besides it, so {plural(above, 'card')} come before it",
                "supply",
            )
        return []
    if k < len(COLOURS) and k in state.removed:
        return violation(
            "reveal.removed", f"{WORDS[k]} was removed from the box before the game", "setup"
        )
    if not state.unseen[k]:
        return violation(
            "reveal.none_left",
            f"no {WORDS[k]} card is left in the supply: every one is on the table",
            "cards",
        )
    if not state.last_drawn and above == 0:
        return violation(
            "reveal.last_next",
            f"the next card is the last-round card ({UNDER_LAST} cards lie under it), "
            f"not {title(k)}",
            "supply",
        )
    return []


def apply_reveal(state: State, event: CardRevealed) -> None:
    state.supply -= 1
    if event.card == LAST:
        state.last_drawn = True  # set aside; the player draws again (still a reveal)
        return
    state.unseen[event.card] -= 1
    state.drawn = event.card
    state.awaiting = PLACE


def check_place(state: State, event: CardPlaced) -> list[Violation]:
    problem = _row_problem(state, event.row)
    if problem is not None:
        return problem
    if not state.room(event.row):
        cap = state.capacity[event.row]
        return violation(
            "place.full",
            f"row {event.row + 1} is full: it holds {plural(cap, 'card')}",
            _rows_rule(state),
        )
    return []


def apply_place(state: State, event: CardPlaced) -> None:
    assert state.drawn is not None
    state.rows[event.row].append(state.drawn)
    state.drawn = None
    next_turn(state)


# --- turns, rounds and the end -------------------------------------------------------------


def next_turn(state: State) -> None:
    """The next player clockwise who is still in the round."""
    n = len(state.names)
    seat = state.current
    for _ in range(n):
        seat = (seat + 1) % n
        if not state.out[seat]:
            break
    state.current = seat
    state.turn += 1
    state.awaiting = TURN


def end_round(state: State) -> None:
    """Every player has a row: the rows left leave the table (at two players, the
    third row's cards are out of the game); the game ends after the last round, else
    the player who took the last row starts the next."""
    for r, row in enumerate(state.rows):
        for k in row:
            state.discarded[k] += 1
        state.rows[r] = []
    state.open = [False] * len(state.rows)  # no row is on the table between rounds
    if state.last_drawn:
        state.outcome = outcome(state)
        state.awaiting = OVER
        return
    state.open = [True] * len(state.rows)
    state.out = [False] * len(state.names)
    state.round += 1
    state.turn += 1
    state.awaiting = TURN


def scores(state: State) -> list[int]:
    """Each player's best score with the cards they hold."""
    colours = state.colours
    return [best(hand, colours).total for hand in state.hands]


def outcome(state: State) -> Outcome:
    """The most points win; a tie shares the win."""
    totals = scores(state)
    top = max(totals)
    winners = tuple(seat for seat, t in enumerate(totals) if t == top)
    return Outcome(winners, "points" if len(winners) == 1 else "shared")


# --- what is not due -----------------------------------------------------------------------

#: Each decision as a refusal names it.
_NAMES = {
    "card_drawn": "a draw",
    "card_revealed": "a card drawn",
    "card_placed": "a card placed",
    "row_taken": "a row taken",
    "game_set_up": "a setup",
}


def out_of_order(state: State, event: Any) -> list[Violation]:
    from .describe import due

    what = _NAMES.get(event.type, f"a {str(event.type).replace('_', ' ')}")
    rule = {TURN: "turn", REVEAL: "drawn", PLACE: "place"}.get(state.awaiting, "turn")
    if event.type == "card_revealed" and state.last_drawn and state.awaiting == REVEAL:
        rule = "last"
    return violation(
        f"turn.out_of_order.{state.awaiting}", f"{what} is not due: {due(state)}", rule
    )


_Checker = Callable[[State, Any], list[Violation]]
#: What the state awaits -> event type -> the check of an event of that type.
CHECKERS: dict[str, dict[str, _Checker]] = {
    TURN: {"card_drawn": check_draw, "row_taken": check_take},
    REVEAL: {"card_revealed": check_reveal},
    PLACE: {"card_placed": check_place},
    OVER: {},
}

#: Event type -> its effect on the state (the event already checked, or forced).
APPLIERS: dict[str, Callable[[State, Any], None]] = {
    "game_set_up": apply_setup,
    "card_drawn": apply_draw,
    "card_revealed": apply_reveal,
    "card_placed": apply_place,
    "row_taken": apply_take,
}


def check(state: State, event: Event) -> list[Violation]:
    """Every reason why ``event`` may not happen in ``state``; an empty list if it may."""
    t = event.type
    aw = state.awaiting
    if aw == SETUP:
        if t != "game_set_up":
            return violation("turn.not_set_up", "the table is not set up yet", "setup")
        return check_setup(state, event)  # type: ignore[arg-type]
    if state.outcome is not None:
        return violation("turn.game_over", "the game is over", "end")
    checker = CHECKERS[aw].get(t)
    if checker is None:
        return out_of_order(state, event)
    return checker(state, event)


def due(state: State) -> Iterable[str]:
    """The event types that may happen now: only an event of these can be forced."""
    return CHECKERS.get(state.awaiting, {}).keys()


def consistent(state: State) -> bool:
    """Every card accounted for once, none negative: the cards seen and the supply's
    make the game's cards in play, and the supply's count is theirs (the last-round card
    added while it is in it).  A row may hold more cards than its row card says: a card
    laid on a full row stood at the table all the same (forced, ``!illegal``)."""
    if state.supply < 0 or min(state.unseen) < 0 or min(state.discarded) < 0:
        return False
    if any(min(hand) < 0 for hand in state.hands):
        return False
    seen = state.seen()
    in_play = state.in_play()
    if any(seen[k] + state.unseen[k] != in_play[k] for k in range(HELD)):
        return False
    return state.supply == sum(state.unseen) + (0 if state.last_drawn else 1)


# --- the legal decisions -------------------------------------------------------------------


def legal_moves(state: State) -> list[Event]:
    """Every legal next decision (and every card a due draw may show), in the order the
    notation lists them: draw first, then each row taken; each row a card may go to;
    each kind the card drawn may be."""
    aw = state.awaiting
    rows = range(len(state.rows))
    if aw == TURN:
        out: list[Event] = []
        if not check_draw(state, CardDrawn()):
            out.append(CardDrawn())
        out.extend(RowTaken(r) for r in rows if state.open[r] and state.rows[r])
        return out
    if aw == PLACE:
        return [CardPlaced(r) for r in rows if state.room(r)]
    if aw == REVEAL:
        kinds = [*range(HELD), LAST]
        return [CardRevealed(k) for k in kinds if not check_reveal(state, CardRevealed(k))]
    return []
