"""Golden figures that a refactoring must leave unchanged.

``python scripts/golden.py --write`` records, for 300 seeded random games of every
registered game kind, one hash over the position string of every step and the payload of
every event (``tests/engine/golden_hashes.json``); ``tests/engine/test_golden.py`` folds the
same games again and compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "engine" / "golden_hashes.json"
GAMES = 300


def game_hash(seed: int) -> str:
    """Hash of the seeded game's events and of the position after each of them."""
    from engine.splendor_duel import GAME, simulate
    from engine.splendor_duel.events import event_to_dict
    from engine.splendor_duel.position import position_string

    events = simulate.random_game(random.Random(seed))
    h = hashlib.sha256()
    for event in events:
        h.update(json.dumps(event_to_dict(event), sort_keys=True).encode())
    for state in GAME.states(events):
        h.update(position_string(state).encode())
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the figures")
    args = parser.parse_args()
    hashes = {"splendor-duel": [game_hash(seed) for seed in range(GAMES)]}
    if args.write:
        GOLDEN.write_text(json.dumps(hashes, indent=0) + "\n")
        print(f"wrote {GOLDEN.relative_to(ROOT)}")
    else:
        stored = json.loads(GOLDEN.read_text())
        print("identical" if stored == hashes else "DIFFERENT")


if __name__ == "__main__":
    main()
