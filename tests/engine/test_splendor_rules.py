"""Classic Splendor: the catalogue against the reference totals, one test per rule (named
after it, citing the rulebook's section), legal moves against check, seeded games, the
notation round trip, position strings and invariants."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import IllegalMoveError
from engine.games import game_for_notation, get_game
from engine.splendor import GAME, game, simulate
from engine.splendor.catalogue import CARDS, CARDS_BY_LEVEL, NOBLES, gem_tokens, token_counts
from engine.splendor.events import (
    CardPurchased,
    CardReserved,
    GameSetUp,
    NobleVisited,
    TokensReturned,
    TokensTaken,
    TurnPassed,
    event_from_dict,
    event_to_dict,
)
from engine.splendor.notation import parse_game, write_game
from engine.splendor.position import PositionError, parse_position, position_string
from engine.splendor.state import ACTION, State

REFERENCE = Path("/work/shared/reference")
NAMES = ["Ann", "Bob", "Cid", "Dee"]
RULES = get_game("splendor")


def _game(seed: int, players: int) -> list:
    return simulate.random_game(random.Random(seed), NAMES[:players])


def _table(players: int = 2) -> State:
    display = tuple(ids[:4] for ids in CARDS_BY_LEVEL)
    nobles = ("N-01", "N-02", "N-03", "N-04", "N-05")[: players + 1]
    return GAME.replay([GameSetUp(0, display, nobles)], names=NAMES[:players])  # type: ignore[arg-type]


def _codes(state: State, event) -> list[str]:
    return [v.code for v in game.check(state, event)]


# --- the catalogue ---------------------------------------------------------------------


def test_catalogue_totals_match_the_reference():
    assert len(CARDS) == 90 and len(NOBLES) == 10
    assert [len(ids) for ids in CARDS_BY_LEVEL] == [40, 30, 20]
    points = [sum(CARDS[c].points for c in ids) for ids in CARDS_BY_LEVEL]
    assert points == [5, 55, 80]
    gems = [sum(sum(CARDS[c].cost) for c in ids) for ids in CARDS_BY_LEVEL]
    assert gems == [165, 205, 215]
    per_colour = Counter((c.level, c.color) for c in CARDS.values())
    assert all(per_colour[lv, col] == {1: 8, 2: 6, 3: 4}[lv] for lv, col in per_colour)
    assert all(n.points == 3 for n in NOBLES.values())
    if REFERENCE.is_dir():
        ref = json.loads((REFERENCE / "splendor_cards.json").read_text())["cards"]
        assert {c["id"]: c["points"] for c in ref} == {i: c.points for i, c in CARDS.items()}


def test_game_setup_with_2_or_3_players_token_counts():
    """Rulebook "Game with 2 or 3 players": 4 of each gem for 2, 5 for 3, 7 for 4; 5 Gold."""
    assert [gem_tokens(n) for n in (2, 3, 4)] == [4, 5, 7]
    assert token_counts(2)[5] == 5
    assert _table(3).bank == [5, 5, 5, 5, 5, 5]


def test_game_setup_reveals_players_plus_one_nobles():
    """Rulebook "Game setup": as many nobles as players plus one."""
    state = State(NAMES[:2])
    display = tuple(ids[:4] for ids in CARDS_BY_LEVEL)
    event = GameSetUp(0, display, ("N-01", "N-02"))  # type: ignore[arg-type]
    assert _codes(state, event) == ["setup.nobles"]


# --- taking tokens ---------------------------------------------------------------------


def test_take_3_gem_tokens_of_different_colors():
    """GAME RULES: Take 3 gem tokens of different colors."""
    state = _table()
    assert _codes(state, TokensTaken((0, 1, 2))) == []
    assert _codes(state, TokensTaken((0, 0, 1))) == ["take.not_different"]


def test_take_2_gem_tokens_of_the_same_color_only_from_4():
    """GAME RULES: 2 of one colour only if at least 4 of it are there (two from three refused)."""
    state = _table()
    GAME.play(state, TokensTaken((0, 1, 2)))  # 3 white left
    assert _codes(state, TokensTaken((0, 0))) == ["take.two_from_fewer_than_four"]
    assert _codes(state, TokensTaken((3, 3))) == []


def test_gold_only_by_reserving():
    """Reserve a development card: reserving is the only way to get a gold token."""
    assert _codes(_table(), TokensTaken((0, 1, 5))) == ["take.gold"]


def test_return_tokens_down_to_10():
    """Selecting tokens: a player returns tokens down to 10, choosing which."""
    state = _table()
    state.players[0].tokens = [2, 2, 2, 2, 2, 0]
    state.bank = [2, 2, 2, 2, 2, 5]
    GAME.play(state, TokensTaken((0, 1, 2)))
    assert state.awaiting == "return"
    assert _codes(state, TokensReturned((1, 0, 0, 0, 0, 0))) == ["return.count"]
    assert _codes(state, TokensTaken((3, 4, 0))) == ["turn.out_of_order.return"]
    GAME.play(state, TokensReturned((1, 1, 1, 0, 0, 0)))
    assert state.players[0].token_count == 10


# --- reserving and buying --------------------------------------------------------------


def test_reserve_a_fourth_card_is_refused():
    """Reserve a development card: no more than three reserved cards."""
    state = _table()
    state.players[0].reserved = [(1, c) for c in CARDS_BY_LEVEL[0][10:13]]
    for cid in CARDS_BY_LEVEL[0][10:13]:
        state.unseen[0].discard(cid)
    state.decks[0] -= 3
    assert _codes(state, CardReserved(True, CARDS_BY_LEVEL[0][0])) == ["reserve.limit"]


def test_reserve_takes_a_gold_only_when_one_is_left():
    """Reserve a development card: take 1 gold; none left, the reserve takes none."""
    state = _table()
    cid = CARDS_BY_LEVEL[0][0]
    assert _codes(state, CardReserved(False, cid)) == ["reserve.gold_left"]
    state.bank[5] = 0
    state.players[1].tokens[5] = 5
    assert _codes(state, CardReserved(True, cid)) == ["reserve.no_gold"]
    assert _codes(state, CardReserved(False, cid)) == []


def test_reserve_blind_from_a_deck_and_refill_the_display():
    """The development cards: a card reserved from the display is replaced at once."""
    state = _table()
    cid = CARDS_BY_LEVEL[0][0]
    GAME.play(state, CardReserved(True, cid))
    assert state.awaiting == "reveal"
    assert game.legal_moves(state)
    GAME.play(state, game.legal_moves(state)[0])
    assert None not in state.display[0] and state.current == 1
    GAME.play(state, CardReserved(True, None, 2))
    assert state.players[1].reserved == [(2, None)]


def test_buy_with_bonuses_and_gold():
    """Buying a development card: bonuses reduce the cost, Gold stands for any colour."""
    state = _table()
    cid = CARDS_BY_LEVEL[0][0]  # W3 B1 K1
    p = state.players[0]
    p.tokens = [2, 1, 0, 0, 1, 1]
    state.bank = [2, 3, 4, 4, 3, 4]
    assert _codes(state, CardPurchased(cid, (2, 1, 0, 0, 1, 1))) == []
    assert _codes(state, CardPurchased(cid, (2, 1, 0, 0, 1, 0))) == ["purchase.payment"]
    p.bonuses[0] = 1
    assert _codes(state, CardPurchased(cid, (2, 1, 0, 0, 1, 1))) == ["purchase.payment"]
    assert _codes(state, CardPurchased(cid, (2, 1, 0, 0, 1, 0))) == []


def test_a_wrong_payment_says_what_is_wrong_with_it():
    """A refused payment says whether it falls short or gives too much Gold, and first of
    all whether the player cannot afford the card at all (read at the table, not sums)."""
    state = _table()
    cid = CARDS_BY_LEVEL[0][0]  # W3 B1 K1
    p = state.players[0]
    p.tokens = [2, 1, 0, 0, 1, 1]
    state.bank = [2, 3, 4, 4, 3, 4]

    def message(payment: tuple[int, ...]) -> str:
        (v,) = game.check(state, CardPurchased(cid, payment))  # type: ignore[arg-type]
        return v.message

    short = message((2, 1, 0, 0, 1, 0))
    assert short.endswith(
        "W3 B1 K1 after bonuses (Gold stands for any colour): this payment is 1 token short"
    )
    assert "cannot afford" not in short  # the Gold held would pay the last white
    assert message((3 - 1, 1, 0, 0, 0, 1)).endswith("this payment is 1 token short")
    p.bonuses[0] = 1
    assert message((2, 1, 0, 0, 1, 1)).endswith("this payment gives 1 Gold too many")
    p.bonuses[0] = 0
    p.tokens = [1, 1, 0, 0, 1, 1]
    # cannot afford it at all: said first, whatever the payment gets wrong besides
    for payment in ((1, 1, 0, 0, 1, 1), (1, 2, 0, 0, 1, 0), (0,) * 6):
        (v,) = game.check(state, CardPurchased(cid, payment))  # type: ignore[arg-type]
        assert v.code == "purchase.unaffordable", payment
        assert v.rule.cite() == "Buying a development card"
        assert v.message == (
            f"Ann cannot afford {cid}: it costs W3 B1 K1 after bonuses, Ann holds "
            "W1 B1 K1 Y1 (1 token short, Gold included)"
        )


def test_buy_a_card_not_on_the_table_is_refused():
    assert _codes(_table(), CardPurchased("3-20", (0,) * 6)) == ["purchase.not_available"]  # type: ignore[arg-type]


def test_pass_only_when_no_action_is_possible():
    assert _codes(_table(), TurnPassed()) == ["pass.action_possible"]


# --- nobles and the end ----------------------------------------------------------------


def test_noble_not_earned_is_refused_and_a_visit_cannot_be_refused():
    """The nobles: a noble visits when the bonuses meet its requirement; it cannot be refused."""
    state = _table()
    state.awaiting = "noble"
    assert _codes(state, NobleVisited("N-01")) == ["noble.not_earned"]
    state = _table()
    state.players[0].bonuses = [3, 3, 3, 0, 0]
    GAME.play(state, TokensTaken((0, 1, 2)))
    assert state.awaiting == "noble"  # no end of turn without the visit
    GAME.play(state, NobleVisited("N-01"))
    assert state.players[0].points == 3 and state.current == 1


def test_end_of_the_game_finishes_the_round_and_ties_go_to_fewest_cards():
    """END OF THE GAME: the round is completed at 15 points; ties to fewest cards."""
    state = _table(3)
    state.players[0].points = 15
    state.players[0].cards = ["1-01"] * 9
    GAME.play(state, TokensTaken((0, 1, 2)))
    assert state.outcome is None  # two more turns in the round
    GAME.play(state, TokensTaken((0, 1, 2)))
    state.players[2].points = 15
    state.players[2].cards = ["1-01"] * 8
    GAME.play(state, TokensTaken((3, 4, 0)))
    assert state.outcome is not None
    assert state.outcome.winners == (2,) and state.outcome.condition == "fewest_cards"
    assert RULES.status(state).result is not None


# --- over random positions and games ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_fold_without_violations_and_conserve_everything(players):
    for seed in range(15):
        events = _game(seed, players)
        for state in GAME.states(events, NAMES[:players]):
            if state.awaiting != "setup":
                assert game.consistent(state)
        assert state.outcome is not None


def test_legal_moves_and_check_agree_both_ways():
    rng = random.Random(5)
    for seed in range(12):
        players = 2 + seed % 3
        events = _game(seed, players)
        for state in list(GAME.states(events, NAMES[:players]))[1::7]:
            moves = game.legal_moves(state)
            for m in moves:
                if not (isinstance(m, CardReserved) and m.card is None and m.deck is None):
                    assert game.check(state, m) == [], (m, position_string(state))
            if state.awaiting == ACTION:
                legal = set(moves)
                for _ in range(20):
                    colors = tuple(rng.sample(range(6), rng.choice((2, 3))))
                    e = TokensTaken(colors)
                    assert (game.check(state, e) == []) == (e in legal)
                for cid in rng.sample(sorted(CARDS), 5):
                    pays = [m for m in moves if isinstance(m, CardPurchased) and m.card == cid]
                    for pay in pays:
                        assert game.check(state, pay) == []
                    wrong = CardPurchased(cid, (1, 0, 0, 0, 0, 0))
                    assert (game.check(state, wrong) == []) == (wrong in legal)
                for cid in rng.sample(sorted(CARDS), 5):
                    for gold in (True, False):
                        e = CardReserved(gold, cid)
                        assert (game.check(state, e) == []) == (e in legal)
    # The end of a turn: every return and every noble, against the list.
    for seed in range(30):
        players = 2 + seed % 3
        for state in GAME.states(_game(seed, players), NAMES[:players]):
            if state.awaiting == "return":
                legal = set(game.legal_moves(state))
                for _ in range(30):
                    counts = [0] * 6
                    for c in rng.choices(range(6), k=rng.randint(1, 3)):
                        counts[c] += 1
                    e = TokensReturned(tuple(counts))  # type: ignore[arg-type]
                    assert (game.check(state, e) == []) == (e in legal)
            elif state.awaiting == "noble":
                legal = set(game.legal_moves(state))
                for n in NOBLES:
                    e = NobleVisited(n)
                    assert (game.check(state, e) == []) == (e in legal)


def test_notation_round_trip_and_position_strings():
    for seed in range(24):
        players = 2 + seed % 3
        events = _game(seed, players)
        text = write_game({"players": NAMES[:players]}, events)
        parsed = parse_game(text)
        assert parsed.errors == [] and parsed.events == events
        assert write_game(parsed.headers, parsed.events) == text
        assert game_for_notation(text) is RULES
        assert [event_from_dict(event_to_dict(e)) for e in events] == events


def test_position_strings_over_a_few_hundred_states():
    seen = 0
    for seed in range(6):
        players = 2 + seed % 3
        for state in list(GAME.states(_game(90 + seed, players), NAMES[:players]))[1::2]:
            p = position_string(state)
            back = parse_position(p)
            assert position_string(back) == p
            assert game.legal_moves(back) == game.legal_moves(state)
            seen += 1
    assert seen >= 300


def test_a_position_whose_components_do_not_add_up_says_which():
    """A card or noble in two places, a deck that does not match the cards unseen, a
    colour's tokens: refused in words naming it (a typo in a position quoted in a
    dispute), where any consistent table reads."""
    state = list(GAME.states(_game(7, 2), NAMES[:2]))[9]
    line = position_string(state)
    fields = line.split()
    display = fields[8].split("/")[0].split(",")
    changed = [
        (8, fields[8].replace(display[1], display[0], 1), f"{display[0]} is twice in the display"),
        (7, ".".join(str(int(n) + (i == 2)) for i, n in enumerate(fields[7].split("."))),
         "decks: the level-3 deck holds"),
        (6, ".".join(str(int(n) + (i == 5)) for i, n in enumerate(fields[6].split("."))),
         "the position holds 6 gold tokens in all (bank and players); a game of 2 has 5"),
    ]  # fmt: skip
    for index, field, message in changed:
        broken = [*fields[:index], field, *fields[index + 1 :]]
        with pytest.raises(PositionError, match=re.escape(message)):
            parse_position(" ".join(broken))
    assert position_string(parse_position(line)) == line


def test_illegal_mark_forces_and_is_listed():
    """Two of a colour from a pile of 2 is refused citing the rule; marked !illegal it stands."""
    display = tuple(ids[:4] for ids in CARDS_BY_LEVEL)
    setup = GameSetUp(0, display, ("N-01", "N-02", "N-03"))  # type: ignore[arg-type]
    text = write_game({"players": NAMES[:2]}, [setup])
    parsed = parse_game(text + "1. Ann: take WW\n2. Bob: take WW\n")
    assert parsed.errors and parsed.errors[0].kind == "illegal"
    assert parsed.errors[0].violations[0].rule.section.startswith("GAME RULES")
    good = parse_game(text + "1. Ann: take WW {ok}\n2. Bob: take WW !illegal\n")
    assert good.errors == [] and len(good.flagged) == 1
    again = write_game(good.headers, good.events, good.meta)
    assert again.endswith("1. Ann: take WW {ok}\n2. Bob: take WW !illegal\n")


def test_read_moves_against_a_state():
    state = _table()
    parsed = RULES.read_moves(state, "1. Ann: take WBG {greedy}")
    assert parsed.errors == [] and parsed.events == [TokensTaken((0, 1, 2))]
    assert parsed.meta == [{"comment": "greedy"}]
    bad = RULES.read_moves(state, "take WW take WW")  # Bob's two white from a pile of 2
    assert bad.errors and bad.errors[0].kind == "illegal"


def test_force_refuses_what_cannot_be_replayed():
    state = _table()
    with pytest.raises(IllegalMoveError):
        GAME.force(state, CardPurchased("3-20", (0,) * 6))  # type: ignore[arg-type]


def test_every_error_asked_for_reads_on():
    """With every error asked for, a line in error is skipped and a refused decision is
    kept as played; the first error alone stops the reading otherwise."""
    display = tuple(ids[:4] for ids in CARDS_BY_LEVEL)
    setup = GameSetUp(0, display, ("N-01", "N-02", "N-03"))  # type: ignore[arg-type]
    text = write_game({"players": NAMES[:2]}, [setup])
    body = "1. Ann: take WW\n2. Bob: take WW\n3. Ann: take QQ\n3. Ann: take RR\n4. Bob: take WBG\n"
    first = parse_game(text + body)
    assert [e.kind for e in first.errors] == ["illegal"]
    every = parse_game(text + body, stop_at_first_error=False)
    found = [(e.kind, e.line) for e in every.errors]
    assert found == [("illegal", 12), ("syntax", 13), ("illegal", 15)]  # no white left
    assert len(every.events) == 4 and every.state.turn == 4  # WBG cannot be replayed: the end


def test_a_decision_out_of_turn_is_named_in_words():
    """A decision not due now is named as players say it, with what is due and the rule."""
    state = _table()
    (v,) = game.check(state, TokensReturned((1, 0, 0, 0, 0, 0)))
    assert v.code == "turn.out_of_order.action"
    assert v.message.startswith("a return of tokens is not due: Ann must take gems")
    assert v.rule.cite() == "GAME RULES: perform only one of the following four actions"


def test_a_noble_not_due_cites_the_nobles_rule_and_a_turn_after_the_end_says_it_is_over():
    """A noble's visit written when none is due cites the nobles' rule (not the turn's one
    action); a numbered turn after the last says the game is over, as an unnumbered one."""
    fixture = Path(__file__).resolve().parents[2] / "fixtures/splendor/games/three-players.tl"
    text = fixture.read_text(encoding="utf-8")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    setup = "\n".join(x for x in lines[:first] if not x.startswith(("[Result", "[Vic")))
    state = RULES.read_game(setup + "\n").state
    err = RULES.read_moves(state, "noble N-10").errors[0]
    (violation,) = err.violations
    assert violation.code == "turn.out_of_order.action"
    assert "a noble's visit is not due" in violation.message
    assert violation.rule.section == "The nobles"
    over = RULES.read_game(text).state
    err = RULES.read_moves(over, f"{over.turn + 1}. Chloe: take wbg").errors[0]
    assert err.message == f"the game ended on turn {over.turn}; turn {over.turn + 1} cannot follow"
    assert "the game is over" in RULES.read_moves(over, "take wbg").errors[0].violations[0].message
