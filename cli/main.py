"""The ``tablelog`` command group.  Each command is a few lines over a library call; the
commands live in the modules below, one per family, grouped by what they touch."""

from __future__ import annotations

import click

from . import (
    analyse_cmd,
    cards_cmd,
    check_cmds,
    copy_cmd,
    log_cmds,
    record_cmd,
    review_cmds,
    serve_cmd,
    show_cmds,
    stats_cmd,
    store_cmds,
    verify_cmd,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablelog")
def cli() -> None:
    """Record, replay and settle disputes about tabletop games."""


for _module in (
    store_cmds,
    copy_cmd,
    log_cmds,
    record_cmd,
    review_cmds,
    show_cmds,
    check_cmds,
    analyse_cmd,
    cards_cmd,
    stats_cmd,
    serve_cmd,
    verify_cmd,
):
    for _command in _module.COMMANDS:
        cli.add_command(_command)
