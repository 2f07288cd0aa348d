"""One of the racing writers: append the next event of a seeded game until it is over.

    python race_child.py SPEC GAME_ID SEED WORKER

Each append says which sequence it expects; a ConcurrencyError means another writer got
there first, so the child reloads and tries the next position.  Every acknowledged append
is printed as ``ack SEQUENCE EVENT_ID``.
"""

from __future__ import annotations

import random
import sys

from store_spec import open_store_spec as open_store

from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate
from recorder import ConcurrencyError


def main() -> None:
    spec, game_id, seed, worker = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    payloads = [ev.event_to_dict(e) for e in simulate.random_game(random.Random(seed))]
    with open_store(spec) as store:
        while True:
            n = store.game(game_id).event_count
            if n >= len(payloads):
                break
            event_id = f"w{worker}-{n + 1}"
            try:
                result = store.append(game_id, n, [payloads[n]], event_ids=[event_id])
            except ConcurrencyError:
                continue
            print(f"ack {result.last_sequence} {event_id}", flush=True)


if __name__ == "__main__":
    main()
