"""The card picker: a game's cards drawn as players see them, grouped by level, to tap
one (``templates/picker.html``, ``static/picker.js``), and the look-up that reads what a
player typed (an id or what is printed on the card) into one card.

There is one matcher: the game's :meth:`engine.protocol.GameRules.find_cards`.  The page's
script asks it through :func:`find_view` (``GET /cards/<kind>/find?q=...``) as the player
types and shows the cards it names; a form sent without JavaScript is read by
:func:`resolve`, which calls the same method.

>>> from engine.games import GAMES
>>> rules = next(iter(GAMES.values()))
>>> card = next(iter(rules.cards().values()))
>>> resolve(rules, card.id).id == card.id
True
>>> resolve(rules, "")
Traceback (most recent call last):
...
web.picker.PickError: choose a card (tap it, or type its id or what is printed on it)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from flask import abort, jsonify, request
from werkzeug.wrappers import Response

from engine.errors import EngineError
from engine.protocol import Card, GameRules

from . import boards

#: How many candidates an error about a description that fits several cards names.
LISTED = 6
#: The longest query :func:`find_view` reads.
MAX_QUERY = 120


class PickError(ValueError):
    """What a player typed names no card, or several, or one that is already taken."""


def picker_groups(
    rules: GameRules,
    levels: Iterable[int] | None = None,
    only: Collection[str] | None = None,
    state: Any | None = None,
) -> list[dict[str, Any]]:
    """The cards a picker shows, highest level first: ``[{"level", "label", "cards":
    [{"id", "level", "words", "view"}]}]`` (``view``: the card as the game's view draws
    it, for ``templates/picker.html`` to draw with the game's pieces; ``label``: the
    game's name of the level, :func:`level_label`).  ``levels`` keeps those levels;
    ``only`` keeps
    those ids; ``state`` keeps the cards still unseen there (in a deck, or reserved
    blind), as the game's own look-up says (for the card revealed into a game in
    progress)."""
    by_level: dict[int, list[dict[str, Any]]] = {}
    keep = None if levels is None else set(levels)
    if state is not None:
        unseen = {c.id for c in rules.find_cards("", state)}
        only = unseen if only is None else unseen & set(only)
    for card in rules.cards().values():
        if (keep is not None and card.level not in keep) or (
            only is not None and card.id not in only
        ):
            continue
        view = rules.card_view(card.id)
        by_level.setdefault(card.level, []).append(
            {
                "id": card.id,
                "level": card.level,
                "words": card.words,
                "view": view,
            }
        )
    groups = []
    for level in sorted(by_level, reverse=True):
        cards = sorted(by_level[level], key=lambda c: c["id"])
        label = level_label(rules, level)
        groups.append({"level": level, "label": label, "cards": cards})
    return groups


def resolve(
    rules: GameRules,
    text: str,
    level: int | None = None,
    taken: Collection[str] = (),
) -> Card:
    """The one card ``text`` names (its id or what is printed on it), at ``level``, not
    among ``taken``; :class:`PickError` says why not, in words a player can act on."""
    query = text.strip()
    if not query:
        raise PickError("choose a card (tap it, or type its id or what is printed on it)")
    try:
        found = rules.find_cards(query)
    except (EngineError, ValueError) as err:
        raise PickError(str(err)) from None
    fits = [c for c in found if level is None or c.level == level]
    if not fits:
        if found:
            where = ", ".join(sorted({_level_name(rules, c.level) for c in found}))
            raise PickError(
                f"{query!r} is not a {_level_name(rules, level)} card (it fits {where})"
            )
        raise PickError(f"no card fits {query!r}")
    free = [c for c in fits if c.id not in taken]
    if not free:
        ids = ", ".join(c.id for c in fits[:LISTED])
        raise PickError(f"{query!r} fits only {ids}, already chosen")
    if len(free) > 1:
        ids = ", ".join(c.id for c in free[:LISTED]) + (", ..." if len(free) > LISTED else "")
        raise PickError(f"{len(free)} cards fit {query!r} ({ids}): say more, or give the id")
    return free[0]


def level_label(rules: GameRules, level: int) -> str:
    """What a level of cards is called: the label of the game's setup line of that level
    (``Level 3``), or ``Level N`` when no line lays it out."""
    line = next((ln for ln in rules.setup_lines if ln.level == level), None)
    return line.label if line is not None else f"Level {level}"


def _level_name(rules: GameRules, level: int | None) -> str:
    """A level's cards in a sentence (``level-3``; the game's word for its line's pieces
    where it has one: ``is not a <word> card``)."""
    line = next((ln for ln in rules.setup_lines if ln.level == level), None)
    if line is not None and line.piece != "card":
        return line.piece
    return f"level-{level}"


def find_view(kind: str) -> Response:
    """``GET /cards/<kind>/find?q=...``: the ids of the cards the game's own look-up
    finds for ``q`` (``{"query", "ids", "error"}``; ``error`` names a word printed on no
    card, and ``ids`` is then empty).  The picker's script shows those of its cards."""
    try:
        rules = boards.rules(kind)
    except EngineError:
        abort(404, description=f"no game kind {kind!r}")
    query = (request.args.get("q") or "").strip()
    if len(query) > MAX_QUERY:
        abort(400, description=f"parameter 'q': at most {MAX_QUERY} characters")
    if not query:
        return jsonify({"query": "", "ids": list(rules.cards()), "error": None})
    try:
        ids = [c.id for c in rules.find_cards(query)]
    except (EngineError, ValueError) as err:
        return jsonify({"query": query, "ids": [], "error": str(err)})
    return jsonify({"query": query, "ids": ids, "error": None})
