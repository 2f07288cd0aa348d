"""The chain: what makes a change to a stored game evident.

Every event of a game carries a hash chained over the one before it and its own
canonical content, as git chains its objects and Certificate Transparency its log: a
change to any event, to its order, or to the game's headers changes every hash after it,
so a head (the last event's hash) that was kept, or a chain that is recomputed, tells
whether the record is the one that was written.  ``docs/integrity.md`` states what it
does and does not guard against.

The canonical bytes, defined here and nowhere else (SHA-256 throughout):

* the **origin** (the head of a game without events) hashes ``tablelog-chain 1``, the
  game's kind and its identity headers (:func:`identity_headers`: every header but those
  that say how it ended, ``Result`` and ``Victory``, as sorted compact JSON).  The players,
  date, place and tags are what the record is *of*, so changing one shows; the outcome
  headers are left out because they follow from the events (an import checks them
  against the game), and a game logged live carries none while its export does, so the
  same game has the same head either way.  The game's id is left out too: the same game
  stored under two ids is the same record;
* **step n** hashes the 32 raw bytes of step n-1's hash (the origin's for the setup, step
  1) and the event's content: its payload as the store keeps it (the engine's canonical
  compact JSON, keys in the engine's order) and the logger's meta (comment, annotations,
  the played-illegally mark; sorted compact JSON, empty when there is none), each
  followed by a newline.  Compact JSON never holds a raw newline, so the parts cannot run
  into one another.  This is what the notation writes of an event; the store's own
  additions (event ids, recording times, the violations it found) are left out, so the
  same game imported from notation, from JSON or logged move by move has the same chain.

Each event's hash is stored raw (32 bytes); heads are written as 64 lowercase hex digits,
and :func:`short` is the 12 a player keeps.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

#: The name and version of this definition, hashed into every origin.
CHAIN_FORMAT = "tablelog-chain 1"

#: Headers that say how a game ended: a game is the same with or without them.
OUTCOME_HEADERS = frozenset({"result", "victory"})

#: Hex digits of the short form of a head.
SHORT = 12

_sha256 = hashlib.sha256


def dumps_sorted(value: Any) -> str:
    """Compact JSON with sorted keys (headers and meta, compared and hashed as text)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def identity_headers(headers: Mapping[str, Any]) -> str:
    """The headers that make a game's identity, as sorted JSON: all but those that say
    how it ended (``Result``, ``Victory``, at the top or among the tags), so a game
    imported with and without them is the same game.

    >>> identity_headers({"players": ["A", "B"], "result": "1-0", "tags": {"Victory": "points"}})
    '{"players":["A","B"]}'
    """
    out = {k: v for k, v in headers.items() if k.lower() not in OUTCOME_HEADERS}
    tags = out.get("tags")
    if isinstance(tags, dict):
        kept = {k: v for k, v in tags.items() if k.lower() not in OUTCOME_HEADERS}
        if kept:
            out["tags"] = kept
        else:
            del out["tags"]
    return dumps_sorted(out)


def origin(kind: str, headers: Mapping[str, Any]) -> bytes:
    """The raw hash a game's chain starts from (the head of a game with no events)."""
    return _sha256(f"{CHAIN_FORMAT}\n{kind}\n{identity_headers(headers)}\n".encode()).digest()


def content(payload_json: str, meta_json: str | None) -> bytes:
    """An event's canonical content: its payload JSON and the logger's meta JSON (or
    nothing), each followed by a newline."""
    return f"{payload_json}\n{meta_json or ''}\n".encode()


def link(previous: bytes, event_content: bytes) -> bytes:
    """The raw hash of a step: the previous step's raw hash, then the event's content."""
    return _sha256(previous + event_content).digest()


def logger_meta(meta_text: str | None) -> str | None:
    """The logger's part of a stored meta JSON (the store's ``violations`` left out), as
    sorted compact JSON; None when nothing is left."""
    if not meta_text:
        return None
    try:
        meta = json.loads(meta_text)
    except ValueError:
        return meta_text  # not the store's: hashed as it is, so the chain shows it
    if not isinstance(meta, dict):
        return meta_text
    meta.pop("violations", None)
    return dumps_sorted(meta) if meta else None


def stored_links(
    kind: str, headers: Mapping[str, Any], rows: Iterable[tuple[str, str | None]]
) -> Iterator[bytes]:
    """The raw hash of each step of a stored game, from its rows (payload JSON, stored
    meta JSON) in order."""
    h = origin(kind, headers)
    for payload_json, meta_text in rows:
        h = link(h, content(payload_json, logger_meta(meta_text)))
        yield h


def short(head: str) -> str:
    """The short form of a head, the first :data:`SHORT` hex digits (as git abbreviates
    a commit): enough to notice a change, short enough to write down."""
    return head[:SHORT]


def keyed(head: str, key: str | bytes) -> str:
    """The head keyed with a secret (HMAC-SHA256 of the hex head), hex: forging it needs
    the secret, where anyone can recompute a plain chain."""
    secret = key.encode() if isinstance(key, str) else key
    return hmac.new(secret, head.encode(), hashlib.sha256).hexdigest()
