"""An animated GIF of a game's steps: the one drawing function, for the site's
``/games/<id>.gif`` (drawn in the background: :mod:`web.background`) and ``tablelog show
--gif FILE``.

Each frame is a step's picture (:meth:`web.timeline.Timeline.picture`, the same SVG as
the step's PNG), drawn :data:`WIDTH` pixels wide, over a caption in type a phone reads:
the step's heading and what it did, as the replay page words it
(:func:`engine.picture.caption`).  resvg rasterises on two threads (it lets go of the
interpreter's lock); every frame is then mapped to one palette, made from the first and
last frames, without dithering, so that what did not change between two frames keeps the
same colour index and Pillow's encoder stores each frame as its difference from the last
(the rectangle that changed, what stayed the same in it transparent).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

from engine.picture import caption, stacked

from .images import svg_to_png
from .timeline import Timeline, TimelineCache

#: A frame's width in pixels: a phone shows it whole, and the caption still reads.
WIDTH = 640
#: The caption's type size, in pixels.
CAPTION_SIZE = 19
#: The most steps one animation shows (a long game is shown by ranges).
MAX_FRAMES = 250
#: How long a frame shows, and the last one (the loop pauses there), in milliseconds.
FRAME_MS = 1600
LAST_MS = 4000
#: Threads that rasterise frames.
THREADS = 2


class StepRange(NamedTuple):
    """The steps an animation shows, ``first`` to ``last`` included."""

    first: int
    last: int

    @property
    def frames(self) -> int:
        return self.last - self.first + 1


class RangeError(ValueError):
    """A range of steps an animation cannot show: ``parameter`` names the one at fault."""

    def __init__(self, parameter: str, message: str):
        super().__init__(message)
        self.parameter = parameter


def step_range(first: int | None, last: int | None, steps: int) -> StepRange:
    """The range from ``first`` to ``last`` of a game of ``steps`` steps, checked: by
    default from the set-up (step 1; step 0 for a game without one) to the last step, or
    as far as :data:`MAX_FRAMES` steps go.

    >>> step_range(None, None, 128), step_range(1, 11, 128).frames
    (StepRange(first=1, last=128), 11)
    >>> step_range(None, None, 400), step_range(300, None, 400)
    (StepRange(first=1, last=250), StepRange(first=300, last=400))
    >>> step_range(5, 3, 128)
    Traceback (most recent call last):
    ...
    web.animation.RangeError: 'to' (3) comes before 'from' (5)
    """
    first = min(1, steps) if first is None else first
    last = min(steps, max(first, 0) + MAX_FRAMES - 1) if last is None else last
    for name, value in (("from", first), ("to", last)):
        if value < 0 or value > steps:
            raise RangeError(name, f"{name!r}: the game has steps 0 to {steps}, not {value}")
    if last < first:
        raise RangeError("to", f"'to' ({last}) comes before 'from' ({first})")
    if last - first + 1 > MAX_FRAMES:
        raise RangeError(
            "to",
            f"'to': an animation shows at most {MAX_FRAMES} steps, and {first} to {last} "
            f"is {last - first + 1}; ask for a shorter range with 'from' and 'to'",
        )
    return StepRange(first, last)


def game_gif(
    store: Any,
    game_id: str,
    first: int | None = None,
    last: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[StepRange, bytes]:
    """The animated GIF of steps ``first`` to ``last`` of the stored game ``game_id``
    (:func:`step_range`'s defaults; a record altered behind the store's back has the
    steps before the change), and the range it shows: what ``tablelog show --gif`` and
    the site's drawing process call.  GameNotFound from the store, :class:`RangeError`."""
    tl = TimelineCache(0).for_row(store, store.game(game_id))
    steps = step_range(first, last, tl.last_step)
    return steps, draw_gif(tl, steps, progress)


def background_gif(
    store: Any, game_id: str, args: list[str], progress: Callable[[int, int], None]
) -> bytes:
    """The animation :func:`animation_args` asked for, drawn by the site's background
    process (:data:`web.background.ANIMATION`)."""
    first, last, _width = args
    return game_gif(store, game_id, int(first), int(last), progress)[1]


def animation_args(steps: StepRange) -> list[str]:
    """What the background work of an animation of ``steps`` is known by (its width
    too: frames drawn wider are another animation)."""
    return [str(steps.first), str(steps.last), f"w{WIDTH}"]


def frame_svgs(tl: Timeline, steps: StepRange) -> Iterator[str]:
    """Each step's frame as SVG text: its picture over its caption, :data:`WIDTH` wide."""
    for n in range(steps.first, steps.last + 1):
        before, state = tl.states_around(n)
        words = tl.step_lines(n, before, state) if n > 0 and before is not None else []
        heading = tl.heading(n)
        yield stacked(
            [
                tl.rules.picture(state, before, heading),
                caption(WIDTH, heading, words, size=CAPTION_SIZE),
            ],
            WIDTH,
        )


def _frame(svg: str) -> Any:
    """One frame in RGB."""
    from PIL import Image

    return Image.open(io.BytesIO(svg_to_png(svg))).convert("RGB")


def _palette(frames: list[Any]) -> Any:
    """One palette for every frame: the colours of ``frames`` side by side, cut to 256."""
    from PIL import Image

    strip = Image.new("RGB", (sum(f.width for f in frames), frames[0].height))
    x = 0
    for f in frames:
        strip.paste(f, (x, 0))
        x += f.width
    return strip.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def draw_gif(
    tl: Timeline, steps: StepRange, progress: Callable[[int, int], None] | None = None
) -> bytes:
    """The animated GIF of ``steps`` of the folded game ``tl``: one frame a step,
    looping; ``progress(done, total)`` is called as frames are drawn."""
    from PIL import Image

    total = steps.frames
    report = progress or (lambda done, total: None)
    report(0, total)
    svgs = frame_svgs(tl, steps)
    with ThreadPoolExecutor(THREADS) as pool:
        first = _frame(next(svgs))
        ends = [first]
        if total > 1:
            # the last frame's colours too (the table full, the result shown)
            ends.append(_frame(next(frame_svgs(tl, StepRange(steps.last, steps.last)))))
        palette = _palette(ends)

        def mapped(frame: Any) -> Any:
            return frame.quantize(palette=palette, dither=Image.Dither.NONE)

        frames = [mapped(first)]
        report(1, total)
        for frame in pool.map(lambda s: mapped(_frame(s)), svgs):
            frames.append(frame)
            report(len(frames), total)
    out = io.BytesIO()
    durations = [FRAME_MS] * (total - 1) + [LAST_MS]
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()
