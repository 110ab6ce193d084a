"""A season's recap as a picture (pure Pillow: words in, PNG bytes out), in the leaderboards' house style.

The words come written already (names, money in each game's own currency, in the server's language):
the picture only lays them out. Per game played in the season: its top three with medals and their
season's winnings, then its biggest single win and the person who lost the most; above them the
season and its champion; under them the most dramatic race (its replay is the message's other file).

Drawn for Discord's preview (``bot.games.fonts``): 800 px wide, no font under 20 px (1/40 of the width),
and with three games 590 px tall, under 3/4 of the width. Names too long are cut with an ellipsis
(the message under the picture gives them whole).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.games.fonts import font, smallest_font
from bot.games.text_fit import fit_text
from bot.leaderboard_image import BACKGROUND, DIM, GAIN, LOSS, MARGIN, MEDALS, STRIPE, TEXT, WIDTH

MIN_FONT = smallest_font(WIDTH)  # 20 px
HEADER = 80
GAME_HEADING = 32
ROW = 30
NOTES = 28
GAP = 6
FOOTER = 34
GOLD = (255, 200, 40)


@dataclass(frozen=True)
class Placing:
    name: str
    money: str  # the season's winnings at this game, written in its money ("+$120", "+12M")
    net: int  # its sign colours it


@dataclass(frozen=True)
class RecapBlock:
    title: str
    top: list[Placing]
    best: str = ""  # "Biggest win: Ana +$120"
    worst: str = ""  # "Most lost: Bia -$90"


@dataclass(frozen=True)
class RecapPicture:
    title: str
    subtitle: str
    blocks: list[RecapBlock] = field(default_factory=list)
    footer: str = ""


def height_of(picture: RecapPicture) -> int:
    blocks = sum(GAME_HEADING + ROW * max(1, len(b.top)) + NOTES + GAP for b in picture.blocks)
    return HEADER + blocks + (FOOTER if picture.footer else 0) + 8


def render_recap(picture: RecapPicture) -> bytes:
    image = Image.new("RGB", (WIDTH, height_of(picture)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * MARGIN
    title = font(30, True)
    draw.text((MARGIN, 12), fit_text(picture.title, title, room), font=title, fill=(250, 250, 250))
    draw.text((MARGIN, 50), fit_text(picture.subtitle, font(MIN_FONT), room), font=font(MIN_FONT), fill=GOLD)
    y = HEADER
    value, bold, note = font(MIN_FONT + 2), font(MIN_FONT + 2, True), font(MIN_FONT)
    for block in picture.blocks:
        draw.text(
            (MARGIN, y + 2), fit_text(block.title, font(24, True), room), font=font(24, True), fill=GOLD
        )
        y += GAME_HEADING
        for i, placing in enumerate(block.top):
            if i % 2 == 0:
                draw.rectangle((12, y, WIDTH - 12, y + ROW - 3), fill=STRIPE)
            middle = y + (ROW - 3) / 2
            centre = MARGIN + 16
            draw.ellipse((centre - 13, middle - 13, centre + 13, middle + 13), fill=MEDALS.get(i + 1, TEXT))
            draw.text((centre, middle), str(i + 1), font=font(MIN_FONT, True), fill=(20, 20, 20), anchor="mm")
            money_room = bold.getlength(placing.money) + 12
            name_room = WIDTH - MARGIN - money_room - (centre + 26)
            draw.text(
                (centre + 26, middle),
                fit_text(placing.name, bold, name_room),
                font=bold,
                fill=TEXT,
                anchor="lm",
            )
            colour = GAIN if placing.net > 0 else LOSS if placing.net < 0 else TEXT
            draw.text((WIDTH - MARGIN, middle), placing.money, font=value, fill=colour, anchor="rm")
            y += ROW
        if not block.top:
            y += ROW
        half = (room - 16) / 2
        draw.text((MARGIN, y + 4), fit_text(block.best, note, half), font=note, fill=DIM)
        draw.text((MARGIN + half + 16, y + 4), fit_text(block.worst, note, half), font=note, fill=DIM)
        y += NOTES + GAP
    if picture.footer:
        draw.text((MARGIN, y + 4), fit_text(picture.footer, note, room), font=note, fill=TEXT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def alt_text(picture: RecapPicture) -> str:
    """The picture in words, as it reads."""
    parts = [f"{picture.title}. {picture.subtitle}."]
    for block in picture.blocks:
        top = ", ".join(f"{i + 1}. {p.name} {p.money}" for i, p in enumerate(block.top))
        parts.append(" ".join(x for x in (f"{block.title}: {top}.", block.best, block.worst) if x))
    if picture.footer:
        parts.append(picture.footer)
    return " ".join(parts)[:1000]
