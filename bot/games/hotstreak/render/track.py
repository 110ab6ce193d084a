"""The parts of the race picture that only change between folds: felt, track, stars, lines, bar, panels.

Drawn once per (track, bar, mascot colours) at twice the size and halved, so edges are smooth, then
cached; each frame copies it and adds the moving parts. Text is drawn after halving, where
FreeType's own anti-aliasing keeps it crisp.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import (
    DECK_ICON_W,
    HEADER_H,
    LANE_BADGE_X,
    MARGIN,
    MIN_FONT,
    TRACK_H,
    TRACK_LEFT,
    TRACK_TOP,
    WIDTH,
    RaceLayout,
    panels_for,
)
from bot.games.hotstreak.render.scene import Scene
from bot.games.hotstreak.render.style import RGB
from bot.i18n import _, current, speaking
from bot.i18n.formatting import ordinal
from bot.i18n.languages import Language

_S = 2  # supersampling factor of the background

Legend = tuple[tuple[str, str, RGB], ...]  # (initial, name, colour) per mascot
# ``steps``: the podium is drawn (a frame without tickets). The last item is the language of the words
# drawn on it: a cached background is one language's.
BackgroundKey = tuple[int, int, tuple[tuple[int, ...], ...], tuple[int, ...], int, Legend, bool, Language]


class _Pen:
    """ImageDraw in picture coordinates on a canvas ``scale`` times larger."""

    def __init__(self, img: Image.Image, scale: int) -> None:
        self.draw = ImageDraw.Draw(img)
        self.s = scale

    def _xy(self, coords: Sequence[float]) -> list[float]:
        return [v * self.s for v in coords]

    def rect(
        self, box: Sequence[float], fill: RGB, outline: RGB | None = None, width: int = 0, radius: float = 0
    ) -> None:
        if radius:
            self.draw.rounded_rectangle(
                self._xy(box), radius * self.s, fill=fill, outline=outline, width=width * self.s
            )
        else:
            self.draw.rectangle(self._xy(box), fill=fill, outline=outline, width=width * self.s)

    def line(self, points: Sequence[tuple[float, float]], fill: RGB, width: float) -> None:
        self.draw.line([(x * self.s, y * self.s) for x, y in points], fill=fill, width=round(width * self.s))

    def polygon(
        self, points: Sequence[tuple[float, float]], fill: RGB, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.draw.polygon(
            [(x * self.s, y * self.s) for x, y in points], fill=fill, outline=outline, width=width * self.s
        )

    def ellipse(self, box: Sequence[float], fill: RGB, outline: RGB | None = None, width: int = 0) -> None:
        self.draw.ellipse(self._xy(box), fill=fill, outline=outline, width=width * self.s)


def background_key(scene: Scene, steps: bool) -> BackgroundKey:
    legend = tuple((m.initial, m.name, m.colour) for m in scene.mascots)
    return (scene.lanes, scene.length, scene.stars, scene.white_lines, scene.bar, legend, steps, current())


@lru_cache(maxsize=16)
def background(key: BackgroundKey) -> Image.Image:
    """The static picture for ``key``; callers must copy it before drawing on it."""
    lanes, length, stars, white_lines, bar, _legend, steps, language = key
    with speaking(language):
        return _background(lanes, length, stars, white_lines, bar, steps)


def _background(
    lanes: int,
    length: int,
    stars: tuple[tuple[int, ...], ...],
    white_lines: tuple[int, ...],
    bar: int,
    steps: bool,
) -> Image.Image:
    layout = RaceLayout(lanes, length)
    big = Image.new("RGB", (WIDTH * _S, layout.height * _S), style.FELT)
    pen = _Pen(big, _S)
    _draw_frame(pen, layout, steps)
    _draw_track(pen, big, layout, stars, white_lines, bar)
    img = big.reduce(_S)
    _draw_labels(img, layout, bar, steps)
    return img


def _draw_frame(pen: _Pen, layout: RaceLayout, steps: bool) -> None:
    pen.rect((0, 0, WIDTH, HEADER_H), style.FELT_DARK)
    pen.rect((0, HEADER_H - 3, WIDTH, HEADER_H), style.GOLD)
    panels = panels_for(layout)
    for box in (panels.card, panels.mascots, panels.right):
        pen.rect(box, style.FELT_PANEL, outline=style.PANEL_EDGE, width=2, radius=14)
    if steps:
        for i, (x0, y0, x1, y1) in enumerate(panels.steps):
            colour = style.STEP_COLOURS[i]
            pen.rect((x0, y0, x1, y1 + 6), style.shade(colour, 0.7), radius=8)
            pen.rect((x0, y0, x1, y1), colour, radius=8)
    badge = min(14.0, layout.lane_h * 0.4)
    for lane in range(layout.lanes):
        cy = layout.lane_cy(lane)
        pen.ellipse(
            (LANE_BADGE_X - badge, cy - badge, LANE_BADGE_X + badge, cy + badge),
            style.FELT_DARK,
            outline=style.PANEL_EDGE,
            width=2,
        )


def deck_icon(frame: Image.Image, right: int) -> None:
    """A little deck of three cards in the header, ending at ``right`` (the count goes to its right)."""
    icon = _deck_icon()
    frame.paste(icon, (right - DECK_ICON_W, (HEADER_H - 40) // 2 - 1), icon)


@lru_cache(maxsize=1)
def _deck_icon() -> Image.Image:
    big = Image.new("RGBA", (DECK_ICON_W * _S, 40 * _S), (0, 0, 0, 0))
    pen = _Pen(big, _S)
    for i in range(3):
        x, y = 2 + i * 4, 2 + i * 4
        pen.rect((x, y, x + 24, y + 34), style.CARD_BACK, outline=style.CARD_FACE, width=2, radius=4)
    return big.reduce(_S)


def _draw_track(
    pen: _Pen,
    big: Image.Image,
    layout: RaceLayout,
    stars: tuple[tuple[int, ...], ...],
    white_lines: tuple[int, ...],
    bar: int,
) -> None:
    top, bottom, finish = TRACK_TOP, layout.track_bottom, layout.track_right
    lane_h = layout.lane_h
    mat_right = WIDTH - MARGIN
    pen.rect((TRACK_LEFT - 9, top - 9, mat_right, bottom + 9), style.TRACK_EDGE, radius=16)
    pen.rect((finish, top, mat_right - 9, bottom), style.RUNOFF, radius=6)
    for pos in range(layout.length):
        fill = style.TRACK_A if pos % 2 == 0 else style.TRACK_B
        pen.rect((layout.x_at(pos), top, layout.x_at(pos + 1), bottom), fill)
    for lane, lane_stars in enumerate(stars):
        for pos in lane_stars:
            y0 = layout.lane_top(lane)
            pen.rect(
                (layout.x_at(pos) + 2, y0 + 2, layout.x_at(pos + 1) - 2, y0 + lane_h - 2),
                style.STAR_CELL,
                radius=6,
            )
            size = min(layout.cell_w, lane_h) * 0.36
            pen.polygon(
                _star_points(layout.cell_cx(pos), layout.lane_cy(lane), size),
                style.STAR_FILL,
                outline=style.STAR_EDGE,
                width=1,
            )
    for pos in range(1, layout.length):
        x = layout.x_at(pos)
        pen.line([(x, top), (x, bottom)], style.CELL_LINE, 1)
    for lane in range(1, layout.lanes):
        y = layout.lane_top(lane)
        pen.line([(TRACK_LEFT, y), (finish, y)], style.LANE_LINE, 2)
    if bar > 0:
        _draw_folded(pen, big, layout, bar)
    for pos in white_lines:
        if pos < layout.length:
            x = layout.x_at(pos)
            pen.rect((x - 3, top - 2, x + 3, bottom + 2), style.WHITE_LINE)
            # (a small arrow in the mat's dark edge, under the space numbers rather than over them)
            pen.polygon([(x - 6, top - 9), (x + 6, top - 9), (x, top - 2)], style.WHITE_LINE)
    # Finish line: a chequered band just past the last space.
    square = TRACK_H / 24
    rows = 24
    for col in range(2):
        for row in range(rows):
            fill = (250, 250, 250) if (row + col) % 2 == 0 else (25, 25, 25)
            x0 = finish + col * square
            pen.rect((x0, top + row * square, x0 + square, top + (row + 1) * square), fill)
    x = layout.x_at(bar)
    pen.rect((x - 5, top - 12, x + 5, bottom + 12), style.BAR, outline=style.BAR_EDGE, width=2, radius=5)


def _draw_folded(pen: _Pen, big: Image.Image, layout: RaceLayout, bar: int) -> None:
    """Spaces behind the yellow bar are folded away: grey with diagonal hatching."""
    top, bottom = TRACK_TOP, layout.track_bottom
    x0, x1 = layout.x_at(0), layout.x_at(bar)
    pen.rect((x0, top, x1, bottom), style.FOLDED)
    w, h = round((x1 - x0) * _S), round((bottom - top) * _S)
    hatch = Image.new("L", (w, h), 0)
    hdraw = ImageDraw.Draw(hatch)
    step = 14 * _S
    for k in range(-h, w + h, step):
        hdraw.line([(k, h), (k + h, 0)], fill=255, width=3 * _S)
    big.paste(style.FOLDED_HATCH, (round(x0 * _S), round(top * _S)), hatch)


def _star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _draw_labels(img: Image.Image, layout: RaceLayout, bar: int, steps: bool) -> None:
    draw = ImageDraw.Draw(img)
    numbers = style.font(MIN_FONT)
    for pos in range(layout.length):
        colour = style.TEXT_DIM if pos < bar else style.TEXT
        draw.text((layout.cell_cx(pos), TRACK_TOP - 14), str(pos), font=numbers, fill=colour, anchor="ms")
    for lane in range(layout.lanes):
        draw.text(
            (LANE_BADGE_X, layout.lane_cy(lane)),
            str(lane + 1),
            font=style.font(MIN_FONT, True),
            fill=style.TEXT,
            anchor="mm",
        )
    _vertical_text(
        img,
        _("FINISH"),
        (layout.track_right + TRACK_H / 12 + 1, TRACK_TOP, WIDTH - MARGIN - 9, layout.track_bottom),
    )
    label_font = style.font(MIN_FONT, True)
    folded = _("FOLDED AWAY")
    half = draw.textlength(folded, font=label_font) / 2 + 12
    if bar > 0 and layout.x_at(bar) - layout.x_at(0) > 2 * half + 8:
        cx, cy = (layout.x_at(0) + layout.x_at(bar)) / 2, (TRACK_TOP + layout.track_bottom) / 2
        draw.rounded_rectangle((cx - half, cy - 18, cx + half, cy + 18), 10, fill=style.FELT_DARK)
        draw.text((cx, cy), folded, font=label_font, fill=style.TEXT, anchor="mm")
    if steps:
        for i, (x0, y0, x1, _y1) in enumerate(panels_for(layout).steps):
            draw.text(
                ((x0 + x1) / 2, y0 + 8),
                ordinal(i + 1),
                font=style.font(MIN_FONT + 2, True),
                fill=style.ink_on(style.STEP_COLOURS[i]),
                anchor="mt",
            )


def _vertical_text(img: Image.Image, text: str, box: tuple[float, float, float, float]) -> None:
    """``text`` written bottom-to-top, centred in ``box`` (the run-off past the finish line)."""
    f = style.font(MIN_FONT + 2, True)
    left, top, right, bottom = f.getbbox(text)
    spaced = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)  # (whole pixels already)
    ImageDraw.Draw(spaced).text((2 - left, 2 - top), text, font=f, fill=255)
    glyphs = spaced.rotate(90, expand=True)
    x = round((box[0] + box[2]) / 2 - glyphs.width / 2)
    y = round((box[1] + box[3]) / 2 - glyphs.height / 2)
    img.paste((255, 255, 255), (x, y), glyphs)
