"""``tablelog serve``: the replay site over a game database."""

from __future__ import annotations

import logging
from pathlib import Path

import click

COMMANDS: list[click.Command] = []


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--db", "db_path", envvar="TABLELOG_DB", type=click.Path(dir_okay=False),
              default=None, help="SQLite database (default: $TABLELOG_DB or ./data/tablelog.db).")
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64),
              help="Worker threads.")
@click.option("--samples", "samples_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Folder of sample games for an empty database "
              "(default: the repository's fixtures/games).")
def serve(host: str, port: int, db_path: str | None, threads: int,
          samples_dir: Path | None) -> None:
    """Serve the replay site.

    Creates the database if needed and, when it holds no game, loads the sample games
    first (seeded simulated games when no sample file loads).
    """
    from recorder import EventStore, StoreError, default_db_path
    from web import create_app
    from web.samples import FIXTURES_DIR, ensure_sample_games
    from web.server import serve as run

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    path = str(db_path or default_db_path())
    try:
        with EventStore.open(path) as store:
            ensure_sample_games(store, samples_dir or FIXTURES_DIR,
                                say=lambda line: click.echo(line, err=True))
            games = store.count_games()
    except (StoreError, OSError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    click.echo(f"database {path}: {games} game{'s' if games != 1 else ''}", err=True)
    app = create_app({"DATABASE": path, "STORE_PER_THREAD": True})
    try:
        run(app, host=host, port=port, threads=threads)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from None


COMMANDS.append(serve)
