"""The Splendor Duel catalogue: the verified totals of reference/SOURCES.md, asserted on
the engine's own catalogue, and the generated module checked against the reference."""

from __future__ import annotations

import importlib.util
import os
from collections import Counter
from pathlib import Path

import pytest

from engine.splendor_duel import catalogue, catalogue_data
from engine.splendor_duel.catalogue import (
    CARDS,
    COLOR_NAMES,
    GEMS,
    PEARL,
    ROYALS,
    SEGMENTS,
    SPIRAL_SPACES,
    TOKEN_COUNTS,
    space_index,
    space_name,
)

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "reference"


def by_level(values: Counter[int]) -> list[int]:
    return [values[1], values[2], values[3]]


def test_67_cards_30_24_13_by_level():
    assert len(CARDS) == 67
    assert by_level(Counter(c.level for c in CARDS.values())) == [30, 24, 13]


def test_each_gem_colour_has_11_cards_5_4_2_by_level():
    for color in GEMS:
        cards = [c for c in CARDS.values() if c.color == color]
        assert len(cards) == 11, COLOR_NAMES[color]
        assert by_level(Counter(c.level for c in cards)) == [5, 4, 2]


def test_9_jokers_and_3_cards_without_bonus():
    jokers = [c for c in CARDS.values() if c.is_joker]
    assert by_level(Counter(c.level for c in jokers)) == [4, 3, 2]
    plain = [c for c in CARDS.values() if c.color is None and not c.is_joker]
    assert sorted((c.level, c.points) for c in plain) == [(1, 3), (2, 5), (3, 6)]


def test_points_11_37_44_and_14_per_colour():
    points: Counter[int] = Counter()
    for c in CARDS.values():
        points[c.level] += c.points
    assert by_level(points) == [11, 37, 44] and sum(points.values()) == 92
    for color in GEMS:
        assert sum(c.points for c in CARDS.values() if c.color == color) == 14
    assert sum(c.points for c in CARDS.values() if c.is_joker) == 8
    assert sum(c.points for c in CARDS.values() if c.bonus == 0) == 14


def test_crowns_6_9_13():
    crowns: Counter[int] = Counter()
    for c in CARDS.values():
        crowns[c.level] += c.crowns
    assert by_level(crowns) == [6, 9, 13] and sum(crowns.values()) == 28


def test_bonus_counts_59_ones_5_twos_3_zeros():
    assert Counter(c.bonus for c in CARDS.values()) == {1: 59, 2: 5, 0: 3}
    doubles = [c for c in CARDS.values() if c.bonus == 2]
    assert all(c.level == 2 for c in doubles)
    assert sorted(c.color for c in doubles) == sorted(GEMS)  # type: ignore[type-var]


def test_abilities():
    names = Counter("+".join(c.abilities) or "none" for c in CARDS.values())
    assert names == {
        "none": 38,
        "again": 5,
        "token": 5,
        "steal": 5,
        "privilege": 5,
        "wild": 8,
        "wild+again": 1,
    }
    assert CARDS["3-11"].abilities == ("wild", "again")


def test_pearl_costs_and_largest_cost():
    with_pearl = [c for c in CARDS.values() if c.cost[PEARL]]
    assert by_level(Counter(c.level for c in with_pearl)) == [10, 14, 5]
    assert max(max(c.cost) for c in CARDS.values()) == 8
    assert all(c.color != PEARL for c in CARDS.values())  # no Pearl bonus


def test_four_royal_cards():
    assert sorted((r.points, r.ability or "none") for r in ROYALS.values()) == [
        (2, "again"),
        (2, "privilege"),
        (2, "steal"),
        (3, "none"),
    ]


def test_board_spiral_tokens_and_privileges():
    assert sorted(SPIRAL_SPACES) == list(range(25))
    assert space_name(SPIRAL_SPACES[0]) == "c3" and space_name(SPIRAL_SPACES[-1]) == "e5"
    for a, b in zip(SPIRAL_SPACES, SPIRAL_SPACES[1:], strict=False):
        (ra, ca), (rb, cb) = divmod(a, 5), divmod(b, 5)
        assert abs(ra - rb) + abs(ca - cb) == 1  # orthogonally adjacent
    assert TOKEN_COUNTS == (4, 4, 4, 4, 4, 2, 3) and sum(TOKEN_COUNTS) == 25
    assert catalogue.PRIVILEGES == 3
    assert catalogue.PYRAMID_SIZES == (5, 4, 3)
    assert catalogue.ROYAL_CROWN_THRESHOLDS == (3, 6)
    assert (catalogue.VICTORY_POINTS, catalogue.VICTORY_CROWNS) == (20, 10)
    assert catalogue.VICTORY_COLOR_POINTS == 10 and catalogue.MAX_TOKENS == 10


def test_space_names_a1_top_left_e5_bottom_right():
    assert space_index("a1") == 0 and space_index("e1") == 4
    assert space_index("a5") == 20 and space_index("e5") == 24 and space_index("c3") == 12


def test_145_straight_lines_of_one_to_three_spaces():
    assert len(SEGMENTS) == 145
    assert Counter(len(s) for s in SEGMENTS) == {1: 25, 2: 72, 3: 48}


def _reference_or_skip() -> Path:
    if REFERENCE.is_dir():
        return REFERENCE
    if os.environ.get("CI") == "true":
        pytest.fail(f"the reference data is missing: {REFERENCE}")
    pytest.skip(f"no reference data beside the repository ({REFERENCE})")


def test_generated_catalogue_matches_the_reference():
    """catalogue_data.py is exactly what scripts/build_catalogue.py makes from
    ../shared/reference."""
    reference = _reference_or_skip()
    spec = importlib.util.spec_from_file_location(
        "build_catalogue", ROOT / "scripts" / "build_catalogue.py"
    )
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    generated = Path(catalogue_data.__file__).read_text(encoding="utf-8")
    assert build.render(reference) == generated
