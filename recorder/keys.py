"""Recorder keys: who may write a game over HTTP.

Each game may have one recorder key, a random secret shown once to whoever created the game
(or asked ``tablelog key`` for a new one).  The store keeps only its SHA-256: the key has
256 bits of randomness, so a plain hash is as good as a slow one, and whoever reads the
database learns nothing that lets them write.  Comparisons take constant time.

A browser unlocked with a key keeps the key's fingerprint (:func:`fingerprint`), not the
key: a new key, or none (:func:`revoke_key`), changes or removes the game's, and so ends
every session unlocked with the old one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3

from .access import SqlAccess
from .errors import GameNotFound

#: Bytes of randomness in a key (shown as URL-safe base64, 43 characters).
KEY_BYTES = 32


def new_key() -> str:
    """A fresh recorder key."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the store keeps of ``key``."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def fingerprint(hashed: str) -> str:
    """What a session keeps of the key whose hash is ``hashed``: enough to tell the key it
    was unlocked with from a newer one, and nothing that lets anyone write."""
    return hashlib.sha256(b"tablelog session:" + hashed.encode("ascii")).hexdigest()[:32]


#: The tables of keys: a game's recorder key (writes moves and its review) and its review
#: key (writes its review only).
KEY_TABLES = ("recorder_keys", "review_keys")


def store_key(
    conn: sqlite3.Connection,
    game_id: str,
    key: str,
    recorded_at: str,
    table: str = "recorder_keys",
) -> None:
    """Keep ``key`` (as its hash) as the game's only key of its kind (``table``: one of
    :data:`KEY_TABLES`), replacing any other."""
    assert table in KEY_TABLES
    conn.execute(
        f"INSERT INTO {table} (game_id, key_hash, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET key_hash = excluded.key_hash, "
        "created_at = excluded.created_at",
        (game_id, key_hash(key), recorded_at),
    )


def key_matches(
    conn: sqlite3.Connection, game_id: str, key: str, table: str = "recorder_keys"
) -> bool:
    """Whether ``key`` is the game's key of its kind (False when the game has none)."""
    assert table in KEY_TABLES
    row = conn.execute(f"SELECT key_hash FROM {table} WHERE game_id = ?", (game_id,)).fetchone()
    # compare the hashes: both have the same length whatever was sent
    return row is not None and hmac.compare_digest(row[0], key_hash(key))


def key_fingerprint(conn: sqlite3.Connection, game_id: str) -> str | None:
    """The :func:`fingerprint` of the game's recorder key (None when it has none)."""
    row = conn.execute(
        "SELECT key_hash FROM recorder_keys WHERE game_id = ?", (game_id,)
    ).fetchone()
    return None if row is None else fingerprint(row[0])


def revoke_key(conn: sqlite3.Connection, game_id: str) -> bool:
    """Remove the game's recorder key, so that no key and no session unlocked with one
    writes the game; whether it had one."""
    return conn.execute("DELETE FROM recorder_keys WHERE game_id = ?", (game_id,)).rowcount > 0


class Keys:
    """A store's keys (``store.keys``): a game's recorder key, which writes its moves and
    its review, and its review key, which writes its review only."""

    def __init__(self, store: SqlAccess) -> None:
        self._store = store

    def issue(self, game_id: str, *, review: bool = False) -> str:
        """A new key for the game (its recorder key, or with ``review`` its review key),
        replacing any earlier one of its kind, stored as its hash only: show it once.
        :class:`GameNotFound` for an unknown id."""
        key = new_key()
        with self._store.writing() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFound(game_id)
            store_key(
                conn,
                game_id,
                key,
                self._store.clock(),
                table="review_keys" if review else "recorder_keys",
            )
        return key

    def matches(self, game_id: str, key: str, *, review: bool = False) -> bool:
        """Whether ``key`` is the game's recorder key (with ``review``, its review key),
        compared in constant time."""
        with self._store.reading() as conn:
            return key_matches(
                conn, game_id, key, table="review_keys" if review else "recorder_keys"
            )

    def fingerprint(self, game_id: str) -> str | None:
        """The fingerprint a session keeps of the game's recorder key (None when the game
        has none): a session unlocked with an older key holds another."""
        with self._store.reading() as conn:
            return key_fingerprint(conn, game_id)

    def revoke(self, game_id: str) -> bool:
        """Remove the game's recorder key: no key and no session writes it until
        :meth:`issue` makes a new one.  Whether it had one; :class:`GameNotFound` for an
        unknown id."""
        with self._store.writing() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFound(game_id)
            return revoke_key(conn, game_id)
