"""The replay page shows the game's head (short form) at its last step, where the
result is told, for players to keep (docs/integrity.md)."""

from __future__ import annotations

from typing import Any


def test_the_last_step_shows_the_head_and_earlier_steps_do_not(
    client: Any, store: Any, games: Any
) -> None:
    for game_id in (games.simulated[0], games.illegal):
        row = store.game(game_id)
        assert len(row.head) == 64
        last = client.get(f"/games/{game_id}/step/{row.event_count}")
        assert last.status_code == 200
        html = last.get_data(as_text=True)
        status = html.split('<section class="status', 1)[1].split("</section>", 1)[0]
        assert f'Head <code title="{row.head}">{row.head[:12]}</code>' in status
        earlier = client.get(f"/games/{game_id}/step/{row.event_count - 1}")
        assert row.head[:12] not in earlier.get_data(as_text=True)
