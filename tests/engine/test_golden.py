"""300 seeded random games fold to the same events and positions as when the figures in
``golden_hashes.json`` were recorded (``python scripts/golden.py --write``, before the
game interface was reorganised): a refactoring of the engine changes no game."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "engine" / "golden_hashes.json").read_text())


def _golden_module():
    spec = importlib.util.spec_from_file_location("golden", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("block", range(6))
def test_seeded_games_are_unchanged(block):
    golden = _golden_module()
    seeds = range(block * 50, (block + 1) * 50)
    assert [golden.game_hash(s) for s in seeds] == GOLDEN["splendor-duel"][seeds.start : seeds.stop]
