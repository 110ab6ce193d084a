"""Keeps the whole bot under Discord's global rate limit by itself, most urgent work first.

Discord allows a bot about 50 requests per second across all routes; beyond that every request is
answered 429 and discord.py holds *everything* (prompts included) until the limit resets. So the bot
meters its own requests instead:

- Interaction answers (``/interactions/...`` callbacks and ``/webhooks/...`` followups) are exempt,
  as Discord exempts them: a click is always acknowledged at once.
- Every other request waits for a slot. Waiting work is served by urgency: prompts, turn messages, DMs
  and edits (``URGENT``) before race pictures (``PICTURE``); within an urgency, servers take turns
  (round robin: one request of each server with work waiting, then again), oldest first within a
  server. So one busy server (many games, all-AI games at pace 0) cannot take most of the budget: it
  gets its turn like every other server that has work waiting (issue 26, point 10). A request counts
  for the server of the game it is made for (the game's tasks and clicks carry it: ``bot.logs``), else
  the server its route names, else its channel's. While requests wait they are granted one per
  ``window / limit`` seconds, so the turns hold as each slot frees (see ``_spaced_at``).
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
import logging
import os
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Hashable
from typing import Any

from bot import logs

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
    """At most ``limit`` requests per ``window`` seconds across the bot, urgent ones first, servers in turn."""

    def __init__(self, limit: float | None, window: float = 1.0) -> None:
        self.limit = limit
        self.window = window
        self.in_flight = 0
        self.waited = 0  # requests that had to queue (for the bench's figures)
        self.granted = 0
        self._done: deque[float] = deque()
        # urgency -> the servers with requests waiting at that urgency, in turn order -> their requests
        self._turns: dict[int, OrderedDict[Hashable, deque[asyncio.Future[None]]]] = {}
        self._waiting = 0
        self._timer: asyncio.TimerHandle | None = None
        # While requests wait, they are granted one per ``window / limit`` seconds, not all at once as
        # the window frees: otherwise the window's slots free together and are taken together by what
        # waits at that instant (each server's one waiting request), and a server that queues its next
        # one a moment later waits a whole window, however the turns go. Spaced, every server with work
        # waiting gets its turn as each slot frees. The rate stays ``limit`` per ``window``.
        self._spaced_at = 0.0

    def figures(self) -> dict[str, Any]:
        return {"granted": self.granted, "waited": self.waited, "waiting": self._waiting}

    @contextlib.asynccontextmanager
    async def slot(self, urgency: int | None = None, *, share: Hashable = None) -> AsyncIterator[None]:
        """Hold one request's slot; inside a slot already held (see PictureOutbox), pass straight through.

        ``share``: whose turn it is taken in (a server's id); by default the server of the game whose
        task asks (``bot.logs.about_game``), else one share for all that name none."""
        if self.limit is None or _granted.get():
            yield
            return
        await self._acquire(
            URGENT if urgency is None else urgency, share if share is not None else logs.guild()
        )
        token = _granted.set(True)
        try:
            yield
        finally:
            _granted.reset(token)
            self._release()

    async def _acquire(self, urgency: int, share: Hashable) -> None:
        if not self._waiting and self._has_room():
            self._take()
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        turns = self._turns.setdefault(urgency, OrderedDict())
        queue = turns.get(share)
        if queue is None:  # a server with nothing waiting joins at the end of the turn order
            queue = turns[share] = deque()
        queue.append(future)
        self._waiting += 1
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

    def _next(self) -> asyncio.Future[None] | None:
        """The next waiting request: the most urgent level with any; in it, the server whose turn it is
        (then it goes to the back of the turn order), and that server's oldest request."""
        for urgency in sorted(self._turns):
            turns = self._turns[urgency]
            while turns:
                share, queue = next(iter(turns.items()))
                future = queue.popleft()
                self._waiting -= 1
                if queue:
                    turns.move_to_end(share)
                else:
                    del turns[share]
                if not future.done():  # a cancelled one gives its place to the next
                    return future
            del self._turns[urgency]
        return None

    def _pump(self) -> None:
        """Grant waiting requests in turn while there is room, at most one per ``window / limit`` (see
        ``_spaced_at``); else wake when there will be room."""
        loop = asyncio.get_running_loop()
        while self._waiting and self._has_room():
            now = loop.time()
            if now < self._spaced_at:
                break
            future = self._next()
            if future is None:
                break
            self._take()
            future.set_result(None)
            assert self.limit is not None
            self._spaced_at = now + self.window / self.limit
        if not self._waiting:
            return
        if self._has_room():
            wake: float | None = self._spaced_at
        elif self._done:
            wake = self._done[0] + self.window
        else:
            wake = None  # all in flight: the next release pumps
        if wake is not None and (self._timer is None or self._timer.when() > wake):
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_at(wake, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._pump()


def install(http: Any, pacer: GlobalPacer, guild_of: Callable[[int], int | None] | None = None) -> None:
    """Route every REST request of discord.py's HTTP client (``bot.http``) through ``pacer``.

    ``guild_of`` finds a channel's server (from the client's cache) for a request made outside any
    game's task whose route names a channel only."""
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if pacer.limit is None or exempt(route.path):
            return await original(route, **kwargs)
        async with pacer.slot(URGENT, share=share_of(route, guild_of)):
            return await original(route, **kwargs)

    http.request = request
    sweep_buckets_now_and_then(http)


def share_of(route: Any, guild_of: Callable[[int], int | None] | None) -> Hashable:
    """Whose turn a request takes: the game's server (its task's), the route's server, else its
    channel's server, else the channel itself (a DM outside any game's task), else one common share."""
    guild = logs.guild() or getattr(route, "guild_id", None)
    if guild is not None:
        return guild
    channel = getattr(route, "channel_id", None)
    if channel is None:
        return None
    if guild_of is not None:
        found = guild_of(int(channel))
        if found is not None:
            return found
    return ("channel", channel)


def guild_finder(client: Any) -> Callable[[int], int | None]:
    """A channel's (or thread's) server from ``client``'s cache, for ``install``."""

    def guild_of(channel_id: int) -> int | None:
        guild = getattr(client.get_channel(channel_id), "guild", None)
        return getattr(guild, "id", None)

    return guild_of


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
