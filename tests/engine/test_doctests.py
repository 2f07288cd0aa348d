"""The examples in the engine's docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.decks",
    "engine.corrections",
    "engine.errors",
    "engine.fold",
    "engine.games",
    "engine.notation.grammar",
    "engine.notation.lexer",
    "engine.notation.visitor",
    "engine.picture",
    "engine.splendor.notation",
    "engine.splendor.picture",
    "engine.splendor_duel",
    "engine.splendor_duel.catalogue",
    "engine.splendor_duel.events",
    "engine.splendor_duel.game",
    "engine.splendor_duel.lookup",
    "engine.splendor_duel.notation",
    "engine.splendor_duel.picture",
    "engine.splendor_duel.rules",
    "engine.splendor_duel.rules.moves",
    "engine.splendor_duel.simulate",
    "engine.splendor_duel.state",
    "engine.splendor_duel.text",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_engine_has_examples():
    attempted = sum(
        doctest.testmod(importlib.import_module(name), report=False).attempted for name in MODULES
    )
    assert attempted >= 20
