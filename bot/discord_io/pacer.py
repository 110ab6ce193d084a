"""Keeps each channel under Discord's message rate limits, so a fast race never turns into a 429 storm."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal

Kind = Literal["create", "edit"]
"""What a request does to the channel: Discord limits new messages and edits of messages in separate
buckets (``POST`` and ``PATCH`` on the channel's messages), each about 5 per 5 s per channel."""


class Turn:
    """One request's turn in its channel: :meth:`ready` waits until ``kind``'s window has room."""

    def __init__(self, pacer: ChannelPacer, channel_id: int) -> None:
        self._pacer = pacer
        self._channel_id = channel_id
        self.kinds: list[Kind] = []  # the requests made in this turn (a gone live message: two)

    async def ready(self, kind: Kind) -> None:
        """Wait for room in ``kind``'s window; the request is counted there when the turn ends."""
        self.kinds.append(kind)
        done = self._pacer._window(self._channel_id, kind)
        if len(done) >= self._pacer.burst:
            wait = self._pacer.window - (time.monotonic() - done[0])
            if wait > 0:
                await asyncio.sleep(wait)


class ChannelPacer:
    """At most ``burst`` new messages, and ``burst`` edits, per ``window`` seconds per channel (sliding
    windows), in the order they were asked for.

    Why two windows: Discord counts a channel's new messages and its edits in separate buckets. With one
    window a race's live message, edited after every card, used up the channel's room, and the next
    race's betting prompt (a new message, the one that notifies) waited behind those edits: at 200 games
    90 of 4,000 prompts came 2 to 4 s after their decision began (docs/scaling.md).

    A request is stamped when it *finishes*: Discord counts it when it arrives, which is never
    later than that, so the window as Discord sees it is always at least ``window`` long.
    """

    def __init__(self, burst: int, window: float) -> None:
        self.burst = burst
        self.window = window
        self._done: dict[tuple[int, Kind], deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._swept = time.monotonic()

    def channels(self) -> int:
        """How many channels the pacer remembers now."""
        return len(self._locks)

    def _window(self, channel_id: int, kind: Kind) -> deque[float]:
        return self._done.setdefault((channel_id, kind), deque(maxlen=self.burst))

    def _sweep(self) -> None:
        """Forget channels whose last request is over a window old and that nobody is using: they
        constrain nothing, and a bot in many servers would otherwise remember every channel forever.
        Done at most once a window, so it costs little."""
        moment = time.monotonic()
        if moment - self._swept < self.window:
            return
        self._swept = moment
        for channel_id, lock in list(self._locks.items()):
            windows = [self._done.get((channel_id, kind)) for kind in ("create", "edit")]
            idle = all(not done or moment - done[-1] >= self.window for done in windows)
            if idle and not lock.locked():
                del self._locks[channel_id]
                self._done.pop((channel_id, "create"), None)
                self._done.pop((channel_id, "edit"), None)

    @asynccontextmanager
    async def turn(self, channel_id: int, kind: Kind | None = "create") -> AsyncIterator[Turn]:
        """The channel's next turn. With ``kind`` None the caller learns within its turn what its
        request is (a live message is edited, or posted anew if it is gone) and calls
        :meth:`Turn.ready` with it before sending."""
        self._sweep()
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            turn = Turn(self, channel_id)
            if kind is not None:
                await turn.ready(kind)
            try:
                yield turn
            finally:
                for made in turn.kinds:
                    self._window(channel_id, made).append(time.monotonic())
