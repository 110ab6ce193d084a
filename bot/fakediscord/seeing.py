"""What the test's users see (channel, DM and ephemeral messages), what the bot did that it should not
have (refused requests, rate-limit overruns), and waiting for something to happen."""

# ruff: noqa: ASYNC109 -- the driver's waits take a plain timeout= (the API tests read), not asyncio.timeout.

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from bot.fakediscord.http_api import RequestRecord
from bot.fakediscord.model import FakeChannel, FakeMessage, FakeUser
from bot.fakediscord.rate_limits import ChannelRateWatch, RateLimitViolation

if TYPE_CHECKING:
    from bot.fakediscord.faults import Faults
    from bot.fakediscord.gateway import Gateway

T = TypeVar("T")


class UserViews:
    """Mixed into :class:`~bot.fakediscord.FakeDiscord`: seeing as users, and waiting."""

    gateway: Gateway
    messages: dict[int, FakeMessage]
    ephemerals: dict[int, list[FakeMessage]]
    requests: list[RequestRecord]
    unknown_routes: list[RequestRecord]
    internal_errors: list[str]
    faults: Faults
    _rates: ChannelRateWatch
    _changed: asyncio.Event

    if TYPE_CHECKING:  # provided by FakeDiscord

        def dm_channel(self, user: FakeUser) -> FakeChannel: ...

    def channel_messages(self, channel: FakeChannel, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        """Messages in ``channel`` as everyone sees them (not deleted), oldest first."""
        return [
            m for m in channel.messages if not m.deleted and (include_ephemeral or m.ephemeral_to is None)
        ]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Everything in the DM between the bot and ``user``."""
        return [m for m in self.dm_channel(user).messages if not m.deleted]

    def ephemeral_for(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral messages only ``user`` sees, anywhere."""
        return [m for m in self.ephemerals.get(user.id, ()) if m.ephemeral_to is user and not m.deleted]

    def visible_to(self, user: FakeUser) -> list[FakeMessage]:
        """Every message ``user`` can see: their guilds' channels, their DM, their ephemerals."""
        return [m for m in self.messages.values() if m.visible_to(user)]

    def last_message(self, channel: FakeChannel) -> FakeMessage:
        messages = self.channel_messages(channel)
        if not messages:
            raise LookupError(f"{channel!r} has no messages")
        return messages[-1]

    @property
    def rate_limit_violations(self) -> list[RateLimitViolation]:
        return self._rates.violations

    @property
    def refused_requests(self) -> list[RequestRecord]:
        """REST calls answered with an error (4xx), unknown routes included; injected faults are not."""
        return [r for r in self.requests if r.status >= 400 and r.fault is None]

    async def wait_for(
        self, condition: Callable[[], T | None], *, timeout: float = 5.0, what: str | None = None
    ) -> T:
        """Until ``condition()`` is truthy, re-checked on every change and every 20 ms; returns its value."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = condition()
            if value:
                return value
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"waited {timeout}s for {what or condition}\n{self.describe()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.02))

    async def next_change(self, timeout: float) -> bool:
        """Until anything changes (a message posted or edited, a thread, an interaction answered); False
        when ``timeout`` passes first. The playground's live updates wait on this."""
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def wait_for_message(
        self,
        check: Callable[[FakeMessage], bool] = lambda m: True,
        *,
        channel: FakeChannel | None = None,
        visible_to: FakeUser | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The newest message (in ``channel`` / seen by ``visible_to``) passing ``check``, waiting for one."""

        def newest() -> FakeMessage | None:
            for message in reversed(list(self.messages.values())):
                if message.deleted or message.loading:
                    continue
                if channel is not None and message.channel is not channel:
                    continue
                if visible_to is not None and not message.visible_to(visible_to):
                    continue
                if check(message):
                    return message
            return None

        return await self.wait_for(newest, timeout=timeout, what="a matching message")

    def describe(self) -> str:
        """A short account of recent activity, for failure messages."""
        lines = [f"gateway connected={self.gateway.connected} identifies={self.gateway.identify_count}"]
        lines += [f"FAKE BUG: {e.splitlines()[0]}" for e in self.internal_errors]
        lines += [f"unknown route: {r}" for r in self.unknown_routes[-5:]]
        lines += [f"refused: {r}" for r in self.refused_requests[-5:]]
        lines += [f"injected: {r}" for r in self.faults.injected[-5:]]
        lines += [f"message: {m!r}" for m in list(self.messages.values())[-5:]]
        return "\n".join(lines)
