"""Sharing a game: the animation (``/games/<id>.gif``: 202 while a separate process draws
it, then the GIF, one frame a step; its refusals), ``tablelog show --gif`` drawing the same
bytes, the notation file, the embedded replay's headers (framed by any site, no cookie;
every other page still refuses frames), oEmbed, and the share links the pages offer.

Games are the sample files imported into a real SQLite file; the drawings are made by the
real drawing process into a folder of the test's own."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from PIL import Image

from cli.main import cli
from recorder import EventStore
from recorder.io import export_notation, import_files
from web import create_app
from web.animation import MAX_FRAMES, WIDTH

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "fixtures" / "games" / "dispute.tl", ROOT / "fixtures" / "games" / "points.tl"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, tuple[str, int]]]:
    path = str(tmp_path_factory.mktemp("share") / "games.db")
    ids = {}
    with EventStore.open(path) as store:
        for source, _, result in import_files(store, FILES):
            ids[Path(source).stem] = (result.game_id, store.game(result.game_id).event_count)
    return path, ids


def make_app(path: str, drawings: Path, **config: Any) -> Any:
    return create_app({"DATABASE": path, "TESTING": True, "DRAWINGS": str(drawings), **config})


@pytest.fixture()
def client(site: tuple[str, Any], tmp_path: Path) -> Any:
    return make_app(site[0], tmp_path / "drawings").test_client()


def wait_for_gif(client: Any, url: str, seconds: float = 120) -> Any:
    """Ask for ``url`` as a client told to come back would, until it is no longer 202."""
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get(url)
        if answer.status_code != 202:
            return answer
        assert time.monotonic() < deadline, f"{url} still drawing: {answer.json}"
        time.sleep(0.2)


def frames(gif: bytes) -> list[Any]:
    image = Image.open(io.BytesIO(gif))
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append(image.convert("RGB"))
    return out


# --- the animation -----------------------------------------------------------------------


def test_the_gif_of_steps_1_to_11_is_drawn_in_the_background(client: Any, site: Any) -> None:
    game_id, _ = site[1]["dispute"]
    url = f"/games/{game_id}.gif?from=1&to=11"
    first = client.get(url)
    # never drawn in the request: the drawing process has just started
    assert first.status_code == 202
    assert first.mimetype == "application/json"
    assert int(first.headers["Retry-After"]) >= 1
    assert first.json["state"] == "drawing" and first.json["total"] == 11
    assert 0 <= first.json["done"] <= 11
    answer = wait_for_gif(client, url)
    assert answer.status_code == 200 and answer.mimetype == "image/gif"
    drawn = frames(answer.data)
    assert len(drawn) == 11
    assert {f.size[0] for f in drawn} == {WIDTH}
    # frames differ step by step (their captions at least): none was merged away
    assert all(a.tobytes() != b.tobytes() for a, b in zip(drawn, drawn[1:], strict=False))
    # kept: the same bytes again, and a 304 for a browser that has them
    again = client.get(url)
    assert again.status_code == 200 and again.data == answer.data
    etag = answer.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_a_browser_is_shown_the_progress_as_a_page_that_asks_again(client: Any, site: Any) -> None:
    game_id, _ = site[1]["points"]
    answer = client.get(f"/games/{game_id}.gif?from=2&to=9", headers={"Accept": "text/html"})
    assert answer.status_code == 202 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', page)
    assert "of 8 frames" in page
    wait_for_gif(client, f"/games/{game_id}.gif?from=2&to=9")


def test_one_frame_a_step_asked_and_the_whole_game_by_default(client: Any, site: Any) -> None:
    game_id, last = site[1]["points"]
    one = wait_for_gif(client, f"/games/{game_id}.gif?from=0&to=0")
    assert one.status_code == 200 and Image.open(io.BytesIO(one.data)).n_frames == 1
    whole = wait_for_gif(client, f"/games/{game_id}.gif")
    assert whole.status_code == 200
    assert Image.open(io.BytesIO(whole.data)).n_frames == last  # steps 1 to last
    assert whole.headers["Content-Disposition"].startswith("inline")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("from=abc", "parameter 'from': expected a whole number"),
        ("to=-1", "parameter 'to'"),
        ("from=9&to=3", "parameter 'to' (3) comes before 'from' (9)"),
        ("to=100000", "parameter 'to': the game has steps 0 to"),
        ("from=100000", "parameter 'from': the game has steps 0 to"),
    ],
)
def test_a_bad_range_is_a_400_naming_the_parameter(
    client: Any, site: Any, query: str, words: str
) -> None:
    game_id, _ = site[1]["dispute"]
    answer = client.get(f"/games/{game_id}.gif?{query}")
    assert answer.status_code == 400
    assert words.replace("'", "&#39;") in answer.get_data(as_text=True)


def test_a_range_is_bounded_and_the_error_says_so(site: Any, tmp_path: Path) -> None:
    from web.animation import RangeError, step_range

    with pytest.raises(RangeError, match=f"at most {MAX_FRAMES} steps") as err:
        step_range(1, MAX_FRAMES + 1, 1000)
    assert err.value.parameter == "to"
    assert step_range(1, MAX_FRAMES, 1000).frames == MAX_FRAMES


def test_an_unknown_game_has_no_animation(client: Any) -> None:
    assert client.get("/games/nosuchgame.gif").status_code == 404


def test_a_drawing_waits_while_as_many_as_may_run_are_drawn(site: Any, tmp_path: Path) -> None:
    client = make_app(site[0], tmp_path / "drawings", DRAWING_SLOTS=1).test_client()
    game_id, _ = site[1]["dispute"]
    assert client.get(f"/games/{game_id}.gif?from=1&to=60").status_code == 202
    waiting = client.get(f"/games/{game_id}.gif?from=1&to=30")
    assert waiting.status_code == 202 and waiting.json["state"] == "waiting"
    assert int(waiting.headers["Retry-After"]) > 0
    # the first one, asked again, is still being drawn (one drawing a key)
    assert client.get(f"/games/{game_id}.gif?from=1&to=60").status_code in (200, 202)
    wait_for_gif(client, f"/games/{game_id}.gif?from=1&to=60")
    assert wait_for_gif(client, f"/games/{game_id}.gif?from=1&to=30").status_code == 200


def test_show_gif_draws_the_same_animation(site: Any, tmp_path: Path) -> None:
    path, ids = site
    game_id, _ = ids["dispute"]
    client = make_app(path, tmp_path / "drawings").test_client()
    served = wait_for_gif(client, f"/games/{game_id}.gif?from=3&to=7")
    out = tmp_path / "opening.gif"
    result = CliRunner().invoke(
        cli, ["show", game_id, "--gif", str(out), "--from", "3", "--to", "7", "--db", path]
    )
    assert result.exit_code == 0, result.output
    assert f"steps 3 to 7 of {game_id} drawn in {out}" in result.output
    assert out.read_bytes() == served.data


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--gif", "x.png"], "must end in .gif"),
        (["--gif", "x.gif", "--from", "9", "--to", "2"], "'to' (2) comes before 'from' (9)"),
        (["--from", "2"], "--from and --to go with --gif"),
    ],
)
def test_show_gif_refuses_what_it_cannot_draw(
    site: Any, tmp_path: Path, args: list[str], words: str
) -> None:
    path, ids = site
    game_id, _ = ids["dispute"]
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    result = CliRunner().invoke(cli, ["show", game_id, *args, "--db", path])
    assert result.exit_code == 2 and words in result.output
    assert not list(tmp_path.glob("x.*"))


# --- the notation ------------------------------------------------------------------------


def test_the_notation_is_served_as_a_text_file(client: Any, site: Any) -> None:
    path, ids = site
    game_id, _ = ids["dispute"]
    answer = client.get(f"/games/{game_id}.tl")
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    assert answer.headers["Content-Disposition"] == f'inline; filename="{game_id}.tl"'
    with EventStore.open(path) as store:
        assert answer.get_data(as_text=True) == export_notation(store, game_id)
    assert client.get("/games/nosuchgame.tl").status_code == 404


# --- the embedded replay and its headers -------------------------------------------------


def test_only_the_embedded_replay_may_be_framed(client: Any, site: Any) -> None:
    game_id, last = site[1]["dispute"]
    opened = client.get(f"/embed/{game_id}")
    assert opened.status_code == 302 and opened.headers["Location"].endswith("/step/1")
    for url in (f"/embed/{game_id}", f"/embed/{game_id}/step/5", f"/embed/{game_id}/step/{last}"):
        answer = client.get(url)
        csp = answer.headers["Content-Security-Policy"]
        assert "frame-ancestors *" in csp and "default-src 'none'" in csp
        assert "X-Frame-Options" not in answer.headers
        assert "Set-Cookie" not in answer.headers
    for url in (
        "/",
        f"/games/{game_id}/step/5",
        f"/games/{game_id}/step/5.png",
        f"/games/{game_id}.tl",
        f"/oembed?url={quote(f'http://localhost/games/{game_id}')}",
        "/games/new",
    ):
        answer = client.get(url)
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"], url
        assert answer.headers["X-Frame-Options"] == "DENY", url


def test_the_embedded_page_steps_by_links_and_has_no_site_header(client: Any, site: Any) -> None:
    game_id, last = site[1]["dispute"]
    page = client.get(f"/embed/{game_id}/step/5").get_data(as_text=True)
    assert 'class="site-head"' not in page and "<form" not in page
    assert f'src="/games/{game_id}/step/5.svg"' in page
    for rel, target in (("prev", 4), ("next", 6), ("first", 1), ("last", last)):
        assert re.search(rf'data-nav="{rel}" href="/embed/{game_id}/step/{target}"', page), rel
    # the move list leads to the embedded steps too
    assert f'href="/embed/{game_id}/step/12"' in page
    assert f'href="/games/{game_id}/step/' not in page.replace(f"/games/{game_id}/step/5", "")
    assert client.get(f"/embed/{game_id}/step/{last + 1}").status_code == 404
    assert client.get(f"/embed/{game_id}/step/x").status_code == 400
    assert client.get("/embed/nosuchgame").status_code == 404


# --- oEmbed ------------------------------------------------------------------------------


def oembed(client: Any, url: str, **more: str) -> Any:
    query = "&".join(f"{k}={quote(v)}" for k, v in {"url": url, "format": "json", **more}.items())
    return client.get(f"/oembed?{query}")


def test_oembed_answers_for_a_game_and_a_step(client: Any, site: Any) -> None:
    game_id, last = site[1]["dispute"]
    game = oembed(client, f"http://localhost/games/{game_id}")
    assert game.status_code == 200 and game.mimetype == "application/json"
    data = game.json
    assert data["version"] == "1.0" and data["type"] == "rich"
    assert data["provider_name"] == "tablelog" and data["provider_url"] == "http://localhost/"
    assert (data["width"], data["height"]) == (640, 890)
    assert data["html"] == (
        f'<iframe src="http://localhost/embed/{game_id}" width="640" height="890" '
        f'title="Bob vs Chloé · Splendor Duel" loading="lazy"></iframe>'
    )
    assert data["thumbnail_url"] == f"http://localhost/games/{game_id}/step/1.png"
    step = oembed(client, f"http://localhost/games/{game_id}/step/40", maxwidth="400").json
    assert step["width"] == 400 and step["height"] == 350 + 330
    assert f'src="http://localhost/embed/{game_id}/step/40" width="400"' in step["html"]
    assert step["title"] == f"Bob vs Chloé · Splendor Duel · step 40 of {last}"
    # the embedded page's own address too, and the frame it names answers
    embedded = oembed(client, f"http://localhost/embed/{game_id}/step/40").json
    assert embedded["html"] == step["html"].replace('"400"', '"640"').replace('"680"', '"890"')
    src = re.search(r'src="http://localhost([^"]+)"', embedded["html"]).group(1)
    assert client.get(src).status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/games/{id}",
        "https://evil.localhost/games/{id}/step/3",
        "javascript:alert(1)//localhost/games/{id}",
        "http://localhost/players/Bob",
        "http://localhost/games/{id}/step/3.png",
        "http://localhost/games/nosuchgame",
        "http://localhost/games/{id}/step/99999",
    ],
)
def test_oembed_refuses_what_is_not_a_game_of_this_site(client: Any, site: Any, url: str) -> None:
    game_id, _ = site[1]["dispute"]
    answer = oembed(client, url.format(id=game_id))
    assert answer.status_code == 404
    assert answer.json["error"]["status"] == 404


def test_oembed_refusals_name_the_parameter(client: Any, site: Any) -> None:
    game_id, _ = site[1]["dispute"]
    missing = client.get("/oembed?format=json")
    assert missing.status_code == 400 and "parameter 'url'" in missing.json["error"]["message"]
    xml = oembed(client, f"http://localhost/games/{game_id}", format="xml")
    assert xml.status_code == 501 and "parameter 'format'" in xml.json["error"]["message"]
    narrow = oembed(client, f"http://localhost/games/{game_id}", maxwidth="100")
    assert narrow.status_code == 404


def test_the_pages_name_their_oembed_and_offer_the_share_links(client: Any, site: Any) -> None:
    game_id, last = site[1]["dispute"]
    page = client.get(f"/games/{game_id}/step/40").get_data(as_text=True)
    link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', page)
    assert link is not None
    href = link.group(1).replace("&amp;", "&")
    assert href.startswith("http://localhost/oembed?")
    found = client.get(href[len("http://localhost") :])
    assert found.status_code == 200 and f"/embed/{game_id}/step/40" in found.json["html"]
    listing = client.get("/").get_data(as_text=True)
    for html, step, embed in ((page, 40, f"/embed/{game_id}/step/40"), (listing, last, None)):
        assert f'class="share-picture" href="/games/{game_id}/step/{step}.png"' in html
        assert f'class="share-animation" href="/games/{game_id}.gif"' in html
        assert f'class="share-notation" href="/games/{game_id}.tl"' in html
        snippet = re.search(
            rf"<textarea[^>]*>(&lt;iframe src=&#34;http://localhost{embed or f'/embed/{game_id}'}"
            r"&#34;[^<]*)</textarea>",
            html,
        )
        assert snippet is not None, "the embed snippet to copy"
    for href in (f"/games/{game_id}/step/40.png", f"/games/{game_id}.tl"):
        assert client.get(href).status_code == 200


def test_the_drawing_process_is_another_process_at_a_low_priority(
    site: Any, tmp_path: Path
) -> None:
    """The drawing runs in a process of its own, niced: its progress file is written by
    a process that is not this one, and the request answered before it was done."""
    import os

    client = make_app(site[0], tmp_path / "drawings").test_client()
    game_id, _ = site[1]["dispute"]
    first = client.get(f"/games/{game_id}.gif?from=1&to=40")
    assert first.status_code == 202 and first.json["done"] < 40
    from web import background

    children = [p for p in background._children if p.poll() is None]
    assert children, "a drawing process runs"
    child = children[-1]
    assert child.pid != os.getpid()

    def niceness() -> int:
        with open(f"/proc/{child.pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[16])

    # the process lowers its priority first thing, once its modules are loaded
    deadline = time.monotonic() + 60
    while niceness() < os.nice(0) + background.ANIMATION.niceness and child.poll() is None:
        assert time.monotonic() < deadline, "the drawing process never lowered its priority"
        time.sleep(0.05)
    assert child.poll() is None, "the drawing had ended before its priority was seen"
    assert wait_for_gif(client, f"/games/{game_id}.gif?from=1&to=40").status_code == 200


def test_the_server_keeps_answering_while_an_animation_is_drawn(site: Any, tmp_path: Path) -> None:
    """Over the real server: while the GIF is drawn (202), the step pages are answered."""
    import urllib.request

    from web.server import BackgroundServer

    game_id, _ = site[1]["dispute"]
    app = create_app(
        {"DATABASE": site[0], "STORE_PER_THREAD": True, "DRAWINGS": str(tmp_path / "d")}
    )

    def get(url: str) -> tuple[int, bytes]:
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()

    with BackgroundServer(app, threads=2) as server:
        gif = f"{server.url}/games/{game_id}.gif?from=1&to=60"
        assert get(gif)[0] == 202
        for step in range(0, 60, 6):
            status, page = get(f"{server.url}/games/{game_id}/step/{step}")
            assert status == 200 and f'Step <b class="stepno">{step}</b>' in page.decode()
        status, progress = get(gif)
        assert status == 202, "the pages were answered while the drawing went on"
        assert json.loads(progress)["total"] == 60
        deadline = time.monotonic() + 300
        while status == 202:
            assert time.monotonic() < deadline
            time.sleep(0.5)
            status, body = get(gif)
        assert status == 200 and Image.open(io.BytesIO(body)).n_frames == 60
