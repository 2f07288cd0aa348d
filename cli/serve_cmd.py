"""``tablelog serve``: the replay site over a game database."""

from __future__ import annotations

from pathlib import Path

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
    help="Worker processes (default: one per core). With more than one, gunicorn "
    "forks them; 1 serves in this process with waitress.",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 64),
    default=None,
    help="Threads per worker (default: 1 with several workers, each answering one "
    "request at a time; more keeps connections alive; 4 with one worker).",
)
@click.option(
    "--samples",
    "samples_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=(
        "Folder of sample games for an empty database "
        "(default: the repository's fixtures/games and fixtures/splendor/games)."
    ),
)
def serve(
    host: str,
    port: int,
    db_path: Path | None,
    workers: int | None,
    threads: int | None,
    samples_dir: Path | None,
) -> None:
    """Serve the replay site.

    Creates the database if needed and, when it holds no game, loads the sample games
    first (seeded simulated games when no sample file loads).  Serves with one worker
    process per core (gunicorn) unless told otherwise; where gunicorn cannot run
    (Windows), with one process (waitress).
    """
    import logging

    from recorder import EventStore, StoreError, default_db_path
    from web import create_app
    from web.samples import SAMPLE_DIRS, ensure_sample_games
    from web.server import default_workers, listen, serve_workers
    from web.server import serve as serve_one

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    path = str(db_path or default_db_path())
    try:
        with EventStore.open(path) as store:
            ensure_sample_games(
                store, samples_dir or SAMPLE_DIRS, say=lambda line: click.echo(line, err=True)
            )
            games = store.count_games()
    except (StoreError, OSError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    click.echo(f"database {path}: {games} game{'s' if games != 1 else ''}", err=True)
    workers = workers or default_workers()
    if workers > 1 and not _gunicorn_available():
        click.echo("gunicorn cannot run here: serving with one process (waitress)", err=True)
        workers = 1
    threads = threads or (1 if workers > 1 else 4)
    try:
        sock = listen(host, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from None
    bound_host, bound_port = sock.getsockname()[:2]
    how = (
        f"{workers} worker processes (gunicorn), {threads} thread{'s' if threads > 1 else ''} each"
        if workers > 1
        else f"one process (waitress), {threads} threads"
    )
    click.echo(f"serving http://{_url_host(bound_host)}:{bound_port} with {how}", err=True)
    app = create_app({"DATABASE": path, "STORE_PER_THREAD": True})
    if workers > 1:
        serve_workers(app, sock, workers=workers, threads=threads)
    else:
        with sock:
            serve_one(app, threads=threads, sock=sock)


def _gunicorn_available() -> bool:
    try:
        import gunicorn.app.base  # noqa: F401
    except ImportError:  # not installed, or not on Unix (it needs fcntl)
        return False
    return True


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


COMMANDS.append(serve)
