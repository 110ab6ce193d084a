"""The pace of a table's own steps (a flipped card, a roll).

Ruling: the pace is the time from one card to the next, so the time the last one took to announce
(its odds and its picture) is part of it, not added to it: a busy bot does not slow its races down.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator


class Steps:
    def __init__(self) -> None:
        self._last: tuple[int, float] | None = None  # (the step count after it, when it began)

    def left_of(self, pause: float, seq: int) -> float:
        """How much of ``pause`` is still to wait before the step after ``seq`` actions: the time
        since the last step began counts, if nothing else was done since."""
        if self._last is not None and self._last[0] == seq:
            pause -= asyncio.get_running_loop().time() - self._last[1]
        return max(0.0, pause)

    @contextlib.contextmanager
    def timing(self, seq: Callable[[], int]) -> Iterator[None]:
        """Around a step and its announcement: remembers when it began, for the next ``left_of``."""
        began = asyncio.get_running_loop().time()
        yield
        self._last = (seq(), began)
