"""Keeps each channel under Discord's message rate limit, so a fast race never turns into a 429 storm."""

from __future__ import annotations

import asyncio
import time
from collections import deque


class ChannelPacer:
    """At most ``burst`` sends per ``window`` seconds per channel (a sliding window)."""

    def __init__(self, burst: int, window: float) -> None:
        self.burst = burst
        self.window = window
        self._sent: dict[int, deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def wait_turn(self, channel_id: int) -> None:
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            sent = self._sent.setdefault(channel_id, deque())
            now = time.monotonic()
            while sent and now - sent[0] >= self.window:
                sent.popleft()
            if len(sent) >= self.burst:
                await asyncio.sleep(self.window - (now - sent[0]) + 0.01)
                sent.popleft()
            sent.append(time.monotonic())
