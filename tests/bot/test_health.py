"""bot.health's rules on their own: a reconnecting shard's grace, the database's second, and the exit of a
process unhealthy for too long (the end-to-end scrape is tests/cogs/test_metrics.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot import health
from bot.config import ConfigError, Settings


class Shard:
    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed


class Bot:
    """What Health reads of a sharded bot: its settings, readiness, shards and storage."""

    def __init__(self) -> None:
        self.settings = SimpleNamespace(shard_count=4, own_shards=(1, 3))
        self.shards = {1: Shard(), 3: Shard()}
        self.storage = SimpleNamespace(ping=self.ping)
        self.slow = False
        self.exit_code = 0

    def is_ready(self) -> bool:
        return True

    def get_shard(self, shard: int) -> Any:
        return self.shards.get(shard)

    async def ping(self) -> None:
        if self.slow:
            await asyncio.sleep(1)


async def test_a_reconnecting_shard_has_its_grace_then_the_check_fails_with_the_reason() -> None:
    bot = Bot()
    now = [1000.0]
    check = health.Health(bot, shard_grace=60.0, database_timeout=0.05, clock=lambda: now[0])
    assert await check.check() == (True, [])
    bot.shards[3].closed = True
    assert await check.check() == (True, [])  # reconnecting: within its 60 s
    now[0] += 59
    assert (await check.check())[0]
    now[0] += 2
    assert await check.check() == (False, ["shard 3 disconnected for 61 s"])
    assert check.shard_states() == {1: True, 3: False}
    bot.shards[3].closed = False
    bot.slow = True
    assert await check.check() == (False, ["the database did not answer within 0.05 s"])
    bot.slow = False
    assert await check.check() == (True, [])
    assert check.unhealthy_since is None


async def test_a_process_unhealthy_for_longer_than_allowed_stops_with_exit_code_3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = Bot()
    bot.shards[1].closed = True
    check = health.Health(bot, shard_grace=0.0, database_timeout=0.5, exit_after=0.1, check_every=0.02)
    gave_up = asyncio.Event()

    def give_up() -> None:  # the real one sends this process SIGTERM (bot.shutdown's clean stop)
        bot.exit_code = health.UNHEALTHY_EXIT
        gave_up.set()

    monkeypatch.setattr(check, "give_up", give_up)
    watching = asyncio.create_task(check.watch())
    try:
        await asyncio.wait_for(gave_up.wait(), 3)
    finally:
        watching.cancel()
    assert bot.exit_code == 3


async def test_recovering_in_time_does_not_exit() -> None:
    bot = Bot()
    check = health.Health(bot, shard_grace=0.0, exit_after=0.2, check_every=0.02)
    check.give_up = lambda: pytest.fail("a healthy process gave up")  # type: ignore[method-assign]
    bot.shards[1].closed = True
    watching = asyncio.create_task(check.watch())
    await asyncio.sleep(0.1)
    bot.shards[1].closed = False
    await asyncio.sleep(0.3)
    watching.cancel()
    assert check.last_healthy


def test_the_port_is_opt_in_and_listens_on_loopback_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 30)
    for name in ("METRICS_PORT", "METRICS_HOST"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings.from_env(env_file=None)
    assert (settings.metrics_port, settings.metrics_host) == (None, "127.0.0.1")
    monkeypatch.setenv("METRICS_PORT", "9100")
    monkeypatch.setenv("METRICS_HOST", "0.0.0.0")
    settings = Settings.from_env(env_file=None)
    assert (settings.metrics_port, settings.metrics_host) == (9100, "0.0.0.0")
    monkeypatch.setenv("METRICS_PORT", "http")
    with pytest.raises(ConfigError, match="METRICS_PORT must be a port number"):
        Settings.from_env(env_file=None)
