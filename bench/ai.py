"""The search's strength: matches against uniform random play and against the default
policy alone, for each game (issue 27).

    nice -n 19 python bench/ai.py [--games 200] [--playouts 200] [--game splendor-duel]
        [--seeds 1,1001,2001] [--jobs 2] [--results FILE]

Each match plays ``--games`` two-player games, the search's seat alternating, game ``i``
seeded ``seed + i``; it is played once per seed of ``--seeds`` and the figures are the
median match's.  The search makes every decision with ``--playouts`` playouts (one
decision due: played at once), stopping early only once its best decision is settled
(``engine.analysis.search``'s ``settle``: the decision the whole budget names).
A game is played in a world of the game's :class:`engine.protocol.Playouts` (its decks
dealt once, the observations drawn from it); the search sees the world's position as
its seat knows it (the cards the others reserved blind stay unseen) and deals its own
guesses of what that position has not revealed.  A draw counts as half a win.

Games run in ``--jobs`` processes.  With ``--results FILE`` each finished game is
appended to FILE (a JSON line) and a game already there is not played again, so a run
that was stopped goes on where it stopped.  Prints each match as it ends and, last, one
JSON line: per game, ``vs_random_win_rate``, ``vs_policy_win_rate`` and each one's 95%
Wilson interval (``_low``, ``_high``) of the median seed's match, each seed's win rate
(``_by_seed``), the games a match and the playouts per second of the policy.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
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
    return rules.playouts.choose(world)


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
                found = analysis.search(
                    rules, seen_by(world.state, seat, blind), rng, playouts, settle=True
                )
                move = found.best[0].decision
        else:
            move = opponent(rules, world, rng)
        from_deck = getattr(move, "deck", None) is not None and getattr(move, "card", 0) is None
        game.advance(world, move)
        if from_deck:
            level, card = world.state.players[seat].reserved[-1]
            blind.append((seat, level, card))
    return float(shares[search_seat])


#: A game to play: (game kind, opponent, seed of the match, index in the match).
Task = tuple[str, str, int, int]
OPPONENTS: dict[str, Player] = {"random": random_player, "policy": policy_player}


def play_task(task: Task, playouts: int) -> tuple[Task, float]:
    kind, against, seed, i = task
    return task, play(get_game(kind), seed + i, i % 2, OPPONENTS[against], playouts)


def _play_task(args: tuple[Task, int]) -> tuple[Task, float]:
    return play_task(*args)


def load_results(path: Path | None, playouts: int) -> dict[Task, float]:
    """The games already played at ``playouts`` a decision, from ``path``'s lines."""
    done: dict[Task, float] = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when a run was stopped
        if row.get("playouts") == playouts:
            done[(row["game"], row["against"], row["seed"], row["index"])] = row["share"]
    return done


def play_all(
    tasks: list[Task], playouts: int, jobs: int, results: Path | None
) -> dict[Task, float]:
    """Every game of ``tasks``: those ``results`` holds read back, the others played in
    ``jobs`` processes (each appended to ``results`` as it ends)."""
    done = load_results(results, playouts)
    todo = [t for t in tasks if t not in done]
    if len(done):
        print(f"  {len(tasks) - len(todo)} games read back from {results}", file=sys.stderr)
    out = open(results, "a") if results is not None else None  # noqa: SIM115
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for task, share in pool.imap_unordered(
                _play_task, [(t, playouts) for t in todo], chunksize=1
            ):
                done[task] = share
                kind, against, seed, i = task
                print(
                    f"  {kind} vs {against}, seed {seed}, game {i + 1}: search in seat "
                    f"{i % 2 + 1} won {share:g}",
                    file=sys.stderr,
                    flush=True,
                )
                if out is not None:
                    row = {"game": kind, "against": against, "seed": seed, "index": i}
                    out.write(json.dumps({**row, "playouts": playouts, "share": share}) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    return done


def match(shares: list[float]) -> dict[str, Any]:
    """A match's win rate and its 95% interval."""
    won = sum(shares)
    low, high = wilson(won, len(shares))
    return {"win_rate": won / len(shares), "low": low, "high": high, "games": len(shares)}


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
    parser.add_argument("--seeds", default="1,1001,2001", help="a match per seed; the median")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--results", type=Path, help="games played, kept and read back")
    args = parser.parse_args()
    kinds = args.game or ["splendor-duel", "splendor"]
    against = args.against.split(",")
    seeds = [int(s) for s in args.seeds.split(",")]
    tasks = [
        (kind, name, seed, i)
        for seed in seeds
        for kind in kinds
        for name in against
        for i in range(args.games)
    ]
    started = time.perf_counter()
    shares = play_all(tasks, args.playouts, args.jobs, args.results)
    figures: dict[str, Any] = {}
    for kind in kinds:
        out: dict[str, Any] = {"playouts_per_s": round(playout_rate(get_game(kind)), 1)}
        for name in against:
            matches = []
            for seed in seeds:
                m = match([shares[(kind, name, seed, i)] for i in range(args.games)])
                print(f"{kind} vs {name}, seed {seed}: {json.dumps(m)}", flush=True)
                matches.append(m)
            median = sorted(matches, key=lambda m: m["win_rate"])[len(matches) // 2]
            key = f"vs_{name}_win_rate"
            out[key] = round(median["win_rate"], 4)
            out[f"{key}_low"] = round(median["low"], 4)
            out[f"{key}_high"] = round(median["high"], 4)
            out[f"{key}_by_seed"] = [round(m["win_rate"], 4) for m in matches]
            out[f"vs_{name}_games"] = args.games
        out["playouts_a_decision"] = args.playouts
        out["seeds"] = seeds
        figures[kind] = out
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
