"""Where things sit in the race picture: one source of truth for the drawing code and for tests.

The track is drawn horizontally: the start (space 0) is at the left, the finish line at the right,
and lane 0 is the top row. Seen from a mascot running towards the finish (to the right), the top
of the picture is its left, so lane 0 is the leftmost lane and "swerve left" moves a forward-facing
mascot up the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.hotstreak.render.scene import MascotState, Scene

# Discord shows the picture about 520 px wide, so every size here is chosen for that: text that
# matters is at least 22 px in the full picture (about 10 px on screen), and what could not be
# drawn that big was dropped rather than shrunk (see render.panels and render.track).
WIDTH = 1200
MARGIN = 16
HEADER_H = 78
TRACK_TOP = 118  # the space numbers sit between the header and the track
LANE_H = 70
TRACK_LEFT = 68
LANE_BADGE_X = MARGIN + 20  # centre of the lane-number badges left of the track
FINISH_ZONE = 78  # run-off beyond the finish line, holding the word FINISH
PANEL_GAP = 24
PANEL_H = 232
PANEL_TITLE_H = 42  # room for a panel's title above its contents


@dataclass(frozen=True)
class RaceLayout:
    lanes: int
    length: int

    @property
    def track_right(self) -> int:
        """x of the finish line."""
        return WIDTH - MARGIN - FINISH_ZONE

    @property
    def cell_w(self) -> float:
        return (self.track_right - TRACK_LEFT) / self.length

    @property
    def track_bottom(self) -> int:
        return TRACK_TOP + self.lanes * LANE_H

    @property
    def panel_top(self) -> int:
        return self.track_bottom + PANEL_GAP

    @property
    def height(self) -> int:
        return self.panel_top + PANEL_H + MARGIN

    @property
    def token_d(self) -> int:
        """Diameter of a lone token: it fills most of a space without touching its neighbours' arrows."""
        return int(min(self.cell_w * 0.7, LANE_H * 0.72))

    def x_at(self, boundary: float) -> float:
        """x of the line before space ``boundary`` (``x_at(length)`` is the finish line)."""
        return TRACK_LEFT + boundary * self.cell_w

    def cell_cx(self, pos: int) -> float:
        return self.x_at(pos + 0.5)

    def lane_top(self, lane: int) -> int:
        return TRACK_TOP + lane * LANE_H

    def lane_cy(self, lane: int) -> float:
        return TRACK_TOP + (lane + 0.5) * LANE_H


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
# Token size in a crowded space, as a share of a lone token's: two still fit one above the other.
CROWD_SCALES: tuple[float, ...] = (0.85, 0.7)


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
                round(layout.lane_cy(lane) + dy * LANE_H),
                d,
            )
    return spots


Box = tuple[int, int, int, int]

CARD_PANEL_W = 432
DQ_PANEL_W = 218
DECK_ICON_X = 946  # header: deck icon, then "N cards left" to its right
LEGEND_X = 364  # header: the mascots' colours and names, after "Race N of M  race over"
LEGEND_TOKEN_D = 34
PODIUM_TOKEN_D = 52
DQ_TOKEN_D = 48
STEP_W, STEP_GAP = 110, 6
STEP_HEIGHTS = (112, 98, 86, 76)  # 1st to 4th; the lowest still holds "4th" over a name


@dataclass(frozen=True)
class PanelLayout:
    """The three panels under the track: the card just flipped, the podium, the disqualified box."""

    card: Box
    podium: Box
    dq: Box

    @property
    def card_face(self) -> Box:
        x0, y0, x1, y1 = self.card
        return (x0 + 12, y0 + PANEL_TITLE_H, x1 - 12, y1 - 12)

    @property
    def steps(self) -> tuple[Box, ...]:
        """Podium steps, 1st place leftmost (the rules fill the podium from the left)."""
        x0, _, x1, y1 = self.podium
        w, gap = STEP_W, STEP_GAP
        left = x0 + ((x1 - x0) - (4 * w + 3 * gap)) // 2
        return tuple(
            (left + i * (w + gap), y1 - 16 - h, left + i * (w + gap) + w, y1 - 16)
            for i, h in enumerate(STEP_HEIGHTS)
        )

    def dq_slot(self, index: int) -> tuple[int, int]:
        """Centre of the ``index``-th disqualified token (a 2 x 2 grid); its name goes underneath."""
        x0, y0, x1, _ = self.dq
        col, row = index % 2, index // 2
        col_w = (x1 - x0) // 2
        return (x0 + col_w // 2 + col * col_w, y0 + PANEL_TITLE_H + 34 + row * 88)


def panels_for(layout: RaceLayout) -> PanelLayout:
    top, bottom = layout.panel_top, layout.panel_top + PANEL_H
    card = (MARGIN, top, MARGIN + CARD_PANEL_W, bottom)
    dq = (WIDTH - MARGIN - DQ_PANEL_W, top, WIDTH - MARGIN, bottom)
    podium = (card[2] + 16, top, dq[0] - 16, bottom)
    return PanelLayout(card, podium, dq)
