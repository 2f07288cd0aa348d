"""The site's one write path: creating a game, logging what was played, undoing.

The JSON API (:mod:`web.api`) and the site's forms both call these, after checking who
may write (:mod:`web.auth`).  Each is one call of :mod:`recorder.logbook`, so each is atomic:
a refusal writes nothing.  A success returns the JSON body of the answer; a refusal raises
:class:`WriteError` with its status and body: ``{"error": {"status", "title", "message"}}``,
plus ``"step"`` (the game's steps now) on 409, ``"verdict"`` on 422 (each violation with
its rule and the rulebook's page) and ``"column"`` on 400 when the text's error has one.
"""

from __future__ import annotations

import hashlib
import logging
import re
from typing import Any

from flask import abort, request, url_for

from engine.corrections import UNDO, CorrectionRefused
from recorder import CorruptEvent, GameNotFound, GameVoid, ImportRejected, logbook
from recorder.errors import StoreError, unstorable_at
from recorder.logbook import BadMove, Logged, MoveRefused, StaleStep

from .db import get_store, off_loop

#: One line per write (the game, its steps, where from); never a key or a secret.
log = logging.getLogger("tablelog.web.writes")

#: The longest move text a write accepts (a turn line with its comment fits easily).
MAX_MOVE_TEXT = 2000
#: The longest headers and setup a new game accepts.
MAX_SETUP_TEXT = 20_000
#: A logger's own id for a move (the events are stored under it, and ``ID.2``...): the
#: JSON API's ``"id"`` and the logging page's ``id`` field.
MOVE_ID_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")
MOVE_ID_RULE = "id: 8 to 64 letters, digits, '-' or '_' (a UUID will do)"


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
def create_game(notation: str, retry_key: str | None = None) -> tuple[dict[str, Any], bool]:
    """A new game from its headers and setup in notation, with a fresh recorder key:
    ``{"id", "key", "steps", "url", "record_url"}``, and whether it was made now.  The key
    is in this answer only.

    With ``retry_key`` (an ``Idempotency-Key``) the game's id is derived from it: the same
    creation sent again finds the game made the first time (and gives it a new key, the
    first answer having been lost), where without one every call makes a game."""
    _check_text("notation", notation, MAX_SETUP_TEXT)
    store = get_store()
    game_id = None if retry_key is None else retry_game_id(retry_key)
    try:
        made = logbook.start_game(store, notation, source="notation", game_id=game_id)
    except ImportRejected as err:
        if game_id is not None and err.field == "id":
            raise WriteError(
                409,
                "Idempotency-Key already used",
                "Idempotency-Key: it made another game; send a new key for a new game",
            ) from None
        raise WriteError(400, "The game cannot be created", str(err)) from None
    game_id = made.game_id
    key = store.keys.issue(game_id)
    log.info(
        "game %s %s from %s",
        game_id,
        "created" if made.created else "found again",
        request.remote_addr,
    )
    return {
        "id": game_id,
        "key": key,
        "steps": store.game(game_id).event_count,
        "url": url_for("site.game", game_id=game_id),
        # the key goes in the fragment: browsers never send it to a server
        "record_url": f"{request.script_root}/games/{game_id}/record#key={key}",
    }, made.created


def retry_game_id(retry_key: str) -> str:
    """The id of the game an ``Idempotency-Key`` makes: derived from the key, so only its
    sender can name it (a key is a random token the client chose)."""
    digest = hashlib.sha256(b"tablelog idempotency:" + retry_key.encode("utf-8")).hexdigest()
    return "r" + digest[:15]


@off_loop
def append_move(
    game_id: str,
    move: str,
    expect: int | None,
    as_played: bool = False,
    move_id: str | None = None,
) -> dict[str, Any]:
    """Log ``move`` (one turn or decision in notation) as played next in ``game_id``
    (under the logger's own ``move_id``: the same id again answers with the move as it
    was stored)."""
    _check_text("move", move, MAX_MOVE_TEXT)
    if not move.strip():
        raise WriteError(400, "No move", "move: a turn or decision in notation is required")
    if expect is None and UNDO in move.lower().split():
        raise _undo_needs_expect()
    store = get_store()
    try:
        _unaltered(store, game_id)
        logged = logbook.log(
            store, game_id, move, expect=expect, as_played=as_played, move_id=move_id
        )
    except GameNotFound:
        raise _not_found(game_id) from None
    except GameVoid as err:
        raise _void(err) from None
    except logbook.IdTaken as err:
        raise WriteError(
            409, "The id is another move's", str(err), step=store.game(game_id).event_count
        ) from None
    except CorruptEvent as err:
        raise _altered(str(err)) from None
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
        extra: dict[str, Any] = {"column": err.column} if err.column else {}
        message = err.reason if err.column else str(err)
        title = "The move does not read"
        if err.incomplete:
            title, extra["incomplete"] = "Incomplete move", True
        raise WriteError(400, title, message, completions=err.completions, **extra) from None
    return _logged(logged)


@off_loop
def undo_move(game_id: str, expect: int | None, to: int | None = None) -> dict[str, Any]:
    """Take back the last standing decision (or everything after step ``to``) with a
    correction event; nothing is deleted."""
    if expect is None and to is None:
        raise _undo_needs_expect()
    store = get_store()
    try:
        _unaltered(store, game_id)
        logged = logbook.undo(store, game_id, to=to, expect=expect)
    except GameNotFound:
        raise _not_found(game_id) from None
    except GameVoid as err:
        raise _void(err) from None
    except CorruptEvent as err:
        raise _altered(str(err)) from None
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


def _void(err: GameVoid) -> WriteError:
    return WriteError(409, "The game is void", str(err))


@off_loop
def void_game(game_id: str, reason: str) -> dict[str, Any]:
    """Void a game started by mistake (the caller holds its key): kept, left out of the
    lists, nothing more logged to it."""
    store = get_store()
    try:
        row = store.void_game(game_id, reason)
    except GameNotFound:
        raise _not_found(game_id) from None
    except GameVoid as err:
        raise _void(err) from None
    except StoreError as err:
        raise WriteError(400, "No reason", str(err)) from None
    log.info("game %s: voided (%s)", game_id, row.void)
    return {"id": row.id, "void": row.void}


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
        raise WriteError(400, "Bad Request", f"{field}: expected a string")
    if len(value) > limit:
        raise WriteError(400, "Bad Request", f"{field}: at most {limit} characters")
    found = unstorable_at(value)
    if found is not None:
        raise WriteError(400, "Bad Request", f"{field}: character {found[0] + 1}: {found[1]}")


def _not_found(game_id: str) -> WriteError:
    return WriteError(404, "Not Found", f"no game {game_id!r}")


def _stale(err: StaleStep) -> WriteError:
    return WriteError(
        409,
        "Another logger was first",
        f"expected {err.expected} steps, but the game has {err.actual}; nothing was written",
        step=err.actual,
    )


__all__ = [
    "MAX_MOVE_TEXT",
    "MOVE_ID_RE",
    "MOVE_ID_RULE",
    "WriteError",
    "append_move",
    "create_game",
    "undo_move",
]


def _unaltered(store: Any, game_id: str) -> None:
    """WriteError 409 when the game's record was changed behind the store's back (its
    chain does not verify): nothing is logged after a record that is not as written."""
    findings = store.verification.chain_findings(game_id)
    if findings:
        first = findings[0]
        where = f"step {first.step}" if first.step is not None else "its head"
        raise _altered(f"game {game_id}: the record was altered at {where}: {first.message}")


def _altered(message: str) -> WriteError:
    return WriteError(
        409,
        "The record was altered",
        f"{message}; nothing can be logged after it (tablelog verify names every change)",
    )


def _undo_needs_expect() -> WriteError:
    """An undo names the step it starts from: sent twice (an answer lost, a retry), a
    plain undo would take back two decisions."""
    return WriteError(
        400,
        "Undo needs expect",
        "expect: required with an undo (the steps the game has now), so that an undo sent "
        "again takes back nothing more; or give 'to', the step to go back to",
    )


# --- the review (recorder.review) --------------------------------------------------------


def _field(part: dict[str, Any], name: str, types: tuple[type, ...], where: str) -> Any:
    value = part.get(name)
    if value is not None and not isinstance(value, types):
        abort(400, description=f"{where}.{name}: expected {' or '.join(t.__name__ for t in types)}")
    return value


@off_loop
def write_review(game_id: str, what: str, part: Any, by: str, expect: int) -> dict[str, Any]:
    """Add one review event (``what``: ``line``, ``mark`` or ``withdraw``, its ``part`` as
    the API's JSON has it) by ``by`` after the review's first ``expect`` events: the API's
    and the site's forms' one way to write the review.  WriteError: 409 stale, 422 an
    illegal move of a line, 404 a step that does not exist, 400 the rest."""
    from recorder import review as rv

    store = get_store()
    try:
        if what == "line":
            moves = _field(part, "moves", (list,), "line")
            origin = _field(part, "from", (str, int), "line")
            if origin is None or not moves or not all(isinstance(m, str) for m in moves):
                abort(400, description="line: from (a step) and moves (a list of texts)")
            line, event = rv.save_line(store, game_id, str(origin), moves, by, expect)
            return {"game": game_id, "length": event.seq, "line": line.to_dict()}
        if what == "mark":
            at = _field(part, "at", (str, int), "mark")
            if at is None:
                abort(400, description="mark.at: required (a step)")
            event = rv.add_mark(
                store,
                game_id,
                str(at),
                _field(part, "mark", (str,), "mark"),
                _field(part, "note", (str,), "mark"),
                by,
                expect,
            )
        else:
            event = rv.withdraw_line(store, game_id, part, by, expect)
        return {"game": game_id, "length": event.seq, "review": event.to_dict()}
    except rv.ReviewConflict as err:
        raise WriteError(409, "Another reviewer was first", str(err), length=err.actual) from None
    except rv.ReviewRefused as err:
        if err.field == "moves" and err.violations:
            raise WriteError(
                422,
                "Illegal move",
                str(err),
                move=err.move,
                violations=[v.to_dict() for v in err.violations],
            ) from None
        if err.field == "at":
            raise WriteError(404, "Not Found", str(err), field=err.field) from None
        raise WriteError(400, "Bad Request", str(err), field=err.field) from None
