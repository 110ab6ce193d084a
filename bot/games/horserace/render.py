"""The board as a PNG, drawn from a public view only (so it shows nothing a player may not see).

Discord previews a picture about 400 px wide whatever its size, so the board is drawn for that
(``bot.games.fonts``): an 800 x 600 canvas, no text under 20 px, and fewer, larger elements rather
than many small ones. Lanes run left to right and all end at the Champion Circle. Every lane spans
the whole width, its squares as wide as its length allows (horse 2's three squares are wide, horse
7's seventeen narrow), so a token's place along its lane is how far through its race it is. Left
of each lane, under a "CARDS" header, a chip per player holding that horse's cards carries the
seat's number, the same chip the cash table puts before each name; how many cards each holds is on
the detailed picture (``render_holdings``), offered on request. Right of the finish line, under an
"ODDS" header, each horse's chance to win when odds are given. The four scratch slots sit in one
row above the lanes; the last roll and the table's cash fill the panel below. The lanes, labels and
frames depend only on the board (and the language of their words), so they are drawn once per
layout and language and cached; each frame draws the tokens, scratches, dice and money on a copy.
Every word is in the current language (``bot.i18n``), read at draw time.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games import catalog
from bot.games.fonts import font, smallest_font
from bot.games.horserace.board import HORSES
from bot.games.horserace.narration import joined, seat_name
from bot.games.horserace.scratch import MULTIPLIERS
from bot.games.odds import Odds
from bot.games.text_fit import draw_text, fit_text
from bot.i18n import Language, _, _n, current
from bot.i18n.formatting import money

WIDTH = 800
HEIGHT = 600  # 0.75 of the width: the most a preview shows uncut
TEXT = smallest_font(WIDTH)  # 20 px: the smallest type the picture may use, and most of its words
BIG = 28  # the dice total, the scratch multipliers' numbers are TEXT
MARGIN = 10
HEADER = 56  # two lines of TEXT: the titles left, the race and its dealer in the middle
STRIP_TOP = HEADER + 4  # the column headers and the scratch slots, one row above the lanes
STRIP_H = 34
LANE_H = 28
LANE_GAP = 2
LANES_TOP = STRIP_TOP + STRIP_H + 4
LANES_BOTTOM = LANES_TOP + len(HORSES) * (LANE_H + LANE_GAP) - LANE_GAP
PANEL_Y = LANES_BOTTOM + 8
PANEL_H = HEIGHT - 8 - PANEL_Y
CHIPS_RIGHT = MARGIN + 130  # holder chips are right-aligned here, against the badges
LABEL_W = 36
LABEL_CX = CHIPS_RIGHT + 4 + LABEL_W // 2  # centre of the horse-number badges left of the lanes
LANES_X = CHIPS_RIGHT + 4 + LABEL_W + 2
CIRCLE_W = 110
FINISH_X = WIDTH - MARGIN - CIRCLE_W - 10
LANES_W = FINISH_X - LANES_X
CIRCLE_BOX = (FINISH_X + 12, LANES_TOP - 4, WIDTH - MARGIN, LANES_BOTTOM + 4)
CIRCLE_CX = (CIRCLE_BOX[0] + CIRCLE_BOX[2]) // 2
ODDS_BAR_X = CIRCLE_BOX[0] + 8
ODDS_RIGHT = CIRCLE_BOX[2] - 8
CHIP_H = 24
TITLE_W = 270  # the game's and the board's titles, top left ("THE HORSE RACE GAME" is 267 px)
JACKPOT_W = 200  # the jackpot badge, top right, at least

TURF = (20, 83, 45)
TURF_DARK = (14, 60, 33)
DIRT = (217, 183, 126)
DIRT_LINE = (176, 140, 88)
CHALK = (250, 248, 240)
GOLD = (240, 193, 58)
GOLD_DARK = (168, 124, 20)
INK = (30, 30, 30)
GREY = (118, 118, 118)
GREY_LANE = (96, 104, 99)
GREY_TEXT = (160, 160, 160)
RED = (214, 48, 49)
PANEL = (12, 48, 27)

HORSE_COLOURS: dict[int, tuple[int, int, int]] = {
    2: (230, 25, 75),
    3: (245, 130, 49),
    4: (255, 225, 25),
    5: (191, 239, 69),
    6: (60, 180, 75),
    7: (66, 212, 244),
    8: (67, 99, 216),
    9: (145, 30, 180),
    10: (240, 50, 230),
    11: (154, 99, 36),
    12: (0, 0, 117),
}


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shared cached loader (``bot.games.fonts``); the name stays for ``symbols``, which draws with it."""
    return font(size, bold)


def _ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else CHALK


def _lane_y(horse: int) -> int:
    return LANES_TOP + (horse - HORSES[0]) * (LANE_H + LANE_GAP)


def _cell(length: int) -> float:
    """Width of one square of a lane of ``length`` moves (start box included): the lane fills the width."""
    return LANES_W / max(1, length)


def _slot_x(horse_moves: int, position: int) -> int:
    """Left x of the square for ``position`` (0 = start box) in a lane of ``horse_moves`` moves."""
    return round(LANES_X + position * _cell(horse_moves))


# --- names, fitted -------------------------------------------------------------

AI_SUFFIX = " (AI)"  # how the table stores an AI seat's name ("Ada (AI)"; ``bot.tables.seats``)


def fit_name(name: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """A seat's name cut to ``width`` px, keeping an AI seat's marker whole and in the reader's language.

    The table stores an AI seat as "Ada (AI)"; cutting the end off left "Ada ." on the old board, so the
    name is cut before the marker instead ("Lovela… (AI)", "Lovela… (IA)" in Portuguese). Only when not
    even one letter and the marker fit is the marker cut too.
    """
    if not name.endswith(AI_SUFFIX):
        return fit_text(name, font, width)
    base = name.removesuffix(AI_SUFFIX)
    marked = _("{name} (AI)", name=base)
    if font.getlength(marked) <= width:
        return marked
    for keep in range(len(base) - 1, 0, -1):
        shorter = _("{name} (AI)", name=base[:keep].rstrip() + "…")
        if font.getlength(shorter) <= width:
            return shorter
    return fit_text(marked, font, width)


def spoken_name(seat: int | None, names: Sequence[str] | None) -> str:
    """A seat's whole name for words read out (alt text), an AI seat's marker in the reader's language
    ("Ada (IA)"), as the pictures draw it."""
    name = seat_name(seat, names)
    return _("{name} (AI)", name=name.removesuffix(AI_SUFFIX)) if name.endswith(AI_SUFFIX) else name


def _name(seat: int | None, names: Sequence[str] | None, font: ImageFont.FreeTypeFont, width: float) -> str:
    return fit_name(seat_name(seat, names), font, width)


def _line_with_name(line: Callable[[str], str], name: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``line(name)`` fitted to ``width`` px by cutting the name (its AI marker kept), not the words around it."""
    whole = line(name)
    if font.getlength(whole) <= width:
        return whole
    room = width - font.getlength(line(""))
    return fit_text(line(fit_name(name, font, room)), font, width)


# --- the static background ---------------------------------------------------


def game_title() -> str:
    """The game's name as the bot's catalog gives it, in the current language."""
    return _(catalog.entry("horserace").title)


def board_title(board: dict[str, Any]) -> str:
    """The layout's title in the current language (its ``titles``), else as written."""
    return str((board.get("titles") or {}).get(current()) or board.get("title", board["name"]))


@lru_cache(maxsize=8)
def _background(moves: tuple[int, ...], title: str, language: Language) -> Image.Image:
    """``language`` is part of the cache key: the labels drawn here are words."""
    image = Image.new("RGB", (WIDTH, HEIGHT), TURF)
    draw = ImageDraw.Draw(image)
    bold, regular = _font(TEXT, True), _font(TEXT)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=TURF_DARK)
    draw_text(draw, (MARGIN, 5), fit_text(game_title().upper(), bold, TITLE_W), font=bold, fill=GOLD)
    draw_text(draw, (MARGIN, 29), fit_text(title, regular, TITLE_W), font=regular, fill=CHALK)
    # The column headers: what the chips left of the lanes are (a player by seat number, for each
    # card of that horse they hold) and what the numbers right of the finish are.
    strip_cy = STRIP_TOP + STRIP_H // 2
    draw_text(
        draw,
        (MARGIN, strip_cy),
        fit_text(_("CARDS"), bold, CHIPS_RIGHT - MARGIN),
        font=bold,
        fill=GOLD,
        anchor="lm",
    )
    draw_text(
        draw, (LANES_X, strip_cy), fit_text(_("SCRATCHES"), bold, 150), font=bold, fill=GOLD, anchor="lm"
    )
    for slot, mult in enumerate(MULTIPLIERS, start=1):
        x = _scratch_slot_x(slot)
        draw.rounded_rectangle(
            (x, STRIP_TOP, x + SLOT_W, STRIP_TOP + STRIP_H), radius=8, outline=GOLD_DARK, width=2
        )
        draw_text(draw, (x + 6, strip_cy), f"x{mult}", font=bold, fill=GOLD, anchor="lm")
        cx = x + SLOT_W - 6 - TOKEN_R
        draw.ellipse(
            (cx - TOKEN_R, strip_cy - TOKEN_R, cx + TOKEN_R, strip_cy + TOKEN_R), outline=GOLD_DARK, width=2
        )
    for horse, length in zip(HORSES, moves, strict=True):
        y = _lane_y(horse)
        cell = round(_cell(length))
        start = _slot_x(length, 0)
        # the lane: start box, then one square per move short of the circle
        draw.rounded_rectangle((start, y, FINISH_X, y + LANE_H), radius=7, fill=DIRT)
        for position in range(1, length):
            x = _slot_x(length, position)
            draw.line((x, y + 4, x, y + LANE_H - 4), fill=DIRT_LINE, width=2)
        draw.rounded_rectangle((start + 2, y + 2, start + cell - 2, y + LANE_H - 2), radius=6, fill=CHALK)
        draw_text(draw, (start + cell // 2, y + LANE_H // 2), str(horse), font=bold, fill=GREY, anchor="mm")
        # the horse number on the left, in its colour
        colour = HORSE_COLOURS[horse]
        _draw_badge(draw, horse, y, fill=colour, outline=CHALK, width=2, ink=_ink_on(colour))
    # the finish line (chequered) and the Champion Circle right of it, one row per horse
    square = 5
    for row, y in enumerate(range(LANES_TOP, LANES_BOTTOM, square)):
        for col in range(2):
            fill = CHALK if (row + col) % 2 == 0 else INK
            draw.rectangle(
                (
                    FINISH_X + col * square,
                    y,
                    FINISH_X + (col + 1) * square - 1,
                    min(y + square, LANES_BOTTOM) - 1,
                ),
                fill=fill,
            )
    draw.rounded_rectangle(CIRCLE_BOX, radius=14, fill=TURF_DARK, outline=GOLD, width=3)
    # the panel: the last roll, then whose turn it is and the table's cash
    draw.rounded_rectangle((MARGIN, PANEL_Y, WIDTH - MARGIN, PANEL_Y + PANEL_H), radius=12, fill=PANEL)
    draw_text(draw, (DICE_X, PANEL_Y + 8), fit_text(_("LAST ROLL"), bold, DICE_W), font=bold, fill=GOLD)
    draw.line((TABLE_X - 14, PANEL_Y + 12, TABLE_X - 14, PANEL_Y + PANEL_H - 12), fill=TURF, width=2)
    return image


def _draw_badge(
    draw: ImageDraw.ImageDraw,
    horse: int,
    y: int,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int],
    width: int,
    ink: tuple[int, int, int],
) -> None:
    """The horse's number in a pill left of its lane, where the eye starts reading the row."""
    cy = y + LANE_H // 2
    half = LABEL_W // 2
    draw.rounded_rectangle(
        (LABEL_CX - half, cy - 13, LABEL_CX + half, cy + 13),
        radius=13,
        fill=fill,
        outline=outline,
        width=width,
    )
    draw_text(draw, (LABEL_CX, cy), str(horse), font=_font(TEXT, True), fill=ink, anchor="mm")


TOKEN_R = 12  # a token on a lane or in a scratch slot: 24 px, its number in TEXT type
SLOT_W, SLOT_GAP = 78, 6  # "x3" and a two-digit horse's pill


def _scratch_slot_x(slot: int) -> int:
    """The scratch slots follow their "SCRATCHES" label (its width in the current language), in the
    row above the lanes; four of them end left of the circle's header ("VENCEDOR": 123 px)."""
    label = min(150, _font(TEXT, True).getlength(_("SCRATCHES")))
    return round(LANES_X + label + 10 + (slot - 1) * (SLOT_W + SLOT_GAP))


DICE_X = MARGIN + 14
DICE_W = 266
TABLE_X = DICE_X + DICE_W + 28
TABLE_RIGHT = WIDTH - MARGIN - 12
TABLE_ROWS = 5  # seats per column of the cash table
ROW_H = 24


# --- one frame ---------------------------------------------------------------


def render_board(view: dict[str, Any], *, odds: Odds | None = None) -> bytes:
    """A PNG of the board from a public ``view`` (``HorseRace.view(None)``).

    An optional ``view["names"]`` (list of player names, added by the host) labels the seats;
    ``odds`` (from ``bot.games.horserace.odds.odds``) draws each horse's chance to win.
    """
    out = io.BytesIO()
    board_image(view, odds=odds).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def board_image(view: dict[str, Any], *, odds: Odds | None = None) -> Image.Image:
    """The board as a palette image (what ``render_board`` encodes; replays reuse it)."""
    moves = tuple(int(view["board"]["moves"][str(h)]) for h in HORSES)
    image = _background(moves, board_title(view["board"]), current()).copy()
    draw = ImageDraw.Draw(image)
    names: Sequence[str] | None = view.get("names")
    scratched = {entry["horse"]: entry for entry in view["scratched"]}
    last = view.get("last_roll") or {}
    winner = view.get("winner")

    _draw_header(draw, view, names)
    # What the Champion Circle's column shows: each horse's chance, or the winner.
    column = _("WINNER") if winner is not None else _("ODDS") if odds is not None else ""
    if column:
        draw_text(
            draw,
            (WIDTH - MARGIN, STRIP_TOP + STRIP_H // 2),
            column,
            font=_font(TEXT, True),
            fill=GOLD,
            anchor="rm",
        )
    holders = _holders(view["hands"])
    for horse, length in zip(HORSES, moves, strict=True):
        y = _lane_y(horse)
        if horse in scratched:
            _draw_scratched_lane(draw, horse, length, scratched[horse], highlight=last.get("horse") == horse)
            continue
        position = int(view["positions"][str(horse)])
        _draw_holders(draw, y, holders.get(horse, []))
        if odds is not None and winner is None:
            _draw_odds(draw, y, horse, odds)
        if position >= length:
            continue  # in the Champion Circle, drawn below
        cell = _cell(length)
        x = _slot_x(length, position)
        moved = last.get("kind") == "move" and last.get("horse") == horse
        _draw_token(
            draw,
            round(x + cell / 2),
            y + LANE_H // 2,
            horse,
            radius=min(TOKEN_R, int(cell // 2) - 1),
            ring=GOLD if moved else None,
            room=cell - 4,
        )
    if winner is not None:
        y = _lane_y(int(winner))
        draw.rounded_rectangle(
            (LANES_X - 3, y - 2, FINISH_X + 2, y + LANE_H + 2), radius=9, outline=GOLD, width=3
        )
        _draw_token(draw, CIRCLE_CX, y + LANE_H // 2, int(winner), radius=TOKEN_R, ring=GOLD, room=CIRCLE_W)
    _draw_scratch_slots(draw, view["scratched"], last)
    _draw_dice(draw, last, names)
    _draw_status(draw, view, names)
    # A fast palette cut makes the file a third of the size and the encode faster than RGB.
    return image.quantize(256, method=Image.Quantize.FASTOCTREE)


def _draw_odds(draw: ImageDraw.ImageDraw, y: int, horse: int, odds: Odds) -> None:
    """The horse's chance to win: a whole percentage and, left of it, a bar in its colour as long as the chance."""
    p = odds.win.get(str(horse), 0.0)
    cy = y + LANE_H // 2
    text = f"{odds.percent(str(horse))}%"
    bold = _font(TEXT, True)
    bar_w = int(ODDS_RIGHT - bold.getlength("100%") - 6 - ODDS_BAR_X)
    draw.rounded_rectangle((ODDS_BAR_X, cy - 7, ODDS_BAR_X + bar_w, cy + 7), radius=4, fill=TURF)
    if p > 0:
        draw.rounded_rectangle(
            (ODDS_BAR_X, cy - 7, ODDS_BAR_X + max(5, round(bar_w * p)), cy + 7),
            radius=4,
            fill=HORSE_COLOURS[horse],
            outline=CHALK,
        )
    draw_text(draw, (ODDS_RIGHT, cy), text, font=bold, fill=CHALK, anchor="rm")


def _race_text(view: dict[str, Any]) -> str:
    race = view["race"]
    if race:
        text = (
            _("Race {race} of {races}", race=race, races=view["races"])
            if view.get("races")
            else _("Race {race}", race=race)
        )
    else:
        text = _("Before the first race")
    if view.get("last_race") and view["phase"] != "over":
        text = _("{race} - last race", race=text)
    return text


def _draw_header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str] | None) -> None:
    """The race (and, under it, who dealt this race's cards: a word, not the old unexplained "D")
    between the titles and the jackpot badge; smaller type, never under TEXT, if a language needs the room.

    The badge is 200 px and grows (to 260) for a four-digit jackpot rather than cut its word."""
    right = WIDTH - MARGIN
    amount = money(view["jackpot"])
    amount_font, word_font = _font(BIG, True), _font(TEXT, True)
    word = _("JACKPOT")
    badge = math.ceil(
        min(260, max(JACKPOT_W, 34 + word_font.getlength(word) + amount_font.getlength(amount)))
    )
    left = MARGIN + TITLE_W + 12
    room = right - badge - 12 - left
    centre = (left + right - badge - 12) // 2
    text = _race_text(view)
    size = next((size for size in (24, 22) if _font(size, True).getlength(text) <= room), TEXT)
    draw_text(
        draw,
        (centre, 17),
        fit_text(text, _font(size, True), room),
        font=_font(size, True),
        fill=CHALK,
        anchor="mm",
    )
    dealer = view.get("dealer")
    if dealer is not None and view["phase"] != "over":
        line = _line_with_name(
            lambda who: _("Dealer: {name}", name=who), seat_name(dealer, names), _font(TEXT), room
        )
        draw_text(draw, (centre, 42), line, font=_font(TEXT), fill=GOLD, anchor="mm")
    draw.rounded_rectangle(
        (right - badge, 8, right, HEADER - 8), radius=12, fill=GOLD, outline=GOLD_DARK, width=3
    )
    word_room = badge - 34 - amount_font.getlength(amount)
    draw_text(
        draw,
        (right - badge + 12, HEADER // 2),
        fit_text(word, word_font, word_room),
        font=word_font,
        fill=INK,
        anchor="lm",
    )
    draw_text(draw, (right - 12, HEADER // 2), amount, font=amount_font, fill=INK, anchor="rm")


def _holders(hands: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    """Each horse's holders: every seat holding one of its cards, once, in seat order."""
    held: dict[int, list[int]] = {}
    for seat, hand in enumerate(hands):
        for card in sorted(set(hand)):
            held.setdefault(card, []).append(seat)
    return held


def _chip_width(label: str) -> int:
    return max(CHIP_H, int(_font(TEXT, True).getlength(label)) + 10)


def _draw_chip(
    draw: ImageDraw.ImageDraw, right: int, cy: int, seat: int, fill: tuple[int, int, int] = CHALK
) -> int:
    """A seat's number in a chalk chip ending at ``right``: the same chip in a lane and in the cash
    table, so a lane's chip is looked up by eye. Returns the chip's width."""
    label = str(seat + 1)
    width = _chip_width(label)
    top = cy - CHIP_H // 2
    draw.rounded_rectangle((right - width, top, right, top + CHIP_H), radius=7, fill=fill)
    draw_text(draw, (right - width / 2, cy), label, font=_font(TEXT, True), fill=INK, anchor="mm")
    return width


def _draw_holders(draw: ImageDraw.ImageDraw, y: int, seats: list[int]) -> None:
    """Who holds this horse's cards: a chip per holder (seat number), right-aligned against the badge.

    With many players a horse may have more holders than the column holds at a readable size: the
    chips that fit are drawn and "+n" counts the rest (``render_holdings`` lists them all).
    """
    cy = y + LANE_H // 2
    bold = _font(TEXT, True)
    widths = [_chip_width(str(seat + 1)) for seat in seats]
    shown = len(seats)
    while (
        shown
        and sum(widths[:shown])
        + 3 * shown
        + (bold.getlength(f"+{len(seats) - shown}") + 4 if shown < len(seats) else 0)
        > CHIPS_RIGHT - MARGIN
    ):
        shown -= 1
    x = CHIPS_RIGHT
    for seat in reversed(seats[:shown]):
        x -= _draw_chip(draw, x, cy, seat) + 3
    if shown < len(seats):
        draw_text(draw, (x - 1, cy), f"+{len(seats) - shown}", font=bold, fill=CHALK, anchor="rm")


def _draw_scratched_lane(
    draw: ImageDraw.ImageDraw, horse: int, length: int, entry: dict[str, Any], highlight: bool
) -> None:
    y = _lane_y(horse)
    start = _slot_x(length, 0)
    draw.rounded_rectangle((start, y, FINISH_X, y + LANE_H), radius=7, fill=GREY_LANE)
    _draw_badge(
        draw, horse, y, fill=GREY, outline=RED if highlight else CHALK, width=3 if highlight else 2, ink=CHALK
    )
    font = _font(TEXT, True)
    room = FINISH_X - start - 12
    multiplier = entry["multiplier"]
    label = _("SCRATCHED  x{multiplier}", multiplier=multiplier)
    for shorter in (_("OUT x{multiplier}", multiplier=multiplier), f"x{multiplier}"):
        if draw.textlength(label, font=font) <= room:
            break
        label = shorter
    draw_text(
        draw,
        ((start + FINISH_X) // 2, y + LANE_H // 2),
        label,
        fill=(255, 160, 160) if highlight else (215, 215, 215),
        anchor="mm",
        font=font,
    )


def _draw_token(
    draw: ImageDraw.ImageDraw,
    cx: int,
    cy: int,
    horse: int,
    radius: int,
    ring: tuple[int, int, int] | None = None,
    room: float | None = None,
) -> None:
    """A horse's token: a disc, stretched to a pill where its two-digit number needs the width.

    Its number is TEXT type, never smaller: on the seventeen-square lane a square is about 28 px,
    room for a one-digit number in a 24 px disc; the two-digit horses run short lanes of wide squares.
    """
    colour = HORSE_COLOURS[horse]
    bold = _font(TEXT, True)
    half = max(radius, (int(bold.getlength(str(horse))) + 8) // 2)
    if room is not None:
        half = max(radius, min(half, int(room // 2)))
    if ring is not None:
        draw.rounded_rectangle(
            (cx - half - 3, cy - radius - 3, cx + half + 3, cy + radius + 3), radius=radius + 3, fill=ring
        )
    draw.rounded_rectangle(
        (cx - half, cy - radius, cx + half, cy + radius), radius=radius, fill=colour, outline=INK, width=2
    )
    draw_text(draw, (cx, cy), str(horse), font=bold, fill=_ink_on(colour), anchor="mm")


def _draw_scratch_slots(
    draw: ImageDraw.ImageDraw, scratched: Sequence[dict[str, Any]], last: dict[str, Any]
) -> None:
    cy = STRIP_TOP + STRIP_H // 2
    for entry in scratched:
        x = _scratch_slot_x(entry["slot"])
        if last.get("kind") == "penalty" and last.get("horse") == entry["horse"]:
            draw.rounded_rectangle(
                (x, STRIP_TOP, x + SLOT_W, STRIP_TOP + STRIP_H), radius=8, outline=RED, width=3
            )
        # (The slot's right part is a 24 px circle; a two-digit horse's pill grows to the left over it.)
        right = x + SLOT_W - 6
        half = max(TOKEN_R, (int(_font(TEXT, True).getlength(str(entry["horse"]))) + 8) // 2)
        _draw_token(draw, right - half, cy, entry["horse"], radius=TOKEN_R)


PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def _draw_die(draw: ImageDraw.ImageDraw, x: int, y: int, size: int, value: int) -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=CHALK, outline=INK, width=2)
    r = size // 10
    for px, py in PIPS[value]:
        cx, cy = x + px * size, y + py * size
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)


def _draw_dice(draw: ImageDraw.ImageDraw, last: dict[str, Any], names: Sequence[str] | None) -> None:
    regular, bold = _font(TEXT), _font(TEXT, True)
    if not last:
        draw_text(
            draw,
            (DICE_X, PANEL_Y + 70),
            fit_text(_("no roll yet"), regular, DICE_W),
            font=regular,
            fill=CHALK,
        )
        return
    d1, d2 = last["dice"]
    top, size = PANEL_Y + 36, 46
    _draw_die(draw, DICE_X, top, size, d1)
    _draw_die(draw, DICE_X + size + 8, top, size, d2)
    draw_text(
        draw,
        (DICE_X + 2 * size + 20, top + size // 2),
        f"= {last['total']}",
        font=_font(BIG, True),
        fill=CHALK,
        anchor="lm",
    )
    kind = last.get("kind")
    horse = last.get("horse")
    if kind == "move":
        won = last.get("to", 0) >= last.get("moves", 99)
        what = _("horse {horse} wins!", horse=horse) if won else _("horse {horse} moves", horse=horse)
    elif kind == "penalty":
        what = _("scratched! pays {paid}", paid=money(last.get("paid", 0)))
    elif kind == "scratch":
        what = _("scratches {horse} (x{multiplier})", horse=horse, multiplier=last.get("multiplier"))
    elif kind == "reroll":
        what = _("{horse} already out", horse=horse)
    else:
        what = ""
    colour = (255, 110, 110) if kind == "penalty" else CHALK
    draw_text(
        draw, (DICE_X, PANEL_Y + 88), _name(last.get("roller"), names, bold, DICE_W), font=bold, fill=GOLD
    )
    draw_text(draw, (DICE_X, PANEL_Y + 114), fit_text(what, regular, DICE_W), font=regular, fill=colour)


def _draw_status(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str] | None) -> None:
    """Whose turn it is, then every seat's cash in columns of five: each seat's number in the chip the
    lanes use, then its name; gold for the seat to roll, grey for seats sitting out."""
    x, right = TABLE_X, TABLE_RIGHT
    draw_text(draw, (x, PANEL_Y + 8), _status_line(view, names, right - x), font=_font(22, True), fill=CHALK)
    regular, bold = _font(TEXT), _font(TEXT, True)
    sitting = set(view.get("sitting_out", []))
    seats = len(view["cash"])
    columns = max(1, -(-seats // TABLE_ROWS))
    col_w = (right - x + 16) // columns
    for seat, cash in enumerate(view["cash"]):
        col, row = divmod(seat, TABLE_ROWS)
        cx, cy = x + col * col_w, PANEL_Y + 40 + row * ROW_H + ROW_H // 2
        turn = seat == view.get("turn")
        fill = GOLD if turn else GREY_TEXT if seat in sitting else CHALK
        chip = _chip_width("15")
        _draw_chip(
            draw, cx + chip, cy, seat, fill=GOLD if turn else CHALK if seat not in sitting else GREY_TEXT
        )
        cash_text = money(cash)
        cash_right = cx + col_w - 12
        name_x = cx + chip + 6
        room = cash_right - bold.getlength(cash_text) - 8 - name_x
        name = _table_name(seat, names, regular, room)
        if name:
            draw_text(draw, (name_x, cy), name, font=regular, fill=fill, anchor="lm")
        draw_text(draw, (cash_right, cy), cash_text, font=bold, fill=fill, anchor="rm")


def _table_name(seat: int, names: Sequence[str] | None, font: ImageFont.FreeTypeFont, room: float) -> str:
    """A seat's name in the cash table, or nothing where fewer than four of its letters would fit
    (three columns for eleven to fifteen players): "Pla…" tells nobody anything, the seat's chip
    does, and the detailed picture (``render_holdings``) names every seat."""
    if names is None or not 0 <= seat < len(names):
        return ""
    fitted = fit_name(names[seat], font, room)
    if fitted == fit_name(names[seat], font, float("inf")):
        return fitted  # whole, however short ("Zé")
    return fitted if len(fitted.split("…")[0].strip()) >= 4 else ""


def _status_line(view: dict[str, Any], names: Sequence[str] | None, width: float | None = None) -> str:
    """Whose turn it is, or how the game stands; cut to ``width`` px of the picture's type (its names
    cut first, their AI marker kept), or whole for the alt text when no width is given."""
    font = _font(22, True)

    def fitted(line: Callable[[str], str], name: str) -> str:
        return line(name) if width is None else _line_with_name(line, name, font, width)

    phase = view["phase"]
    if phase == "over":
        best = max(view["cash"])
        top = [seat_name(seat, names) for seat, cash in enumerate(view["cash"]) if cash == best]
        if len(top) > 1:
            text = _("Game over: {who} win", who=joined(top))
            return text if width is None else fit_text(text, font, width)
        return fitted(lambda who: _("Game over: {who} wins", who=who), top[0])
    if phase == "between":
        text = _("Waiting for the next race") if view["race"] else _("Waiting for the first race")
        return text if width is None else fit_text(text, font, width)
    who = seat_name(view.get("turn"), names)
    if phase == "scratch":
        return fitted(lambda name: _("{who} to roll (scratch round)", who=name), who)
    return fitted(lambda name: _("{who} to roll", who=name), who)


# --- the detailed picture: who holds which cards --------------------------------

HOLDINGS_TITLE_H = 48
HOLDINGS_HEAD_H = 38
HOLDINGS_ROW_MAX = 40
NAME_W = 236  # the seat chip and the name
GRID_X = MARGIN + NAME_W + 14


def render_holdings(view: dict[str, Any]) -> bytes:
    """A PNG of every player's cards from a public ``view``: one row per seat, one column per horse,
    how many of that horse's cards the seat holds.

    The board shows a lane's holders only as seat-number chips (and "+n" where a lane has more than
    fit at a readable size); this is the detail, for whoever asks for it (a button). 800 px wide like
    the board, type no smaller; its height follows the number of seats (15 seats: 590 px, within 0.75
    of the width). ``view["names"]`` labels the seats as on the board.
    """
    names: Sequence[str] | None = view.get("names")
    hands: Sequence[Sequence[int]] = view["hands"]
    seats = len(hands)
    row_h = min(HOLDINGS_ROW_MAX, (HEIGHT - HOLDINGS_TITLE_H - HOLDINGS_HEAD_H - 12) // max(1, seats))
    height = HOLDINGS_TITLE_H + HOLDINGS_HEAD_H + seats * row_h + 12
    image = Image.new("RGB", (WIDTH, height), TURF)
    draw = ImageDraw.Draw(image)
    bold, regular = _font(TEXT, True), _font(TEXT)
    draw.rectangle((0, 0, WIDTH, HOLDINGS_TITLE_H), fill=TURF_DARK)
    race = _race_text(view)
    race_w = min(bold.getlength(race), WIDTH / 2 - MARGIN)
    draw_text(
        draw,
        (WIDTH - MARGIN, HOLDINGS_TITLE_H // 2),
        fit_text(race, bold, race_w),
        font=bold,
        fill=CHALK,
        anchor="rm",
    )
    title = fit_text(_("CARDS HELD"), _font(24, True), WIDTH - 3 * MARGIN - race_w)
    draw_text(draw, (MARGIN, HOLDINGS_TITLE_H // 2), title, font=_font(24, True), fill=GOLD, anchor="lm")
    out = {entry["horse"] for entry in view["scratched"]}
    column_w = (WIDTH - MARGIN - GRID_X) / len(HORSES)
    head_cy = HOLDINGS_TITLE_H + HOLDINGS_HEAD_H // 2
    rows_top = HOLDINGS_TITLE_H + HOLDINGS_HEAD_H
    for seat in range(0, seats, 2):
        top = rows_top + seat * row_h
        draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + row_h - 1), fill=TURF_DARK)
    draw_text(draw, (MARGIN, head_cy), fit_text(_("PLAYER"), bold, NAME_W), font=bold, fill=GOLD, anchor="lm")
    for index, horse in enumerate(HORSES):
        cx = round(GRID_X + (index + 0.5) * column_w)
        if horse in out:  # its cards were surrendered when it was scratched: a grey column
            draw.rectangle(
                (
                    round(cx - column_w / 2) + 2,
                    HOLDINGS_TITLE_H + 4,
                    round(cx + column_w / 2) - 2,
                    rows_top + seats * row_h,
                ),
                fill=GREY_LANE,
            )
            colour, ink = GREY, CHALK
        else:
            colour = HORSE_COLOURS[horse]
            ink = _ink_on(colour)
        draw.rounded_rectangle(
            (cx - 19, head_cy - 13, cx + 19, head_cy + 13), radius=13, fill=colour, outline=CHALK, width=2
        )
        draw_text(draw, (cx, head_cy), str(horse), font=bold, fill=ink, anchor="mm")
    sitting = set(view.get("sitting_out", []))
    chip = _chip_width("15")
    radius = min(14, row_h // 2 - 2)
    for seat, hand in enumerate(hands):
        cy = rows_top + seat * row_h + row_h // 2
        fill = GREY_TEXT if seat in sitting else CHALK
        _draw_chip(draw, MARGIN + 4 + chip, cy, seat, fill=fill)
        name_x = MARGIN + 4 + chip + 8
        draw_text(
            draw,
            (name_x, cy),
            _name(seat, names, regular, GRID_X - 10 - name_x),
            font=regular,
            fill=fill,
            anchor="lm",
        )
        for index, horse in enumerate(HORSES):
            count = hand.count(horse)
            if not count:
                continue
            cx = round(GRID_X + (index + 0.5) * column_w)
            colour = HORSE_COLOURS[horse]
            draw.ellipse(
                (cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=INK, width=2
            )
            draw_text(draw, (cx, cy), str(count), font=bold, fill=_ink_on(colour), anchor="mm")
    out_png = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out_png, format="PNG", compress_level=6)
    return out_png.getvalue()


ALT_LIMIT = 1000
"""Characters of alt text at most (Discord keeps 1,024 of a picture's description)."""


def holdings_alt_text(view: dict[str, Any]) -> str:
    """The detailed picture in words: each seat and the cards it holds ("Ann: 2x horse 7, 1x horse 9").

    Fifteen players with long names say too much for Discord's limit that way: then each seat's
    horses are listed by number ("Ann: horses 7, 7, 9"), and only if even that is too long are the
    last seats left off, whole, rather than a name cut in the middle."""
    names: Sequence[str] | None = view.get("names")
    hands: Sequence[Sequence[int]] = view["hands"]
    head = _("Cards held, {race}.", race=_race_text(view))

    def listed(cards: Callable[[Sequence[int]], str]) -> list[str]:
        return [
            _("{who}: {cards}", who=spoken_name(seat, names), cards=cards(hand) if hand else _("no cards"))
            for seat, hand in enumerate(hands)
        ]

    def counted(hand: Sequence[int]) -> str:
        return ", ".join(
            _("{count}x horse {horse}", count=hand.count(horse), horse=horse)
            for horse in HORSES
            if horse in hand
        )

    def numbered(hand: Sequence[int]) -> str:
        return _n("horse {horses}", "horses {horses}", len(hand), horses=", ".join(map(str, sorted(hand))))

    for rows in (listed(counted), listed(numbered)):
        text = f"{head} {'; '.join(rows)}."
        if len(text) <= ALT_LIMIT:
            return text
    kept: list[str] = []
    for row in rows:
        more = _n("and {n} more player", "and {n} more players", len(rows) - len(kept) - 1)
        if len(f"{head} {'; '.join([*kept, row])}; {more}.") > ALT_LIMIT:
            break
        kept.append(row)
    more = _n("and {n} more player", "and {n} more players", len(rows) - len(kept))
    return f"{head} {'; '.join([*kept, more])}."[:ALT_LIMIT]


# --- for screen readers ------------------------------------------------------


def alt_text(view: dict[str, Any], *, odds: Odds | None = None) -> str:
    """The picture in words (with ``odds``: each running horse's chance to win, best first)."""
    names: Sequence[str] | None = view.get("names")
    moves = {int(h): int(m) for h, m in view["board"]["moves"].items()}
    parts: list[str] = []
    game = game_title()
    if view["race"] and view.get("races"):
        parts.append(_("{game}, race {race} of {races}.", game=game, race=view["race"], races=view["races"]))
    elif view["race"]:
        parts.append(_("{game}, race {race}.", game=game, race=view["race"]))
    else:
        parts.append(_("{game}, before the first race.", game=game))
    parts.append(_("Jackpot {amount}.", amount=money(view["jackpot"])))
    if view["scratched"]:
        horses = ", ".join(
            _("horse {horse} (x{multiplier})", horse=e["horse"], multiplier=e["multiplier"])
            for e in view["scratched"]
        )
        parts.append(_("Scratched: {horses}.", horses=horses))
    out = {e["horse"] for e in view["scratched"]}
    running = [h for h in HORSES if h not in out]
    if view.get("winner") is not None:
        parts.append(_("Horse {horse} is in the Champion Circle.", horse=view["winner"]))
    if view["phase"] in ("scratch", "race") or view.get("winner") is not None:
        ahead = sorted(running, key=lambda h: (moves[h] - int(view["positions"][str(h)]), h))
        positions = [
            _("{horse}: {left} to go", horse=h, left=moves[h] - int(view["positions"][str(h)]))
            for h in ahead
            if h != view.get("winner")
        ]
        if positions:
            parts.append(_("Horses, closest to the circle first: {horses}.", horses="; ".join(positions)))
    if odds is not None and view.get("winner") is None:
        ranked = sorted(running, key=lambda h: (-odds.win.get(str(h), 0.0), h))
        chances = "; ".join(
            _("horse {horse} {percent}% to win", horse=h, percent=odds.percent(str(h))) for h in ranked
        )
        if odds.exact or odds.samples is None:  # (exact odds have no samples)
            parts.append(_("Odds (exact): {chances}.", chances=chances))
        else:
            parts.append(
                _n(
                    "Odds (from {n} simulated race): {chances}.",
                    "Odds (from {n} simulated races): {chances}.",
                    odds.samples,
                    chances=chances,
                )
            )
    last = view.get("last_roll")
    if last:
        parts.append(
            _(
                "Last roll: {who} rolled {a} and {b}, total {total}.",
                who=seat_name(last.get("roller"), names),
                a=last["dice"][0],
                b=last["dice"][1],
                total=last["total"],
            )
        )
    parts.append(_status_line(view, names) + ".")
    return " ".join(parts)
