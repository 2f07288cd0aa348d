"""A fork server for the crash test.

    python crash_child.py SPEC GAMES

It simulates GAMES seeded games once, then for each ``run SEED`` line on stdin forks a
writer and prints ``pid N``; the writer appends the games' events in small batches and
prints ``ack GAME_ID LAST_SEQUENCE`` after each committed batch, until it is killed (or
prints ``done`` when every game is complete).  When the writer is gone the server prints
``dead``.  Event ids name their batch (``g<k>-f<first>-n<size>-i<index>``), so a half
written batch would show.
"""

from __future__ import annotations

import os
import random
import sys

from store_spec import open_store_spec as open_store

from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate
from recorder import GameNotFound


def writer(spec: str, games: list[list[dict]], seed: int) -> None:
    rng = random.Random(seed)
    store = open_store(spec)
    for k, payloads in enumerate(games):
        game_id = f"crash-{k}"
        try:
            n = store.game(game_id).event_count
        except GameNotFound:
            store.create_game({"players": ["Ann", "Bo"]}, game_id=game_id)
            n = 0
        while n < len(payloads):
            size = min(rng.randint(1, 4), len(payloads) - n)
            first = n + 1
            ids = [f"g{k}-f{first}-n{size}-i{i}" for i in range(size)]
            result = store.append(game_id, n, payloads[n : n + size], event_ids=ids)
            os.write(1, f"ack {game_id} {result.last_sequence}\n".encode())
            n = result.last_sequence
    os.write(1, b"done\n")


def main() -> None:
    spec, count = sys.argv[1], int(sys.argv[2])
    games = [
        [ev.event_to_dict(e) for e in simulate.random_game(random.Random(1000 + k))]
        for k in range(count)
    ]
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.split()
        if not command or command[0] == "quit":
            break
        pid = os.fork()
        if pid == 0:
            try:
                writer(spec, games, int(command[1]))
            except BaseException as err:  # reported to the test, which fails on it
                os.write(1, f"error {err!r}\n".encode())
            finally:
                os._exit(0)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print("dead killed" if os.WIFSIGNALED(status) else "dead exited", flush=True)


if __name__ == "__main__":
    main()
