"""The pictures of positions (``GameRules.picture``): for every sample game of both games,
at many steps, the SVG is well-formed XML and holds what the position holds, read back
from the SVG's parts and compared with the engine's state; hostile names are drawn as
text and long ones cut."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.games import game_for_notation, get_game
from engine.picture import step_heading
from engine.splendor.catalogue import COLOR_LETTERS as CLASSIC_LETTERS
from engine.splendor_duel.catalogue import COLOR_LETTERS as DUEL_LETTERS
from engine.splendor_duel.catalogue import EMPTY, SPACE_NAMES

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "fixtures" / "games").glob("*.tl")) + sorted(
    (ROOT / "fixtures" / "splendor" / "games").glob("*.tl")
)
NS = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>"


@cache
def folded(path: Path) -> tuple[Any, list[Any]]:
    """The game's rules and its states, step 0 to the last."""
    text = path.read_text(encoding="utf-8")
    rules = game_for_notation(text)
    parsed = rules.read_game(text, str(path))
    assert parsed.ok, parsed.errors
    state = rules.new_state(parsed.names)
    states = [state.copy()]
    for event in parsed.events:
        rules.force(state, event)
        states.append(state.copy())
    return rules, states


def parts(root: ET.Element, name: str, **data: str) -> list[ET.Element]:
    """The groups ``data-part=name`` (with these ``data-*`` values) anywhere in ``root``."""
    found = []
    for g in root.iter(f"{NS}g"):
        if g.get("data-part") != name:
            continue
        if all(g.get(f"data-{k}") == v for k, v in data.items()):
            found.append(g)
    return found


def part(root: ET.Element, name: str, **data: str) -> ET.Element:
    found = parts(root, name, **data)
    assert len(found) == 1, (name, data, len(found))
    return found[0]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def numbers(el: ET.Element) -> list[int]:
    """The counts drawn in a row (a change written beside a count, ``+1``, left out)."""
    return [int(t) for t in texts(el) if t.isdigit()]


def steps_of(states: list[Any]) -> list[int]:
    last = len(states) - 1
    return sorted({0, 1, 2, last, *range(3, last, 9)})


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_picture_holds_the_position(path: Path) -> None:
    rules, states = folded(path)
    duel = rules.kind == "splendor-duel"
    for n in steps_of(states):
        state = states[n]
        before = states[n - 1] if n else None
        heading = step_heading(n, len(states) - 1, None, None, "")
        svg = rules.picture(state, before, heading)
        root = ET.fromstring(svg.encode())
        where = f"{path.name} step {n}"
        assert root.tag == f"{NS}svg", where
        assert int(root.get("width")) == 1200, where
        head = texts(part(root, "heading"))
        assert head[0].startswith(" vs ".join(state.names)) and head[1] == heading, where
        assert texts(part(root, "due"))[0][2:] == rules.status(state).due, where
        changed = " ".join(texts(part(root, "changes")))
        if before is not None:
            due = rules.status(state).due
            lines = [x for x in rules.changes(before, state) if x != f"next: {due}"]
            for line in lines if len(lines) <= 8 else lines[:7]:
                assert line[:30] in changed, (where, line)
        for seat, p in enumerate(state.players):
            panel = part(root, "player", seat=str(seat))
            assert state.names[seat] in texts(panel), where
            target = 20 if duel else 15
            assert f"{p.points} / {target}" in texts(part(panel, "points")), where
            assert numbers(part(panel, "tokens")) == list(p.tokens), where
            assert numbers(part(panel, "bonuses")) == list(p.bonuses)[:5], where
            shown = [c.get("data-card") for c in parts(part(panel, "reserved"), "card")]
            hidden = parts(part(panel, "reserved"), "card-back")
            assert shown == [cid for _, cid in p.reserved if cid is not None], where
            assert len(hidden) == sum(1 for _, cid in p.reserved if cid is None), where
            if duel:
                assert f"{p.crowns} / 10" in texts(part(panel, "crowns")), where
                assert part(panel, "privileges").get("data-n") == str(p.privileges), where
                royals = [r.get("data-royal") for r in parts(part(panel, "royals"), "royal")]
                assert royals == list(p.royals), where
            else:
                nobles = [x.get("data-noble") for x in parts(part(panel, "nobles"), "noble")]
                assert nobles == list(p.nobles), where
        if duel:
            _check_duel_table(root, state, where)
        else:
            _check_classic_table(root, state, where)


def _check_duel_table(root: ET.Element, state: Any, where: str) -> None:
    cards = parts(part(root, "pyramid"), "card")
    on_table = [cid for row in reversed(state.pyramid) for cid in row if cid is not None]
    assert [c.get("data-card") for c in cards] == on_table, where
    for c in cards:
        assert c.get("data-card") in texts(c), where
    for index, name in enumerate(SPACE_NAMES):
        letters = [t for t in texts(part(root, "space", space=name)) if t.isalpha()]
        held = state.board[index]
        if held != EMPTY:
            assert letters == [DUEL_LETTERS[held]], (where, name)
    table = part(root, "table-privileges")
    assert table.get("data-n") == str(state.table_privileges), where
    assert [r.get("data-royal") for r in parts(part(root, "table-royals"), "royal")] == list(
        state.royals
    ), where
    assert str(sum(state.bag)) in texts(part(root, "bag")), where


def _check_classic_table(root: ET.Element, state: Any, where: str) -> None:
    cards = parts(part(root, "display"), "card")
    shown = [cid for row in reversed(state.display) for cid in row if cid is not None]
    assert [c.get("data-card") for c in cards] == shown, where
    for c in cards:
        assert c.get("data-card") in texts(c), where
    bank = part(root, "bank")
    assert numbers(bank) == list(state.bank), where
    assert [t for t in texts(bank) if t.isalpha()] == list(CLASSIC_LETTERS), where
    nobles = [n.get("data-noble") for n in parts(part(root, "table-nobles"), "noble")]
    assert nobles == list(state.nobles), where


@pytest.mark.parametrize("kind", ["splendor-duel", "splendor"])
def test_hostile_and_long_names_are_drawn_as_text(kind: str) -> None:
    rules = get_game(kind)
    path = next(p for p in SAMPLES if game_for_notation(p.read_text()).kind == kind)
    _, states = folded(path)
    state = states[len(states) // 2].copy()
    odd = "Bob & <b>Co</b>\x01\u202e"
    long = "Annabelle-" * 20
    state.names = (HOSTILE, odd, long, *state.names[3:])[: len(state.names)]
    svg = rules.picture(state, None, f"Step 1 · {HOSTILE}")
    assert "<script" not in svg and "<b>" not in svg
    root = ET.fromstring(svg.encode())
    everything = texts(root)
    assert HOSTILE in everything
    assert "Bob & <b>Co</b>\ufffd\ufffd" in everything
    if len(state.names) > 2:
        cut = [t for t in everything if t.startswith("Annabelle-")]
        assert cut and all(t.endswith("…") and len(t) < 60 for t in cut)
    assert any(HOSTILE in t for t in texts(part(root, "heading")))


def test_a_classic_picture_grows_with_the_seats() -> None:
    rules = get_game("splendor")
    heights = []
    for names in (["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D"]):
        root = ET.fromstring(rules.picture(rules.new_state(names)).encode())
        heights.append(int(root.get("height")))
        assert len(parts(root, "player")) == len(names)
    assert heights[0] < heights[1] == heights[2]
