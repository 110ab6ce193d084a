"""A leaderboard page as a picture (pure Pillow: rows in, PNG bytes out)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.paths import FONT_BOLD, FONT_REGULAR
from bot.words import count

WIDTH = 760
ROW = 46
HEADER = 92
MEDALS = {1: (255, 200, 40), 2: (200, 205, 215), 3: (205, 127, 50)}


@dataclass(frozen=True)
class BoardLine:
    rank: int
    name: str
    net: int
    games: int
    wins: int
    win_rate: float


@lru_cache(maxsize=8)
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), size)


def render_leaderboard(title: str, subtitle: str, lines: list[BoardLine]) -> bytes:
    height = HEADER + ROW * max(1, len(lines)) + 24
    image = Image.new("RGB", (WIDTH, height), (24, 28, 38))
    draw = ImageDraw.Draw(image)
    draw.text((24, 18), title, font=_font(True, 30), fill=(250, 250, 250))
    draw.text((24, 56), subtitle, font=_font(False, 18), fill=(170, 178, 195))
    for label, x in (("Net", 470), ("Games", 560), ("Wins", 640), ("Win %", 736)):
        draw.text((x, 64), label, font=_font(True, 15), fill=(170, 178, 195), anchor="ra")
    if not lines:
        draw.text((24, HEADER + 10), "No finished games yet.", font=_font(False, 20), fill=(200, 200, 200))
    for i, line in enumerate(lines):
        top = HEADER + i * ROW
        if i % 2 == 0:
            draw.rectangle((12, top, WIDTH - 12, top + ROW - 4), fill=(32, 37, 50))
        medal = MEDALS.get(line.rank)
        if medal:
            draw.ellipse((22, top + 7, 52, top + 37), fill=medal)
        draw.text(
            (37, top + 22),
            str(line.rank),
            font=_font(True, 16),
            fill=(20, 20, 20) if medal else (220, 220, 220),
            anchor="mm",
        )
        draw.text((66, top + 10), line.name[:28], font=_font(True, 20), fill=(240, 240, 240))
        colour = (110, 220, 130) if line.net > 0 else (235, 110, 110) if line.net < 0 else (220, 220, 220)
        draw.text((470, top + 10), money(line.net), font=_font(True, 20), fill=colour, anchor="ra")
        draw.text((560, top + 10), str(line.games), font=_font(False, 20), fill=(220, 220, 220), anchor="ra")
        draw.text((640, top + 10), str(line.wins), font=_font(False, 20), fill=(220, 220, 220), anchor="ra")
        draw.text(
            (736, top + 10),
            f"{line.win_rate * 100:.0f}%",
            font=_font(False, 20),
            fill=(220, 220, 220),
            anchor="ra",
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def money(amount: int) -> str:
    sign = "+" if amount > 0 else "-" if amount < 0 else ""
    return f"{sign}${abs(amount)}"


def alt_text(title: str, lines: list[BoardLine]) -> str:
    if not lines:
        return f"{title}: no finished games yet."
    body = "; ".join(
        f"{line.rank}. {line.name}, {money(line.net)}, {count(line.wins, 'win')} in {count(line.games, 'game')}"
        for line in lines
    )
    return f"{title}: {body}"[:1000]
