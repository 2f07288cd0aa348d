"""The examples in the package's docstrings run as they read."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import coloretto
import pytest

MODULES = sorted(m.name for m in pkgutil.walk_packages(coloretto.__path__, prefix="coloretto.")) + [
    "coloretto"
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
