"""``tablelog serve``: the replay site over a game database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .options import db_option

COMMANDS: list[click.Command] = []


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=5000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@db_option
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="gunicorn's gevent worker processes (default: one per core).",
)
@click.option(
    "--server",
    "server_name",
    type=click.Choice(["gunicorn", "waitress"]),
    default=None,
    help="gunicorn with gevent workers (the default where it runs), or waitress: one "
    "process with a pool of threads (the fallback; each live stream holds a thread).",
)
@click.option(
    "--threads",
    type=click.IntRange(2, 256),
    default=None,
    help="waitress's threads (default 16; at most half of them hold live streams).",
)
@click.option(
    "--samples",
    "samples_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=(
        "Folder of sample games for an empty database "
        "(default: the repository's fixtures/games and fixtures/*/games)."
    ),
)
@click.option(
    "--trusted-proxies",
    type=click.IntRange(0, 8),
    default=None,
    help="How many reverse proxies stand in front of the site, whose X-Forwarded-For, "
    "-Proto and -Host headers are believed [default: $TABLELOG_TRUSTED_PROXIES, or 0]. "
    "With 0, a request that came through a proxy on this machine is not taken for the "
    "machine's own: creating a game then needs the secret.",
)
def serve(
    host: str,
    port: int,
    db_path: str | None,
    workers: int | None,
    server_name: str | None,
    threads: int | None,
    samples_dir: Path | None,
    trusted_proxies: int | None,
) -> None:
    """Serve the replay site.

    Creates the database if needed and, when it holds no game, loads the sample games
    first (seeded simulated games when no sample file loads).  Serves with gunicorn's
    gevent workers, one process per core unless told otherwise; where gunicorn cannot
    run (Windows), with one process (waitress).  On an address other than loopback,
    prints the secret that creating a game from another device needs.
    """
    import logging

    from recorder import StoreError, open_store
    from recorder.places import is_postgres, shown, where

    server_name = server_name or ("gunicorn" if _gunicorn_available() else "waitress")
    if server_name == "gunicorn" and not _gunicorn_available():
        raise click.ClickException("gunicorn cannot run here: use --server waitress")
    path = str(where(db_path))
    name = shown(path)
    if server_name == "gunicorn" and is_postgres(path):
        # before the driver is imported: it chooses how to wait on its sockets then
        # (gevent's way, or one that would stop every connection of a worker)
        _patch_for_gevent()
    try:
        open_store(path).close()
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None  # it names the store
    except OSError as exc:
        raise click.ClickException(f"{name}: {exc}") from None
    try:
        sock = _listen(host, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from None
    if server_name == "gunicorn":
        _patch_for_gevent()  # before the site is imported

    from web import create_app
    from web.samples import SAMPLE_DIRS, ensure_sample_games
    from web.server import serve as serve_one
    from web.server import serve_workers

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        with open_store(path) as store:
            ensure_sample_games(
                store, samples_dir or SAMPLE_DIRS, say=lambda line: click.echo(line, err=True)
            )
            games = store.listing.count()
    except StoreError as exc:
        sock.close()
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        sock.close()
        raise click.ClickException(f"{name}: {exc}") from None
    click.echo(f"database {name}: {games} game{'s' if games != 1 else ''}", err=True)
    workers = workers or _default_workers()
    threads = threads or 16
    bound_host, bound_port = sock.getsockname()[:2]
    how = (
        f"{workers} gevent worker process{'es' if workers > 1 else ''} (gunicorn)"
        if server_name == "gunicorn"
        else f"one process (waitress), {threads} threads"
    )
    click.echo(f"serving http://{_url_host(bound_host)}:{bound_port} with {how}", err=True)
    config: dict[str, object] = {"DATABASE": path, "STORE_PER_THREAD": True}
    if trusted_proxies is not None:
        config["TRUSTED_PROXIES"] = trusted_proxies
    if server_name == "waitress":
        config["LIVE_MAX_STREAMS"] = threads // 2
    app = create_app(config)
    if not _is_loopback(host):
        for address in _lan_addresses(bound_host):
            click.echo(f"  from another device: http://{_url_host(address)}:{bound_port}", err=True)
        click.echo(
            f"secret for creating games from another device: {app.config['WRITE_SECRET']} "
            "(set TABLELOG_SECRET to choose it)",
            err=True,
        )
    if server_name == "gunicorn":
        serve_workers(app, sock, workers=workers)
    else:
        with sock:
            serve_one(app, threads=threads, sock=sock)


def _default_workers() -> int:
    """One worker process per core this process may run on."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _listen(host: str, port: int, backlog: int = 2048) -> Any:
    """A listening TCP socket on ``host``:``port`` (port 0: any free port); ``OSError``
    when the address cannot be had."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=backlog)


def _patch_for_gevent() -> None:
    """Make this process's blocking calls gevent's (sockets, sleeps, locks, threads)
    before the site is imported, so that what it makes (the live watcher's thread, its
    caches' locks) is gevent's in the workers forked from it.  gunicorn's gevent worker
    patches again after the fork, which then changes nothing."""
    from gevent import monkey

    monkey.patch_all()


def _gunicorn_available() -> bool:
    """Whether gunicorn and gevent are installed and this is Unix (gunicorn needs
    fcntl), found without importing them: they are imported once gevent has patched."""
    from importlib.util import find_spec

    return all(find_spec(name) is not None for name in ("gunicorn", "gevent", "fcntl"))


def _is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may be reached from elsewhere
        return False


def _lan_addresses(bound: str) -> list[str]:
    """Where phones on the local network reach a server bound to ``bound``: itself, or
    for the wildcard the address this machine leaves by (no packet is sent)."""
    import socket

    if bound not in ("0.0.0.0", "::"):
        return [bound]
    family = socket.AF_INET6 if bound == "::" else socket.AF_INET
    probe = "2001:db8::1" if bound == "::" else "192.0.2.1"  # documentation addresses
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            return [s.getsockname()[0]]
    except OSError:
        return []


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


COMMANDS.append(serve)
