"""How a car moves: the ways one line of a card can take it, step by step along the track graph.

A step goes to an empty space one step ahead (straight or diagonal), or across the finish. The car
must keep stepping while it has speed left and somewhere to go; a way ends when the speed is used
up, at the finish, or early in a space with nothing free ahead (a dead end, which the player on
turn may choose on purpose). The player on turn picks among the *end spaces* of the ways.

``Mover`` is the one place that says which steps are allowed and where a way may end, so powers
and track features (ramps, cracks, loops, animals) hook in by subclassing it rather than by
changing the game.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.games.downforce.track import FINISH, Track


@dataclass(frozen=True)
class Way:
    """One way a move can go: the spaces stepped through, start excluded (may end with FINISH)."""

    path: tuple[str, ...]

    @property
    def end(self) -> str | None:
        return self.path[-1] if self.path else None

    @property
    def steps(self) -> int:
        return len(self.path)


class Mover:
    """The movement rules of the base game; subclass and override the hooks to change them."""

    def __init__(self, track: Track) -> None:
        self.track = track

    def steps_from(self, space: str, occupied: Collection[str]) -> list[str]:
        """Where one step from ``space`` may go: an empty space ahead, or the finish."""
        return [s for s in self.track.ahead(space) if s == FINISH or s not in occupied]

    def ways(self, start: str, speed: int, occupied: Collection[str]) -> dict[str, Way]:
        """Every legal end of a move of ``speed`` from ``start``, each with its shortest way there.

        Keys are end spaces (``FINISH`` included); a car that cannot take a single step gets one
        entry, its own space, with an empty way. Among ways of equal length to the same end the
        one through the smallest ids (as plain strings) is kept, so the result is deterministic.
        """
        blocked = set(occupied) - {start}
        best: dict[str, Way] = {}
        memo: dict[tuple[str, int], dict[str, tuple[str, ...]]] = {}

        def ends(space: str, left: int) -> dict[str, tuple[str, ...]]:
            key = (space, left)
            if key in memo:
                return memo[key]
            out: dict[str, tuple[str, ...]] = {}
            nexts = self.steps_from(space, blocked) if left > 0 else []
            if not nexts:
                out[space] = ()
            for step in nexts:
                if step == FINISH:
                    _keep(out, FINISH, (FINISH,))
                    continue
                for end, path in ends(step, left - 1).items():
                    _keep(out, end, (step, *path))
            memo[key] = out
            return out

        for path in ends(start, speed).values():
            way = self.settle(start, Way(path))
            end = way.end or start
            if end not in best or (way.steps, way.path) < (best[end].steps, best[end].path):
                best[end] = way
        return best

    def settle(self, start: str, way: Way) -> Way:
        """Where a way really ends (the base game: where it stops). A hook for track features that
        change the end after the fact, such as a cracked space a car may pass but not stop on."""
        return way


def _keep(out: dict[str, tuple[str, ...]], end: str, path: tuple[str, ...]) -> None:
    old = out.get(end)
    if old is None or (len(path), path) < (len(old), old):
        out[end] = path
