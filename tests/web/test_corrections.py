"""The replay of a game with corrections: the moves taken back struck through, the
correction a step of its own, and every step the store's state."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from engine.games import get_game
from recorder import EventStore
from recorder.logbook import undo
from web import create_app
from web.timeline import build

RULES = get_game("splendor-duel")


def test_retracted_moves_are_struck_through_and_the_correction_is_a_step(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    events = RULES.random_game(random.Random(21))
    with EventStore.open(db) as store:
        gid = store.create_game({"players": ["Ann", "Bo"]}).id
        store.append(gid, 0, [RULES.event_to_dict(e) for e in events[:20]])
        back_to = undo(store, gid, to=15).events[0].back_to
        store.append(gid, 21, [RULES.event_to_dict(e) for e in events[15:18]])
        positions = [RULES.position(store.state_at(gid, step)) for step in range(25)]
    client: Any = create_app({"DATABASE": str(db), "TESTING": True}).test_client()
    html = client.get(f"/games/{gid}/step/21").get_data(as_text=True)
    retracted = {
        int(s) for s in re.findall(r'<li id="m(\d+)"[^>]*><a [^>]*class="retracted"', html)
    }
    assert retracted == set(range(back_to + 1, 21))
    assert re.search(r'<li id="m21"[^>]*><a [^>]*class="correction"[^>]*>undo to 15<', html)
    with EventStore.open(db) as store:
        timeline = build(store.game(gid), store.events(gid))
    assert [RULES.position(timeline.state(s)) for s in range(25)] == positions
    # the correction is told on the turn it returns to, as the status after it says, and
    # the move list groups it with the turn played again
    undo_entry = timeline.entries[20]
    assert undo_entry.correction
    assert undo_entry.turn == RULES.status(timeline.state(21)).turn
    assert undo_entry.turn == timeline.entries[21].turn  # the first step played again
    group = re.search(
        r'<li class="turn[^"]*"><span class="tno">(\d+)</span>(?:(?!</ol>).)*?id="m21"', html, re.S
    )
    assert group and int(group.group(1)) == undo_entry.turn
    # the undo says where the game stands again; a step it took back says which undo
    assert "Undo: the game stands again as after step 15." in html
    taken = client.get(f"/games/{gid}/step/18").get_data(as_text=True)
    assert "Taken back by the undo of step 21." in taken
    kept = client.get(f"/games/{gid}/step/15").get_data(as_text=True)
    assert "Taken back" not in kept
