"""The fonts every picture draws with, and the rules that keep a picture readable where Discord shows it.

Discord previews a picture about 400 px wide on a desktop and 350 px on a phone, whatever its real width.
A font is readable there only if its size is a large enough share of the picture's width: every font a
picture uses is at least ``1/40`` of the width of the picture sent (a 1200 px picture: 30 px; an 800 px
one: 20 px), counted after any supersampling (a canvas drawn at twice the size and halved counts half its
font size). A picture is at most ``0.75`` of its width tall, so that its preview is not cut.
``tests/readability.py`` checks both for every picture the bot sends.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import ImageFont

from bot.paths import FONT_BOLD, FONT_REGULAR

# A font's size may not be smaller than the output width divided by this.
WIDTH_PER_FONT_PX = 40
# A picture's height may not be more than its width times this.
MAX_HEIGHT_RATIO = 0.75


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A shipped DejaVu font at ``size`` px; cached because loading a TTF costs more than drawing text."""
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), size)


def smallest_font(width: int) -> int:
    """The smallest font size (px) a picture ``width`` px wide may use."""
    return math.ceil(width / WIDTH_PER_FONT_PX)
