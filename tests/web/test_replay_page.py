"""The replay page's HTML through Flask's test client, where no geometry is needed: the
games list opens a finished game at its start, no winner before the end, links by turn
as the move list groups turns, the game's symbols with their explanations, the players'
colours, and the legality form reading a move as a phone capitalises it."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import escape

from engine.games import get_game
from engine.splendor_duel.state import ACTION

RULES = get_game("splendor-duel")
TURN_RE = re.compile(
    r'<li class="turn[^"]*"><span class="tno">[^<]*</span>.*?<li id="m(\d+)"', re.S
)


def text(response: Any) -> str:
    return response.get_data(as_text=True)


def nav(html: str, rel: str) -> int | None:
    """Where the page's ``rel`` link leads (None: no link)."""
    match = re.search(rf'data-nav="{rel}" href="/games/[0-9a-f]+/step/(\d+)"', html)
    return int(match.group(1)) if match else None


def test_the_list_opens_a_finished_game_at_its_start(client: Any, games: Any, store: Any) -> None:
    html = text(client.get("/?per_page=50"))
    for gid in games.simulated:
        assert store.game(gid).status == "finished"
        assert f'href="/games/{gid}/step/1"' in html
        assert f'href="/games/{gid}"' not in html
    # a game in progress opens where it stands (nothing to spoil, and it may be followed)
    assert f'href="/games/{games.illegal}"' in html


def test_no_winner_before_the_last_step(client: Any, games: Any, store: Any) -> None:
    gid = games.simulated[0]
    row = store.game(gid)
    winner = row.headers["players"][row.winner]
    end = text(client.get(f"/games/{gid}/step/{row.event_count}"))
    assert f"{winner} won" in end and "badge win" in end
    for step in (0, 1, 2, row.event_count // 2, row.event_count - 1):
        html = text(client.get(f"/games/{gid}/step/{step}"))
        assert " won" not in html and "badge win" not in html and 'class="outcome"' not in html


def test_turn_links_lead_to_the_first_step_of_a_turn(client: Any, games: Any, store: Any) -> None:
    gid = games.simulated[2]
    last = store.game(gid).event_count
    html = text(client.get(f"/games/{gid}/step/0"))
    starts = [int(s) for s in TURN_RE.findall(html.split('id="moves"', 1)[1])]
    assert starts[0] == 1 and len(starts) > 10 and starts == sorted(starts)
    inside = next(s + 1 for s, t in zip(starts, starts[1:], strict=False) if t > s + 1)
    for step in (0, 1, starts[3], inside, starts[-1], last - 1, last):
        page = text(client.get(f"/games/{gid}/step/{step}"))
        later = [s for s in starts if s > step]
        earlier = [s for s in starts if s < step]
        assert nav(page, "next-turn") == (later[0] if later else last if step < last else None)
        assert nav(page, "prev-turn") == (earlier[-1] if earlier else 0 if step else None)
        # still one address per step, and stepping by one as before
        assert nav(page, "next") == (step + 1 if step < last else None)
    assert 'data-nav="next-turn"' not in page  # at the end
    assert 'aria-keyshortcuts="Shift+ArrowRight"' in html  # the key that does the same


def test_symbols_are_drawn_and_explained_without_hover(client: Any, games: Any, store: Any) -> None:
    gid = games.simulated[0]
    step = 30
    view = RULES.view(store.state_at(gid, step))
    shown = {
        a["name"]
        for row in view["pyramid"]
        for slot in row["slots"]
        if slot["card"]
        for a in slot["card"]["abilities"]
    }
    assert shown, "the test wants a step with abilities in the pyramid"
    html = text(client.get(f"/games/{gid}/step/{step}"))
    pyramid = html.split('class="pyramid-area"', 1)[1].split("</section>", 1)[0]
    for name in shown:
        # a symbol (inline SVG), a button that opens its explanation on a tap
        assert re.search(
            rf'<button type="button" class="ability ab-{name}" popovertarget="tip-{name}"'
            rf' aria-label="[^"]+"><svg class="sym"',
            pyramid,
        )
    # every symbol the game's pieces draw (their table, in engine/splendor_duel/web/templates)
    with client.application.app_context():
        pieces = client.application.jinja_env.get_template("splendor-duel/pieces.html")
        symbols = pieces.module.symbols
    assert set(symbols) == {"again", "wild", "token", "privilege", "steal", "crown"}
    for name, symbol in symbols.items():
        about = symbol["about"]
        assert re.search(
            rf'<div class="tip" id="tip-{name}" popover>.*?{re.escape(str(escape(about)))}', html
        )
        assert f'<li data-symbol="{name}">' in html  # the legend
    # no letters for an ability any more
    assert "+P<" not in html and "+\u25cf" not in html


def test_the_players_colours_have_a_legend(client: Any, tmp_path: Any) -> None:
    from pathlib import Path

    from recorder import EventStore
    from recorder.io import load_file
    from web import create_app

    path = str(tmp_path / "four.db")
    root = Path(__file__).resolve().parents[2]
    with EventStore.open(path) as store:
        [record] = load_file(root / "fixtures" / "splendor" / "games" / "four-players.tl")
        gid = store.import_game(record).game_id
        state = store.state_at(gid, 40)
    app = create_app({"DATABASE": path, "TESTING": True})
    html = text(app.test_client().get(f"/games/{gid}/step/40"))
    legend = html.split('class="seat-legend"', 1)[1].split("</h1>", 1)[0]
    for seat, name in enumerate(state.names):
        assert f'class="seat seat-{seat} p{seat}' in legend and f">{name}</span>" in legend
        assert f'class="player seat-{seat}' in html
    to_move = re.findall(r'class="seat seat-(\d) p\d to-move"', legend)
    assert to_move == [str(state.current)]
    assert legend.count("to play") == 1


def test_the_form_reads_a_capitalised_move(client: Any, games: Any, store: Any) -> None:
    gid = games.simulated[1]
    step = next(
        s
        for s in range(1, 60)
        if store.state_at(gid, s).awaiting == ACTION
        and not store.state_at(gid, s).player.privileges
    )
    state = store.state_at(gid, step)
    move = next(
        RULES.move_text(state, m)
        for m in RULES.legal_moves(state)
        if type(m).__name__ == "TokensTaken" and len(m.spaces) == 1
    )
    space = move.split()[1]
    for typed in (f"Take {space}", space.upper()):
        html = text(client.get(f"/games/{gid}/step/{step}", query_string={"move": typed}))
        assert '<div class="verdict legal"' in html, typed
        assert f"read as <code>{escape(move)}</code>" in html
    assert 'autocapitalize="none"' in html


def test_the_check_says_at_which_column_and_what_a_purchase_lacks(
    client: Any, games: Any, store: Any
) -> None:
    """The replay's "Is this legal here?" says where the text goes wrong as the logging
    page does ("At column N"), not the reader's ``<move>:1:1: syntax error``; a purchase
    that can be paid several ways is an incomplete move, the ways said."""
    gid = games.simulated[1]
    html = text(client.get(f"/games/{gid}/step/3", query_string={"move": "take z9"}))
    assert "<b>Cannot read this move.</b>" in html
    assert '<p class="error">At column 6: no space &#39;z9&#39; on the board' in html
    assert "&lt;move&gt;" not in html and "syntax error" not in html
    for step in range(1, store.game(gid).event_count):
        state = store.state_at(gid, step)
        cards = [t.split()[1] for t in RULES.legal_move_texts(state) if t.startswith("buy ")]
        several = next((c for c in cards if cards.count(c) > 1), None)
        if several:
            break
    assert several is not None
    html = text(client.get(f"/games/{gid}/step/{step}", query_string={"move": f"buy {several}"}))
    assert "<b>Incomplete move.</b>" in html
    assert f'<p class="error">At column 5: {several} can be paid in ' in html
