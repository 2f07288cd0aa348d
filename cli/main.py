"""The ``tablelog`` command group.  Each command is a few lines over a library call; the
commands live in the modules below, grouped by what they touch."""

from __future__ import annotations

import click

from . import notation_cmds, serve_cmd, store_cmds


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablelog")
def cli() -> None:
    """Record, replay and settle disputes about Splendor Duel games."""


for _module in (store_cmds, notation_cmds, serve_cmd):
    for _command in _module.COMMANDS:
        cli.add_command(_command)
