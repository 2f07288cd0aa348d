"""What a club's games say: who wins from which seat, on which victory, how long games
last, which cards are bought and reserved and by whom, and the players' results against
each other (``tablelog stats`` and the site's statistics page).

Each finished game is folded once (:class:`engine.fold.Fold`, corrections and steps played
though illegal included) into its :class:`GameFacts`, kept in memory by the game's id and
head, so a page asked again folds only the games added or grown since.  The games counted
are the finished ones, those with a decision played though illegal included (``flagged``
says how many); games still in play, and games voided as started by mistake, are left out
and counted apart.

>>> wilson(60, 100)
(0.502, 0.691)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.corrections import Retraction
from engine.fold import Fold
from engine.games import get_game
from engine.protocol import seat_names

from .lru import LRU
from .projections import fold_name
from .protocol import Recorder
from .records import GameRow

#: How many cards the bought and reserved tables list.
TOP_CARDS = 10
#: Games listed a page at a time while reading the whole store.
PAGE = 500
#: Games' facts kept in memory (each a few hundred bytes).
KEPT = 200_000


@dataclass(frozen=True)
class GameFacts:
    """What one finished game contributes to the statistics."""

    game_id: str
    kind: str
    names: tuple[str, ...]
    #: The seat that made the game's first decision.
    first: int | None
    #: The single winner's seat (None on a shared win).
    winner: int | None
    condition: str
    turns: int
    #: Minutes from the first event to the last, where the events were recorded as the
    #: game was played (a game imported at once has one time for all its events: None).
    minutes: float | None
    flagged: bool
    #: (seat, card id) of every purchase and reservation still standing at the end (an
    #: undone one is not counted).
    bought: tuple[tuple[int, str], ...]
    reserved: tuple[tuple[int, str], ...]


_kept = LRU[tuple[str, str, str], GameFacts](KEPT)


def game_facts(store: Recorder, row: GameRow) -> GameFacts:
    """The facts of the finished game ``row`` (folded, or as kept for its head)."""
    key = (str(getattr(store, "path", id(store))), row.id, row.head)
    kept = _kept.get(key)
    if kept is None:
        kept = _fold_facts(row, store.events(row.id))
        _kept.put(key, kept)
    return kept


def _fold_facts(row: GameRow, stored: Sequence[Any]) -> GameFacts:
    rules = get_game(row.kind)
    names = seat_names(row.headers, rules.seats)
    fold = Fold(rules, names)
    first: int | None = None
    cards: list[tuple[int, str, str, int]] = []  # (seat, action, card, step)
    for s in stored:
        event = s.event if s.event is not None else rules.event_from_dict(s.payload)
        before = fold.head
        if type(event) is not Retraction:
            seat = rules.acting_seat(before, event)
            if seat is not None:
                if first is None and not rules.is_observation(event):
                    first = seat
                for action, card in rules.card_actions(before, event):
                    cards.append((seat, action, card, s.sequence))
        fold.push(event, bool(s.meta.get("played_illegally")))
    standing = set(fold.standing)
    bought = tuple((seat, card) for seat, a, card, n in cards if a == "bought" and n in standing)
    reserved = tuple(
        (seat, card) for seat, a, card, n in cards if a == "reserved" and n in standing
    )
    return GameFacts(
        game_id=row.id,
        kind=row.kind,
        names=tuple(names),
        first=first,
        winner=row.winner,
        condition=row.condition or "",
        turns=row.turns,
        minutes=_minutes(stored),
        flagged=row.flagged_count > 0,
        bought=bought,
        reserved=reserved,
    )


def _minutes(stored: Sequence[Any]) -> float | None:
    if len(stored) < 2 or stored[0].recorded_at == stored[-1].recorded_at:
        return None
    try:
        start = datetime.fromisoformat(stored[0].recorded_at.replace("Z", "+00:00"))
        end = datetime.fromisoformat(stored[-1].recorded_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return round((end - start).total_seconds() / 60, 1)


def _rows(store: Recorder, player: str | None, kind: str | None) -> Iterator[GameRow]:
    """Every stored game the filters leave, a page at a time (by place: each page is one
    index walk, however many games there are)."""
    after = None
    while True:
        page = store.listing.page(
            player=player, kind=kind, order="oldest", limit=PAGE, after=after, with_void=True
        )
        yield from page.games
        if page.next is None:
            return
        after = page.next


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate of ``wins`` in ``games`` (rounded to 3 places):
    honest for small counts and rates near 0 or 1, where the normal approximation is
    not."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (round((centre - spread) / scale, 3), round((centre + spread) / scale, 3))


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": round(wins / games, 3) if games else None,
        "interval": [low, high],
    }


def _spread(values: Sequence[float]) -> dict[str, Any] | None:
    if not values:
        return None
    counts = Counter(values)
    return {
        "games": len(values),
        "min": min(values),
        "median": statistics.median(values),
        "mean": round(statistics.fmean(values), 1),
        "max": max(values),
        "counts": sorted([value, n] for value, n in counts.items()),
    }


def _cards(pairs: Iterable[tuple[GameFacts, int, str]]) -> list[dict[str, Any]]:
    """The cards taken most often (by game, as two games may number cards alike), with
    what is printed on them and the share taken by the game's winner."""
    times: Counter[tuple[str, str]] = Counter()
    by_winner: Counter[tuple[str, str]] = Counter()
    for facts, seat, card in pairs:
        times[facts.kind, card] += 1
        if facts.winner == seat:
            by_winner[facts.kind, card] += 1
    ranked = sorted(times.items(), key=lambda item: (-item[1], item[0]))[:TOP_CARDS]
    out = []
    for (kind, card), n in ranked:
        printed = get_game(kind).cards().get(card)
        out.append(
            {
                "kind": kind,
                "card": card,
                "words": printed.words if printed is not None else "",
                "times": n,
                "winners_share": round(by_winner[kind, card] / n, 3),
            }
        )
    return out


def club_stats(
    store: Recorder, *, player: str | None = None, kind: str | None = None
) -> dict[str, Any]:
    """The statistics of the stored games (of ``player``, of the game ``kind``), as plain
    data (``tablelog stats --json`` prints it; the page and the plots draw it):

    * ``games``: the finished games counted, ``flagged`` of them with a decision played
      though illegal; ``left_out``: the games still in setup or play (``unfinished``)
      and those voided as started by mistake (``void``);
    * ``first_player_wins`` (a single winner who made the game's first decision) and
      ``first_player``: its rate, 95% interval and the rate if the seat did not matter;
    * ``by_seat``: the same for each place in the turn order (0: the first player);
    * ``victory``: condition → games; ``shared``: games won by more than one seat;
    * ``turns`` and ``minutes``: game length (minutes where events were timed as played);
    * ``bought`` and ``reserved``: the cards most often bought or reserved, with the share
      of those taken by the game's winner;
    * ``head_to_head``: for each two players who met, their games and wins;
    * ``player``: with a player, their games, wins and rate."""
    facts: list[GameFacts] = []
    unfinished = void = 0
    for row in _rows(store, player, kind):
        if row.void is not None:
            void += 1
            continue
        if row.status != "finished":
            unfinished += 1
            continue
        facts.append(game_facts(store, row))
    decided = [f for f in facts if f.winner is not None]
    first_wins = sum(1 for f in decided if f.first is not None and f.winner == f.first)
    places: dict[int, list[int]] = {}
    for f in facts:
        if f.first is None:
            continue
        seats = len(f.names)
        for seat in range(seats):
            place = (seat - f.first) % seats
            games_wins = places.setdefault(place, [0, 0])
            games_wins[0] += 1
            games_wins[1] += f.winner == seat
    expected = statistics.fmean(1 / len(f.names) for f in facts) if facts else None
    victory = Counter(f.condition for f in facts)
    meetings: dict[tuple[str, str], list[int]] = {}
    for f in facts:
        for i, a in enumerate(f.names):
            for b in f.names[i + 1 :]:
                pair = tuple(sorted((a, b)))
                met = meetings.setdefault((pair[0], pair[1]), [0, 0, 0])
                met[0] += 1
                winner = f.names[f.winner] if f.winner is not None else None
                met[1] += winner == pair[0]
                met[2] += winner == pair[1]
    out: dict[str, Any] = {
        "games": len(facts),
        "flagged": sum(f.flagged for f in facts),
        "left_out": {"unfinished": unfinished, "void": void},
        "kinds": dict(sorted(Counter(f.kind for f in facts).items())),
        "first_player_wins": first_wins,
        "first_player": {
            **_rate(first_wins, sum(1 for f in facts if f.first is not None)),
            "expected": round(expected, 3) if expected is not None else None,
        },
        "by_seat": [{"place": place, **_rate(w, g)} for place, (g, w) in sorted(places.items())],
        "victory": dict(sorted(victory.items(), key=lambda item: (-item[1], item[0]))),
        "shared": len(facts) - len(decided),
        "turns": _spread([f.turns for f in facts]),
        "minutes": _spread([f.minutes for f in facts if f.minutes is not None]),
        "bought": _cards((f, seat, card) for f in facts for seat, card in f.bought),
        "reserved": _cards((f, seat, card) for f in facts for seat, card in f.reserved),
        "head_to_head": [
            {"players": [a, b], "games": n, "wins": [wa, wb]}
            for (a, b), (n, wa, wb) in sorted(meetings.items(), key=lambda i: (-i[1][0], i[0]))
        ],
    }
    if player:
        # (found as the list finds a player: any case, accents or not)
        wanted = fold_name(player)
        held = [[i for i, n in enumerate(f.names) if fold_name(n) == wanted] for f in facts]
        won = sum(1 for f, mine in zip(facts, held, strict=True) if f.winner in mine)
        spelled = next(
            (f.names[mine[0]] for f, mine in zip(facts, held, strict=True) if mine), player
        )
        out["player"] = {"name": spelled, **_rate(won, sum(1 for mine in held if mine))}
    return out
