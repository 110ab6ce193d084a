"""The board as a PNG, drawn from a public view only (so it shows nothing a player may not see).

Lanes run left to right and all end at the Champion Circle. Every lane spans the whole width, its
squares as wide as its length allows (horse 2's three squares are wide, horse 7's seventeen narrow),
so a token's place along its lane is how far through its race it is, and no part of the picture is
left empty. Right of the finish line each horse's row shows its chance to win when odds are given. The lanes, labels and frames depend only on the board (and the
language of their words), so they are drawn once per layout and language and cached; each frame
draws the tokens, scratches, dice and money on a copy. Every word is in the current language
(``bot.i18n``), read at draw time.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games import catalog
from bot.games.horserace.board import HORSES
from bot.games.horserace.narration import joined, seat_name
from bot.games.horserace.scratch import MULTIPLIERS
from bot.games.odds import Odds
from bot.games.text_fit import fit_text
from bot.i18n import Language, _, _n, current
from bot.i18n.formatting import money
from bot.paths import FONT_BOLD, FONT_REGULAR

# Discord shows the picture about 520 px wide, so sizes are chosen for that: text that matters is
# at least 22 px here (about 10 px on screen), and what could not be that big was dropped (the
# "1st roll" captions under the scratch slots, the "TABLE" title) rather than shrunk.
WIDTH = 1200
MARGIN = 20
HEADER = 68
LANE_H = 42
LANE_GAP = 4
HOLDERS_W = 250  # four chips of "P15" in 22 px type
LABEL_W = 50
CIRCLE_W = 176
PANEL_H = 184
LANES_TOP = HEADER + 8
LANES_BOTTOM = LANES_TOP + len(HORSES) * (LANE_H + LANE_GAP) - LANE_GAP
PANEL_Y = LANES_BOTTOM + 12
HEIGHT = PANEL_Y + PANEL_H + 14
LANES_X = MARGIN + HOLDERS_W + LABEL_W
FINISH_X = WIDTH - MARGIN - CIRCLE_W - 14
LANES_W = FINISH_X - LANES_X
CIRCLE_CX = FINISH_X + 14 + CIRCLE_W // 2
CIRCLE_CY = (LANES_TOP + LANES_BOTTOM) // 2
CIRCLE_R = CIRCLE_W // 2 - 4
CIRCLE_BOX = (FINISH_X + 16, LANES_TOP - 6, WIDTH - MARGIN, LANES_BOTTOM + 6)
ODDS_BAR_X = CIRCLE_BOX[0] + 14
ODDS_BAR_W = 78
LABEL_CX = LANES_X - LABEL_W // 2  # centre of the horse-number badges left of the lanes
CHIP_H = 32
CHIPS_RIGHT = LANES_X - LABEL_W - 4  # holder chips are right-aligned against the badges
TITLE_W = 400  # the game's and the board's titles, top left

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


@lru_cache(maxsize=32)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), size)


def _ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else CHALK


def _lane_y(horse: int) -> int:
    return LANES_TOP + (horse - HORSES[0]) * (LANE_H + LANE_GAP)


def _cell(length: int) -> float:
    """Width of one square of a lane of ``length`` moves (start box included): the lane fills the width."""
    return LANES_W / max(1, length)


def _slot_x(horse_moves: int, position: int, cell: float | None = None) -> int:
    """Left x of the square for ``position`` (0 = start box) in a lane of ``horse_moves`` moves."""
    return round(LANES_X + position * _cell(horse_moves))


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
    draw.rectangle((0, 0, WIDTH, HEADER), fill=TURF_DARK)
    draw.text(
        (MARGIN, 7), fit_text(game_title().upper(), _font(26, True), TITLE_W), font=_font(26, True), fill=GOLD
    )
    draw.text((MARGIN, 38), fit_text(title, _font(22), 400), font=_font(22), fill=CHALK)
    for horse, length in zip(HORSES, moves, strict=True):
        y = _lane_y(horse)
        cell = round(_cell(length))
        start = _slot_x(length, 0)
        # the lane: start box, then one square per move short of the circle
        draw.rounded_rectangle((start, y, FINISH_X, y + LANE_H), radius=8, fill=DIRT)
        for position in range(1, length):
            x = _slot_x(length, position)
            draw.line((x, y + 4, x, y + LANE_H - 4), fill=DIRT_LINE, width=2)
        draw.rounded_rectangle((start + 2, y + 2, start + cell - 2, y + LANE_H - 2), radius=7, fill=CHALK)
        draw.text(
            (start + cell // 2, y + LANE_H // 2), str(horse), font=_font(20, True), fill=GREY, anchor="mm"
        )
        # the horse number on the left, in its colour
        colour = HORSE_COLOURS[horse]
        _draw_badge(draw, horse, y, fill=colour, outline=CHALK, width=2, ink=_ink_on(colour))
    # the finish line (chequered) and the Champion Circle, named above it
    square = 6
    for row, y in enumerate(range(LANES_TOP, LANES_BOTTOM, square)):
        for col in range(2):
            fill = CHALK if (row + col) % 2 == 0 else INK
            draw.rectangle(
                (FINISH_X + col * square, y, FINISH_X + (col + 1) * square - 1, y + square - 1), fill=fill
            )
    # The Champion Circle: a gold enclosure right of the line, one row per horse (its odds, or the winner).
    draw.rounded_rectangle(CIRCLE_BOX, radius=18, fill=TURF_DARK, outline=GOLD, width=4)
    # the panel: four scratch slots, the dice, the table
    draw.rounded_rectangle((MARGIN, PANEL_Y, WIDTH - MARGIN, PANEL_Y + PANEL_H), radius=12, fill=PANEL)
    draw.text((MARGIN + 14, PANEL_Y + 10), _("SCRATCHES"), font=_font(22, True), fill=GOLD)
    for slot, mult in enumerate(MULTIPLIERS, start=1):
        x = _scratch_slot_x(slot)
        draw.rounded_rectangle((x, SLOT_TOP, x + SLOT_W, SLOT_BOTTOM), radius=10, outline=GOLD_DARK, width=2)
        draw.text((x + SLOT_W // 2, SLOT_TOP + 22), f"x{mult}", font=_font(28, True), fill=GOLD, anchor="mm")
        cy = SLOT_TOKEN_Y
        draw.ellipse(
            (x + SLOT_W // 2 - 26, cy - 26, x + SLOT_W // 2 + 26, cy + 26), outline=GOLD_DARK, width=2
        )
    draw.text((DICE_X, PANEL_Y + 10), _("LAST ROLL"), font=_font(22, True), fill=GOLD)
    draw.line((DICE_X - 16, PANEL_Y + 14, DICE_X - 16, PANEL_Y + PANEL_H - 14), fill=TURF, width=2)
    draw.line((STATUS_X - 16, PANEL_Y + 14, STATUS_X - 16, PANEL_Y + PANEL_H - 14), fill=TURF, width=2)
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
    """The horse's number in a disc left of its lane, where the eye starts reading the row."""
    cx, cy = LABEL_CX, y + LANE_H // 2
    draw.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), fill=fill, outline=outline, width=width)
    draw.text((cx, cy), str(horse), font=_font(22, True), fill=ink, anchor="mm")


SLOT_W, SLOT_GAP = 90, 8
SLOT_TOP = PANEL_Y + 42
SLOT_BOTTOM = PANEL_Y + PANEL_H - 12
SLOT_TOKEN_Y = SLOT_BOTTOM - 38


def _scratch_slot_x(slot: int) -> int:
    return MARGIN + 14 + (slot - 1) * (SLOT_W + SLOT_GAP)


DICE_X = _scratch_slot_x(5) + 24
STATUS_X = DICE_X + 262
TABLE_ROWS = 5  # seats per column of the cash table


# --- one frame ---------------------------------------------------------------


def render_board(view: dict[str, Any], *, odds: Odds | None = None) -> bytes:
    """A PNG of the board from a public ``view`` (``HorseRace.view(None)``).

    An optional ``view["names"]`` (list of player names, added by the host) labels the seats;
    ``odds`` (from ``bot.games.horserace.odds.odds``) draws each horse's chance to win as a bar.
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

    _draw_header(draw, view)
    holders = _holders(view["hands"])
    use_names = _chips_show_names(draw, holders, names)
    for horse, length in zip(HORSES, moves, strict=True):
        y = _lane_y(horse)
        if horse in scratched:
            _draw_scratched_lane(
                draw, horse, length, 0, scratched[horse], highlight=last.get("horse") == horse
            )
            continue
        position = int(view["positions"][str(horse)])
        _draw_holders(draw, y, holders.get(horse, []), names, use_names)
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
            radius=min(19, int(cell // 2)),
            ring=GOLD if moved else None,
        )
    if winner is not None:
        y = _lane_y(int(winner))
        draw.rounded_rectangle(
            (LANES_X - 3, y - 3, FINISH_X + 2, y + LANE_H + 3), radius=10, outline=GOLD, width=3
        )
        cx = ODDS_BAR_X + 22
        _draw_token(draw, cx, y + LANE_H // 2, int(winner), radius=19, ring=GOLD)
        draw.text((cx + 30, y + LANE_H // 2), _("WINNER"), font=_font(22, True), fill=GOLD, anchor="lm")
    _draw_scratch_slots(draw, view["scratched"], last)
    _draw_dice(draw, last, names)
    _draw_status(draw, view, names, use_names)
    # A fast palette cut makes the file a third of the size and the encode faster than RGB.
    return image.quantize(256, method=Image.Quantize.FASTOCTREE)


def _draw_odds(draw: ImageDraw.ImageDraw, y: int, horse: int, odds: Odds) -> None:
    """The horse's chance to win: a bar in its colour and a whole percentage, in its row of the circle."""
    p = odds.win.get(str(horse), 0.0)
    cy = y + LANE_H // 2
    draw.rounded_rectangle((ODDS_BAR_X, cy - 9, ODDS_BAR_X + ODDS_BAR_W, cy + 9), radius=5, fill=TURF)
    if p > 0:
        width = max(6, round(ODDS_BAR_W * p))
        draw.rounded_rectangle(
            (ODDS_BAR_X, cy - 9, ODDS_BAR_X + width, cy + 9),
            radius=5,
            fill=HORSE_COLOURS[horse],
            outline=CHALK,
        )
    draw.text(
        (CIRCLE_BOX[2] - 12, cy),
        f"{odds.percent(str(horse))}%",
        font=_font(22, True),
        fill=CHALK,
        anchor="rm",
    )


def _draw_header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
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
    # Between the titles on the left and the jackpot badge, smaller type if a language needs the room.
    right = WIDTH - MARGIN
    left = MARGIN + max(
        _font(26, True).getlength(fit_text(game_title().upper(), _font(26, True), TITLE_W)),
        _font(22).getlength(fit_text(board_title(view["board"]), _font(22), TITLE_W)),
    )
    room = right - 260 - left - 32
    size = next((size for size in (30, 28, 26, 24) if _font(size, True).getlength(text) <= room), 22)
    half = min(room, _font(size, True).getlength(text)) / 2
    centre = min(max(WIDTH // 2 + 20, left + 16 + half), right - 260 - 16 - half)
    draw.text(
        (centre, HEADER // 2),
        fit_text(text, _font(size, True), room),
        font=_font(size, True),
        fill=CHALK,
        anchor="mm",
    )
    # the jackpot badge
    draw.rounded_rectangle(
        (right - 260, 9, right, HEADER - 9), radius=14, fill=GOLD, outline=GOLD_DARK, width=3
    )
    draw.text((right - 242, HEADER // 2), _("JACKPOT"), font=_font(22, True), fill=INK, anchor="lm")
    draw.text((right - 16, HEADER // 2), money(view["jackpot"]), font=_font(34, True), fill=INK, anchor="rm")


def _holders(hands: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    held: dict[int, list[int]] = {}
    for seat, hand in enumerate(hands):
        for card in hand:
            held.setdefault(card, []).append(seat)
    return held


_CHIP_FONT_SIZE = 22
_CHIP_PAD = 6  # text to chip edge, each side
_CHIP_GAP = 3


def _chips_width(draw: ImageDraw.ImageDraw, labels: Sequence[str]) -> float:
    font = _font(_CHIP_FONT_SIZE, True)
    return sum(max(32, draw.textlength(label, font=font) + 2 * _CHIP_PAD) + _CHIP_GAP for label in labels)


def _chips_show_names(
    draw: ImageDraw.ImageDraw, holders: dict[int, list[int]], names: Sequence[str] | None
) -> bool:
    """Whether the holder chips can carry (short) names: only if every lane's chips still fit.

    Otherwise every chip shows the seat as "P3", and the cash table pairs each "P3" with its
    name, so one rule holds for the whole picture instead of names in some lanes only.
    """
    if names is None:
        return False
    return all(
        _chips_width(draw, [_short_name(seat, names) for seat in seats[:4]]) <= CHIPS_RIGHT - MARGIN
        for seats in holders.values()
    )


def _chip_label(seat: int, names: Sequence[str] | None, use_names: bool) -> str:
    return _short_name(seat, names) if use_names else _player_code(seat)


def _player_code(seat: int) -> str:
    """A seat in two characters, where a name does not fit: "P3" (player 3)."""
    return _("P{number}", number=seat + 1)


def _draw_holders(
    draw: ImageDraw.ImageDraw, y: int, seats: list[int], names: Sequence[str] | None, use_names: bool
) -> None:
    """Who holds this horse's cards: one chip per card, right-aligned against the horse number."""
    x = CHIPS_RIGHT
    font = _font(_CHIP_FONT_SIZE, True)
    top = y + (LANE_H - CHIP_H) // 2
    for seat in reversed(seats[:4]):
        label = _chip_label(seat, names, use_names)
        width = int(max(32, draw.textlength(label, font=font) + 2 * _CHIP_PAD))
        draw.rounded_rectangle((x - width, top, x, top + CHIP_H), radius=8, fill=CHALK)
        draw.text((x - width / 2, y + LANE_H // 2), label, font=font, fill=INK, anchor="mm")
        x -= width + _CHIP_GAP
    if len(seats) > 4:
        draw.text((x - 2, y + LANE_H // 2), f"+{len(seats) - 4}", font=font, fill=CHALK, anchor="rm")


def _short_name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        name = names[seat]
        return name if len(name) <= 5 else name[:4] + "."
    return _player_code(seat)


def _draw_scratched_lane(
    draw: ImageDraw.ImageDraw, horse: int, length: int, cell: float, entry: dict[str, Any], highlight: bool
) -> None:
    y = _lane_y(horse)
    start = _slot_x(length, 0)
    draw.rounded_rectangle((start, y, FINISH_X, y + LANE_H), radius=8, fill=GREY_LANE)
    _draw_badge(
        draw, horse, y, fill=GREY, outline=RED if highlight else CHALK, width=4 if highlight else 2, ink=CHALK
    )
    font = _font(22, True)
    room = FINISH_X - start - 12
    multiplier = entry["multiplier"]
    label = _("SCRATCHED  x{multiplier}", multiplier=multiplier)
    for shorter in (_("OUT x{multiplier}", multiplier=multiplier), f"x{multiplier}"):
        if draw.textlength(label, font=font) <= room:
            break
        label = shorter
    draw.text(
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
) -> None:
    colour = HORSE_COLOURS[horse]
    if ring is not None:
        draw.ellipse((cx - radius - 4, cy - radius - 4, cx + radius + 4, cy + radius + 4), fill=ring)
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=INK, width=2)
    # Big enough that a two-digit number still reads at Discord's size: 22 px on a lane token.
    size = max(14, round(radius * 1.16)) if radius < 30 else int(radius * 0.95)
    draw.text((cx, cy), str(horse), font=_font(size, True), fill=_ink_on(colour), anchor="mm")


def _draw_scratch_slots(
    draw: ImageDraw.ImageDraw, scratched: Sequence[dict[str, Any]], last: dict[str, Any]
) -> None:
    for entry in scratched:
        x = _scratch_slot_x(entry["slot"])
        hit = last.get("kind") == "penalty" and last.get("horse") == entry["horse"]
        if hit:
            draw.rounded_rectangle((x, SLOT_TOP, x + SLOT_W, SLOT_BOTTOM), radius=10, outline=RED, width=4)
        _draw_token(draw, x + SLOT_W // 2, SLOT_TOKEN_Y, entry["horse"], radius=26)


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
    if not last:
        draw.text((DICE_X, PANEL_Y + 90), _("no roll yet"), font=_font(22), fill=CHALK, anchor="lm")
        return
    d1, d2 = last["dice"]
    top, size = PANEL_Y + 44, 60
    _draw_die(draw, DICE_X, top, size, d1)
    _draw_die(draw, DICE_X + size + 10, top, size, d2)
    draw.text(
        (DICE_X + 2 * size + 22, top + size // 2),
        f"= {last['total']}",
        font=_font(34, True),
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
    room = STATUS_X - 28 - DICE_X
    roller = fit_text(seat_name(last.get("roller"), names), _font(22, True), room)
    draw.text((DICE_X, PANEL_Y + 114), roller, font=_font(22, True), fill=GOLD)
    draw.text((DICE_X, PANEL_Y + 142), fit_text(what, _font(22), room), font=_font(22), fill=colour)


def _draw_status(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str] | None, use_names: bool
) -> None:
    """Whose turn it is, then every seat's cash in columns of five: gold for the seat to roll,
    grey for seats sitting out, "D" before the dealer."""
    x, right = STATUS_X, WIDTH - MARGIN - 14
    draw.text(
        (x, PANEL_Y + 10),
        fit_text(_status_line(view, names), _font(24, True), right - x),
        font=_font(24, True),
        fill=CHALK,
    )
    font, cash_font = _font(22), _font(22, True)
    sitting = set(view.get("sitting_out", []))
    seats = len(view["cash"])
    columns = max(1, -(-seats // TABLE_ROWS))
    col_w = min(290, (right - x) // columns)  # a narrow column keeps a name next to its cash
    for seat, cash in enumerate(view["cash"]):
        col, row = divmod(seat, TABLE_ROWS)
        cx, cy = x + col * col_w, PANEL_Y + 46 + row * 26
        cash_text = money(cash)
        cash_w = draw.textlength(cash_text, font=cash_font)
        marker = "D " if seat == view.get("dealer") else ""
        cash_right = cx + col_w - 16
        room = cash_right - cash_w - 10 - cx - font.getlength(marker)
        label = f"{marker}{_table_name(seat, names, use_names, columns, room)}"
        fill = GOLD if seat == view.get("turn") else ((160, 160, 160) if seat in sitting else CHALK)
        draw.text((cx, cy), fit_text(label, font, cash_right - cash_w - 10 - cx), font=font, fill=fill)
        draw.text((cash_right, cy), cash_text, font=cash_font, fill=fill, anchor="ra")


def _table_name(seat: int, names: Sequence[str] | None, use_names: bool, columns: int, room: float) -> str:
    """A seat's name in the cash table. When the chips show "P3" rather than names, the table
    says "P3" too (followed by the name when it fits), so a chip can be looked up."""
    if use_names or names is None and columns == 1:
        return seat_name(seat, names)
    short = _player_code(seat)
    if names is None:
        return short
    both = f"{short} {seat_name(seat, names)}"
    return both if _font(22).getlength(both) <= room else short


def _status_line(view: dict[str, Any], names: Sequence[str] | None) -> str:
    phase = view["phase"]
    if phase == "over":
        best = max(view["cash"])
        top = [seat_name(seat, names) for seat, cash in enumerate(view["cash"]) if cash == best]
        if len(top) > 1:
            return _("Game over: {who} win", who=joined(top))
        return _("Game over: {who} wins", who=joined(top))
    if phase == "between":
        return _("Waiting for the next race") if view["race"] else _("Waiting for the first race")
    who = seat_name(view.get("turn"), names)
    if phase == "scratch":
        return _("{who} to roll (scratch round)", who=who)
    return _("{who} to roll", who=who)


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
