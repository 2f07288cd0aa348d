"""The search's strength: matches against uniform random play and against the default
policy alone, for each game (issue 27).

    nice -n 19 python bench/ai.py [--games 200] [--playouts 200] [--game splendor-duel]

Each match plays ``--games`` two-player games, the search's seat alternating; the search
makes every decision with ``--playouts`` playouts (one decision due: played at once).
A game is played in a world of the game's :class:`engine.protocol.Playouts` (its decks
dealt once, the observations drawn from it); the search sees the world's position as
its seat knows it (the cards the others reserved blind stay unseen) and deals its own
guesses of what that position has not revealed.  A draw counts as half a win.  Prints
each match as it ends and, last, one JSON line: per game,
``vs_random_win_rate``, ``vs_policy_win_rate`` and each one's 95% Wilson interval
(``_low``, ``_high``), the games played and the playouts per second of the policy.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import analysis  # noqa: E402
from engine.games import get_game  # noqa: E402

Player = Callable[[Any, Any, random.Random], Any]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def random_player(rules: Any, world: Any, rng: random.Random) -> Any:
    moves = rules.playouts.decisions(world)
    return moves[rng.randrange(len(moves))]


def policy_player(rules: Any, world: Any, rng: random.Random) -> Any:
    return rules.playouts.choose(world, rules.playouts.decisions(world))


def seen_by(state: Any, seat: int, blind: list[tuple[int, int, str]]) -> Any:
    """``state`` as the player in ``seat`` knows it: the cards the other players reserved
    blind (from a deck, face down) put back among the unseen cards of their level, as a
    reserve not yet shown is at the table.  Both games keep a player's reserve as
    ``(level, card)`` pairs and the unseen cards of each level as a set."""
    s = state.copy()
    for owner, level, card in blind:
        reserved = s.players[owner].reserved
        if owner != seat and (level, card) in reserved:
            reserved[reserved.index((level, card))] = (level, None)
            s.unseen[level - 1].add(card)
    return s


def play(rules: Any, seed: int, search_seat: int, opponent: Player, playouts: int) -> float:
    """One game; the search's share of the win.  The search is given the position as its
    seat knows it (:func:`seen_by`); the opponents play the world's position (the random
    player and the policy read nothing hidden)."""
    rng = random.Random(seed)
    setup = rules.random_game(random.Random(seed))[0]
    state = rules.new_state()
    rules.play(state, setup)
    game = rules.playouts
    world = game.deal(state, rng)
    blind: list[tuple[int, int, str]] = []  # (seat, level, card) of each blind reserve
    while (shares := game.shares(world)) is None:
        seat = game.mover(world)
        if seat == search_seat:
            moves = game.decisions(world)
            if len(moves) == 1:
                move = moves[0]
            else:
                found = analysis.search(rules, seen_by(world.state, seat, blind), rng, playouts)
                move = found.best[0].decision
        else:
            move = opponent(rules, world, rng)
        from_deck = getattr(move, "deck", None) is not None and getattr(move, "card", 0) is None
        game.advance(world, move)
        if from_deck:
            level, card = world.state.players[seat].reserved[-1]
            blind.append((seat, level, card))
    return shares[search_seat]


def match(rules: Any, opponent: Player, games: int, playouts: int, seed: int) -> dict[str, Any]:
    won = 0.0
    started = time.perf_counter()
    for i in range(games):
        share = play(rules, seed + i, i % 2, opponent, playouts)
        won += share
        print(
            f"  game {i + 1}: search in seat {i % 2 + 1} won {share:g}", file=sys.stderr, flush=True
        )
    low, high = wilson(won, games)
    return {
        "win_rate": won / games,
        "low": low,
        "high": high,
        "games": games,
        "seconds": round(time.perf_counter() - started, 1),
    }


def playout_rate(rules: Any, seconds: float = 3.0) -> float:
    """Playouts per second of the default policy from new tables."""
    rng = random.Random(0)
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = rules.new_state()
        rules.play(state, rules.random_game(random.Random(done))[0])
        analysis.playout(rules.playouts, rules.playouts.deal(state, rng))
        done += 1
    return done / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a match")
    parser.add_argument("--playouts", type=int, default=200, help="playouts a decision")
    parser.add_argument("--game", action="append", help="splendor-duel, splendor (default: both)")
    parser.add_argument("--against", default="random,policy", help="random, policy or both")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds = args.game or ["splendor-duel", "splendor"]
    opponents = {"random": random_player, "policy": policy_player}
    figures: dict[str, Any] = {}
    for kind in kinds:
        rules = get_game(kind)
        out: dict[str, Any] = {"playouts_per_s": round(playout_rate(rules), 1)}
        for name in args.against.split(","):
            m = match(rules, opponents[name], args.games, args.playouts, args.seed)
            print(f"{kind} vs {name}: {json.dumps(m)}", flush=True)
            key = f"vs_{name}_win_rate"
            out[key] = round(m["win_rate"], 4)
            out[f"{key}_low"] = round(m["low"], 4)
            out[f"{key}_high"] = round(m["high"], 4)
            out[f"vs_{name}_games"] = m["games"]
            out[f"vs_{name}_seconds"] = m["seconds"]
        out["playouts_a_decision"] = args.playouts
        figures[kind] = out
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
