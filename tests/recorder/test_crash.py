"""Crash test: a writer killed with SIGKILL at random moments, over and over, loses no
acknowledged event and never leaves half a batch."""

from __future__ import annotations

import contextlib
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time

from conftest import HERE

from engine.splendor_duel import events as ev
from engine.splendor_duel import simulate
from recorder import GameNotFound

KILLS = 110
GAMES = 40
ID = re.compile(r"^g(\d+)-f(\d+)-n(\d+)-i(\d+)$")


def test_sigkill_at_random_moments_loses_nothing_acknowledged(backend):
    server = subprocess.Popen(
        [sys.executable, str(HERE / "crash_child.py"), backend.spec, str(GAMES)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=str(HERE),
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            lines.put(line.strip())
        lines.put("eof")

    threading.Thread(target=read, daemon=True).start()

    def next_line() -> str:
        line = lines.get(timeout=120)
        assert line != "eof", server.stderr.read() if server.stderr else ""
        assert not line.startswith("error"), line
        return line

    rng = random.Random(2024)
    acks: list[tuple[str, int]] = []
    kills = cycles = 0
    assert next_line() == "ready"
    try:
        while kills < KILLS:
            cycles += 1
            assert cycles < KILLS * 3, "the writer finished every game before enough kills"
            assert server.stdin is not None
            server.stdin.write(f"run {cycles}\n")
            server.stdin.flush()
            pid = None
            # Every other writer is killed only once it has committed a batch, so the kills
            # land mid-write however slowly a loaded machine opens the store; the others
            # may die at any moment, opening the store included.
            wait_for_ack = cycles % 2 == 0
            exited = False
            while pid is None or wait_for_ack:
                line = next_line()
                if line.startswith("pid "):
                    pid = int(line.split()[1])
                elif line.startswith("ack "):
                    _, game, seq = line.split()
                    acks.append((game, int(seq)))
                    wait_for_ack = False
                elif line == "dead exited":
                    exited = True
                    break
            if exited:
                continue
            time.sleep(rng.uniform(0, 0.04))
            with contextlib.suppress(ProcessLookupError):  # it may have just finished
                os.kill(pid, signal.SIGKILL)
            while True:
                line = next_line()
                if line.startswith("ack "):
                    _, game, seq = line.split()
                    acks.append((game, int(seq)))
                elif line == "dead killed":
                    kills += 1
                    break
                elif line == "dead exited":
                    break
    finally:
        if server.stdin:
            server.stdin.write("quit\n")
            server.stdin.close()
        server.wait(timeout=60)

    assert backend.integrity_check() == "ok"
    assert len(acks) > KILLS // 2, "the writer was mostly killed before it could write"
    print(f"{kills} kills, {len(acks)} acknowledged batches")
    payloads = [
        [ev.event_to_dict(e) for e in simulate.random_game(random.Random(1000 + k))]
        for k in range(GAMES)
    ]
    with backend.open() as store:
        counts = {}
        for k in range(GAMES):
            game_id = f"crash-{k}"
            try:
                stored = store.events(game_id)
            except GameNotFound:
                continue
            counts[game_id] = len(stored)
            assert [s.sequence for s in stored] == list(range(1, len(stored) + 1))
            assert [s.payload for s in stored] == payloads[k][: len(stored)]
            batches: dict[tuple[int, int], int] = {}
            for s in stored:
                match = ID.match(s.event_id)
                assert match, s.event_id
                game, first, size, index = map(int, match.groups())
                assert game == k and s.sequence == first + index
                batches[(first, size)] = batches.get((first, size), 0) + 1
            for (first, size), seen in batches.items():
                assert seen == size, f"{game_id}: half of the batch from event {first} is stored"
            assert store.game(game_id).event_count == len(stored)
        for game, seq in acks:
            assert counts.get(game, 0) >= seq, f"acknowledged {game} event {seq} is lost"
