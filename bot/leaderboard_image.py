"""A leaderboard page as a picture (pure Pillow: rows in, PNG bytes out), in the current language.

Drawn for Discord's preview (``bot.games.fonts``): 800 px wide, no font under 20 px (1/40 of the
width), and a full page of ten lines is 594 px tall, under 3/4 of the width. A name too long for its
column is cut with an ellipsis (the message under the picture gives it whole).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.fonts import font, smallest_font
from bot.games.text_fit import fit_text
from bot.i18n import _, _n
from bot.i18n.formatting import percent, signed

WIDTH = 800
MIN_FONT = smallest_font(WIDTH)  # 20 px
MARGIN = 24
HEADER = 86  # the title and the subtitle
HEADINGS = 32  # the columns' names
ROW = 46
BOTTOM = 16
MEDALS = {1: (255, 200, 40), 2: (200, 205, 215), 3: (205, 127, 50)}
# Right edges of the number columns: Net, Games, Wins, Win %. Each leaves room for its heading in
# Portuguese ("% vitórias", the longest) at 20 px; the name takes what is left of them.
COLUMNS = (436, 545, 652, WIDTH - MARGIN)
NAME_X = 78
NET_W = 120  # the widest net result drawn ("+$12,345" at 22 px bold is 119 px)

BACKGROUND = (24, 28, 38)
STRIPE = (32, 37, 50)
DIM = (170, 178, 195)
TEXT = (220, 220, 220)


@dataclass(frozen=True)
class BoardLine:
    rank: int
    name: str
    net: int
    games: int
    wins: int
    win_rate: float


def render_leaderboard(title: str, subtitle: str, lines: list[BoardLine]) -> bytes:
    height = HEADER + HEADINGS + ROW * max(1, len(lines)) + BOTTOM
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * MARGIN
    draw.text((MARGIN, 14), fit_text(title, font(30, True), room), font=font(30, True), fill=(250, 250, 250))
    draw.text((MARGIN, 54), fit_text(subtitle, font(MIN_FONT), room), font=font(MIN_FONT), fill=DIM)
    headings = (_("Net"), _("Games"), _("Wins"), _("Win %"))
    left = NAME_X + 8
    for label, right in zip(headings, COLUMNS, strict=True):
        # A heading is cut only if a translation outgrows its column (never into the one before).
        words = fit_text(label, font(MIN_FONT, True), right - left)
        draw.text((right, HEADER + 4), words, font=font(MIN_FONT, True), fill=DIM, anchor="ra")
        left = right + 10
    top = HEADER + HEADINGS
    if not lines:
        draw.text(
            (MARGIN, top + 10), _("No finished games yet."), font=font(MIN_FONT + 2), fill=(200, 200, 200)
        )
    value, bold = font(MIN_FONT + 2), font(MIN_FONT + 2, True)
    for i, line in enumerate(lines):
        y = top + i * ROW
        if i % 2 == 0:
            draw.rectangle((12, y, WIDTH - 12, y + ROW - 4), fill=STRIPE)
        middle = y + (ROW - 4) / 2
        medal = MEDALS.get(line.rank)
        rank, rank_font = str(line.rank), font(MIN_FONT, True)
        if medal:
            centre = NAME_X - 34
            draw.ellipse((centre - 18, middle - 18, centre + 18, middle + 18), fill=medal)
            draw.text((centre, middle), rank, font=rank_font, fill=(20, 20, 20), anchor="mm")
        else:
            # Right-aligned before the name, so rank 1000 keeps clear of it.
            rank = fit_text(rank, rank_font, NAME_X - 10 - 12)
            draw.text((NAME_X - 10, middle), rank, font=rank_font, fill=TEXT, anchor="rm")
        name_room = COLUMNS[0] - NET_W - 12 - NAME_X
        draw.text(
            (NAME_X, middle),
            fit_text(line.name, bold, name_room),
            font=bold,
            fill=(240, 240, 240),
            anchor="lm",
        )
        colour = (110, 220, 130) if line.net > 0 else (235, 110, 110) if line.net < 0 else TEXT
        figures = (
            (money(line.net), bold, colour),
            (str(line.games), value, TEXT),
            (str(line.wins), value, TEXT),
            (percent(line.win_rate), value, TEXT),
        )
        for (words, face, fill), right in zip(figures, COLUMNS, strict=True):
            draw.text((right, middle), words, font=face, fill=fill, anchor="rm")
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
