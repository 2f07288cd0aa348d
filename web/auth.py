"""Who may write: the recorder key of each game, the server's secret for creating games,
the site's sessions and CSRF protection.

Two ways to be a game's logger:

* the JSON API sends the game's recorder key as ``Authorization: Bearer <key>`` on every
  write; it takes no cookie, so it needs no CSRF token (and its blueprint is exempt): a
  session cookie alone writes nothing through it;
* a browser that created the game, or unlocked it with its key, holds the game in its
  session (a signed cookie: HttpOnly, SameSite=Lax, Secure when served over HTTPS), and
  every form it posts carries flask-wtf's CSRF token.  The session holds the game with the
  fingerprint of the key it was unlocked with (:func:`recorder.keys.fingerprint`): a new
  key (``tablelog key GAME``) or none (``tablelog key GAME --revoke``) ends it.

Creating a game is open to the machine itself (loopback); from any other address it needs
the server's secret (``WRITE_SECRET``: ``$TABLELOG_SECRET`` or made at start and printed by
``tablelog serve``), as a Bearer token or a form field ``secret``.  Behind a reverse proxy
on the same machine every request comes from loopback: a request that carries a proxy's
header (``X-Forwarded-For``, ``Forwarded``) is not the machine's own unless the server
was told how many proxies to believe (``--trusted-proxies``, ``TRUSTED_PROXIES``), which
then gives the client's own address.

A key is never written to a log and never travels in a URL the server sees: the link a
logger shares puts it in the fragment (``/games/<id>/record#key=...``), and
``Referrer-Policy: no-referrer`` keeps even the page's address out of other sites' logs.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import secrets
from typing import Any

from flask import Flask, abort, current_app, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect

from recorder.keys import fingerprint, key_hash

from .db import get_store

log = logging.getLogger("tablelog.web.auth")

csrf = CSRFProtect()

#: The session key listing the games this browser may write.
SESSION_GAMES = "write"
#: How many games one browser session remembers as its own (the oldest are forgotten).
SESSION_GAMES_MAX = 32


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, with the cookie marked Secure whenever the request
    came over HTTPS (the same server also answers plain HTTP on a local network)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def init_app(app: Flask) -> None:
    """Secrets, sessions and CSRF protection for ``app`` (see the module's docstring)."""
    config = app.config
    if not config.get("SECRET_KEY"):  # Flask's defaults hold SECRET_KEY = None
        config["SECRET_KEY"] = os.environ.get("TABLELOG_SECRET_KEY") or secrets.token_hex(32)
    config.setdefault(
        "WRITE_SECRET", os.environ.get("TABLELOG_SECRET") or secrets.token_urlsafe(16)
    )
    config.setdefault("SESSION_COOKIE_HTTPONLY", True)
    if not config.get("SESSION_COOKIE_SAMESITE"):  # Flask's defaults hold None here too
        config["SESSION_COOKIE_SAMESITE"] = "Lax"
    # A game at the table lasts longer than flask-wtf's default hour: the token lives
    # as long as the session.
    config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    # The strict check wants a Referer on HTTPS, which no-referrer never sends; the
    # token and SameSite cookies are the protection.
    config.setdefault("WTF_CSRF_SSL_STRICT", False)
    app.session_interface = _SessionInterface()
    csrf.init_app(app)


def bearer_key() -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def session_games() -> dict[str, str]:
    """The games this browser's session holds, each with the fingerprint of the key it
    was unlocked with (a session of an earlier layout holds none)."""
    games = session.get(SESSION_GAMES)
    if not isinstance(games, dict):
        return {}
    return {g: f for g, f in games.items() if isinstance(g, str) and isinstance(f, str)}


def authorize(game_id: str, key: str) -> None:
    """This browser may write ``game_id`` from now on, while ``key`` is the game's
    recorder key (it created the game, or it gave the key)."""
    games = {g: f for g, f in session_games().items() if g != game_id}
    games[game_id] = fingerprint(key_hash(key))
    session[SESSION_GAMES] = dict(list(games.items())[-SESSION_GAMES_MAX:])


def unlock(game_id: str, key: str) -> bool:
    """Authorise this browser for ``game_id`` if ``key`` is its recorder key."""
    if not key or not get_store().keys.matches(game_id, key):
        return False
    authorize(game_id, key)
    return True


def session_standing(game_id: str) -> str:
    """What this browser's session says of ``game_id``: ``none`` (it does not hold it),
    ``replaced`` (it was unlocked with a key the game has no more) or ``held``."""
    held = session_games().get(game_id)
    if held is None:
        return "none"
    current = get_store().keys.fingerprint(game_id)
    if current is None or not hmac.compare_digest(held, current):
        return "replaced"
    return "held"


#: What a browser whose session was unlocked with a replaced or revoked key is told.
REPLACED = (
    "This logging link was replaced: the game has a new recorder key, or none. "
    "Ask whoever keeps the game for the new link."
)


def may_write(game_id: str) -> bool:
    """Whether this request may write ``game_id``: by its Bearer key, or by a session
    that holds the game under its current key."""
    key = bearer_key()
    if key is not None:
        return bool(get_store().keys.matches(game_id, key))
    return session_standing(game_id) == "held"


def require_writer(game_id: str) -> None:
    """The JSON API's check (its blueprint is exempt from CSRF, so it takes no cookie):
    abort with 401 when the request shows no Bearer key, 403 when the key is not the
    game's.  A browser's session writes through the logging page's forms, which carry
    the CSRF token."""
    key = bearer_key()
    if key is None:
        abort(
            401,
            description=f"game {game_id}: writing needs the game's recorder key "
            "(Authorization: Bearer <key>)",
        )
    if not get_store().keys.matches(game_id, key):
        log.warning("game %s: a write with a wrong key from %s", game_id, request.remote_addr)
        abort(403, description=f"game {game_id}: that is not this game's recorder key")


def is_loopback(address: str | None) -> bool:
    """Whether ``address`` is this machine (127.0.0.0/8, ::1)."""
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def from_this_machine() -> bool:
    """Whether the request came from this machine itself: from loopback, and not through
    a reverse proxy the server was not told to believe (see the module's docstring)."""
    if not is_loopback(request.remote_addr):
        return False
    if current_app.config.get("TRUSTED_PROXIES"):
        return True  # the address is the client's, as the proxies said
    return "X-Forwarded-For" not in request.headers and "Forwarded" not in request.headers


def _secret_given() -> str | None:
    key = bearer_key()
    if key is not None:
        return key
    value = request.form.get("secret")
    return value.strip() if value else None


def may_create() -> bool:
    """Whether this request may create a game: from loopback, or with the server's
    secret."""
    if from_this_machine():
        return True
    given = _secret_given()
    secret: Any = current_app.config["WRITE_SECRET"]
    return given is not None and hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), str(secret).encode()
    )


def require_creator() -> None:
    """Abort with 403 unless :func:`may_create`."""
    if not may_create():
        abort(
            403,
            description="creating a game from another machine needs the server's secret "
            "(printed by `tablelog serve`, or $TABLELOG_SECRET)",
        )
