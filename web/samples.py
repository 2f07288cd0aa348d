"""Sample games for an empty database: the repository's ``fixtures/games`` files, or,
when there are none that load, a handful of seeded simulated games."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.games import DEFAULT_KIND, get_game
from recorder import ImportRejected, StoreError
from recorder import io as recorder_io

log = logging.getLogger("tablelog.web")

#: The repository's sample games.
FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "games"
#: Where ``tablelog serve`` finds its sample games: every game's fixtures (``fixtures/games``
#: and each game's own ``fixtures/<game>/games``).
SAMPLE_DIRS = (FIXTURES_DIR, *sorted(FIXTURES_DIR.parent.glob("*/games")))

#: Who plays the simulated games: each game seats the next few, in turn.
SIMULATED_PLAYERS = (
    "Ada",
    "Blaise",
    "Chiara",
    "Dmitri",
    "Emeka",
    "Fumiko",
    "Gaspard",
    "Hana",
    "Ines",
    "Jonas",
    "Kalani",
    "Lea",
)


def sample_files(folder: Path) -> list[Path]:
    """The sample game files in ``folder`` (``*.tl`` then ``*.json``), sorted by name."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.tl")) + sorted(folder.glob("*.json"))


def simulated_game(
    seed: int, players: Sequence[str] | None = None, kind: str = DEFAULT_KIND
) -> Any:
    """A GameImport of the seeded random game ``seed`` of ``kind`` (as many players as
    it seats at least, named from :data:`SIMULATED_PLAYERS` unless ``players`` are given)."""
    rules = get_game(kind)
    if players is None:
        n = rules.seats.minimum
        first = seed % (len(SIMULATED_PLAYERS) // n) * n
        players = SIMULATED_PLAYERS[first : first + n]
    names = rules.seats.names(players)
    headers = {
        "players": list(names),
        "date": f"2024-{1 + seed % 12:02d}-{1 + seed % 28:02d}",
        "event": f"Simulated game (seed {seed})",
        "place": "tablelog",
    }
    events = rules.random_game(random.Random(seed), names)
    return recorder_io.game_import_from_events(events, headers, kind=kind)


def ensure_sample_games(
    store: Any,
    folder: Path | Sequence[Path] = SAMPLE_DIRS,
    *,
    simulated: int = 6,
    say: Callable[[str], None] = log.info,
) -> int:
    """Load sample games into ``store`` when it holds no game; returns how many were added.

    Every fixture file that loads is imported; a file that does not is reported through
    ``say`` and skipped.  If no fixture could be imported, ``simulated`` seeded random
    games are added instead.
    """
    if store.listing.count(at_most=0) > 0:  # (one game is enough to know)
        return 0
    added = 0
    folders = [folder] if isinstance(folder, Path) else list(folder)
    files = [path for f in folders for path in sample_files(f)]
    if not files:
        say(f"no sample games in {', '.join(map(str, folders))}")
    for path in files:
        try:
            records = recorder_io.load_file(path)
        except (EngineError, StoreError, ValueError, OSError) as exc:
            say(f"skipped sample {path.name}: {exc}")
            continue
        for record in records:
            try:
                store.import_game(record)
            except (ImportRejected, EngineError, StoreError) as exc:
                say(f"skipped a game of {path.name}: {exc}")
                continue
            added += 1
    if added:
        where = ", ".join(map(str, folders))
        say(f"loaded {added} sample game{'s' if added != 1 else ''} from {where}")
        return added
    for seed in range(1, simulated + 1):
        store.import_game(simulated_game(seed))
        added += 1
    say(f"loaded {added} simulated sample games instead")
    return added
