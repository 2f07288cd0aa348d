"""A turn line in either game's notation, as a file cut short leaves it."""

from __future__ import annotations

from pathlib import Path

from engine.games import get_game

ROOT = Path(__file__).resolve().parents[2]


def test_a_turn_line_without_a_decision_is_refused_in_both_games():
    """A file cut short after a turn's number or player (``9. Eli:``) is not an unfinished
    game: both readers refuse the line, at its end, saying what is missing."""
    for path in (
        ROOT / "fixtures" / "splendor" / "games" / "three-players.tl",
        ROOT / "fixtures" / "games" / "dispute.tl",
    ):
        lines = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith(("[Result", "[Victory"))
        ]
        cut = next(i for i, line in enumerate(lines) if line.startswith("9. "))
        name = lines[cut].split(":")[0][3:]
        rules = get_game("splendor" if "splendor" in path.parts else "splendor-duel")
        whole = "\n".join(lines[:cut]) + "\n"
        assert rules.read_game(whole).ok
        for last, after in (
            (f"9. {name}: ", f"the player's name ({name})"),
            ("9.", "the turn number"),
        ):
            parsed = rules.read_game(whole + last + "\n")
            (error,) = parsed.errors
            assert error.line == cut + 1 and error.column == len(last.rstrip()) + 1, str(error)
            assert f"turn 9 has no decision: the line ends after {after}" in error.message
