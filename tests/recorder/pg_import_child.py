"""An importer for the PostgreSQL fault tests.

    python pg_import_child.py URL GAMES BATCH

Imports GAMES seeded random games (seeds 1..GAMES) in batches of BATCH, printing
``ack GAME_ID EVENTS`` for each game of a committed batch.  A store error (the server
gone) is printed on stderr as its message alone, exit 1.
"""

from __future__ import annotations

import random
import sys

from engine.splendor_duel import simulate
from recorder import StoreError, open_store
from recorder.io import game_import_from_events


def main() -> None:
    url, games, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    records = [
        game_import_from_events(
            simulate.random_game(random.Random(seed)), {"players": ["Ann", "Bo"]}
        )
        for seed in range(1, games + 1)
    ]
    print("ready", flush=True)
    try:
        with open_store(url) as store:
            for start in range(0, games, batch):
                for result in store.import_games(records[start : start + batch]):
                    print(f"ack {result.game_id} {result.events}", flush=True)
    except StoreError as err:
        print(err, file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
