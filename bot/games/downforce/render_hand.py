"""A player's hand as a small PNG: every speed card as a little card, numbered as the menus number them.

``render_hand(cards)`` is a plain function from the hand's lines (``[[colour, speed], ...]`` per card,
as the seat's view holds them) to PNG bytes (draw it off the event loop); ``hand_alt(cards)`` says
the same in words, for screen readers.

A card is a white tile: its number (1 to n, the hand's order, which the play menu keeps) on a dark
band, then one line per speed line, top to bottom as on the card: a chip in the car's colour with the
car's two letters on it (``Rd``, ``Bk``, ``Bl``: the same letters as the cars on the track picture,
``render.car_label``, in the reader's language), then the speed. So no line relies on its colour alone:
black and blue, red and green read ``Bk``/``Bl`` and ``Rd``/``Gr``. A wild line's chip is striped with
all six colours and reads ``?``; a legend under the cards says ``? wild`` when the hand holds one.

Readable where Discord shows it (rules in ``bot.games.fonts``): every text is ``TEXT`` px (32) and the
picture is never wider than ``40 * TEXT``; the cards are laid out in as few columns as keep the
picture no taller than 3/4 of its width, so a small hand is a small picture (its text larger in the
preview) and the biggest real hand (two players: 21 cards dealt and up to 5 Speed-8 cards) is three
rows. A picture with few cards is widened to keep that ratio.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.games.downforce.cards import COLOURS, WILD
from bot.games.downforce.narration import card_text, colour_name
from bot.games.downforce.render import CAR_RGB, DARK_TEXT, INK, PANEL, PAPER, car_label
from bot.games.fonts import MAX_HEIGHT_RATIO, WIDTH_PER_FONT_PX, font
from bot.i18n import _, _n, current

TEXT = 32
"""Every text's size; the picture is at most ``40 * TEXT`` = 1280 px wide, so no text is under 1/40 of
its width."""
MAX_WIDTH = TEXT * WIDTH_PER_FONT_PX
MARGIN = 14
GAP = 12
"""Between two cards, across and down."""
PAD = 8
"""Inside a card, left and right of its lines."""
BAND = 40
"""A card's number band."""
LINE = 40
"""One speed line; its chip is ``CHIP_H`` tall."""
CHIP_H = 34
LEGEND = 46
WILD_LABEL = "?"
CARD_EDGE = (60, 60, 60)
ALT_MAX = 1000
"""Discord takes an attachment's description up to 1024 characters."""

Card = tuple[tuple[str, int], ...]


def _font() -> ImageFont.FreeTypeFont:
    return font(TEXT, bold=True)


@lru_cache(maxsize=8)
def _chip_w(language: str) -> int:
    """The chips' width in a language: its widest two letters and a margin."""
    return math.ceil(max(_font().getlength(car_label(c)) for c in COLOURS)) + 12


def _speed_w() -> int:
    return math.ceil(max(_font().getlength(str(n)) for n in range(1, 9)))


def _card_w(language: str) -> int:
    return PAD + _chip_w(language) + 8 + _speed_w() + PAD


def _card_h(lines: int) -> int:
    return BAND + lines * LINE + 6


def _cards(cards: Sequence[Sequence[Sequence[object]]]) -> tuple[Card, ...]:
    """The hand as hashable tuples (the view holds lists)."""
    return tuple(tuple((str(c), int(str(n))) for c, n in card) for card in cards)


def layout(cards: tuple[Card, ...], language: str) -> tuple[int, int, int, list[int]]:
    """(width, height, columns, each row's height): the fewest columns that keep the picture within
    3/4 of its width (and it no wider than ``MAX_WIDTH``); widened when a small hand is too tall. (Only
    a hand of more than three rows, 28 cards or more, would be widened past ``MAX_WIDTH``: no game deals
    one.)"""
    card_w = _card_w(language)
    legend = LEGEND if any(c == WILD for card in cards for c, _speed in card) else 0
    most = max(1, (MAX_WIDTH - 2 * MARGIN + GAP) // (card_w + GAP))
    best: tuple[int, int, int, list[int]] | None = None
    for columns in range(1, most + 1):
        rows = [
            _card_h(max(len(card) for card in cards[i : i + columns])) for i in range(0, len(cards), columns)
        ]
        width = 2 * MARGIN + columns * card_w + (columns - 1) * GAP
        height = 2 * MARGIN + sum(rows) + (len(rows) - 1) * GAP + legend
        best = (width, height, columns, rows)
        if height <= MAX_HEIGHT_RATIO * width or columns >= len(cards):
            break
    assert best is not None
    width, height, columns, rows = best
    width = max(
        width, math.ceil(height / MAX_HEIGHT_RATIO), _legend_w(language) + 2 * MARGIN if legend else 0
    )
    return width, height, columns, rows


def _legend_w(language: str) -> int:
    return _chip_w(language) + 10 + math.ceil(_font().getlength(colour_name(WILD)))


def render_hand(cards: Sequence[Sequence[Sequence[object]]]) -> bytes:
    """A PNG of the hand ``cards`` (each card its lines, ``[[colour, speed], ...]``), numbered from 1 in
    the order given. An empty hand draws nothing: the caller says so in words."""
    return _render(_cards(cards), str(current()))


@lru_cache(maxsize=64)
def _render(cards: tuple[Card, ...], language: str) -> bytes:
    """Cached per hand and language: a player's hand is drawn again for each prompt while it is unchanged
    (six auctions, the bets)."""
    if not cards:
        raise ValueError("an empty hand has no picture")
    width, height, columns, rows = layout(cards, language)
    image = Image.new("RGB", (width, height), PANEL)
    draw = ImageDraw.Draw(image)
    card_w = _card_w(language)
    used_w = columns * card_w + (columns - 1) * GAP
    left = (width - used_w) // 2
    y = MARGIN
    for row, row_h in enumerate(rows):
        x = left
        for number, card in enumerate(cards[row * columns : (row + 1) * columns], start=row * columns + 1):
            _card(draw, x, y, number, card, language)
            x += card_w + GAP
        y += row_h + GAP
    if any(c == WILD for card in cards for c, _speed in card):
        _legend(draw, (width - _legend_w(language)) // 2, height - MARGIN - LEGEND // 2, language)
    out = io.BytesIO()
    image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, number: int, card: Card, language: str) -> None:
    bold = _font()
    w, h = _card_w(language), _card_h(len(card))
    draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PAPER, outline=CARD_EDGE, width=2)
    draw.rounded_rectangle((x + 3, y + 3, x + w - 3, y + BAND), radius=8, fill=INK)
    draw.text((x + w / 2, y + 3 + (BAND - 3) / 2), str(number), font=bold, fill=PAPER, anchor="mm")
    line_y = y + BAND + 3 + LINE / 2
    chip_w = _chip_w(language)
    for colour, speed in card:
        _chip(draw, x + PAD, line_y, chip_w, colour)
        draw.text((x + w - PAD, line_y), str(speed), font=bold, fill=INK, anchor="rm")
        line_y += LINE


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, w: int, colour: str) -> None:
    """A line's colour as a chip with its label: the car's two letters, or ``?`` on stripes for a wild."""
    box = (x, y - CHIP_H / 2, x + w, y + CHIP_H / 2)
    if colour == WILD:
        stripe = w / len(COLOURS)
        for i, c in enumerate(COLOURS):
            draw.rectangle((x + i * stripe, box[1], x + (i + 1) * stripe, box[3]), fill=CAR_RGB[c])
        draw.rounded_rectangle(box, radius=8, outline=INK, width=2)
        r = CHIP_H / 2 - 3
        draw.ellipse((x + w / 2 - r, y - r, x + w / 2 + r, y + r), fill=PAPER, outline=INK, width=2)
        draw.text((x + w / 2, y), WILD_LABEL, font=_font(), fill=INK, anchor="mm")
        return
    draw.rounded_rectangle(box, radius=8, fill=CAR_RGB[colour], outline=INK, width=2)
    ink = INK if colour in DARK_TEXT else PAPER
    draw.text((x + w / 2, y), car_label(colour), font=_font(), fill=ink, anchor="mm")


def _legend(draw: ImageDraw.ImageDraw, x: int, y: float, language: str) -> None:
    chip_w = _chip_w(language)
    _chip(draw, x, y, chip_w, WILD)
    draw.text((x + chip_w + 10, y), colour_name(WILD), font=_font(), fill=PAPER, anchor="lm")


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One palette for every hand: the cards' colours and their anti-aliased edges, so a picture is
    mapped onto it at once (no palette chosen per picture) and stays small."""
    sample = Image.new("RGB", (700, 60), PANEL)
    draw = ImageDraw.Draw(sample)
    draw.rectangle((0, 0, 700, 30), fill=PAPER)
    x = 4
    for colour in (*COLOURS, WILD):
        _chip(draw, x, 15, 56, colour)
        _chip(draw, x, 45, 56, colour)
        x += 62
    draw.text((450, 15), "12345678", font=_font(), fill=INK, anchor="lm")
    draw.text((450, 45), "12345678", font=_font(), fill=PAPER, anchor="lm")
    return sample.quantize(colors=64, method=Image.Quantize.MEDIANCUT)


def hand_alt(cards: Sequence[Sequence[Sequence[object]]]) -> str:
    """The picture in words, numbered as drawn; at most ``ALT_MAX`` characters (the cards that would
    go past it are left out, with ``…``: only a two-player hand in Portuguese comes near it)."""
    hand = _cards(cards)
    text = _n("Your hand, {n} card:", "Your hand, {n} cards:", len(hand))
    for number, card in enumerate(hand, start=1):
        part = (
            " "
            + _("{number}: {card}", number=number, card=card_text(card))
            + ("." if number == len(hand) else ";")
        )
        if len(text) + len(part) > ALT_MAX - 2:
            return text + " …"
        text += part
    return text
