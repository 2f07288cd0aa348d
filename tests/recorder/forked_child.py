"""Tasks shared between a process and forked copies of it
(:func:`recorder.pipeline.forked_tasks`), in an interpreter of its own where no other
thread runs (a test process may have one, and a fork must not copy a held lock):

    python forked_child.py CASE

prints one JSON object: what the iteration gave, and the processes left behind.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from typing import Any

from recorder.pipeline import fork_is_safe, forked_tasks

PARENT = os.getpid()
TASKS = list(range(120))


def _slow(task: int) -> None:
    """A task's work: a few milliseconds, differing from task to task."""
    time.sleep(random.Random(task).uniform(0.0005, 0.004))


def by_whom(task: int) -> list[int]:
    _slow(task)
    return [task, os.getpid()]


def _copies_first(task: int, first: int) -> None:
    """From task ``first`` on, this process spends 50 ms on each task it takes, so
    that a copy takes the next ones however busy the machine is."""
    if task >= first and os.getpid() == PARENT:
        time.sleep(0.05)


def fails_in_a_copy(task: int) -> list[int]:
    if task >= 57 and os.getpid() != PARENT:
        raise ValueError(f"task {task} refused")
    _copies_first(task, 57)
    return by_whom(task)


def fails_here(task: int) -> list[int]:
    if os.getpid() == PARENT:
        raise ValueError(f"task {task} refused")
    return by_whom(task)


def copy_killed(task: int) -> list[int]:
    if task in (10, 11, 12) and os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    return by_whom(task)


def unpicklable_in_a_copy(task: int) -> Any:
    if task > 20 and os.getpid() != PARENT:
        return lambda: task
    _copies_first(task, 21)
    return by_whom(task)


def children_left() -> int:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return 0  # none at all
    return 1 if pid == 0 else 1 + children_left()


def main() -> None:
    assert fork_is_safe(), "another thread runs"
    case = sys.argv[1]
    prepare = {
        "order": by_whom,
        "fails-in-a-copy": fails_in_a_copy,
        "fails-here": fails_here,
        "copy-killed": copy_killed,
        "unpicklable": unpicklable_in_a_copy,
        "stopped-early": by_whom,
    }[case]
    got: list[Any] = []
    error = None
    started = time.perf_counter()
    results = forked_tasks(TASKS, prepare, 3)
    try:
        for result in results:
            got.append(result if isinstance(result, list) else repr(result))
            if case == "stopped-early" and len(got) == 5:
                results.close()
                break
    except Exception as err:
        error = f"{type(err).__name__}: {err}"
    print(
        json.dumps(
            {
                "got": got,
                "error": error,
                "parent": PARENT,
                "children_left": children_left(),
                "seconds": time.perf_counter() - started,
            }
        )
    )


if __name__ == "__main__":
    main()
