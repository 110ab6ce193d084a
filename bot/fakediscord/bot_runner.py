"""Run a real discord.py client against a FakeDiscord for the length of a ``with`` block."""

# ruff: noqa: ASYNC109 -- the driver's waits take a plain timeout= (the API tests read), not asyncio.timeout.

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from bot.discord_endpoints import use_endpoints
from bot.fakediscord.fake import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)

#: discord.py waits this long after the last GUILD_CREATE before it is "ready" (default 2 s, meant for a
#: real gateway streaming guilds in). The fake sends every guild straight after READY, so a short wait
#: loses nothing and keeps each test well under a second.
FAST_GUILD_READY_TIMEOUT = 0.05

#: How many ``running_bot`` blocks are open: Discord's endpoints come back only when the last one closes,
#: so several bots (one per shard) can run side by side and stop in any order.
_running = 0


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, client: ClientT, *, timeout: float = 10.0, fast_ready: bool = True
) -> AsyncIterator[ClientT]:
    """Start ``client`` on ``fake`` (endpoints, token), yield once it is ready, then close it and restore
    Discord's endpoints. Startup errors (e.g. in ``setup_hook``) are raised here."""
    global _running
    if fake.bot_stopped_at is not None:
        # A restarted bot cannot know what the one before it sent in the channels' last rate window (its
        # pacer starts empty), and a real restart takes seconds: a test's restart takes at least the
        # fake's window (up to 1 s), so that the fake does not count both bots' requests in one window.
        rest = min(fake.rate_window, 1.0) - (time.monotonic() - fake.bot_stopped_at)
        if rest > 0:
            await asyncio.sleep(rest)
    use_endpoints(fake.api_base, fake.gateway_url)
    _running += 1
    if fast_ready:
        # Private attribute: the public knob is the constructor's guild_ready_timeout, which the project's
        # bot class need not expose just for tests.
        client._connection.guild_ready_timeout = min(
            client._connection.guild_ready_timeout, FAST_GUILD_READY_TIMEOUT
        )
    task = asyncio.create_task(client.start(fake.token), name="fakediscord-bot")
    try:
        await fake.wait_for(
            lambda: client.is_ready() or task.done(), timeout=timeout, what="the bot to be ready"
        )
        if task.done():
            task.result()  # raises the startup error
            raise RuntimeError("the bot stopped before it was ready")
        yield client
    except BaseException:
        await _shut_down(client, task, timeout, quiet=True)
        fake.bot_stopped_at = time.monotonic()
        raise
    else:
        await _shut_down(client, task, timeout, quiet=False)
        fake.bot_stopped_at = time.monotonic()


async def _shut_down(
    client: discord.Client, task: asyncio.Task[None], timeout: float, *, quiet: bool
) -> None:
    """Close the client and wait for its task; its error is raised unless another one is on its way."""
    global _running
    try:
        await client.close()
        await asyncio.wait_for(task, timeout)
    except Exception:
        if not quiet:
            raise
    finally:
        _running -= 1
        if _running == 0:
            use_endpoints(None, None)
