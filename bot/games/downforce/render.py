"""The track as a PNG, drawn from a public view only (so it shows nothing a player may not see).

``render_track(view)`` is a plain function from ``game.view(None)`` to PNG bytes (call it in a
thread from async code); ``alt_text(view)`` says the same in words. The track, its lines, the
finish, the space markings, the row numbers and the legend depend only on the track (and the
reader's language), so they are drawn once per track and language and cached; each frame adds the
cars, the places and the header on a copy.

Readable where Discord shows it (about 400 px wide; rules in ``bot.games.fonts``): the picture is
1200 x 900 px and every text is 30 px (``smallest_font(1200)``) or more, so about 10 px in the
preview; the track is scaled into the room left by a header band (the track and what happens now)
and a legend band (what the special spaces mean), with a margin for the row numbers.

What the picture says agrees with the words: rows are numbered as the narration says them (the
track's ``row``: the grid is rows 0-2, the first row a card can reach is 1), lanes from 1 at the left
facing the finish (the narration's ``lane {lane}`` is ``lane + 1``). Row numbers stand beside the
track (every even row and every yellow line's row, where there is room); every fifth row shows its
lane numbers on its spaces; chevrons on the road point the way the cars go; START and FINISH are
written beside the grid and the chequered line.

Markings: rectangular spaces are plain asphalt, curved spaces a bluer grey; a tight (one-car)
space has an amber outline; a rumble strip is a red-and-white kerb on the space's outer edge;
the yellow betting lines and the chequered finish cross the track at the back of their row.
Special tracks: a cracked space is dark with a jagged white crack; a crossover loop's spaces have
a violet outline (a white bar marks its entry and exit); a ramp is a sand-coloured space with an
arrow, and a dashed sand line to its landing space (ringed); animals are brown discs with their
initial (A antelope, E elephant, P python), drawn each frame where they stand. The legend names
only the kinds the track has.

The places panel in the infield lists the cars in race order (chip, place, owner, where); with odds,
a percentage in its own column with a thin bar under it, no text over a bar. It has no "last card"
line any more (the narration sent with every picture says the card, and the moved cars are ringed):
six lines at 30 px fill the infield. Once a car has finished, the winner is decided: the
win odds are then 100% and 0% (see ``bot.games.downforce.odds``), which says nothing about the
places still paying, so the panel and the alt text leave the odds out from then on.
"""

from __future__ import annotations

import io
import json
import math
import statistics
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.games.downforce.cards import COLOURS
from bot.games.downforce.narration import animal_name, colour_name, seat_name
from bot.games.downforce.odds import decided
from bot.games.downforce.track import FINISH
from bot.games.fonts import font, smallest_font
from bot.games.odds import Odds
from bot.games.text_fit import draw_text, fit_text
from bot.i18n import _, _p, current
from bot.i18n.formatting import ordinal

WIDTH = 1200
HEIGHT = 900
TEXT = smallest_font(WIDTH)
"""Every text is drawn at this size (30 px at 1200 px: the smallest readable one) or larger."""
HEADER = 52
FOOTER = 52
MARGIN = 44
"""Room kept around the track for the row numbers and the START and FINISH labels."""
LANE_W = 54
"""A lane's width in the tracks' drawing coordinates (before scaling into the picture)."""
LINE_H = 36
"""One line of the places panel."""
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
MARKING = (172, 176, 186)
"""Lane numbers and chevrons painted on the road: visible, quieter than the cars."""
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


BAR_RGB = {"black": (150, 150, 150)}
"""An odds bar's colour where the car's own would vanish on the dark panel."""
DARK_TEXT = {"yellow", "orange"}
CAR_R = 24
"""A car's disc on the track (its two letters are 30 px bold)."""


def _font(size: int = TEXT, bold: bool = False) -> ImageFont.FreeTypeFont:
    return font(max(size, TEXT), bold)


# --- geometry --------------------------------------------------------------------------

Point = tuple[float, float]


class Geometry:
    """Where every space is drawn: the track's drawing positions scaled and moved into the picture's
    track area (between the header and the legend, with ``MARGIN`` around for the labels)."""

    def __init__(self, track: dict[str, Any]) -> None:
        raw = {s["id"]: s for s in track["spaces"]}
        lengths = []
        for s in track["spaces"]:
            nxt = raw.get(s.get("straight", ""))
            if nxt is not None:
                lengths.append(math.dist((s["x"], s["y"]), (nxt["x"], nxt["y"])))
        length = statistics.median(lengths) if lengths else LANE_W
        # The road's extent with its verge: each space's centre plus half its diagonal.
        reach = math.hypot(length, LANE_W) / 2 * 1.18
        x0 = min(s["x"] for s in raw.values()) - reach
        x1 = max(s["x"] for s in raw.values()) + reach
        y0 = min(s["y"] for s in raw.values()) - reach
        y1 = max(s["y"] for s in raw.values()) + reach
        room_w, room_h = WIDTH - 2 * MARGIN, HEIGHT - HEADER - FOOTER - 2 * MARGIN
        self.scale = min(1.0, room_w / (x1 - x0), room_h / (y1 - y0))
        dx = (WIDTH - (x1 - x0) * self.scale) / 2 - x0 * self.scale
        dy = HEADER + (HEIGHT - HEADER - FOOTER - (y1 - y0) * self.scale) / 2 - y0 * self.scale
        self.spaces = {
            ident: {**s, "x": s["x"] * self.scale + dx, "y": s["y"] * self.scale + dy}
            for ident, s in raw.items()
        }
        self.length = length * self.scale
        self.lane_w = LANE_W * self.scale
        xs = [s["x"] for s in self.spaces.values()]
        ys = [s["y"] for s in self.spaces.values()]
        self.centre = (sum(xs) / len(xs), sum(ys) / len(ys))
        self.last_row = max(s["row"] for s in track["spaces"])
        self.rows: dict[int, list[dict[str, Any]]] = {}
        for s in sorted(self.spaces.values(), key=lambda s: s["lane"]):
            self.rows.setdefault(s["row"], []).append(s)

    def axes(self, ident: str) -> tuple[Point, Point, Point]:
        s = self.spaces[ident]
        a = math.radians(s.get("angle", 0.0))
        forward = (math.cos(a), math.sin(a))
        left = (forward[1], -forward[0])
        return (s["x"], s["y"]), forward, left

    def corners(self, ident: str, shrink: float = 1.0, widen: float = 1.0) -> list[Point]:
        """Back-left, front-left, front-right, back-right."""
        (x, y), f, lf = self.axes(ident)
        h, w = self.length / 2 * shrink, self.lane_w / 2 * shrink * widen
        return [
            (x - f[0] * h + lf[0] * w, y - f[1] * h + lf[1] * w),
            (x + f[0] * h + lf[0] * w, y + f[1] * h + lf[1] * w),
            (x + f[0] * h - lf[0] * w, y + f[1] * h - lf[1] * w),
            (x - f[0] * h - lf[0] * w, y - f[1] * h - lf[1] * w),
        ]

    def row_axes(self, row: int) -> tuple[Point, Point, Point, float]:
        """A row's middle, its forward and left directions (averaged over its spaces) and half its width."""
        spaces = self.rows[row]
        x = sum(s["x"] for s in spaces) / len(spaces)
        y = sum(s["y"] for s in spaces) / len(spaces)
        fx = sum(math.cos(math.radians(s.get("angle", 0.0))) for s in spaces)
        fy = sum(math.sin(math.radians(s.get("angle", 0.0))) for s in spaces)
        norm = math.hypot(fx, fy) or 1.0
        forward = (fx / norm, fy / norm)
        left = (forward[1], -forward[0])
        half = max(math.dist((x, y), (s["x"], s["y"])) for s in spaces) + self.lane_w / 2
        return (x, y), forward, left, half


def _outer_edge(geo: Geometry, ident: str) -> tuple[Point, Point]:
    """The long edge of a space at the side of the road (where a kerb goes): its left edge if no
    space of its row lies to its left, else its right edge."""
    c = geo.corners(ident)
    s = geo.spaces[ident]
    has_left = any(o["row"] == s["row"] and o["lane"] == s["lane"] - 1 for o in geo.spaces.values())
    return (c[3], c[2]) if has_left else (c[0], c[1])


# --- labels beside the track --------------------------------------------------------------

Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits(box: Box, quad: list[Point]) -> bool:
    """Whether an axis-aligned box and a convex quadrilateral overlap (separating axes: the box's two
    and the quad's two edge directions)."""
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    if max(xs) <= box[0] or min(xs) >= box[2] or max(ys) <= box[1] or min(ys) >= box[3]:
        return False
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    for a, b in ((quad[0], quad[1]), (quad[1], quad[2])):
        nx, ny = b[1] - a[1], a[0] - b[0]
        q = [nx * p[0] + ny * p[1] for p in quad]
        r = [nx * p[0] + ny * p[1] for p in corners]
        if max(q) <= min(r) or max(r) <= min(q):
            return False
    return True


def _road(geo: Geometry, pad: float) -> list[list[Point]]:
    """Every space's outline grown by ``pad`` px each way (what a label or the panel must not cover)."""
    grow_l = 1 + 2 * pad / geo.length
    grow_w = (1 + 2 * pad / geo.lane_w) / grow_l
    return [geo.corners(ident, grow_l, widen=grow_w) for ident in geo.spaces]


class _Labels:
    """Places labels beside the track one at a time, each where it covers no road, no other label and
    nothing reserved (the panel), inside the track area; a label with no free place is left out."""

    def __init__(self, geo: Geometry, reserved: list[Box]) -> None:
        self.geo = geo
        self.taken = list(reserved)
        self.road = _road(geo, 10)

    def free(self, box: Box) -> bool:
        if box[0] < 4 or box[2] > WIDTH - 4 or box[1] < HEADER + 2 or box[3] > HEIGHT - FOOTER - 2:
            return False
        if any(_overlaps(box, t) for t in self.taken):
            return False
        return not any(_hits(box, quad) for quad in self.road)

    def place(self, row: int, w: float, h: float, *, ahead: float = 0.0) -> Box | None:
        """A ``w`` x ``h`` box beside ``row`` (outside the bend first), or ``None``."""
        (x, y), f, lf, half = self.geo.row_axes(row)
        x, y = x + f[0] * ahead, y + f[1] * ahead
        cx, cy = self.geo.centre
        sides = sorted((1, -1), key=lambda side: -math.dist((x + lf[0] * side, y + lf[1] * side), (cx, cy)))
        length = self.geo.length
        for shift in (0.0, -0.4 * length, 0.4 * length):
            for side in sides:
                for gap in (12, 26, 44, 64):
                    # From the row's middle to the box's middle along the left axis: past the road's edge
                    # by ``gap``, then half the box; ``shift`` slides it along the road.
                    reach = half + gap + abs(lf[0]) * w / 2 + abs(lf[1]) * h / 2
                    bx = x + lf[0] * side * reach + f[0] * shift
                    by = y + lf[1] * side * reach + f[1] * shift
                    box = (bx - w / 2, by - h / 2, bx + w / 2, by + h / 2)
                    if self.free(box):
                        self.taken.append(box)
                        return box
        return None


def _row_numbers(draw: ImageDraw.ImageDraw, geo: Geometry, labels: _Labels, lines: list[int]) -> None:
    """Row numbers beside the track: the yellow lines' rows and every fifth row first, then every even
    row where there is still room."""
    bold = _font(bold=True)
    first = [r for r in range(1, geo.last_row + 1) if r in lines or r % 5 == 0]
    rest = [r for r in range(2, geo.last_row + 1, 2) if r not in first]
    for row in first + rest:
        if row not in geo.rows:
            continue
        text = str(row)
        w, h = bold.getlength(text) + 8, TEXT + 4
        box = labels.place(row, w, h)
        if box is not None:
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            draw_text(draw, centre, text, font=bold, fill=PAPER, anchor="mm", stroke_width=3, stroke_fill=INK)


def _start_finish(draw: ImageDraw.ImageDraw, geo: Geometry, labels: _Labels) -> None:
    """START beside the back of the grid, FINISH beside the last row (each on a dark tag)."""
    bold = _font(bold=True)
    for row, text, ahead in ((0, _("START"), 0.0), (geo.last_row, _("FINISH"), geo.length / 2)):
        if row not in geo.rows:
            continue
        w, h = bold.getlength(text) + 20, TEXT + 14
        box = labels.place(row, w, h, ahead=ahead)
        if box is None:  # beside the row's neighbours, a little further along or back
            nearby = 1 if row == 0 else row - 1
            box = labels.place(nearby, w, h) if nearby in geo.rows else None
        if box is not None:
            draw.rounded_rectangle(box, radius=8, fill=INK, outline=PAPER, width=2)
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            draw_text(draw, centre, text, font=bold, fill=PAPER, anchor="mm")


def _lane_numbers(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    """Every fifth row shows its lane numbers (1 at the left facing the finish) on its spaces."""
    digits = _font(bold=True)
    for row, spaces in geo.rows.items():
        if row % 5 or row == 0 or len(spaces) < 2:
            continue
        for s in spaces:
            draw_text(draw, (s["x"], s["y"]), str(s["lane"] + 1), font=digits, fill=MARKING, anchor="mm")


def _chevrons(draw: ImageDraw.ImageDraw, geo: Geometry, track: dict[str, Any]) -> None:
    """Open chevrons on the road pointing the way the cars go, every third row between the markings."""
    busy = set(track["lines"]) | {0, 1, 2, geo.last_row}
    for row, spaces in geo.rows.items():
        if row % 3 != 1 or row % 5 == 0 or row in busy:
            continue
        if any(s.get("ramp") or s.get("crack") or s.get("loop") for s in spaces):
            continue
        for s in spaces:
            if s.get("tight"):
                continue
            (x, y), f, lf = geo.axes(s["id"])
            size = geo.lane_w * 0.26
            for step in (-0.5, 0.5):
                tx, ty = x + f[0] * size * (step + 0.6), y + f[1] * size * (step + 0.6)
                arm = [
                    (tx - f[0] * size + lf[0] * size, ty - f[1] * size + lf[1] * size),
                    (tx, ty),
                    (tx - f[0] * size - lf[0] * size, ty - f[1] * size - lf[1] * size),
                ]
                draw.line(arm, fill=MARKING, width=4)


# --- the cached track -------------------------------------------------------------------


@lru_cache(maxsize=16)
def _background(key: str, language: str, track_json: str) -> tuple[Image.Image, Geometry, Image.Image, Box]:
    """The track drawn once per track and language (``language`` is part of the cache key: START,
    FINISH and the legend are words)."""
    track = json.loads(track_json)
    geo = Geometry(track)
    img = Image.new("RGB", (WIDTH, HEIGHT), GRASS)
    draw = ImageDraw.Draw(img)
    for stripe in range(0, HEIGHT, 40):
        draw.rectangle((0, stripe, WIDTH, stripe + 19), fill=GRASS_DARK)
    # A verge under the road, so the track reads as one ribbon.
    for s in geo.spaces.values():
        draw.polygon(geo.corners(s["id"], 1.18), fill=EDGE)
    for s in geo.spaces.values():
        fill = ASPHALT_CURVED if s.get("shape") == "curved" else ASPHALT
        draw.polygon(geo.corners(s["id"], 1.02), fill=fill)
    for s in geo.spaces.values():
        corners = geo.corners(s["id"], 0.94)
        if s.get("tight"):
            draw.polygon(corners, outline=TIGHT, width=5)
        else:
            draw.polygon(corners, outline=(150, 152, 160), width=2)
        if s.get("rumble"):
            a, b = _outer_edge(geo, s["id"])
            _kerb(draw, a, b)
        _feature(draw, geo, s)
    _lane_numbers(draw, geo)
    _chevrons(draw, geo, track)
    for row in track["lines"]:
        for s in geo.rows.get(row, []):
            # A little wider than the road, so a line across a one-car bottleneck still shows.
            c = geo.corners(s["id"], 1.0, widen=1.35)
            draw.line([c[0], c[3]], fill=YELLOW_LINE, width=8)
    for s in geo.spaces.values():
        if FINISH in s["ahead"]:
            _chequer(draw, geo, s["id"])
    panel = _panel_box(geo)
    labels = _Labels(geo, [panel])
    _start_finish(draw, geo, labels)
    _row_numbers(draw, geo, labels, list(track["lines"]))
    _legend(draw, track)
    return img, geo, _palette_for(img), panel


def _feature(draw: ImageDraw.ImageDraw, geo: Geometry, s: dict[str, Any]) -> None:
    """The markings of the special tracks' features on one space."""
    ident = s["id"]
    if s.get("crack"):
        _crack(draw, geo.corners(ident, 0.9), geo.axes(ident))
    if s.get("loop"):
        draw.polygon(geo.corners(ident, 0.94), outline=LOOP, width=5)
        if s.get("loop_entry") or s.get("loop_exit"):
            c = geo.corners(ident, 1.0)
            edge = (c[0], c[3]) if s.get("loop_entry") else (c[1], c[2])
            draw.line(edge, fill=PAPER, width=6)
    ramp = s.get("ramp")
    if ramp:
        _ramp(draw, geo.corners(ident, 0.86), geo.axes(ident))
        if ramp["to"] in geo.spaces:
            (x, y), _f, _l = geo.axes(ident)
            (lx, ly), _f, _l = geo.axes(ramp["to"])
            steps = 10
            for i in range(0, steps, 2):
                a = (x + (lx - x) * i / steps, y + (ly - y) * i / steps)
                b = (x + (lx - x) * (i + 1) / steps, y + (ly - y) * (i + 1) / steps)
                draw.line([a, b], fill=RAMP, width=5)
            _landing(draw, (lx, ly))


def _crack(draw: ImageDraw.ImageDraw, corners: list[Point], axes: tuple[Point, Point, Point]) -> None:
    draw.polygon(corners, fill=CRACK)
    (x, y), f, r = axes
    pts = [
        (x + f[0] * d + r[0] * w, y + f[1] * d + r[1] * w) for d, w in ((-18, -7), (-6, 7), (6, -7), (18, 6))
    ]
    draw.line(pts, fill=PAPER, width=3)


def _ramp(draw: ImageDraw.ImageDraw, corners: list[Point], axes: tuple[Point, Point, Point]) -> None:
    draw.polygon(corners, fill=RAMP)
    (x, y), f, r = axes
    tip = (x + f[0] * 15, y + f[1] * 15)
    back = [(x - f[0] * 9 + r[0] * s, y - f[1] * 9 + r[1] * s) for s in (11, -11)]
    draw.polygon([tip, *back], fill=INK)


def _landing(draw: ImageDraw.ImageDraw, centre: Point) -> None:
    x, y = centre
    draw.ellipse((x - 19, y - 19, x + 19, y + 19), outline=RAMP, width=4)


def _animal(draw: ImageDraw.ImageDraw, centre: Point, kind: str) -> None:
    x, y = centre
    r = CAR_R
    draw.ellipse((x - r, y - r, x + r, y + r), fill=ANIMAL, outline=RAMP, width=3)
    draw_text(draw, (x, y), ANIMAL_LABEL.get(kind, "?"), font=_font(bold=True), fill=PAPER, anchor="mm")


# --- the legend -----------------------------------------------------------------------------


def legend_items(track: dict[str, Any]) -> list[str]:
    """The kinds of marking the legend explains for ``track``, in its order: the yellow line, then only
    the special spaces the track has (``tight``, ``ramp``, ``crack``, ``loop``, ``animal``)."""
    spaces = track["spaces"]
    kinds = ["line"]
    for kind in ("tight", "ramp", "crack", "loop"):
        if any(s.get(kind) for s in spaces):
            kinds.append(kind)
    if track.get("animals"):
        kinds.append("animal")
    return kinds


def _legend_words(kind: str) -> str:
    return {
        "line": _("bets"),
        "tight": _("one car only"),
        "ramp": _("ramp, landing"),
        "crack": _("crack: no stopping"),
        "loop": _("loop"),
        "animal": _("animal: blocks"),
    }[kind]


def _legend(draw: ImageDraw.ImageDraw, track: dict[str, Any]) -> None:
    """The legend band at the bottom: a small sample of each marking and what it means."""
    draw.rectangle((0, HEIGHT - FOOTER, WIDTH, HEIGHT), fill=PANEL)
    words = _font()
    y = HEIGHT - FOOTER / 2
    items = legend_items(track)
    gap = 34
    while True:
        widths = [_swatch_w(kind) + 10 + words.getlength(_legend_words(kind)) for kind in items]
        if sum(widths) + gap * (len(items) - 1) <= WIDTH - 36 or len(items) == 1:
            break
        items = items[1:]  # the yellow line is the one every player knows from the rules: it goes first
    x = 18.0
    for kind, w in zip(items, widths, strict=True):
        _swatch(draw, kind, x, y)
        text_x = x + _swatch_w(kind) + 10
        draw_text(
            draw,
            (text_x, y),
            fit_text(_legend_words(kind), words, WIDTH - 18 - text_x),
            font=words,
            fill=PAPER,
            anchor="lm",
        )
        x += w + gap


def _swatch_w(kind: str) -> float:
    return 80 if kind == "ramp" else 36


def _swatch(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    box = [(x, y - 16), (x + 36, y - 16), (x + 36, y + 16), (x, y + 16)]
    centre = (x + 18, y)
    if kind == "line":
        draw.rectangle((x, y - 16, x + 36, y + 16), fill=ASPHALT)
        draw.line([(x + 18, y - 18), (x + 18, y + 18)], fill=YELLOW_LINE, width=8)
    elif kind == "tight":
        draw.rectangle((x, y - 16, x + 36, y + 16), fill=ASPHALT, outline=TIGHT, width=5)
    elif kind == "ramp":
        _ramp(draw, box, (centre, (1.0, 0.0), (0.0, 1.0)))
        for i in range(3):
            draw.line([(x + 40 + 8 * i, y), (x + 44 + 8 * i, y)], fill=RAMP, width=5)
        _landing(draw, (x + 80 - 19, y))
    elif kind == "crack":
        _crack(draw, box, (centre, (1.0, 0.0), (0.0, 1.0)))
    elif kind == "loop":
        draw.rectangle((x, y - 16, x + 36, y + 16), fill=ASPHALT, outline=LOOP, width=5)
    elif kind == "animal":
        draw.ellipse((x + 2, y - 16, x + 34, y + 16), fill=ANIMAL, outline=RAMP, width=3)


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
    _mark(draw, (540, 100), "A")
    draw.rounded_rectangle((580, 80, 1000, 160), radius=14, fill=PANEL, outline=PAPER, width=2)
    draw_text(draw, (600, 90), "Places 1st 2nd Seat row", font=_font(bold=True), fill=PAPER)
    draw_text(draw, (600, 120), "Last card: red 4", font=_font(), fill=YELLOW_LINE)
    return sample.quantize(colors=200, method=Image.Quantize.MEDIANCUT)


def _kerb(draw: ImageDraw.ImageDraw, a: Point, b: Point) -> None:
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


def _car(draw: ImageDraw.ImageDraw, centre: Point, colour: str, *, moved: bool) -> None:
    x, y = centre
    r = CAR_R
    if moved:
        draw.ellipse((x - r - 6, y - r - 6, x + r + 6, y + r + 6), outline=(255, 255, 255), width=4)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=CAR_RGB[colour], outline=PAPER, width=2)
    ink = INK if colour in DARK_TEXT else PAPER
    draw_text(draw, (x, y), car_label(colour), font=_font(bold=True), fill=ink, anchor="mm")


def _mark(draw: ImageDraw.ImageDraw, centre: Point, label: str) -> None:
    """A choice's label on its space: black on a white disc ringed in black, above any car."""
    x, y = centre
    bold = _font(bold=True)
    r = max(CAR_R + 2, bold.getlength(label) / 2 + 8)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=PAPER, outline=INK, width=4)
    draw_text(draw, (x, y), label, font=bold, fill=INK, anchor="mm")


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, colour: str) -> float:
    """A car's chip in the places panel (its colour and two letters); returns its width."""
    bold = _font(bold=True)
    w = _chip_w(str(current()))
    draw.rounded_rectangle((x, y - 16, x + w, y + 16), radius=8, fill=CAR_RGB[colour], outline=PAPER, width=2)
    ink = INK if colour in DARK_TEXT else PAPER
    draw_text(draw, (x + w / 2, y), car_label(colour), font=bold, fill=ink, anchor="mm")
    return w


@lru_cache(maxsize=8)
def _chip_w(language: str) -> float:
    """The chips' width in a language: its widest two letters and a margin."""
    return max(_font(bold=True).getlength(car_label(c)) for c in COLOURS) + 12


def _seat(seat: int | None, view: dict[str, Any]) -> str:
    """A seat as players know it: its name when the view carries ``names`` (the bot adds them), else
    ``Seat n``."""
    names = view.get("names") or []
    if seat is None:
        return _("unsold")
    return str(names[seat]) if seat < len(names) else seat_name(seat)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    title = view["track"].get("title", view["track"].get("name", "Track"))
    draw.rectangle((0, 0, WIDTH, HEADER), fill=PANEL)
    bold, regular = _font(bold=True), _font()
    title = fit_text(title, bold, WIDTH * 0.4)
    draw_text(draw, (18, HEADER / 2), title, font=bold, fill=PAPER, anchor="lm")
    room = WIDTH - 36 - bold.getlength(title) - 30
    draw_text(
        draw,
        (WIDTH - 18, HEADER / 2),
        fit_text(_status(view), regular, room),
        font=regular,
        fill=PAPER,
        anchor="rm",
    )


def _status(view: dict[str, Any]) -> str:
    """What happens now, short enough for the header beside the track's name."""
    phase = view["phase"]
    if phase == "auction":
        a = view["auction"]
        return _("Auction {number} of 6: {colour} car", number=a["number"], colour=colour_name(a["colour"]))
    if phase == "keep":
        return _("Players keep one power")
    if phase == "over":
        if view.get("ended_by") == "finish":
            return _("Race over: all finished")
        return _("Race over: no cards left")
    played = view.get("cards_played", 0)
    if phase == "bet":
        return _("Card {number}: bets at row {row}", number=played, row=view["bet_line"])
    turn = view.get("turn")
    if turn is None:
        return _("Card {number} played", number=played)
    return _("Card {number} · {seat} to play", number=played, seat=_seat(turn, view))


def _where(view: dict[str, Any], car: dict[str, Any], off: str) -> str:
    if car["finished"]:
        return _("finished")
    return off if car["space"] is None else _row(view, car)


def odds_shown(view: dict[str, Any], odds: Odds | None) -> bool:
    """Whether the picture shows ``odds``: not once a car has finished (the winner is decided; the
    chances of the places still paying are not simulated, so 100% and 0% would mislead)."""
    return odds is not None and not decided(view)


PANEL_H = 6 * LINE_H + 16
PANEL_W = (520, 720)
"""The places panel's narrowest and widest: it takes as much of the infield as is free of road."""


NUDGES = sorted(
    ((dx, dy) for dx in range(-60, 61, 20) for dy in range(-60, 61, 10)), key=lambda d: abs(d[0]) + abs(d[1])
)
"""Where the panel may move from the track's middle, nearest first."""


def _panel_box(geo: Geometry) -> Box:
    """The places panel in the infield: centred on the track's middle (nudged a little if the road is in
    the way), as wide as the free room allows; it may cover the verge, never a space."""
    cx, cy = geo.centre
    road = _road(geo, 2)
    for w in range(PANEL_W[1], PANEL_W[0] - 1, -10):
        for dx, dy in NUDGES:
            x, y = cx + dx, cy + dy
            box = (round(x - w / 2), round(y - PANEL_H / 2), round(x + w / 2), round(y + PANEL_H / 2))
            if not any(_hits(box, quad) for quad in road):
                return box
    w = PANEL_W[0]  # (no shipped track: the tests check every one has room)
    return (round(cx - w / 2), round(cy - PANEL_H / 2), round(cx + w / 2), round(cy + PANEL_H / 2))


def _places(draw: ImageDraw.ImageDraw, view: dict[str, Any], box: Box, odds: Odds | None) -> None:
    """The cars in race order, one line each: chip, place, owner, where; with odds, the percentage in a
    column of its own with a thin bar in the car's colour under it (no text is drawn over a bar)."""
    x0, y0, x1, y1 = box
    regular = _font()
    draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PAPER, width=2)
    cars = view["cars"]
    shown = odds_shown(view, odds)
    right = x1 - 16
    if shown:
        right -= regular.getlength("100%") + 14
    rows = []
    for colour in view["standings"]:
        car = cars[colour]
        rank = car["place"] or car["position"]
        rows.append((colour, ordinal(rank), _seat(car["owner"], view), _where(view, car, _("not on track"))))
    place_w = max(regular.getlength(r[1]) for r in rows)
    where_w = max(regular.getlength(r[3]) for r in rows)
    y = y0 + 8 + LINE_H / 2
    for colour, place, owner, where in rows:
        x = x0 + 14
        chip = _chip(draw, x, y, colour)
        x += chip + 10
        draw_text(draw, (x, y), place, font=regular, fill=PAPER, anchor="lm")
        x += place_w + 12
        where_x = right - where_w
        draw_text(
            draw, (x, y), fit_text(owner, regular, where_x - 12 - x), font=regular, fill=PAPER, anchor="lm"
        )
        finished = cars[colour]["finished"]
        draw_text(
            draw, (where_x, y), where, font=regular, fill=YELLOW_LINE if finished else FAINT, anchor="lm"
        )
        if shown and odds is not None:  # the chance to win: the percentage, and a bar under it
            draw_text(draw, (x1 - 14, y), f"{odds.percent(colour)}%", font=regular, fill=PAPER, anchor="rm")
            full = regular.getlength("100%")
            fill = round(full * odds.win.get(colour, 0.0))
            if fill > 0:
                left = x1 - 14 - full
                draw.rectangle((left, y + 15, left + fill, y + 18), fill=BAR_RGB.get(colour, CAR_RGB[colour]))
        y += LINE_H


def _row(view: dict[str, Any], car: dict[str, Any]) -> str:
    space = next((s for s in view["track"]["spaces"] if s["id"] == car["space"]), None)
    return _("row {row}", row=space["row"]) if space else str(car["space"])


def render_track(
    view: dict[str, Any], odds: Odds | None = None, marks: dict[str, str] | None = None
) -> bytes:
    """A 1200 x 900 PNG of the race in ``view`` (a public view: ``game.view(None)``); with ``odds``,
    each car's chance to win is drawn as a bar next to its place (until a car finishes); ``marks``
    (space id -> a short label such as ``"A"``) letters those spaces, above the cars, for a choice."""
    out = io.BytesIO()
    track_image(view, odds, marks).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def track_image(
    view: dict[str, Any], odds: Odds | None = None, marks: dict[str, str] | None = None
) -> Image.Image:
    """The picture as a palette image (what ``render_track`` encodes; replays reuse it)."""
    track = view["track"]
    key = f"{track.get('name')}:{len(track['spaces'])}"
    base, geo, palette, panel = _background(key, str(current()), json.dumps(track, sort_keys=True))
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
    for ident, label in (marks or {}).items():
        if ident in geo.spaces:
            (x, y), _f, _l = geo.axes(ident)
            _mark(draw, (x, y), label)
    _header(draw, view)
    _places(draw, view, panel, odds)
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


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
    if odds is not None and odds_shown(view, odds):
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
