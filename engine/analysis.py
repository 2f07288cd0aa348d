"""Who is ahead, and which decision is best: playouts and a search, for every game.

Pure and seeded: every random draw comes from a ``random.Random`` the caller passes in,
and a time budget is the caller's ``stop`` callable (asked between playouts), so the same
seed and the same number of playouts always give the same figures.

A game supplies its :class:`engine.protocol.Playouts` (``GameRules.playouts``): how a
position's unseen cards and bag are dealt into a *world* (one guess at what is hidden,
drawn from what the position has not revealed, never from the record's future), the
decisions in a world, how a decision and the observations it calls for are played there,
its default policy (a player's preferences among the decisions, as the game weighs them) and the
shares of a finished world.  This module speaks only that contract:

* :func:`estimate` (and :class:`Tally`, the same a few playouts at a time): each seat's
  chance to win, the share of playouts it wins with the default policy playing every seat;
* :func:`search`: Monte Carlo tree search over decisions with a world dealt afresh at
  each iteration (single-observer information-set MCTS), the policy's preferences as
  priors (PUCT), which names the best decisions found with the chance each gives the mover;
* :func:`analyse`: a whole game, each step's chances, then the turning points (the
  decisions that lost their mover the most) searched for a better decision.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .protocol import GameRules, Playouts

#: The search's exploration constant (PUCT): how far the policy's preferences and the
#: square root of the visits weigh against the chances found so far.
EXPLORATION = 1.5
#: The temperature turning the policy's scores into the search's priors (a softmax).
PRIOR_TEMPERATURE = 12.0
#: The share of each prior spread evenly over the decisions: a decision the policy
#: scorns is still tried once the favourites look bad (the saving reserve, the block).
PRIOR_FLOOR = 0.5


def _never() -> bool:
    return False


def playout(playouts: Playouts, world: Any) -> tuple[float, ...]:
    """Play ``world`` to its end with the default policy; each seat's share of the win."""
    choose = playouts.choose
    advance = playouts.advance
    shares = playouts.shares
    result = shares(world)
    while result is None:
        advance(world, choose(world))
        result = shares(world)
    return result


class Tally:
    """Each seat's chance to win from ``state``, estimated a few playouts at a time."""

    def __init__(self, rules: GameRules, state: Any) -> None:
        self.rules = rules
        self.state = state
        self.seats = len(state.names)
        self.totals = [0.0] * self.seats
        self.playouts = 0
        #: A finished game (or one not set up) is known without playing: its shares.
        self.known: tuple[float, ...] | None = None
        phase, _ = rules.progress(state)
        if phase == "setup":
            self.known = tuple(1.0 / self.seats for _ in range(self.seats))
        elif phase == "finished":
            result = rules.status(state).result
            winners = result.winners if result is not None else ()
            self.known = tuple(
                (1.0 / len(winners) if seat in winners else 0.0) if winners else 1.0 / self.seats
                for seat in range(self.seats)
            )

    def run(self, rng: random.Random, count: int) -> None:
        """``count`` more playouts, each from a world dealt afresh with ``rng``."""
        if self.known is not None:
            return
        playouts = self.rules.playouts
        totals = self.totals
        for _ in range(count):
            result = playout(playouts, playouts.deal(self.state, rng))
            for seat, share in enumerate(result):
                totals[seat] += share
        self.playouts += count

    @property
    def chances(self) -> tuple[float, ...]:
        """The share of the playouts each seat won (equal shares before any)."""
        if self.known is not None:
            return self.known
        if not self.playouts:
            return tuple(1.0 / self.seats for _ in range(self.seats))
        return tuple(t / self.playouts for t in self.totals)

    def estimate(self) -> Estimate:
        return Estimate(self.chances, self.playouts, self.known is not None)


@dataclass(frozen=True, slots=True)
class Estimate:
    """Each seat's chance to win, the number of playouts it rests on, and whether it is
    ``certain`` (the game is over, or not set up: no playout is needed)."""

    chances: tuple[float, ...]
    playouts: int
    certain: bool = False


def estimate(
    rules: GameRules,
    state: Any,
    rng: random.Random,
    playouts: int,
    *,
    stop: Callable[[], bool] = _never,
    batch: int = 8,
) -> Estimate:
    """Each seat's chance to win from ``state``: ``playouts`` playouts of the default
    policy (fewer when ``stop`` says so, asked every ``batch`` playouts)."""
    tally = Tally(rules, state)
    while tally.known is None and tally.playouts < playouts and not stop():
        tally.run(rng, min(batch, playouts - tally.playouts))
    return tally.estimate()


# --- the search ------------------------------------------------------------------------


class _Node:
    """A decision in the tree: how often it was tried (``visits``), the mover's share won
    after it (``wins``), how often it was available when its parent was visited, and its
    prior from the policy."""

    __slots__ = ("children", "visits", "wins", "available", "prior", "seat")

    def __init__(self, seat: int, prior: float) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.prior = prior
        #: The seat that makes this node's decision (the mover of its parent).
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Line:
    """A decision the search tried: the mover's chance to win after it and the number of
    playouts that chance rests on."""

    decision: Any
    chance: float
    playouts: int


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What :func:`search` found: the decisions tried, best first (most playouts, then the
    best chance), the seat they are for, and the playouts made in all."""

    mover: int | None
    best: tuple[Line, ...]
    playouts: int


def root_decisions(rules: GameRules, state: Any) -> list[Any]:
    """The decisions due in ``state`` (none while the table is to observe something)."""
    if rules.progress(state)[0] != "playing":
        return []
    return [m for m in rules.legal_moves(state) if not rules.is_observation(m)]


def _priors(playouts: Playouts, world: Any, moves: Sequence[Any]) -> list[float]:
    scores = playouts.scores(world, moves)
    top = max(scores)
    weights = [math.exp((s - top) / PRIOR_TEMPERATURE) for s in scores]
    total = sum(weights)
    even = PRIOR_FLOOR / len(weights)
    return [(1 - PRIOR_FLOOR) * w / total + even for w in weights]


def search(
    rules: GameRules,
    state: Any,
    rng: random.Random,
    playouts: int,
    *,
    stop: Callable[[], bool] = _never,
    settle: bool = False,
) -> SearchResult:
    """The best decisions for the player to move in ``state``, found by ``playouts``
    iterations of the tree search (fewer when ``stop`` says so): each deals a world from
    what ``state`` has not revealed, walks the tree by the decisions legal in that world
    (PUCT: the chance found so far, plus the policy's prior over the square root of
    the visits), adds one decision and plays the rest with the default policy.

    With ``settle``, the search also stops once the decision with the most playouts can
    no longer be overtaken by the playouts left: the best decision is the one the whole
    budget would name, found for less (a player needs only it; the other lines' figures
    then rest on fewer playouts)."""
    legal = root_decisions(rules, state)
    if not legal:
        return SearchResult(None, (), 0)
    mover = rules.acting_seat(state, legal[0])
    game = rules.playouts
    allowed = set(legal)
    root = _Node(-1, 1.0)
    done = 0
    while done < playouts and not stop():
        if settle and _settled(root, playouts - done):
            break
        done += 1
        world = game.deal(state, rng)
        node = root
        path: list[_Node] = []
        result = game.shares(world)
        while result is None:
            moves = game.decisions(world)
            if node is root:
                moves = [m for m in moves if m in allowed]
                if not moves:  # this world allows none of the position's decisions
                    break
            seat = game.mover(world)
            children = node.children
            fresh = [m for m in moves if m not in children]
            if fresh:
                priors = _priors(game, world, moves)
                for m, p in zip(moves, priors, strict=True):
                    child = children.get(m)
                    if child is None:
                        children[m] = _Node(seat, p)
                    else:
                        child.prior = p
            chosen = _select(node, moves)
            child = children[chosen]
            game.advance(world, chosen)
            path.append(child)
            if child.visits == 0:
                break
            node = child
            result = game.shares(world)
        if not path:
            continue
        if result is None:
            result = playout(game, world)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.wins += result[n.seat]
    lines = [Line(m, n.wins / n.visits, n.visits) for m, n in root.children.items() if n.visits]
    lines.sort(key=lambda line: (-line.playouts, -line.chance))
    return SearchResult(mover, tuple(lines), root.visits)


def _settled(root: _Node, left: int) -> bool:
    """Whether no decision can reach the most tried one's playouts in ``left`` more."""
    first = second = 0
    for child in root.children.values():
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > left


def _select(node: _Node, moves: Sequence[Any]) -> Any:
    """PUCT among the decisions available now; an untried one is valued at the mover's
    chance over the decisions tried here so far (first-play urgency; one half before
    any), so the priors decide which is tried first."""
    children = node.children
    wins = 0.0
    visits = 0
    for m in moves:
        child = children[m]
        child.available += 1
        wins += child.wins
        visits += child.visits
    parent_value = wins / visits if visits else 0.5
    best = None
    best_value = -1.0
    for m in moves:
        child = children[m]
        root_n = math.sqrt(child.available)
        q = child.wins / child.visits if child.visits else parent_value
        value = q + EXPLORATION * child.prior * root_n / (1 + child.visits)
        if value > best_value:
            best_value = value
            best = m
    return best


# --- a whole game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A decision that lost its mover much: played at ``step`` (the state before it is
    step ``step - 1``), the mover's chance before and after, and the better decision the
    search found there (None when it found none better) with its chance."""

    step: int
    seat: int
    decision: Any
    before: float
    after: float
    better: Line | None
    searched: int

    @property
    def loss(self) -> float:
        return self.before - self.after


@dataclass
class GameAnalysis:
    """Each step's :class:`Estimate` (step 0: the new table), then the turning points."""

    steps: list[Estimate]
    turning_points: list[TurningPoint] = field(default_factory=list)


def analyse(
    rules: GameRules,
    states: Sequence[Any],
    events: Sequence[Any | None],
    rng: random.Random,
    *,
    playouts: int,
    stop_chances: Callable[[], bool] = _never,
    stop_search: Callable[[float], bool] = lambda _share: False,
    turning_points: int = 3,
    search_playouts: int = 400,
    batch: int = 4,
    progress: Callable[[str, int, int], None] | None = None,
) -> GameAnalysis:
    """A game's analysis: ``states[k]`` is the table after ``events[:k]`` (an event None:
    a correction, not a decision).  Every step's
    chances get ``batch`` playouts in turn until each has ``playouts`` or
    ``stop_chances`` says so (so all rest on about as many); then the ``turning_points``
    decisions that lost their mover the most are searched for a better one
    (``search_playouts`` each at most; the k-th of n until ``stop_search(k / n)``: the
    caller's budget for the searches shared out evenly).  ``progress`` is told
    ``(phase, done, total)`` along the way."""
    tallies = [Tally(rules, s) for s in states]
    open_ = [t for t in tallies if t.known is None]
    total = playouts * len(open_)
    done = 0
    stopped = False
    while open_ and not stopped:
        for t in open_:
            if stop_chances():
                stopped = True
                break
            n = min(batch, playouts - t.playouts)
            t.run(rng, n)
            done += n
            if progress is not None:
                progress("chances", done, total)
        open_ = [t for t in open_ if t.playouts < playouts]
    steps = [t.estimate() for t in tallies]
    drops: list[tuple[float, int, int]] = []
    for k in range(1, len(states)):
        event = events[k - 1]
        if event is None or rules.is_observation(event):
            continue
        seat = rules.acting_seat(states[k - 1], event)
        if seat is None:
            continue
        loss = steps[k - 1].chances[seat] - steps[k].chances[seat]
        if loss > 0:
            drops.append((loss, k, seat))
    drops.sort(key=lambda d: (-d[0], d[1]))
    points: list[TurningPoint] = []
    chosen = drops[:turning_points]
    for i, (_, k, seat) in enumerate(chosen):
        if progress is not None:
            progress("turning points", i, len(chosen))
        share = (i + 1) / len(chosen)
        found = search(
            rules, states[k - 1], rng, search_playouts, stop=functools.partial(stop_search, share)
        )
        played = rules.playouts.decision(events[k - 1])
        better = found.best[0] if found.best and found.best[0].decision != played else None
        points.append(
            TurningPoint(
                k,
                seat,
                events[k - 1],
                steps[k - 1].chances[seat],
                steps[k].chances[seat],
                better,
                found.playouts,
            )
        )
    points.sort(key=lambda p: p.step)
    return GameAnalysis(steps, points)
