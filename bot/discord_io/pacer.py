"""Keeps each channel under Discord's message rate limit, so a fast race never turns into a 429 storm."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class ChannelPacer:
    """At most ``burst`` sends or edits per ``window`` seconds per channel (a sliding window).

    A request is stamped when it *finishes*: Discord counts it when it arrives, which is never
    later than that, so the window as Discord sees it is always at least ``window`` long.
    """

    def __init__(self, burst: int, window: float) -> None:
        self.burst = burst
        self.window = window
        self._done: dict[int, deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._swept = time.monotonic()

    def channels(self) -> int:
        """How many channels the pacer remembers now."""
        return len(self._locks)

    def _sweep(self) -> None:
        """Forget channels whose last request is over a window old and that nobody is using: they
        constrain nothing, and a bot in many servers would otherwise remember every channel forever.
        Done at most once a window, so it costs little."""
        moment = time.monotonic()
        if moment - self._swept < self.window:
            return
        self._swept = moment
        for channel_id, lock in list(self._locks.items()):
            done = self._done.get(channel_id)
            idle = not done or moment - done[-1] >= self.window
            if idle and not lock.locked():
                del self._locks[channel_id]
                self._done.pop(channel_id, None)

    @asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        self._sweep()
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            done = self._done.setdefault(channel_id, deque(maxlen=self.burst))
            if len(done) >= self.burst:
                wait = self.window - (time.monotonic() - done[0])
                if wait > 0:
                    await asyncio.sleep(wait)
            try:
                yield
            finally:
                done.append(time.monotonic())
