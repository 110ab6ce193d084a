"""The race mat: lanes, length, star spaces and the white lines the yellow bar folds to.

Lanes are numbered 0.. from the left as seen facing the finish. Spaces in a lane are
0..length-1, 0 being the start; reaching ``length`` (or beyond) is crossing the finish.
A mascot has crossed white line ``k`` when its position is ``>= k``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from bot.games.base import JSON


@dataclass(frozen=True)
class Track:
    lanes: int
    length: int
    stars: tuple[tuple[int, ...], ...]
    white_lines: tuple[int, ...]

    def next_star(self, lane: int, pos: int, step: int, bar: int) -> int | None:
        """The nearest star in ``lane`` strictly beyond ``pos`` in direction ``step`` (+1/-1).

        Ruling: stars below the folded yellow bar are folded under the mat and no longer
        count, so a star never sends a mascot off the back of the track.
        """
        ahead = [s for s in self.stars[lane] if (s - pos) * step > 0 and s >= bar]
        if not ahead:
            return None
        return min(ahead, key=lambda s: abs(s - pos))

    def next_white_line(self, bar: int) -> int:
        """Where the yellow bar folds to from ``bar``: the next white line ahead, else the finish."""
        ahead = [w for w in self.white_lines if w > bar]
        return min(ahead) if ahead else self.length

    def to_json(self) -> dict[str, JSON]:
        return {
            "lanes": self.lanes,
            "length": self.length,
            "stars": [list(lane) for lane in self.stars],
            "white_lines": list(self.white_lines),
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Track:
        return cls(
            lanes=int(data["lanes"]),
            length=int(data["length"]),
            stars=tuple(tuple(int(s) for s in lane) for lane in data["stars"]),
            white_lines=tuple(int(w) for w in data["white_lines"]),
        )


def track_problem(data: object) -> tuple[str, str] | None:
    """The first (field, problem) that makes ``data`` an unusable track, or ``None``.

    Shared by the content loader and the scenario runner so both reject the same things.
    """
    if not isinstance(data, dict):
        return ("track", "must be an object")
    lanes, length = data.get("lanes"), data.get("length")
    if not _is_int(lanes) or lanes < 1:
        return ("lanes", "must be a whole number >= 1")
    if not _is_int(length) or length < 2:
        return ("length", "must be a whole number >= 2")
    stars = data.get("stars")
    if not isinstance(stars, list) or len(stars) != lanes:
        return ("stars", f"must be a list of {lanes} lists (one per lane)")
    for i, lane in enumerate(stars):
        if not isinstance(lane, list) or not all(_is_int(s) and 0 < s < length for s in lane):
            return (f"stars[{i}]", f"must list spaces between 1 and {length - 1}")
        if len(set(lane)) != len(lane):
            return (f"stars[{i}]", "lists a space twice")
    lines = data.get("white_lines")
    if not isinstance(lines, list) or not all(_is_int(w) and 0 < w < length for w in lines):
        return ("white_lines", f"must list positions between 1 and {length - 1}")
    if sorted(set(lines)) != lines:
        return ("white_lines", "must be strictly increasing")
    return None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
