"""The track as a PNG, drawn from a public view only (so it shows nothing a player may not see).

``render_track(view)`` is a plain function from ``game.view(None)`` to PNG bytes (call it in a
thread from async code); ``alt_text(view)`` says the same in words. The track, its lines, the
finish and the space markings depend only on the track, so they are drawn once per track and
cached; each frame adds the cars, the places and the header on a copy.

Markings: rectangular spaces are plain asphalt, curved spaces a bluer grey; a tight (one-car)
space has an amber outline; a rumble strip is a red-and-white kerb on the space's outer edge;
the yellow betting lines and the chequered finish cross the track at the back of their row.
Special tracks: a cracked space is dark with a jagged white crack; a crossover loop's spaces have
a violet outline (a white bar marks its entry and exit); a ramp is a sand-coloured space with an
arrow, and a dashed sand line to its landing space (ringed); animals are brown discs with their
initial (A antelope, E elephant, P python), drawn each frame where they stand.
Text is at least 22 px at 1200 px wide (about 10 px where Discord shows the picture).
"""

from __future__ import annotations

import io
import math
import statistics
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games.downforce.cards import COLOURS
from bot.games.downforce.narration import animal_name, card_text, colour_name, seat_name
from bot.games.downforce.track import FINISH
from bot.games.odds import Odds
from bot.games.text_fit import fit_text, wrap_text
from bot.i18n import _, _p
from bot.i18n.formatting import ordinal
from bot.paths import FONT_BOLD, FONT_REGULAR

WIDTH = 1200
HEIGHT = 860
LANE_W = 54
GRASS = (38, 92, 52)
GRASS_DARK = (30, 76, 42)
ASPHALT = (92, 94, 100)
ASPHALT_CURVED = (84, 96, 122)
EDGE = (222, 222, 222)
TIGHT = (255, 166, 0)
KERB_RED = (214, 40, 40)
KERB_WHITE = (245, 245, 245)
YELLOW_LINE = (255, 221, 0)
INK = (24, 24, 24)
PAPER = (246, 246, 240)
PANEL = (16, 52, 30)
FAINT = (150, 170, 155)
CRACK = (44, 40, 40)
LOOP = (176, 96, 240)
RAMP = (222, 190, 120)
ANIMAL = (120, 78, 40)
ANIMAL_LABEL = {"antelope": "A", "elephant": "E", "python": "P"}

CAR_RGB: dict[str, tuple[int, int, int]] = {
    "black": (28, 28, 28),
    "blue": (36, 104, 232),
    "green": (30, 160, 70),
    "yellow": (250, 214, 30),
    "orange": (246, 134, 22),
    "red": (222, 38, 38),
}


def car_label(colour: str) -> str:
    """The two letters on a car's disc, from its colour's name in the reader's language."""
    return {
        "black": _p("car disc", "Bk"),
        "blue": _p("car disc", "Bl"),
        "green": _p("car disc", "Gr"),
        "yellow": _p("car disc", "Ye"),
        "orange": _p("car disc", "Or"),
        "red": _p("car disc", "Rd"),
    }[colour]


ODDS_W = 48
"""Width of a full (100%) odds bar in the places panel."""
DARK_TEXT = {"yellow", "orange"}


@lru_cache(maxsize=16)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), size)


# --- geometry --------------------------------------------------------------------------


class Geometry:
    """Corners of every space, from the track's drawing positions."""

    def __init__(self, track: dict[str, Any]) -> None:
        self.spaces = {s["id"]: s for s in track["spaces"]}
        lengths = []
        for s in track["spaces"]:
            nxt = self.spaces.get(s.get("straight", ""))
            if nxt is not None:
                lengths.append(math.dist((s["x"], s["y"]), (nxt["x"], nxt["y"])))
        self.length = statistics.median(lengths) if lengths else LANE_W
        xs = [s["x"] for s in track["spaces"]]
        ys = [s["y"] for s in track["spaces"]]
        self.centre = (sum(xs) / len(xs), sum(ys) / len(ys))
        self.last_row = max(s["row"] for s in track["spaces"])

    def axes(self, ident: str) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        s = self.spaces[ident]
        a = math.radians(s.get("angle", 0.0))
        forward = (math.cos(a), math.sin(a))
        left = (forward[1], -forward[0])
        return (s["x"], s["y"]), forward, left

    def corners(self, ident: str, shrink: float = 1.0, widen: float = 1.0) -> list[tuple[float, float]]:
        """Back-left, front-left, front-right, back-right."""
        (x, y), f, lf = self.axes(ident)
        h, w = self.length / 2 * shrink, LANE_W / 2 * shrink * widen
        return [
            (x - f[0] * h + lf[0] * w, y - f[1] * h + lf[1] * w),
            (x + f[0] * h + lf[0] * w, y + f[1] * h + lf[1] * w),
            (x + f[0] * h - lf[0] * w, y + f[1] * h - lf[1] * w),
            (x - f[0] * h - lf[0] * w, y - f[1] * h - lf[1] * w),
        ]


def _outer_edge(geo: Geometry, ident: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The long edge of a space at the side of the road (where a kerb goes): its left edge if no
    space of its row lies to its left, else its right edge."""
    c = geo.corners(ident)
    s = geo.spaces[ident]
    has_left = any(o["row"] == s["row"] and o["lane"] == s["lane"] - 1 for o in geo.spaces.values())
    return (c[3], c[2]) if has_left else (c[0], c[1])


# --- the cached track -------------------------------------------------------------------


@lru_cache(maxsize=8)
def _background(key: str, track_json: str) -> tuple[Image.Image, Geometry, Image.Image]:
    import json

    track = json.loads(track_json)
    geo = Geometry(track)
    img = Image.new("RGB", (WIDTH, HEIGHT), GRASS)
    draw = ImageDraw.Draw(img)
    for stripe in range(0, HEIGHT, 40):
        draw.rectangle((0, stripe, WIDTH, stripe + 19), fill=GRASS_DARK)
    # A verge under the road, so the track reads as one ribbon.
    for s in track["spaces"]:
        draw.polygon(geo.corners(s["id"], 1.18), fill=EDGE)
    for s in track["spaces"]:
        fill = ASPHALT_CURVED if s.get("shape") == "curved" else ASPHALT
        draw.polygon(geo.corners(s["id"], 1.02), fill=fill)
    for s in track["spaces"]:
        corners = geo.corners(s["id"], 0.94)
        if s.get("tight"):
            draw.polygon(corners, outline=TIGHT, width=5)
        else:
            draw.polygon(corners, outline=(150, 152, 160), width=2)
        if s.get("rumble"):
            a, b = _outer_edge(geo, s["id"])
            _kerb(draw, a, b)
        _feature(draw, geo, s)
    for row in track["lines"]:
        for s in track["spaces"]:
            if s["row"] == row:
                # A little wider than the road, so a line across a one-car bottleneck still shows.
                c = geo.corners(s["id"], 1.0, widen=1.35)
                draw.line([c[0], c[3]], fill=YELLOW_LINE, width=8)
    for s in track["spaces"]:
        if FINISH in s["ahead"]:
            _chequer(draw, geo, s["id"])
    for slot, ident in enumerate(track.get("grid", []), start=1):
        if ident in geo.spaces:
            (x, y), _f, _l = geo.axes(ident)
            draw.text((x, y), str(slot), font=_font(22, True), fill=(150, 150, 156), anchor="mm")
    return img, geo, _palette_for(img)


def _feature(draw: ImageDraw.ImageDraw, geo: Geometry, s: dict[str, Any]) -> None:
    """The markings of the special tracks' features on one space."""
    ident = s["id"]
    if s.get("crack"):
        draw.polygon(geo.corners(ident, 0.9), fill=CRACK)
        (x, y), f, r = geo.axes(ident)
        pts = [
            (x + f[0] * d + r[0] * w, y + f[1] * d + r[1] * w)
            for d, w in ((-20, -8), (-7, 8), (6, -8), (20, 6))
        ]
        draw.line(pts, fill=PAPER, width=3)
    if s.get("loop"):
        draw.polygon(geo.corners(ident, 0.94), outline=LOOP, width=5)
        if s.get("loop_entry") or s.get("loop_exit"):
            c = geo.corners(ident, 1.0)
            edge = (c[0], c[3]) if s.get("loop_entry") else (c[1], c[2])
            draw.line(edge, fill=PAPER, width=6)
    ramp = s.get("ramp")
    if ramp:
        draw.polygon(geo.corners(ident, 0.86), fill=RAMP)
        (x, y), f, r = geo.axes(ident)
        tip = (x + f[0] * 16, y + f[1] * 16)
        draw.polygon(
            [
                tip,
                (x - f[0] * 10 + r[0] * 12, y - f[1] * 10 + r[1] * 12),
                (x - f[0] * 10 - r[0] * 12, y - f[1] * 10 - r[1] * 12),
            ],
            fill=INK,
        )
        if ramp["to"] in geo.spaces:
            (lx, ly), _f, _l = geo.axes(ramp["to"])
            steps = 10
            for i in range(0, steps, 2):
                a = (x + (lx - x) * i / steps, y + (ly - y) * i / steps)
                b = (x + (lx - x) * (i + 1) / steps, y + (ly - y) * (i + 1) / steps)
                draw.line([a, b], fill=RAMP, width=5)
            draw.ellipse((lx - 20, ly - 20, lx + 20, ly + 20), outline=RAMP, width=4)


def _animal(draw: ImageDraw.ImageDraw, centre: tuple[float, float], kind: str) -> None:
    x, y = centre
    r = 22
    draw.ellipse((x - r, y - r, x + r, y + r), fill=ANIMAL, outline=RAMP, width=3)
    draw.text((x, y), ANIMAL_LABEL.get(kind, "?"), font=_font(24, True), fill=PAPER, anchor="mm")


def _palette_for(background: Image.Image) -> Image.Image:
    """A palette image with the track's colours and everything a frame adds (cars, panel, text).

    Mapping each frame onto one fixed palette is many times faster than choosing a palette per
    frame, and keeps the PNG small.
    """
    sample = background.copy()
    draw = ImageDraw.Draw(sample)
    for i, colour in enumerate(COLOURS):
        _car(draw, (60 + 70 * i, 100), colour, moved=True)
    _animal(draw, (480, 100), "elephant")
    draw.rounded_rectangle((500, 80, 900, 160), radius=14, fill=PANEL, outline=PAPER, width=2)
    draw.text((520, 90), "Places 1st 2nd Seat row", font=_font(24, True), fill=PAPER)
    draw.text((520, 120), "Last card: red 4", font=_font(22), fill=YELLOW_LINE)
    return sample.quantize(colors=200, method=Image.Quantize.MEDIANCUT)


def _kerb(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float]) -> None:
    parts = 4
    for i in range(parts):
        p = (a[0] + (b[0] - a[0]) * i / parts, a[1] + (b[1] - a[1]) * i / parts)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / parts, a[1] + (b[1] - a[1]) * (i + 1) / parts)
        draw.line([p, q], fill=KERB_RED if i % 2 == 0 else KERB_WHITE, width=9)


def _chequer(draw: ImageDraw.ImageDraw, geo: Geometry, ident: str) -> None:
    c = geo.corners(ident, 1.0)
    front_left, front_right = c[1], c[2]
    _centre, f, _left = geo.axes(ident)
    cells = 6
    depth = 12
    for i in range(cells):
        for j in range(2):
            t0, t1 = i / cells, (i + 1) / cells
            p0 = (
                front_left[0] + (front_right[0] - front_left[0]) * t0,
                front_left[1] + (front_right[1] - front_left[1]) * t0,
            )
            p1 = (
                front_left[0] + (front_right[0] - front_left[0]) * t1,
                front_left[1] + (front_right[1] - front_left[1]) * t1,
            )
            off0, off1 = depth * j / 2, depth * (j + 1) / 2
            quad = [
                (p0[0] + f[0] * off0, p0[1] + f[1] * off0),
                (p1[0] + f[0] * off0, p1[1] + f[1] * off0),
                (p1[0] + f[0] * off1, p1[1] + f[1] * off1),
                (p0[0] + f[0] * off1, p0[1] + f[1] * off1),
            ]
            draw.polygon(quad, fill=INK if (i + j) % 2 == 0 else PAPER)


# --- a frame ------------------------------------------------------------------------------


def _car(draw: ImageDraw.ImageDraw, centre: tuple[float, float], colour: str, *, moved: bool) -> None:
    x, y = centre
    r = 23
    if moved:
        draw.ellipse((x - r - 6, y - r - 6, x + r + 6, y + r + 6), outline=(255, 255, 255), width=4)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=CAR_RGB[colour], outline=PAPER, width=3)
    ink = INK if colour in DARK_TEXT else PAPER
    draw.text((x, y), car_label(colour), font=_font(22, True), fill=ink, anchor="mm")


def _seat(seat: int | None, view: dict[str, Any]) -> str:
    """A seat as players know it: its name when the view carries ``names`` (the bot adds them), else
    ``Seat n``."""
    names = view.get("names") or []
    if seat is None:
        return _("unsold")
    return str(names[seat]) if seat < len(names) else seat_name(seat)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    title = view["track"].get("title", view["track"].get("name", "Track"))
    draw.rectangle((0, 0, WIDTH, 58), fill=PANEL)
    draw.text((18, 29), title, font=_font(30, True), fill=PAPER, anchor="lm")
    status = _status(view)
    draw.text((WIDTH - 18, 29), fit_text(status, _font(24), 780), font=_font(24), fill=PAPER, anchor="rm")


def _status(view: dict[str, Any]) -> str:
    phase = view["phase"]
    if phase == "auction":
        a = view["auction"]
        return _(
            "Auction {number} of 6: the {colour} car", number=a["number"], colour=colour_name(a["colour"])
        )
    if phase == "keep":
        return _("Powers: players with several keep one in secret")
    if phase == "over":
        if view.get("ended_by") == "finish":
            return _("Race over (every car finished)")
        return _("Race over (the cards ran out)")
    played = view.get("cards_played", 0)
    if phase == "bet":
        return _(
            "Card {number}: secret bets at the yellow line on row {row}", number=played, row=view["bet_line"]
        )
    turn = view.get("turn")
    if turn is None:
        return _("Card {number} played", number=played)
    return _("Card {number} played - {seat} to play", number=played, seat=_seat(turn, view))


def _where(view: dict[str, Any], car: dict[str, Any], off: str) -> str:
    if car["finished"]:
        return _("finished")
    return off if car["space"] is None else _row(view, car)


def _places(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], box: tuple[int, int, int, int], odds: Odds | None = None
) -> None:
    x0, y0, x1, y1 = box
    room = x1 - x0 - 62 - (ODDS_W + 62 if odds is not None else 0)
    draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PAPER, width=2)
    draw.text((x0 + 16, y0 + 10), _("Places"), font=_font(24, True), fill=PAPER)
    y = y0 + 46
    cars = view["cars"]
    for colour in view["standings"]:
        car = cars[colour]
        rank = car["place"] or car["position"]
        draw.ellipse((x0 + 16, y + 2, x0 + 40, y + 26), fill=CAR_RGB[colour], outline=PAPER, width=2)
        where = _where(view, car, _("not on track"))
        text = f"{ordinal(rank)} {colour_name(colour)} · {_seat(car['owner'], view)} · {where}"
        draw.text((x0 + 50, y), fit_text(text, _font(22), room), font=_font(22), fill=PAPER)
        if odds is not None:  # the chance to win: a bar in the car's colour and the percentage
            bx = x1 - 16 - 52 - ODDS_W
            draw.rectangle((bx, y + 6, bx + ODDS_W, y + 22), outline=FAINT, width=1)
            fill = round(ODDS_W * odds.win.get(colour, 0.0))
            if fill > 0:
                draw.rectangle((bx, y + 6, bx + fill, y + 22), fill=CAR_RGB[colour])
            shown = f"{odds.percent(colour)}%"
            draw.text((x1 - 16, y + 14), shown, font=_font(20, True), fill=PAPER, anchor="rm")
        y += 31
    last = view.get("last_card")
    if last:
        lines = wrap_text(_("Last card: {card}", card=card_text(last["lines"])), _font(22), x1 - x0 - 32)
        for i, line in enumerate(lines[:2]):
            text = line if i == 0 or len(lines) <= 2 else fit_text(line + " …", _font(22), x1 - x0 - 32)
            draw.text((x0 + 16, y + 2 + 27 * i), text, font=_font(22), fill=YELLOW_LINE)


def _row(view: dict[str, Any], car: dict[str, Any]) -> str:
    space = next((s for s in view["track"]["spaces"] if s["id"] == car["space"]), None)
    return _("row {row}", row=space["row"]) if space else str(car["space"])


def render_track(view: dict[str, Any], odds: Odds | None = None) -> bytes:
    """A 1200 px wide PNG of the race in ``view`` (a public view: ``game.view(None)``); with ``odds``,
    each car's chance to win is drawn as a bar next to its place."""
    out = io.BytesIO()
    track_image(view, odds).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def track_image(view: dict[str, Any], odds: Odds | None = None) -> Image.Image:
    """The picture as a palette image (what ``render_track`` encodes; replays reuse it)."""
    import json

    track = view["track"]
    key = f"{track.get('name')}:{len(track['spaces'])}"
    base, geo, palette = _background(key, json.dumps(track, sort_keys=True))
    img = base.copy()
    draw = ImageDraw.Draw(img)
    moved = set()
    card = view.get("card_in_play")
    if card:
        moved = {m["car"] for m in card.get("moves", [])}
    for colour in COLOURS:
        space = view["cars"][colour]["space"]
        if space is None or space == FINISH or space not in geo.spaces:
            continue
        (x, y), _f, _l = geo.axes(space)
        _car(draw, (x, y), colour, moved=colour in moved)
    for animal in view.get("animals", []):
        if animal["at"] is not None and animal["path"][animal["at"]] in geo.spaces:
            (x, y), _f, _l = geo.axes(animal["path"][animal["at"]])
            _animal(draw, (x, y), animal["kind"])
    _header(draw, view)
    _places(draw, view, _panel_box(geo), odds)
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def _panel_box(geo: Geometry) -> tuple[int, int, int, int]:
    cx, cy = geo.centre
    w, h = 470, 300
    return (int(cx - w / 2), int(cy - h / 2) + 8, int(cx + w / 2), int(cy + h / 2) + 8)


def alt_text(view: dict[str, Any], odds: Odds | None = None) -> str:
    """The picture in words, for screen readers (under 1000 characters), with the odds when drawn."""
    title = view["track"].get("title", _("the track"))
    parts = [f"{title}. {_status(view)}."]
    order = []
    for colour in view["standings"]:
        car = view["cars"][colour]
        rank = car["place"] or car["position"]
        where = _where(view, car, _("off the track"))
        order.append(
            _(
                "{place} {colour} ({seat}, {where})",
                place=ordinal(rank),
                colour=colour_name(colour),
                seat=_seat(car["owner"], view),
                where=where,
            )
        )
    parts.append(_("Places: {cars}.", cars=", ".join(order)))
    if odds is not None:
        ranked = sorted(view["standings"], key=lambda c: -odds.win.get(c, 0.0))
        chances = ", ".join(f"{colour_name(c)} {odds.percent(c)}%" for c in ranked)
        parts.append(_("Chance to win: {cars}.", cars=chances))
    lines = view["track"]["lines"]
    crossed = {c["line"] for c in view.get("crossings", [])}
    rows = ", ".join(_("{row} (crossed)", row=r) if r in crossed else str(r) for r in lines)
    last_row = max(s["row"] for s in view["track"]["spaces"])
    parts.append(_("Yellow lines on rows {rows}; the finish is after row {last}.", rows=rows, last=last_row))
    rows_of = {s["id"]: s["row"] for s in view["track"]["spaces"]}
    animals = [
        _("{animal} on row {row}", animal=animal_name(a["kind"]), row=rows_of.get(a["path"][a["at"]], "?"))
        for a in view.get("animals", [])
        if a["at"] is not None
    ]
    if animals:
        parts.append(_("Animals: {animals}.", animals=", ".join(animals)))
    return " ".join(parts)[:1000]
