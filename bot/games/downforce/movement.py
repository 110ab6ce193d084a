"""How a car moves: the ways one line of a card can take it, step by step along the track graph.

A step goes to an empty space one step ahead (straight or diagonal), or across the finish. The car
must keep stepping while it has speed left and somewhere to go; a way ends when the speed is used
up, at the finish, or early in a space with nothing free ahead (a dead end, which the player on
turn may choose on purpose). The player on turn picks among the *end spaces* of the ways (and,
under rules 2, among two ways to one end when they differ for a power: ``ways_apart``).

``Mover`` is the one place that says which steps are allowed and where a way may end, so powers
and track features hook in here rather than in the game. The track features (each a no-op on a
track without it):

* Crossover loops (``loop`` names the loop of a space; ``loop_entry``/``loop_exit`` mark its ends):
  from a loop space other than its exit a car may only step to a space of the same loop, and a
  car may step into a loop only at an entry space. So a car that enters a loop goes round it; no
  step, power or not, goes from the entry straight to the exit, even where the track links them
  (rules version 1, kept for games stored before issue 27, allowed such a link).
* Ramps (``ramp: {"speed": S, "to": landing}``): a car that *entered* a ramp space during this move
  (not one that starts its move on it), with the line's speed at least S and at least one space of
  movement left, may also step to the landing space if it is empty: the jump uses one space and
  the car goes on from the landing with what is left. The jump is one more way the move can go,
  so the player who picks where the car ends picks whether it jumps (ruling: a jump is only worth
  asking about through where it leads).
* Cracked spaces (``crack``): a car may pass through them but never ends a move on one: a way
  that would end there falls back along its own path to the last regular space it passed (empty,
  since it just passed it); with none, the car stays where its move began. Each way falls back along
  itself, so two ways to one crack can give two ends (rules version 1 fell back along one shortest
  way per crack only: ``settle``).
* Animals block like cars: the game passes their spaces in ``occupied`` (``race.Race``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
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


RULES = 2  # the rules version of new games (see ``rules_version``)


class Mover:
    """The movement rules of the base game; subclass and override the hooks to change them.

    ``rules``: the game's rules version. 1 (games stored before issue 27): a way to a crack falls
    back along the one shortest way to that crack only, and a loop's entry may step straight to its
    exit where the track links them. 2 (new games): each way falls back along itself, and no step
    goes from a loop's entry straight to its exit.
    """

    def __init__(self, track: Track, rules: int = RULES) -> None:
        self.track = track
        self.rules = rules
        self.by_way = rules >= 2  # rule 1 of issue 27: each way falls back from a crack along itself
        self.loop_shortcut = rules < 2  # rule 2: rules 1 let a linked entry step straight to the exit
        self._start: str | None = None  # the move being worked out (for ramps)
        self._speed = 0

    def steps_from(self, space: str, occupied: Collection[str]) -> list[str]:
        """Where one step from ``space`` may go: an empty space ahead, or the finish (loops kept to,
        a ramp's landing added when the jump is allowed)."""
        spaces = self.track.spaces
        here = spaces[space].flags
        out = [
            s
            for s in self.track.ahead(space)
            if s == FINISH
            or (s not in occupied and loop_allows(here, spaces[s].flags, shortcut=self.loop_shortcut))
        ]
        ramp = here.get("ramp")
        if ramp and space != self._start and self._speed >= ramp["speed"]:
            landing = ramp["to"]
            if landing not in occupied and landing not in out:
                out.append(landing)
        return out

    def ways(self, start: str, speed: int, occupied: Collection[str]) -> dict[str, Way]:
        """Every legal end of a move of ``speed`` from ``start``, each with its shortest way there.

        Keys are end spaces (``FINISH`` included); a car that cannot take a single step gets one
        entry, its own space, with an empty way. Among ways of equal length to the same end the
        one through the smallest ids (as plain strings) is kept, so the result is deterministic.
        A way that would end on a crack is keyed by where it falls back to along itself.
        """
        blocked = set(occupied) - {start}
        self._start, self._speed = start, speed
        if self.by_way:
            return self._settled_ways(start, speed, blocked)
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

    def _settled_ways(self, start: str, speed: int, blocked: set[str]) -> dict[str, Way]:
        """``ways`` under rules 2: every way falls back from a crack along its own path, so two
        ways to one crack can give two ends (each path's last regular space)."""
        return {end: way for (end, _), way in self._marked_ways(start, speed, blocked, None).items()}

    def ways_apart(
        self, start: str, speed: int, occupied: Collection[str], mark: Callable[[str], bool]
    ) -> dict[str, dict[bool, Way]]:
        """Rules 2, ruling (c) of issue 27: like ``ways``, but each end keeps its shortest way
        through spaces that are all ``mark``-ed (key True) and its shortest way through some
        space that is not (key False), where such a way exists. A power that reads the way
        (Determined: all rectangular; Reckless: no tight space) tells them apart this way."""
        blocked = set(occupied) - {start}
        self._start, self._speed = start, speed
        out: dict[str, dict[bool, Way]] = {}
        for (end, marked), way in self._marked_ways(start, speed, blocked, mark).items():
            out.setdefault(end, {})[marked] = way
        return out

    def _marked_ways(
        self, start: str, speed: int, blocked: set[str], mark: Callable[[str], bool] | None
    ) -> dict[tuple[str, bool], Way]:
        """The shortest way to each (end, all its spaces ``mark``-ed); with no ``mark`` every
        space counts as marked, so there is one way per end (``_settled_ways``)."""
        spaces = self.track.spaces
        memo: dict[tuple[str, int], dict[tuple[str | None, bool], tuple[str, ...]]] = {}

        def regular(space: str) -> bool:
            return not spaces[space].flags.get("crack")

        def marked(space: str) -> bool:
            return mark is None or mark(space)

        def ends(space: str, left: int) -> dict[tuple[str | None, bool], tuple[str, ...]]:
            """Ways from ``space`` (itself first in each path), keyed by where they settle (the
            last regular space of the path (cut there), FINISH, or None: cracks only) and
            whether every space after ``space`` in the cut path is marked."""
            key = (space, left)
            if key in memo:
                return memo[key]
            here: str | None = space if regular(space) else None
            out: dict[tuple[str | None, bool], tuple[str, ...]] = {}
            nexts = self.steps_from(space, blocked) if left > 0 else []
            if not nexts:
                _keep_any(out, (here, True), (space,))
            for step in nexts:
                if step == FINISH:
                    _keep_any(out, (FINISH, True), (space, FINISH))
                    continue
                for (end, all_marked), path in ends(step, left - 1).items():
                    if end is None:
                        _keep_any(out, (here, True), (space,))
                    else:
                        _keep_any(out, (end, all_marked and marked(step)), (space, *path))
            memo[key] = out
            return out

        best: dict[tuple[str, bool], Way] = {}
        for (end, all_marked), path in ends(start, speed).items():
            best[(end or start, all_marked)] = Way(path[1:] if end is not None else ())
        return best

    def settle(self, start: str, way: Way) -> Way:
        """Where a way really ends: back from a cracked space to the last regular one passed."""
        spaces = self.track.spaces
        if not way.path or way.end == FINISH or not spaces[way.path[-1]].flags.get("crack"):
            return way
        for i in range(len(way.path) - 2, -1, -1):
            if not spaces[way.path[i]].flags.get("crack"):
                return Way(way.path[: i + 1])
        return Way(())


def loop_allows(here: dict, there: dict, *, shortcut: bool = False) -> bool:
    """Whether a step from a space with flags ``here`` to one with ``there`` keeps to the loops.
    Never from a loop's entry straight to its exit (``shortcut``: rules 1 allowed it where linked)."""
    loop = here.get("loop")
    if loop and not here.get("loop_exit"):
        if not shortcut and here.get("loop_entry") and there.get("loop_exit") and there.get("loop") == loop:
            return False
        return there.get("loop") == loop
    target = there.get("loop")
    if target and target != loop:
        return bool(there.get("loop_entry"))
    return True


def _keep_any(out: dict, end: object, path: tuple[str, ...]) -> None:
    old = out.get(end)
    if old is None or (len(path), path) < (len(old), old):
        out[end] = path


def _keep(out: dict[str, tuple[str, ...]], end: str, path: tuple[str, ...]) -> None:
    old = out.get(end)
    if old is None or (len(path), path) < (len(old), old):
        out[end] = path
