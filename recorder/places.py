"""Which store a place names, in one place for the command line and the site.

A PostgreSQL URL (``postgresql://...`` or ``postgres://...``) names a PostgreSQL database;
anything else is an SQLite file: a path, or a ``sqlite:`` URL (``sqlite:data/club.db``,
``sqlite:///abs/path.db``).  The default is ``$TABLELOG_DB``, else ``./data/tablelog.db``.
:func:`recorder.stores.open_store` opens the store a place names.

>>> where("postgres://club@db/tablelog"), where("sqlite:///srv/t.db"), where("sqlite:x.db")
('postgres://club@db/tablelog', PosixPath('/srv/t.db'), PosixPath('x.db'))
>>> shown("postgresql://club:secret@db/tablelog")
'postgresql://club:***@db/tablelog'
>>> redact("postgresql://club@db.local:5432/tablelog?sslmode=require&password=s3cret")
'postgresql://club@db.local:5432/tablelog?sslmode=require&password=%2A%2A%2A'

Nothing here imports the PostgreSQL driver: a server that patches for gevent names its
store first, and the driver chooses how to wait on its sockets when it is imported.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .records import DEFAULT_DB

#: The schemes of a PostgreSQL URL.
PG_SCHEMES = ("postgresql", "postgres")


def is_postgres(place: object) -> bool:
    """Whether ``place`` names a PostgreSQL database."""
    return isinstance(place, str) and place.split("://", 1)[0].lower() in PG_SCHEMES


def default_place() -> str | Path:
    """``$TABLELOG_DB`` (a path or a URL) when set, else ``./data/tablelog.db``."""
    return where(os.environ.get("TABLELOG_DB") or DEFAULT_DB)


def where(place: str | os.PathLike[str] | None) -> str | Path:
    """The store ``place`` names: a PostgreSQL URL as it is, an SQLite file as a path
    (a ``sqlite:`` URL's path); None is the default place."""
    if place is None:
        return default_place()
    if isinstance(place, Path):
        return place
    text = os.fspath(place)
    if is_postgres(text):
        return text
    if text.lower().startswith("sqlite:"):
        rest = text[len("sqlite:") :]
        if rest.startswith("//"):
            rest = rest[2:]  # sqlite:///abs/path: an empty host, then the path
        return Path(rest)
    return Path(text)


def shown(place: str | os.PathLike[str] | None) -> str:
    """The store's place as it may be printed (a URL without its password)."""
    target = where(place)
    if isinstance(target, Path):
        return str(target)
    return redact(target)


def redact(url: str) -> str:
    """The URL as it may be shown: its password (in the address or the query) as ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(a PostgreSQL URL that cannot be read)"
    netloc = parts.netloc
    if "@" in netloc:
        auth, host = netloc.rsplit("@", 1)
        if ":" in auth:
            netloc = f"{auth.split(':', 1)[0]}:***@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(k.lower() == "password" for k, _ in pairs):
            query = urlencode([(k, "***" if k.lower() == "password" else v) for k, v in pairs])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
