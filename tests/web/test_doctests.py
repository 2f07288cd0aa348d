"""The examples in the site's docstrings (and in the game view it draws) run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "web",
    "web.boards",
    "web.cache",
    "web.fragments",
    "web.images",
    "web.move_list",
    "web.verdict",
    "web.summary",
    "web.server",
    "engine.splendor_duel.view",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
