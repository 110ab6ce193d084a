"""Colours and fonts of the Hot Streak race picture, in one place so the look is tuned here only."""

from __future__ import annotations

from functools import lru_cache

# The shared, cached font loader (``style.font`` in the drawing code).
from bot.games.fonts import font as font

RGB = tuple[int, int, int]

FELT: RGB = (28, 84, 57)
FELT_DARK: RGB = (19, 60, 40)
FELT_PANEL: RGB = (23, 70, 47)
PANEL_EDGE: RGB = (52, 120, 86)
GOLD: RGB = (246, 201, 72)
TEXT: RGB = (236, 244, 238)
TEXT_DIM: RGB = (150, 186, 165)

# A dark cinder track: every mascot colour (lightened where needed, see ``legible``) stands out on it at a
# WCAG contrast of at least 3:1, which the old brick red could not give a brown or a red mascot.
TRACK_EDGE: RGB = (24, 24, 30)
TRACK_A: RGB = (52, 52, 62)
TRACK_B: RGB = (46, 46, 56)
CELL_LINE: RGB = (72, 72, 84)
LANE_LINE: RGB = (214, 214, 224)
STAR_CELL: RGB = (64, 58, 52)
STAR_FILL: RGB = (255, 214, 74)
STAR_EDGE: RGB = (130, 80, 10)
WHITE_LINE: RGB = (252, 252, 252)
RUNOFF: RGB = (38, 38, 46)
FOLDED: RGB = (98, 98, 98)
FOLDED_HATCH: RGB = (84, 84, 84)
BAR: RGB = (255, 210, 50)
BAR_EDGE: RGB = (110, 80, 0)

OUTLINE: RGB = (24, 24, 24)
FALLEN_RING: RGB = (255, 255, 255)
ARROW_FORWARD: RGB = (255, 255, 255)
ARROW_BACK: RGB = (255, 170, 30)
DQ_RED: RGB = (222, 58, 58)
ALL_GREEN: RGB = (46, 158, 79)
CARD_FACE: RGB = (251, 246, 234)
CARD_INK: RGB = (40, 40, 40)
CARD_BACK: RGB = (120, 30, 40)
UNKNOWN_COLOUR: RGB = (128, 128, 128)

# Podium step colours, 1st to 4th: gold, silver, bronze, plain.
STEP_COLOURS: tuple[RGB, ...] = ((214, 172, 58), (176, 184, 192), (190, 122, 70), (110, 130, 118))


def hex_rgb(colour: object) -> RGB:
    """``"#rrggbb"`` as a tuple; anything unreadable becomes grey rather than failing the whole frame."""
    if isinstance(colour, str):
        text = colour.strip().lstrip("#")
        if len(text) == 3:
            text = "".join(ch * 2 for ch in text)
        if len(text) == 6:
            try:
                return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
            except ValueError:
                pass
    return UNKNOWN_COLOUR


TRACK_COLOURS: tuple[RGB, ...] = (TRACK_A, TRACK_B, STAR_CELL)
"""Every colour a token can stand on."""
MIN_CONTRAST = 3.0


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=64)
def legible(rgb: RGB, against: tuple[RGB, ...] = TRACK_COLOURS) -> RGB:
    """``rgb``, lightened just enough to contrast at least 3:1 with every colour in ``against``.

    The content's colours are kept where they already read; a dark brown becomes a lighter brown, so
    the mascot keeps its hue in the picture and in its emoji (``bot.games.hotstreak.symbols``).
    """
    for step in range(21):
        candidate = shade(rgb, 1 + step / 20) if step else rgb
        if all(contrast(candidate, bg) >= MIN_CONTRAST for bg in against):
            return candidate
    return (255, 255, 255)


def ink_on(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on ``rgb`` (perceived luminance)."""
    r, g, b = rgb
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def shade(rgb: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or lighter towards white (factor > 1)."""
    if factor <= 1:
        return (int(rgb[0] * factor), int(rgb[1] * factor), int(rgb[2] * factor))
    t = min(factor - 1, 1.0)
    return (
        int(rgb[0] + (255 - rgb[0]) * t),
        int(rgb[1] + (255 - rgb[1]) * t),
        int(rgb[2] + (255 - rgb[2]) * t),
    )
