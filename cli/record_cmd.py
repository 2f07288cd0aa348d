"""``tablelog record GAME``: the interactive session for logging a game at the table.

The terminal side only: prompt-toolkit reads each line, with TAB completing the legal
decisions from the position and a bottom line saying what is due; what a line does is
:class:`cli.record_session.Session`'s.  Without a terminal (a pipe), the lines are read
from standard input as they come, with the same answers.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any, Protocol

import click

from .options import db_option, opened


class Interactive(Protocol):
    """What the terminal side needs of a session (``record``'s, ``explore``'s): its
    opening lines, the answer to a line, whether it is done, its prompt, TAB's
    completions of the line typed so far, the bottom line."""

    done: bool

    def opening(self) -> list[str]: ...

    def handle(self, line: str) -> list[str]: ...

    def prompt(self) -> str: ...

    def completions(self, text: str) -> list[tuple[str, str]]: ...

    def standing(self) -> str: ...


@click.command("record")
@click.argument("game", required=False)
@db_option
def record_cmd(game: str | None, db_path: str | None) -> None:
    """Log GAME at the table, move by move: shows the table and what is due, reads one
    turn or decision at a time in notation (TAB completes the legal ones), asks for what
    only the table knows (the card revealed, the tokens drawn from the bag, a blind
    reserve shown) by id or by what is printed on it.  Commands: undo, comment TEXT,
    show, check MOVE, help, quit.  Each line is stored as it is entered, so quit or
    Ctrl-C loses nothing, and record resumes where the game stands.

    \b
    Examples:
      tablelog record $(tablelog new docs/examples/evening.tl) < /dev/null  # shows it, quits
      tablelog record 6138631be858
    """
    if game is None:
        raise click.UsageError(
            "which game? `tablelog new` starts one and prints its id; `tablelog list` shows "
            "the games stored"
        )
    from .record_session import Session

    with opened(db_path, must_exist=True) as store:
        run_session(Session(store, game))


def run_session(session: Interactive) -> None:
    """Drive an interactive session to its end: its opening, then each line typed (or
    piped) and its answer, until it is done or the input ends (then it is told to quit)."""
    for out in session.opening():
        click.echo(out)
    for line in input_lines(session):
        for out in session.handle(line):
            click.echo(out)
        if session.done:
            return
    for out in session.handle("quit"):
        click.echo(out)


def input_lines(session: Interactive) -> Iterator[str]:
    """The lines typed at a terminal (TAB completing), or read from a pipe (echoed)."""
    return _terminal_lines(session) if sys.stdin.isatty() else _piped_lines(session)


def _piped_lines(session: Interactive) -> Iterator[str]:
    """The lines of standard input, each echoed after the prompt as a terminal shows it."""
    for line in sys.stdin:
        click.echo(f"{session.prompt()}{line.rstrip()}")
        yield line


def _terminal_lines(session: Interactive) -> Iterator[str]:
    """The lines typed at the terminal, until Ctrl-C or Ctrl-D."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion

    class Legal(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Completion]:
            text = document.text_before_cursor
            for done, note in session.completions(text):
                yield Completion(done, start_position=-len(text), display_meta=note or None)

    prompt: PromptSession[str] = PromptSession(
        completer=Legal(),
        complete_while_typing=False,
        bottom_toolbar=session.standing,
    )
    while True:
        try:
            yield prompt.prompt(session.prompt())
        except (KeyboardInterrupt, EOFError):
            return


COMMANDS: list[click.Command] = [record_cmd]
