"""Violations: every code the engine can give, with the concrete facts in its message and
the rule it breaks (rulebook section and page, or the secondary source)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from duel_positions import (
    DEFAULT_BOARD,
    DEFAULT_PYRAMID,
    buy,
    copy_color,
    discard,
    do,
    ev,
    hold,
    identify,
    own,
    privilege,
    put,
    replenish,
    reserve,
    reserved_for,
    reveal,
    royal,
    setup,
    setup_dict,
    show,
    start,
    steal,
    take,
)
from duel_positions import bonus_token as bonus_token_event

from engine.errors import IllegalMoveError
from engine.splendor_duel import GAME, game, simulate
from engine.splendor_duel.events import BoardReplenished, Event, TokensTaken
from engine.splendor_duel.state import State

Position = Callable[[], State]


def fresh() -> State:
    return State()


def after_resignation() -> State:
    return do(start(), ev({"type": "player_resigned", "player": 1}))


def holding_privilege() -> State:
    state = start(first_player=1)
    return do(state, take("c3"))  # player 0 to play, holding the second player's Privilege


def replenished() -> State:
    state = holding_privilege()
    put(state, "a1=W b1=B c1=G")
    return do(state, replenish(state))


def with_bag() -> State:
    state = start()
    return put(state, "a1=W b1=B c1=G e5=Y")


def three_reserved() -> State:
    return reserved_for(start(), 0, "1-10", "2-10", "3-10")


def no_gold() -> State:
    return put(start(), "c3=W d3=B")


def empty_deck_3() -> State:
    state = start()
    for cid in sorted(state.unseen[2]):
        own(state, 1, cid, color="white")
    return state


def rich() -> State:
    return hold(start(), 0, "BBRRKKY")


def joker_shown() -> State:
    state = start()
    show(state, "1-26")  # joker, K4 P1
    return hold(state, 0, "KKKKP")


def choosing_colour() -> State:
    state = joker_shown()
    own(state, 0, "1-11")  # green
    return do(state, buy("1-26", "KKKKP"))


def taking_bonus_token() -> State:
    state = hold(start(), 0, "RRKK")
    return do(state, buy("1-04", "RRKK"))  # white, token


def stealing() -> State:
    state = start()
    show(state, "2-02")  # white, steal: B4 R3
    hold(state, 0, "BBBBRRR")
    hold(state, 1, "WY")
    return do(state, buy("2-02", "BBBBRRR"))


def royal_due() -> State:
    state = start()
    own(state, 0, "2-05")
    hold(state, 0, "BBRRRRKKKPY")
    return do(state, buy("3-01", "BBRRRRKKKPY"))


def royal_taken_by_1() -> State:
    state = royal_due()
    state.royals.remove("R-2")
    state.players[1].royals.append("R-2")
    return state


def discarding() -> State:
    state = start()
    put(state, "a1=K b1=K c1=P e1=W")
    hold(state, 0, "WWBBGGRRY")
    return do(state, take("a1 b1 c1"))  # 12 tokens


def revealing() -> State:
    state = hold(start(), 0, "RRKKG")
    put(state, "c3=B e5=Y")
    return do(state, buy("1-04", "RRKK"))  # no white on the board: straight to the refill


def reserved_from_pyramid() -> State:
    return do(start(), reserve("e5", card="1-01"))  # the level-1 slot waits for its card


def blind_reserved() -> State:
    return do(start(), reserve("e5", deck=1))  # player 0 reserved an unknown level-1 card


CASES: list[tuple[str, Position, Event, str, str]] = [
    # (code, position, event, a fact the message states, the citation)
    ("game.not_set_up", fresh, take("c3"), "has not been set up", "p.2, Setup"),
    ("game.already_set_up", start, setup(), "already set up", "p.2, Setup"),
    (
        "game.over",
        after_resignation,
        take("c3"),
        "the game is over: Player 1 won: Player 2 resigned",
        "p.9, Victory conditions",
    ),
    (
        "setup.board_size",
        fresh,
        ev(setup_dict(board=DEFAULT_BOARD[:24])),
        "the board lists 24 tokens",
        "p.2, Setup",
    ),
    (
        "setup.tokens",
        fresh,
        ev(setup_dict(board=DEFAULT_BOARD.replace("Y", "W", 1))),
        "the board holds 5 white tokens",
        "p.2, Setup",
    ),
    (
        "setup.pyramid",
        fresh,
        ev(setup_dict(pyramid=(DEFAULT_PYRAMID[0], DEFAULT_PYRAMID[1][:3], DEFAULT_PYRAMID[2]))),
        "level 2 of the pyramid has 3 cards",
        "p.2, Setup",
    ),
    (
        "setup.card_level",
        fresh,
        ev(
            setup_dict(
                pyramid=(DEFAULT_PYRAMID[0], ("2-01", "2-02", "2-03", "3-05"), DEFAULT_PYRAMID[2])
            )
        ),
        "3-05 is a level-3 card, listed in level 2",
        "p.2, Setup",
    ),
    (
        "setup.duplicate_card",
        fresh,
        ev(setup_dict(pyramid=(DEFAULT_PYRAMID[0], DEFAULT_PYRAMID[1], ("3-01", "3-02", "3-01")))),
        "3-01 is listed twice",
        "p.2, Setup",
    ),
    (
        "setup.privileges",
        fresh,
        ev(setup_dict(first_player=1, privileges=[0, 1])),
        "Player 1) starts with 1 Privilege",
        "p.2, Setup",
    ),
    (
        "privilege.after_replenish",
        replenished,
        privilege("c1"),
        "Player 1 already replenished the board this turn; the optional actions come in their "
        "order, so Privileges are spent before replenishing",
        "p.4, Player turn: none, one or both optional actions, in the indicated order "
        "(1 Use a Privilege, 2 Replenish)",
    ),
    (
        "privilege.none_held",
        start,
        privilege("c3"),
        "Player 1 holds no Privilege",
        "p.4, Optional action 1, Use a Privilege",
    ),
    (
        "privilege.empty_space",
        lambda: put(holding_privilege(), "a1=W"),
        privilege("c3"),
        "c3 is empty",
        "p.4, Optional action 1, Use a Privilege",
    ),
    (
        "privilege.gold",
        holding_privilege,
        privilege("e5"),
        "e5 holds a Gold token",
        "p.4, Optional action 1, Use a Privilege",
    ),
    (
        "replenish.bag_empty",
        start,
        BoardReplenished(None),
        "the bag is empty",
        "p.4, Optional action 2, Replenish the Game Board",
    ),
    (
        "replenish.tokens",
        with_bag,
        BoardReplenished((0, 1)),
        "the draw lists W B;",
        "p.4, Optional action 2, Replenish the Game Board",
    ),
    ("take.count", start, take("a1 b1 c1 d1"), "4 tokens listed", "p.5, Take up to 3 tokens"),
    (
        "take.same_space",
        start,
        ev({"type": "tokens_taken", "spaces": ["c3", "c3"]}),
        "c3 is listed twice",
        "p.5, Take up to 3 tokens",
    ),
    (
        "take.gold",
        lambda: put(start(), "c2=W c3=Y c4=B"),
        take("c2 c3 c4"),
        "c3 holds a Gold token; Gold is only taken by reserving a card",
        "p.5, Take up to 3 tokens",
    ),
    (
        "take.empty_space",
        lambda: put(start(), "c2=W c4=B"),
        take("c2 c3 c4"),
        "c3 is empty; an empty space interrupts the line",
        "p.5, Take up to 3 tokens",
    ),
    (
        "take.not_a_line",
        start,
        take("a1 b2 b1"),
        "a1, b1, b2 are not adjacent spaces",
        "p.5, Take up to 3 tokens",
    ),
    (
        "reserve.limit",
        three_reserved,
        reserve("e5", deck=1),
        "Player 1 already has 3 reserved",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "reserve.no_gold",
        no_gold,
        reserve("c3", card="1-01"),
        "there is no Gold token on the board, so Player 1 cannot reserve",
        "p.6, Take 1 Gold token and reserve 1 Jewel card: not possible with no Gold token on the "
        "board",
    ),
    (
        "reserve.not_gold",
        start,
        reserve("e1", card="1-01"),
        "e1 holds a Pearl token, not Gold; the Gold tokens are on e3, e4, e5",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "reserve.not_in_pyramid",
        start,
        reserve("e5", card="1-20"),
        "1-20 is not in the pyramid (it is still in the level-1 deck)",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "reserve.deck_empty",
        empty_deck_3,
        reserve("e5", deck=3),
        "the level-3 deck is empty",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "reserve.card_seen",
        start,
        reserve("e5", card="1-02", deck=1),
        "1-02 cannot be on top of the level-1 deck: it is in the pyramid",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "purchase.not_available",
        lambda: reserved_for(start(), 1, "1-22"),
        buy("1-22", ""),
        "1-22 is neither in the pyramid nor reserved by Player 1 (Player 2 reserved it)",
        "p.6, Purchase 1 Jewel card",
    ),
    (
        "purchase.joker_without_bonus",
        joker_shown,
        buy("1-26", "KKKKP"),
        "1-26 copies the colour of a card with a bonus, and Player 1 has none",
        "p.8, Card abilities",
    ),
    (
        "purchase.unaffordable",
        rich,
        buy("3-01", "BBRRKKY"),
        "3-01 costs Player 1 B3 R5 K3 P after bonuses; Player 1 holds B2 R2 K2 Y",
        "p.6, Purchase 1 Jewel card",
    ),
    (
        "purchase.tokens_not_held",
        lambda: hold(start(), 0, "BBY"),
        buy("1-02", "BBB"),
        "the payment gives 3 blue but Player 1 holds 2",
        "p.6, Purchase 1 Jewel card",
    ),
    (
        "purchase.payment",
        lambda: hold(start(), 0, "BBBY"),
        buy("1-02", "BBBY"),
        "1-02 costs Player 1 B3 after bonuses; the payment (B3 Y) gives 1 Gold where 0 are "
        "needed, overpaying",
        "p.7, Purchase 1 Jewel card: bonuses reduce the cost, never below 0",
    ),
    (
        "purchase.payment",
        lambda: hold(start(), 0, "BBBY"),
        buy("1-02", "B"),
        "1-02 costs Player 1 B3 after bonuses; the payment (B) leaves B2 unpaid (2 tokens)",
        "p.6, Purchase 1 Jewel card",
    ),
    (
        "purchase.payment",
        lambda: hold(start(), 0, "BBBY"),
        buy("1-02", "BY"),
        "the payment (B Y) leaves B2 unpaid (2 tokens), and 1 Gold stands in for only 1",
        "p.6, Purchase 1 Jewel card",
    ),
    (
        "ability.color",
        choosing_colour,
        copy_color("blue"),
        "Player 1 has no card with a blue bonus to copy",
        "p.8, Card abilities",
    ),
    (
        "ability.token",
        taking_bonus_token,
        bonus_token_event("c4"),
        "c4 holds a blue token; the ability of 1-04 takes a white token",
        "p.8, Card abilities",
    ),
    (
        "ability.steal_gold",
        stealing,
        steal("gold"),
        "Player 2's Gold tokens cannot be taken",
        "p.8, Card abilities",
    ),
    (
        "ability.steal_missing",
        stealing,
        steal("red"),
        "Player 2 holds no red token",
        "p.8, Card abilities",
    ),
    (
        "royal.not_due",
        start,
        royal("R-1"),
        "Player 1 has 0 crowns and no Royal card due",
        "p.8, Crowns",
    ),
    (
        "royal.not_available",
        royal_taken_by_1,
        royal("R-2"),
        "R-2 is not available (Player 2 took it)",
        "p.8, Crowns",
    ),
    (
        "discard.count",
        discarding,
        discard("W"),
        "Player 1 holds 12 tokens and must discard exactly 2, not 1",
        "p.9, End of player turn: discard down to 10 tokens",
    ),
    (
        "discard.not_held",
        discarding,
        discard("PP"),
        "Player 1 holds 1 pearl, not 2",
        "p.9, End of player turn: discard down to 10 tokens",
    ),
    (
        "discard.not_due",
        start,
        discard("W"),
        "Player 1 holds 0 tokens",
        "p.9, End of player turn: discard down to 10 tokens",
    ),
    (
        "reveal.level",
        revealing,
        reveal("2-10"),
        "2-10 is a level-2 card; the empty slot is in level 1 and is refilled from the level-1 "
        "deck",
        "p.7, Purchase 1 Jewel card: the card is replaced from the corresponding deck",
    ),
    (
        "reveal.seen",
        revealing,
        reveal("1-02"),
        "1-02 cannot come from the level-1 deck: it is in the pyramid",
        "p.7, Purchase 1 Jewel card: the card is replaced from the corresponding deck",
    ),
    (
        "reveal.seen",
        reserved_from_pyramid,
        reveal("1-02"),
        "1-02 cannot come from the level-1 deck: it is in the pyramid",
        "p.6, Take 1 Gold token and reserve 1 Jewel card: the card is replaced from the "
        "corresponding deck",
    ),
    (
        "identify.no_hidden_card",
        start,
        identify(0, "1-20"),
        "Player 1 has no unidentified level-1 reserved card",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "identify.seen",
        blind_reserved,
        identify(0, "1-03"),
        "1-03 cannot be the blind reserve: it is in the pyramid",
        "p.6, Take 1 Gold token and reserve 1 Jewel card",
    ),
    (
        "turn.action_due",
        start,
        steal("white"),
        "Player 1 to play: optional actions (Privilege, Replenish), then the mandatory action "
        "(not token stolen)",
        "p.4, Player turn: optional actions in order, then one mandatory action",
    ),
    (
        "turn.color_due",
        choosing_colour,
        take("c3"),
        "Player 1 chooses the colour that joker 1-26 copies (not tokens taken)",
        "p.8, Card abilities",
    ),
    (
        "turn.bonus_token_due",
        taking_bonus_token,
        take("c4"),
        "Player 1 takes a white token from the board (1-04's ability) (not tokens taken)",
        "p.8, Card abilities",
    ),
    (
        "turn.steal_due",
        stealing,
        take("c3"),
        "Player 1 takes a Gem or Pearl token from Player 2 (not tokens taken)",
        "p.8, Card abilities",
    ),
    (
        "turn.royal_due",
        royal_due,
        take("c3"),
        "Player 1 has 3 crowns and picks a Royal card (not tokens taken)",
        "p.8, Crowns",
    ),
    (
        "turn.discard_due",
        discarding,
        take("e1"),
        "Player 1 holds 12 tokens and discards down to 10 (not tokens taken)",
        "p.9, End of player turn: discard down to 10 tokens",
    ),
    (
        "turn.reveal_due",
        revealing,
        take("c3"),
        "A level-1 card is revealed into the empty pyramid slot, refilled at the end of the "
        "turn, by the publisher's ruling (not tokens taken)",
        "p.7, Purchase 1 Jewel card: the card is replaced from the corresponding deck",
    ),
]


def _case_id(case: tuple[str, Position, Event, str, str]) -> str:
    same = [c for c in CASES if c[0] == case[0]]
    return case[0] if len(same) == 1 else f"{case[0]}-{same.index(case) + 1}"


@pytest.mark.parametrize(
    ("code", "position", "event", "fact", "citation"), CASES, ids=[_case_id(c) for c in CASES]
)
def test_violation_code_message_and_citation(code, position, event, fact, citation):
    """Each refusal names the facts of the position, the rule, and the official rulebook's
    section and page (never a summary)."""
    state = position()
    found = game.check(state, event)
    assert [v.code for v in found][:1] == [code]
    v = found[0]
    assert fact in v.message
    assert v.rule.cite() == citation
    assert v.rule.source == "rulebook" and v.rule.page is not None
    assert citation.startswith(f"p.{v.rule.page}, {v.rule.section.split(':')[0]}")
    assert str(v) == f"{v.message} ({citation})"
    data = v.to_dict()
    assert data["code"] == code and data["citation"] == citation
    assert data["rule"] == {"section": v.rule.section, "page": v.rule.page, "source": v.rule.source}


def test_every_code_the_engine_gives_is_tested():
    rule_modules = Path(game.__file__).parent / "rules"
    source = "".join(
        path.read_text(encoding="utf-8")
        for path in [Path(game.__file__), *sorted(rule_modules.glob("*.py"))]
    )
    codes = set(re.findall(r'"([a-z_]+\.[a-z_]+)"', source))
    codes = {
        c
        for c in codes
        if c.split(".")[0]
        in {
            "game",
            "setup",
            "privilege",
            "replenish",
            "take",
            "reserve",
            "purchase",
            "ability",
            "royal",
            "discard",
            "reveal",
            "identify",
            "turn",
        }
    }
    assert codes == {c[0] for c in CASES}


def test_every_rule_cited_is_the_rulebooks_with_its_page():
    """No refusal cites a summary: every rule the engine cites is a section of the official
    rulebook with its printed page."""
    from engine.errors import Rule
    from engine.splendor_duel import rules

    cited = [v for v in vars(rules).values() if isinstance(v, Rule)]
    assert cited
    for rule in cited:
        assert rule.source == "rulebook" and rule.page is not None, rule
    for _, position, event, _, _ in CASES:
        v = game.check(position(), event)[0]
        assert v.rule.source == "rulebook" and v.rule.page is not None


def test_replay_names_the_refused_event_by_number():
    events = simulate.random_game(random.Random(3))[:10]
    bad = TokensTaken((0, 1, 2, 3))
    with pytest.raises(IllegalMoveError) as raised:
        GAME.replay([*events, bad])
    assert raised.value.step == 11
    assert str(raised.value).startswith("event 11: ")
    assert raised.value.violations[0].code == "take.count"


def test_a_replenish_template_cannot_be_folded():
    """legal_moves offers BoardReplenished(None); folding needs the tokens drawn."""
    state = with_bag()
    board = state.board[:]
    with pytest.raises(IllegalMoveError) as raised:
        GAME.play(state, BoardReplenished(None))
    assert raised.value.violations[0].code == "replenish.tokens"
    assert state.board == board  # nothing half-applied
    events = simulate.random_game(random.Random(5))
    k = next(
        i for i, st in enumerate(GAME.states(events)) if st.awaiting == "action" and any(st.bag)
    )
    with pytest.raises(IllegalMoveError) as raised:
        GAME.replay([*events[:k], BoardReplenished(None)])
    assert raised.value.step == k + 1
    assert raised.value.violations[0].code == "replenish.tokens"


def test_docs_rules_table_lists_every_rule_with_its_page_and_codes():
    """docs/rules.md keeps the table of rule → page, with the codes citing each rule."""
    from engine.errors import Rule
    from engine.splendor_duel import rules

    docs = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    text = docs.read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        m = re.fullmatch(r"\| p\.(\d+) \| (.+?) \| (.+) \|", line)
        if m:
            rows[(int(m.group(1)), m.group(2))] = set(re.findall(r"`([a-z_.]+)`", m.group(3)))
    by_rule: dict[tuple[int | None, str], set[str]] = {}
    for code, position, event, _, _ in CASES:
        v = game.check(position(), event)[0]
        by_rule.setdefault((v.rule.page, v.rule.section), set()).add(code)
    cited = {(r.page, r.section) for r in vars(rules).values() if isinstance(r, Rule)}
    assert set(rows) == cited
    for key, codes in rows.items():
        assert codes == by_rule.get(key, set()), key


def test_docs_link_nothing_outside_the_project():
    root = Path(__file__).resolve().parents[2]
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "/work/" not in text, doc
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" in target:
                continue
            assert (doc.parent / target).resolve().is_relative_to(root), (doc, target)
            assert (doc.parent / target).exists(), (doc, target)
        for path in re.findall(r"`((?:\.\./|reference/)[^`]*)`", text):
            raise AssertionError(f"{doc.name} names {path}, outside the project")
