"""Animations drawn in the background and kept on disk, for ``/games/<id>.gif``.

Drawing a game's GIF takes seconds (:func:`web.animation.draw_gif`); a request's worker
must keep answering meanwhile.  So a request never draws: it asks :func:`ask`, which
answers at once with the file when it was drawn, or starts the drawing in a process of its
own and says how far it got.  The drawing process (``python -m web.drawings``) runs at a
low priority (``os.nice``), opens the store itself, folds the game, draws and writes the
GIF into the folder of drawings, then ends.

What was drawn is kept by the game's chain head and the range (:func:`key`): a game that
grows has a new head, and its animations are drawn anew (the heading of each frame says
"step N of LAST"); those of its older heads are removed when a new one is written.

One drawing at a time per key, across every worker process of the server: the process
that draws holds an exclusive ``flock`` on the key's lock file (the request that started
it took the lock and handed its descriptor over, so there is no moment when no one holds
it; the kernel lets go of it when the process ends, however it ends).  A request that
finds the lock held reads the drawing's progress from its progress file.  At most
``slots`` drawings run at once (each holds one of the slot lock files the same way); when
every slot is taken a request is told to come back later (the drawing waits for it).
``flock`` is POSIX: the site serves animations where gunicorn runs (not on Windows).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from .animation import WIDTH, StepRange

log = logging.getLogger("tablelog.web")

#: Bumped when the drawing changes, so that drawings kept by an older version are not served.
FORMAT = 1
#: How nice the drawing process is (added to its priority: the server's workers first).
NICENESS = 10
#: How long a failed drawing is answered as failed before it is tried again, in seconds.
FAILED_FOR = 60
#: The most bytes of drawings kept in the folder (the oldest leave first).
MAX_BYTES = 512 * 1024 * 1024


class Drawing(NamedTuple):
    """Where an animation stands: ``state`` is ``ready`` (``path`` is the GIF),
    ``drawing`` (``done`` of ``total`` frames drawn), ``waiting`` (every slot is drawing
    another one: asked again, it starts when one is free) or ``failed`` (``message`` says
    why)."""

    state: str
    path: Path | None = None
    done: int = 0
    total: int = 0
    message: str = ""


def key(game_id: str, head: str, steps: StepRange) -> str:
    """The name the animation of ``steps`` of a game at chain ``head`` is kept under.

    >>> key("6138631be858", "ab" * 32, StepRange(1, 11))
    '6138631be858-abababababababababababab-1-11-w640-v1'
    """
    return f"{game_id}-{head[:24]}-{steps.first}-{steps.last}-w{WIDTH}-v{FORMAT}"


def ask(folder: Path, place: str, game_id: str, head: str, steps: StepRange, slots: int) -> Drawing:
    """The animation of ``steps`` of game ``game_id`` (at chain ``head``, in the store
    ``place``): ready, or being drawn (started now in the background if no one draws it
    yet), or waiting for a free slot, or failed."""
    name = key(game_id, head, steps)
    gif = folder / f"{name}.gif"
    if gif.is_file():
        return Drawing("ready", gif)
    folder.mkdir(parents=True, exist_ok=True)
    lock = _try_lock(folder / f"{name}.lock")
    if lock is None:  # someone draws it
        return _progress(folder / f"{name}.json", steps)
    try:
        if gif.is_file():  # drawn just now
            return Drawing("ready", gif)
        failed = folder / f"{name}.failed"
        with contextlib.suppress(OSError):
            if time.time() - failed.stat().st_mtime < FAILED_FOR:
                return Drawing("failed", message=failed.read_text("utf-8", "replace"))
            failed.unlink()
        slot = _free_slot(folder, slots)
        if slot is None:
            return Drawing("waiting", total=steps.frames)
        try:
            _write_progress(folder / f"{name}.json", 0, steps.frames)
            _start(folder, place, name, game_id, steps, (lock.fileno(), slot.fileno()))
        finally:
            slot.close()
        return Drawing("drawing", total=steps.frames)
    finally:
        lock.close()  # the drawing process holds it now (the same open file)


def _try_lock(path: Path) -> Any:
    """``path`` opened and locked (exclusive ``flock``), or None when another holds it."""
    import fcntl  # POSIX only (see the module's text)

    handle = open(path, "a+b")  # noqa: SIM115  # handed over to the drawing process
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


#: The drawing processes started by this process, reaped as new ones start.
_children: list[subprocess.Popen[bytes]] = []


def _start(
    folder: Path, place: str, name: str, game_id: str, steps: StepRange, fds: tuple[int, ...]
) -> None:
    """Start the drawing process, handing it the locks' descriptors ``fds``."""
    _children[:] = [p for p in _children if p.poll() is None]
    env = {**os.environ, "TABLELOG_DB": place}  # not on the command line: a URL's password
    argv = [sys.executable, "-m", "web.drawings", str(folder), name, game_id]
    argv += [str(steps.first), str(steps.last)]
    # its errors go where the server's go (its standard error)
    _children.append(
        subprocess.Popen(
            argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=fds
        )
    )


def _progress(path: Path, steps: StepRange) -> Drawing:
    """What the drawing process last wrote of its progress."""
    try:
        data = json.loads(path.read_text("utf-8"))
        return Drawing("drawing", done=int(data["done"]), total=int(data["total"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Drawing("drawing", total=steps.frames)


def _write_progress(path: Path, done: int, total: int) -> None:
    part = path.with_suffix(".json.part")
    part.write_text(json.dumps({"done": done, "total": total}), "utf-8")
    os.replace(part, path)


def draw(folder: Path, name: str, game_id: str, steps: StepRange, place: str | None) -> Path:
    """Draw the animation ``name`` into ``folder`` (what the drawing process does):
    progress written as it goes, the GIF written whole (renamed into place), the same
    game's drawings of other heads removed, the folder kept under :data:`MAX_BYTES`."""
    from recorder import open_store

    from .animation import game_gif

    progress = folder / f"{name}.json"
    with open_store(place) as store:
        _, data = game_gif(
            store,
            game_id,
            steps.first,
            steps.last,
            lambda done, total: _write_progress(progress, done, total),
        )
    gif = folder / f"{name}.gif"
    part = folder / f"{name}.gif.part"
    part.write_bytes(data)
    os.replace(part, gif)
    progress.unlink(missing_ok=True)
    prune(folder, game_id, _parts(name)[1])
    return gif


def _parts(name: str) -> list[str]:
    """A :func:`key`'s parts: game id (which may hold "-"), head, first, last, width,
    version."""
    return name.rsplit("-", 5)


def prune(folder: Path, game_id: str, head: str) -> None:
    """Remove the drawings of ``game_id`` at other heads than ``head``, then the oldest
    drawings while the folder holds more than :data:`MAX_BYTES`."""
    gifs = sorted(folder.glob("*.gif"), key=lambda p: p.stat().st_mtime)
    for gif in gifs:
        parts = _parts(gif.stem)
        if parts[0] == game_id and parts[1] != head:
            gif.unlink(missing_ok=True)
    gifs = [g for g in gifs if g.exists()]
    total = sum(g.stat().st_size for g in gifs)
    while gifs and total > MAX_BYTES:
        oldest = gifs.pop(0)
        total -= oldest.stat().st_size
        oldest.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    """``python -m web.drawings FOLDER NAME GAME FIRST LAST``: draw one animation (the
    store is ``$TABLELOG_DB``), at a low priority; on failure, say why in ``NAME.failed``."""
    folder, name, game_id, first, last = argv
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    try:
        draw(Path(folder), name, game_id, StepRange(int(first), int(last)), None)
    except Exception as exc:
        log.exception("drawing %s failed", name)
        (Path(folder) / f"{name}.failed").write_text(f"{type(exc).__name__}: {exc}", "utf-8")
        (Path(folder) / f"{name}.json").unlink(missing_ok=True)
        return 1
    return 0


if __name__ == "__main__":
    logging.basicConfig()
    sys.exit(main(sys.argv[1:]))
