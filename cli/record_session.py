"""The session behind ``tablelog record``: what it shows, what it asks, what each line
does, with no terminal attached (:mod:`cli.record_cmd` drives it through prompt-toolkit;
the tests drive it directly).

A :class:`Session` holds one stored game and the question it asks now: a move (a turn
or decision in notation, or a command), a card only the table has seen (the card revealed
to refill the table, a blind reserve shown), the tokens drawn from the bag, or whether to
record a refused move as played.  :meth:`Session.handle` takes one answer and returns
the lines to print.  Every move is one call to :func:`recorder.logbook.log` with ``expect``
(the steps the session last saw), so nothing is held in the session but a comment waiting
for its move: when another logger wrote meanwhile, the session reloads and says what was
logged, and a session ended any way (``quit``, Ctrl-C, a closed terminal) loses nothing.

What only the table knows is asked for by the decision's keyword (the game's
:attr:`engine.protocol.GameRules.table_questions`): when every legal decision is that
keyword with a card, or when the keyword is typed alone (then the candidates are the
game's :meth:`~engine.protocol.GameRules.observations` of that keyword, as a blind reserve
shown by the seat that holds it).  A card is found by its id or by what is printed on it
(:meth:`engine.protocol.GameRules.find_cards`): one match is used, several are listed and
asked again.

A comment (``comment TEXT``) cannot be attached to a stored event (the store only
appends), so it goes with the next move logged, as the notation's ``{TEXT}`` after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.corrections import (
    UNDO,
    CorrectionRefused,
    Retraction,
    effective_steps,
    retraction_at,
    step_ranges,
)
from engine.errors import EngineError
from engine.games import get_game
from engine.notation.lexer import did_you_mean
from recorder.errors import StoreError
from recorder.logbook import BadMove, MoveRefused, StaleStep, log, steps, undo

from .lines import completion_lines, verdict_lines, violation_lines, written_lines

#: The session's own commands, each with what ``help`` says of it.
COMMANDS: dict[str, str] = {
    "undo": "take back what was entered last: a card revealed on its own, or the last "
    "decision with what was logged with it (undo to STEP: every step after STEP)",
    "comment": "comment TEXT: a comment, logged with the next move",
    "show": "the whole table",
    "check": "check MOVE: is MOVE legal here? (the rule and page if not; nothing written)",
    "help": "this help",
    "quit": "end the session (every logged line is stored already; record resumes)",
}

#: A line of the table whose value says there is nothing (``reserved none``, ``none (0)``).

#: Answers that record a refused move as played.
YES = ("y", "yes")
NO = ("", "n", "no")


@dataclass(frozen=True)
class Question:
    """What the session asks now.  ``kind``: ``move`` (a move or a command), ``card``,
    ``text`` (free text after ``keyword``) or ``confirm`` (record ``refused`` as played?).
    ``candidates``: the card ids a ``card`` answer must be among (empty: any card still
    unseen)."""

    kind: str
    prompt: str
    keyword: str = ""
    candidates: tuple[str, ...] = ()
    refused: str = ""
    #: The decisions in notation a ``card`` answer picks from, each naming one of the
    #: ``candidates`` (empty: the keyword and the card, as ``reveal 1-03``).
    options: tuple[str, ...] = ()
    #: A ``confirm`` of ``undo to STEP`` (several steps taken back) rather than of a
    #: move recorded as played.
    undo_to: int | None = None


def _comment_apart(line: str) -> tuple[str, str]:
    """An answer and the comment in braces at its end (``1-11 {nice draw}`` →
    ``("1-11", "nice draw")``); braces inside the comment are made parentheses."""
    start = line.find("{")
    if start < 0:
        return line, ""
    comment = line[start + 1 :].rstrip()
    comment = comment[:-1] if comment.endswith("}") else comment
    return line[:start].strip(), comment.replace("{", "(").replace("}", ")").strip()


class Session:
    """One game being logged at the table (see the module's docstring)."""

    def __init__(self, store: Any, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.rules = get_game(store.game(game_id).kind)
        #: What is printed on the card a word of a decision names, by the word.
        self._notes: dict[str, str] = {}
        self.observations = {o.keyword: o for o in self.rules.table_questions}
        #: A comment waiting for the next move logged.
        self.comment = ""
        #: True once the session was asked to end.
        self.done = False
        self._texts: list[str] | None = None
        self._cards: dict[str, Any] | None = None
        self.reload()

    # --- where the game stands ------------------------------------------------------------

    def reload(self) -> None:
        """Read the game as it stands in the store, and ask what it waits for."""
        self.steps = steps(self.store, self.game_id)
        self.state = self.store.state_at(self.game_id)
        self.status = self.rules.status(self.state)
        self._texts = None
        self.question = self._due_question()

    def legal_texts(self) -> list[str]:
        """Every legal next decision in notation (none once the game is over)."""
        if self._texts is None:
            self._texts = (
                [] if self.status.result is not None else self.rules.legal_move_texts(self.state)
            )
        return self._texts

    def _due_question(self) -> Question:
        """A card the table must reveal when every legal decision is one keyword with a
        card (``reveal 1-03``, ``reveal 1-07``...), else a move."""
        texts = self.legal_texts()
        keywords = {t.split(" ", 1)[0] for t in texts}
        if len(keywords) == 1:
            (keyword,) = keywords
            obs = self.observations.get(keyword)
            if obs is not None and obs.card:
                return self._card_question(obs, texts)
        return Question("move", "")

    def _card_question(self, obs: Any, texts: Sequence[str]) -> Question:
        """Ask for the card of one of ``texts`` (decisions of ``obs``'s keyword)."""
        cards = self.cards()
        ids = tuple(dict.fromkeys(w for t in texts for w in t.split()[1:] if w in cards))
        return Question("card", obs.prompt, obs.keyword, ids, options=tuple(texts))

    def _options_of(self, text: str) -> list[str]:
        """The question's decisions that name card ``text``."""
        return [o for o in self.question.options if text in o.split()[1:]]

    def standing(self) -> str:
        """One line: the step, whose turn, what is due (or how the game ended)."""
        if self.status.result is not None:
            return f"step {self.steps}: {self.status.result.text}"
        return f"step {self.steps}, turn {self.status.turn}: {self.status.due}"

    def board(self) -> list[str]:
        """The table as the game draws it for a terminal."""
        return str(self.rules.text_view(self.state)).splitlines()

    def compact_board(self) -> list[str]:
        """The table in at most 19 lines of at most 80 characters (the game's compact
        text view): what the session prints after each step, so that on a terminal of
        80 by 24 the table, the mover's tokens and the prompt are on screen together
        (``show``: all of it)."""
        return str(self.rules.text_view(self.state, compact=True)).splitlines()

    def opening(self) -> list[str]:
        """What the session prints first (and on resuming): the table, what is due."""
        lines = [*self.compact_board(), self.standing()]
        if self.question.kind == "card":
            lines.append(self.question.prompt)
        lines.append("(help: the commands; TAB: the legal decisions)")
        return lines

    def prompt(self) -> str:
        """The prompt of the input line: the step and who acts, or what is asked."""
        q = self.question
        if q.kind == "confirm":
            if q.undo_to is not None:
                return f"undo to step {q.undo_to}? [y/N] "
            return "record it as played, flagged? [y/N] "
        if q.kind in ("card", "text"):
            return f"{q.keyword}> "
        who = self.status.to_move
        name = self.state.names[who] if who is not None else "table"
        return f"{self.steps + 1} {name}> "

    # --- completion -------------------------------------------------------------------

    def completions(self, text: str) -> list[tuple[str, str]]:
        """What TAB offers for the line typed so far: ``(completed line, note)`` pairs.
        A move: the legal decisions and the commands starting with ``text``; a card: the
        candidate cards whose id or printed words contain every word typed."""
        q = self.question
        if q.kind == "confirm":
            return [(a, "") for a in ("yes", "no") if a.startswith(text.lower())]
        if q.kind == "card":
            offered = []
            for c in self._card_matches(text):
                options = self._options_of(c.id)
                texts = options if len(options) > 1 else [c.id]
                offered += [(t, str(c.words)) for t in texts]
            return offered
        if q.kind == "text":
            return []
        typed = text.lstrip().lower()
        offered = [(t, self._note(t)) for t in self.legal_texts() if t.lower().startswith(typed)]
        offered += [(c, "") for c in COMMANDS if c.startswith(typed) and typed.strip()]
        return offered or self._after_decision(text.lstrip()) or self._described(typed)

    def _after_decision(self, typed: str) -> list[tuple[str, str]]:
        """A decision typed whole (or as short as it reads: ``buy 1-16``), then what the
        table sees after it on the same line: ``buy 1-16 reveal gr`` offers the cards that
        can be turned face up, by id or by what is printed on them (``buy 1-16 reveal
        green 1pt``), so that a turn is one line."""
        keywords = [k for k, o in self.observations.items() if o.card]
        lower = typed.lower()
        cut = max((lower.rfind(f" {k}") for k in keywords), default=-1)
        head, rest = (typed[:cut], lower[cut + 1 :]) if cut > 0 else (typed, "")
        if cut <= 0 and not typed.endswith(" "):
            return []
        read = self.rules.read_moves(self.state, head.strip())
        if read.errors or not read.events:
            return []
        keyword, _, words = rest.partition(" ")
        cards = self.cards()
        offered = []
        for text in self.rules.legal_move_texts(read.state):
            first, *after = text.split()
            if first not in keywords:
                continue
            card = next((cards[w] for w in after if w in cards), None)
            printed = "" if card is None else f"{card.id} {card.words}".lower()
            if text.lower().startswith(rest) or (
                first == keyword and words.strip() and all(w in printed for w in words.split())
            ):
                offered.append((f"{head.strip()} {text}", "" if card is None else str(card.words)))
        return offered

    def _described(self, typed: str) -> list[tuple[str, str]]:
        """The legal decisions of the keyword typed first whose card fits the words typed
        after it (``buy black`` offers ``buy 1-16 (W1 B1 G1 R1)``), each with its card."""
        keyword, _, words = typed.partition(" ")
        if not words.strip():
            return []
        cards = self.cards()
        offered = []
        for text in self.legal_texts():
            first, *rest = text.split()
            card = next((cards[w] for w in rest if w in cards), None)
            if first.lower() == keyword and card is not None:
                printed = f"{card.id} {card.words}".lower()
                if all(w in printed for w in words.split()):
                    offered.append((text, str(card.words)))
        return offered

    def _note(self, text: str) -> str:
        """What is printed on the card a decision names (a deck's card, a tile), as
        TAB shows beside it; nothing for a decision that names none."""
        for word in text.split()[1:]:
            if word not in self._notes:
                card = self.cards().get(word)
                if card is None and word[:1].isalpha() and "-" in word:
                    found = self.rules.find_cards(word)  # (a tile's id, not a deck card's)
                    card = found[0] if len(found) == 1 else None
                self._notes[word] = "" if card is None else str(card.words)
            if self._notes[word]:
                return self._notes[word]
        return ""

    def cards(self) -> dict[str, Any]:
        """Every card of the game by id (read once)."""
        if self._cards is None:
            self._cards = dict(self.rules.cards())
        return self._cards

    def _card_matches(self, text: str) -> list[Any]:
        """The candidate cards whose id or printed words contain every word of ``text``."""
        words = text.lower().split()
        cards = self.cards()
        ids = self.question.candidates or tuple(c.id for c in self._find("", quiet=True) or ())
        found = [cards[i] for i in ids if i in cards]
        return [c for c in found if all(w in f"{c.id} {c.words}".lower() for w in words)]

    # --- one line -----------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """Do what ``line`` says (an answer to :attr:`question`, or a command) and return
        the lines to print."""
        line = line.strip()
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        command = getattr(self, f"_cmd_{word.lower()}", None) if word.lower() in COMMANDS else None
        q = self.question
        if command is not None:
            if q.kind == "confirm":
                self.question = self._due_question()
            out: list[str] = command(rest)
            return out
        if q.kind == "confirm":
            self.question = self._due_question()
            if q.undo_to is not None:
                return self._undo(q.undo_to) if line.lower() in YES else ["nothing undone"]
            if line.lower() in YES:
                return self._log(q.refused, as_played=True)
            if line.lower() in NO:
                return ["not logged"]
            return ["not logged", *self.handle(line)]  # a move typed instead (the one meant)
        if not line:
            due = self._due_question()
            if q != due:
                self.question = due
                return ["nothing logged"]
            return []
        if q.kind in ("card", "text"):
            # an answer may carry the comment of what it logs: ``1-11 {nice draw}``
            line, comment = _comment_apart(line)
            if comment:
                self.comment = f"{self.comment} {comment}".strip()
            if not line:
                return [f"the comment goes with the {q.keyword} logged next", q.prompt]
            if q.kind == "card":
                return self._card_answer(line)
            self.question = self._due_question()
            return self._log(f"{q.keyword} {line}")
        obs = self.observations.get(word.lower())
        if obs is not None and obs.card and (not rest or rest.split()[0] not in self.cards()):
            self.question = self._asked(obs)
            return self._card_answer(rest) if rest else [obs.prompt]
        if obs is not None and not rest:
            self.question = Question("text", obs.prompt, obs.keyword)
            return [obs.prompt]
        return self._log(self._card_words_quoted(line))

    def _card_words_quoted(self, line: str) -> str:
        """``line`` with the card that ends it, named by what is printed on it after an
        observation's keyword (``buy 1-16 reveal green cost W1 B1 R1 K1``), put in quotes
        as the notation reads a description (``reveal "green cost W1 B1 R1 K1"``): the
        card revealed typed on the decision's line, as the reveal prompt takes it."""
        body, brace, comment = line.partition("{")
        words = body.split()
        keywords = {k for k, o in self.observations.items() if o.card}
        at = max((i for i, w in enumerate(words) if w.lower() in keywords), default=-1)
        described = words[at + 1 :] if at > 0 else []
        if not described or described[0][:1] == '"' or described[0] in self.cards():
            return line
        quoted = " ".join([*words[: at + 1], '"' + " ".join(described) + '"'])
        return f"{quoted} {brace}{comment}" if brace else quoted

    def _asked(self, obs: Any) -> Question:
        """The question for ``obs``'s keyword typed alone: its card among the legal
        decisions and the observations of that keyword (any card still unseen when there
        is none)."""
        texts = [c.text for c in self.rules.observations(self.state)]
        texts += self.legal_texts()
        texts = [t for t in texts if t.split(" ", 1)[0] == obs.keyword]
        if not texts:
            return Question("card", obs.prompt, obs.keyword)
        return self._card_question(obs, texts)

    def _card_answer(self, query: str) -> list[str]:
        """Log the question's keyword with the one card ``query`` names, or list the
        cards it fits and ask again."""
        q = self.question
        typed = " ".join(query.split()).lower()
        chosen = [o for o in q.options if o.lower() in (typed, f"{q.keyword} {typed}")]
        if chosen:  # one of the decisions, written whole
            self.question = self._due_question()
            return self._log(chosen[0])
        word, _, after = query.partition(" ")
        if word.lower() == q.keyword and after.strip():
            query = after  # the keyword typed again before the card
        # Among the candidates (the legal decisions' cards), any card fits; else only
        # those still unseen.
        found = self._find(query.replace('"', " "), unseen=not q.candidates)
        if isinstance(found, str):
            # (the question's keyword mistyped before the card: ``reveel 1-11``)
            near = did_you_mean(word.lower(), [q.keyword]) if after.strip() else ""
            if near:
                return [f"{word!r} is not printed on a card{near[:-2]} {after.strip()}?)", q.prompt]
            return [found, q.prompt]
        if q.candidates:
            found = [c for c in found if c.id in q.candidates]
        if len(found) == 1:
            card = found[0]
            options = self._options_of(card.id) or [f"{q.keyword} {card.id}"]
            if len(options) > 1:
                return [
                    f"{card.id} fits {len(options)} decisions; give the whole one:",
                    *(f"  {o}" for o in options),
                    q.prompt,
                ]
            self.question = self._due_question()
            return [f"{card.id}: {card.words}", *self._log(options[0])]
        if not found:
            return ["no card that can be seen here fits that", q.prompt]
        lines = [f"{len(found)} cards fit; say more (or give the id):"]
        lines += [f"  {c.id}: {c.words}" for c in found[:12]]
        if len(found) > 12:
            lines.append(f"  ... and {len(found) - 12} more")
        return [*lines, q.prompt]

    def _find(self, query: str, quiet: bool = False, unseen: bool = True) -> Any:
        """The cards (still unseen, or any) that ``query`` describes, or the reason it
        fits none."""
        try:
            return self.rules.find_cards(query, self.state if unseen else None)
        except EngineError as err:
            return None if quiet else str(err)

    def _log(self, text: str, as_played: bool = False) -> list[str]:
        """Log ``text`` (with the waiting comment) as the next step; the lines to print."""
        full = f"{text} {{{self.comment}}}" if self.comment else text
        try:
            logged = log(self.store, self.game_id, full, expect=self.steps, as_played=as_played)
        except StaleStep:
            return [*self._caught_up(), f"not logged: {text!r} (enter it again if it still holds)"]
        except MoveRefused as err:
            lines = [
                f"illegal: {text}",
                *violation_lines(err.violations),
                *completion_lines(err.completions),
            ]
            if as_played or not err.playable:
                return [*lines, "nothing written: it cannot be recorded even as played"]
            self.question = Question("confirm", "", refused=text)
            instead = " (or enter the move meant)" if err.completions else ""
            return [
                *lines,
                f"nothing written (if it was played so at the table, say y below{instead})",
            ]
        except BadMove as err:
            return [
                f"incomplete: {text}: {err.reason}" if err.incomplete else f"not understood: {err}",
                *completion_lines(err.completions),
                "(TAB: the legal decisions; help: the commands)",
            ]
        except (EngineError, StoreError) as err:
            return [f"not logged: {err}"]
        self.comment = ""
        lines = written_lines(logged)
        self.reload()
        lines += [*self.compact_board(), self.standing()]
        if self.question.kind == "card":
            lines.append(self.question.prompt)
        return lines

    def _caught_up(self) -> list[str]:
        """Reload after another logger wrote; what it logged, step by step."""
        before = self.steps
        self.reload()
        lines = [f"another logger wrote meanwhile (the game has {self.steps} steps now):"]
        for stored in self.store.events(self.game_id)[before:]:
            lines.append(f"  step {stored.sequence}: {self._step_text(stored)}")
        lines.append(self.standing())
        return lines

    def _step_text(self, stored: Any) -> str:
        """The notation of one stored step, in the position it was played in."""
        event = stored.event
        if isinstance(event, Retraction):
            return f"{UNDO} to {event.back_to}"
        try:
            return str(
                self.rules.move_text(self.store.state_at(self.game_id, stored.sequence - 1), event)
            )
        except EngineError:
            return str(stored.type)

    # --- commands -----------------------------------------------------------------------

    def _cmd_quit(self, rest: str) -> list[str]:
        self.done = True
        out = [f"every logged step is stored; `tablelog record {self.game_id}` resumes here"]
        if self.comment:
            out.insert(0, f"the comment {{{self.comment}}} was not logged (no move followed)")
        return out

    def _cmd_help(self, rest: str) -> list[str]:
        legal = self.rules.legal_move_texts(self.state) if self.status.phase == "playing" else []
        now = list(dict.fromkeys(text.split()[0] for text in legal))
        words = f"now: {', '.join(now)}; " if now else ""
        lines = [f"Enter a turn or one decision in notation ({words}TAB: the legal ones), or:"]
        lines += [f"  {name:8} {what}" for name, what in COMMANDS.items()]
        lines += [
            f"  {o.keyword:8} alone: asks for it ({o.prompt})" for o in self.observations.values()
        ]
        return lines

    def _cmd_show(self, rest: str) -> list[str]:
        return [*self.board(), "", self.standing()]

    def _cmd_comment(self, rest: str) -> list[str]:
        text = rest.replace("{", "(").replace("}", ")").strip()
        if not text:
            return ["comment TEXT: the comment to log with the next move"]
        self.comment = f"{self.comment} {text}".strip()
        return [f"the comment goes with the next move logged: {{{self.comment}}}"]

    def _cmd_check(self, rest: str) -> list[str]:
        if not rest:
            return ["check MOVE: is MOVE legal here?"]
        verdict = self.rules.check_move(self.state, rest)
        return verdict_lines(verdict, rest, f"step {self.steps}; nothing written")

    def _cmd_undo(self, rest: str) -> list[str]:
        if not rest:
            return self._undo(None)
        words = rest.split()
        if len(words) != 2 or words[0] != "to" or not words[1].isdigit():
            return ["undo, or undo to STEP"]
        to = int(words[1])
        events = [e.event for e in self.store.events(self.game_id)]
        try:
            retraction_at(self.rules, events, to)
        except CorrectionRefused as err:
            return [f"nothing undone: {err}"]
        taken = [step for step in effective_steps(events) if step > to]
        if len(taken) <= 1:
            return self._undo(to)
        # Several steps at once: said in turns, and asked (a step is easily taken for a turn).
        then = self.rules.status(self.store.state_at(self.game_id, to))
        self.question = Question("confirm", "", undo_to=to)
        return [
            f"undo to step {to} takes back {len(taken)} steps ({step_ranges(taken)}): back to "
            f"turn {then.turn}, {then.due} (the steps stay in the record, struck through)"
        ]

    def _undo(self, to: int | None) -> list[str]:
        try:
            logged = undo(self.store, self.game_id, to=to, expect=self.steps)
        except StaleStep:
            return [*self._caught_up(), "nothing undone (undo again if it still holds)"]
        except EngineError as err:
            return [f"nothing undone: {err}"]
        lines = written_lines(logged)
        self.reload()
        return [*lines, *self.compact_board(), self.standing()]
