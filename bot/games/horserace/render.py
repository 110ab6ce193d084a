"""The board as a PNG, drawn from a public view only (so it shows nothing a player may not see).

Lanes run left to right and all end at the Champion Circle, so a horse's distance from the
circle is what it still has to run. The lanes, labels and frames depend only on the board, so
they are drawn once per layout and cached; each frame draws the tokens, scratches, dice and
money on a copy.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games.horserace.board import HORSES
from bot.games.horserace.narration import seat_name
from bot.games.horserace.scratch import MULTIPLIERS
from bot.paths import FONT_BOLD, FONT_REGULAR

WIDTH = 1180
MARGIN = 20
HEADER = 74
LANE_H = 40
LANE_GAP = 6
HOLDERS_W = 176
LABEL_W = 46
LANES_W = 696
CIRCLE_W = 196
PANEL_H = 150
LANES_TOP = HEADER + 10
LANES_BOTTOM = LANES_TOP + len(HORSES) * (LANE_H + LANE_GAP) - LANE_GAP
HEIGHT = LANES_BOTTOM + 16 + PANEL_H + MARGIN
LANES_X = MARGIN + HOLDERS_W + LABEL_W
FINISH_X = LANES_X + LANES_W
CIRCLE_CX = FINISH_X + 16 + CIRCLE_W // 2
CIRCLE_CY = (LANES_TOP + LANES_BOTTOM) // 2
CIRCLE_R = CIRCLE_W // 2 - 4
PANEL_Y = LANES_BOTTOM + 16

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


def _cell(moves: tuple[int, ...]) -> int:
    """Width of one square: the longest lane (start box + its squares) fills the lane area."""
    return min(46, LANES_W // max(moves))


def _slot_x(horse_moves: int, position: int, cell: int) -> int:
    """Left x of the square for ``position`` (0 = start box) in a lane of ``horse_moves`` moves."""
    return FINISH_X - (horse_moves - position) * cell


# --- the static background ---------------------------------------------------


@lru_cache(maxsize=8)
def _background(moves: tuple[int, ...], title: str) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), TURF)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=TURF_DARK)
    draw.text((MARGIN, 14), "THE HORSE RACE GAME", font=_font(26, True), fill=GOLD)
    draw.text((MARGIN, 47), title, font=_font(15), fill=CHALK)
    cell = _cell(moves)
    for horse, length in zip(HORSES, moves, strict=True):
        y = _lane_y(horse)
        start = _slot_x(length, 0, cell)
        # the lane: start box, then one square per move short of the circle
        draw.rounded_rectangle((start, y, FINISH_X, y + LANE_H), radius=8, fill=DIRT)
        for position in range(1, length):
            x = _slot_x(length, position, cell)
            draw.line((x, y + 4, x, y + LANE_H - 4), fill=DIRT_LINE, width=2)
        draw.rounded_rectangle((start + 2, y + 2, start + cell - 2, y + LANE_H - 2), radius=7, fill=CHALK)
        draw.text(
            (start + cell // 2, y + LANE_H // 2), str(horse), font=_font(15, True), fill=GREY, anchor="mm"
        )
        # the horse number on the left, in its colour
        colour = HORSE_COLOURS[horse]
        cx, cy = LANES_X - LABEL_W // 2, y + LANE_H // 2
        draw.ellipse((cx - 17, cy - 17, cx + 17, cy + 17), fill=colour, outline=CHALK, width=2)
        draw.text((cx, cy), str(horse), font=_font(16, True), fill=_ink_on(colour), anchor="mm")
    # the finish line (chequered) and the Champion Circle
    square = 6
    for row, y in enumerate(range(LANES_TOP, LANES_BOTTOM, square)):
        for col in range(2):
            fill = CHALK if (row + col) % 2 == 0 else INK
            draw.rectangle(
                (FINISH_X + col * square, y, FINISH_X + (col + 1) * square - 1, y + square - 1), fill=fill
            )
    box = (CIRCLE_CX - CIRCLE_R, CIRCLE_CY - CIRCLE_R, CIRCLE_CX + CIRCLE_R, CIRCLE_CY + CIRCLE_R)
    draw.ellipse(box, fill=TURF_DARK, outline=GOLD, width=6)
    draw.ellipse((box[0] + 12, box[1] + 12, box[2] - 12, box[3] - 12), outline=GOLD_DARK, width=2)
    draw.text((CIRCLE_CX, CIRCLE_CY - 58), "CHAMPION", font=_font(16, True), fill=GOLD, anchor="mm")
    draw.text((CIRCLE_CX, CIRCLE_CY - 38), "CIRCLE", font=_font(16, True), fill=GOLD, anchor="mm")
    # the panel: four scratch slots, the dice, the table
    draw.rounded_rectangle((MARGIN, PANEL_Y, WIDTH - MARGIN, PANEL_Y + PANEL_H), radius=12, fill=PANEL)
    draw.text((MARGIN + 14, PANEL_Y + 10), "SCRATCHES", font=_font(13, True), fill=GOLD)
    for slot, mult in enumerate(MULTIPLIERS, start=1):
        x = _scratch_slot_x(slot)
        draw.rounded_rectangle(
            (x, PANEL_Y + 32, x + 96, PANEL_Y + PANEL_H - 12), radius=10, outline=GOLD_DARK, width=2
        )
        draw.text((x + 48, PANEL_Y + 46), f"x{mult}", font=_font(18, True), fill=GOLD, anchor="mm")
        draw.text(
            (x + 48, PANEL_Y + PANEL_H - 24),
            f"{_ordinal(slot)} roll",
            font=_font(11),
            fill=CHALK,
            anchor="mm",
        )
    draw.text((DICE_X, PANEL_Y + 10), "LAST ROLL", font=_font(13, True), fill=GOLD)
    draw.text((STATUS_X, PANEL_Y + 10), "TABLE", font=_font(13, True), fill=GOLD)
    return image


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _scratch_slot_x(slot: int) -> int:
    return MARGIN + 14 + (slot - 1) * 106


DICE_X = _scratch_slot_x(5) + 16
STATUS_X = DICE_X + 236


# --- one frame ---------------------------------------------------------------


def render_board(view: dict[str, Any]) -> bytes:
    """A PNG of the board from a public ``view`` (``HorseRace.view(None)``).

    An optional ``view["names"]`` (list of player names, added by the host) labels the seats.
    """
    moves = tuple(int(view["board"]["moves"][str(h)]) for h in HORSES)
    image = _background(moves, str(view["board"].get("title", view["board"]["name"]))).copy()
    draw = ImageDraw.Draw(image)
    names: Sequence[str] | None = view.get("names")
    cell = _cell(moves)
    scratched = {entry["horse"]: entry for entry in view["scratched"]}
    last = view.get("last_roll") or {}
    winner = view.get("winner")

    _draw_header(draw, view)
    holders = _holders(view["hands"])
    for horse, length in zip(HORSES, moves, strict=True):
        y = _lane_y(horse)
        if horse in scratched:
            _draw_scratched_lane(
                draw, horse, length, cell, scratched[horse], highlight=last.get("horse") == horse
            )
            continue
        position = int(view["positions"][str(horse)])
        _draw_holders(draw, y, holders.get(horse, []), names)
        if position >= length:
            continue  # in the Champion Circle, drawn below
        x = _slot_x(length, position, cell)
        moved = last.get("kind") == "move" and last.get("horse") == horse
        _draw_token(
            draw,
            x + cell // 2,
            y + LANE_H // 2,
            horse,
            radius=min(16, cell // 2 - 2),
            ring=GOLD if moved else None,
        )
    if winner is not None:
        length = moves[HORSES.index(int(winner))]
        y = _lane_y(int(winner))
        draw.rounded_rectangle(
            (_slot_x(length, 0, cell) - 3, y - 3, FINISH_X + 2, y + LANE_H + 3),
            radius=10,
            outline=GOLD,
            width=3,
        )
        _draw_token(draw, CIRCLE_CX, CIRCLE_CY + 14, int(winner), radius=30, ring=GOLD)
        draw.text((CIRCLE_CX, CIRCLE_CY + 66), "WINNER", font=_font(15, True), fill=GOLD, anchor="mm")
    _draw_scratch_slots(draw, view["scratched"], last)
    _draw_dice(draw, last, names)
    _draw_status(draw, view, names)
    # A fast palette cut makes the file a third of the size and the encode faster than RGB.
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _draw_header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    race = view["race"]
    if race:
        of = f" of {view['races']}" if view.get("races") else ""
        text = f"Race {race}{of}"
    else:
        text = "Before the first race"
    if view.get("last_race") and view["phase"] != "over":
        text += " - last race"
    draw.text((WIDTH // 2 - 60, HEADER // 2), text, font=_font(24, True), fill=CHALK, anchor="mm")
    # the jackpot badge
    right = WIDTH - MARGIN
    draw.rounded_rectangle(
        (right - 220, 12, right, HEADER - 12), radius=14, fill=GOLD, outline=GOLD_DARK, width=3
    )
    draw.text((right - 200, HEADER // 2), "JACKPOT", font=_font(15, True), fill=INK, anchor="lm")
    draw.text((right - 16, HEADER // 2), f"${view['jackpot']}", font=_font(26, True), fill=INK, anchor="rm")


def _holders(hands: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    held: dict[int, list[int]] = {}
    for seat, hand in enumerate(hands):
        for card in hand:
            held.setdefault(card, []).append(seat)
    return held


def _draw_holders(draw: ImageDraw.ImageDraw, y: int, seats: list[int], names: Sequence[str] | None) -> None:
    """Who holds this horse's cards: one chip per card, right-aligned against the horse number."""
    x = LANES_X - LABEL_W - 4
    font = _font(11, True)
    for seat in reversed(seats[:4]):
        label = _short_name(seat, names)
        width = max(24, int(draw.textlength(label, font=font)) + 10)
        draw.rounded_rectangle((x - width, y + 9, x, y + LANE_H - 9), radius=6, fill=CHALK)
        draw.text((x - width // 2, y + LANE_H // 2), label, font=font, fill=INK, anchor="mm")
        x -= width + 4
    if len(seats) > 4:
        draw.text((x - 2, y + LANE_H // 2), f"+{len(seats) - 4}", font=font, fill=CHALK, anchor="rm")


def _short_name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        name = names[seat]
        return name if len(name) <= 5 else name[:4] + "."
    return f"P{seat + 1}"


def _draw_scratched_lane(
    draw: ImageDraw.ImageDraw, horse: int, length: int, cell: int, entry: dict[str, Any], highlight: bool
) -> None:
    y = _lane_y(horse)
    start = _slot_x(length, 0, cell)
    draw.rounded_rectangle((start, y, FINISH_X, y + LANE_H), radius=8, fill=GREY_LANE)
    cx, cy = LANES_X - LABEL_W // 2, y + LANE_H // 2
    draw.ellipse(
        (cx - 17, cy - 17, cx + 17, cy + 17),
        fill=GREY,
        outline=RED if highlight else CHALK,
        width=3 if highlight else 2,
    )
    draw.text((cx, cy), str(horse), font=_font(16, True), fill=CHALK, anchor="mm")
    font = _font(13, True)
    label = f"SCRATCHED  x{entry['multiplier']}"
    if draw.textlength(label, font=font) > FINISH_X - start - 16:
        label = f"OUT  x{entry['multiplier']}"
    draw.text(
        ((start + FINISH_X) // 2, cy),
        label,
        fill=(255, 150, 150) if highlight else (205, 205, 205),
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
    size = max(11, int(radius * 0.95)) if radius < 30 else int(radius * 0.9)
    draw.text((cx, cy), str(horse), font=_font(size, True), fill=_ink_on(colour), anchor="mm")


def _draw_scratch_slots(
    draw: ImageDraw.ImageDraw, scratched: Sequence[dict[str, Any]], last: dict[str, Any]
) -> None:
    for entry in scratched:
        x = _scratch_slot_x(entry["slot"])
        hit = last.get("kind") == "penalty" and last.get("horse") == entry["horse"]
        if hit:
            draw.rounded_rectangle(
                (x, PANEL_Y + 32, x + 96, PANEL_Y + PANEL_H - 12), radius=10, outline=RED, width=4
            )
        _draw_token(draw, x + 48, PANEL_Y + 84, entry["horse"], radius=20)


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
    r = size // 11
    for px, py in PIPS[value]:
        cx, cy = x + px * size, y + py * size
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)


def _draw_dice(draw: ImageDraw.ImageDraw, last: dict[str, Any], names: Sequence[str] | None) -> None:
    if not last:
        draw.text((DICE_X, PANEL_Y + 70), "no roll yet", font=_font(14), fill=CHALK)
        return
    d1, d2 = last["dice"]
    _draw_die(draw, DICE_X, PANEL_Y + 34, 58, d1)
    _draw_die(draw, DICE_X + 70, PANEL_Y + 34, 58, d2)
    draw.text(
        (DICE_X + 150, PANEL_Y + 63), f"= {last['total']}", font=_font(22, True), fill=CHALK, anchor="lm"
    )
    kind = last.get("kind")
    what = {
        "move": f"horse {last['horse']} "
        + ("wins!" if last.get("to", 0) >= last.get("moves", 99) else "moves"),
        "penalty": f"scratched! pays ${last.get('paid', 0)}",
        "scratch": f"scratches {last['horse']} (x{last.get('multiplier')})",
        "reroll": f"{last['horse']} already out",
    }.get(kind, "")
    colour = RED if kind == "penalty" else CHALK
    draw.text((DICE_X, PANEL_Y + 108), seat_name(last.get("roller"), names), font=_font(13, True), fill=GOLD)
    draw.text((DICE_X, PANEL_Y + 126), what, font=_font(13), fill=colour)


def _draw_status(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str] | None) -> None:
    x, y = STATUS_X, PANEL_Y + 32
    draw.text((x, y), _status_line(view, names), font=_font(15, True), fill=CHALK)
    # cash per seat, in up to three columns of five
    font = _font(12)
    sitting = set(view.get("sitting_out", []))
    col_w = (WIDTH - MARGIN - 14 - x) // 3
    for seat, cash in enumerate(view["cash"]):
        col, row = divmod(seat, 5)
        cx, cy = x + col * col_w, y + 26 + row * 17
        marker = "D " if seat == view.get("dealer") else ""
        label = f"{marker}{seat_name(seat, names)}"
        fill = GOLD if seat == view.get("turn") else ((160, 160, 160) if seat in sitting else CHALK)
        draw.text((cx, cy), label[:16], font=font, fill=fill)
        draw.text((cx + col_w - 14, cy), f"${cash}", font=_font(12, True), fill=fill, anchor="ra")


def _status_line(view: dict[str, Any], names: Sequence[str] | None) -> str:
    phase = view["phase"]
    if phase == "over":
        best = max(view["cash"])
        top = [seat_name(seat, names) for seat, cash in enumerate(view["cash"]) if cash == best]
        return f"Game over: {' and '.join(top)} {'win' if len(top) > 1 else 'wins'}"
    if phase == "between":
        return "Waiting for the next race" if view["race"] else "Waiting for the first race"
    who = seat_name(view.get("turn"), names)
    return f"{who} to roll" + (" (scratch round)" if phase == "scratch" else "")


# --- for screen readers ------------------------------------------------------


def alt_text(view: dict[str, Any]) -> str:
    """The picture in words."""
    names: Sequence[str] | None = view.get("names")
    moves = {int(h): int(m) for h, m in view["board"]["moves"].items()}
    parts: list[str] = []
    if view["race"]:
        of = f" of {view['races']}" if view.get("races") else ""
        parts.append(f"The Horse Race Game, race {view['race']}{of}.")
    else:
        parts.append("The Horse Race Game, before the first race.")
    parts.append(f"Jackpot ${view['jackpot']}.")
    if view["scratched"]:
        parts.append(
            "Scratched: "
            + ", ".join(f"horse {e['horse']} (x{e['multiplier']})" for e in view["scratched"])
            + "."
        )
    out = {e["horse"] for e in view["scratched"]}
    running = [h for h in HORSES if h not in out]
    if view.get("winner") is not None:
        parts.append(f"Horse {view['winner']} is in the Champion Circle.")
    if view["phase"] in ("scratch", "race") or view.get("winner") is not None:
        ahead = sorted(running, key=lambda h: (moves[h] - int(view["positions"][str(h)]), h))
        positions = [
            f"{h}: {moves[h] - int(view['positions'][str(h)])} to go"
            for h in ahead
            if h != view.get("winner")
        ]
        if positions:
            parts.append("Horses, closest to the circle first: " + "; ".join(positions) + ".")
    last = view.get("last_roll")
    if last:
        parts.append(
            f"Last roll: {seat_name(last.get('roller'), names)} rolled {last['dice'][0]} and {last['dice'][1]}, total {last['total']}."
        )
    parts.append(_status_line(view, names) + ".")
    return " ".join(parts)
