"""The examples in the recorder's docstrings (and the text rendering's) run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "recorder",
    "recorder.io",
    "recorder.listing",
    "recorder.logbook",
    "recorder.lru",
    "recorder.sqlite",
    "recorder.places",
    "recorder.projections",
    "engine.splendor_duel.text",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
