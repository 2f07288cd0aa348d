"""What the replay shows of a Splendor Duel state: plain dicts and lists (no HTML) that the
site's board templates draw and its JSON API returns.  Nothing here holds a rule; it only
reads states and events.  The words for what is due and how the game ended come from
:mod:`.describe`.

>>> from engine.splendor_duel.state import State
>>> v = view(State(("Ann", "Bob")))
>>> len(v["board"]), v["bag_total"], v["awaiting"], v["players"][0]["name"]
(25, 0, 'setup', 'Ann')
"""

from __future__ import annotations

import functools
from typing import Any

from . import catalogue as cat
from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, EMPTY, ROYALS
from .describe import card_words, due, result, tokens_text
from .state import OVER, SETUP, State

#: Short labels and symbols for the card abilities (rulebook p.8).
ABILITY_LABELS = {
    "again": ("\u27f3", "Play again: take another turn"),
    "wild": ("\u2726", "Joker: copies the colour of one of your bonuses"),
    "token": ("+\u25cf", "Take a token of this card's colour from the board"),
    "privilege": ("+P", "Take a Privilege"),
    "steal": ("\u21e0", "Take a Gem or Pearl token from your opponent"),
}

#: The order of a player's card stacks: the five gem colours, jokers, cards without bonus.
STACK_ORDER = (*COLOR_NAMES[:5], "joker", "none")


# --- cards -----------------------------------------------------------------------------


def card_view(card_id: str, copied: int | None = None) -> dict[str, Any]:
    """One Jewel card as drawn: bonus colour and count, points, crowns, abilities, cost.
    A fresh dict each time (callers add their own keys); what it holds is shared."""
    return dict(_card_view(card_id, copied))


@functools.cache
def _card_view(card_id: str, copied: int | None) -> dict[str, Any]:
    card = CARDS[card_id]
    if card.is_joker:
        color = COLOR_NAMES[copied] if copied is not None else "joker"
    elif card.color is not None:
        color = COLOR_NAMES[card.color]
    else:
        color = "none"
    return {
        "id": card.id,
        "level": card.level,
        "color": color,
        "joker": card.is_joker,
        "bonus": card.bonus,
        "points": card.points,
        "crowns": card.crowns,
        "abilities": [
            {"name": a, "symbol": ABILITY_LABELS[a][0], "title": ABILITY_LABELS[a][1]}
            for a in card.abilities
        ],
        "cost": [
            {"color": COLOR_NAMES[c], "letter": COLOR_LETTERS[c], "n": n}
            for c, n in enumerate(card.cost)
            if n
        ],
        "title": card.describe(),
    }


def royal_view(royal_id: str) -> dict[str, Any]:
    """One Royal card as drawn: its points and ability."""
    royal = ROYALS[royal_id]
    ability = royal.ability
    return {
        "id": royal.id,
        "points": royal.points,
        "ability": None
        if ability is None
        else {
            "name": ability,
            "symbol": ABILITY_LABELS[ability][0],
            "title": ABILITY_LABELS[ability][1],
        },
    }


# --- the table -------------------------------------------------------------------------


def view(state: State, before: State | None = None) -> dict[str, Any]:
    """Everything the replay draws for one state; ``before`` (the state before the step)
    marks what the step changed (see :func:`marks`).  ``players`` holds one panel per
    seat, each with the seat's ``seat``, ``name``, ``to_move`` and ``winner``."""
    ch = Marks() if before is None else marks(before, state)
    board = []
    for index in range(25):
        token = state.board[index]
        board.append(
            {
                "name": cat.SPACE_NAMES[index],
                "token": None if token == EMPTY else COLOR_LETTERS[token],
                "color": None if token == EMPTY else COLOR_NAMES[token],
                "spiral": cat.SPIRAL_ORDER[index],
                "taken": index in ch.board_taken,
                "taken_color": COLOR_NAMES[ch.board_taken[index]]
                if index in ch.board_taken
                else None,
                "taken_letter": COLOR_LETTERS[ch.board_taken[index]]
                if index in ch.board_taken
                else None,
                "placed": index in ch.board_placed,
            }
        )
    pyramid = []
    for level in (3, 2, 1):
        row = state.pyramid[level - 1] or [None] * cat.PYRAMID_SIZES[level - 1]
        slots = []
        for slot, cid in enumerate(row):
            slots.append(
                {
                    "card": None if cid is None else card_view(cid),
                    "revealed": (level - 1, slot) in ch.pyramid_revealed,
                    "emptied": (level - 1, slot) in ch.pyramid_emptied,
                }
            )
        pyramid.append({"level": level, "slots": slots, "deck": state.decks[level - 1]})
    return {
        "board": board,
        "bag": [
            {"letter": COLOR_LETTERS[c], "color": COLOR_NAMES[c], "n": n}
            for c, n in enumerate(state.bag)
            if n
        ],
        "bag_total": sum(state.bag),
        "table_privileges": state.table_privileges,
        "privileges_changed": ch.table_privileges != 0,
        "pyramid": pyramid,
        "royals": [royal_view(r) for r in state.royals],
        "players": [player_view(state, seat, ch) for seat in range(len(state.players))],
        "awaiting": state.awaiting,
        "current": state.current if state.awaiting not in (SETUP, OVER) else None,
        "turn": state.turn,
        "outcome": _outcome(state),
    }


def player_view(state: State, seat: int, ch: Marks) -> dict[str, Any]:
    """One player's holdings as drawn in their panel."""
    p = state.players[seat]
    delta = ch.tokens[seat]
    tokens = [
        {"letter": COLOR_LETTERS[c], "color": COLOR_NAMES[c], "n": p.tokens[c], "delta": delta[c]}
        for c in range(7)
    ]
    groups: dict[str, list[dict[str, Any]]] = {}
    for i, (cid, copied) in enumerate(p.cards):
        card = card_view(cid, copied)
        card["new"] = i in ch.cards_added[seat]
        groups.setdefault(card["color"], []).append(card)
    card_groups = [
        {"color": color, "cards": groups[color], "points": sum(c["points"] for c in groups[color])}
        for color in STACK_ORDER
        if color in groups
    ]
    reserved = []
    for i, (level, reserved_id) in enumerate(p.reserved):
        reserved.append(
            {
                "level": level,
                "card": None if reserved_id is None else card_view(reserved_id),
                "new": i in ch.reserved_added[seat],
            }
        )
    return {
        "seat": seat,
        "name": state.names[seat],
        "to_move": state.current == seat and state.awaiting not in (SETUP, OVER),
        "winner": state.outcome is not None and state.outcome.winner == seat,
        "tokens": tokens,
        "token_count": p.token_count,
        "bonuses": [
            {"letter": COLOR_LETTERS[c], "color": COLOR_NAMES[c], "n": p.bonuses[c]}
            for c in range(5)
        ],
        "color_points": [
            {"letter": COLOR_LETTERS[c], "color": COLOR_NAMES[c], "n": p.color_points[c]}
            for c in range(5)
        ],
        "points": p.points,
        "crowns": p.crowns,
        "privileges": p.privileges,
        "privileges_changed": ch.privileges[seat] != 0,
        "royals": [dict(royal_view(r), new=r in ch.royals_added[seat]) for r in p.royals],
        "card_groups": card_groups,
        "card_count": len(p.cards),
        "reserved": reserved,
        "targets": {
            "points": cat.VICTORY_POINTS,
            "crowns": cat.VICTORY_CROWNS,
            "color": cat.VICTORY_COLOR_POINTS,
        },
    }


# --- what a step changed ---------------------------------------------------------------


class Marks:
    """The differences between the states before and after one event, as the replay
    marks them (a ghost token where one left, a new card, a changed count)."""

    __slots__ = (
        "board_taken",
        "board_placed",
        "tokens",
        "privileges",
        "table_privileges",
        "pyramid_emptied",
        "pyramid_revealed",
        "cards_added",
        "reserved_added",
        "royals_added",
        "bag",
    )

    def __init__(self) -> None:
        #: Spaces emptied by the step, with the colour of the token that left.
        self.board_taken: dict[int, int] = {}
        self.board_placed: set[int] = set()
        self.tokens = [[0] * 7, [0] * 7]
        self.privileges = [0, 0]
        self.table_privileges = 0
        self.pyramid_emptied: set[tuple[int, int]] = set()
        self.pyramid_revealed: set[tuple[int, int]] = set()
        self.cards_added: list[set[int]] = [set(), set()]
        self.reserved_added: list[set[int]] = [set(), set()]
        self.royals_added: list[set[str]] = [set(), set()]
        self.bag = [0] * 7


def marks(before: State, after: State) -> Marks:
    """Compare two consecutive states: tokens moved, cards bought, reserved or revealed,
    Privileges passed, Royal cards taken."""
    ch = Marks()
    for s in range(25):
        b, a = before.board[s], after.board[s]
        if b != a:
            if a == EMPTY:
                ch.board_taken[s] = b
            else:
                ch.board_placed.add(s)
    for seat in (0, 1):
        pb, pa = before.players[seat], after.players[seat]
        ch.tokens[seat] = [pa.tokens[c] - pb.tokens[c] for c in range(7)]
        ch.privileges[seat] = pa.privileges - pb.privileges
        old_cards = pb.cards
        for i, card in enumerate(pa.cards):
            if i >= len(old_cards) or old_cards[i] != card:
                ch.cards_added[seat].add(i)
        old_reserved = pb.reserved
        for i, res in enumerate(pa.reserved):
            if res not in old_reserved:
                ch.reserved_added[seat].add(i)
        ch.royals_added[seat] = set(pa.royals) - set(pb.royals)
    ch.table_privileges = after.table_privileges - before.table_privileges
    for level in range(3):
        rb, ra = before.pyramid[level], after.pyramid[level]
        for slot in range(max(len(rb), len(ra))):
            cb = rb[slot] if slot < len(rb) else None
            ca = ra[slot] if slot < len(ra) else None
            if cb != ca:
                if ca is None:
                    ch.pyramid_emptied.add((level, slot))
                else:
                    ch.pyramid_revealed.add((level, slot))
    ch.bag = [after.bag[c] - before.bag[c] for c in range(7)]
    return ch


def event_lines(before: State, event: Any, after: State) -> list[str]:
    """What ``event`` did (played in ``before``, giving ``after``), in a few short
    sentences: the replay's account of a step."""
    names = after.names
    t = event.type
    actor = names[before.current]
    opp = names[1 - before.current]
    lines: list[str] = []
    if t == "game_set_up":
        second = names[1 - event.first_player]
        lines.append(
            f"The table is set up: {names[event.first_player]} plays first, "
            f"{second} starts with a Privilege."
        )
    elif t == "tokens_taken":
        taken = ", ".join(
            f"{COLOR_NAMES[before.board[s]]} on {cat.SPACE_NAMES[s]}" for s in event.spaces
        )
        lines.append(f"{actor} took {taken}.")
    elif t == "privilege_spent":
        lines.append(
            f"{actor} spent a Privilege for the "
            f"{COLOR_NAMES[before.board[event.space]]} token on "
            f"{cat.SPACE_NAMES[event.space]}."
        )
    elif t == "board_replenished":
        n = sum(before.bag)
        lines.append(
            f"{actor} replenished the board with the {n} token{'s' if n != 1 else ''} from the bag."
        )
    elif t == "card_reserved":
        where = cat.SPACE_NAMES[event.gold]
        if event.deck is None:
            what = card_words(event.card)
        elif event.card is None:
            what = f"an unknown level-{event.deck} card from the deck"
        else:
            what = f"{card_words(event.card)} from the level-{event.deck} deck"
        lines.append(f"{actor} took the Gold on {where} and reserved {what}.")
    elif t == "card_purchased":
        paid = tokens_text(event.payment) or "nothing"
        lines.append(f"{actor} bought {card_words(event.card)}, paying {paid}.")
    elif t == "color_copied":
        lines.append(f"Joker {before.last_card} copies {COLOR_NAMES[event.color]}.")
    elif t == "bonus_token_taken":
        lines.append(
            f"{actor} took the {COLOR_NAMES[before.board[event.space]]} token on "
            f"{cat.SPACE_NAMES[event.space]} (card ability)."
        )
    elif t == "token_stolen":
        lines.append(f"{actor} took a {COLOR_NAMES[event.color]} token from {opp}.")
    elif t == "royal_taken":
        royal = ROYALS[event.royal]
        extra = f", {royal.ability}" if royal.ability else ""
        lines.append(f"{actor} took Royal card {royal.id} ({royal.points} points{extra}).")
    elif t == "tokens_discarded":
        lines.append(f"{actor} returned {tokens_text(event.tokens)} to the bag.")
    elif t == "card_revealed":
        lines.append(f"{card_words(event.card)} was revealed into the pyramid.")
    elif t == "card_identified":
        lines.append(f"{names[event.player]}'s blind reserve is {card_words(event.card)}.")
    elif t == "player_resigned":
        lines.append(f"{names[event.player]} resigned.")
    table_delta = after.table_privileges - before.table_privileges
    for seat in (0, 1):
        d = after.players[seat].privileges - before.players[seat].privileges
        if d > 0 and t != "game_set_up":
            src = "from the table" if table_delta < 0 else f"from {names[1 - seat]}"
            lines.append(f"{names[seat]} gained {d} Privilege{'s' if d > 1 else ''} {src}.")
    if t != "player_resigned" and before.outcome is None:
        ended = result(after)
        if ended is not None:
            lines.append(ended.text + ".")
    return lines


def _outcome(state: State) -> dict[str, Any] | None:
    o = state.outcome
    if o is None:
        return None
    color = None if o.color is None else COLOR_NAMES[o.color]
    return {"winner": o.winner, "condition": o.condition, "color": color}


# --- the state as JSON -----------------------------------------------------------------


def state_json(state: State) -> dict[str, Any]:
    """The state as plain JSON (the state API): board by space name, bag, pyramid, decks,
    royals, privileges, players, awaiting and outcome."""
    names = state.names
    players = []
    for seat, p in enumerate(state.players):
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "tokens": {COLOR_NAMES[c]: p.tokens[c] for c in range(7)},
                "bonuses": {COLOR_NAMES[c]: p.bonuses[c] for c in range(5)},
                "color_points": {COLOR_NAMES[c]: p.color_points[c] for c in range(5)},
                "points": p.points,
                "crowns": p.crowns,
                "privileges": p.privileges,
                "cards": [
                    {"card": cid, "color": None if col is None else COLOR_NAMES[col]}
                    for cid, col in p.cards
                ],
                "reserved": [{"level": lv, "card": cid} for lv, cid in p.reserved],
                "royals": list(p.royals),
            }
        )
    return {
        "board": {
            cat.SPACE_NAMES[s]: (None if t == EMPTY else COLOR_NAMES[t])
            for s, t in enumerate(state.board)
        },
        "bag": {COLOR_NAMES[c]: state.bag[c] for c in range(7)},
        "pyramid": {str(level + 1): list(state.pyramid[level]) for level in range(3)},
        "decks": {str(level + 1): state.decks[level] for level in range(3)},
        "royals": list(state.royals),
        "privileges": {
            "table": state.table_privileges,
            "players": [p.privileges for p in state.players],
        },
        "players": players,
        "turn": state.turn,
        "current": state.current,
        "awaiting": state.awaiting,
        "awaiting_text": due(state),
        "outcome": _outcome(state),
    }
