"""The site's one write path: creating a game, logging what was played, undoing.

The JSON API (:mod:`web.api`) and the site's forms both call these, after checking who
may write (:mod:`web.auth`).  Each is one call of :mod:`recorder.logbook`, so each is atomic:
a refusal writes nothing.  A success returns the JSON body of the answer; a refusal raises
:class:`WriteError` with its status and body: ``{"error": {"status", "title", "message"}}``,
plus ``"step"`` (the game's steps now) on 409, ``"verdict"`` on 422 (each violation with
its rule and the rulebook's page) and ``"column"`` on 400 when the text's error has one.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import request, url_for

from engine.corrections import UNDO, CorrectionRefused
from recorder import GameNotFound, ImportRejected, logbook
from recorder.errors import lone_surrogate_at
from recorder.logbook import BadMove, Logged, MoveRefused, StaleStep

from .db import get_store, off_loop

#: One line per write (the game, its steps, where from); never a key or a secret.
log = logging.getLogger("tablelog.web.writes")

#: The longest move text a write accepts (a turn line with its comment fits easily).
MAX_MOVE_TEXT = 2000
#: The longest headers and setup a new game accepts.
MAX_SETUP_TEXT = 20_000


class WriteError(Exception):
    """A refused write: ``status`` and the JSON ``body`` of the answer."""

    def __init__(self, status: int, title: str, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {
            "error": {"status": status, "title": title, "message": message},
            **extra,
        }

    @property
    def message(self) -> str:
        return str(self.body["error"]["message"])


@off_loop
def create_game(notation: str) -> dict[str, Any]:
    """A new game from its headers and setup in notation, with a fresh recorder key:
    ``{"id", "key", "steps", "url", "record_url"}``.  The key is in this answer only."""
    _check_text("notation", notation, MAX_SETUP_TEXT)
    store = get_store()
    try:
        game_id = logbook.new_game(store, notation, source="notation")
    except ImportRejected as err:
        raise WriteError(400, "The game cannot be created", str(err)) from None
    key = store.issue_recorder_key(game_id)
    log.info("game %s created from %s", game_id, request.remote_addr)
    return {
        "id": game_id,
        "key": key,
        "steps": store.game(game_id).event_count,
        "url": url_for("site.game", game_id=game_id),
        # the key goes in the fragment: browsers never send it to a server
        "record_url": f"{request.script_root}/games/{game_id}/record#key={key}",
    }


@off_loop
def append_move(
    game_id: str, move: str, expect: int | None, as_played: bool = False
) -> dict[str, Any]:
    """Log ``move`` (one turn or decision in notation) as played next in ``game_id``."""
    _check_text("move", move, MAX_MOVE_TEXT)
    if not move.strip():
        raise WriteError(400, "No move", "move: a turn or decision in notation is required")
    store = get_store()
    try:
        logged = logbook.log(store, game_id, move, expect=expect, as_played=as_played)
    except GameNotFound:
        raise _not_found(game_id) from None
    except StaleStep as err:
        raise _stale(err) from None
    except MoveRefused as err:
        raise WriteError(
            422,
            "Illegal move",
            str(err),
            verdict={"text": err.text, "violations": [v.to_dict() for v in err.violations]},
            step=store.game(game_id).event_count,
            completions=err.completions,
            as_played=err.playable,
        ) from None
    except BadMove as err:
        extra = {"column": err.column} if err.column else {}
        message = err.reason if err.column else str(err)
        raise WriteError(
            400, "The move does not read", message, completions=err.completions, **extra
        ) from None
    return _logged(logged)


@off_loop
def undo_move(game_id: str, expect: int | None, to: int | None = None) -> dict[str, Any]:
    """Take back the last standing decision (or everything after step ``to``) with a
    correction event; nothing is deleted."""
    store = get_store()
    try:
        logged = logbook.undo(store, game_id, to=to, expect=expect)
    except GameNotFound:
        raise _not_found(game_id) from None
    except StaleStep as err:
        raise _stale(err) from None
    except CorrectionRefused as err:
        raise WriteError(
            422,
            "Nothing to undo there",
            str(err),
            verdict={"text": UNDO, "violations": [v.to_dict() for v in err.violations]},
            step=store.game(game_id).event_count,
        ) from None
    return _logged(logged)


def _logged(logged: Logged) -> dict[str, Any]:
    log.info(
        "game %s: step %d logged from %s (%s)",
        logged.game_id,
        logged.steps,
        request.remote_addr,
        "; ".join(logged.texts),
    )
    return {
        **logged.to_dict(),
        "url": url_for("site.step", game_id=logged.game_id, step=logged.steps),
    }


def _check_text(field: str, value: Any, limit: int) -> None:
    if not isinstance(value, str):
        raise WriteError(400, "Bad request", f"{field}: expected a string")
    if len(value) > limit:
        raise WriteError(400, "Bad request", f"{field}: at most {limit} characters")
    at = lone_surrogate_at(value)
    if at is not None:
        raise WriteError(400, "Bad request", f"{field}: not valid Unicode at character {at + 1}")


def _not_found(game_id: str) -> WriteError:
    return WriteError(404, "Not Found", f"no game {game_id!r}")


def _stale(err: StaleStep) -> WriteError:
    return WriteError(
        409,
        "Another logger was first",
        f"expected {err.expected} steps, but the game has {err.actual}; nothing was written",
        step=err.actual,
    )


__all__ = ["MAX_MOVE_TEXT", "WriteError", "append_move", "create_game", "undo_move"]
