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

Everything here is pure.  The package reads notation the way python-chess reads PGN:
:mod:`.lexer` splits the text into tokens and places, :mod:`.reader` walks one game and
calls a visitor (:mod:`.visitor`: skip, headers only, syntax only; :mod:`.builder`: the
whole game checked against the rules, :func:`parse_game`), :mod:`.writer` writes the
canonical text back (:func:`write_game`).  Each family of decisions is read and written
in its own module (:mod:`.tokens`, :mod:`.cards`, :mod:`.royal_resign`, :mod:`.setup`),
:mod:`.decisions` gathers them (:func:`move_text`), :mod:`.corrections` reads and writes
``undo`` / ``undo to K``, :mod:`.moves` reads what is played next in a position
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

from ...protocol import ParsedGame, Verdict
from ..position import (
    PositionError,
    parse_position,
    position_string,
    state_differences,
    states_equal,
)
from .builder import GameBuilder, parse_game
from .decisions import TEXT_CACHE as _TEXT_CACHE
from .decisions import move_text
from .lexer import GLYPHS, ILLEGAL_MARK, KEYWORDS
from .moves import check_move, legal_move_texts, parse_move, read_moves
from .reader import read_game
from .results import ERROR_KINDS, Flagged, NotationError, PayloadProblem
from .visitor import HeadersBuilder, SkipVisitor, SyntaxChecker, Visitor
from .writer import write_game

__all__ = [
    "ERROR_KINDS",
    "GLYPHS",
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
    "_TEXT_CACHE",
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
