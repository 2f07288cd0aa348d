"""The new-game form's fields, read and checked, composed into the game's notation: the
headers and the setup, exactly as ``tablelog new`` composes them from its questions and as
a file would hold them (``docs/notation.md``).  The game is then created from that text by
the one path that creates games (:func:`web.writes.create_game`).

Each field is checked on its own first, so an error names the field it is about (a name,
the board, one card of a level); the game's own reader then reads the composed text, and
what it still refuses is put next to the field its line came from.

>>> from engine.games import get_game
>>> form = SetupForm.read(get_game("splendor-duel"), {
...     "player1": "Ann", "player2": "Bo", "first": "2", "date": "2025-03-14",
...     "board": "GGRWY RWBRG YBRWK GYBKP PBWKK",
...     "level3_1": "3-10", "level3_2": "3-01", "level3_3": "green 3pt 2cr",
...     "level2_1": "2-10", "level2_2": "2-24", "level2_3": "2-20", "level2_4": "2-17",
...     "level1_1": "1-11", "level1_2": "1-25", "level1_3": "1-16", "level1_4": "1-10",
...     "level1_5": "1-27"})
>>> form.errors
{}
>>> print(form.notation())
[Game "Splendor Duel"]
[Date "2025-03-14"]
[Player1 "Ann"]
[Player2 "Bo"]
[First "2"]
<BLANKLINE>
board   GGRWY RWBRG YBRWK GYBKP PBWKK
level3  3-10 3-01 3-05
level2  2-10 2-24 2-20 2-17
level1  1-11 1-25 1-16 1-10 1-27
privileges 1 0
<BLANKLINE>
"""

from __future__ import annotations

import datetime as _dt
import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.games import GAMES, get_game
from engine.protocol import GameRules, SetupLine

from .picker import PickError, resolve

#: The longest name, place or date the form takes.
MAX_NAME = 40
MAX_PLACE = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def card_rows(rules: GameRules) -> list[SetupLine]:
    """The game's setup lines of cards, in the order the table lays them out."""
    return [line for line in rules.setup_lines if line.cards]


def board_line(rules: GameRules) -> SetupLine | None:
    """The game's setup line of the board's tokens, if it has one (Splendor Duel)."""
    return next((line for line in rules.setup_lines if line.tokens), None)


def kinds() -> list[tuple[str, str]]:
    """The game kinds the form can set up (those whose setup lines it can ask), with
    their titles."""
    return [
        (kind, rules.title)
        for kind, rules in GAMES.items()
        if all(line.cards or line.tokens for line in rules.setup_lines)
    ]


@functools.cache
def board_facts(kind: str) -> dict[str, Any]:
    """What the board widget needs of ``kind``: its squares (row by row, each with its
    name and place on the spiral) and the tokens (letter, colour, how many the game has).

    The totals are those of the board after any legal setup, which holds every token
    (the first event of a seeded random game, played on an empty table).
    """
    rules = get_game(kind)
    state = rules.new_state()
    squares = [{"name": c["name"], "spiral": c["spiral"]} for c in rules.view(state)["board"]]
    rules.play(state, rules.random_game(random.Random(0))[0])
    view = rules.view(state)
    have: dict[str, int] = {}
    for cell in view["board"]:
        if cell["token"]:
            have[cell["token"]] = have.get(cell["token"], 0) + 1
    tokens = [
        {"letter": t["letter"], "color": t["color"], "total": have.get(t["letter"], 0)}
        for t in view["players"][0]["tokens"]
        if have.get(t["letter"])
    ]
    return {"squares": squares, "tokens": tokens, "size": len(squares)}


def slot_name(row: SetupLine, i: int) -> str:
    """The field of the ``i``-th card (from 1) of ``row``: ``level2_3``."""
    return f"{row.word}_{i}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


@dataclass
class SetupForm:
    """The form's values as entered (``values``, kept to show them again), what was read
    from them, and the ``errors`` by field (``form`` for what belongs to no one field)."""

    rules: GameRules
    values: dict[str, str]
    names: list[str] = field(default_factory=list)
    first: int = 0
    date: str = ""
    place: str = ""
    board: str = ""
    cards: dict[str, list[str]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    #: Line number (from 1) of the composed notation → the field it came from.
    lines: dict[int, str] = field(default_factory=dict)

    @property
    def rows(self) -> list[SetupLine]:
        """The setup lines of cards the form has slots for."""
        return card_rows(self.rules)

    @property
    def board_line(self) -> SetupLine | None:
        """The setup line of the board's tokens (the form's ``board`` field), if any."""
        return board_line(self.rules)

    @classmethod
    def blank(cls, rules: GameRules, today: _dt.date | None = None) -> SetupForm:
        """The form as first shown: today's date, the first seat starting."""
        today = today or _dt.date.today()
        return cls(rules, {"date": today.isoformat(), "first": "1"})

    @classmethod
    def read(cls, rules: GameRules, values: Mapping[str, str]) -> SetupForm:
        """Read and check the submitted ``values``."""
        kept = {k: (v if isinstance(v, str) else "") for k, v in values.items()}
        form = cls(rules, kept)
        form._read_players()
        form._read_date_place()
        if form.board_line is not None:
            form._read_board()
        form._read_cards()
        return form

    # --- reading each field ------------------------------------------------------------

    def _get(self, name: str) -> str:
        return self.values.get(name, "").strip()

    def _read_players(self) -> None:
        seats = self.rules.seats
        given: list[tuple[int, str]] = []
        for i in range(1, seats.maximum + 1):
            name = re.sub(r"\s+", " ", self._get(f"player{i}"))
            key = f"player{i}"
            if not name:
                if i <= seats.minimum:
                    self.errors[key] = f"Player {i}: a name is needed ({self._seats_text()})"
                continue
            if len(given) != i - 1:
                self.errors[key] = (
                    f"Player {i}: fill the seats in order (Player {len(given) + 1} is empty)"
                )
            elif len(name) > MAX_NAME:
                self.errors[key] = f"Player {i}: at most {MAX_NAME} characters"
            elif _CONTROL.search(name):
                self.errors[key] = f"Player {i}: a name cannot hold control characters"
            elif name.isdigit() or name.startswith("#"):
                self.errors[key] = (
                    f"Player {i}: {name!r} reads as a seat number; give a name with a letter"
                )
            elif any(n.casefold() == name.casefold() for _, n in given):
                self.errors[key] = f"Player {i}: {name!r} is already a player's name"
            given.append((i, name))
        self.names = [n for _, n in given]
        first = self._get("first")
        if not first.isdigit() or not 1 <= int(first) <= max(len(self.names), 1):
            self.errors["first"] = "Who starts: choose one of the players"
        else:
            self.first = int(first) - 1

    def _seats_text(self) -> str:
        s = self.rules.seats
        span = str(s.minimum) if s.minimum == s.maximum else f"{s.minimum} to {s.maximum}"
        return f"{self.rules.title} seats {span} players"

    def _read_date_place(self) -> None:
        date = self._get("date")
        if date:
            try:
                self.date = _dt.date.fromisoformat(date).isoformat()
            except ValueError:
                self.errors["date"] = f"Date: {date[:20]!r} is not a date like 2025-03-14"
        self.place = re.sub(r"\s+", " ", self._get("place"))
        if len(self.place) > MAX_PLACE:
            self.errors["place"] = f"Place: at most {MAX_PLACE} characters"
        elif _CONTROL.search(self.place):
            self.errors["place"] = "Place: no control characters"

    def _read_board(self) -> None:
        facts = board_facts(self.rules.kind)
        letters = re.sub(r"\s+", "", self._get("board")).upper()
        known = {t["letter"]: t for t in facts["tokens"]}
        size = facts["size"]
        holes = [str(i + 1) for i, c in enumerate(letters) if c == "."]
        bad = sorted({c for c in letters if c not in known and c != "."})
        if bad:
            self.errors["board"] = (
                f"Board: {', '.join(bad)} is not a token letter "
                f"({' '.join(known)}: {', '.join(t['color'] for t in known.values())})"
            )
            return
        problems = []
        filled = len(letters) - len(holes)
        if filled != size or len(letters) > size:
            problems.append(f"{filled} of the {size} squares are filled")
        if holes:
            problems.append(f"empty on the spiral: {', '.join(holes)}")
        for letter, t in known.items():
            n = letters.count(letter)
            if n < t["total"]:
                problems.append(f"{t['total'] - n} {t['color']} missing")
            elif n > t["total"]:
                problems.append(f"{n} {t['color']}, the game has {t['total']}")
        if problems:
            self.errors["board"] = "Board: " + "; ".join(problems)
        self.board = " ".join(letters[i : i + 5] for i in range(0, len(letters), 5))

    def _read_cards(self) -> None:
        players = max(len(self.names), self.rules.seats.minimum)
        taken: dict[str, str] = {}  # card id → the field that holds it
        for row in self.rows:
            need = row.needed(players)
            ids: list[str] = []
            for i in range(1, row.needed(self.rules.seats.maximum) + 1):
                key = slot_name(row, i)
                text = self._get(key)
                where = f"{row.label}, card {i}"
                if i > need:
                    if text:
                        self.errors[key] = (
                            f"{where}: {players} players lay out {need} {row.label.lower()}"
                        )
                    continue
                try:
                    card = resolve(self.rules, text, row.level or 0)
                except PickError as err:
                    self.errors[key] = f"{where}: {err}"
                    continue
                if card.id in taken:
                    self.errors[key] = f"{where}: {card.id} is already {taken[card.id]}"
                    continue
                taken[card.id] = where.lower().replace(", card", " card")
                self.values[key] = card.id
                ids.append(card.id)
            self.cards[row.word] = ids

    # --- the notation ------------------------------------------------------------------

    def notation(self) -> str:
        """The headers and the setup in notation (call when :attr:`errors` is empty)."""
        out = [f'[Game "{_escape(self.rules.title)}"]']
        if self.date:
            out.append(f'[Date "{self.date}"]')
        if self.place:
            out.append(f'[Place "{_escape(self.place)}"]')
        for i, name in enumerate(self.names):
            out.append(f'[Player{i + 1} "{_escape(name)}"]')
            self.lines[len(out)] = f"player{i + 1}"
        out.append(f'[First "{self.first + 1}"]')
        self.lines[len(out)] = "first"
        out.append("")
        for line in self.rules.setup_lines:
            if line.tokens:
                out.append(f"{line.word:<7} {self.board}")
                self.lines[len(out)] = "board"
            else:
                out.append(f"{line.word:<7} {' '.join(self.cards[line.word])}")
                self.lines[len(out)] = slot_name(line, 1)
        for text in self.rules.setup_after(self.first, len(self.names)):
            out.append(text)  # what follows from who starts
            self.lines[len(out)] = "first"
        return "\n".join(out) + "\n"

    def check(self) -> str | None:
        """Compose the notation and read it with the game's reader; its refusals go to
        the fields their lines came from.  The notation, or None when refused."""
        if self.errors:
            return None
        text = self.notation()
        parsed = self.rules.read_game(text, "<new game>")
        if parsed.ok and len(parsed.events) == 1:
            return text
        for err in parsed.errors or ():
            self._place(err)
        if not self.errors:
            self.errors["form"] = "the setup does not read as one setup"
        return None

    def _place(self, err: Any) -> None:
        info = err.to_dict() if hasattr(err, "to_dict") else {}
        violations: Sequence[Mapping[str, Any]] = info.get("violations") or ()
        if violations:
            for v in violations:
                key = self._field_of_violation(v)
                text = f"{v.get('message')} ({v.get('citation', '')})".replace(" ()", "")
                self.errors[key] = (self.errors[key] + "; " if key in self.errors else "") + text
            return
        key = self.lines.get(int(info.get("line") or 0), "form")
        self.errors[key] = str(info.get("message") or err)

    def _field_of_violation(self, v: Mapping[str, Any]) -> str:
        code = str(v.get("code", ""))
        message = str(v.get("message", ""))
        if "token" in code and self.board_line is not None:
            return "board"
        for row in self.rows:
            for i, cid in enumerate(self.cards.get(row.word, ()), start=1):
                if cid in message:
                    return slot_name(row, i)
        after = {t.split()[0] for t in self.rules.setup_after(self.first, len(self.names)) if t}
        if any(word in code for word in after):
            return "first"  # a line that follows from who starts
        return "form"


__all__ = ["SetupForm", "board_facts", "board_line", "card_rows", "kinds", "slot_name"]
