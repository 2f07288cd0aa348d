"""A game's members placed in its own modules (:attr:`engine.contract.Game.members`):
looked up on first use, then kept on the class, and a wrong placing refused when the
class is made."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from engine.contract import Game
from engine.splendor import Splendor


def test_a_placed_member_is_imported_on_first_use_and_then_kept_on_the_class() -> None:
    script = textwrap.dedent(
        """
        import random, sys
        from engine.splendor_duel import GAME, SplendorDuel
        setup = GAME.random_game(random.Random(1))[0]
        assert "engine.splendor_duel.notation" not in sys.modules
        assert type(vars(SplendorDuel)["move_text"]).__name__ == "_Member"
        text = GAME.move_text(GAME.new_state(), setup)
        assert text.startswith("setup"), text
        assert "engine.splendor_duel.notation" in sys.modules
        from engine.splendor_duel.notation import move_text
        assert vars(SplendorDuel)["move_text"].__func__ is move_text
        assert GAME.move_text is move_text
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_a_member_the_contract_does_not_name_is_refused() -> None:
    with pytest.raises(TypeError, match="'move_txt' is no member of a game"):
        type("Typo", (Game,), {"__module__": __name__, "members": {"move_txt": "notation:x"}})


def test_a_member_both_defined_and_placed_is_refused() -> None:
    def position(self: Game, state: object) -> str:
        return ""

    body = {"__module__": __name__, "position": position, "members": {"position": "p:f"}}
    with pytest.raises(TypeError, match="'position' is also defined in the class"):
        type("Twice", (Game,), body)


@pytest.mark.parametrize("place", ["notation", "notation:", ":move_text", "notation:a.b"])
def test_a_place_not_written_module_colon_function_is_refused(place: str) -> None:
    with pytest.raises(TypeError, match="not at 'module:function'"):
        type("Nowhere", (Game,), {"__module__": __name__, "members": {"position": place}})


def test_a_subclass_finds_the_members_its_base_placed() -> None:
    """A game built on another game's class keeps the members the base placed (they are
    the base's modules': the class that names a place is the package it is read in)."""
    derived = type("Derived", (Splendor,), {"__module__": __name__})()
    state = derived.new_state(["Ann", "Bob"])
    assert derived.position(state).split()[0] == "splendor"
    assert derived.legal_move_texts(state) == []
