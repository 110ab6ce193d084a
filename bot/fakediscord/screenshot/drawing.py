"""Drawing primitives every part uses: the shipped fonts, smooth rounded boxes, stacking blocks."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from bot.fakediscord.screenshot.theme import RGB
from bot.paths import FONT_BOLD, FONT_REGULAR


@functools.cache
def load_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    path = FONT_BOLD if bold else FONT_REGULAR
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def has_glyph(char: str, bold: bool = False) -> bool:
    """Whether DejaVu draws ``char`` itself, rather than its .notdef box (the "tofu")."""
    font = load_font(16, bold)
    if font.getlength(char) == 0:
        return False  # variation selectors, joiners: nothing to draw
    tofu = font.getmask("\U0010fffd")
    mask = font.getmask(char)
    return not (mask.size == tofu.size and bytes(mask) == bytes(tofu))


def rounded(image: Image.Image, box: tuple[float, float, float, float], radius: int, fill: RGB) -> None:
    """A rounded rectangle with smooth edges (drawn 4x larger, then scaled down as a mask)."""
    left, top, right, bottom = (round(v) for v in box)
    width, height = right - left, bottom - top
    if width <= 0 or height <= 0:
        return
    scale = 4
    mask = Image.new("L", (width * scale, height * scale), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, width * scale - 1, height * scale - 1), radius=radius * scale, fill=255
    )
    image.paste(fill, (left, top, right, bottom), mask.resize((width, height), Image.Resampling.LANCZOS))


def stack(parts: Sequence[Image.Image], width: int, background: RGB, gap: int) -> Image.Image:
    height = sum(p.height for p in parts) + gap * max(len(parts) - 1, 0)
    image = Image.new("RGB", (width, max(height, 1)), background)
    y = 0
    for part in parts:
        image.paste(part, (0, y))
        y += part.height + gap
    return image
