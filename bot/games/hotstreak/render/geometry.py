"""Where things sit in the race picture: one source of truth for the drawing code and for tests.

The track is drawn horizontally: the start (space 0) is at the left, the finish line at the right,
and lane 0 is the top row. Seen from a mascot running towards the finish (to the right), the top
of the picture is its left, so lane 0 is the leftmost lane and "swerve left" moves a forward-facing
mascot up the picture.

Discord shows a picture about 400 px wide (350 px on a phone), so the frame is drawn for that
(``bot.games.fonts``): an 800 x 600 canvas, where every font is at least 20 px (1/40 of the width)
and the picture is exactly as tall as the rule allows. Every frame of every race has that size, so
a race's frames never jump and a replay needs no scaling. What could not be drawn that big left the
frame: the legend, the odds, the places and the disqualified box became one column of mascots, each
player's tickets became one line (every ticket is in the detail picture, ``render_holdings``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.fonts import smallest_font
from bot.games.hotstreak.render.scene import MascotState, Scene

WIDTH = 800
HEIGHT = 600
MIN_FONT = smallest_font(WIDTH)  # 20 px: no text in the frame is smaller
MARGIN = 16
HEADER_H = 50
TRACK_TOP = 82  # the space numbers sit between the header and the track
TRACK_H = 208  # all the lanes together: a track with more lanes has thinner ones, never a taller frame
TRACK_LEFT = 58
LANE_BADGE_X = MARGIN + 14  # centre of the lane-number badges left of the track
FINISH_ZONE = 48  # run-off beyond the finish line, holding the word FINISH
PANEL_GAP = 18
PANEL_TOP = TRACK_TOP + TRACK_H + PANEL_GAP
PANEL_H = HEIGHT - MARGIN - PANEL_TOP
PANEL_TITLE_H = 36  # room for a panel's title above its contents
COLUMN_GAP = 12
CARD_PANEL_W = 246  # the card's title holds "Todos os mascotes" at 20 px
MASCOTS_PANEL_W = 226


def letter_px(d: int) -> int:
    """Font size of the initial on a token ``d`` px wide: about half the token, never under ``MIN_FONT``."""
    return max(MIN_FONT, round(d * 0.525))


@dataclass(frozen=True)
class RaceLayout:
    lanes: int
    length: int

    @property
    def lane_h(self) -> float:
        return TRACK_H / self.lanes

    @property
    def track_right(self) -> int:
        """x of the finish line."""
        return WIDTH - MARGIN - FINISH_ZONE

    @property
    def cell_w(self) -> float:
        return (self.track_right - TRACK_LEFT) / self.length

    @property
    def track_bottom(self) -> int:
        return TRACK_TOP + TRACK_H

    @property
    def panel_top(self) -> int:
        return PANEL_TOP

    @property
    def height(self) -> int:
        return HEIGHT

    @property
    def token_d(self) -> int:
        """Diameter of a lone token: it fills most of a space without touching its neighbours' arrows."""
        return int(min(self.cell_w * 0.86, self.lane_h * 0.7))

    def x_at(self, boundary: float) -> float:
        """x of the line before space ``boundary`` (``x_at(length)`` is the finish line)."""
        return TRACK_LEFT + boundary * self.cell_w

    def cell_cx(self, pos: int) -> float:
        return self.x_at(pos + 0.5)

    def lane_top(self, lane: int) -> float:
        return TRACK_TOP + lane * self.lane_h

    def lane_cy(self, lane: int) -> float:
        return TRACK_TOP + (lane + 0.5) * self.lane_h


def layout_for(scene: Scene) -> RaceLayout:
    return RaceLayout(scene.lanes, scene.length)


def track_spot(scene: Scene, mascot: MascotState) -> tuple[int, int]:
    """The (lane, space) a racing mascot is drawn on, clamped onto the track so a bad view still draws."""
    lane = min(max(mascot.lane, 0), scene.lanes - 1)
    pos = min(max(mascot.pos, 0), scene.length - 1)
    return lane, pos


# Offsets (in fractions of a space's width, a lane's height) when several mascots share one space,
# which happens when the engine lets a mover land on a mascot it knocked over.
_CROWD_OFFSETS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.13, -0.21), (0.13, 0.21)),
    3: ((-0.22, -0.2), (0.22, -0.2), (0.0, 0.21)),
    4: ((-0.22, -0.21), (0.22, -0.21), (-0.22, 0.21), (0.22, 0.21)),
}
# Token size in a crowded space, as a share of a lone token's: two still fit one above the other,
# and the initial (never under ``MIN_FONT``) still fits inside the smaller disc.
CROWD_SCALES: tuple[float, ...] = (0.85, 0.75)


def crowd_d(token_d: int, crowd: int) -> int:
    if crowd <= 1:
        return token_d
    return int(token_d * (CROWD_SCALES[0] if crowd == 2 else CROWD_SCALES[1]))


def token_spots(scene: Scene) -> dict[str, tuple[int, int, int]]:
    """Centre x, centre y and diameter of every token on the track, keyed by mascot."""
    layout = layout_for(scene)
    groups: dict[tuple[int, int], list[MascotState]] = {}
    for mascot in scene.on_track():
        groups.setdefault(track_spot(scene, mascot), []).append(mascot)
    spots: dict[str, tuple[int, int, int]] = {}
    for (lane, pos), crowd in groups.items():
        offsets = _CROWD_OFFSETS.get(len(crowd), _CROWD_OFFSETS[4])
        d = crowd_d(layout.token_d, len(crowd))
        for i, mascot in enumerate(crowd):
            dx, dy = offsets[i % len(offsets)]
            spots[mascot.key] = (
                round(layout.cell_cx(pos) + dx * layout.cell_w),
                round(layout.lane_cy(lane) + dy * layout.lane_h),
                d,
            )
    return spots


Box = tuple[int, int, int, int]

DECK_ICON_W = 40  # header: the little deck of cards left of the count
COLUMN_TOKEN_D = 32  # a mascot's token in the mascots column
PODIUM_TOKEN_D = 40
STEP_W, STEP_GAP = 58, 8
STEP_HEIGHTS = (92, 78, 66, 56)  # 1st to 4th; the lowest still holds "4th"


@dataclass(frozen=True)
class PanelLayout:
    """The three panels under the track: the card just flipped, the mascots (legend, odds and places),
    and the players' tickets (or, in a frame without bets, the podium)."""

    card: Box
    mascots: Box
    right: Box

    @property
    def podium(self) -> Box:
        """The podium is drawn in the right-hand panel when no player holds a ticket."""
        return self.right

    @property
    def card_face(self) -> Box:
        x0, y0, x1, y1 = self.card
        return (x0 + 8, y0 + 8, x1 - 8, y1 - 8)

    @property
    def steps(self) -> tuple[Box, ...]:
        """Podium steps, 1st place leftmost (the rules fill the podium from the left)."""
        x0, _, x1, y1 = self.podium
        w, gap = STEP_W, STEP_GAP
        left = x0 + ((x1 - x0) - (4 * w + 3 * gap)) // 2
        return tuple(
            (left + i * (w + gap), y1 - 14 - h, left + i * (w + gap) + w, y1 - 14)
            for i, h in enumerate(STEP_HEIGHTS)
        )

    def row(self, box: Box, index: int, rows: int, most: int = 34) -> tuple[int, int]:
        """Top and height of the ``index``-th of ``rows`` rows under ``box``'s title (at most ``most`` tall)."""
        x0, y0, x1, y1 = box
        del x0, x1
        height = min(most, (y1 - y0 - PANEL_TITLE_H - 8) // max(1, rows))
        return y0 + PANEL_TITLE_H + index * height, height


def panels_for(layout: RaceLayout) -> PanelLayout:
    del layout  # every track gets the same panels: the track's height does not depend on it
    top, bottom = PANEL_TOP, PANEL_TOP + PANEL_H
    card = (MARGIN, top, MARGIN + CARD_PANEL_W, bottom)
    mascots = (card[2] + COLUMN_GAP, top, card[2] + COLUMN_GAP + MASCOTS_PANEL_W, bottom)
    right = (mascots[2] + COLUMN_GAP, top, WIDTH - MARGIN, bottom)
    return PanelLayout(card, mascots, right)
