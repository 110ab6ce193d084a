"""Keeps the whole bot under Discord's global rate limit by itself, most urgent work first.

Discord allows a bot about 50 requests per second across all routes; beyond that every request is
answered 429 and discord.py holds *everything* (prompts included) until the limit resets. So the bot
meters its own requests instead:

- Interaction answers (``/interactions/...`` callbacks and ``/webhooks/...`` followups) are exempt,
  as Discord exempts them: a click is always acknowledged at once.
- Every other request waits for a slot. Waiting work is served by urgency: prompts, turn messages, DMs
  and edits (``URGENT``) before race pictures (``PICTURE``), oldest first within each.
- A race picture still waiting when the next picture of the same channel comes is stale: the two are
  merged (the text of both, the newer picture) and only one message is sent (``bot.discord_io.outbox``).

The window is strict: a request is granted only while fewer than ``limit`` requests are in flight or
finished within the last ``window`` seconds. A request reaches Discord no later than it finishes, so
Discord never counts more than ``limit`` in any window, however the network delays them.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import os
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

log = logging.getLogger(__name__)

URGENT = 0
PICTURE = 1

#: Discord's documented global limit for a bot (large bots can ask Discord for more).
DISCORD_GLOBAL_LIMIT = 50.0
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")

# Set while this task holds a slot already (the outbox takes its slot before it sends).
_granted: contextvars.ContextVar[bool] = contextvars.ContextVar("global_pacer_granted", default=False)


def limit_from_env() -> float | None:
    """``DISCORD_GLOBAL_LIMIT`` (requests per second; ``0`` or ``none``: no pacing), default 50.

    Ruling: a setting, not a constant, because Discord raises the limit for large bots on request.
    """
    raw = os.environ.get("DISCORD_GLOBAL_LIMIT", "").strip().lower()
    if not raw:
        return DISCORD_GLOBAL_LIMIT
    if raw in ("0", "none", "off"):
        return None
    return float(raw)


def exempt(path: str) -> bool:
    return path.startswith(EXEMPT_PREFIXES)


class GlobalPacer:
    """At most ``limit`` requests per ``window`` seconds across the bot, urgent ones first."""

    def __init__(self, limit: float | None, window: float = 1.0) -> None:
        self.limit = limit
        self.window = window
        self.in_flight = 0
        self.waited = 0  # requests that had to queue (for the bench's figures)
        self.granted = 0
        self._done: deque[float] = deque()
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None

    def figures(self) -> dict[str, Any]:
        return {"granted": self.granted, "waited": self.waited, "waiting": len(self._queue)}

    @contextlib.asynccontextmanager
    async def slot(self, urgency: int | None = None) -> AsyncIterator[None]:
        """Hold one request's slot; inside a slot already held (see PictureOutbox), pass straight through."""
        if self.limit is None or _granted.get():
            yield
            return
        await self._acquire(URGENT if urgency is None else urgency)
        token = _granted.set(True)
        try:
            yield
        finally:
            _granted.reset(token)
            self._release()

    async def _acquire(self, urgency: int) -> None:
        if not self._queue and self._has_room():
            self._take()
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (urgency, next(self._order), future))
        self.waited += 1
        self._pump()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # granted as it was cancelled: give it back
                self.in_flight -= 1
                self._pump()
            raise

    def _has_room(self) -> bool:
        assert self.limit is not None
        now = asyncio.get_running_loop().time()
        while self._done and now - self._done[0] >= self.window:
            self._done.popleft()
        return self.in_flight + len(self._done) < self.limit

    def _take(self) -> None:
        self.in_flight += 1
        self.granted += 1

    def _release(self) -> None:
        self.in_flight -= 1
        self._done.append(asyncio.get_running_loop().time())
        self._pump()

    def _pump(self) -> None:
        """Grant waiting requests, most urgent first, while there is room; else wake when there will be."""
        while self._queue and self._has_room():
            _, _, future = heapq.heappop(self._queue)
            if not future.done():
                self._take()
                future.set_result(None)
        if self._queue and self._done and self._timer is None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(self._done[0] + self.window, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._pump()


def install(http: Any, pacer: GlobalPacer) -> None:
    """Route every REST request of discord.py's HTTP client (``bot.http``) through ``pacer``."""
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if pacer.limit is None or exempt(route.path):
            return await original(route, **kwargs)
        async with pacer.slot(URGENT):
            return await original(route, **kwargs)

    http.request = request
    sweep_buckets_now_and_then(http)


BUCKET_SWEEP_SECONDS = 10.0


def sweep_buckets_now_and_then(http: Any) -> None:
    """discord.py looks through every rate-limit bucket it knows for ones idle 5 minutes whenever it
    meets a new one, and each interaction's token is a new one: with thousands of clicks in 5 minutes
    that look took 5% of the event loop at 500 games. Looking every ``BUCKET_SWEEP_SECONDS``
    frees the same buckets (they are freed only after 5 idle minutes anyway)."""
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:  # another discord.py: nothing to do
        return
    last = [0.0]

    def now_and_then() -> None:
        now = time.monotonic()
        if now - last[0] >= BUCKET_SWEEP_SECONDS:
            last[0] = now
            sweep()

    http._try_clear_expired_ratelimits = now_and_then
