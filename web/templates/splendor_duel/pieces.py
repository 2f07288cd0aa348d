"""Markup for the pieces of a Splendor Duel table: tokens, cards, Royal cards,
Privileges, the board and the content of a player's panel.  The templates of this folder
(``table.html``, ``player.html``) call them on the game's view (``GameRules.view``).

These are written as escaped f-strings rather than Jinja macros because the replay page
draws hundreds of them, and a macro call costs far more than formatting a string
(bench/web.py measures the page).  Every value that is not a fixed literal or a number
goes through :func:`markupsafe.escape`.

>>> from engine.games import get_game
>>> rules = get_game("splendor-duel")
>>> table = rules.view(rules.new_state(["Ann", "Bob"]))
>>> 'data-space="a1"' in board(table), 'class="holdings"' in player_panel(table["players"][0])
(True, True)
>>> str(token("R", "red"))
'<span class="token t-red" title="red">R</span>'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from engine.picture import COLOURS

from .. import card_row

_TOKENS: dict[tuple[str, str, str], Markup] = {}
_CARDS: dict[tuple[str, str, str, bool], Markup] = {}

#: The card abilities (rulebook p.8) drawn as the game's symbols (inline SVG, no font
#: needed), with what each does in the rulebook's words.  The replay explains each on a
#: tap (a popover, see :func:`symbol_tips`) and in its legend (:func:`symbol_legend`).
_SVG = '<svg class="sym" viewBox="0 0 20 20" aria-hidden="true" focusable="false">{}</svg>'
#: Each colour's fill, from the one palette (:data:`engine.picture.COLOURS`).
_FILLS = {name: fill for name, (fill, _ink, _rim) in COLOURS.items()}
SYMBOLS: dict[str, tuple[str, str, str]] = {
    "again": (
        "Play again",
        "Take another turn immediately after this one ends.",
        _SVG.format(
            '<path d="M15.6 12.2A6.2 6.2 0 1 1 14.3 5.6" fill="none" stroke="currentColor"'
            ' stroke-width="2.4" stroke-linecap="round"/>'
            '<path d="M11.2 1.8 17.6 2.6 15.4 8.6z" fill="currentColor"/>'
        ),
    ),
    "wild": (
        "Joker bonus",
        "Place this card over one of your cards with a bonus: its bonus counts as that"
        " card's colour. You cannot buy it without a card with a bonus.",
        _SVG.format(
            (
                '<path d="M10 1 1 10h9z" fill="{blue}"/><path d="M10 1l9 9h-9z" fill="{green}"/>'
                '<path d="M19 10l-9 9v-9z" fill="{red}"/><path d="M1 10l9 9v-9z" fill="{black}"/>'
                '<path d="M10 7.5l2.5 2.5-2.5 2.5-2.5-2.5z" fill="{white}"/>'
                '<path d="M10 1l9 9-9 9-9-9z" fill="none" stroke="#fff" stroke-width="1"/>'
            ).format(**_FILLS)
        ),
    ),
    "token": (
        "Take a token",
        "Take 1 token of this card's colour from the board (none left: nothing happens).",
        _SVG.format(
            '<circle class="disc" cx="10" cy="10" r="8.2"/>'
            '<path class="plus" d="M10 5.5v9M5.5 10h9" stroke-width="2.6"/>'
        ),
    ),
    "privilege": (
        "Take a Privilege",
        "Take 1 Privilege; if none is left above the board, take 1 from your opponent.",
        _SVG.format(
            '<rect x="4" y="2" width="12" height="16" rx="2.5" fill="#f6e2b3" stroke="#a68447"'
            ' stroke-width="1.6"/><path d="M7 7h6M7 10h6M7 13h4" stroke="#a68447"'
            ' stroke-width="1.4"/>'
        ),
    ),
    "steal": (
        "Take from your opponent",
        "Take 1 Gem or Pearl token from your opponent (never a Gold one).",
        _SVG.format(
            '<circle cx="13.5" cy="10" r="5.5" fill="#8d86c9"/>'
            '<path d="M10.5 10H2.2M5.6 6.4 2 10l3.6 3.6" fill="none" stroke="currentColor"'
            ' stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>'
        ),
    ),
    "crown": (
        "Crowns",
        "Your 3rd and your 6th Crown each bring a Royal card; 10 Crowns win the game.",
        '<span class="sym crown-sym" aria-hidden="true">♛</span>',
    ),
}


def symbol(name: str, tips: bool, count: int = 1) -> str:
    """The symbol ``name`` (``count`` times): a button that opens its explanation when
    ``tips`` (the replay), else a plain mark with the explanation as its label."""
    title, about, drawn = SYMBOLS[name]
    label = escape(f"{title}: {about}" if count == 1 else f"{count} {title}: {about}")
    inner = drawn * count
    if tips:
        return (
            f'<button type="button" class="ability ab-{name}" popovertarget="tip-{name}"'
            f' aria-label="{label}">{inner}</button>'
        )
    return f'<span class="ability ab-{name}" role="img" aria-label="{label}">{inner}</span>'


def symbol_tips(names: Sequence[str]) -> Markup:
    """The explanations the symbols' buttons open (one popover per symbol)."""
    out = []
    for name in names:
        title, about, drawn = SYMBOLS[name]
        out.append(
            f'<div class="tip" id="tip-{name}" popover><p><span class="ability ab-{name}">'
            f"{drawn}</span> <b>{escape(title)}</b></p><p>{escape(about)}</p></div>"
        )
    return Markup("".join(out))


def symbol_legend() -> Markup:
    """What every symbol of the cards means, on the page (no hover needed)."""
    items = "".join(
        f'<li data-symbol="{name}"><span class="ability ab-{name}">{drawn}</span> '
        f"<b>{escape(title)}</b> {escape(about)}</li>"
        for name, (title, about, drawn) in SYMBOLS.items()
    )
    return Markup(
        '<details class="symbols"><summary>What the symbols mean</summary>'
        f'<ul class="legend">{items}</ul></details>'
    )


def _cls(extra: str) -> str:
    return f" {escape(extra)}" if extra else ""


def token(letter: str, color: str, extra: str = "") -> Markup:
    """A token: a coloured disc with its letter."""
    key = (letter, color, extra)
    html = _TOKENS.get(key)
    if html is None:
        c = escape(color)
        html = _TOKENS[key] = Markup(
            f'<span class="token t-{c}{_cls(extra)}" title="{c}">{escape(letter)}</span>'
        )
    return html


def card(view: Mapping[str, Any], extra: str = "", tips: bool = False) -> Markup:
    """A Jewel card as printed: bonus colour and count, points, crowns, abilities, cost,
    and its id (the name a move gives it).  ``view`` is a card of the game's view; the
    markup depends only on the card, the colour it counts as, ``extra`` and ``tips``
    (symbols that open their explanation), so each is built once."""
    key = (view["id"], view["color"], extra, tips)
    html = _CARDS.get(key)
    if html is None:
        html = _CARDS[key] = Markup(_card(view, extra, tips))
    return html


def _card(c: Mapping[str, Any], extra: str, tips: bool) -> str:
    color = escape(c["color"])
    joker = " joker" if c["joker"] else ""
    gems = f'<i class="gem g-{color}"></i>' * c["bonus"]
    marks = []
    if c["crowns"]:
        marks.append(symbol("crown", tips, c["crowns"]))
    for a in c["abilities"]:
        marks.append(symbol(a["name"], tips))
    cost = "".join(
        f'<li class="pip t-{escape(p["color"])}" title="{p["n"]} {escape(p["color"])}">'
        f"{p['n']}</li>"
        for p in c["cost"]
    )
    cid = escape(c["id"])
    return (
        f'<div class="card c-{color}{joker}{_cls(extra)}" title="{escape(c["title"])}"'
        f' data-card="{cid}"><div class="card-band">'
        f'<span class="card-points">{c["points"] or ""}</span>'
        f'<span class="card-bonus">{gems}</span></div>'
        f'<div class="card-body"><div class="card-marks">{"".join(marks)}</div>'
        f'<ul class="cost" aria-label="cost">{cost}</ul></div>'
        f'<span class="card-id">{cid}</span></div>'
    )


def card_back(level: int, extra: str = "") -> Markup:
    """A face-down card of ``level`` (a blind reserve not identified yet)."""
    return Markup(
        f'<div class="card back lv-{int(level)}{_cls(extra)}" title="a face-down '
        f'level-{int(level)} card"><span>{"I" * int(level)}</span></div>'
    )


def royal(r: Mapping[str, Any], extra: str = "", tips: bool = False) -> Markup:
    """A Royal card: its points and ability."""
    ability = r["ability"]
    about = f", {escape(ability['title'])}" if ability else ""
    icon = symbol(ability["name"], tips) if ability else ""
    return Markup(
        f'<div class="royal{_cls(extra)}" data-royal="{escape(r["id"])}" title="Royal card '
        f'{escape(r["id"])}: {r["points"]} points{about}"><span class="royal-crown" '
        f'aria-hidden="true">♛</span><span class="royal-points">{r["points"]}</span>{icon}</div>'
    )


def privileges(n: int, extra: str = "") -> Markup:
    """``n`` Privilege scrolls ("none" when there are none)."""
    inner = '<i class="scroll"></i>' * n if n else '<span class="none">none</span>'
    return Markup(
        f'<span class="privileges{_cls(extra)}" title="{n} Privilege'
        f'{"s" if n != 1 else ""}">{inner}</span>'
    )


def board(table: Mapping[str, Any]) -> Markup:
    """The 5×5 board with its coordinates (a1 top-left), the spiral's order in small
    numbers, the tokens, and what the step took (a ghost token) or placed."""
    out = [f'<div class="board" data-bag="{table["bag_total"]}"><span class="corner"></span>']
    out.extend(f'<span class="colh">{c}</span>' for c in "abcde")
    cells = table["board"]
    for row in range(5):
        out.append(f'<span class="rowh">{row + 1}</span>')
        for col in range(5):
            sp = cells[row * 5 + col]
            cls = "space" + (" taken" if sp["taken"] else "") + (" placed" if sp["placed"] else "")
            letter = sp["token"]
            if letter:
                inner = token(letter, sp["color"])
                title = f"{sp['name']}: {sp['color']}"
            else:
                inner = (
                    token(sp["taken_letter"], sp["taken_color"], "ghost")
                    if sp["taken"]
                    else Markup("")
                )
                title = sp["name"]
            out.append(
                f'<span class="{cls}" data-space="{sp["name"]}" data-token="{letter or ""}"'
                f' title="{escape(title)}"><span class="spiral">{sp["spiral"]}</span>'
                f"{inner}</span>"
            )
    out.append("</div>")
    return Markup("".join(out))


def table(view: Mapping[str, Any]) -> Markup:
    """The middle of the table: the board with the bag and the Privileges beside it, the
    pyramid with its decks, and the Royal cards left."""
    bag = "".join(
        f'{token(t["letter"], t["color"], "small")}<span class="x">{t["n"]}</span>'
        for t in view["bag"]
    )
    changed = " changed" if view["privileges_changed"] else ""
    out = [
        '<section class="board-area" aria-label="Board">\n    <h2>Board</h2>\n    ',
        board(view),
        '\n    <div class="board-side">\n      <div class="bag" title="tokens in the bag">'
        f'<span class="k">Bag</span> <b class="bag-total">{view["bag_total"]}</b>\n        '
        f'<span class="bag-tokens">{bag}</span></div>\n      '
        f'<div class="table-privileges{changed}"><span class="k">Privileges on the table</span> '
        f"{privileges(view['table_privileges'])}</div>\n    </div>\n  </section>\n\n  "
        '<section class="pyramid-area" aria-label="Pyramid">\n    <h2>Pyramid</h2>\n'
        '    <div class="pyramid">',
    ]
    for row in view["pyramid"]:
        level = row["level"]
        out.append(f'\n      <div class="prow lv-{level}" data-level="{level}">\n        ')
        out.append(card_row(row, _tipped))
        out.append("\n      </div>")
    royals = (
        "".join(royal(r, tips=True) for r in view["royals"])
        or '<span class="none">none left</span>'
    )
    out.append(
        '\n    </div>\n    <div class="royals-area"><span class="k">Royal cards</span>\n'
        f'      <div class="royals">{royals}</div>\n    </div>\n    '
        f"{symbol_legend()}{symbol_tips(list(SYMBOLS))}\n  </section>"
    )
    return Markup("".join(out))


def _tipped(c: Mapping[str, Any], extra: str) -> Markup:
    """A card of the replay: its symbols open their explanation."""
    return card(c, extra, tips=True)


def _meter(value: int, top: int, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<meter{klass} min="0" max="{top}" value="{min(value, top)}"></meter>'


def player_panel(p: Mapping[str, Any]) -> Markup:
    """The content of a player's panel (the site draws its frame and the name): points
    against 20, crowns against 10, Privileges, tokens, bonuses and points by colour, the
    cards bought grouped by colour, reserved cards (face down while unknown) and Royal
    cards; the step's changes highlighted."""
    t = p["targets"]
    out = [
        '<div class="scores">',
        f'<div class="score"><span class="k">Points</span> {_meter(p["points"], t["points"])}'
        f' <b class="v points">{p["points"]}</b><span class="of">/{t["points"]}</span></div>',
        f'<div class="score"><span class="k">Crowns</span> '
        f'{_meter(p["crowns"], t["crowns"], "crowns")} <b class="v crowns">{p["crowns"]}</b>'
        f'<span class="of">/{t["crowns"]}</span></div>',
        f'<div class="score{" changed" if p["privileges_changed"] else ""}"><span class="k">'
        f"Privileges</span> {privileges(p['privileges'])}</div>",
        "</div>",
        '<table class="holdings"><thead><tr><th></th>',
        "".join(f"<th>{token(x['letter'], x['color'], 'small')}</th>" for x in p["tokens"]),
        "</tr></thead><tbody>",
        f'<tr class="tokens"><th scope="row">Tokens <span class="total">{p["token_count"]}'
        "</span></th>",
        "".join(_token_cell(x) for x in p["tokens"]),
        '</tr><tr class="bonuses"><th scope="row">Bonuses</th>',
        "".join(f'<td class="{"" if x["n"] else "zero"}">{x["n"]}</td>' for x in p["bonuses"]),
        "<td></td><td></td></tr>",
        f'<tr class="colorpoints"><th scope="row">Points <span class="of">/{t["color"]}</span>'
        "</th>",
        "".join(
            f'<td class="{"" if x["n"] else "zero"}">{x["n"]}'
            f"{_meter(x['n'], t['color'], 'm-' + x['color'])}</td>"
            for x in p["color_points"]
        ),
        "<td></td><td></td></tr></tbody></table>",
        '<div class="tableau" aria-label="cards bought">',
        _tableau(p["card_groups"]),
        "</div>",
        '<div class="extras"><div class="reserved"><span class="k">Reserved</span>',
        "".join(
            card(r["card"], "small new" if r["new"] else "small", tips=True)
            if r["card"]
            else card_back(r["level"], "small new" if r["new"] else "small")
            for r in p["reserved"]
        )
        or ' <span class="none">none</span>',
        '</div><div class="player-royals"><span class="k">Royals</span>',
        "".join(royal(r, "new" if r["new"] else "", tips=True) for r in p["royals"])
        or ' <span class="none">none</span>',
        "</div></div>",
    ]
    return Markup("".join(out))


def _token_cell(x: Mapping[str, Any]) -> str:
    n, delta = x["n"], x["delta"]
    cls = ("" if n else "zero") + (" up" if delta > 0 else "") + (" down" if delta < 0 else "")
    small = f'<small class="delta">{delta:+d}</small>' if delta else ""
    return f'<td class="{cls.strip()}" data-color="{x["letter"]}">{n}{small}</td>'


def _tableau(groups: Sequence[Mapping[str, Any]]) -> str:
    if not groups:
        return '<span class="none">no cards yet</span>'
    out = []
    for g in groups:
        n = len(g["cards"])
        color = escape(g["color"])
        cards = "".join(card(c, "mini new" if c["new"] else "mini") for c in g["cards"])
        out.append(
            f'<div class="stack s-{color}" title="{color}: {n} card{"s" if n != 1 else ""}'
            f', {g["points"]} points">{cards}</div>'
        )
    return "".join(out)
