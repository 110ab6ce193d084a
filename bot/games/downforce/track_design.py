"""The design of our own River Station and Marina Bay, written out as the track data files.

``python -m bot.games.downforce.track_design`` rewrites ``assets/downforce/tracks/*.json``. The
engine reads only those files; this module is how they were made, kept so the layouts can be
tuned (row widths, bottlenecks, the betting lines) and redrawn without hand-editing coordinates.

A layout is a list of rows, each a string of the lanes it has (``"012"`` three wide, ``"1"`` a
one-car bottleneck in the middle lane). Each space steps to the spaces of the next row in its own
lane or a neighbouring one. Spaces sit along a closed centre line drawn on a 1200 x 800 picture;
a space is ``curved`` where the line bends, ``rectangular`` where it runs straight; the outside
lane of a bend has a rumble strip; one-wide rows are ``tight``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

from bot.paths import ASSETS

OUT = ASSETS / "downforce" / "tracks"
EDITION = (
    "Our own edition: a track designed for this project (the printed boards are not public), "
    "made by bot/games/downforce/track_design.py."
)
LANE_W = 54.0
BEND = 4.0  # degrees of turn between neighbouring rows from which a space counts as curved

# A wide start (three lanes for eight rows) lets the pack spread before the first one-car
# bottleneck; with the bottleneck right after the grid the car on pole won most races.
RIVER_STATION = {
    "name": "river-station",
    "title": "River Station",
    "rows": ["01"] * 3
    + ["012"] * 8
    + ["01"] * 2
    + ["1"]
    + ["12"] * 2
    + ["012"] * 4
    + ["1"] * 2
    + ["012"] * 3
    + ["12"]
    + ["1"]
    + ["012"] * 3
    + ["01"]
    + ["012"] * 3,
    "lines": [11, 20, 28],
}

MARINA_BAY = {
    "name": "marina-bay",
    "title": "Marina Bay",
    "rows": ["01"] * 3
    + ["012"] * 9
    + ["12"]
    + ["1"]
    + ["012"] * 3
    + ["01"] * 2
    + ["0"]
    + ["01"]
    + ["012"] * 3
    + ["1"] * 2
    + ["012"] * 3
    + ["12"] * 2
    + ["012"] * 2,
    "lines": [11, 20, 28],
}


def stadium(cx: float, cy: float, half: float, radius: float) -> Callable[[float], tuple[float, float]]:
    """A running-track oval, clockwise on screen from the middle of the bottom straight."""
    straight = 2 * half
    arc = math.pi * radius
    total = 2 * straight + 2 * arc

    def at(t: float) -> tuple[float, float]:
        d = (t % 1.0) * total
        if d < half:  # bottom straight, heading left
            return cx - d, cy + radius
        d -= half
        if d < arc:  # left bend
            a = math.pi / 2 + d / radius
            return cx - half + radius * math.cos(a), cy + radius * math.sin(a)
        d -= arc
        if d < straight:  # top straight, heading right
            return cx - half + d, cy - radius
        d -= straight
        if d < arc:  # right bend
            a = -math.pi / 2 + d / radius
            return cx + half + radius * math.cos(a), cy + radius * math.sin(a)
        d -= arc
        return cx + half - d, cy + radius  # back along the bottom straight

    return at


def bay(cx: float, cy: float, a: float, b: float, dent: float) -> Callable[[float], tuple[float, float]]:
    """A squarish harbour loop with a bay bitten out of its top side, clockwise on screen."""

    def at(t: float) -> tuple[float, float]:
        angle = math.pi / 2 + 2 * math.pi * t  # start at the bottom middle, heading left
        c, s = math.cos(angle), math.sin(angle)
        x = cx + a * math.copysign(abs(c) ** 0.7, c)
        y = cy + b * math.copysign(abs(s) ** 0.7, s)
        off = angle - 3 * math.pi / 2  # the top middle
        y += dent * math.exp(-((off / 0.42) ** 2))
        return x, y

    return at


def _arc_points(
    curve: Callable[[float], tuple[float, float]], count: int, used: float
) -> list[tuple[float, float, float]]:
    """``count`` points at equal distances along ``used`` of the curve, with their heading in degrees."""
    samples = 4000
    pts = [curve(i / samples) for i in range(samples + 1)]
    dist = [0.0]
    for p, q in zip(pts, pts[1:], strict=False):
        dist.append(dist[-1] + math.dist(p, q))
    total = dist[-1]
    out = []
    j = 0
    for k in range(count):
        target = total * (1 - used) / 2 + total * used * k / (count - 1)
        while dist[j + 1] < target:
            j += 1
        f = (target - dist[j]) / max(dist[j + 1] - dist[j], 1e-9)
        x = pts[j][0] + f * (pts[j + 1][0] - pts[j][0])
        y = pts[j][1] + f * (pts[j + 1][1] - pts[j][1])
        heading = math.degrees(math.atan2(pts[j + 1][1] - pts[j][1], pts[j + 1][0] - pts[j][0]))
        out.append((x, y, heading))
    return out


def build(design: dict, curve: Callable[[float], tuple[float, float]], used: float) -> dict:
    rows: list[str] = design["rows"]
    centre = _arc_points(curve, len(rows), used)
    spaces = []
    ids = [{int(lane): f"{r:02d}{'abc'[int(lane)]}" for lane in lanes} for r, lanes in enumerate(rows)]
    for r, lanes in enumerate(rows):
        x0, y0, heading = centre[r]
        before = centre[max(r - 1, 0)][2]
        after = centre[min(r + 1, len(rows) - 1)][2]
        turn = ((after - before + 180) % 360) - 180
        curved = abs(turn) / 2 >= BEND
        rad = math.radians(heading)
        left = (math.sin(rad), -math.cos(rad))  # the left of a car facing the heading, on screen
        for lane_char in lanes:
            lane = int(lane_char)
            shift = (1 - lane) * LANE_W
            ahead: list[str] = []
            if r + 1 < len(rows):
                ahead = [ids[r + 1][n] for n in (lane - 1, lane, lane + 1) if n in ids[r + 1]]
            else:
                ahead = ["FINISH"]
            space: dict = {
                "id": ids[r][lane],
                "row": r,
                "lane": lane,
                "ahead": ahead,
                "x": round(x0 + left[0] * shift, 1),
                "y": round(y0 + left[1] * shift, 1),
                "angle": round(heading, 1),
                "shape": "curved" if curved else "rectangular",
            }
            if r + 1 < len(rows) and lane in ids[r + 1]:
                space["straight"] = ids[r + 1][lane]
            # A bend's outside edge: the left lane on a right-hand (clockwise) turn.
            outside = min(int(c) for c in lanes) if turn > 0 else max(int(c) for c in lanes)
            if curved and lane == outside and len(lanes) > 1:
                space["rumble"] = True
            if len(lanes) == 1:
                space["tight"] = True
            spaces.append(space)
    grid_rows = [r for r in range(3)]
    grid = [ids[r][lane] for r in reversed(grid_rows) for lane in sorted(ids[r])]
    return {
        "edition": EDITION,
        "name": design["name"],
        "title": design["title"],
        "lines": design["lines"],
        "grid": grid,
        "spaces": spaces,
    }


def designs() -> dict[str, dict]:
    return {
        "river-station": build(RIVER_STATION, stadium(600, 462, 240, 240), 0.93),
        "marina-bay": build(MARINA_BAY, bay(600, 470, 480, 305, 75), 0.93),
    }


def write(folder: Path = OUT) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in designs().items():
        (folder / f"{name}.json").write_text(dumps(data), encoding="utf-8")


def dumps(data: dict) -> str:
    """The track as JSON with one space per line (readable diffs when a layout is tuned)."""
    head = {k: v for k, v in data.items() if k != "spaces"}
    lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    spaces = ",\n".join("  " + json.dumps(space) for space in data["spaces"])
    return "{\n" + "\n".join(lines) + '\n "spaces": [\n' + spaces + "\n ]\n}\n"


if __name__ == "__main__":
    write()
