"""``tablelog stats``: what the stored games say (:func:`recorder.stats.club_stats`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from .options import KindInHelp, LazyChoice, db_option, opened


def _kinds() -> tuple[str, ...]:
    from engine.games import GAMES

    return tuple(GAMES)


def _condition_words(kinds: Any) -> dict[str, str]:
    """Each victory condition's words, from the games counted."""
    from engine.games import get_game

    words: dict[str, str] = {}
    for kind in kinds:
        words.update(get_game(kind).conditions)
    return words


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.1f}%"


@click.command("stats", cls=KindInHelp)
@click.option("--player", help="Only the games of this player (any seat).")
@click.option("--kind", type=LazyChoice(_kinds), help="Only games of this game.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Also draw the charts into this SVG file.",
)
@db_option
def stats_cmd(
    player: str | None, kind: str | None, as_json: bool, plot: Path | None, db_path: str | None
) -> None:
    """What the finished games say: wins by place in the turn order (the first player's
    advantage, with its 95% interval), victories, game length, the cards bought and
    reserved most and how often by the winner, and each two players' results.  Games
    still in play and void games are left out (the first line counts them).

    \b
    Example:
      tablelog stats
      tablelog stats --player Chloé --kind {kind}
      tablelog stats --json
      tablelog stats --plot club.svg
    """
    from recorder.stats import club_stats

    with opened(db_path) as store:
        figures = club_stats(store, player=player, kind=kind)
    words = _condition_words(figures["kinds"])
    if plot is not None:
        from web.plots import stats_svg

        try:
            plot.write_text(stats_svg(figures, words), encoding="utf-8")
        except OSError as err:
            raise click.ClickException(f"{plot}: cannot write the plot: {err.strerror}") from None
    if as_json:
        click.echo(json.dumps(figures, ensure_ascii=False, indent=2))
        return
    for line in _text(figures, words):
        click.echo(line)
    if plot is not None:
        click.echo(f"charts written to {plot}")


def _card(c: dict[str, Any]) -> str:
    """A card by its id and what is printed on it."""
    words = c["words"]
    return c["card"] if not words or words.startswith(c["card"]) else f"{c['card']} ({words})"


def _text(f: dict[str, Any], words: dict[str, str]) -> list[str]:
    left, void = f["left_out"]["unfinished"], f["left_out"]["void"]
    out = [
        f"{f['games']} finished game{'s' if f['games'] != 1 else ''}"
        + (f" ({f['flagged']} with a move played though illegal)" if f["flagged"] else "")
        + (f"; {left} still in play, left out" if left else "")
        + (f"; {void} void, left out" if void else "")
    ]
    if not f["games"]:
        return out
    if "player" in f:
        p = f["player"]
        out.append(f"{p['name']}: {p['wins']} won of {p['games']} ({_pct(p['rate'])})")
    first = f["first_player"]
    low, high = first["interval"]
    out.append(
        f"First player won {f['first_player_wins']} of {first['games']}: {_pct(first['rate'])}"
        f" (95%: {_pct(low)}–{_pct(high)}; {_pct(first['expected'])} if the seat did not matter)"
    )
    for s in f["by_seat"][1:]:
        low, high = s["interval"]
        out.append(
            f"  place {s['place'] + 1} in the turn order: {s['wins']} of {s['games']},"
            f" {_pct(s['rate'])} (95%: {_pct(low)}–{_pct(high)})"
        )
    out.append(
        "Victory: "
        + ", ".join(f"{words.get(c, c or 'other')} {n}" for c, n in f["victory"].items())
        + (f", shared {f['shared']}" if f["shared"] else "")
    )
    t = f["turns"]
    out.append(f"Turns: median {t['median']}, from {t['min']} to {t['max']}")
    if f["minutes"]:
        m = f["minutes"]
        out.append(f"Minutes (of {m['games']} timed games): median {m['median']}")
    for key, title in (("bought", "Bought most"), ("reserved", "Reserved most")):
        if f[key]:
            cards = ", ".join(
                f"{_card(c)} ×{c['times']} ({_pct(c['winners_share'])} by the winner)"
                for c in f[key][:5]
            )
            out.append(f"{title}: {cards}")
    if f["head_to_head"]:
        out.append("Head to head:")
        for h in f["head_to_head"][:10]:
            (a, b), (wa, wb) = h["players"], h["wins"]
            out.append(f"  {a} {wa} – {wb} {b} ({h['games']} game{'s' if h['games'] != 1 else ''})")
    return out


COMMANDS: list[click.Command] = [stats_cmd]
