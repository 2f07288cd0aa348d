"""Engine tests: make the position-building helper (duel_positions.py) importable.

The suite runs with ``--import-mode=importlib``, where test modules cannot import their
neighbours by name; this folder is put on ``sys.path`` instead.
"""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
