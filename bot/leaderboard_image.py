"""A leaderboard page as a picture (pure Pillow: rows in, PNG bytes out), in the current language.

Three boards: one game's, ranked by net winnings (Net, Games, Wins, Win %); the board across games,
ranked by wins with no money column (Wins, Games, Win %), since the games' currencies are never added;
and a rating board, of one game or across games (Rating, Games, Trend; docs/ratings.md).

Drawn for Discord's preview (``bot.games.fonts``): 800 px wide, no font under 20 px (1/40 of the
width), and a full page of ten lines is 594 px tall, under 3/4 of the width. A name too long for its
column is cut with an ellipsis (the message under the picture gives it whole).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from bot.games.fonts import font, smallest_font
from bot.games.text_fit import fit_text
from bot.i18n import N_, _, _n
from bot.i18n.formatting import number, percent, signed

WIDTH = 800
MIN_FONT = smallest_font(WIDTH)  # 20 px
MARGIN = 24
HEADER = 86  # the title and the subtitle
HEADINGS = 32  # the columns' names
ROW = 46
BOTTOM = 16
MEDALS = {1: (255, 200, 40), 2: (200, 205, 215), 3: (205, 127, 50)}
NAME_X = 78

BACKGROUND = (24, 28, 38)
STRIPE = (32, 37, 50)
DIM = (170, 178, 195)
TEXT = (220, 220, 220)
GAIN = (110, 220, 130)
LOSS = (235, 110, 110)

RGB = tuple[int, int, int]
Ranking = Literal["net", "wins", "rating"]


@dataclass(frozen=True)
class BoardLine:
    rank: int
    name: str
    net: int | None  # None on a board across games: their currencies are never added
    games: int
    wins: int
    win_rate: float
    rating: int = 0  # on a rating board: the shown rating, and its change over the last games
    trend: int = 0


def trend_text(change: int) -> str:
    """A rating's change, signed (``+45``, ``-12``, ``±0``), its number written the reader's way."""
    return ("+" if change > 0 else "-" if change < 0 else "±") + number(abs(change))


@dataclass(frozen=True)
class Column:
    """A number column: its heading (English, translated when drawn), its right edge, the width its
    widest value takes (the name stops short of the first column's), and how a value is written (as
    the message under the picture writes it: ``1,200`` / ``1.200``).
    Each right edge leaves room for its heading in Portuguese ("% vitórias", the longest) at 20 px."""

    heading: str
    right: int
    room: int
    words: Callable[[BoardLine], str]
    bold: bool = False
    colour: Callable[[BoardLine], RGB] = lambda _line: TEXT


def _net_colour(line: BoardLine) -> RGB:
    net = line.net or 0
    return GAIN if net > 0 else LOSS if net < 0 else TEXT


def _trend_colour(line: BoardLine) -> RGB:
    return GAIN if line.trend > 0 else LOSS if line.trend < 0 else TEXT


def board_columns(by: Ranking = "net", net_text: Callable[[int], str] = signed) -> tuple[Column, ...]:
    """The number columns of a board ranked ``by``; ``net_text`` writes a net in the game's money.

    Ruling: a game's board ranks by net winnings; the board across games ranks by wins and has no
    money column at all (the games count money in different currencies), its first column the wins
    it ranks by. A rating board ranks by rating, then the games it rests on and its trend."""
    if by == "rating":
        return (
            Column(N_("Rating"), 545, 99, lambda line: number(line.rating), True),
            Column(N_("Games"), 652, 97, lambda line: number(line.games)),
            Column(
                N_("Trend"), WIDTH - MARGIN, 114, lambda line: trend_text(line.trend), False, _trend_colour
            ),
        )
    if by == "wins":
        return (
            Column(N_("Wins"), 545, 99, lambda line: number(line.wins), True),
            Column(N_("Games"), 652, 97, lambda line: number(line.games)),
            Column(N_("Win %"), WIDTH - MARGIN, 114, lambda line: percent(line.win_rate)),
        )
    return (
        # 120 px: the widest net result drawn ("+$12,345" at 22 px bold is 119 px).
        Column(N_("Net"), 436, 120, lambda line: net_text(line.net or 0), True, _net_colour),
        Column(N_("Games"), 545, 99, lambda line: number(line.games)),
        Column(N_("Wins"), 652, 97, lambda line: number(line.wins)),
        Column(N_("Win %"), WIDTH - MARGIN, 114, lambda line: percent(line.win_rate)),
    )


def headings(by: Ranking = "net") -> list[str]:
    """The number columns' headings of a board ranked ``by``, in the reader's language."""
    return [_(column.heading) for column in board_columns(by)]


def render_leaderboard(
    title: str,
    subtitle: str,
    lines: list[BoardLine],
    *,
    by: Ranking = "net",
    net_text: Callable[[int], str] = signed,
) -> bytes:
    """A page of a board ranked ``by`` net winnings (one game's, each net written by ``net_text`` in
    the game's money), by wins (across games, which the subtitle then says) or by rating."""
    columns = board_columns(by, net_text)
    if by == "wins":
        subtitle = " · ".join([subtitle, _("ranked by wins")])
    elif by == "rating":
        subtitle = " · ".join([subtitle, _("ranked by rating")])
    height = HEADER + HEADINGS + ROW * max(1, len(lines)) + BOTTOM
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * MARGIN
    draw.text((MARGIN, 14), fit_text(title, font(30, True), room), font=font(30, True), fill=(250, 250, 250))
    draw.text((MARGIN, 54), fit_text(subtitle, font(MIN_FONT), room), font=font(MIN_FONT), fill=DIM)
    left = NAME_X + 8
    for column in columns:
        # A heading is cut only if a translation outgrows its column (never into the one before).
        words = fit_text(_(column.heading), font(MIN_FONT, True), column.right - left)
        draw.text((column.right, HEADER + 4), words, font=font(MIN_FONT, True), fill=DIM, anchor="ra")
        left = column.right + 10
    top = HEADER + HEADINGS
    if not lines:
        draw.text(
            (MARGIN, top + 10), _("No finished games yet."), font=font(MIN_FONT + 2), fill=(200, 200, 200)
        )
    value, bold = font(MIN_FONT + 2), font(MIN_FONT + 2, True)
    name_room = columns[0].right - columns[0].room - 12 - NAME_X
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
        draw.text(
            (NAME_X, middle),
            fit_text(line.name, bold, name_room),
            font=bold,
            fill=(240, 240, 240),
            anchor="lm",
        )
        for column in columns:
            face = bold if column.bold else value
            # Never cut: a number with an ellipsis would say another number.
            draw.text(
                (column.right, middle), column.words(line), font=face, fill=column.colour(line), anchor="rm"
            )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def alt_text(
    title: str, lines: list[BoardLine], *, by: Ranking = "net", net_text: Callable[[int], str] = signed
) -> str:
    """The picture in words, each line as the picture gives it (a net only on a game's board)."""
    if by == "wins":
        title = _("{title}, ranked by wins", title=title)
    elif by == "rating":
        title = _("{title}, ranked by rating", title=title)
    if not lines:
        return _("{title}: no finished games yet.", title=title)
    if by == "rating":
        body = "; ".join(
            f"{line.rank}. {line.name}, "
            + _n(
                "rating {rating} from {n} game, trend {trend}",
                "rating {rating} from {n} games, trend {trend}",
                line.games,
                rating=number(line.rating),
                trend=trend_text(line.trend),
            )
            for line in lines
        )
        return f"{title}: {body}"[:1000]
    body = "; ".join(
        f"{line.rank}. {line.name}, "
        + (f"{net_text(line.net or 0)}, " if by == "net" else "")
        + _n(
            "{n} win in {games}",
            "{n} wins in {games}",
            line.wins,
            games=_n("{n} game", "{n} games", line.games),
        )
        for line in lines
    )
    return f"{title}: {body}"[:1000]
