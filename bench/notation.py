"""Notation speed: parse + validate throughput over seeded random games.

Each repeat reads a different set of seeded games (written once with the notation
writer), so the figure is for games the parser has not seen.  The parser keeps the events
of decision texts it has read (``take c2 c3 c4 =WWB`` always stands for the same event),
which a long-running process fills within a few hundred games; the first, cold repeat is
reported separately, after clearing it.  Ends by printing one JSON line.

    .venv/bin/python bench/notation.py [--games 300] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.splendor_duel import GAME, notation, simulate  # noqa: E402
from engine.splendor_duel.position import parse_position, position_string  # noqa: E402

HEADERS = {"players": ["Alice", "Bob"], "date": "2024-01-01"}


def texts_for(seeds: range) -> tuple[list[str], int]:
    texts, events = [], 0
    for seed in seeds:
        game_events = simulate.random_game(random.Random(seed))
        events += len(game_events)
        texts.append(notation.write_game(HEADERS, game_events))
    return texts, events


def parse_all(texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        parsed = notation.parse_game(text)
        if parsed.errors:
            raise SystemExit(f"unexpected error: {parsed.errors[0]}")
    return len(texts) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    n = args.games
    sets = [texts_for(range(10_000 + r * n, 10_000 + (r + 1) * n)) for r in range(args.repeats + 1)]
    events_per_game = sum(e for _, e in sets) / (n * len(sets))

    notation.GRAMMAR.cache.clear()
    cold = parse_all(sets[0][0])
    warm = [parse_all(texts) for texts, _ in sets[1:]]

    # For comparison: the rules alone (replaying the same games' events, checked).
    replay_sets = [notation.parse_game(t).events for t in sets[1][0]]
    start = time.perf_counter()
    for events in replay_sets:
        GAME.replay(events)
    replay_rate = len(replay_sets) / (time.perf_counter() - start)

    start = time.perf_counter()
    for events in replay_sets[:50]:
        notation.write_game(HEADERS, events)
    write_rate = 50 / (time.perf_counter() - start)

    states = [s for events in replay_sets[:20] for s in GAME.states(events)]
    start = time.perf_counter()
    for s in states:
        parse_position(position_string(s))
    position_rate = len(states) / (time.perf_counter() - start)

    print(
        json.dumps(
            {
                "bench": "notation",
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
