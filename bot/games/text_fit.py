"""Fitting words into a picture, and drawing them, shared by every game's renderer."""

import math
from functools import lru_cache
from typing import Any

from PIL import ImageDraw, ImageFont

_PILLOW_TEXT = ImageDraw.ImageDraw.text
STAMPS = 8192
"""Rendered words kept per process (``draw_text``; ``fit_text`` keeps as many fits). A Hot Streak race
draws about ten words of its own (its players' names and figures) besides those every race shares, and a
word is 1.3 kB on average: 8,192 hold 500 live races' words in 10 MB (at 2,048, 200 races interleaved
already pushed each other's words out before their next card)."""


def wrap_text(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` pixels (a word longer than that keeps its line)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and font.getlength(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


@lru_cache(maxsize=STAMPS)
def fit_text(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels. (Cached: a race's frames measure the
    same names against the same room on every card.)"""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    font: ImageFont.FreeTypeFont,
    fill: Any,
    anchor: str | None = None,
    **options: Any,
) -> None:
    """``draw.text(xy, text, font=font, fill=fill, anchor=anchor)``, the same pixels, from words rendered
    once per process (``_stamp``).

    Why: a race picture writes its 20-odd words anew on every card, and FreeType rendering them was
    a tenth of the picture worker's time at 200 games (py-spy); a frame's words hardly change from one card
    to the next. Anything else than one line in an antialiased font on an RGB or RGBA picture, or with any other
    option (a stroke), is drawn by Pillow as before."""
    if (
        options
        or "\n" in text
        or not isinstance(font, ImageFont.FreeTypeFont)
        or getattr(draw, "fontmode", None) != "L"
        or getattr(draw, "mode", None) not in ("RGB", "RGBA")
        or type(draw).text is not _PILLOW_TEXT  # watched (the readability tests): every word through it
    ):
        draw.text(xy, text, font=font, fill=fill, anchor=anchor, **options)
        return
    x, y = xy
    # As Pillow's ImageDraw.text places one line: the whole pixel, and the fraction FreeType starts at.
    mask, offset = _stamp(font, text, anchor or "la", (math.modf(x)[0], math.modf(y)[0]))
    ink, fill_ink = draw._getink(fill)
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, fill_ink if ink is None else ink)


@lru_cache(maxsize=STAMPS)
def _stamp(
    font: ImageFont.FreeTypeFont, text: str, anchor: str, start: tuple[float, float]
) -> tuple[Any, Any]:
    return font.getmask2(text, "L", anchor=anchor, start=start)
