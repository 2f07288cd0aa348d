"""The rules of Splendor Duel: check an event, apply it, fold a game, list legal moves.

* :func:`check` returns the violations of an event in a state (empty when legal);
* :func:`play` checks an event and applies it to the state in place (the fold's step);
* :func:`apply` does the same on a copy and returns the new state;
* :func:`replay` folds a list of events from the start, checking each;
* :func:`legal_moves` lists every legal next decision (observations such as the tokens
  drawn from the bag or a revealed card are not enumerated: a replenish and a blind
  reserve come back as templates whose drawn tokens or card are unknown).

The turn (rulebook p.4-9): optional actions in order (spend Privileges, then replenish),
one mandatory action (take tokens, reserve with a Gold, or purchase), the abilities and
Royal cards it triggers, a discard down to 10 tokens, the victory check and, by the
publisher's ruling, the refill of the pyramid slot emptied during the turn.

A table set up with the tokens in colour order along the spiral (the 3 Gold last, on
e3, e4 and e5):

>>> from engine.splendor_duel.catalogue import CARDS_BY_LEVEL, PYRAMID_SIZES, TOKEN_COUNTS
>>> from engine.splendor_duel.events import GameSetUp, event_from_dict
>>> board = tuple(c for c, n in enumerate(TOKEN_COUNTS) for _ in range(n))
>>> pyramid = tuple(ids[:n] for ids, n in zip(CARDS_BY_LEVEL, PYRAMID_SIZES))
>>> state = replay([GameSetUp(0, board, pyramid)])
>>> for v in check(state, event_from_dict({"type": "tokens_taken", "spaces": ["d3", "e3"]})):
...     print(v.code, "-", v)
take.gold - e3 holds a Gold token; Gold is only taken by reserving a card (p.5, Take up to 3 tokens)
>>> len(legal_moves(state))   # 121 takes; 3 Gold x (12 pyramid cards + 3 decks) reserves
166
>>> play(state, event_from_dict({"type": "tokens_taken", "spaces": ["b3", "c3", "d3"]}))
>>> state.players[0].tokens[:2], state.current   # 2 white, 1 blue; player 1's turn
([2, 1], 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..errors import IllegalMoveError, Rule, Violation
from . import rules
from .catalogue import (
    CARDS,
    COLOR_LETTERS,
    COLOR_NAMES,
    EMPTY,
    GEMS,
    GOLD,
    MAX_RESERVED,
    MAX_TOKENS,
    PEARL,
    PRIVILEGES,
    PYRAMID_SIZES,
    ROYAL_CROWN_THRESHOLDS,
    ROYALS,
    SEGMENT_SET,
    SPACE_NAMES,
    SPIRAL_SPACES,
    TOKEN_COUNTS,
    VICTORY_COLOR_POINTS,
    VICTORY_CROWNS,
    VICTORY_POINTS,
)
from .events import (
    BoardReplenished,
    BonusTokenTaken,
    CardIdentified,
    CardPurchased,
    CardReserved,
    CardRevealed,
    ColorCopied,
    Counts,
    Event,
    GameSetUp,
    PlayerResigned,
    PrivilegeSpent,
    RoyalTaken,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
)
from .state import (
    ACTION,
    BONUS_TOKEN,
    COLOR,
    DEFAULT_NAMES,
    DISCARD,
    OVER,
    REVEAL,
    ROYAL,
    SETUP,
    STEAL,
    Outcome,
    PlayerState,
    State,
)

NAMES = DEFAULT_NAMES


def new_game() -> State:
    """The empty table, waiting for the ``game_set_up`` event."""
    return State()


# --- small helpers ---------------------------------------------------------------------


def _v(code: str, message: str, rule: Rule) -> list[Violation]:
    return [Violation(code, message, rule)]


def _tokens_text(counts: Sequence[int]) -> str:
    """``2 red, 1 pearl`` (or ``nothing``)."""
    parts = [f"{n} {COLOR_NAMES[c]}" for c, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "nothing"


def _token_on(space: int, token: int) -> str:
    if token == EMPTY:
        return f"{SPACE_NAMES[space]} is empty"
    if token == GOLD:
        name = "a Gold"
    elif token == PEARL:
        name = "a Pearl"
    else:
        name = f"a {COLOR_NAMES[token]}"
    return f"{SPACE_NAMES[space]} holds {name} token"


def _need(player: PlayerState, card_id: str) -> list[int]:
    """What ``card_id`` costs ``player`` per colour after bonuses (white..black, pearl)."""
    cost = CARDS[card_id].cost
    b = player.bonuses
    return [
        cost[0] - b[0] if cost[0] > b[0] else 0,
        cost[1] - b[1] if cost[1] > b[1] else 0,
        cost[2] - b[2] if cost[2] > b[2] else 0,
        cost[3] - b[3] if cost[3] > b[3] else 0,
        cost[4] - b[4] if cost[4] > b[4] else 0,
        cost[5],
    ]


def _shortfall(player: PlayerState, need: Sequence[int]) -> int:
    """Gold needed to cover what the player's coloured tokens cannot."""
    t = player.tokens
    return sum(n - t[c] for c, n in enumerate(need) if n > t[c])


def _gain_privilege(state: State, who: int) -> None:
    """Take 1 Privilege: from the table, else from the other player, else nothing (p.4)."""
    if state.table_privileges:
        state.table_privileges -= 1
        state.players[who].privileges += 1
    elif state.players[1 - who].privileges:
        state.players[1 - who].privileges -= 1
        state.players[who].privileges += 1


def _find_in_pyramid(state: State, card_id: str) -> int:
    """The slot of ``card_id`` in its pyramid row, or -1."""
    row = state.pyramid[CARDS[card_id].level - 1]
    for i, c in enumerate(row):
        if c == card_id:
            return i
    return -1


def _where_is(state: State, card_id: str) -> str:
    """Where a card that is not available is, for messages."""
    level = CARDS[card_id].level
    if _find_in_pyramid(state, card_id) >= 0:
        return "it is in the pyramid"
    for i, p in enumerate(state.players):
        if any(c == card_id for c, _ in p.cards):
            return f"{state.names[i]} bought it"
        if any(c == card_id for _, c in p.reserved):
            return f"{state.names[i]} reserved it"
    if card_id in state.unseen[level - 1]:
        if state.hidden_reserved(level):
            return f"it is still in the level-{level} deck or reserved blind"
        return f"it is still in the level-{level} deck"
    return "it is not in play"


# --- check -----------------------------------------------------------------------------


def check(state: State, event: Event) -> list[Violation]:
    """Every reason why ``event`` may not happen in ``state``; an empty list if it may."""
    t = event.type
    if t == "player_resigned":
        return _check_resign(state, event)  # type: ignore[arg-type]
    if t == "card_identified":
        return _check_identify(state, event)  # type: ignore[arg-type]
    aw = state.awaiting
    if aw == SETUP:
        if t != "game_set_up":
            return _v("game.not_set_up", "the game has not been set up yet", rules.SETUP)
        return _check_setup(state, event)  # type: ignore[arg-type]
    if state.outcome is not None:
        return _game_over(state, state.outcome)
    checker = _CHECKERS[aw].get(t)
    if checker is None:
        return _out_of_order(state, event)
    return checker(state, event)


def _game_over(state: State, o: Outcome) -> list[Violation]:
    if o.condition == "points":
        how = f"with {VICTORY_POINTS} or more Prestige points"
    elif o.condition == "crowns":
        how = f"with {VICTORY_CROWNS} or more Crowns"
    elif o.condition == "color":
        color = COLOR_NAMES[o.color or 0]
        how = f"with {VICTORY_COLOR_POINTS} or more Prestige points on {color} cards"
    else:
        how = "by resignation"
    return _v("game.over", f"the game is over: {state.names[o.winner]} won {how}", rules.VICTORY)


def _out_of_order(state: State, event: Event) -> list[Violation]:
    t = event.type
    name = state.names[state.current]
    p = state.player
    if t == "game_set_up":
        return _v("game.already_set_up", "the game is already set up", rules.SETUP)
    if t == "royal_taken" and state.awaiting != ROYAL:
        return _v(
            "royal.not_due",
            f"{name} has {p.crowns} crown{'s' if p.crowns != 1 else ''} and no Royal card due; "
            "a Royal card is taken only on reaching the 3rd and the 6th crown",
            rules.CROWNS,
        )
    if t == "tokens_discarded" and state.awaiting != DISCARD:
        return _v(
            "discard.not_due",
            f"{name} holds {p.token_count} tokens; tokens are discarded only down to "
            f"{MAX_TOKENS}, once the turn's actions are done",
            rules.TOKEN_LIMIT,
        )
    aw = state.awaiting
    if aw == ACTION:
        return _v(
            "turn.action_due",
            f"it is {name}'s turn: an optional action or the mandatory action is due, "
            f"not {t.replace('_', ' ')}",
            rules.PLAYER_TURN,
        )
    if aw == COLOR:
        return _v(
            "turn.color_due",
            f"{name} must first choose the colour that joker card {state.last_card} copies",
            rules.ABILITIES,
        )
    if aw == BONUS_TOKEN:
        card = CARDS[state.last_card or ""]
        return _v(
            "turn.bonus_token_due",
            f"{name} must first take the {COLOR_NAMES[card.color or 0]} token that "
            f"{card.id}'s ability gives",
            rules.ABILITIES,
        )
    if aw == STEAL:
        return _v(
            "turn.steal_due",
            f"{name} must first take 1 Gem or Pearl token from {state.names[1 - state.current]} "
            "(steal ability)",
            rules.ABILITIES,
        )
    if aw == ROYAL:
        return _v(
            "turn.royal_due",
            f"{name} has reached {p.crowns} crowns and must first take a Royal card",
            rules.CROWNS,
        )
    if aw == DISCARD:
        return _v(
            "turn.discard_due",
            f"{name} holds {p.token_count} tokens and must discard down to {MAX_TOKENS} "
            "before the turn ends",
            rules.TOKEN_LIMIT,
        )
    level = (state.refill or (0, 0))[0] + 1
    return _v(
        "turn.reveal_due",
        f"the empty level-{level} pyramid slot must be refilled (a card revealed from the "
        f"level-{level} deck) before the next turn",
        rules.REFILL,
    )


def _check_setup(state: State, e: GameSetUp) -> list[Violation]:
    out: list[Violation] = []
    if len(e.board) != 25:
        out.append(
            Violation(
                "setup.board_size",
                f"the board lists {len(e.board)} tokens; all 25 are placed on its 25 spaces",
                rules.SETUP,
            )
        )
    counts = [0] * 7
    for c in e.board:
        counts[c] += 1
    for c, n in enumerate(counts):
        if n != TOKEN_COUNTS[c]:
            out.append(
                Violation(
                    "setup.tokens",
                    f"the board holds {n} {COLOR_NAMES[c]} token{'s' if n != 1 else ''}; "
                    "the game has 4 tokens of each of the 5 gem colours, 2 Pearls and 3 Gold",
                    rules.SETUP,
                )
            )
    seen: set[str] = set()
    for level, row in enumerate(e.pyramid, start=1):
        if len(row) != PYRAMID_SIZES[level - 1]:
            out.append(
                Violation(
                    "setup.pyramid",
                    f"level {level} of the pyramid has {len(row)} cards; "
                    "the pyramid has 5 level-1, 4 level-2 and 3 level-3 cards",
                    rules.SETUP,
                )
            )
        for cid in row:
            if CARDS[cid].level != level:
                out.append(
                    Violation(
                        "setup.card_level",
                        f"{cid} is a level-{CARDS[cid].level} card, listed in level {level}",
                        rules.SETUP,
                    )
                )
            if cid in seen:
                out.append(Violation("setup.duplicate_card", f"{cid} is listed twice", rules.SETUP))
            seen.add(cid)
    if e.privileges is not None:
        second = 1 - e.first_player
        expected = [0, 0]
        expected[second] = 1
        if list(e.privileges) != expected:
            out.append(
                Violation(
                    "setup.privileges",
                    f"the setup gives {state.names[0]} {e.privileges[0]} and {state.names[1]} "
                    f"{e.privileges[1]} Privileges; the first player's opponent "
                    f"({state.names[second]}) starts with 1 Privilege and the first player "
                    "with none",
                    rules.SETUP,
                )
            )
    return out


def _check_privilege(state: State, e: PrivilegeSpent) -> list[Violation]:
    name = state.names[state.current]
    if state.replenished:
        return _v(
            "privilege.after_replenish",
            f"{name} already replenished the board this turn; Privileges are spent before "
            "replenishing",
            rules.ORDER_OF_OPTIONAL,
        )
    if not state.player.privileges:
        return _v("privilege.none_held", f"{name} holds no Privilege", rules.USE_PRIVILEGE)
    token = state.board[e.space]
    if token in (EMPTY, GOLD):
        code = "privilege.empty_space" if token == EMPTY else "privilege.gold"
        return _v(
            code,
            f"{_token_on(e.space, token)}; a Privilege takes 1 Gem or Pearl token, never Gold",
            rules.USE_PRIVILEGE,
        )
    return []


def _check_replenish(state: State, e: BoardReplenished) -> list[Violation]:
    if not any(state.bag):
        return _v(
            "replenish.bag_empty",
            "the bag is empty"
            + (" (the board was already replenished this turn)" if state.replenished else ""),
            rules.REPLENISH,
        )
    if e.tokens is None:
        return []
    drawn = [0] * 7
    for c in e.tokens:
        drawn[c] += 1
    if drawn != state.bag:
        return _v(
            "replenish.tokens",
            f"the bag holds {_tokens_text(state.bag)}, but the draw lists {_tokens_text(drawn)}; "
            "every token in the bag goes onto the board",
            rules.REPLENISH,
        )
    return []


def _check_take(state: State, e: TokensTaken) -> list[Violation]:
    spaces = e.spaces
    if not 1 <= len(spaces) <= 3:
        return _v(
            "take.count",
            f"{len(spaces)} tokens listed; the action takes 1, 2 or 3 tokens",
            rules.TAKE_TOKENS,
        )
    if len(set(spaces)) != len(spaces):
        twice = next(s for s in spaces if spaces.count(s) > 1)
        return _v("take.same_space", f"{SPACE_NAMES[twice]} is listed twice", rules.TAKE_TOKENS)
    board = state.board
    for s in spaces:
        token = board[s]
        if token == GOLD:
            return _v(
                "take.gold",
                f"{_token_on(s, token)}; Gold is only taken by reserving a card",
                rules.TAKE_TOKENS,
            )
        if token == EMPTY:
            return _v(
                "take.empty_space",
                f"{_token_on(s, token)}; an empty space interrupts the line",
                rules.TAKE_TOKENS,
            )
    if spaces not in SEGMENT_SET:
        names = ", ".join(SPACE_NAMES[s] for s in spaces)
        return _v(
            "take.not_a_line",
            f"{names} are not adjacent spaces in one straight line (row, column or diagonal) "
            "without a gap",
            rules.TAKE_TOKENS,
        )
    return []


def _check_reserve(state: State, e: CardReserved) -> list[Violation]:
    p = state.player
    name = state.names[state.current]
    if len(p.reserved) >= MAX_RESERVED:
        return _v("reserve.limit", f"{name} already has 3 reserved cards", rules.RESERVE)
    token = state.board[e.gold]
    if token != GOLD:
        if GOLD not in state.board:
            return _v(
                "reserve.no_gold",
                f"{_token_on(e.gold, token)} and there is no Gold token on the board",
                rules.RESERVE,
            )
        return _v("reserve.not_gold", f"{_token_on(e.gold, token)}, not Gold", rules.RESERVE)
    if e.deck is None:
        cid = e.card or ""
        if _find_in_pyramid(state, cid) < 0:
            return _v(
                "reserve.not_in_pyramid",
                f"{cid} is not in the pyramid ({_where_is(state, cid)})",
                rules.RESERVE,
            )
        return []
    if state.decks[e.deck - 1] == 0:
        return _v("reserve.deck_empty", f"the level-{e.deck} deck is empty", rules.RESERVE)
    if e.card is not None and e.card not in state.unseen[e.deck - 1]:
        return _v(
            "reserve.card_seen",
            f"{e.card} cannot be on top of the level-{e.deck} deck: {_where_is(state, e.card)}",
            rules.RESERVE,
        )
    return []


def _locate_purchase(state: State, cid: str) -> tuple[str, int] | None:
    """Where the current player can buy ``cid`` from: ('pyramid', slot), ('reserve', index)
    or ('hidden', index of an unidentified reserve of its level); None if nowhere."""
    slot = _find_in_pyramid(state, cid)
    if slot >= 0:
        return ("pyramid", slot)
    reserved = state.player.reserved
    for i, (_, c) in enumerate(reserved):
        if c == cid:
            return ("reserve", i)
    level = CARDS[cid].level
    if cid in state.unseen[level - 1]:
        for i, (lv, c) in enumerate(reserved):
            if c is None and lv == level:
                return ("hidden", i)
    return None


def _check_purchase(state: State, e: CardPurchased) -> list[Violation]:
    name = state.names[state.current]
    cid = e.card
    if _locate_purchase(state, cid) is None:
        return _v(
            "purchase.not_available",
            f"{cid} is neither in the pyramid nor reserved by {name} ({_where_is(state, cid)})",
            rules.PURCHASE,
        )
    p = state.player
    card = CARDS[cid]
    if card.is_joker and not p.has_bonus_card():
        return _v(
            "purchase.joker_without_bonus",
            f"{cid} copies the colour of a card with a bonus, and {name} has none",
            rules.ABILITIES,
        )
    need = _need(p, cid)
    tokens = p.tokens
    if _shortfall(p, need) > tokens[GOLD]:
        return _v(
            "purchase.unaffordable",
            f"{cid} costs {name} {_tokens_text(need)} after bonuses; {name} holds "
            f"{_tokens_text(tokens)}",
            rules.PURCHASE,
        )
    pay = e.payment
    for c in range(7):
        if pay[c] > tokens[c]:
            return _v(
                "purchase.tokens_not_held",
                f"the payment gives {pay[c]} {COLOR_NAMES[c]} but {name} holds {tokens[c]}",
                rules.PURCHASE,
            )
    gold_due = 0
    for c in range(6):
        if pay[c] > need[c]:
            return _v(
                "purchase.payment",
                f"the payment gives {pay[c]} {COLOR_NAMES[c]}; {cid} costs {name} only "
                f"{need[c]} {COLOR_NAMES[c]} after bonuses ({_tokens_text(need)})",
                rules.BONUSES,
            )
        gold_due += need[c] - pay[c]
    if pay[GOLD] != gold_due:
        return _v(
            "purchase.payment",
            f"the payment ({_tokens_text(pay)}) does not match the cost of {cid} after "
            f"bonuses ({_tokens_text(need)}): it needs {gold_due} Gold, not {pay[GOLD]}",
            rules.BONUSES,
        )
    return []


def _check_color(state: State, e: ColorCopied) -> list[Violation]:
    if e.color >= len(GEMS) or not state.player.bonuses[e.color]:
        return _v(
            "ability.color",
            f"{state.names[state.current]} has no card with a {COLOR_NAMES[e.color]} bonus to copy",
            rules.ABILITIES,
        )
    return []


def _check_bonus_token(state: State, e: BonusTokenTaken) -> list[Violation]:
    card = CARDS[state.last_card or ""]
    token = state.board[e.space]
    if token != card.color:
        return _v(
            "ability.token",
            f"{_token_on(e.space, token)}; the ability of {card.id} takes a "
            f"{COLOR_NAMES[card.color or 0]} token",
            rules.ABILITIES,
        )
    return []


def _check_steal(state: State, e: TokenStolen) -> list[Violation]:
    if e.color == GOLD:
        return _v(
            "ability.steal_gold",
            f"{state.names[1 - state.current]}'s Gold tokens cannot be taken; the steal ability "
            "takes 1 Gem or Pearl token",
            rules.ABILITIES,
        )
    if not state.opponent.tokens[e.color]:
        return _v(
            "ability.steal_missing",
            f"{state.names[1 - state.current]} holds no {COLOR_NAMES[e.color]} token",
            rules.ABILITIES,
        )
    return []


def _check_royal(state: State, e: RoyalTaken) -> list[Violation]:
    if e.royal not in state.royals:
        owner = next(
            (state.names[i] for i, p in enumerate(state.players) if e.royal in p.royals), None
        )
        return _v(
            "royal.not_available",
            f"{e.royal} is not available ({owner} took it)",
            rules.CROWNS,
        )
    return []


def _check_discard(state: State, e: TokensDiscarded) -> list[Violation]:
    p = state.player
    excess = p.token_count - MAX_TOKENS
    if sum(e.tokens) != excess:
        return _v(
            "discard.count",
            f"{state.names[state.current]} holds {p.token_count} tokens and must discard exactly "
            f"{excess}, not {sum(e.tokens)}",
            rules.TOKEN_LIMIT,
        )
    for c in range(7):
        if e.tokens[c] > p.tokens[c]:
            return _v(
                "discard.not_held",
                f"{state.names[state.current]} holds {p.tokens[c]} {COLOR_NAMES[c]}, "
                f"not {e.tokens[c]}",
                rules.TOKEN_LIMIT,
            )
    return []


def _check_reveal(state: State, e: CardRevealed) -> list[Violation]:
    level = (state.refill or (0, 0))[0] + 1
    card = CARDS[e.card]
    if card.level != level:
        return _v(
            "reveal.level",
            f"{e.card} is a level-{card.level} card; the empty slot is in level {level}",
            rules.REFILL,
        )
    if e.card not in state.unseen[level - 1]:
        return _v(
            "reveal.seen",
            f"{e.card} cannot come from the level-{level} deck: {_where_is(state, e.card)}",
            rules.REFILL,
        )
    return []


def _check_identify(state: State, e: CardIdentified) -> list[Violation]:
    if state.awaiting == SETUP:
        return _v("game.not_set_up", "the game has not been set up yet", rules.SETUP)
    level = CARDS[e.card].level
    p = state.players[e.player]
    if not any(c is None and lv == level for lv, c in p.reserved):
        return _v(
            "identify.no_hidden_card",
            f"{state.names[e.player]} has no unidentified level-{level} reserved card",
            rules.RESERVE,
        )
    if e.card not in state.unseen[level - 1]:
        return _v(
            "identify.seen",
            f"{e.card} cannot be the blind reserve: {_where_is(state, e.card)}",
            rules.RESERVE,
        )
    return []


def _check_resign(state: State, e: PlayerResigned) -> list[Violation]:
    if state.awaiting == SETUP:
        return _v("game.not_set_up", "the game has not been set up yet", rules.SETUP)
    if state.outcome is not None:
        return _game_over(state, state.outcome)
    return []


_Checker = Callable[[State, Any], list[Violation]]
_CHECKERS: dict[str, dict[str, _Checker]] = {
    ACTION: {
        "privilege_spent": _check_privilege,
        "board_replenished": _check_replenish,
        "tokens_taken": _check_take,
        "card_reserved": _check_reserve,
        "card_purchased": _check_purchase,
    },
    COLOR: {"color_copied": _check_color},
    BONUS_TOKEN: {"bonus_token_taken": _check_bonus_token},
    STEAL: {"token_stolen": _check_steal},
    ROYAL: {"royal_taken": _check_royal},
    DISCARD: {"tokens_discarded": _check_discard},
    REVEAL: {"card_revealed": _check_reveal},
    OVER: {},
}

# --- apply -----------------------------------------------------------------------------


def _apply_setup(state: State, e: GameSetUp) -> None:
    board = state.board
    for space, token in zip(SPIRAL_SPACES, e.board, strict=True):
        board[space] = token
    state.pyramid = [list(row) for row in e.pyramid]
    for level, row in enumerate(e.pyramid):
        state.decks[level] -= len(row)
        state.unseen[level].difference_update(row)
    state.first_player = state.current = e.first_player
    second = state.players[1 - e.first_player]
    second.privileges = 1
    state.table_privileges = PRIVILEGES - 1
    state.turn = 1
    state.awaiting = ACTION


def _apply_privilege(state: State, e: PrivilegeSpent) -> None:
    p = state.player
    p.privileges -= 1
    state.table_privileges += 1
    p.tokens[state.board[e.space]] += 1
    state.board[e.space] = EMPTY
    _after_optional(state)


def _apply_replenish(state: State, e: BoardReplenished) -> None:
    if e.tokens is None:
        raise IllegalMoveError(
            [
                Violation(
                    "replenish.tokens",
                    "the tokens drawn from the bag are not given",
                    rules.REPLENISH,
                )
            ]
        )
    board = state.board
    drawn = iter(e.tokens)
    remaining = len(e.tokens)
    for space in SPIRAL_SPACES:
        if not remaining:
            break
        if board[space] == EMPTY:
            board[space] = next(drawn)
            remaining -= 1
    state.bag = [0] * 7
    state.replenished = True
    _gain_privilege(state, 1 - state.current)
    _after_optional(state)


def _apply_take(state: State, e: TokensTaken) -> None:
    board = state.board
    tokens = state.player.tokens
    colors = []
    for s in e.spaces:
        c = board[s]
        tokens[c] += 1
        board[s] = EMPTY
        colors.append(c)
    if len(colors) == 3 and colors[0] == colors[1] == colors[2] or colors.count(PEARL) == 2:
        _gain_privilege(state, 1 - state.current)
    _advance(state)


def _apply_reserve(state: State, e: CardReserved) -> None:
    p = state.player
    state.board[e.gold] = EMPTY
    p.tokens[GOLD] += 1
    if e.deck is None:
        cid = e.card or ""
        level = CARDS[cid].level - 1
        slot = _find_in_pyramid(state, cid)
        state.pyramid[level][slot] = None
        state.refill = (level, slot)
        p.reserved.append((level + 1, cid))
    else:
        state.decks[e.deck - 1] -= 1
        if e.card is not None:
            state.unseen[e.deck - 1].discard(e.card)
        p.reserved.append((e.deck, e.card))
    _advance(state)


def _apply_purchase(state: State, e: CardPurchased) -> None:
    cid = e.card
    card = CARDS[cid]
    p = state.player
    where = _locate_purchase(state, cid)
    assert where is not None
    kind, index = where
    if kind == "pyramid":
        state.pyramid[card.level - 1][index] = None
        state.refill = (card.level - 1, index)
    else:
        del p.reserved[index]
        if kind == "hidden":
            state.unseen[card.level - 1].discard(cid)
    tokens, bag, pay = p.tokens, state.bag, e.payment
    for c in range(7):
        n = pay[c]
        if n:
            tokens[c] -= n
            bag[c] += n
    color = card.color
    p.cards.append((cid, color))
    p.points += card.points
    if color is not None:
        p.bonuses[color] += card.bonus
        p.color_points[color] += card.points
    state.last_card = cid
    pending = state.pending
    for ability in card.abilities:
        if ability == "wild":
            pending.append(COLOR)
        elif ability == "again":
            state.extra_turn = True
        elif ability == "privilege":
            _gain_privilege(state, state.current)
        elif ability == "token":
            pending.append(BONUS_TOKEN)
        elif ability == "steal":
            pending.append(STEAL)
    if card.crowns:
        before = p.crowns
        p.crowns += card.crowns
        for threshold in ROYAL_CROWN_THRESHOLDS:
            if before < threshold <= p.crowns:
                p.royals_due += 1
                pending.append(ROYAL)
    _advance(state)


def _apply_color(state: State, e: ColorCopied) -> None:
    p = state.player
    cid = state.last_card or ""
    card = CARDS[cid]
    for i in range(len(p.cards) - 1, -1, -1):
        if p.cards[i][0] == cid:
            p.cards[i] = (cid, e.color)
            break
    p.bonuses[e.color] += card.bonus
    p.color_points[e.color] += card.points
    state.pending.pop(0)
    _advance(state)


def _apply_bonus_token(state: State, e: BonusTokenTaken) -> None:
    state.player.tokens[state.board[e.space]] += 1
    state.board[e.space] = EMPTY
    state.pending.pop(0)
    _advance(state)


def _apply_steal(state: State, e: TokenStolen) -> None:
    state.opponent.tokens[e.color] -= 1
    state.player.tokens[e.color] += 1
    state.pending.pop(0)
    _advance(state)


def _apply_royal(state: State, e: RoyalTaken) -> None:
    p = state.player
    royal = ROYALS[e.royal]
    state.royals.remove(e.royal)
    p.royals.append(e.royal)
    p.points += royal.points
    state.pending.pop(0)
    if royal.ability == "steal":
        state.pending.insert(0, STEAL)
    elif royal.ability == "again":
        state.extra_turn = True
    elif royal.ability == "privilege":
        _gain_privilege(state, state.current)
    _advance(state)


def _apply_discard(state: State, e: TokensDiscarded) -> None:
    tokens, bag = state.player.tokens, state.bag
    for c in range(7):
        n = e.tokens[c]
        if n:
            tokens[c] -= n
            bag[c] += n
    _advance(state)


def _apply_reveal(state: State, e: CardRevealed) -> None:
    level, slot = state.refill or (0, 0)
    state.pyramid[level][slot] = e.card
    state.decks[level] -= 1
    state.unseen[level].discard(e.card)
    state.refill = None
    _advance(state)


def _apply_identify(state: State, e: CardIdentified) -> None:
    level = CARDS[e.card].level
    reserved = state.players[e.player].reserved
    for i, (lv, c) in enumerate(reserved):
        if c is None and lv == level:
            reserved[i] = (lv, e.card)
            break
    state.unseen[level - 1].discard(e.card)


def _apply_resign(state: State, e: PlayerResigned) -> None:
    state.outcome = Outcome(1 - e.player, "resignation")
    state.awaiting = OVER
    state.pending.clear()


_APPLIERS: dict[str, Callable[[State, Any], None]] = {
    "game_set_up": _apply_setup,
    "privilege_spent": _apply_privilege,
    "board_replenished": _apply_replenish,
    "tokens_taken": _apply_take,
    "card_reserved": _apply_reserve,
    "card_purchased": _apply_purchase,
    "color_copied": _apply_color,
    "bonus_token_taken": _apply_bonus_token,
    "token_stolen": _apply_steal,
    "royal_taken": _apply_royal,
    "tokens_discarded": _apply_discard,
    "card_revealed": _apply_reveal,
    "card_identified": _apply_identify,
    "player_resigned": _apply_resign,
}

# --- the turn's sequence ---------------------------------------------------------------


def _resolution_possible(state: State, kind: str) -> bool:
    """An ability or Royal card is skipped when it cannot happen (p.8: "ignore this effect")."""
    if kind == BONUS_TOKEN:
        return CARDS[state.last_card or ""].color in state.board
    if kind == STEAL:
        t = state.opponent.tokens
        return bool(t[0] or t[1] or t[2] or t[3] or t[4] or t[5])
    if kind == ROYAL:
        return bool(state.royals)
    return True


def _advance(state: State) -> None:
    """Move to the next point of the turn once an action or resolution is done."""
    pending = state.pending
    while pending:
        kind = pending[0]
        if _resolution_possible(state, kind):
            state.awaiting = kind
            return
        pending.pop(0)
    p = state.players[state.current]
    if sum(p.tokens) > MAX_TOKENS:
        state.awaiting = DISCARD
        return
    # Victory is checked at the end of the turn, after the discard (p.9).
    condition, color = None, None
    if p.points >= VICTORY_POINTS:
        condition = "points"
    elif p.crowns >= VICTORY_CROWNS:
        condition = "crowns"
    else:
        cp = p.color_points
        best = max(cp)
        if best >= VICTORY_COLOR_POINTS:
            condition, color = "color", cp.index(best)
    if condition is not None:
        state.outcome = Outcome(state.current, condition, color)
        state.awaiting = OVER
        return
    if state.refill is not None:
        if state.decks[state.refill[0]]:
            state.awaiting = REVEAL
            return
        state.refill = None
    _next_turn(state)


def _next_turn(state: State) -> None:
    if state.extra_turn:
        state.extra_turn = False
    else:
        state.current = 1 - state.current
    state.turn += 1
    state.replenished = False
    state.last_card = None
    state.awaiting = ACTION
    _after_optional(state)


def _after_optional(state: State) -> None:
    """If the player can neither replenish nor perform a mandatory action, the turn ends
    without one (tablelog's ruling; see ``rules.NO_ACTION_POSSIBLE``)."""
    if not state.replenished and any(state.bag):
        return
    if mandatory_action_possible(state):
        return
    _advance(state)


def mandatory_action_possible(state: State) -> bool:
    """Can the player to move take tokens, reserve or purchase right now?"""
    board = state.board
    for t in board:
        if 0 <= t < GOLD:
            return True
    p = state.player
    if (
        GOLD in board
        and len(p.reserved) < MAX_RESERVED
        and (any(state.decks) or any(c for row in state.pyramid for c in row))
    ):
        return True
    purchases: list[Event] = []
    _purchases(state, purchases)
    return bool(purchases)


# --- play, apply, replay ---------------------------------------------------------------


def play(state: State, event: Event) -> None:
    """Check ``event`` and apply it to ``state`` in place; IllegalMoveError if refused."""
    violations = check(state, event)
    if violations:
        raise IllegalMoveError(violations)
    _APPLIERS[event.type](state, event)


def apply(state: State, event: Event) -> State:
    """The state after ``event``; ``state`` itself is left unchanged."""
    new = state.copy()
    play(new, event)
    return new


def replay(
    events: Iterable[Event], upto: int | None = None, names: tuple[str, str] = DEFAULT_NAMES
) -> State:
    """Fold ``events`` (all, or the first ``upto``) from the empty table, checking each.

    IllegalMoveError carries the 1-based number of the refused event in ``step``;
    ``names`` are the players' names used in violation messages.
    """
    state = State(names)
    for n, event in enumerate(events, start=1):
        if upto is not None and n > upto:
            break
        violations = check(state, event)
        if violations:
            raise IllegalMoveError(violations, step=n)
        try:
            _APPLIERS[event.type](state, event)
        except IllegalMoveError as err:  # a template (see legal_moves) cannot be folded
            raise IllegalMoveError(err.violations, step=n) from None
    return state


def states(events: Iterable[Event], names: tuple[str, str] = DEFAULT_NAMES) -> Iterator[State]:
    """The state before the first event, then after each event (independent copies)."""
    state = State(names)
    yield state.copy()
    for n, event in enumerate(events, start=1):
        violations = check(state, event)
        if violations:
            raise IllegalMoveError(violations, step=n)
        try:
            _APPLIERS[event.type](state, event)
        except IllegalMoveError as err:
            raise IllegalMoveError(err.violations, step=n) from None
        yield state.copy()


def apply_unchecked(state: State, event: Event) -> None:
    """Apply an event already known to be legal (for example, one from legal_moves)."""
    _APPLIERS[event.type](state, event)


# --- legal moves -----------------------------------------------------------------------
#
# legal_moves is most of the cost of a random playout, so its moves are prebuilt once and
# shared between calls (events are frozen), and the per-colour arithmetic runs on locals.


def _lines_from(space: int) -> tuple[tuple[int, TokensTaken, int, TokensTaken | None], ...]:
    """The straight lines of 2 and 3 spaces whose first (lowest) space is ``space``:
    (bit of the 2nd space, the 2-token take, bit of the 3rd space or 0, the 3-token take
    or None).  Ordered by the 2nd space (right, down-left, down, down-right), so that
    walking them space by space lists the takes in the order of ``SEGMENTS``."""
    row, col = divmod(space, 5)
    lines: list[tuple[int, TokensTaken, int, TokensTaken | None]] = []
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        r1, c1, r2, c2 = row + dr, col + dc, row + 2 * dr, col + 2 * dc
        if not (0 <= r1 < 5 and 0 <= c1 < 5):
            continue
        second = r1 * 5 + c1
        if 0 <= r2 < 5 and 0 <= c2 < 5:
            third = r2 * 5 + c2
            lines.append(
                (
                    1 << second,
                    TokensTaken((space, second)),
                    1 << third,
                    TokensTaken((space, second, third)),
                )
            )
        else:
            lines.append((1 << second, TokensTaken((space, second)), 0, None))
    return tuple(lines)


_SINGLE_TAKES = tuple(TokensTaken((s,)) for s in range(25))
_LINES = tuple(_lines_from(s) for s in range(25))
_PRIVILEGE_MOVES = tuple(PrivilegeSpent(s) for s in range(25))
_BONUS_MOVES = tuple(BonusTokenTaken(s) for s in range(25))
_STEAL_MOVES = tuple(TokenStolen(c) for c in range(6))
_COLOR_MOVES = tuple(ColorCopied(c) for c in range(5))
_ROYAL_MOVES = {r: RoyalTaken(r) for r in ROYALS}
_REPLENISH = BoardReplenished(None)
#: Per Gold space: the reserve of each card from the pyramid, and blind from each deck.
_RESERVE_CARD = tuple({cid: CardReserved(g, cid, None) for cid in CARDS} for g in range(25))
_RESERVE_BLIND = tuple(tuple(CardReserved(g, None, lv) for lv in (1, 2, 3)) for g in range(25))
_PURCHASES: dict[tuple[str, Counts], CardPurchased] = {}


def payments(player: PlayerState, card_id: str) -> list[Counts]:
    """Every distinct way ``player`` can pay for ``card_id`` (token counts, Gold last).

    Gold stands in for any missing gem or Pearl; payments differ in which tokens leave
    the player's supply.

    >>> from engine.splendor_duel.state import PlayerState
    >>> p = PlayerState()
    >>> p.tokens = [0, 2, 2, 0, 0, 0, 1]   # 2 blue, 2 green, 1 Gold
    >>> payments(p, "1-03")                # costs 2 blue, 2 green, 1 Pearl
    [(0, 2, 2, 0, 0, 0, 1)]
    """
    need = _need(player, card_id)
    tokens = player.tokens
    gold = tokens[GOLD]
    if _shortfall(player, need) > gold:
        return []
    if not gold:
        return [(need[0], need[1], need[2], need[3], need[4], need[5], 0)]
    out: list[Counts] = []
    paid = [0] * 7

    def fill(c: int, gold_left: int) -> None:
        if c == 6:
            used = gold - gold_left
            out.append((paid[0], paid[1], paid[2], paid[3], paid[4], paid[5], used))
            return
        n = need[c]
        high = n if n < tokens[c] else tokens[c]
        low = n - gold_left if n > gold_left else 0
        for k in range(high, low - 1, -1):
            paid[c] = k
            fill(c + 1, gold_left - (n - k))
        paid[c] = 0

    fill(0, gold)
    return out


def _purchase_candidates(state: State) -> list[str]:
    """The cards the player to move could buy: the pyramid, then their reserve (for a
    blind reserve not identified yet, every card it could be)."""
    out = [cid for row in state.pyramid for cid in row if cid is not None]
    hidden_levels: set[int] = set()
    for level, cid in state.player.reserved:
        if cid is not None:
            out.append(cid)
        elif level not in hidden_levels:
            hidden_levels.add(level)
            out.extend(sorted(state.unseen[level - 1]))
    return out


def _purchases(state: State, moves: list[Event]) -> None:
    """Append every purchase the player to move can make, one move per distinct payment."""
    p = state.player
    t0, t1, t2, t3, t4, t5, gold = p.tokens
    b0, b1, b2, b3, b4 = p.bonuses
    can_joker = b0 or b1 or b2 or b3 or b4
    cache = _PURCHASES
    for cid in _purchase_candidates(state):
        card = CARDS[cid]
        if card.is_joker and not can_joker:
            continue
        c0, c1, c2, c3, c4, c5 = card.cost
        # What the card costs after bonuses, colour by colour, and the Gold it needs.
        n0 = c0 - b0 if c0 > b0 else 0
        n1 = c1 - b1 if c1 > b1 else 0
        n2 = c2 - b2 if c2 > b2 else 0
        n3 = c3 - b3 if c3 > b3 else 0
        n4 = c4 - b4 if c4 > b4 else 0
        short = (
            (n0 - t0 if n0 > t0 else 0)
            + (n1 - t1 if n1 > t1 else 0)
            + (n2 - t2 if n2 > t2 else 0)
            + (n3 - t3 if n3 > t3 else 0)
            + (n4 - t4 if n4 > t4 else 0)
            + (c5 - t5 if c5 > t5 else 0)
        )
        if short > gold:
            continue
        pays = [(n0, n1, n2, n3, n4, c5, 0)] if not gold else payments(p, cid)
        for pay in pays:
            key = (cid, pay)
            move = cache.get(key)
            if move is None:
                move = cache[key] = CardPurchased(cid, pay)
            moves.append(move)


def _discards(tokens: Sequence[int], k: int) -> list[Counts]:
    out: list[Counts] = []
    chosen = [0] * 7

    def fill(c: int, left: int) -> None:
        if c == 7:
            if not left:
                out.append(tuple(chosen))  # type: ignore[arg-type]
            return
        for n in range(min(left, tokens[c]), -1, -1):
            chosen[c] = n
            fill(c + 1, left - n)
        chosen[c] = 0

    fill(0, k)
    return out


def legal_moves(state: State) -> list[Event]:
    """Every legal next decision of the player to move (see the module docstring).

    >>> legal_moves(new_game())          # the setup is an observation, not a decision
    []
    """
    aw = state.awaiting
    if aw == ACTION:
        return _action_moves(state)
    p = state.player
    if aw == COLOR:
        return [_COLOR_MOVES[c] for c in range(5) if p.bonuses[c]]
    if aw == BONUS_TOKEN:
        color = CARDS[state.last_card or ""].color
        return [_BONUS_MOVES[s] for s, t in enumerate(state.board) if t == color]
    if aw == STEAL:
        opp = state.opponent.tokens
        return [_STEAL_MOVES[c] for c in range(6) if opp[c]]
    if aw == ROYAL:
        return [_ROYAL_MOVES[r] for r in state.royals]
    if aw == DISCARD:
        return [TokensDiscarded(d) for d in _discards(p.tokens, p.token_count - MAX_TOKENS)]
    return []


def _action_moves(state: State) -> list[Event]:
    """Optional actions, then the mandatory actions, in a fixed order: privileges by
    space, replenish, takes (as ``SEGMENTS``), reserves by Gold space, purchases."""
    p = state.player
    mask = 0
    spaces = []  # spaces holding a Gem or Pearl token
    golds = []
    for s, t in enumerate(state.board):
        if t >= 0:
            if t == GOLD:
                golds.append(s)
            else:
                mask |= 1 << s
                spaces.append(s)
    moves: list[Event] = []
    if not state.replenished:
        if p.privileges:
            moves.extend([_PRIVILEGE_MOVES[s] for s in spaces])
        if any(state.bag):
            moves.append(_REPLENISH)
    pairs: list[Event] = []
    triples: list[Event] = []
    for s in spaces:
        moves.append(_SINGLE_TAKES[s])
        for bit2, pair, bit3, triple in _LINES[s]:
            if mask & bit2:
                pairs.append(pair)
                if mask & bit3:
                    triples.append(triple)  # type: ignore[arg-type]
    moves += pairs
    moves += triples
    if golds and len(p.reserved) < MAX_RESERVED:
        pyramid_cards = [c for row in state.pyramid for c in row if c is not None]
        decks = state.decks
        for g in golds:
            by_card = _RESERVE_CARD[g]
            moves.extend([by_card[cid] for cid in pyramid_cards])
            blind = _RESERVE_BLIND[g]
            if decks[0]:
                moves.append(blind[0])
            if decks[1]:
                moves.append(blind[1])
            if decks[2]:
                moves.append(blind[2])
    _purchases(state, moves)
    return moves


def describe_state(state: State) -> str:
    """A compact one-line summary, handy in error messages and the REPL."""
    if state.awaiting == SETUP:
        return "not set up"
    board = "".join(COLOR_LETTERS[t] if t >= 0 else "." for t in state.board)
    return f"turn {state.turn}, {state.names[state.current]} to {state.awaiting}, board {board}"


def _consistent(state: State) -> bool:
    """No negative holdings, and every token, Privilege and card accounted for once."""
    for p in state.players:
        if min(p.tokens) < 0 or p.privileges < 0:
            return False
    if min(state.bag) < 0 or state.table_privileges < 0:
        return False
    if state.token_totals() != list(TOKEN_COUNTS):
        return False
    held = state.players[0].privileges + state.players[1].privileges
    if state.table_privileges + held != PRIVILEGES:
        return False
    seen: list[str] = []
    for level, row in enumerate(state.pyramid, start=1):
        for cid in row:
            if cid is not None:
                if CARDS[cid].level != level:
                    return False
                seen.append(cid)
    for p in state.players:
        seen.extend(cid for cid, _ in p.cards)
        seen.extend(cid for _, cid in p.reserved if cid is not None)
    seen_set = set(seen)
    if len(seen_set) != len(seen):
        return False
    for level in (1, 2, 3):
        unseen = state.unseen[level - 1]
        if unseen & seen_set or len(unseen) != state.decks[level - 1] + state.hidden_reserved(
            level
        ):
            return False
    return state.card_locations() == len(CARDS)


def force(state: State, event: Event) -> list[Violation]:
    """Apply an event that stood at the table although the rules refuse it.

    Returns the violations (empty if the event was legal after all).  The event must be
    of a kind due at this point and must leave the table consistent (nobody pays tokens
    they do not hold, no space gives a token it does not have, no card is in two places);
    otherwise it cannot be replayed even as played, and IllegalMoveError is raised with
    its violations.  So an observation the deck or the bag cannot hold (a revealed card
    that is elsewhere, tokens the bag does not hold) is never forced: it is a logging
    error, not a move played against the rules.
    """
    violations = check(state, event)
    if not violations:
        _APPLIERS[event.type](state, event)
        return []
    due = _CHECKERS.get(state.awaiting, {})
    if state.outcome is not None or event.type not in due:
        raise IllegalMoveError(violations)
    trial = state.copy()
    try:
        _APPLIERS[event.type](trial, event)
    except (IndexError, KeyError, ValueError, AssertionError, TypeError):
        raise IllegalMoveError(violations) from None
    if not _consistent(trial):
        raise IllegalMoveError(violations)
    for slot in State.__slots__:
        setattr(state, slot, getattr(trial, slot))
    return violations
