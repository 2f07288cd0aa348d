"""The new-game form's fields, read and checked, composed into the game's notation: the
headers and the setup, exactly as ``tablelog new`` composes them from its questions and as
a file would hold them (``docs/notation.md``).  The game is then created from that text by
the one path that creates games (:func:`web.writes.create_game`).

Each field is checked on its own first, so an error names the field it is about (a name,
the board, one card of a level); the game's own reader then reads the composed text, and
what it still refuses is put next to the field its line came from.

A setup line of cards has a slot per card; any other line one field named by its word,
typed as it is written (a game may draw a widget for it, its ``<kind>/setup.html``; a
line of the board's tokens is checked against the tokens the game has).

>>> from engine.games import GAMES
>>> rules = next(iter(GAMES.values()))
>>> form = SetupForm.read(rules, {"player1": "Ann", "first": "1", "date": "2025-03-14"})
>>> form.errors["player2" if rules.seats.minimum > 1 else "first"] != ""
True
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

from . import boards
from .picker import PickError, resolve

#: The longest name, place or date the form takes.
MAX_NAME = 40
MAX_PLACE = 100
#: The longest setup line typed as it is written.
MAX_LINE = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def card_rows(rules: GameRules) -> list[SetupLine]:
    """The game's setup lines of cards, in the order the table lays them out."""
    return [line for line in rules.setup_lines if line.cards]


def text_lines(rules: GameRules) -> list[SetupLine]:
    """The game's setup lines that are not cards: each one field, named by its word."""
    return [line for line in rules.setup_lines if not line.cards]


def kinds() -> list[tuple[str, str]]:
    """The game kinds the form sets up (every one: a line that is neither cards nor the
    board's tokens is a text field), with their titles."""
    return [(kind, rules.title) for kind, rules in GAMES.items()]


@functools.cache
def token_facts(kind: str, word: str) -> dict[str, Any]:
    """What a setup line of the board's tokens (``word``) holds in ``kind``: its tokens
    (letter, colour, how many: ``tokens``), how many places (``size``), the letters.

    The counts are those of the line after any legal setup, which holds every token (the
    first event of a seeded random game, written in notation); the colours' names come
    from the game's widgets (``letters``, :func:`web.boards.widgets`).
    """
    rules = get_game(kind)
    setup = rules.random_game(random.Random(0))[:1]
    written = rules.write_game({"players": list(rules.seats.names(None))}, setup)
    line = next(ln for ln in written.splitlines() if ln.split()[:1] == [word])
    letters = "".join(line.split()[1:]).upper()
    have = {c: letters.count(c) for c in letters}
    names = boards.widgets(kind).get("letters") or {}
    order = [*names, *sorted(c for c in have if c not in names)]
    tokens = [
        {"letter": c, "color": names.get(c, c), "total": have[c]} for c in order if have.get(c)
    ]
    return {
        "tokens": tokens,
        "size": len(letters),
        "letters": " ".join(t["letter"] for t in tokens),
    }


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
    #: Each line that is not cards, by its word, as it goes into the notation.
    texts: dict[str, str] = field(default_factory=dict)
    cards: dict[str, list[str]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    #: Line number (from 1) of the composed notation → the field it came from.
    lines: dict[int, str] = field(default_factory=dict)

    @property
    def rows(self) -> list[SetupLine]:
        """The setup lines of cards the form has slots for."""
        return card_rows(self.rules)

    @property
    def text_lines(self) -> list[SetupLine]:
        """The setup lines that are not cards (each the field of its word)."""
        return text_lines(self.rules)

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
        for line in form.text_lines:
            if line.tokens:
                form._read_tokens(line)
            else:
                form._read_text(line)
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

    def _read_text(self, line: SetupLine) -> None:
        """A line typed as it is written: one line, no control characters."""
        text = re.sub(r"\s+", " ", self._get(line.word))
        if not text:
            self.errors[line.word] = f"{line.label}: {line.prompt[:1].lower()}{line.prompt[1:]}"
        elif len(text) > MAX_LINE:
            self.errors[line.word] = f"{line.label}: at most {MAX_LINE} characters"
        elif _CONTROL.search(text):
            self.errors[line.word] = f"{line.label}: no control characters"
        self.texts[line.word] = text

    def _read_tokens(self, line: SetupLine) -> None:
        """A line of the board's tokens: the letters of its places in the board's order
        (``.`` an empty place), checked against the tokens the game has."""
        word = line.word
        facts = token_facts(self.rules.kind, word)
        letters = re.sub(r"\s+", "", self._get(word)).upper()
        known = {t["letter"]: t for t in facts["tokens"]}
        size = facts["size"]
        holes = [str(i + 1) for i, c in enumerate(letters) if c == "."]
        bad = sorted({c for c in letters if c not in known and c != "."})
        if bad:
            self.errors[word] = (
                f"{line.label}: {', '.join(bad)} is not a token letter "
                f"({' '.join(known)}: {', '.join(t['color'] for t in known.values())})"
            )
            return
        problems = []
        filled = len(letters) - len(holes)
        if filled != size or len(letters) > size:
            problems.append(f"{filled} of the {size} squares are filled")
        if holes:
            problems.append(f"empty in the board's order: {', '.join(holes)}")
        for letter, t in known.items():
            n = letters.count(letter)
            if n < t["total"]:
                problems.append(f"{t['total'] - n} {t['color']} missing")
            elif n > t["total"]:
                problems.append(f"{n} {t['color']}, the game has {t['total']}")
        if problems:
            self.errors[word] = f"{line.label}: " + "; ".join(problems)
        self.texts[word] = " ".join(letters[i : i + 5] for i in range(0, len(letters), 5))

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
            if not line.cards:
                out.append(f"{line.word:<7} {self.texts[line.word]}")
                self.lines[len(out)] = line.word
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
            # a line typed as it is written answers for what its game refuses in it
            where = self.lines.get(int(info.get("line") or 0), "form")
            typed = {line.word for line in self.text_lines if not line.tokens}
            for v in violations:
                key = self._field_of_violation(v)
                if key == "form" and where in typed:
                    key = where
                text = f"{v.get('message')} ({v.get('citation', '')})".replace(" ()", "")
                self.errors[key] = (self.errors[key] + "; " if key in self.errors else "") + text
            return
        key = self.lines.get(int(info.get("line") or 0), "form")
        self.errors[key] = str(info.get("message") or err)

    def _field_of_violation(self, v: Mapping[str, Any]) -> str:
        code = str(v.get("code", ""))
        message = str(v.get("message", ""))
        board = next((line.word for line in self.text_lines if line.tokens), None)
        if "token" in code and board is not None:
            return board
        for row in self.rows:
            for i, cid in enumerate(self.cards.get(row.word, ()), start=1):
                if cid in message:
                    return slot_name(row, i)
        after = {t.split()[0] for t in self.rules.setup_after(self.first, len(self.names)) if t}
        if any(word in code for word in after):
            return "first"  # a line that follows from who starts
        return "form"


__all__ = ["SetupForm", "card_rows", "kinds", "slot_name", "text_lines", "token_facts"]
