"""The pictures of a step on the site and from the command line: ``/games/<id>/step/<n>.svg``
and ``.png`` (content types, sizes, caching, refusals), the step page's OpenGraph tags
naming them, ``tablelog show --image``, and the PNG renderer drawing text with the
machine's fonts.  Games are the sample files imported into a real SQLite file."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.games import GAMES, get_game
from recorder import EventStore
from recorder.io import import_files
from web import create_app
from web.images import png_size, svg_to_png

ROOT = Path(__file__).resolve().parents[2]
FILES = [
    ROOT / "fixtures" / "games" / "dispute.tl",
    ROOT / "fixtures" / "splendor" / "games" / "two-players.tl",
    ROOT / "fixtures" / "splendor" / "games" / "four-players.tl",
]
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    path = str(tmp_path_factory.mktemp("pictures") / "games.db")
    ids = {}
    with EventStore.open(path) as store:
        for source, _, result in import_files(store, FILES):
            ids[Path(source).name] = (result.game_id, store.game(result.game_id).event_count)
    return path, ids


@pytest.fixture()
def client(site: tuple[str, dict[str, Any]]) -> Any:
    return create_app({"DATABASE": site[0], "TESTING": True}).test_client()


def svg_size(svg: bytes) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(root.get("width")), int(root.get("height"))


@pytest.mark.parametrize("name", [f.name for f in FILES])
def test_svg_and_png_of_a_step(client: Any, site: tuple[str, dict[str, Any]], name: str) -> None:
    game_id, last = site[1][name]
    for step in (0, 1, last // 2, last):
        svg = client.get(f"/games/{game_id}/step/{step}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        assert svg.headers["ETag"] and svg.headers["Cache-Control"] == "no-cache"
        root = ET.fromstring(svg.data)
        assert f"Step {step} of {last}" in "".join(t.text or "" for t in root.iter(f"{NS}text"))
        png = client.get(f"/games/{game_id}/step/{step}.png")
        assert png.status_code == 200 and png.mimetype == "image/png"
        assert png_size(png.data) == svg_size(svg.data)
        assert png.headers["ETag"] != svg.headers["ETag"]


def test_a_picture_is_validated_like_the_page(client: Any, site: tuple[str, Any]) -> None:
    game_id, last = site[1]["dispute.tl"]
    for kind in ("svg", "png"):
        url = f"/games/{game_id}/step/{last}.{kind}"
        first = client.get(url)
        again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
        assert client.get(f"/games/{game_id}/step/{last + 1}.{kind}").status_code == 404
        assert client.get(f"/games/nosuchgame/step/1.{kind}").status_code == 404
        assert client.get(f"/games/{game_id}/step/x.{kind}").status_code == 400
    assert client.get(f"/games/{game_id}/step/3.gif").status_code == 400


def test_the_step_page_names_its_picture_for_link_previews(
    client: Any, site: tuple[str, Any]
) -> None:
    game_id, last = site[1]["four-players.tl"]
    html = client.get(f"/games/{game_id}/step/40", base_url="http://tables.example:8080").text
    og = dict(re.findall(r'<meta property="og:([a-z:]+)" content="([^"]*)">', html))
    assert og["image"] == f"http://tables.example:8080/games/{game_id}/step/40.png"
    assert og["url"] == f"http://tables.example:8080/games/{game_id}/step/40"
    assert og["title"] == f"Ann vs Bert vs Chloe vs Dana · step 40 of {last}"
    assert og["description"]
    # the page is kept per host: another host's preview names its own address
    other = client.get(f"/games/{game_id}/step/40", base_url="http://127.0.0.1:5000").text
    assert f'content="http://127.0.0.1:5000/games/{game_id}/step/40.png"' in other
    assert client.get(og["image"].replace("http://tables.example:8080", "")).status_code == 200


def test_hostile_names_in_the_pictures_and_the_tags(games: Any) -> None:
    client = create_app({"DATABASE": games.path, "TESTING": True}).test_client()
    svg = client.get(f"/games/{games.hostile}/step/10.svg").data
    assert b"<script" not in svg
    words = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert "<script>alert(1)</script>" in words and "Bob & <b>Co</b>" in words
    html = client.get(f"/games/{games.hostile}/step/10").text
    head = html[: html.index("</head>")]
    assert 'og:title" content="&lt;script&gt;alert(1)&lt;/script&gt; vs Bob &amp; ' in head


def test_show_writes_svg_and_png(site: tuple[str, Any], tmp_path: Path) -> None:
    db, ids = site
    runner = CliRunner()
    game_id, last = ids["dispute.tl"]
    client = create_app({"DATABASE": db, "TESTING": True}).test_client()
    with EventStore.open(db) as store:
        flagged = [e.sequence for e in store.events(game_id) if e.meta.get("played_illegally")]
    assert flagged
    for step, kind in ((40, "svg"), (40, "png"), (40, "PNG"), (1, "svg"), (flagged[0], "svg")):
        out = tmp_path / f"step{step}.{kind}"
        args = ["show", game_id, "--step", str(step), "--image", str(out), "--db", db]
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert f"step {step} of {last}" in result.output
        site_copy = client.get(f"/games/{game_id}/step/{step}.{kind.lower()}").data
        assert out.read_bytes() == site_copy  # the site and the command draw the same
        if kind == "svg":
            heading = [t.text for t in ET.fromstring(site_copy).iter(f"{NS}text")][1]
            assert heading.startswith(f"Step {step} of {last} · ")
            assert heading.endswith("(played illegally)") == (step == flagged[0])
            assert heading.endswith("the table is set up") == (step == 1)
    classic, _ = ids["four-players.tl"]
    out = tmp_path / "last.png"
    assert runner.invoke(cli, ["show", classic, "--image", str(out), "--db", db]).exit_code == 0
    assert png_size(out.read_bytes()) == svg_size(client.get(f"/games/{classic}/step/0.svg").data)


def test_show_refuses_another_kind_of_file(site: tuple[str, Any], tmp_path: Path) -> None:
    db, ids = site
    game_id, _ = ids["dispute.tl"]
    runner = CliRunner()
    result = runner.invoke(cli, ["show", game_id, "--image", str(tmp_path / "a.jpg"), "--db", db])
    assert result.exit_code == 2
    assert "must end in .svg or .png" in result.output and "'.jpg'" in result.output
    assert not (tmp_path / "a.jpg").exists()
    result = runner.invoke(
        cli, ["show", game_id, "--step", "9999", "--image", str(tmp_path / "a.png"), "--db", db]
    )
    assert result.exit_code == 1 and "no step 9999" in result.output


def test_the_png_draws_text_with_the_machines_fonts() -> None:
    blank = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">{}</svg>'
    words = '<text x="4" y="28" font-family="DejaVu Sans" font-size="24">Chloé ♛ 12</text>'
    assert svg_to_png(blank.format(words)) != svg_to_png(blank.format(""))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_stylesheet_draws_pieces_in_the_pictures_colours(kind: str) -> None:
    """One palette per game: the site's pieces take the fills of the game's palette (its
    pictures' colours), and the custom properties of the same names repeat them, in
    site.css or in the game's own stylesheet."""
    from web.boards import parts

    palette = get_game(kind).palette
    declared: dict[str, str] = {}
    for path in (ROOT / "web" / "static" / "site.css", parts(kind) / "static" / "game.css"):
        css = path.read_text(encoding="utf-8") if path.is_file() else ""
        for root in re.findall(r":root\s*\{([^}]*)\}", css):
            declared.update(re.findall(r"--([a-z]+):\s*(#[0-9a-f]{6});", root))
    assert {name: declared.get(name) for name in palette} == {
        name: fill for name, (fill, _ink, _rim) in palette.items()
    }
