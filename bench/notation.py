"""Notation speed: parse + validate throughput over seeded random games.

Each repeat reads a different set of seeded games (written once with the notation
writer), so the figure is for games the parser has not seen.  The parser keeps the events
of decision texts it has read (``take c2 c3 c4 =WWB`` always stands for the same event),
which a long-running process fills within a few hundred games; the first, cold repeat is
reported separately, after clearing it.  ``--game`` names the game (Splendor Duel by
default; ``splendor`` for classic Splendor, three players).  Ends by printing one JSON
line.

    .venv/bin/python bench/notation.py [--game splendor-duel] [--games 300] [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Each game: its package (rules, notation, simulator, positions) and the seats named.
GAMES = {
    "splendor-duel": ("engine.splendor_duel", ["Alice", "Bob"]),
    "splendor": ("engine.splendor", ["Alice", "Bob", "Cid"]),
}


def package_of(kind: str) -> tuple[Any, list[str]]:
    """The game's package, its notation, simulator and positions imported, and its seats."""
    name, names = GAMES[kind]
    for module in ("notation", "simulate", "position"):
        importlib.import_module(f"{name}.{module}")
    return importlib.import_module(name), names


def texts_for(package: Any, names: list[str], seeds: range) -> tuple[list[str], int]:
    headers = {"players": names, "date": "2024-01-01"}
    texts, events = [], 0
    for seed in seeds:
        game_events = package.simulate.random_game(random.Random(seed), names)
        events += len(game_events)
        texts.append(package.notation.write_game(headers, game_events))
    return texts, events


def parse_all(package: Any, texts: list[str]) -> float:
    parse_game = package.notation.parse_game
    start = time.perf_counter()
    for text in texts:
        parsed = parse_game(text)
        if parsed.errors:
            raise SystemExit(f"unexpected error: {parsed.errors[0]}")
    return len(texts) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--game", choices=sorted(GAMES), default="splendor-duel")
    parser.add_argument("--games", type=int, default=300, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    package, names = package_of(args.game)
    game, notation = package.GAME, package.notation
    headers = {"players": names, "date": "2024-01-01"}
    n = args.games
    sets = [
        texts_for(package, names, range(10_000 + r * n, 10_000 + (r + 1) * n))
        for r in range(args.repeats + 1)
    ]
    events_per_game = sum(e for _, e in sets) / (n * len(sets))

    notation.GRAMMAR.cache.clear()
    cold = parse_all(package, sets[0][0])
    warm = [parse_all(package, texts) for texts, _ in sets[1:]]

    # For comparison: the rules alone (replaying the same games' events, checked).
    replay_sets = [notation.parse_game(t).events for t in sets[1][0]]
    start = time.perf_counter()
    for events in replay_sets:
        game.replay(events, names)
    replay_rate = len(replay_sets) / (time.perf_counter() - start)

    start = time.perf_counter()
    for events in replay_sets[:50]:
        notation.write_game(headers, events)
    write_rate = 50 / (time.perf_counter() - start)

    states = [s for events in replay_sets[:20] for s in game.states(events, names)]
    start = time.perf_counter()
    for s in states:
        package.position.parse_position(package.position.position_string(s))
    position_rate = len(states) / (time.perf_counter() - start)

    print(
        json.dumps(
            {
                "bench": "notation",
                "game": args.game,
                "parse_validate_games_per_s": round(statistics.median(warm), 1),
                "parse_validate_games_per_s_repeats": [round(x, 1) for x in warm],
                "parse_validate_games_per_s_cold": round(cold, 1),
                "games_per_repeat": n,
                "events_per_game": round(events_per_game, 1),
                "replay_only_games_per_s": round(replay_rate, 1),
                "write_games_per_s": round(write_rate, 1),
                "position_round_trips_per_s": round(position_rate, 1),
                "target_games_per_s": 2000,
            }
        )
    )


if __name__ == "__main__":
    main()
