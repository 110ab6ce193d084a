"""The seeded RNG every game owns, serialisable to JSON so a stored game continues its dice."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from random import Random
from typing import Any, TypeVar

T = TypeVar("T")


class GameRng:
    """``random.Random`` with a JSON round-trip; the only source of chance in an engine."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        return self._random.choice(items)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._random.shuffle(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._random.sample(list(items), k)

    def random(self) -> float:
        return self._random.random()

    def fork(self) -> Random:  # (not random.Random: in this class, "random" is the method below)
        """A separate generator seeded from this one (for AI look-ahead that must not disturb the game)."""
        return random.Random(self._random.getrandbits(64))

    def to_json(self) -> list[Any]:
        version, internal, gauss = self._random.getstate()
        return [version, list(internal), gauss]

    @classmethod
    def from_json(cls, data: list[Any]) -> GameRng:
        rng = cls(0)
        version, internal, gauss = data
        rng._random.setstate((version, tuple(internal), gauss))
        return rng
