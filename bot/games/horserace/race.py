"""The horses on the track for one race, and what one roll of the dice does to them.

This is the single copy of the movement rules: the engine applies it one roll at a time,
and the simulator runs it in a tight loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bot.games.horserace.board import HORSES
from bot.games.horserace.scratch import MULTIPLIERS, SLOTS


class Dice(Protocol):
    def randint(self, low: int, high: int) -> int: ...


def roll_dice(rng: Dice) -> tuple[int, int]:
    """Two six-sided dice from the game's RNG."""
    return rng.randint(1, 6), rng.randint(1, 6)


# The totals of the 36 equally likely throws of two dice: drawing one uniformly is a roll.
DICE_TOTALS: tuple[int, ...] = tuple(a + b for a in range(1, 7) for b in range(1, 7))


class Track:
    """Positions (0 = start line, ``moves[h]`` = in the Champion Circle) and scratches in slot order."""

    __slots__ = ("moves", "positions", "scratched", "winner")

    def __init__(
        self,
        moves: Mapping[int, int],
        positions: dict[int, int] | None = None,
        scratched: list[int] | None = None,
        winner: int | None = None,
    ) -> None:
        self.moves = dict(moves)
        self.positions = dict(positions) if positions is not None else {horse: 0 for horse in HORSES}
        self.scratched = list(scratched) if scratched is not None else []
        self.winner = winner

    @property
    def scratching(self) -> bool:
        """True while scratch slots remain to be filled."""
        return len(self.scratched) < SLOTS

    def slot_of(self, horse: int) -> int | None:
        """1-based scratch slot of ``horse``, or None if it is running."""
        return self.scratched.index(horse) + 1 if horse in self.scratched else None

    def scratch_roll(self, total: int) -> int | None:
        """A scratch-round roll: the slot ``total`` takes, or None when already scratched (roll again)."""
        if total in self.scratched:
            return None
        self.scratched.append(total)
        return len(self.scratched)

    def race_roll(self, total: int) -> int:
        """A race roll: the penalty multiplier for a scratched number, else 0 after moving that horse one step.

        The horse that completes its moves is the winner.
        """
        scratched = self.scratched
        if total in scratched:
            return MULTIPLIERS[scratched.index(total)]
        position = self.positions[total] + 1
        self.positions[total] = position
        if position >= self.moves[total]:
            self.winner = total
        return 0

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": {str(h): p for h, p in self.positions.items()},
            "scratched": list(self.scratched),
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, moves: Mapping[int, int], data: dict[str, Any]) -> Track:
        return cls(
            moves,
            positions={int(h): p for h, p in data["positions"].items()},
            scratched=list(data["scratched"]),
            winner=data["winner"],
        )
