"""A track as data: a graph of spaces, each with the spaces one step ahead of it.

A space has an ``id``, a ``row`` (how far along the track it is; every step ahead goes to a
higher row, so a race always moves forward and ends) and a ``lane`` (across the track, 0 at the
left facing the finish). ``ahead`` lists the spaces one step away, straight or diagonally ahead;
the id ``FINISH`` there means that step crosses the finish. The three yellow betting lines are
rows. Shipped tracks add the start ``grid`` (pole first) and drawing positions (``x``, ``y``,
``angle``), and flags for the features and powers of the special tracks: ``straight`` (the space
directly ahead), ``shape`` (``curved`` or ``rectangular``), ``rumble``, ``tight``, ``crack``,
``ramp``, ``loop`` (see ``SPACE_FLAGS``); the base game only carries and draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.base import JSON

FINISH = "FINISH"
LINES = 3
SPACE_KEYS = {"id", "row", "lane", "ahead", "x", "y", "angle"}
SPACE_FLAGS = {"straight", "shape", "rumble", "tight", "crack", "ramp", "loop", "loop_entry", "loop_exit"}
SHAPES = ("curved", "rectangular")
ANIMALS = ("antelope", "elephant", "python")


@dataclass(frozen=True)
class Space:
    id: str
    row: int
    lane: int
    ahead: tuple[str, ...]
    x: float | None = None
    y: float | None = None
    angle: float | None = None
    flags: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"id": self.id, "row": self.row, "lane": self.lane, "ahead": list(self.ahead)}
        for key in ("x", "y", "angle"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out.update(self.flags)
        return out


class Track:
    """The spaces, the start grid, the betting lines; built from checked JSON (``track_problem``)."""

    def __init__(self, data: dict[str, JSON]) -> None:
        self.name: str = data["name"] if "name" in data else "custom"
        self.title: str = data["title"] if "title" in data else self.name
        self.spaces: dict[str, Space] = {}
        for item in data["spaces"]:
            flags = {k: v for k, v in item.items() if k in SPACE_FLAGS}
            self.spaces[item["id"]] = Space(
                item["id"],
                item["row"],
                item["lane"],
                tuple(item["ahead"]),
                item.get("x"),
                item.get("y"),
                item.get("angle"),
                flags,
            )
        self.lines: tuple[int, ...] = tuple(data["lines"])
        self.grid: tuple[str, ...] = tuple(data.get("grid", ()))
        self.extra: dict[str, JSON] = {
            k: v for k, v in data.items() if k not in ("name", "title", "spaces", "lines", "grid")
        }
        self.last_row = max(s.row for s in self.spaces.values())

    def ahead(self, space: str) -> tuple[str, ...]:
        return self.spaces[space].ahead

    def row(self, space: str) -> int:
        return self.last_row + 1 if space == FINISH else self.spaces[space].row

    def lines_crossed(self, start: str, end: str) -> list[int]:
        """Indexes of the betting lines a move from ``start`` to ``end`` crosses (row below -> at or past)."""
        before, after = self.row(start), self.row(end)
        return [i for i, row in enumerate(self.lines) if before < row <= after]

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "name": self.name,
            "title": self.title,
            **self.extra,
            "lines": list(self.lines),
            "grid": list(self.grid),
            "spaces": [s.to_json() for s in self.spaces.values()],
        }
        return out


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def track_problem(
    data: object, *, needs_grid: bool = False, line_count: int | None = LINES
) -> tuple[str, str] | None:
    """``(field, why)`` for the first thing wrong with a track's JSON, or ``None``."""
    if not isinstance(data, dict):
        return ("(track)", "must be an object with spaces and lines")
    spaces = data.get("spaces")
    if not isinstance(spaces, list) or not spaces:
        return ("spaces", "must be a non-empty list of spaces")
    rows: dict[str, int] = {}
    for i, item in enumerate(spaces):
        where = f"spaces[{i}]"
        if not isinstance(item, dict):
            return (where, "must be an object with id, row, lane and ahead")
        ident = item.get("id")
        if not isinstance(ident, str) or not ident or ident == FINISH:
            return (f"{where}.id", f"must be a non-empty string other than {FINISH}")
        if ident in rows:
            return (f"{where}.id", f"{ident!r} is used twice")
        for key in ("row", "lane"):
            if not _whole(item.get(key)) or item[key] < 0:
                return (f"{where}.{key}", "must be a whole number >= 0")
        for key in ("x", "y", "angle"):
            if key in item and not _number(item[key]):
                return (f"{where}.{key}", "must be a number")
        unknown = set(item) - SPACE_KEYS - SPACE_FLAGS
        if unknown:
            return (f"{where}.{sorted(unknown)[0]}", "is not a space field")
        if "shape" in item and item["shape"] not in SHAPES:
            return (f"{where}.shape", f"must be one of {', '.join(SHAPES)}")
        for flag in ("rumble", "tight", "crack", "loop_entry", "loop_exit"):
            if flag in item and not isinstance(item[flag], bool):
                return (f"{where}.{flag}", "must be true or false")
        rows[ident] = item["row"]
    for i, item in enumerate(spaces):
        where = f"spaces[{i}]"
        ahead = item.get("ahead")
        if not isinstance(ahead, list) or not all(isinstance(a, str) for a in ahead):
            return (f"{where}.ahead", "must be a list of space ids (or FINISH)")
        if len(set(ahead)) != len(ahead):
            return (f"{where}.ahead", "names a space twice")
        for target in ahead:
            if target == FINISH:
                continue
            if target not in rows:
                return (f"{where}.ahead", f"unknown space {target!r}")
            # Every step goes to a higher row: no way round in circles, so every move ends.
            if rows[target] <= item["row"]:
                return (f"{where}.ahead", f"{target!r} is not on a later row than {item['id']!r}")
        if "straight" in item and item["straight"] not in ahead:
            return (f"{where}.straight", "must be one of the spaces in ahead")
        if "loop" in item and (not isinstance(item["loop"], str) or not item["loop"]):
            return (f"{where}.loop", "must be the loop's name (a non-empty string)")
        if "ramp" in item:
            ramp = item["ramp"]
            if not isinstance(ramp, dict) or set(ramp) != {"speed", "to"}:
                return (f"{where}.ramp", 'must be {"speed": N, "to": "space id"}')
            if not _whole(ramp["speed"]) or not 1 <= ramp["speed"] <= 99:
                return (f"{where}.ramp.speed", "must be a whole number from 1 to 99")
            if ramp["to"] not in rows:
                return (f"{where}.ramp.to", f"unknown space {ramp['to']!r}")
            if rows[ramp["to"]] <= item["row"]:
                return (f"{where}.ramp.to", f"{ramp['to']!r} is not on a later row than {item['id']!r}")
    if not any(FINISH in item["ahead"] for item in spaces):
        return ("spaces", f"no space has {FINISH} ahead: the race could never end")
    lines = data.get("lines")
    last = max(rows.values())
    if (
        not isinstance(lines, list)
        or (line_count is not None and len(lines) != line_count)
        or not all(_whole(r) for r in lines)
        or lines != sorted(set(lines))
    ):
        count = "" if line_count is None else f"{line_count} "
        return ("lines", f"must be {count}different rows (whole numbers), in order")
    if not all(0 < r <= last for r in lines):
        return ("lines", f"must be rows from 1 to {last} (before the finish)")
    animals = data.get("animals", [])
    if not isinstance(animals, list):
        return ("animals", "must be a list of animals")
    for i, animal in enumerate(animals):
        where = f"animals[{i}]"
        if not isinstance(animal, dict) or set(animal) - {"kind", "path", "at"}:
            return (where, 'must be {"kind": ..., "path": [space ids], "at": index}')
        if animal.get("kind") not in ANIMALS:
            return (f"{where}.kind", f"must be one of {', '.join(ANIMALS)}")
        path = animal.get("path")
        if not isinstance(path, list) or not path or not all(p in rows for p in path):
            return (f"{where}.path", "must be a non-empty list of known space ids")
        if any(rows[q] <= rows[p] for p, q in zip(path, path[1:], strict=False)):
            return (f"{where}.path", "must go forward: each space on a later row than the one before")
        at = animal.get("at", 0)
        if not _whole(at) or not 0 <= at < len(path):
            return (f"{where}.at", f"must be an index into path (0 to {len(path) - 1})")
    grid = data.get("grid")
    if grid is None and not needs_grid:
        return None
    if not isinstance(grid, list) or len(grid) != 6 or len(set(grid)) != 6:
        return ("grid", "must list 6 different start spaces, pole first")
    for i, ident in enumerate(grid):
        if ident not in rows:
            return (f"grid[{i}]", f"unknown space {ident!r}")
    for i, animal in enumerate(animals):
        if animal["path"][animal.get("at", 0)] in grid:
            return (f"animals[{i}].at", "an animal cannot start on the grid")
    return None
