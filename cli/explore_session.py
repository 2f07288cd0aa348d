"""The session behind ``tablelog explore GAME:STEP``: a what-if played from a step of a
stored game (or of a saved line), one decision at a time, each checked by the rules; TAB
offers the legal decisions (:func:`recorder.logbook.completions` for a decision typed in
part).  Nothing is written unless ``save`` keeps the line in the game's review
(:func:`recorder.review.save_line`); ``record``'s terminal side (:mod:`cli.record_cmd`)
drives it, with the same lines printed for a refused move (:mod:`cli.lines`).
"""

from __future__ import annotations

from typing import Any

from engine.review import MAX_LINE
from recorder import review as rv
from recorder.logbook import completions

from .lines import violation_lines

#: The session's commands, each with what ``help`` says of it.
COMMANDS: dict[str, str] = {
    "back": "take back the last decision of the line (nothing is written)",
    "show": "the whole table",
    "line": "the line so far, in notation",
    "save": "keep the line in the game's review (save BY: with the author's name)",
    "help": "this help",
    "quit": "end the session (an unsaved line is lost)",
}


class Explore:
    """A line being explored from ``address`` of a stored game (see the module's text)."""

    def __init__(self, store: Any, game_id: str, address: str, author: str) -> None:
        self.store = store
        self.game_id = game_id
        self.address = address
        self.author = author
        self.game = rv.load(store, game_id)
        self.rules = self.game.rules
        start, _, _, _ = rv.position_at(self.game.record, self.game.review, address)
        #: The states of the line: the start, then after each decision.
        self.states: list[Any] = [start]
        self.moves: list[str] = []
        self.texts: list[str] = []
        self.done = False
        self.saved: int | None = None

    @property
    def state(self) -> Any:
        return self.states[-1]

    def standing(self) -> str:
        status = self.rules.status(self.state)
        where = f"{self.game_id}:{self.address} +{len(self.texts)}"
        if status.result is not None:
            return f"{where}: {status.result.text}"
        return f"{where}, turn {status.turn}: {status.due}"

    def prompt(self) -> str:
        status = self.rules.status(self.state)
        who = status.to_move
        name = self.state.names[who] if who is not None else "table"
        return f"+{len(self.texts) + 1} {name}> "

    def opening(self) -> list[str]:
        return [
            *str(self.rules.text_view(self.state, compact=True)).splitlines(),
            self.standing(),
            "(help: the commands; TAB: the legal decisions; nothing is written unless you save)",
        ]

    def completions(self, text: str) -> list[tuple[str, str]]:
        typed = text.lstrip().lower()
        legal = (
            [] if self.rules.status(self.state).result else self.rules.legal_move_texts(self.state)
        )
        offered = [(t, "") for t in legal if t.lower().startswith(typed)]
        offered += [(c, "") for c in COMMANDS if c.startswith(typed) and typed.strip()]
        return offered or [(t, "") for t in completions(self.rules, self.state, text)]

    def handle(self, line: str) -> list[str]:
        line = line.strip()
        if not line:
            return []
        word, _, rest = line.partition(" ")
        command = getattr(self, f"_cmd_{word.lower()}", None)
        if command is not None and word.lower() in COMMANDS:
            return list(command(rest.strip()))
        return self._move(line)

    def _move(self, text: str) -> list[str]:
        try:
            events, texts, states = rv.read_line(self.rules, self.state, [text])
        except rv.ReviewRefused as err:
            # (the line's moves are typed one at a time here: no "move 1" to name)
            out = [
                f"refused: {str(err).removeprefix('move 1: ')}",
                *violation_lines(err.violations),
            ]
            near = completions(self.rules, self.state, text)
            if near:
                out += ["did you mean one of:", *(f"  {t}" for t in near)]
            return out
        if len(self.texts) + len(texts) > MAX_LINE:
            return [f"a saved line holds {MAX_LINE} decisions at most"]
        self.moves.append(text)
        self.texts += texts
        self.states += states
        return [f"+{len(self.texts)}: {t}" for t in texts] + [self.standing()]

    def _cmd_back(self, rest: str) -> list[str]:
        if not self.moves:
            return ["the line has no decision yet"]
        self.moves.pop()
        # (a move may have been several decisions of one turn: they go together)
        _, texts, states = (
            rv.read_line(self.rules, self.states[0], self.moves) if self.moves else ([], [], [])
        )
        self.texts = texts
        self.states = [self.states[0], *states]
        return [self.standing()]

    def _cmd_show(self, rest: str) -> list[str]:
        return str(self.rules.text_view(self.state)).splitlines()

    def _cmd_line(self, rest: str) -> list[str]:
        return [" ".join(self.texts) or "(no decision yet)"]

    def _cmd_save(self, rest: str) -> list[str]:
        if not self.moves:
            return ["the line has no decision yet: nothing to save"]
        try:
            line, _ = rv.save_line(
                self.store, self.game_id, self.address, self.moves, rest or self.author
            )
        except (rv.ReviewRefused, rv.ReviewConflict) as err:
            return [f"not saved: {err}"]
        self.saved = line.number
        steps = line.to_dict()["steps"]
        return [f"saved as line {line.number}: steps {steps[0]} to {steps[-1]}"]

    def _cmd_help(self, rest: str) -> list[str]:
        return [f"  {name}: {what}" for name, what in COMMANDS.items()] + [
            "  anything else: a decision in notation (TAB completes)"
        ]

    def _cmd_quit(self, rest: str) -> list[str]:
        self.done = True
        if self.moves and self.saved is None:
            return ["the line was not saved"]
        return []
