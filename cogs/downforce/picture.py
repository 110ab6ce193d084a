"""The track picture with the spaces a car may end on marked A, B, C..., for a choice of end space.

The engine's renderer draws the race; this only letters the options on a copy, so the buttons
("A · row 12, lane 1") point at places a player can see. Plain Pillow: call it in a thread.
"""

from __future__ import annotations

import io
import string
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games.downforce.render import render_track
from bot.paths import FONT_BOLD

LETTERS = string.ascii_uppercase
RADIUS = 19


@lru_cache(maxsize=1)
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_BOLD), 24)


def marked_spaces(options: list[str], spaces: set[str]) -> dict[str, str]:
    """option -> its letter, for the options that are spaces on the track (not the finish)."""
    on_track = [o for o in options if o in spaces]
    return dict(zip(on_track, LETTERS, strict=False))


def render_choice(view: dict[str, Any], options: list[str]) -> bytes:
    """``render_track(view)`` with each space option lettered in a white disc."""
    image = Image.open(io.BytesIO(render_track(view))).convert("RGB")
    draw = ImageDraw.Draw(image)
    spaces = {s["id"]: s for s in view["track"]["spaces"]}
    for option, letter in marked_spaces(options, set(spaces)).items():
        x, y = spaces[option]["x"], spaces[option]["y"]
        draw.ellipse(
            (x - RADIUS, y - RADIUS, x + RADIUS, y + RADIUS), fill=(255, 255, 255), outline=(0, 0, 0), width=3
        )
        draw.text((x, y), letter, font=_font(), fill=(0, 0, 0), anchor="mm")
    out = io.BytesIO()
    image.quantize(colors=64, dither=Image.Dither.NONE).save(out, format="PNG", compress_level=3)
    return out.getvalue()
