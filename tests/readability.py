"""Checks that a picture is readable at the size Discord shows it (the rules are in ``bot/games/fonts.py``).

Use ``with fonts_drawn() as drawn:`` around the code that makes a picture, then
``assert_readable(png_bytes, drawn, supersample=...)``: every text drawn (``ImageDraw.text``,
``multiline_text``) is recorded with its font size, and each must be at least ``1/40`` of the picture's
width once divided by the renderer's supersampling factor.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.fonts import MAX_HEIGHT_RATIO, smallest_font


@dataclass(frozen=True)
class Drawn:
    """One piece of text drawn: its words and the font size given to the font."""

    text: str
    size: float


@contextmanager
def fonts_drawn() -> Iterator[list[Drawn]]:
    """Records every text drawn with Pillow inside the block (in this process)."""
    drawn: list[Drawn] = []
    text = ImageDraw.ImageDraw.text
    multiline = ImageDraw.ImageDraw.multiline_text

    def record(args: tuple, kwargs: dict) -> None:
        # ImageDraw.text(self, xy, text, fill=None, font=None, ...)
        words = kwargs.get("text", args[2] if len(args) > 2 else "")
        font = kwargs.get("font", args[4] if len(args) > 4 else None)
        size = getattr(font, "size", None)
        if size is None:
            raise AssertionError(f"text {words!r} drawn without a sized font (Pillow's default bitmap font)")
        if str(words).strip():
            drawn.append(Drawn(str(words), float(size)))

    def patched_text(*args, **kwargs):  # type: ignore[no-untyped-def]
        record(args, kwargs)
        return text(*args, **kwargs)

    def patched_multiline(*args, **kwargs):  # type: ignore[no-untyped-def]
        record(args, kwargs)
        return multiline(*args, **kwargs)

    ImageDraw.ImageDraw.text = patched_text  # type: ignore[method-assign]
    ImageDraw.ImageDraw.multiline_text = patched_multiline  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
        ImageDraw.ImageDraw.multiline_text = multiline  # type: ignore[method-assign]


def assert_readable(picture: bytes, drawn: list[Drawn], *, supersample: float = 1.0) -> None:
    """Fails naming every text too small for ``picture``'s width, or a picture too tall for its width."""
    with Image.open(io.BytesIO(picture)) as image:
        width, height = image.size
    assert height <= MAX_HEIGHT_RATIO * width, (
        f"{width}x{height} is taller than {MAX_HEIGHT_RATIO} of its width"
    )
    smallest = smallest_font(width)
    small = sorted({(d.size / supersample, d.text) for d in drawn if d.size / supersample < smallest})
    assert not small, f"fonts under {smallest} px on a {width} px picture: " + ", ".join(
        f"{text!r} at {size:g} px" for size, text in small[:12]
    )
