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


def test_a_game_whose_chain_does_not_verify_is_marked(games: Any, tmp_path: Any) -> None:
    import shutil
    import sqlite3

    from recorder import EventStore
    from web import create_app

    path = tmp_path / "changed.db"
    shutil.copy(games.path, path)
    gid = games.hostile
    with sqlite3.connect(path) as conn:  # a comment rewritten behind the store's back
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute(
            "UPDATE events SET meta = json_set(meta, '$.comment', 'nothing to see')"
            " WHERE game_no = (SELECT no FROM games WHERE id = ?) AND sequence = ?",
            (gid, games.commented_step),
        )
    with EventStore.open(path) as store:
        rows = {g: store.game(g) for g in (gid, games.simulated[1])}
    client = create_app({"DATABASE": str(path), "TESTING": True}).test_client()
    for game_id, row in rows.items():
        answer = client.get(f"/games/{game_id}/step/{row.event_count}")
        if game_id == gid:  # the steps before the changed one are shown, and why
            shown = games.commented_step - 1
            assert answer.status_code == 302
            assert answer.headers["Location"].endswith(f"/step/{shown}")
            answer = client.get(answer.headers["Location"])
        html = answer.get_data(as_text=True)
        assert f">{row.head[:12]}</code>" in html
        assert ("does not verify" in html) == (game_id == gid)
        assert (f"</b> at step {games.commented_step}: " in html) == (game_id == gid)


def test_a_server_with_a_chain_key_also_shows_the_keyed_head(games: Any, store: Any) -> None:
    """docs/integrity.md: with a secret, the head shown is also keyed with it (HMAC), which
    nobody without the secret can produce for a rewritten chain."""
    import hashlib
    import hmac

    from web import create_app

    row = store.game(games.simulated[0])
    url = f"/games/{row.id}/step/{row.event_count}"
    keyed = hmac.new(b"club secret", row.head.encode(), hashlib.sha256).hexdigest()
    app = create_app({"DATABASE": games.path, "TESTING": True, "CHAIN_KEY": "club secret"})
    html = app.test_client().get(url).get_data(as_text=True)
    assert f'keyed <code title="{keyed}">{keyed[:12]}</code>' in html
    plain = create_app({"DATABASE": games.path, "TESTING": True, "CHAIN_KEY": None})
    assert "keyed" not in plain.test_client().get(url).get_data(as_text=True)
