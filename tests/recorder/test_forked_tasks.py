"""Tasks shared between a process and forked copies of it (validation's way,
:func:`recorder.pipeline.forked_tasks`): every result once, in order, however the
processes share them; a failure raised in its turn; a copy killed costs nothing but time;
nothing left running.  Each case runs in an interpreter of its own (forked_child.py),
where no other thread runs."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from conftest import HERE

from recorder.pipeline import MOST_TASKS, forked_tasks

TASKS = list(range(120))


def run(case: str) -> dict[str, Any]:
    ran = subprocess.run(
        [sys.executable, str(HERE / "forked_child.py"), case],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)  # type: ignore[no-any-return]


def test_every_task_is_done_once_in_order_by_all_the_processes():
    out = run("order")
    assert [task for task, _ in out["got"]] == TASKS
    # this process and its copies took tasks (both copies, but for a copy the machine
    # left waiting until the tasks were gone)
    pids = {pid for _, pid in out["got"]}
    assert out["parent"] in pids and len(pids) >= 2
    assert out["error"] is None and out["children_left"] == 0


def test_a_task_failing_in_a_copy_raises_in_its_turn():
    out = run("fails-in-a-copy")  # (the copies refuse every task from the 57th)
    first = len(out["got"])  # the first of them a copy took
    assert first >= 57 and out["error"] == f"ValueError: task {first} refused"
    assert [task for task, _ in out["got"]] == TASKS[:first]
    assert all(pid == out["parent"] for task, pid in out["got"] if task >= 57)
    assert out["children_left"] == 0


def test_a_task_failing_here_raises_in_its_turn():
    out = run("fails-here")
    first = len(out["got"])  # the first task this process took
    assert out["error"] == f"ValueError: task {first} refused"
    assert [task for task, _ in out["got"]] == TASKS[:first]
    assert all(pid != out["parent"] for _, pid in out["got"])
    assert out["children_left"] == 0


def test_the_tasks_of_a_copy_killed_are_done_here():
    out = run("copy-killed")
    assert out["error"] is None
    assert [task for task, _ in out["got"]] == TASKS
    assert {pid for task, pid in out["got"] if task in (10, 11, 12)} == {out["parent"]}
    assert out["children_left"] == 0


def test_a_result_that_cannot_be_sent_back_is_an_error_in_its_turn():
    out = run("unpicklable")  # (the copies make a function from the 21st task on)
    first = len(out["got"])  # the first of them a copy took
    assert first >= 21 and out["error"].startswith(f"RuntimeError: task {first} made <function")
    assert "cannot be sent" in out["error"]
    assert [task for task, _ in out["got"]] == TASKS[:first]
    assert all(pid == out["parent"] for task, pid in out["got"] if task >= 21)
    assert out["children_left"] == 0


def test_stopping_early_leaves_no_process_behind():
    out = run("stopped-early")
    assert [task for task, _ in out["got"]] == TASKS[:5]
    assert out["children_left"] == 0


def test_more_tasks_than_a_pipe_holds_are_refused_before_any_process_starts():
    with pytest.raises(ValueError, match=f"at most {MOST_TASKS}"):
        next(forked_tasks(range(MOST_TASKS + 1), str, 2))
