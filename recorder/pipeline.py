"""The import pipeline: games are prepared (validated and checked by the rules, see
:mod:`recorder.prepare`) here or in checking processes, regrouped into batches, and
handed to a writer, in a thread of its own when this process also prepares.

The writer is the store's (``import_stream`` of :class:`recorder.sqlite.EventStore`, in
:mod:`recorder.sqlite_import`); this module holds what moves games between the two and
knows nothing of SQL.
"""

from __future__ import annotations

import gc
import os
import pickle
import queue
import select
import signal
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import Any, NoReturn, TypeVar

from .errors import ImportRejected
from .prepare import Prepared, prepare_or_error
from .records import GameImport, ImportResult

#: Games per import transaction: each game is still whole or absent, and one sync to disk
#: serves them all (past a few hundred games, the syncs saved no longer show).
DEFAULT_BATCH = 500
#: Games per task, checked here or sent to a checking process: enough to make the
#: hand-over cheap, few enough to keep every process busy until the end.
TASK_GAMES = 25
#: Games handed to the writer at a time.  A batch's transaction is written a group at a
#: time, each as soon as it is checked, so that the writer starts after the first 32
#: games rather than the first 500 and ends soon after the last game is checked.
#: Smaller groups would cost more statements; a group this size already writes a game
#: as cheaply as a whole batch.
WRITE_GROUP = 32

#: A prepared game (or the error that refused it) with the caller's tag.
Tagged = tuple[Any, Prepared | ImportRejected]
#: A written game's result (or the error that refused it) with the caller's tag.
Written = tuple[Any, ImportResult | ImportRejected]
#: What a task of :func:`prepared_chunks` makes.
T = TypeVar("T")


def prepare_chunk(records: Sequence[GameImport]) -> list[Tagged]:
    """A checking process's task: prepare a few games (see :meth:`EventStore.import_games`)."""
    return [(None, prepare_or_error(r)) for r in records]


def worker_init() -> None:
    """Set up a checking process: its heap is mostly modules and caches that live as long
    as it does, and the games it checks make no reference cycles worth chasing often, so
    the cyclic garbage collector runs far less often (its passes over the modules and
    caches would find nothing to free)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def fork_is_safe() -> bool:
    """Whether processes may start as copies of this one (fork): on Linux, with no other
    thread (a lock another thread holds would stay held in the copy forever).  A copy
    starts with the modules already loaded: a spawned process imports them again, 0.2 to
    0.3 s of CPU each, as much as validating 60 to 90 games."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


#: The most tasks :func:`forked_tasks` takes: their numbers (4 bytes each) fit at once in
#: a pipe's buffer (64 KiB on Linux), so that writing them never waits for a reader.
MOST_TASKS = 8192
_NUMBER = struct.Struct("<I")  # a task's number, and the length of a result sent back


def forked_tasks(tasks: Sequence[Any], prepare: Callable[[Any], T], workers: int) -> Iterator[T]:
    """``prepare(task)`` for each of ``tasks`` (at most :data:`MOST_TASKS`), in order, by
    this process and ``workers - 1`` copies of it (forked: only where
    :func:`fork_is_safe`), each taking the next task no process has taken, so that they
    all finish together however long each task takes.

    Validation's way (:func:`recorder.validate.validate_files`): the caller has nothing
    else to do, so it checks too, and nothing else starts (no pool, no thread, no module
    to import): the tasks' numbers wait in a pipe, which each process reads four bytes
    at a time (so no task is taken twice), and each copy sends its results back, pickled,
    on a pipe of its own.  A copy starts with everything this process has loaded, runs
    ``prepare`` and nothing else, and ends with :func:`os._exit`.  An exception
    ``prepare`` raises, here or in a copy, is raised in its task's turn; a task taken by a
    copy that ended without sending it back (killed) is done here.  Closing the iterator
    early stops the copies.  An import's checking processes are :func:`prepared_chunks`':
    there this process writes meanwhile."""
    if len(tasks) > MOST_TASKS:
        raise ValueError(f"{len(tasks)} tasks: at most {MOST_TASKS} can be shared out")
    todo, numbers = os.pipe()
    try:
        os.write(numbers, b"".join(_NUMBER.pack(i) for i in range(len(tasks))))
    finally:
        os.close(numbers)
    copies: dict[int, int] = {}  # a copy's pipe -> its process id
    try:
        for _ in range(workers - 1):
            back, send = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(back)
                _copy_serves(todo, send, tasks, prepare)
            os.close(send)
            copies[back] = pid
        yield from _results(todo, copies, tasks, prepare)
    finally:
        os.close(todo)
        for back, pid in copies.items():  # (left only when the caller stopped early)
            os.close(back)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def _run(prepare: Callable[[Any], T], task: Any) -> tuple[bool, T | Exception]:
    try:
        return True, prepare(task)
    except Exception as err:
        return False, err


def _copy_serves(
    todo: int, send: int, tasks: Sequence[Any], prepare: Callable[[Any], Any]
) -> NoReturn:
    """A copy of :func:`forked_tasks`: the tasks it takes from ``todo``, each result sent
    on ``send`` as its length and its pickle, until no task is left; then the end of the
    process, with no clean-up (what it holds is its parent's)."""
    code = 0
    try:
        worker_init()
        while number := os.read(todo, _NUMBER.size):
            (i,) = _NUMBER.unpack(number)
            done, value = _run(prepare, tasks[i])
            try:
                data = pickle.dumps((i, done, value), pickle.HIGHEST_PROTOCOL)
            except Exception as err:  # what does not pickle is sent back in words
                failure = RuntimeError(f"task {i} made {value!r}, which cannot be sent: {err}")
                data = pickle.dumps((i, False, failure), pickle.HIGHEST_PROTOCOL)
            view = memoryview(_NUMBER.pack(len(data)) + data)
            while view:
                view = view[os.write(send, view) :]
    except BaseException:  # the parent stopped reading, or an interrupt
        code = 1
    finally:
        os._exit(code)


def _results(
    todo: int, copies: dict[int, int], tasks: Sequence[Any], prepare: Callable[[Any], T]
) -> Iterator[T]:
    """This process's part of :func:`forked_tasks`: take tasks and do them, gathering what
    the copies send between two, and hand back every result in the tasks' order."""
    results: dict[int, tuple[bool, Any]] = {}
    received = {back: bytearray() for back in copies}
    for back in copies:
        os.set_blocking(back, False)
    given = 0

    def receive(back: int) -> None:
        buffer = received[back]
        ended = False
        try:
            while not ended:
                data = os.read(back, 1 << 16)
                buffer += data
                ended = not data
        except BlockingIOError:  # all it has sent so far is read
            pass
        while len(buffer) >= _NUMBER.size:
            (length,) = _NUMBER.unpack_from(buffer)
            end = _NUMBER.size + length
            if len(buffer) < end:
                break
            i, done, value = pickle.loads(buffer[_NUMBER.size : end])
            results[i] = (done, value)
            del buffer[:end]
        if ended:
            del received[back]
            os.close(back)
            os.waitpid(copies.pop(back), 0)

    while True:
        while given in results:
            done, value = results.pop(given)
            if not done:
                raise value
            yield value
            given += 1
        number = os.read(todo, _NUMBER.size)
        if number:
            (i,) = _NUMBER.unpack(number)
            results[i] = _run(prepare, tasks[i])
            for back in list(received):
                receive(back)
        elif received:
            ready, _, _ = select.select(list(received), [], [])
            for back in ready:
                receive(back)
        elif given < len(tasks):  # taken by a copy that ended before sending it back
            results[given] = _run(prepare, tasks[given])
        else:
            return


def prepared_chunks(
    tasks: Iterable[Any], prepare: Callable[[Any], T], workers: int, ahead: int
) -> Iterator[T]:
    """``prepare(task)`` for each task, in order: here, or in ``workers`` processes (more
    than one) with up to ``ahead`` tasks in flight, so that they keep checking while the
    writer writes a batch, and prepared games never pile up in memory.

    The import's checking processes, and validation's (:func:`recorder.validate.
    validate_files`, whose tasks make reports): ``prepare`` is a module-level function
    (sent to the processes by name), its task and result plain data.

    Where :func:`fork_is_safe`, the processes start as copies of this one (fork), after
    it has done the first task itself: they begin with every module and cache that task
    loaded, and they are made before anything is handed back, so before an importing
    caller opens its first transaction.  A copy only ever runs ``prepare``: it never
    touches a database connection its caller holds, and it ends without closing one
    (a forked :mod:`multiprocessing` process exits at once, running no clean-up).
    Elsewhere they are spawned: fresh interpreters, each importing the modules again."""
    if workers <= 1:
        for task in tasks:
            yield prepare(task)
        return
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    tasks = iter(tasks)
    forked = fork_is_safe()
    done: list[T] = []  # the first task's result, when it is done here
    if forked:
        first = next(tasks, None)
        if first is None:
            return
        done.append(prepare(first))
    context = multiprocessing.get_context("fork" if forked else "spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=worker_init)
    window: deque[Future[T]] = deque()
    most = max(ahead, 2 * workers)
    try:
        # The processes start with the first task handed to them, before anything is
        # handed back.
        for task in islice(tasks, most):
            window.append(pool.submit(prepare, task))
        yield from done
        for task in tasks:
            result = window.popleft().result()
            window.append(pool.submit(prepare, task))
            yield result
        while window:
            yield window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def groups(chunks: Iterable[list[Tagged]], batch_size: int) -> Iterator[list[Tagged]]:
    """The prepared games of ``chunks`` regrouped :data:`WRITE_GROUP` at a time (fewer
    at the end), cut at every ``batch_size``-th game, so that a batch (one transaction)
    is made of whole groups."""
    size = min(WRITE_GROUP, batch_size)
    pending: list[Tagged] = []
    left = batch_size  # games still to come in the current batch
    for items in chunks:
        pending.extend(items)
        while len(pending) >= min(size, left):
            n = min(size, left)
            head, pending = pending[:n], pending[n:]
            left = left - n or batch_size
            yield head
    if pending:
        yield pending


#: How often the interpreter offers its global lock to another thread while an import
#: writes in a thread of its own, in seconds (Python's default is 0.005).
IMPORT_SWITCH_INTERVAL = 0.00005
_SWITCHES = threading.Lock()
_switch_users = 0
_switch_saved = 0.005


@contextmanager
def prompt_thread_switches() -> Iterator[None]:
    """While it lasts, a thread waiting for the interpreter's lock gets it within 0.05 ms
    rather than 5: the import's writer thread needs it back after every game's SQLite
    statement, which takes far less than 5 ms, so at the default interval the writer
    would spend most of its time waiting for the lock rather than writing.  The interval
    is restored when the last import that asked for it ends."""
    global _switch_users, _switch_saved
    with _SWITCHES:
        if _switch_users == 0:
            _switch_saved = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_saved, IMPORT_SWITCH_INTERVAL))
        _switch_users += 1
    try:
        yield
    finally:
        with _SWITCHES:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_saved)


def write_in_thread(
    groups: Iterable[list[Tagged]],
    write: Callable[[Iterator[list[Tagged]]], Iterator[list[Written]]],
    batch_size: int,
) -> Iterator[list[Written]]:
    """Write ``groups`` (cut as :func:`groups` cuts them) in a thread of their own while
    this one prepares the next: SQLite does its work without Python's global lock, so
    checking and writing run on two cores in one process, with nothing to hand between
    processes.  ``write`` takes the groups and yields each batch written (committed).

    One batch at a time is handed over: the groups of the next one are held here until
    the one before is written and yielded.  So while the caller handles a written batch,
    the writer is outside any transaction and the caller may use the store; and no more
    than a batch of prepared games waits here (beyond it, this thread waits)."""
    todo: queue.Queue[list[Tagged] | None] = queue.Queue()
    done: queue.Queue[list[Written] | BaseException | None] = queue.Queue()

    def writer_loop() -> None:
        try:
            for written in write(iter(todo.get, None)):
                done.put(written)
        except BaseException as err:  # handed to the other thread, which raises it
            done.put(err)
        done.put(None)  # the last: the writer may cut a batch in two (see below)

    held: deque[list[Tagged]] = deque()
    writing = False  # a batch is handed over (in part or whole) and not yet back
    handed = 0  # games of that batch handed over

    def hand_over() -> None:
        nonlocal writing, handed
        while held:
            if not writing:
                writing, handed = True, 0
            elif handed >= batch_size:
                return
            group = held.popleft()
            handed += len(group)
            todo.put(group)

    def written(item: list[Written] | BaseException | None) -> list[Written]:
        nonlocal writing
        if isinstance(item, BaseException):
            raise item
        assert item is not None, "the writer ended before its groups were written"
        writing = False
        return item

    writer = threading.Thread(target=writer_loop, name="tablelog-import-writer", daemon=True)
    writer.start()
    closed = False
    try:
        for group in groups:
            held.append(group)
            hand_over()
            while writing:  # hand back what is written, waiting only if a batch is held
                try:
                    item = done.get(block=sum(map(len, held)) >= batch_size)
                except queue.Empty:
                    break
                yield written(item)
                hand_over()
        while held:
            yield written(done.get())
            hand_over()
        todo.put(None)
        closed = True
        # Every batch written, to the writer's end: a batch it cut in two (it met an event
        # type to number first) comes back as two, though it was handed over as one.
        while (item := done.get()) is not None:
            yield written(item)
    finally:
        # Whatever happens here, what was prepared is written (or refused by the error
        # already raised) before the thread ends.
        if not closed:
            for group in held:
                todo.put(group)
            todo.put(None)
        writer.join()
