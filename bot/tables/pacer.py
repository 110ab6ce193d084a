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

    @asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
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
