"""The design of our own River Station and Marina Bay, written out as the track data files.

``python -m bot.games.downforce.track_design`` rewrites ``assets/downforce/tracks/*.json``. The
engine reads only those files; this module is how they were made, kept so the layouts can be
tuned (row widths, bottlenecks, the betting lines) and redrawn without hand-editing coordinates.

A layout is a list of rows, each a string of the lanes it has (``"012"`` three wide, ``"1"`` a
one-car bottleneck in the middle lane). Each space steps to the spaces of the next row in its own
lane or a neighbouring one. Spaces sit along a closed centre line drawn on a 1200 x 800 picture;
a space is ``curved`` where the line bends, ``rectangular`` where it runs straight; the outside
lane of a bend has a rumble strip; one-car-wide spaces (a one-lane row, or
one road of a split) are ``tight``.
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


# The special tracks (our own designs): each feature is data on top of the rows, set by id.
# Crosstown Speedway: two "02" split sections (two separate roads, no crossing between them)
# and two crossover loops (drawn as a bulge off the main road; a car that enters goes round).
CROSSTOWN_SPEEDWAY = {
    "name": "crosstown-speedway",
    "title": "Crosstown Speedway",
    "rows": ["01"] * 3
    + ["012"] * 7
    + ["02"] * 3
    + ["012"] * 2
    + ["01"] * 4
    + ["012"] * 3
    + ["02"] * 3
    + ["012"] * 2
    + ["12"] * 4
    + ["012"] * 3,
    "lines": [11, 20, 28],
    "loops": {"west": (15, 18), "east": (27, 30)},
}

# Switchback Pass: cracked spaces along wide sections: usable to get past a car, never to stop.
SWITCHBACK_PASS = {
    "name": "switchback-pass",
    "title": "Switchback Pass",
    "rows": ["01"] * 3
    + ["012"] * 8
    + ["01"] * 2
    + ["012"] * 4
    + ["1"]
    + ["012"] * 5
    + ["12"] * 2
    + ["012"] * 4
    + ["01"] * 2
    + ["012"] * 3,
    "lines": [11, 20, 28],
    "cracks": ["13c", "14c", "15c", "19a", "20a", "26c", "27c", "28c"],
}

# Aloha Sands: two ramps, each jumping a car two rows further for one space of movement.
ALOHA_SANDS = {
    "name": "aloha-sands",
    "title": "Aloha Sands",
    "rows": ["01"] * 3
    + ["012"] * 8
    + ["01"] * 2
    + ["1"]
    + ["012"] * 6
    + ["12"] * 2
    + ["012"] * 5
    + ["1"]
    + ["012"] * 6,
    "lines": [11, 20, 28],
    "ramps": {"08a": (4, "11a"), "17c": (5, "20c"), "26a": (4, "29a")},
}

# Savanna Stretch: three animals wandering forward through wide sections (never a one-car row,
# so a car can always get by).
SAVANNA_STRETCH = {
    "name": "savanna-stretch",
    "title": "Savanna Stretch",
    "rows": ["01"] * 3
    + ["012"] * 8
    + ["01"] * 2
    + ["1"]
    + ["012"] * 8
    + ["12"]
    + ["012"] * 7
    + ["01"]
    + ["012"] * 3,
    "lines": [11, 20, 28],
    "animals": [
        {"kind": "antelope", "path": ["06b", "08b", "10b", "16a", "19c"]},
        {"kind": "elephant", "path": ["17b", "18b", "20b"]},
        {"kind": "python", "path": ["26a", "28c", "30b"]},
    ],
}
LOOP_BULGE = 70.0  # how far a crossover loop swings out from the main road when drawn


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
    loops: dict[str, tuple[int, int]] = design.get("loops", {})
    loop_of = {
        r: (name, first, last) for name, (first, last) in loops.items() for r in range(first, last + 1)
    }
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
        loop = loop_of.get(r)
        if loop:  # a crossover loop swings out to the outside of the track
            _, first, last = loop
            bulge = LOOP_BULGE * math.sin(math.pi * (r - first + 1) / (last - first + 2))
            x0, y0 = x0 + left[0] * bulge, y0 + left[1] * bulge
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
            # One car wide: a one-lane row, or one road of a split section (no lane beside it).
            if str(lane - 1) not in lanes and str(lane + 1) not in lanes:
                space["tight"] = True
            if loop:
                space["loop"] = loop[0]
                if r == loop[1]:
                    space["loop_entry"] = True
                if r == loop[2]:
                    space["loop_exit"] = True
            if space["id"] in design.get("cracks", ()):
                space["crack"] = True
                space.pop("rumble", None)
            if space["id"] in design.get("ramps", {}):
                speed, landing = design["ramps"][space["id"]]
                space["ramp"] = {"speed": speed, "to": landing}
            spaces.append(space)
    grid_rows = [r for r in range(3)]
    grid = [ids[r][lane] for r in reversed(grid_rows) for lane in sorted(ids[r])]
    out = {
        "edition": EDITION,
        "name": design["name"],
        "title": design["title"],
        "lines": design["lines"],
        "grid": grid,
    }
    if "animals" in design:
        out["animals"] = [{**a, "at": 0} for a in design["animals"]]
    out["spaces"] = spaces
    return out


def designs() -> dict[str, dict]:
    return {
        "river-station": build(RIVER_STATION, stadium(600, 462, 240, 240), 0.93),
        "marina-bay": build(MARINA_BAY, bay(600, 470, 480, 305, 75), 0.93),
        "crosstown-speedway": build(CROSSTOWN_SPEEDWAY, stadium(600, 455, 290, 215), 0.93),
        "switchback-pass": build(SWITCHBACK_PASS, bay(600, 470, 480, 305, 110), 0.93),
        "aloha-sands": build(ALOHA_SANDS, bay(600, 478, 470, 290, 30), 0.93),
        "savanna-stretch": build(SAVANNA_STRETCH, stadium(600, 462, 260, 235), 0.93),
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
