"""Plain data for the replay page and the state API, and the table as text.

>>> from engine.splendor.state import State
>>> v = view(State(["Ann", "Bob"]))
>>> [p["name"] for p in v["players"]], v["table"]["bank"][0]
(['Ann', 'Bob'], {'color': 'white', 'letter': 'W', 'count': 4, 'changed': False})
"""

from __future__ import annotations

from typing import Any

from .catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, NOBLES
from .describe import changes, counts_text, due, game_result
from .events import Event
from .notation.decisions import move_text
from .state import ACTION, NOBLE, RETURN, State


def _card(cid: str | None, level: int = 0) -> dict[str, Any] | None:
    if cid is None:
        return None
    c = CARDS[cid]
    return {
        "id": cid,
        "level": c.level,
        "color": COLOR_NAMES[c.color],
        "letter": COLOR_LETTERS[c.color],
        "points": c.points,
        "cost": [
            {"color": COLOR_NAMES[i], "letter": COLOR_LETTERS[i], "count": n}
            for i, n in enumerate(c.cost)
            if n
        ],
    }


def _noble(nid: str) -> dict[str, Any]:
    n = NOBLES[nid]
    return {
        "id": nid,
        "points": n.points,
        "requires": [
            {"color": COLOR_NAMES[i], "letter": COLOR_LETTERS[i], "count": k}
            for i, k in enumerate(n.requires)
            if k
        ],
    }


def _counts(now: list[int], before: list[int] | None) -> list[dict[str, Any]]:
    return [
        {
            "color": COLOR_NAMES[c],
            "letter": COLOR_LETTERS[c],
            "count": n,
            "changed": before is not None and before[c] != n,
        }
        for c, n in enumerate(now)
    ]


def view(state: State, before: State | None = None) -> dict[str, Any]:
    """What the replay draws of ``state``; ``before`` marks what the step changed."""
    result = game_result(state)
    winners = set(result.winners) if result is not None else set()
    playing = state.awaiting in (ACTION, RETURN, NOBLE) or state.refill is not None
    players = []
    for seat, p in enumerate(state.players):
        old = before.players[seat] if before is not None and before.awaiting != "setup" else None
        players.append(
            {
                "seat": seat,
                "name": state.names[seat],
                "to_move": playing and state.current == seat and state.outcome is None,
                "winner": seat in winners,
                "points": p.points,
                "tokens": _counts(p.tokens, None if old is None else old.tokens),
                "token_count": p.token_count,
                "bonuses": _counts(p.bonuses, None if old is None else old.bonuses),
                "cards": len(p.cards),
                "bought": [_card(c) for c in p.cards],
                "reserved": [
                    _card(cid) if cid is not None else {"id": None, "level": lv}
                    for lv, cid in p.reserved
                ],
                "nobles": [_noble(n) for n in p.nobles],
            }
        )
    return {
        "due": due(state),
        "result": None if result is None else result.text,
        "changes": [] if before is None else changes(before, state),
        "table": {
            "bank": _counts(state.bank, None if before is None else before.bank),
            "decks": list(state.decks),
            "display": [
                {"level": lv + 1, "cards": [_card(c) for c in row], "deck": state.decks[lv]}
                for lv, row in reversed(list(enumerate(state.display)))
            ],
            "nobles": [_noble(n) for n in state.nobles],
        },
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


def event_lines(before: State, event: Event, after: State) -> list[str]:
    """What ``event`` did, in a few short sentences."""
    if event.type == "game_set_up":
        return [f"The table is set up; {after.names[after.first_player]} plays first."]
    if event.type == "retraction":
        return ["A correction: the game stands as it stood before."]
    who = before.names[before.current]
    lines = [f"{who}: {move_text(event)}."]
    if after.outcome is not None and before.outcome is None:
        result = game_result(after)
        assert result is not None
        lines.append(result.text + ".")
    return lines


def text_view(state: State) -> str:
    """The table as text for a terminal."""
    lines = [f"bank {counts_text(state.bank)}  decks {'/'.join(map(str, state.decks))}"]
    lines.append("nobles " + (" ".join(state.nobles) or "none"))
    for lv in (2, 1, 0):
        row = " ".join(c or "----" for c in state.display[lv])
        lines.append(f"level{lv + 1} {row}")
    for seat, p in enumerate(state.players):
        mark = "*" if seat == state.current and state.outcome is None else " "
        reserved = " ".join(cid or f"L{lv}?" for lv, cid in p.reserved) or "-"
        lines.append(
            f"{mark}{state.names[seat]}: {p.points} points, tokens {counts_text(p.tokens)}, "
            f"bonuses {counts_text(p.bonuses)}, reserved {reserved}, "
            f"nobles {' '.join(p.nobles) or '-'}"
        )
    lines.append(due(state))
    return "\n".join(lines)
