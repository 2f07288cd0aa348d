"""Speed of a game engine: playouts, folds and legal-move generation.

Usage: python bench/engine.py [--game splendor-duel|splendor] [--repeats N] [--games N]

The default is Splendor Duel; ``--game splendor`` measures classic Splendor (playouts of
2 and 4 players, the checked fold and legal moves of 2-player games), with its own keys.

Prints readable figures, then ONE JSON line with every figure.  Each figure is the median
of several repeats over the same seeded games, so two runs on one machine are comparable:

* ``playouts``: complete random games (simulate.random_game), games/s and events/s;
* ``fold_checked``: rebuilding a game's final state from its events with full rule
  checking (game.replay), games/s and events/s;
* ``fold_unchecked``: the same fold without checks (game.apply);
* ``legal_moves``: calls/s of game.legal_moves on states where a mandatory action is due.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.splendor_duel import GAME, game, simulate  # noqa: E402
from engine.splendor_duel.state import ACTION, State  # noqa: E402


def _median_rate(run: Callable[[], int], repeats: int) -> tuple[float, float]:
    """Run ``run`` ``repeats`` times; it returns how many units it did.  Returns the median
    units per second and the median seconds per repeat."""
    rates, times = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        units = run()
        elapsed = time.perf_counter() - start
        rates.append(units / elapsed)
        times.append(elapsed)
    return statistics.median(rates), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="repeats per figure (median)")
    parser.add_argument("--games", type=int, default=200, help="seeded games per repeat")
    parser.add_argument("--game", default="splendor-duel", choices=("splendor-duel", "splendor"))
    args = parser.parse_args()
    repeats, n_games = args.repeats, args.games
    if args.game == "splendor":
        _classic(repeats, n_games)
        return

    seeds = list(range(n_games))
    games = [simulate.random_game(random.Random(seed)) for seed in seeds]
    n_events = sum(len(events) for events in games)
    per_game = n_events / n_games

    def playouts() -> int:
        for seed in seeds:
            simulate.random_game(random.Random(seed))
        return n_games

    def fold_checked() -> int:
        for events in games:
            GAME.replay(events)
        return n_games

    def fold_unchecked() -> int:
        apply = game.apply
        for events in games:
            state = State()
            for event in events:
                apply(state, event)
        return n_games

    # States where the mandatory action is due (awaiting the turn's action), copied out of
    # the folds so every call sees a realistic position.
    positions: list[State] = []
    for events in games[:50]:
        for i, state in enumerate(GAME.states(events)):
            if state.awaiting == ACTION and i % 2 == 0:
                positions.append(state)
    calls_per_repeat = max(20_000, len(positions))

    def legal_moves() -> int:
        lm = game.legal_moves
        done = 0
        while done < calls_per_repeat:
            for state in positions:
                lm(state)
            done += len(positions)
        return done

    figures: dict[str, object] = {
        "python": platform.python_version(),
        "repeats": repeats,
        "games": n_games,
        "events_per_game": round(per_game, 1),
        "legal_moves_positions": len(positions),
    }
    print(f"Splendor Duel engine, Python {platform.python_version()}, median of {repeats} repeats")
    print(f"{n_games} seeded random games, {per_game:.1f} events per game on average")

    rate, _ = _median_rate(playouts, repeats)
    figures["playouts_games_per_s"] = round(rate, 1)
    figures["playouts_events_per_s"] = round(rate * per_game)
    print(f"random playouts     {rate:10,.0f} games/s  {rate * per_game:12,.0f} events/s")

    rate, _ = _median_rate(fold_checked, repeats)
    figures["fold_checked_games_per_s"] = round(rate, 1)
    figures["fold_checked_events_per_s"] = round(rate * per_game)
    print(f"fold, rules checked {rate:10,.0f} games/s  {rate * per_game:12,.0f} events/s")

    rate, _ = _median_rate(fold_unchecked, repeats)
    figures["fold_unchecked_games_per_s"] = round(rate, 1)
    figures["fold_unchecked_events_per_s"] = round(rate * per_game)
    print(f"fold, unchecked     {rate:10,.0f} games/s  {rate * per_game:12,.0f} events/s")

    rate, _ = _median_rate(legal_moves, repeats)
    figures["legal_moves_calls_per_s"] = round(rate)
    print(f"legal_moves         {rate:10,.0f} calls/s on {len(positions)} action positions")

    print(json.dumps(figures, sort_keys=True))


def _classic(repeats: int, n_games: int) -> None:
    """The figures of classic Splendor (floors: 600 two-player playouts/s, 3,000 checked
    folds/s, 100,000 legal-move calls/s)."""
    from engine.splendor import GAME as classic
    from engine.splendor import simulate as classic_sim
    from engine.splendor.state import ACTION as CLASSIC_ACTION

    seeds = list(range(n_games))
    figures: dict[str, object] = {
        "game": "splendor",
        "python": platform.python_version(),
        "repeats": repeats,
        "games": n_games,
    }
    print(f"Splendor engine, Python {platform.python_version()}, median of {repeats} repeats")
    two: list[list[object]] = []
    for players in (2, 4):
        games = [classic_sim.random_game(random.Random(s), players=players) for s in seeds]
        if players == 2:
            two = games  # type: ignore[assignment]
        per_game = sum(map(len, games)) / n_games

        def playouts(players: int = players) -> int:
            for seed in seeds:
                classic_sim.random_game(random.Random(seed), players=players)
            return n_games

        rate, _ = _median_rate(playouts, repeats)
        figures[f"playouts_{players}p_games_per_s"] = round(rate, 1)
        figures[f"events_per_game_{players}p"] = round(per_game, 1)
        print(f"random playouts, {players}p {rate:10,.0f} games/s  {per_game:6.1f} events/game")

    def fold_checked() -> int:
        for events in two:
            classic.replay(events)  # type: ignore[arg-type]
        return n_games

    rate, _ = _median_rate(fold_checked, repeats)
    figures["fold_checked_games_per_s"] = round(rate, 1)
    print(f"fold, rules checked  {rate:10,.0f} games/s")

    positions = [
        state
        for events in two[:50]
        for i, state in enumerate(classic.states(events))  # type: ignore[arg-type]
        if state.awaiting == CLASSIC_ACTION and i % 2 == 0
    ]
    calls = max(20_000, len(positions))

    def legal_moves() -> int:
        lm = classic.legal_moves
        done = 0
        while done < calls:
            for state in positions:
                lm(state)
            done += len(positions)
        return done

    rate, _ = _median_rate(legal_moves, repeats)
    figures["legal_moves_calls_per_s"] = round(rate)
    figures["legal_moves_positions"] = len(positions)
    print(f"legal_moves          {rate:10,.0f} calls/s on {len(positions)} action positions")
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
