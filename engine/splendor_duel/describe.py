"""Splendor Duel in words: what is due now, how the game ended, what a step changed,
token counts.

Each fact has one wording here; the notation, the rules' messages, the site and the CLI
all take it from this module (through :class:`engine.protocol.GameRules` above the engine).

>>> from engine.splendor_duel.state import State
>>> due(State(("Ann", "Bob")))
'The table is not set up yet'
>>> tokens_text([2, 1, 0, 0, 0, 0, 1])
'W2 B Y'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import Violation
from ..protocol import Result, Status, phase_of, short_result
from . import rules as _rules
from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, EMPTY, MAX_TOKENS, ROYALS, SPACE_NAMES
from .state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    SETUP,
    STEAL,
    State,
)

#: The victory conditions in words (rulebook p.9, End of the game).
CONDITION_WORDS = {
    "points": "on Prestige points (20 or more)",
    "crowns": "on Crowns (10 or more)",
    "color": "on one colour (10 or more points in it)",
    "resignation": "by resignation",
}

#: The same, short, for listings.
SHORT_CONDITIONS = {
    "points": "on points",
    "crowns": "on crowns",
    "color": "on one colour",
    "resignation": "by resignation",
}


def tokens_text(counts: Sequence[int]) -> str:
    """``W2 B1 Y1`` as ``W2 B Y``: counts by colour letter (empty string when all zero)."""
    return " ".join(
        f"{COLOR_LETTERS[c]}{n}" if n > 1 else COLOR_LETTERS[c] for c, n in enumerate(counts) if n
    )


def card_words(card_id: str) -> str:
    """``2-05 (blue, 2 points, 1 crown)``: a card as the account of a step names it."""
    card = CARDS[card_id]
    kind = (
        "joker"
        if card.is_joker
        else (COLOR_NAMES[card.color] if card.color is not None else "no bonus")
    )
    bits = [kind]
    if card.points:
        bits.append(f"{card.points} point{'s' if card.points != 1 else ''}")
    if card.crowns:
        bits.append(f"{card.crowns} crown{'s' if card.crowns != 1 else ''}")
    bits.extend(card.abilities)
    return f"{card_id} ({', '.join(bits)})"


def payment_words(payment: Sequence[int]) -> str:
    """A payment as a player says it: ``W2 B and 1 Gold``, ``2 Gold``, ``nothing``.

    >>> payment_words([2, 1, 0, 0, 0, 0, 1]), payment_words([0] * 7)
    ('W2 B and 1 Gold', 'nothing')
    """
    gems = tokens_text([*payment[:6], 0])
    gold = payment[6] if len(payment) > 6 else 0
    gold_text = f"{gold} Gold" if gold else ""
    if gems and gold_text:
        return f"{gems} and {gold_text}"
    return gems or gold_text or "nothing"


def result(state: State) -> Result | None:
    """How the game ended, in words, or None while it goes on."""
    o = state.outcome
    if o is None:
        return None
    names = state.names
    winner = names[o.winner]
    if o.condition == "resignation":
        text = f"{winner} won: {names[1 - o.winner]} resigned"
    elif o.condition == "color" and o.color is not None:
        text = f"{winner} won on {COLOR_NAMES[o.color]} (10 or more points in one colour)"
    else:
        text = f"{winner} won {CONDITION_WORDS.get(o.condition, o.condition)}"
    return Result(
        (o.winner,), o.condition, text, short_result(winner, o.condition, SHORT_CONDITIONS)
    )


def due(state: State) -> str:
    """Whose decision is due and what it is, in words."""
    aw = state.awaiting
    names = state.names
    name = names[state.current]
    p = state.player
    if aw == SETUP:
        return "The table is not set up yet"
    if aw == OVER:
        r = result(state)
        return r.text if r is not None else "The game is over"
    if aw == ACTION:
        if state.replenished:
            return f"{name} to play the mandatory action (the board was replenished this turn)"
        return f"{name} to play: optional actions (Privilege, Replenish), then the mandatory action"
    if aw == COLOR:
        return f"{name} chooses the colour that joker {state.last_card} copies"
    if aw == BONUS_TOKEN:
        card = CARDS[state.last_card or ""]
        color = COLOR_NAMES[card.color] if card.color is not None else "matching"
        return f"{name} takes a {color} token from the board ({card.id}'s ability)"
    if aw == STEAL:
        return f"{name} takes a Gem or Pearl token from {names[1 - state.current]}"
    if aw == ROYAL:
        return f"{name} has {p.crowns} crowns and picks a Royal card"
    if aw == DISCARD:
        return f"{name} holds {p.token_count} tokens and discards down to {MAX_TOKENS}"
    if aw == REVEAL:
        level = (state.refill or (0, 0))[0] + 1
        return f"A level-{level} card is revealed into the empty pyramid slot"
    return aw


def progress(state: State) -> tuple[str, int]:
    """The phase and turn of :func:`status`, without its words."""
    return phase_of(state.awaiting), state.turn


def status(state: State) -> Status:
    """Where the game stands (see :class:`engine.protocol.Status`)."""
    phase = phase_of(state.awaiting)
    to_move = state.current if phase == "playing" else None
    return Status(phase, state.turn, to_move, due(state), result(state))


# --- what a step changed ---------------------------------------------------------------


def _delta_text(before: Sequence[int], after: Sequence[int]) -> str:
    """``+1 white, -2 red``: the change of counts by colour."""
    parts = []
    for c in range(min(len(before), len(after))):
        d = after[c] - before[c]
        if d:
            parts.append(f"{d:+d} {COLOR_NAMES[c]}")
    return ", ".join(parts)


def privilege_gain(state: State, seat: int) -> str:
    """What taking a Privilege does for ``seat`` in ``state`` (rulebook p.4, Important):
    from the table, else from the other player, else nothing.

    >>> s = State(("Ann", "Bob"))
    >>> s.table_privileges, s.players[1].privileges = 0, 3
    >>> privilege_gain(s, 1)
    'Bob already holds all 3 Privileges: nothing happens'
    """
    name = state.names[seat]
    if state.table_privileges:
        return f"{name} takes a Privilege from the table"
    other = state.names[1 - seat]
    if state.players[1 - seat].privileges:
        return f"{name} takes a Privilege from {other} (none is left on the table)"
    return f"{name} already holds all {state.players[seat].privileges} Privileges: nothing happens"


def replenish_changes(state: State) -> list[str]:
    """What replenishing the board in ``state`` changes, before the draw is known."""
    return [
        f"the {sum(state.bag)} tokens in the bag ({tokens_text(state.bag)}) go onto the "
        "empty spaces in spiral order, from c3",
        privilege_gain(state, 1 - state.current),
    ]


def changes(before: State, after: State) -> list[str]:
    """What differs between two states, one short sentence each (for "what does this
    move change?"), naming the seats from ``after.names``."""
    names = after.names
    out: list[str] = []
    taken = [s for s in range(25) if before.board[s] != EMPTY and after.board[s] == EMPTY]
    placed = [s for s in range(25) if before.board[s] == EMPTY and after.board[s] != EMPTY]
    if taken:
        out.append(
            "off the board: "
            + ", ".join(f"{SPACE_NAMES[s]} ({COLOR_NAMES[before.board[s]]})" for s in taken)
        )
    if placed:
        out.append(
            "onto the board: "
            + ", ".join(f"{SPACE_NAMES[s]} ({COLOR_NAMES[after.board[s]]})" for s in placed)
        )
    if before.bag != after.bag:
        out.append(f"bag: {_delta_text(before.bag, after.bag)} (now {sum(after.bag)})")
    for seat in range(len(after.players)):
        out.extend(_player_changes(before, after, seat, names[seat]))
    if before.table_privileges != after.table_privileges:
        out.append(f"Privileges on the table: {before.table_privileges} → {after.table_privileges}")
    out.extend(_pyramid_changes(before, after))
    if before.decks != after.decks:
        out.append("decks: " + "/".join(str(n) for n in after.decks) + " cards left")
    r = result(after)
    if r is not None and before.outcome is None:
        out.append(f"game over: {r.text}")
    elif (after.awaiting, after.turn, after.current) != (
        before.awaiting,
        before.turn,
        before.current,
    ):
        out.append("next: " + due(after))
    return out


def _player_changes(before: State, after: State, seat: int, name: str) -> list[str]:
    out: list[str] = []
    pb, pa = before.players[seat], after.players[seat]
    if pb.tokens != pa.tokens:
        out.append(f"{name}'s tokens: {_delta_text(pb.tokens, pa.tokens)} (now {sum(pa.tokens)})")
    owned = {cid for cid, _ in pb.cards}
    for cid, color in pa.cards:
        if cid in owned:
            continue
        how = f" as {COLOR_NAMES[color]}" if color is not None and CARDS[cid].is_joker else ""
        out.append(f"{name} gains {cid}{how} ({CARDS[cid].describe()})")
    if pb.cards != pa.cards and len(pa.cards) == len(pb.cards):
        for (cid, cb), (_, ca) in zip(pb.cards, pa.cards, strict=True):
            if cb != ca and ca is not None:
                out.append(f"{name}'s {cid} copies {COLOR_NAMES[ca]}")
    if pb.reserved != pa.reserved:
        gone = [r for r in pb.reserved if r not in pa.reserved]
        new = [r for r in pa.reserved if r not in pb.reserved]
        for lv, rid in new:
            if rid is None:
                out.append(f"{name} reserves a level-{lv} card blind")
            elif (lv, None) in gone:
                out.append(f"{name}'s blind reserve is {rid}")
            else:
                out.append(f"{name} reserves {rid}")
        for _, rid in gone:
            if rid is not None and not any(c == rid for c, _ in pa.cards):
                out.append(f"{name} no longer holds reserved {rid}")
    if pb.privileges != pa.privileges:
        out.append(f"{name}'s Privileges: {pb.privileges} → {pa.privileges}")
    for rid in pa.royals:
        if rid not in pb.royals:
            out.append(f"{name} takes Royal card {rid} ({ROYALS[rid].points} points)")
    if pb.points != pa.points:
        out.append(f"{name}'s Prestige points: {pb.points} → {pa.points}")
    if pb.crowns != pa.crowns:
        out.append(f"{name}'s Crowns: {pb.crowns} → {pa.crowns}")
    return out


def _pyramid_changes(before: State, after: State) -> list[str]:
    out: list[str] = []
    for level in range(3):
        rb = before.pyramid[level]
        ra = after.pyramid[level]
        for slot in range(max(len(rb), len(ra))):
            was = rb[slot] if slot < len(rb) else None
            now = ra[slot] if slot < len(ra) else None
            if was == now:
                continue
            if now is None:
                refill = (
                    "refilled at the end of the turn"
                    if after.decks[level]
                    else f"not refilled: the level-{level + 1} deck is empty"
                )
                out.append(f"pyramid level {level + 1}: {was} leaves its slot ({refill})")
            else:
                out.append(f"pyramid level {level + 1}: {now} revealed")
    return out


# --- a decision in a few words ---------------------------------------------------------


def decision_label(state: State, event: Any) -> str:
    """A decision of the player to move in ``state`` (or an observation), in a few words,
    for a button that confirms it: ``Take white, white, blue (c2 c3 c4)``, ``Buy 2-05
    (blue, 2 points, 1 crown) paying W2 B and 1 Gold``.  The event is one that
    ``legal_moves`` (or the table) may give here."""
    t = event.type
    names = state.names
    board = state.board
    if t == "tokens_taken":
        colors = ", ".join(COLOR_NAMES[board[s]] for s in event.spaces)
        return f"Take {colors} ({' '.join(SPACE_NAMES[s] for s in event.spaces)})"
    if t == "privilege_spent":
        return (
            f"Spend a Privilege for the {COLOR_NAMES[board[event.space]]} token on "
            f"{SPACE_NAMES[event.space]}"
        )
    if t == "board_replenished":
        n = sum(state.bag)
        gain = privilege_gain(state, 1 - state.current)
        return f"Replenish the board with the {n} token{'s' if n != 1 else ''} in the bag ({gain})"
    if t == "card_reserved":
        gold = SPACE_NAMES[event.gold]
        if event.deck is None:
            return f"Reserve {card_words(event.card)} with the Gold on {gold}"
        known = f" ({event.card})" if event.card is not None else ""
        return f"Reserve the top level-{event.deck} card{known} blind with the Gold on {gold}"
    if t == "card_purchased":
        return f"Buy {card_words(event.card)} paying {payment_words(event.payment)}"
    if t == "color_copied":
        return f"Joker {state.last_card} copies {COLOR_NAMES[event.color]}"
    if t == "bonus_token_taken":
        return (
            f"Take the {COLOR_NAMES[board[event.space]]} token on {SPACE_NAMES[event.space]}"
            f" ({state.last_card}'s ability)"
        )
    if t == "token_stolen":
        return f"Take a {COLOR_NAMES[event.color]} token from {names[1 - state.current]}"
    if t == "royal_taken":
        royal = ROYALS[event.royal]
        extra = f", {royal.ability}" if royal.ability else ""
        return f"Take Royal card {royal.id} ({royal.points} points{extra})"
    if t == "tokens_discarded":
        return f"Put {tokens_text(event.tokens)} back in the bag (down to {MAX_TOKENS} tokens)"
    if t == "card_revealed":
        return f"{card_words(event.card)} is revealed"
    if t == "card_identified":
        return f"{names[event.player]}'s blind reserve is {card_words(event.card)}"
    if t == "player_resigned":
        return f"{names[event.player]} resigns"
    return str(t)


def result_problem(headers: Mapping[str, Any], state: State) -> tuple[str, str, Violation] | None:
    """Whether the ``Result`` (``1-0``, ``0-1``) and ``Victory`` headers agree with how
    the moves end: None, or ``(header, message, violation)`` naming the header (``result``
    or ``Victory``) that does not.  The notation reader and a JSON import both ask here."""
    result = headers.get("result")
    o = state.outcome
    if result in ("1-0", "0-1"):
        winner = 0 if result == "1-0" else 1
        if o is None or o.winner != winner:
            if o is None:
                actual = f"the moves end on turn {state.turn} with the game still going"
            else:
                actual = f"{state.names[o.winner]} won by {o.condition}"
            return (
                "result",
                f"the Result header says {result} ({state.names[winner]} won)",
                Violation("result.mismatch", actual, _rules.VICTORY),
            )
    tags = headers.get("tags")
    victory = tags.get("Victory") if isinstance(tags, Mapping) else None
    if isinstance(victory, str) and o is not None:
        expected = o.condition if o.color is None else f"color {COLOR_NAMES[o.color]}"
        said = " ".join(victory.lower().replace("colour", "color").split())
        if said not in (expected, o.condition):
            return (
                "Victory",
                f"the Victory header says {victory!r}, but the game was won by {expected}",
                Violation("result.mismatch", f"won by {expected}", _rules.VICTORY),
            )
    return None
