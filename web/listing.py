"""The games list's pages, for the site and the API alike: a page found by its place in
the order (``after`` or ``before`` a game's place, or the last page), its games counted
only up to ``LIST_COUNT_AT_MOST`` ("more" past it), and an old address's page number
sent on to the place of that page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app, redirect, url_for
from werkzeug.wrappers import Response

from recorder import GameRow

from . import params
from .db import get_store, take_turn


@dataclass(frozen=True)
class ListPage:
    """A page of the games list and its neighbours' addresses (None where there is none:
    ``first`` and ``prev`` on the first page, ``next`` and ``last`` on the last)."""

    games: list[GameRow]
    #: How many games the filters leave; None for more than ``at_most``.
    total: int | None
    at_most: int
    links: dict[str, str | None]
    filters: dict[str, Any]


def list_page(endpoint: str, *, per_page_always: bool) -> ListPage | Response:
    """The page the request asks for at ``endpoint`` (its filters and order kept in its
    links, ``per_page`` too when it is not the site's own or ``per_page_always``); a
    redirect for an old page number (``page=N``): to the place of that page, which
    stays the same page as games are added before it, or to the last page past the end."""
    f = params.list_filters()
    store = get_store()
    filters = {"player": f["player"], "result": f["result"], "kind": f["kind"]}
    keep: dict[str, Any] = {k: v for k, v in {**filters, "order": f["order"]}.items() if v}
    if f["all"]:
        keep["all"] = 1
    with_void = bool(f["all"])
    per_page = f["per_page"]
    if per_page_always or per_page != current_app.config["PER_PAGE"]:
        keep["per_page"] = per_page
    order = f["order"]
    placed = f["after"] or f["before"] or f["last"]
    if f["page"] > 1 and not placed:
        # (an index entry read for each game before the page: once, for the redirect)
        anchor = store.listing.page(
            **filters,
            order=order,
            limit=1,
            offset=(f["page"] - 1) * per_page - 1,
            with_void=with_void,
        )
        target = {"after": anchor.next} if anchor.next else {"page": "last"}
        return redirect(url_for(endpoint, **keep, **target), code=302)
    page = store.listing.page(
        **filters,
        order=order,
        limit=per_page,
        after=f["after"],
        before=f["before"],
        last=f["last"],
        with_void=with_void,
    )
    take_turn()
    at_most = int(current_app.config["LIST_COUNT_AT_MOST"])
    if f["player"]:
        at_most = max(1, at_most // 10)  # (each of the player's games read)
    total = store.listing.count(**filters, at_most=at_most, with_void=with_void)
    return ListPage(
        games=page.games,
        total=total if total <= at_most else None,
        at_most=at_most,
        links={
            "first": url_for(endpoint, **keep) if page.prev else None,
            "prev": url_for(endpoint, **keep, before=page.prev) if page.prev else None,
            "next": url_for(endpoint, **keep, after=page.next) if page.next else None,
            "last": url_for(endpoint, **keep, page="last") if page.next else None,
        },
        filters=f,
    )
