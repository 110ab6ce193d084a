"""Each horse's look in one place: the numbered disc the board draws, as an emoji image for text.

The Discord layer uploads ``emoji_png(horse)`` as an application emoji named ``emoji_name(horse)``
so the roll log shows the same disc as the board, and falls back to ``unicode(horse)`` (a keycap
where Unicode has one, else the number in bold) where that fails.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.games.horserace.board import HORSES
from bot.games.horserace.render import HORSE_COLOURS, INK, _font, _ink_on

_KEYCAPS = {n: f"{n}\ufe0f\u20e3" for n in range(2, 10)} | {10: "🔟"}


def emoji_name(horse: int) -> str:
    return f"hr_horse_{horse}"


def unicode(horse: int) -> str:
    return _KEYCAPS.get(horse, f"**{horse}**")


def emoji_png(horse: int, size: int = 128) -> bytes:
    """The board's token for ``horse`` (its colour, its number) as a square transparent PNG."""
    if horse not in HORSES:
        raise ValueError(f"horses are {HORSES[0]} to {HORSES[-1]}, not {horse!r}")
    big = size * 4
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = HORSE_COLOURS[horse]
    pad = big // 32
    draw.ellipse((pad, pad, big - pad, big - pad), fill=colour, outline=INK, width=big // 24)
    draw.text(
        (big / 2, big / 2), str(horse), font=_font(int(big * 0.5), True), fill=_ink_on(colour), anchor="mm"
    )
    out = io.BytesIO()
    image.reduce(4).save(out, format="PNG")
    return out.getvalue()
