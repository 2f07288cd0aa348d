"""The decisions about tokens, read and written: ``priv``, ``repl``, ``take``, ``token``,
``steal``, ``disc``.

Each reader takes the decision's arguments, the state (None: check the syntax only, as
after the first error) and the seat names; each writer gives the canonical text of its
event in the state before it.

>>> read_take(["c2", "c3", "=WB"], None, Context(()))
TokensTaken(spaces=(7, 12))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import Violation
from .. import game as _game
from ..catalogue import CARDS, COLOR_LETTERS, COLOR_NAMES, GOLD, MAX_TOKENS, SPACE_NAMES
from ..events import (
    BoardReplenished,
    BonusTokenTaken,
    Event,
    PrivilegeSpent,
    TokensDiscarded,
    TokensTaken,
    TokenStolen,
)
from ..state import DISCARD, State
from .arguments import (
    LETTER,
    LETTERS_RE,
    NOTATION_RULE,
    SPACES,
    Context,
    Fail,
    color,
    counts,
    counts_text,
    expect,
    space,
)

# --- reading -----------------------------------------------------------------------------


def read_priv(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``priv c3``: a Privilege spent on the token at c3."""
    expect(args, 1, "priv SPACE, e.g. priv c3")
    return PrivilegeSpent(space(args, 0))


def read_repl(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``repl WBRKP`` (the tokens drawn, in spiral order), ``repl -`` (an empty bag), or
    ``repl`` when the draw cannot differ (a bag of one colour)."""
    if args == ["-"]:
        return BoardReplenished(())
    letters = "".join(args)
    for i, tok in enumerate(args):
        if not LETTERS_RE.fullmatch(tok):
            raise Fail(
                "syntax", i, f"expected the drawn tokens as letters such as WBRKP, got {tok!r}"
            )
    if letters:
        return BoardReplenished(tuple(map(LETTER.__getitem__, letters)))
    if state is None:
        return None
    bag = state.bag
    colors = [c for c in range(7) if bag[c]]
    if len(colors) <= 1:
        return BoardReplenished(tuple(c for c in colors for _ in range(bag[c])))
    if ctx.unobserved:
        return BoardReplenished(None)
    raise Fail(
        "syntax",
        -1,
        f"list the {sum(bag)} tokens drawn from the bag ({counts_text(bag)}) in the spiral "
        "order of the empty spaces, e.g. repl "
        + "".join(COLOR_LETTERS[c] * bag[c] for c in range(7)),
    )


def read_take(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``take c2 c3 c4 =WWB``: up to three tokens in a line (the colours optional)."""
    spaces: list[int] = []
    written = None
    for i, tok in enumerate(args):
        if tok.startswith("="):
            if i != len(args) - 1 or not LETTERS_RE.fullmatch(tok[1:]):
                raise Fail("syntax", i, "the colours come last, as =WWB")
            written = i
            break
        spaces.append(space(args, i))
    if not spaces:
        raise Fail("syntax", -1, "expected take SPACE [SPACE [SPACE]], e.g. take c2 c3 c4")
    if written is not None:
        letters = args[written][1:]
        if len(letters) != len(spaces):
            raise Fail("syntax", written, f"{len(spaces)} spaces but {len(letters)} colours")
        if state is not None:
            check_take_colors(state, args)
    return TokensTaken(tuple(spaces))


def take_colors(args: list[str]) -> tuple[tuple[int, int], ...] | None:
    """The (space, colour) pairs a take's written colours claim, None if none written."""
    if not args or args[-1][0] != "=":
        return None
    return tuple((SPACES[args[k]], LETTER[letter]) for k, letter in enumerate(args[-1][1:]))


def take_claim(keyword: str, args: list[str]) -> tuple[tuple[int, int], ...] | None:
    """What a decision claims of the board beside its event: a take's written colours
    (``take c2 c3 =WB``), its (space, colour) pairs, checked each time it is read
    (where the board differs, :func:`check_take_colors` says why)."""
    if keyword != "take":
        return None
    return take_colors(args)


def check_take_colors(state: State, args: list[str]) -> None:
    """``take c2 c3 c4 =WWB``: the written colours must be those on the board."""
    board = state.board
    letters = args[-1][1:]
    for k, letter in enumerate(letters):
        s = SPACES[args[k]]
        token = board[s]
        if 0 <= token < GOLD and COLOR_LETTERS[token] != letter:
            raise Fail(
                "illegal",
                len(args) - 1,
                "the colours do not match the board",
                [
                    Violation(
                        "notation.colors",
                        f"{SPACE_NAMES[s]} holds a {COLOR_NAMES[token]} token, not "
                        f"{COLOR_NAMES[LETTER[letter]]} as written",
                        NOTATION_RULE,
                    )
                ],
            )


def read_token(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``token c4``: the token a card's ability takes (``token`` alone when only one
    token of the card's colour is on the board)."""
    if len(args) > 1:
        raise Fail("syntax", 1, "expected token SPACE, e.g. token c4")
    if args:
        return BonusTokenTaken(space(args, 0))
    if state is None:
        return None
    c = CARDS[state.last_card].color if state.last_card else None
    spaces = [s for s, t in enumerate(state.board) if t == c and c is not None]
    if len(spaces) > 1:
        raise Fail(
            "syntax",
            -1,
            "say which token: " + " or ".join(f"token {SPACE_NAMES[s]}" for s in spaces),
        )
    return BonusTokenTaken(spaces[0] if spaces else 0)


def read_steal(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``steal R``: the colour taken from the opponent."""
    expect(args, 1, "steal COLOUR, e.g. steal R")
    return TokenStolen(color(args, 0))


def read_disc(args: list[str], state: State | None, ctx: Context) -> Event | None:
    """``disc B1 R2``: the tokens returned down to ten (``disc`` alone when there is one
    way)."""
    if args:
        return TokensDiscarded(counts(args, 0, len(args)))
    if state is None:
        return None
    options = _game.legal_moves(state) if state.awaiting == DISCARD else []
    if len(options) == 1:
        return options[0]
    if not options:
        return TokensDiscarded((0, 0, 0, 0, 0, 0, 0))
    first: Any = options[0]
    raise Fail(
        "syntax",
        -1,
        f"say which {state.player.token_count - MAX_TOKENS} token(s) are discarded, e.g. disc "
        + counts_text(first.tokens),
    )


# --- writing -----------------------------------------------------------------------------


def write_take(state: State, event: Any, names: Sequence[str]) -> str:
    """``take a1 b1 c1 =WBG`` (the colours left out when a Gold or an empty space is
    among them)."""
    board = state.board
    spaces = _SPACES.get(event.spaces)
    if spaces is None:
        if len(_SPACES) > 10_000:
            _SPACES.clear()
        spaces = _SPACES[event.spaces] = "take " + " ".join(SPACE_NAMES[s] for s in event.spaces)
    letters = "".join([_TAKEN[board[s]] for s in event.spaces])
    return spaces if "#" in letters else f"{spaces} ={letters}"


#: ``take`` and its spaces, by the spaces taken (a few hundred lines of one to three).
_SPACES: dict[tuple[int, ...], str] = {}
#: A space's letter in a take, by what it holds: ``#`` for a Gold, and for an empty space
#: (-1, the last letter), whose colours a take does not write.
_TAKEN = COLOR_LETTERS[:GOLD] + "##"


def write_priv(state: State, event: Any, names: Sequence[str]) -> str:
    """``priv c3``."""
    return f"priv {SPACE_NAMES[event.space]}"


def write_repl(state: State, event: Any, names: Sequence[str]) -> str:
    """``repl WBRKP``, ``repl -`` for an empty draw, ``repl`` for a draw not observed."""
    tokens = event.tokens
    if tokens is None:
        return "repl"
    return f"repl {''.join(COLOR_LETTERS[c] for c in tokens)}" if tokens else "repl -"


def write_token(state: State, event: Any, names: Sequence[str]) -> str:
    """``token c4``."""
    return f"token {SPACE_NAMES[event.space]}"


def write_steal(state: State, event: Any, names: Sequence[str]) -> str:
    """``steal R``."""
    return f"steal {COLOR_LETTERS[event.color]}"


def write_disc(state: State, event: Any, names: Sequence[str]) -> str:
    """``disc B1 R2``."""
    return f"disc {counts_text(event.tokens)}".rstrip()
