"""A leaderboard page as a picture (pure Pillow: rows in, PNG bytes out), in the current language."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import _, _n
from bot.i18n.formatting import percent, signed
from bot.paths import FONT_BOLD, FONT_REGULAR

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
    headings = ((_("Net"), 470), (_("Games"), 560), (_("Wins"), 640), (_("Win %"), 736))
    for label, x in headings:
        draw.text((x, 64), label, font=_font(True, 15), fill=(170, 178, 195), anchor="ra")
    if not lines:
        draw.text((24, HEADER + 10), _("No finished games yet."), font=_font(False, 20), fill=(200, 200, 200))
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
            percent(line.win_rate),
            font=_font(False, 20),
            fill=(220, 220, 220),
            anchor="ra",
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def money(amount: int) -> str:
    """A net result with its sign (``+$5``), the reader's way."""
    return signed(amount)


def alt_text(title: str, lines: list[BoardLine]) -> str:
    if not lines:
        return _("{title}: no finished games yet.", title=title)
    body = "; ".join(
        f"{line.rank}. {line.name}, {money(line.net)}, "
        + _n(
            "{n} win in {games}",
            "{n} wins in {games}",
            line.wins,
            games=_n("{n} game", "{n} games", line.games),
        )
        for line in lines
    )
    return f"{title}: {body}"[:1000]
