"""Work done in the background and kept on disk: a game's animation (``/games/<id>.gif``)
and its analysis (who was ahead at each step, where the game turned).

Either takes seconds or more; a request's worker must keep answering meanwhile.  So a
request never does the work: it asks :func:`ask`, which answers at once with the file when
it is done, or starts the work in a process of its own and says how far it got.  The
process (``python -m web.background``) runs at a low priority (``os.nice``), opens the
store itself, does the work (:data:`KINDS`: the function of each kind), writes the result
into the folder and ends.

What was done is kept by the game's chain head, the kind of work and its arguments
(:func:`key`): a game that grows has a new head and its work is done anew (an animation's
frames say "step N of LAST"); what was kept for its older heads is removed when a new one
is written.

One process at a time per key, across every worker process of the server: the process
that works holds an exclusive ``flock`` on the key's lock file (the request that started
it took the lock and handed its descriptor over, so there is no moment when no one holds
it; the kernel lets go of it when the process ends, however it ends).  A request that
finds the lock held reads the progress file.  At most ``slots`` processes run at once
(each holds one of the slot lock files the same way); when every slot is taken a request
is told to come back later (the work waits for it).  ``flock`` is POSIX: the site does
this work where gunicorn runs (not on Windows).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from flask import current_app

log = logging.getLogger("tablelog.web")

#: How long failed work is answered as failed before it is tried again, in seconds.
FAILED_FOR = 60
#: The most bytes of results kept in the folder (the oldest leave first).
MAX_BYTES = 512 * 1024 * 1024


class Kind(NamedTuple):
    """A kind of work: its ``name``, the ``suffix`` of its result file, its ``version``
    (bumped when the work changes, so that results kept by an older version are not
    served), ``runs``, the ``module:function`` the working process calls with the
    store, the game's id, the arguments (text) and a ``progress(done, total)``: it
    returns the result's bytes; and ``niceness``, added to the process's priority so
    that the server's workers go first."""

    name: str
    suffix: str
    version: int
    runs: str
    niceness: int


#: A player waits for an animation (seconds); an analysis takes minutes and nobody waits
#: on it, so it runs at the lowest priority and takes from the pages only what is idle.
ANIMATION = Kind("animation", ".gif", 2, "web.animation:background_gif", 10)
ANALYSIS = Kind("analysis", ".json", 1, "web.analysis:background_analysis", 19)
KINDS = {k.name: k for k in (ANIMATION, ANALYSIS)}


class Work(NamedTuple):
    """Where a piece of work stands: ``state`` is ``ready`` (``path`` is the result),
    ``working`` (``done`` of ``total`` parts done), ``waiting`` (every slot is taken by
    other work: asked again, it starts when one is free) or ``failed`` (``message`` says
    why)."""

    state: str
    path: Path | None = None
    done: int = 0
    total: int = 0
    message: str = ""


def key(kind: Kind, game_id: str, head: str, args: Sequence[str]) -> str:
    """The name the work ``kind`` with ``args`` on a game at chain ``head`` is kept under.

    >>> key(ANIMATION, "6138631be858", "ab" * 32, ["1", "11", "w640"])
    '6138631be858-abababababababababababab-animation-1_11_w640-v2'
    """
    return f"{game_id}-{head[:24]}-{kind.name}-{'_'.join(args)}-v{kind.version}"


def ask(
    folder: Path,
    kind: Kind,
    place: str,
    game_id: str,
    head: str,
    args: Sequence[str],
    total: int,
    slots: int,
) -> Work:
    """The work ``kind`` with ``args`` on game ``game_id`` (at chain ``head``, in the
    store ``place``; ``total`` parts to do): ready, or under way (started now in the
    background if no one does it yet), or waiting for a free slot, or failed."""
    name = key(kind, game_id, head, args)
    result = folder / f"{name}{kind.suffix}"
    if result.is_file():
        return Work("ready", result)
    folder.mkdir(parents=True, exist_ok=True)
    lock = _try_lock(folder / f"{name}.lock")
    if lock is None:  # someone does it
        return _progress(folder / f"{name}.progress", total)
    try:
        if result.is_file():  # done just now
            return Work("ready", result)
        failed = folder / f"{name}.failed"
        with contextlib.suppress(OSError):
            if time.time() - failed.stat().st_mtime < FAILED_FOR:
                return Work("failed", message=failed.read_text("utf-8", "replace"))
            failed.unlink()
        slot = _free_slot(folder, slots)
        if slot is None:
            return Work("waiting", total=total)
        try:
            _write_progress(folder / f"{name}.progress", 0, total)
            _start(folder, kind, place, name, game_id, args, (lock.fileno(), slot.fileno()))
        finally:
            slot.close()
        return Work("working", total=total)
    finally:
        lock.close()  # the working process holds it now (the same open file)


def under_way(body: Any, wait: int) -> Any:
    """The answer while work is under way (``body``: its progress, a page or JSON): ``202
    Accepted``, to be asked again in ``wait`` seconds, kept by no cache."""
    response = current_app.make_response((body, 202))
    response.headers["Retry-After"] = str(wait)
    response.headers["Cache-Control"] = "no-store"
    return response


def _try_lock(path: Path) -> Any:
    """``path`` opened and locked (exclusive ``flock``), or None when another holds it."""
    import fcntl  # POSIX only (see the module's text)

    handle = open(path, "a+b")  # noqa: SIM115  # handed over to the working process
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def _free_slot(folder: Path, slots: int) -> Any:
    """One of the ``slots`` slot locks, taken, or None when every one is held."""
    for i in range(max(1, slots)):
        slot = _try_lock(folder / f"slot-{i}.lock")
        if slot is not None:
            return slot
    return None


#: The working processes started by this process, reaped as new ones start.
_children: list[subprocess.Popen[bytes]] = []


def _start(
    folder: Path,
    kind: Kind,
    place: str,
    name: str,
    game_id: str,
    args: Sequence[str],
    fds: tuple[int, ...],
) -> None:
    """Start the working process, handing it the locks' descriptors ``fds``."""
    _children[:] = [p for p in _children if p.poll() is None]
    env = {**os.environ, "TABLELOG_DB": place}  # not on the command line: a URL's password
    argv = [sys.executable, "-m", "web.background", str(folder), kind.name, name, game_id, *args]
    # its errors go where the server's go (its standard error)
    _children.append(
        subprocess.Popen(
            argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=fds
        )
    )


def _progress(path: Path, total: int) -> Work:
    """What the working process last wrote of its progress."""
    try:
        data = json.loads(path.read_text("utf-8"))
        return Work("working", done=int(data["done"]), total=int(data["total"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Work("working", total=total)


def _write_progress(path: Path, done: int, total: int) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps({"done": done, "total": total}), "utf-8")
    os.replace(part, path)


def _runner(kind: Kind) -> Callable[..., bytes]:
    module, function = kind.runs.split(":")
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


def run(folder: Path, kind: Kind, name: str, game_id: str, args: Sequence[str]) -> Path:
    """Do the work ``name`` into ``folder`` (what the working process does, the store
    being ``$TABLELOG_DB``): progress written as it goes, the result written whole
    (renamed into place), the same game's results of other heads removed, the folder kept
    under :data:`MAX_BYTES`."""
    from recorder import open_store

    progress = folder / f"{name}.progress"
    with open_store(None) as store:
        data = _runner(kind)(
            store, game_id, list(args), lambda done, total: _write_progress(progress, done, total)
        )
    result = folder / f"{name}{kind.suffix}"
    part = folder / f"{name}{kind.suffix}.part"
    part.write_bytes(data)
    os.replace(part, result)
    progress.unlink(missing_ok=True)
    prune(folder, game_id, _parts(name)[1])
    return result


def _parts(name: str) -> list[str]:
    """A :func:`key`'s parts: game id (which may hold "-"), head, kind, arguments,
    version."""
    return name.rsplit("-", 4)


def prune(folder: Path, game_id: str, head: str) -> None:
    """Remove the results of ``game_id`` at other heads than ``head``, then the oldest
    results while the folder holds more than :data:`MAX_BYTES`."""
    suffixes = {k.suffix for k in KINDS.values()}
    kept = [p for p in folder.iterdir() if p.suffix in suffixes and _is_result(p)]
    kept.sort(key=lambda p: p.stat().st_mtime)
    for path in kept:
        parts = _parts(path.stem)
        if parts[0] == game_id and parts[1] != head:
            path.unlink(missing_ok=True)
    kept = [p for p in kept if p.exists()]
    total = sum(p.stat().st_size for p in kept)
    while kept and total > MAX_BYTES:
        oldest = kept.pop(0)
        total -= oldest.stat().st_size
        oldest.unlink(missing_ok=True)


def _is_result(path: Path) -> bool:
    """Whether ``path`` is a kept result (its name is a :func:`key` of its kind)."""
    parts = _parts(path.stem)
    return len(parts) == 5 and parts[2] in KINDS and path.suffix == KINDS[parts[2]].suffix


def main(argv: list[str]) -> int:
    """``python -m web.background FOLDER KIND NAME GAME ARGS...``: do one piece of work
    (the store is ``$TABLELOG_DB``), at a low priority; on failure, say why in
    ``NAME.failed``."""
    folder, kind_name, name, game_id, *args = argv
    with contextlib.suppress(OSError):
        os.nice(KINDS[kind_name].niceness)
    try:
        run(Path(folder), KINDS[kind_name], name, game_id, args)
    except Exception as exc:
        log.exception("%s failed", name)
        (Path(folder) / f"{name}.failed").write_text(f"{type(exc).__name__}: {exc}", "utf-8")
        (Path(folder) / f"{name}.progress").unlink(missing_ok=True)
        return 1
    return 0


if __name__ == "__main__":
    logging.basicConfig()
    sys.exit(main(sys.argv[1:]))
