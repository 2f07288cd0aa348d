"""The decisions about Jewel cards, read and written: ``res``, ``buy``, ``copy``,
``reveal``, ``id``.

>>> read_res(["L2=2-05", "@a1"], None, Context(()))
CardReserved(gold=0, card='2-05', deck=2)
>>> write_res(None, read_res(["L2=2-05", "@a1"], None, Context(())), ())
'res L2=2-05 @a1'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import game as _game
from ..catalogue import CARDS, COLOR_LETTERS, GOLD, SPACE_NAMES
from ..events import (
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ColorCopied,
    Counts,
    Event,
)
from ..rules.facts import cost_after_bonuses
from ..state import ACTION, REVEAL, State
from .arguments import (
    LEVEL_RE,
    Context,
    Fail,
    by,
    card,
    check_description,
    color,
    counts_text,
    described_card,
    expect,
    paren_counts,
    space,
)
from .players import player_ref

# --- reading -----------------------------------------------------------------------------


def read_res(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``res 2-05 @a1`` (from the pyramid), ``res L2 @a1`` (blind from a deck) or
    ``res L2=2-05 @a1`` (blind, the card known); ``@SPACE`` may go when one Gold is on
    the board."""
    gold: int | None = None
    cid: str | None = None
    deck: int | None = None
    seen_target = False
    described = False  # the card named by a description, not known without the position
    for i, tok in enumerate(args):
        if tok.startswith("@"):
            if gold is not None:
                raise Fail("syntax", i, "one Gold per reserve")
            gold = space([tok[1:]], 0, "the Gold's space") if len(tok) > 1 else -1
            if gold < 0:
                raise Fail("syntax", i, "expected @SPACE, the Gold taken, e.g. @a1")
            continue
        if tok.startswith('"') and seen_target:
            if cid is None and not described:
                raise Fail("syntax", i, "a description follows a known card")
            if cid is not None:
                check_description(args, i, cid)
            continue
        if seen_target:
            raise Fail("syntax", i, f"unexpected {tok!r} in a reserve")
        seen_target = True
        if tok.startswith('"'):
            cid = described_card(args, i, _in_pyramid(state), "in the pyramid")
            described = cid is None
            continue
        level, _, known = tok.partition("=")
        m = LEVEL_RE.fullmatch(level)
        if m:
            deck = int(m.group(1))
            if known:
                try:
                    cid = card([known], 0)
                except Fail as f:
                    raise Fail(f.kind, i, f.message) from None
                if CARDS[cid].level != deck:
                    raise Fail(
                        "syntax", i, f"{cid} is a level-{CARDS[cid].level} card, not level {deck}"
                    )
        elif known:
            raise Fail("syntax", i, f"expected L1, L2 or L3 before '=', got {level!r}")
        else:
            cid = card(args, i)
    if not seen_target:
        raise Fail(
            "syntax", -1, "expected res CARD @SPACE or res L2 @SPACE (blind), e.g. res 2-05 @a1"
        )
    if described:
        return None
    if gold is None:
        if state is None:
            return None
        golds = [s for s, t in enumerate(state.board) if t == GOLD]
        if len(golds) > 1:
            raise Fail(
                "syntax",
                -1,
                "say which Gold is taken: " + " or ".join(f"@{SPACE_NAMES[s]}" for s in golds),
            )
        gold = golds[0] if golds else 0
    return CardReserved(gold, cid, deck)


def read_buy(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``buy 2-05 (B1 R2 Y1)``; the payment may go when there is one way to pay."""
    if not args:
        raise Fail("syntax", -1, "expected buy CARD (PAYMENT), e.g. buy 2-05 (B1 R2 Y1)")
    cid = card(args, 0) if args[0][0] != '"' else described_card(args, 0, *_buyable(state))
    payment: Counts | None = None
    for i in range(1, len(args)):
        tok = args[i]
        if tok.startswith('"') and i == 1:
            if cid is not None:
                check_description(args, i, cid)
        elif tok.startswith("(") and payment is None:
            payment = paren_counts(args, i)
        else:
            raise Fail("syntax", i, f"unexpected {tok!r} after buy {cid or args[0]}")
    if cid is None:
        return None
    if payment is not None:
        return CardPurchased(cid, payment)
    if state is None:
        return None
    ways = _game.payments(state.player, cid) if state.awaiting == ACTION else []
    if len(ways) == 1:
        return CardPurchased(cid, ways[0])
    if len(ways) > 1:
        probe = _game.check(state, CardPurchased(cid, ways[0]))
        if probe and probe[0].code == "purchase.not_available":
            return CardPurchased(cid, ways[0])
        shown = ", ".join(f"({counts_text(w)})" for w in ways[:4])
        more = f" and {len(ways) - 4} more" if len(ways) > 4 else ""
        raise Fail(
            "incomplete",
            0,
            f"{cid} can be paid in {len(ways)} ways ({shown}{more}); write the payment",
        )
    # No payment possible: let the rules say why (not available, unaffordable ...), with
    # the payment the player would make: the cost after their bonuses, not the printed one.
    need = [*cost_after_bonuses(state.player, cid), 0]
    return CardPurchased(cid, tuple(need))  # type: ignore[arg-type]


def read_copy(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``copy B``: the colour a joker copies."""
    expect(args, 1, "copy COLOUR, e.g. copy B")
    return ColorCopied(color(args, 0))


def read_reveal(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``reveal 1-17``: the card that refills the pyramid."""
    if not args or len(args) > 2 or (len(args) == 2 and not args[1].startswith('"')):
        raise Fail(
            "syntax", min(len(args), 2) if args else -1, "expected reveal CARD, e.g. reveal 1-17"
        )
    cid = card(args, 0) if args[0][0] != '"' else described_card(args, 0, *_to_reveal(state))
    if cid is None:
        return None
    if len(args) == 2:
        check_description(args, 1, cid)
    return CardRevealed(cid)


def read_id(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``id 2-07 [by PLAYER]``: a blind reserve identified; without ``by``, the player
    who holds a blind reserve of that level (the one to move first)."""
    if not args:
        raise Fail("syntax", -1, "expected id CARD [by PLAYER], e.g. id 2-07")
    cid = card(args, 0) if args[0][0] != '"' else described_card(args, 0, *_reserved_blind(state))
    rest = 1
    if len(args) > 1 and args[1].startswith('"'):
        if cid is not None:
            check_description(args, 1, cid)
        rest = 2
    who = by(args, rest, ctx)
    if cid is None:
        return None
    if who is None:
        if state is None:
            return None
        who = state.current
        level = CARDS[cid].level
        mine = any(c is None and lv == level for lv, c in state.players[who].reserved)
        theirs = any(c is None and lv == level for lv, c in state.players[1 - who].reserved)
        if not mine and theirs:
            who = 1 - who
    return CardIdentified(who, cid)


# --- the cards a description may name, by place -----------------------------------------


def _in_pyramid(state: State | None) -> list[str] | None:
    if state is None:
        return None
    return [cid for row in state.pyramid for cid in row if cid is not None]


def _buyable(state: State | None) -> tuple[list[str] | None, str]:
    """The pyramid's cards and the known cards the player to move holds in reserve."""
    cards = _in_pyramid(state)
    if state is None or cards is None:
        return None, ""
    reserved = [cid for _, cid in state.player.reserved if cid is not None]
    return cards + reserved, f"in the pyramid or {state.names[state.current]}'s reserve"


def _to_reveal(state: State | None) -> tuple[list[str] | None, str]:
    """The cards that may be revealed: the deck's of the emptied slot's level when a
    card is due, else any card not seen yet."""
    if state is None:
        return None, ""
    if state.awaiting == REVEAL and state.refill is not None:
        level = state.refill[0]
        return sorted(state.unseen[level]), f"left in the level-{level + 1} deck"
    return sorted(set().union(*state.unseen)), "not seen yet"


def _reserved_blind(state: State | None) -> tuple[list[str] | None, str]:
    """The cards a blind reserve may turn out to be: the unseen cards of its level."""
    if state is None:
        return None, ""
    levels = {lv for p in state.players for lv, cid in p.reserved if cid is None}
    unseen = [cid for lv in sorted(levels) for cid in sorted(state.unseen[lv - 1])]
    return unseen, "among the blind reserves' levels"


# --- writing -----------------------------------------------------------------------------


def write_res(state: State | None, event: Any, names: Sequence[str]) -> str:
    """``res 2-05 @a1``, ``res L2 @a1`` (blind) or ``res L2=2-05 @a1``."""
    gold = SPACE_NAMES[event.gold]
    if event.deck is None:
        return f"res {event.card} @{gold}"
    if event.card is None:
        return f"res L{event.deck} @{gold}"
    return f"res L{event.deck}={event.card} @{gold}"


def write_buy(state: State, event: Any, names: Sequence[str]) -> str:
    """``buy 2-05 (B1 R2 Y1)``."""
    return f"buy {event.card} ({counts_text(event.payment)})"


def write_copy(state: State, event: Any, names: Sequence[str]) -> str:
    """``copy B``."""
    return f"copy {COLOR_LETTERS[event.color]}"


def write_reveal(state: State, event: Any, names: Sequence[str]) -> str:
    """``reveal 1-17``."""
    return f"reveal {event.card}"


def write_id(state: State, event: Any, names: Sequence[str]) -> str:
    """``id 2-07``, with ``by PLAYER`` when the card is not the player's to move."""
    if event.player == state.current:
        return f"id {event.card}"
    return f"id {event.card} by {player_ref(names, event.player)}"
