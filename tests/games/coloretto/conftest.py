"""The Coloretto package's tests import it from this folder (until the registry installs
it by its entry point): the folder is put on ``sys.path``."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
