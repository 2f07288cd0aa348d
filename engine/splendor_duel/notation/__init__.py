"""Splendor Duel notation: the text format players write at the table (``docs/notation.md``).

A game is tag-pair headers, the setup (the board as drawn in spiral order and the
pyramid), then one numbered line per turn listing its decisions in order::

    [Game "Splendor Duel"]
    [Player1 "Alice"]
    [Player2 "Bob"]
    [First "Alice"]

    board   RGWBK PYWBG RKWBG RKWBG RKPYY
    level3  3-01 3-07 3-12
    ...
    1. Alice: take c2 c3 c4 =WWB
    2. Bob: priv a1 take b2 b3 =RG {a greedy start}

Everything here is pure.  The package reads notation the way python-chess reads PGN,
with the reader every game shares (:mod:`engine.notation.reader`: headers, setup lines,
turn lines, comments, marks, ``undo``, errors with their places) calling a visitor
(:mod:`.builder`: skip, headers only, syntax only, or the whole game checked against the
rules, :func:`parse_game`); :mod:`.writer` writes the canonical text back
(:func:`write_game`).  What the reader needs of this game is its grammar
(:data:`.decisions.GRAMMAR`): the keywords (:mod:`.keywords`), each family of decisions
read and written in its own module (:mod:`.tokens`, :mod:`.cards`, :mod:`.royal_resign`),
the setup lines (:mod:`.setup`); :mod:`.decisions` gathers them (:func:`move_text`).
:mod:`.moves` reads what is played next in a position
(:func:`read_moves`: one turn or decision, as at the table) and handles one decision
(:func:`parse_move`, :func:`check_move`, :func:`legal_move_texts`), :mod:`.typed` gives
the readings of a decision typed by hand (``Take b4,c4``).  The position string lives in
:mod:`engine.splendor_duel.position`; it is re-exported here.

>>> import random
>>> from engine.splendor_duel import simulate
>>> events = simulate.random_game(random.Random(3))
>>> text = write_game({"players": ["Alice", "Bob"]}, events)
>>> parsed = parse_game(text)
>>> parsed.errors, parsed.events == events, write_game(parsed.headers, parsed.events) == text
([], True, True)
"""

from __future__ import annotations

from ...notation.lexer import GLYPHS, ILLEGAL_MARK
from ...notation.reader import read_game
from ...notation.results import ERROR_KINDS, Flagged, NotationError, PayloadProblem
from ...protocol import ParsedGame, Verdict
from ..position import (
    PositionError,
    parse_position,
    position_string,
    state_differences,
    states_equal,
)
from .builder import GameBuilder, HeadersBuilder, SkipVisitor, SyntaxChecker, Visitor, parse_game
from .decisions import GRAMMAR, move_text
from .keywords import KEYWORDS
from .moves import check_move, legal_move_texts, parse_move, read_moves
from .writer import write_game

__all__ = [
    "ERROR_KINDS",
    "GLYPHS",
    "GRAMMAR",
    "ILLEGAL_MARK",
    "KEYWORDS",
    "Flagged",
    "GameBuilder",
    "HeadersBuilder",
    "NotationError",
    "ParsedGame",
    "PayloadProblem",
    "PositionError",
    "SkipVisitor",
    "SyntaxChecker",
    "Verdict",
    "Visitor",
    "check_move",
    "legal_move_texts",
    "move_text",
    "parse_game",
    "parse_move",
    "parse_position",
    "position_string",
    "read_game",
    "read_moves",
    "state_differences",
    "states_equal",
    "write_game",
]
