"""The ``tablelog`` command group.  Each command is a few lines over a library call; the
commands live in the modules below, one per family, grouped by what they touch.

A run imports the module of its own command alone (click's lazily loaded subcommands):
a command typed at the table pays for what it uses, not for the whole tool."""

from __future__ import annotations

import atexit
import gc
import importlib

import click

#: Each command's module in this package (its ``COMMANDS`` holds it).
COMMAND_MODULES = {
    "init": "store_cmds",
    "import": "store_cmds",
    "export": "store_cmds",
    "games": "store_cmds",
    "rebuild-projections": "store_cmds",
    "copy": "copy_cmd",
    "new": "log_cmds",
    "log": "log_cmds",
    "undo": "log_cmds",
    "void": "log_cmds",
    "key": "log_cmds",
    "record": "record_cmd",
    "line": "review_cmds",
    "mark": "review_cmds",
    "withdraw": "review_cmds",
    "explore": "review_cmds",
    "show": "show_cmds",
    "validate": "check_cmds",
    "check": "check_cmds",
    "moves": "check_cmds",
    "analyse": "analyse_cmd",
    "cards": "cards_cmd",
    "stats": "stats_cmd",
    "serve": "serve_cmd",
    "verify": "verify_cmd",
    "heads": "verify_cmd",
}


class LazyGroup(click.Group):
    """A group whose commands are imported when one is asked for by name."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMAND_MODULES.get(cmd_name)
        if module is None:
            return None
        found: list[click.Command] = importlib.import_module(f"{__package__}.{module}").COMMANDS
        return next(c for c in found if c.name == cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablelog")
def cli() -> None:
    """Record, replay and settle disputes about tabletop games."""


def main() -> None:
    """The installed ``tablelog`` program: :func:`cli`, and a prompt end to the process.

    As a process ends, the interpreter's shutdown has the cyclic garbage collector pass
    over every object still alive (the modules, the games' tables, the readers' memos),
    more than once: 20 to 30 ms after validating a folder, longer than some commands
    take.  The last exit handler freezes them instead (:func:`gc.freeze`): the memory
    goes back to the system with the process, and objects are still released as their
    references go, so files and databases are closed as before."""
    atexit.register(gc.freeze)  # registered first, so it runs after every other handler
    cli()


def commands() -> dict[str, click.Command]:
    """Every command by name, each module imported (for the help and the docs' checks)."""
    ctx = click.Context(cli)
    return {
        name: command for name in cli.list_commands(ctx) if (command := cli.get_command(ctx, name))
    }
