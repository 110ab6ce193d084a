"""The cars on the track: where each is, who has finished, and the running order.

Ranking (also a car's "current position" for odds betting): finished cars by
the order they crossed the finish; cars still racing by the row they reached, furthest first;
ties go to the lower lane number. A car not on the track (only in scenarios) ranks last.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.base import JSON
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.movement import Way
from bot.games.downforce.track import FINISH, Track


@dataclass
class Race:
    track: Track
    spaces: dict[str, str | None]  # colour -> space id, FINISH once finished, None if not on the track
    finished: list[str] = field(default_factory=list)  # colours in finishing order
    crossings: list[dict[str, JSON]] = field(default_factory=list)  # first crossing of each line
    # Savanna Stretch: each {"kind", "path": [space ids], "at": index into path, or None once gone}
    animals: list[dict[str, JSON]] = field(default_factory=list)

    @classmethod
    def on_grid(cls, track: Track, order: list[str]) -> Race:
        """Cars placed on the grid: ``order[0]`` on pole."""
        spaces: dict[str, str | None] = {
            colour: space for colour, space in zip(order, track.grid, strict=True)
        }
        return cls(track, spaces, animals=start_animals(track))

    def occupied(self) -> set[str]:
        """Spaces a car may not enter: other cars' and the animals'."""
        cars = {s for s in self.spaces.values() if s is not None and s != FINISH}
        return cars | set(self.animal_spaces())

    def animal_spaces(self) -> list[str]:
        return [a["path"][a["at"]] for a in self.animals if a["at"] is not None]

    def move_animals(self, moves: list[dict[str, JSON]], *, whole_turn: bool = True) -> list[dict[str, JSON]]:
        """End of a turn: each animal some car passed this turn (from a row before the animal's to
        one beyond it, or the finish) moves to the next space of its path that is empty, skipping
        taken ones (ruling), or leaves the board from its last space; with every later space
        taken it stays. Animals move in the track's order.

        ``whole_turn`` (rules 2): a car passed an animal when it was on a row before the animal's
        at some point of the turn and on a row beyond it later in the turn, over all its moves of
        the turn (every line of the card, every power's move). Rules 1 judged each move alone."""
        out = []
        for index, animal in enumerate(self.animals):
            if animal["at"] is None:
                continue
            here = animal["path"][animal["at"]]
            row = self.track.row(here)
            if whole_turn:
                passed = any(
                    _passed_over_turn(self.track, moves, car, row) for car in {m["car"] for m in moves}
                )
            else:
                passed = any(self.track.row(m["from"]) < row < self.track.row(m["to"]) for m in moves)
            if not passed:
                continue
            taken = self.occupied()
            later = [
                i for i in range(animal["at"] + 1, len(animal["path"])) if animal["path"][i] not in taken
            ]
            if animal["at"] == len(animal["path"]) - 1:
                animal["at"] = None
            elif later:
                animal["at"] = later[0]
            else:
                continue
            to = None if animal["at"] is None else animal["path"][animal["at"]]
            to_row = None if to is None else self.track.row(to)
            out.append({"animal": index, "kind": animal["kind"], "from": here, "to": to, "row": to_row})
        return out

    def racing(self, colour: str) -> bool:
        space = self.spaces.get(colour)
        return space is not None and space != FINISH

    def where(self, colour: str) -> str:
        """The space of a car on the track (``FINISH`` once it has finished)."""
        space = self.spaces[colour]
        if space is None:
            raise ValueError(f"the {colour} car is not on the track")
        return space

    def place_of(self, colour: str) -> int | None:
        return self.finished.index(colour) + 1 if colour in self.finished else None

    @property
    def all_finished(self) -> bool:
        return all(not self.racing(c) for c in self.spaces)

    def move(self, colour: str, way: Way, card: int) -> dict[str, JSON]:
        """Take ``way``; returns what happened (and notes each betting line crossed for the first time)."""
        start = self.spaces[colour]
        assert start is not None and start != FINISH
        end = way.end or start
        self.spaces[colour] = end
        place = None
        if end == FINISH:
            self.finished.append(colour)
            place = len(self.finished)
        first: list[int] = []
        done = {c["line"] for c in self.crossings}
        for index in self.track.lines_crossed(start, end):
            row = self.track.lines[index]
            if row not in done:
                self.crossings.append({"line": row, "car": colour, "card": card})
                first.append(index)
        return {
            "car": colour,
            "from": start,
            "to": end,
            "path": list(way.path),
            "steps": way.steps,
            "row": self.track.row(end),
            "place": place,
            "first_lines": first,
        }

    def standings(self) -> list[str]:
        """Every car, best first (see the module's ranking rule)."""
        racing = [c for c in COLOURS if c in self.spaces and self.racing(c)]
        racing.sort(key=lambda c: (-self.track.row(self.where(c)), self.track.spaces[self.where(c)].lane, c))
        rest = [c for c in COLOURS if c not in self.finished and c not in racing]
        return [*self.finished, *racing, *rest]

    def position(self, colour: str) -> int:
        return self.standings().index(colour) + 1

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "spaces": dict(self.spaces),
            "finished": list(self.finished),
            "crossings": list(self.crossings),
        }
        if self.animals:
            out["animals"] = [dict(a, path=list(a["path"])) for a in self.animals]
        return out

    @classmethod
    def from_json(cls, track: Track, data: dict[str, JSON]) -> Race:
        return cls(
            track,
            dict(data["spaces"]),
            list(data["finished"]),
            [dict(c) for c in data["crossings"]],
            [dict(a, path=list(a["path"])) for a in data.get("animals", [])],
        )


def _passed_over_turn(track: Track, moves: list[dict[str, JSON]], car: JSON, row: int) -> bool:
    """Whether ``car`` was before ``row`` at some point of the turn and beyond it at a later one."""
    before = False
    for m in moves:
        if m["car"] != car:
            continue
        before = before or track.row(m["from"]) < row
        if before and track.row(m["to"]) > row:
            return True
    return False


def start_animals(track: Track) -> list[dict[str, JSON]]:
    """The track's animals where they start (``track.extra["animals"]``)."""
    return [
        {"kind": a["kind"], "path": list(a["path"]), "at": a.get("at", 0)}
        for a in track.extra.get("animals", [])
    ]
