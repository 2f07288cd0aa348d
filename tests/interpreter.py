"""A fresh interpreter, for what a command pays for in imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules_after(code: str, package: str) -> list[str]:
    """The modules of ``package`` that a fresh interpreter has imported once it has run
    ``code`` (which must succeed) at the project's root."""
    listing = (
        f"\nimport sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] == {package!r}))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code + listing], cwd=ROOT, capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stderr
    return ast.literal_eval(ran.stdout.strip().splitlines()[-1])
