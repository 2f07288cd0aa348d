"""Recorder keys: who may write a game over HTTP.

Each game may have one recorder key, a random secret shown once to whoever created the game
(or asked ``tablelog key`` for a new one).  The store keeps only its SHA-256: the key has
256 bits of randomness, so a plain hash is as good as a slow one, and whoever reads the
database learns nothing that lets them write.  Comparisons take constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3

#: Bytes of randomness in a key (shown as URL-safe base64, 43 characters).
KEY_BYTES = 32


def new_key() -> str:
    """A fresh recorder key."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the store keeps of ``key``."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def store_key(conn: sqlite3.Connection, game_id: str, key: str, recorded_at: str) -> None:
    """Keep ``key`` (as its hash) as the game's only recorder key, replacing any other."""
    conn.execute(
        "INSERT INTO recorder_keys (game_id, key_hash, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET key_hash = excluded.key_hash, "
        "created_at = excluded.created_at",
        (game_id, key_hash(key), recorded_at),
    )


def key_matches(conn: sqlite3.Connection, game_id: str, key: str) -> bool:
    """Whether ``key`` is the game's recorder key (False when the game has none)."""
    row = conn.execute(
        "SELECT key_hash FROM recorder_keys WHERE game_id = ?", (game_id,)
    ).fetchone()
    # compare the hashes: both have the same length whatever was sent
    return row is not None and hmac.compare_digest(row[0], key_hash(key))
