"""SVG pictures to PNG: the one place that rasterises.

resvg (through the ``resvg-py`` wheel, which carries the renderer: nothing to build and
no system library) draws the SVG that a game's picture module wrote
(:meth:`engine.protocol.GameRules.picture`), with the machine's fonts: the pictures ask
for DejaVu Sans first (Debian's ``fonts-dejavu-core``, which Chromium's packages bring
too).  Both the site's ``.png`` answers and ``tablelog show --image FILE.png`` call
:func:`svg_to_png`.

>>> png = svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>')
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png_size(png)
(True, (4, 3))
"""

from __future__ import annotations

import struct

#: What a PNG file starts with.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PictureError(ValueError):
    """An SVG the renderer refused (it says why)."""


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """The PNG of ``svg`` at its own size (``width`` and ``height`` of its root), or
    scaled to ``width`` pixels wide, on an opaque background; :class:`PictureError` when
    the renderer refuses it."""
    import resvg_py

    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", width=width))
    except ValueError as err:
        raise PictureError(f"the picture could not be drawn as PNG: {err}") from None


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height a PNG's header states; ValueError when ``data`` is not a PNG."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)
