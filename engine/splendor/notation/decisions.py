"""Each decision's words: the canonical text of an event and the event a text means.

``take WBG`` / ``take WW``; ``res 1-05 +Y`` (face up, a Gold taken), ``res L2 +Y`` (blind,
card unknown), ``res L2 2-07 +Y`` (blind, card logged); ``buy 1-05 =WWY`` (the tokens
paid; ``=-`` for nothing); ``ret WY``; ``noble N-03``; ``reveal 1-17``; ``id 1-17 @2``
(seat 2's blind reserve shown); ``pass``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...corrections import UNDO, Retraction
from ...errors import EventFormatError
from ...notation.grammar import Fail, Grammar
from ...notation.lexer import unescape
from ..catalogue import CARDS, COLOR_LETTERS, GOLD, NOBLES
from ..describe import result_problem
from ..events import (
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    Counts,
    Event,
    GameSetUp,
    NobleVisited,
    TokensReturned,
    TokensTaken,
    TurnPassed,
)
from ..game import RULES, payments
from ..lookup import CardQueryError, find
from ..position import position_string
from ..state import ACTION, State

KEYWORDS = ("take", "res", "buy", "ret", "noble", "reveal", "id", "pass")
_LETTER = {letter: i for i, letter in enumerate(COLOR_LETTERS)}


def _letters(counts: Counts) -> str:
    return "".join(COLOR_LETTERS[c] * n for c, n in enumerate(counts))


#: The texts of events written so far (events are immutable, and a classic text needs no
#: position): a store writes the text of every event it folds.
_TEXTS: dict[Event | Retraction, str] = {}


def move_text(event: Event) -> str:
    """The canonical notation of a decision or observation (the setup and a correction
    on one line, for a move list; a game writes :func:`setup_lines`)."""
    text = _TEXTS.get(event)
    if text is None:
        text = _write(event)
        if len(_TEXTS) > 100_000:
            _TEXTS.clear()
        _TEXTS[event] = text
    return text


def _write(event: Event) -> str:
    match event:
        case TokensTaken(colors=colors):
            return "take " + "".join(COLOR_LETTERS[c] for c in colors)
        case CardReserved(gold=gold, card=card, deck=deck):
            where = card if deck is None else f"L{deck}" + (f" {card}" if card else "")
            return f"res {where}" + (" +Y" if gold else "")
        case CardPurchased(card=card, payment=payment):
            return f"buy {card} =" + (_letters(payment) or "-")
        case TokensReturned(tokens=tokens):
            return "ret " + _letters(tokens)
        case NobleVisited(noble=noble):
            return f"noble {noble}"
        case CardRevealed(card=card):
            return f"reveal {card}"
        case CardIdentified(player=player, card=card):
            return f"id {card} @{player + 1}"
        case TurnPassed():
            return "pass"
        case GameSetUp():
            return "setup first @{} {}".format(
                event.first_player + 1,
                " / ".join(line.replace("  ", " ") for line in setup_lines(event)),
            )
        case Retraction(back_to=back_to):
            return f"{UNDO} to step {back_to}"
    raise ValueError(f"no notation for {event.type}")


def _card(word: str) -> str:
    if word not in CARDS:
        raise EventFormatError(f"unknown card {word!r} (ids such as 1-01 .. 3-20)")
    return word


def _counts(word: str, what: str) -> Counts:
    counts = [0] * 6
    for ch in word:
        if ch not in _LETTER:
            raise EventFormatError(f"{what}: {ch!r} is not a colour letter ({COLOR_LETTERS})")
        counts[_LETTER[ch]] += 1
    return tuple(counts)  # type: ignore[return-value]


def parse_decision(words: list[str], players: int) -> Event:
    """The event a decision's words mean (keyword first); EventFormatError says why not."""
    key, args = words[0], words[1:]

    def arity(*allowed: int) -> None:
        if len(args) not in allowed:
            raise EventFormatError(f"'{key}' takes {' or '.join(map(str, allowed))} argument(s)")

    if key == "take":
        arity(1)
        _counts(args[0], "take")  # every letter a colour
        return TokensTaken(tuple(_LETTER[ch] for ch in args[0]))
    if key == "res":
        arity(1, 2, 3)
        gold = args[-1] == "+Y"
        rest = args[:-1] if gold else args
        if not rest or len(rest) > 2:
            raise EventFormatError("res names a card, or a deck L1..L3 and maybe its card")
        if rest[0] in ("L1", "L2", "L3"):
            deck = int(rest[0][1])
            card = _card(rest[1]) if len(rest) == 2 else None
            if card is not None and CARDS[card].level != deck:
                raise EventFormatError(f"{card} is not a level {deck} card")
            return CardReserved(gold, card, deck)
        if len(rest) != 1:
            raise EventFormatError("a face-up reserve names one card")
        return CardReserved(gold, _card(rest[0]))
    if key == "buy":
        if len(args) == 1:
            raise EventFormatError("buy CARD =PAYMENT: the payment is missing (=- for none)")
        arity(2)
        if not args[1].startswith("="):
            raise EventFormatError("buy CARD =PAYMENT (=- when nothing is paid)")
        pay = args[1][1:]
        return CardPurchased(_card(args[0]), _counts("" if pay == "-" else pay, "payment"))
    if key == "ret":
        arity(1)
        return TokensReturned(_counts(args[0], "ret"))
    if key == "noble":
        arity(1)
        if args[0] not in NOBLES:
            raise EventFormatError(f"unknown noble {args[0]!r} (N-01 .. N-10)")
        return NobleVisited(args[0])
    if key == "reveal":
        arity(1)
        return CardRevealed(_card(args[0]))
    if key == "id":
        arity(2)
        seat = args[1][1:]
        if not args[1].startswith("@") or not seat.isdigit() or not 1 <= int(seat) <= players:
            raise EventFormatError(f"id CARD @SEAT, the seat from 1 to {players}")
        return CardIdentified(int(seat) - 1, _card(args[0]))
    if key == "pass":
        arity(0)
        return TurnPassed()
    raise EventFormatError(f"unknown decision {key!r} (one of {', '.join(KEYWORDS)})")


def setup_lines(event: GameSetUp) -> list[str]:
    """The setup as written: the nobles, then the display from level 3 down."""
    lines = ["nobles  " + " ".join(event.nobles)]
    for level in (3, 2, 1):
        lines.append(f"level{level}  " + " ".join(event.display[level - 1]))
    return lines


# --- reading in a position: the decision readers of the shared reader ----------------------


def described(state: State, words: list[str], i: int) -> str:
    """The id of the one card the quoted description ``words[i]`` (``reveal "white 1
    point"``) fits among those that can stand there: a card to buy on the display or in
    the player's reserve, one to reserve on the display (or, blind, in its deck), one to
    reveal or show among those still unseen.  Raises :class:`Fail` (at the description)."""
    word = words[i]
    query = unescape(word.strip('"'))
    key = words[0]
    unseen = state.unseen
    if key == "reveal" and state.refill is not None:
        can = set(unseen[state.refill[0]])
    elif key in ("reveal", "id") or (key == "res" and words[1:2] in (["L1"], ["L2"], ["L3"])):
        can = set().union(*unseen)
    else:
        can = {c for row in state.display for c in row if c}
        if key == "buy":
            can |= {c for _, c in state.player.reserved if c}
    at = i - 1  # the argument's index
    try:
        fits = find(query)
    except CardQueryError as err:
        raise Fail("unknown", at, str(err)) from None
    cards = [c for c in fits if c.id in can]
    found = sorted(c.id for c in cards)
    printed = {c.id: c.words.split(" ", 1)[1].lower() for c in cards}
    if len(set(printed.values())) == 1:
        return found[0]  # one card, or cards printed alike (the table cannot tell)
    said = " ".join(query.lower().split())
    whole = [cid for cid in found if printed[cid] == said]
    if len(whole) == 1:
        return whole[0]  # all it says, where another card says that and more
    if not found:
        elsewhere = sorted(c.id for c in fits if c.id in CARDS)[:3]
        where = f" ({', '.join(elsewhere)} fits, but cannot be here)" if elsewhere else ""
        raise Fail("unknown", at, f"no card that can stand here fits {query!r}{where}")
    shown = ", ".join(found[:8]) + (", ..." if len(found) > 8 else "")
    raise Fail("unknown", at, f"{len(found)} cards fit {query!r} here ({shown}): say more")


def completed(state: State, words: list[str]) -> Event | None:
    """What a reserve or a purchase written without what the rules leave no choice about
    means where it stands: ``res 2-18`` takes the Gold while Golds are left (``+Y``),
    ``buy 1-19`` pays the one way the player can; None when the words need nothing.
    Raises :class:`Fail` for a purchase that can be paid in several ways."""
    key, args = words[0], words[1:]
    if key == "res" and args and args[-1] != "+Y" and state.awaiting == ACTION:
        return parse_decision([*words, "+Y"], len(state.players)) if state.bank[GOLD] else None
    if key == "buy" and len(args) == 1 and args[0] in CARDS and state.awaiting == ACTION:
        player = state.player
        ways = payments(CARDS[args[0]].cost, player.bonuses, player.tokens)
        if len(ways) == 1:  # (where the card stands, the rules check)
            return CardPurchased(args[0], ways[0])
        if len(ways) > 1:
            shown = ", ".join(f"={_letters(w)}" for w in ways[:4])
            more = f" and {len(ways) - 4} more" if len(ways) > 4 else ""
            raise Fail(
                "incomplete",
                0,
                f"{args[0]} can be paid in {len(ways)} ways ({shown}{more}): write the payment",
            )
    return None


def _incomplete(keyword: str, args: list[str]) -> bool:
    """Whether a reserve or a purchase leaves out what the position may give
    (:func:`completed`)."""
    if keyword == "res":
        return bool(args) and args[-1] != "+Y"
    return keyword == "buy" and len(args) == 1


def _reader(keyword: str) -> Any:
    def read(args: list[str], state: State | None, names: Sequence[str]) -> Event | None:
        words = [keyword, *args]
        if any(a[0] == '"' for a in args) or _incomplete(keyword, args):
            if state is None:
                return None  # a description, or what is left out, read in the position
            words = [described(state, words, i) if w[0] == '"' else w for i, w in enumerate(words)]
        try:
            if state is not None:
                event = completed(state, words)
                if event is not None:
                    return event
            return parse_decision(words, len(names))
        except EventFormatError as err:
            message = str(err)
            raise Fail("unknown" if "unknown" in message else "syntax", -1, message) from None

    read.__doc__ = f"``{keyword} ...``: the event its words mean (:func:`parse_decision`)."
    return read


#: Each keyword's reader (a decision's words are checked as a whole: an error points at
#: its keyword, or at a description that names no card).
READERS = {keyword: _reader(keyword) for keyword in KEYWORDS}


def _move_text(state: Any, event: Event, names: Sequence[str]) -> str:
    return move_text(event)


def _grammar() -> Grammar:
    from . import setup

    return Grammar(
        RULES,
        KEYWORDS,
        READERS,
        _move_text,
        setup.read_setup_line,
        position=position_string,
        uncached=("id",),  # its seat is checked against the number of seats
        setup_words=setup.SETUP_WORDS,
        setup_missing=setup.setup_missing,
        numbered=False,
        result_problem=result_problem,
    )


#: Classic Splendor's notation for the shared reader (:mod:`engine.notation.reader`):
#: a turn line's prefix may be left out.
GRAMMAR = _grammar()
