"""An import with two checking processes in an interpreter of its own, where no other
thread runs, so that they are forked (in a test process, a thread an earlier test left
running would have them spawned):

    python pooled_child.py DB

Imports :func:`pooled_records` into DB, five games a transaction, and prints one JSON
line: each result's :func:`summary` and the progress reported after each batch.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import replace
from typing import Any

from engine.splendor_duel import simulate
from recorder import EventStore, GameImport, ImportRejected, ImportResult, pipeline
from recorder.io import game_import_from_events

CLOCK = "2024-05-01T20:15:03.123Z"


def pooled_records() -> list[GameImport]:
    """24 games: one still in play, one with an event the rules refuse (its 31st)."""
    records = [
        game_import_from_events(
            tuple(simulate.random_game(random.Random(seed))),
            {"players": ["Ann", "Bo"], "date": f"2024-05-{seed:02d}"},
        )
        for seed in range(1, 25)
    ]
    records[7] = replace(records[7], events=records[7].events[:40])
    bad = list(records[11].events)
    bad[30] = bad[0]
    records[11] = replace(records[11], events=bad)
    return records


def summary(result: ImportResult | ImportRejected) -> list[Any]:
    if isinstance(result, ImportRejected):
        return ["rejected", str(result), result.event_number]
    return ["created" if result.created else "stored", result.game_id, result.events]


def main() -> None:
    assert pipeline.fork_is_safe(), "another thread runs: the processes would be spawned"
    seen: list[int] = []
    with EventStore.open(sys.argv[1], clock=lambda: CLOCK) as store:
        results = store.import_games(
            pooled_records(), batch_size=5, workers=2, progress=seen.append
        )
    print(json.dumps({"summaries": [summary(r) for r in results], "seen": seen}))


if __name__ == "__main__":
    main()
