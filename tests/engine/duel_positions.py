"""Building Splendor Duel positions for the engine tests.

A position starts from a real ``game_set_up`` event folded by the engine; tests then play
real events, or set State fields directly when a position would take many turns to reach.
Whatever is changed by hand, :func:`rebalance` puts the remaining tokens into the bag so
that all 25 tokens stay accounted for.

Tokens are written as letters, one per token: ``"RRBK"`` is 2 red, 1 blue, 1 black
(W white, B blue, G green, R red, K black, P pearl, Y gold).  Spaces are names (``c3``).
"""

from __future__ import annotations

from typing import Any

from engine.errors import Violation
from engine.splendor_duel import GAME, game
from engine.splendor_duel.catalogue import (
    CARDS,
    COLOR_LETTERS,
    COLOR_NAMES,
    EMPTY,
    SPACE_NAMES,
    SPIRAL_SPACES,
    TOKEN_COUNTS,
    space_index,
)
from engine.splendor_duel.events import (
    BoardReplenished,
    Counts,
    Event,
    GameSetUp,
    event_from_dict,
)
from engine.splendor_duel.state import State

#: A legal initial board in spiral order (c3 first): the 3 Gold end the spiral (e3, e4, e5).
DEFAULT_BOARD = "WBGRKWBGRKWBGRKWBGRKPPYYY"
DEFAULT_PYRAMID = (
    ("1-01", "1-02", "1-03", "1-04", "1-05"),
    ("2-01", "2-02", "2-03", "2-04"),
    ("3-01", "3-02", "3-03"),
)


def counts(text: str) -> Counts:
    """Token counts by colour from letters: ``counts("RRY")`` is 2 red and 1 gold."""
    out = [0] * 7
    for letter in text.replace(" ", ""):
        out[COLOR_LETTERS.index(letter.upper())] += 1
    return tuple(out)  # type: ignore[return-value]


def letters(counts_: Any) -> str:
    """The inverse of :func:`counts`."""
    return "".join(COLOR_LETTERS[c] * n for c, n in enumerate(counts_))


def setup_dict(
    first_player: int = 0,
    board: str = DEFAULT_BOARD,
    pyramid: tuple[tuple[str, ...], ...] = DEFAULT_PYRAMID,
    privileges: list[int] | None = None,
) -> dict[str, Any]:
    """The JSON form of a ``game_set_up`` event."""
    data: dict[str, Any] = {
        "type": "game_set_up",
        "first_player": first_player,
        "board": [COLOR_NAMES[COLOR_LETTERS.index(t)] for t in board],
        "pyramid": {str(level + 1): list(row) for level, row in enumerate(pyramid)},
    }
    if privileges is not None:
        data["privileges"] = privileges
    return data


def setup(first_player: int = 0, **kwargs: Any) -> GameSetUp:
    event = event_from_dict(setup_dict(first_player, **kwargs))
    assert isinstance(event, GameSetUp)
    return event


def start(first_player: int = 0, **kwargs: Any) -> State:
    """The position right after a (checked) setup: player ``first_player`` to act."""
    return GAME.replay([setup(first_player, **kwargs)])


# --- events from their JSON form ---------------------------------------------------------


def ev(data: dict[str, Any]) -> Event:
    return event_from_dict(data)


def take(spaces: str) -> Event:
    return ev({"type": "tokens_taken", "spaces": spaces.split()})


def privilege(space: str) -> Event:
    return ev({"type": "privilege_spent", "space": space})


def replenish(state: State) -> Event:
    """A replenish drawing the bag's tokens in colour order."""
    return BoardReplenished(tuple(c for c, n in enumerate(state.bag) for _ in range(n)))


def reserve(gold: str, card: str | None = None, deck: int | None = None) -> Event:
    data: dict[str, Any] = {"type": "card_reserved", "gold": gold}
    if card is not None:
        data["card"] = card
    if deck is not None:
        data["deck"] = deck
    return ev(data)


def buy(card: str, payment: str = "") -> Event:
    pay = counts(payment)
    return ev(
        {
            "type": "card_purchased",
            "card": card,
            "payment": {COLOR_NAMES[c]: n for c, n in enumerate(pay) if n},
        }
    )


def copy_color(color: str) -> Event:
    return ev({"type": "color_copied", "color": color})


def bonus_token(space: str) -> Event:
    return ev({"type": "bonus_token_taken", "space": space})


def steal(color: str) -> Event:
    return ev({"type": "token_stolen", "color": color})


def royal(royal_id: str) -> Event:
    return ev({"type": "royal_taken", "royal": royal_id})


def discard(tokens: str) -> Event:
    pay = counts(tokens)
    return ev(
        {"type": "tokens_discarded", "tokens": {COLOR_NAMES[c]: n for c, n in enumerate(pay) if n}}
    )


def reveal(card: str) -> Event:
    return ev({"type": "card_revealed", "card": card})


def identify(player: int, card: str) -> Event:
    return ev({"type": "card_identified", "player": player, "card": card})


def resign(player: int) -> Event:
    return ev({"type": "player_resigned", "player": player})


# --- playing and checking ------------------------------------------------------------------


def do(state: State, *events: Event) -> State:
    """Play ``events`` in place, each checked (IllegalMoveError if one is refused)."""
    for event in events:
        GAME.play(state, event)
    return state


def refusal(state: State, event: Event) -> Violation:
    """The single violation ``check`` finds; fails the test if the event is legal."""
    found = game.check(state, event)
    assert found, f"{event} was accepted"
    return found[0]


def codes(state: State, event: Event) -> list[str]:
    return [v.code for v in game.check(state, event)]


# --- setting up positions by hand -------------------------------------------------------


def rebalance(state: State) -> State:
    """Put every token not on the board or held by a player into the bag."""
    on_board = state.board_tokens()
    bag = [
        TOKEN_COUNTS[c] - on_board[c] - state.players[0].tokens[c] - state.players[1].tokens[c]
        for c in range(7)
    ]
    assert min(bag) >= 0, f"more tokens placed than the game has: bag would be {bag}"
    state.bag = bag
    return state


def put(state: State, layout: str) -> State:
    """Make the board exactly ``layout`` ("c2=W c3=Y c4=W"; every other space empty)."""
    state.board = [EMPTY] * 25
    for item in layout.split():
        space, token = item.split("=")
        state.board[space_index(space)] = COLOR_LETTERS.index(token.upper())
    return rebalance(state)


def hold(state: State, player: int, tokens: str) -> State:
    """Give ``player`` exactly ``tokens``.  They come from the bag; a colour the bag lacks
    is taken off the board, from the end of the spiral backwards (e5, e4, e3, e2, ...)."""
    state.players[player].tokens = list(counts(tokens))
    on_board = state.board_tokens()
    for c in range(7):
        missing = (
            state.players[0].tokens[c] + state.players[1].tokens[c] + on_board[c] - TOKEN_COUNTS[c]
        )
        for space in reversed(SPIRAL_SPACES):
            if missing <= 0:
                break
            if state.board[space] == c:
                state.board[space] = EMPTY
                missing -= 1
    return rebalance(state)


def show(state: State, card_id: str, slot: int = 0) -> State:
    """Put ``card_id`` face up in ``slot`` of its pyramid row (if it is not face up
    already); the card there goes back into the deck."""
    level = CARDS[card_id].level - 1
    row = state.pyramid[level]
    if card_id in row:
        return state
    assert card_id in state.unseen[level], f"{card_id} is not in the level-{level + 1} deck"
    state.unseen[level].discard(card_id)
    if row[slot] is not None:
        state.unseen[level].add(row[slot])
    else:
        state.decks[level] -= 1
    row[slot] = card_id
    return state


def board_text(state: State) -> str:
    """The board as ``space=letter`` pairs, in space order."""
    return " ".join(
        f"{SPACE_NAMES[s]}={COLOR_LETTERS[t]}" for s, t in enumerate(state.board) if t != EMPTY
    )


def _take_card_out(state: State, card_id: str) -> None:
    """Remove a card from the pyramid (its slot refilled from the deck) or from the deck."""
    level = CARDS[card_id].level - 1
    row = state.pyramid[level]
    if card_id in row:
        replacement = min(state.unseen[level])
        row[row.index(card_id)] = replacement
        state.unseen[level].discard(replacement)
    else:
        assert card_id in state.unseen[level], f"{card_id} is not available"
        state.unseen[level].discard(card_id)
    state.decks[level] -= 1


def own(state: State, player: int, *card_ids: str, color: str | None = None) -> State:
    """Give ``player`` bought cards, with their bonuses, points and crowns (no ability is
    resolved and no Royal card taken).  ``color`` is the colour a joker copies."""
    p = state.players[player]
    for cid in card_ids:
        card = CARDS[cid]
        _take_card_out(state, cid)
        counts_as = card.color
        if card.is_joker:
            assert color is not None, f"{cid} is a joker: say which colour it copies"
            counts_as = COLOR_NAMES.index(color)
        p.cards.append((cid, counts_as))
        p.points += card.points
        p.crowns += card.crowns
        if counts_as is not None:
            p.bonuses[counts_as] += card.bonus
            p.color_points[counts_as] += card.points
    return state


def reserved_for(state: State, player: int, *card_ids: str) -> State:
    """Give ``player`` reserved cards, identity known."""
    for cid in card_ids:
        _take_card_out(state, cid)
        state.players[player].reserved.append((CARDS[cid].level, cid))
    return state


def empty_deck(state: State, level: int) -> State:
    """Empty the level-``level`` deck by giving its cards to player 1 as bought cards
    (jokers copying white), so every card stays accounted for."""
    for cid in sorted(state.unseen[level - 1]):
        own(state, 1, cid, color="white" if CARDS[cid].is_joker else None)
    return state


def total_tokens(state: State) -> list[int]:
    return state.token_totals()
