"""Getting one request through to Discord: a network that drops, holds or refuses a request is retried
with backoff; a channel that is gone for good is told apart from a hiccup.

A retried post is safe because every post carries a nonce that Discord enforces (discord.py sets
``enforce_nonce`` whenever a nonce is given): a post that did arrive, though its answer was lost,
is answered with the first message instead of posting a second one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import aiohttp
import discord

from bot import metrics
from bot.tables.timing import Timing

log = logging.getLogger(__name__)

T = TypeVar("T")

# Failures in transit: the request may or may not have arrived, and asking again may succeed.
# Final and not tuple[type[BaseException], ...]: mypy then keeps each class of this fixed tuple, so
# that "except (discord.HTTPException, *TRANSIENT)" type-checks (a variadic tuple unpacked there
# widens to tuple[object, ...], "Exception type must be derived from BaseException").
TRANSIENT: Final = (
    aiohttp.ClientError,
    TimeoutError,
    ConnectionError,
    discord.DiscordServerError,
    discord.GatewayNotFound,
)
# Discord's code for a channel the bot will never post in again: Unknown Channel.
GONE_CODES = frozenset({10003})
# Discord's codes for a channel that refuses the bot: Missing Access (it may not see the channel),
# Missing Permissions. Ruling: both may be undone by a server manager, so a game pauses and waits
# for them (``bot.discord_io.place``) instead of closing at once as for a deleted channel.
REFUSED_CODES = frozenset({50001, 50013})

# Ruling: a nonce is the game, this run of the bot and the table's count of posts. Within one run it
# is the same for every retry of one post; after a restart the count starts again, and the run's own
# random part keeps it from matching a post of the previous run that Discord still remembers.


def new_run() -> str:
    return secrets.token_hex(3)


def nonce(game_id: int, run: str, count: int, kind: str = "") -> str:
    return f"{game_id}.{run}.{kind}{count}"[-25:]  # Discord allows 25 characters


def is_gone(error: BaseException) -> bool:
    return isinstance(error, discord.HTTPException) and error.code in GONE_CODES


def is_refused(error: BaseException) -> bool:
    """A permission is missing (50013) or the channel is hidden from the bot (50001)."""
    return isinstance(error, discord.HTTPException) and error.code in REFUSED_CODES


async def deliver(attempt: Callable[[], Awaitable[T]], timing: Timing, what: str) -> T:
    """``attempt()`` until it succeeds; transient failures are retried after a doubling pause.

    Raises the last transient error once ``timing.send_attempts`` are used up, and any other
    error (a 4xx: gone, forbidden, invalid) at once: asking again would get the same answer.
    """
    pause = timing.send_retry_seconds
    for tries in range(1, max(1, timing.send_attempts) + 1):
        try:
            async with asyncio.timeout(timing.request_timeout):
                return await attempt()
        except TRANSIENT as error:
            if tries >= timing.send_attempts:
                raise
            log.warning("%s failed in transit (%r); retrying in %.2f s", what, error, pause)
            metrics.DISCORD_RETRIES.labels("transit").inc()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 60.0)
    raise AssertionError("unreachable")  # pragma: no cover
