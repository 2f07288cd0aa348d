"""Plain data for the replay page and the state API, and the table as text.

>>> from engine.splendor.state import State
>>> v = view(State(["Ann", "Bob"]))
>>> [p["name"] for p in v["players"]], v["bank"][0]
(['Ann', 'Bob'], {'color': 'white', 'letter': 'W', 'n': 4, 'delta': 0})
"""

from __future__ import annotations

import textwrap
from typing import Any

from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, END_POINTS, NOBLES
from .describe import changes, counts_text, due, game_result
from .events import (
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    Event,
    NobleVisited,
    TokensReturned,
    TokensTaken,
    TurnPassed,
)
from .notation.decisions import move_text
from .rules.facts import plural
from .state import ACTION, NOBLE, RETURN, REVEAL, SETUP, State


def _card(cid: str, new: bool = False) -> dict[str, Any]:
    c = CARDS[cid]
    return {
        "id": cid,
        "level": c.level,
        "color": COLOR_NAMES[c.color],
        "letter": COLOR_LETTERS[c.color],
        "points": c.points,
        "cost": [{"color": COLOR_NAMES[i], "n": n} for i, n in enumerate(c.cost) if n],
        "title": c.describe(),
        "new": new,
    }


def _noble(nid: str, new: bool = False) -> dict[str, Any]:
    n = NOBLES[nid]
    return {
        "id": nid,
        "points": n.points,
        "requires": [{"color": COLOR_NAMES[i], "n": k} for i, k in enumerate(n.requires) if k],
        "title": n.describe(),
        "new": new,
    }


def card_view(card_id: str) -> dict[str, Any]:
    """One development card or noble as the view draws it (KeyError: no such id).

    >>> card_view("N-01")["requires"][0]["n"], card_view("1-01")["level"]
    (3, 1)
    """
    return _noble(card_id) if card_id in NOBLES else _card(card_id)


def _counts(now: list[int], before: list[int] | None) -> list[dict[str, Any]]:
    return [
        {
            "color": COLOR_NAMES[c],
            "letter": COLOR_LETTERS[c],
            "n": n,
            "delta": 0 if before is None else n - before[c],
        }
        for c, n in enumerate(now)
    ]


def view(state: State, before: State | None = None) -> dict[str, Any]:
    """What the replay draws of ``state``; ``before`` marks what the step changed: token
    counts (``delta``), a card or noble that arrived (``new``), a display space refilled
    (``revealed``) or emptied (``emptied``)."""
    result = game_result(state)
    winners = set(result.winners) if result is not None else set()
    playing = state.awaiting in (ACTION, RETURN, NOBLE, REVEAL)
    prior = before if before is not None and before.awaiting != SETUP else None
    players = []
    for seat, p in enumerate(state.players):
        old = prior.players[seat] if prior is not None else None
        had_cards = set(old.cards) if old is not None else set(p.cards)
        had_reserved = set(old.reserved) if old is not None else set(p.reserved)
        had_nobles = set(old.nobles) if old is not None else set(p.nobles)
        groups = []
        for c in range(5):
            cards = [_card(cid, cid not in had_cards) for cid in p.cards if CARDS[cid].color == c]
            if cards:
                groups.append(
                    {
                        "color": COLOR_NAMES[c],
                        "cards": cards,
                        "points": sum(x["points"] for x in cards),
                    }
                )
        players.append(
            {
                "seat": seat,
                "name": state.names[seat],
                "to_move": playing and state.current == seat and state.outcome is None,
                "winner": seat in winners,
                "points": p.points,
                "target": END_POINTS,
                "tokens": _counts(p.tokens, None if old is None else old.tokens),
                "token_count": p.token_count,
                "bonuses": _counts(p.bonuses, None if old is None else old.bonuses),
                "cards": len(p.cards),
                "card_groups": groups,
                "reserved": [
                    {
                        "level": lv,
                        "card": None if cid is None else _card(cid),
                        "new": (lv, cid) not in had_reserved,
                    }
                    for lv, cid in p.reserved
                ],
                "nobles": [_noble(n, n not in had_nobles) for n in p.nobles],
            }
        )
    rows = []
    for lv in (2, 1, 0):
        slots = []
        for slot, cid in enumerate(state.display[lv]):
            was = None
            if prior is not None and slot < len(prior.display[lv]):
                was = prior.display[lv][slot]
            slots.append(
                {
                    "card": None if cid is None else _card(cid),
                    "revealed": prior is not None and cid is not None and was != cid,
                    "emptied": prior is not None and cid is None and was is not None,
                }
            )
        rows.append({"level": lv + 1, "deck": state.decks[lv], "slots": slots})
    return {
        "due": due(state),
        "result": None if result is None else result.text,
        "changes": [] if before is None else changes(before, state),
        "bank": _counts(state.bank, None if prior is None else prior.bank),
        "display": rows,
        "nobles": [_noble(n) for n in state.nobles],
        "players": players,
    }


def state_json(state: State) -> dict[str, Any]:
    """``state`` as plain JSON values for the state API."""
    return {
        "awaiting": state.awaiting,
        "turn": state.turn,
        "current": state.current,
        "first_player": state.first_player,
        "bank": dict(zip(COLOR_NAMES, state.bank, strict=True)),
        "decks": list(state.decks),
        "display": {str(lv + 1): list(row) for lv, row in enumerate(state.display)},
        "nobles": list(state.nobles),
        "players": [
            {
                "name": state.names[i],
                "tokens": dict(zip(COLOR_NAMES, p.tokens, strict=True)),
                "bonuses": dict(zip(COLOR_NAMES, p.bonuses, strict=False)),
                "points": p.points,
                "cards": list(p.cards),
                "reserved": [cid for _, cid in p.reserved],
                "nobles": list(p.nobles),
            }
            for i, p in enumerate(state.players)
        ],
        "due": due(state),
    }


def _card_line(card_id: str) -> str:
    """``1-06: white, 0 points, cost B1 G1 R1 K1``."""
    card = CARDS[card_id]
    points = plural(card.points, "point")
    return f"{card_id}: {COLOR_NAMES[card.color]}, {points}, cost {counts_text(card.cost)}"


def card_words(card_id: str) -> str:
    """A card as a sentence names it: ``1-06 (white, 0 points)``."""
    card = CARDS[card_id]
    return f"{card_id} ({COLOR_NAMES[card.color]}, {plural(card.points, 'point')})"


def _names(colors: list[str]) -> str:
    """``white``, ``white and blue``, ``white, blue and green``."""
    return colors[0] if len(colors) == 1 else ", ".join(colors[:-1]) + " and " + colors[-1]


def _taken(colors: tuple[int, ...]) -> str:
    if len(colors) == 2 and colors[0] == colors[1]:
        return f"2 {COLOR_NAMES[colors[0]]}"
    return _names([COLOR_NAMES[c] for c in colors])


def event_lines(before: State, event: Event, after: State) -> list[str]:
    """What ``event`` did (played in ``before``, giving ``after``), in a few short
    sentences: the replay's account of a step.

    >>> from .events import CardPurchased
    >>> from .state import State
    >>> state = State(["Ann", "Bob"])
    >>> event_lines(state, CardPurchased("1-06", (0, 2, 1, 0, 0, 0)), state)
    ['Ann bought 1-06 (white, 0 points), paying B2 G1.']
    """
    if event.type == "game_set_up":
        return [f"The table is set up; {after.names[after.first_player]} plays first."]
    actor = before.names[before.current]
    match event:
        case CardRevealed(card=card):
            level = CARDS[card].level
            lines = [f"{card_words(card)} is turned face up to refill the level {level} display."]
        case CardIdentified(player=player, card=card):
            lines = [f"{before.names[player]}'s blind reserve is shown: {card_words(card)}."]
        case TokensTaken(colors=colors):
            lines = [f"{actor} took {_taken(colors)}."]
        case CardReserved(gold=gold, card=card, deck=deck):
            if deck is None:
                what = card_words(card or "")
            elif card is None:
                what = f"the top level-{deck} card blind"
            else:
                what = f"the top level-{deck} card blind: {card_words(card)}"
            lines = [f"{actor} reserved {what}" + (" and took a Gold." if gold else ".")]
        case CardPurchased(card=card, payment=payment):
            paid = counts_text(payment) if any(payment) else "nothing (the bonuses cover it)"
            lines = [f"{actor} bought {card_words(card)}, paying {paid}."]
        case TokensReturned(tokens=tokens):
            lines = [f"{actor} returned {counts_text(tokens)} to the bank (down to 10 tokens)."]
        case NobleVisited(noble=noble):
            points = NOBLES[noble].points
            lines = [f"Noble {noble} visits {actor} ({points} points)."]
        case TurnPassed():
            lines = [f"{actor} passed: no action was possible."]
        case _:
            lines = [f"{actor}: {move_text(event)}."]
    if after.outcome is not None and before.outcome is None:
        result = game_result(after)
        assert result is not None
        lines.append(result.text + ".")
    return lines


def text_view(state: State, compact: bool = False) -> str:
    """The table as text for a terminal: the bank, the nobles and the face-up cards as
    printed (a player at the table reads the cards, not their ids), then the players.
    ``compact``: in at most 19 lines of at most 80 characters (a noble by its id and what
    it requires, a player on one line, what is due left to the caller), for a terminal
    where the table and the prompt must fit one screen."""
    if compact:
        return _compact_text_view(state)
    lines = [f"bank {counts_text(state.bank)}"]
    lines.append("nobles " + (" ".join(state.nobles) or "none"))
    for nid in state.nobles:
        noble = NOBLES[nid]
        lines.append(f"  {nid}: {noble.points} points, requires {counts_text(noble.requires)}")
    for lv in (2, 1, 0):
        left = state.decks[lv]
        lines.append(f"level {lv + 1} ({left} left in the deck)")
        for cid in state.display[lv]:
            lines.append(f"  {_card_line(cid)}" if cid else "  ---- (empty)")
    for seat, p in enumerate(state.players):
        mark = "*" if seat == state.current and state.outcome is None else " "
        reserved = " ".join(cid or f"L{lv}?" for lv, cid in p.reserved) or "-"
        lines.append(
            f"{mark}{state.names[seat]}: {plural(p.points, 'point')}, "
            f"tokens {counts_text(p.tokens)}, "
            f"bonuses {counts_text(p.bonuses)}, reserved {reserved}, "
            f"nobles {' '.join(p.nobles) or '-'}"
        )
    lines.append(due(state))
    return "\n".join(lines) + "\n"


def _compact_text_view(state: State) -> str:
    lines = [f"bank {counts_text(state.bank)}"]
    # each noble kept whole on its line (its words joined by no-break spaces, which
    # textwrap does not break at)
    nobles = [
        f"{nid} {NOBLES[nid].points}pt {counts_text(NOBLES[nid].requires)}" for nid in state.nobles
    ]
    text = "nobles " + (" · ".join(n.replace(" ", "\u00a0") for n in nobles) or "none")
    lines += [w.replace("\u00a0", " ") for w in textwrap.wrap(text, 80, subsequent_indent="  ")]
    for lv in (2, 1, 0):
        for slot, cid in enumerate(state.display[lv]):
            deck = f"  (deck {state.decks[lv]})" if slot == 0 else ""
            lines.append(f"  {_card_line(cid) if cid else f'L{lv + 1} (empty)'}{deck}")
    for seat, p in enumerate(state.players):
        mark = "*" if seat == state.current and state.outcome is None else " "
        reserved = " ".join(cid or f"L{lv}?" for lv, cid in p.reserved)
        lines.append(
            f"{mark}{state.names[seat]}: {p.points}pt, tokens {counts_text(p.tokens)},"
            f" bonuses {counts_text(p.bonuses)}"
            + (f", reserved {reserved}" if reserved else "")
            + (f", nobles {' '.join(p.nobles)}" if p.nobles else "")
        )
    return "\n".join(line[:80] for line in lines) + "\n"
