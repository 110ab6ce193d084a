"""Issue 26, point 14: a per-user limit on commands and clicks, answered privately beyond it (in the
clicker's language), and /leaderboard's picture drawn through the picture workers (bot.workers)."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from prometheus_client import REGISTRY

from bot.client import RaceBot
from bot.config import ConfigError, Settings
from bot.fakediscord import running_bot
from bot.rate_limit import ALLOWED, DROPPED, REFUSED, RateLimit
from tests.cogs.conftest import FAST, World, private_answer

TOO_FAST = "You're going too fast"


def test_the_window_slides_and_a_flood_is_logged_once_per_window() -> None:
    now = [0.0]
    limit = RateLimit(8, 5.0, clock=lambda: now[0])
    assert [limit.check(1) for _ in range(8)] == [ALLOWED] * 8
    assert limit.check(1) == REFUSED  # the ninth in 5 s
    assert limit.check(1) == DROPPED  # answered too, but logged already in this window
    assert limit.check(2) == ALLOWED  # someone else is not held back
    now[0] = 5.0  # the first eight age out
    assert limit.check(1) == ALLOWED
    now[0] = 60.0
    limit.check(3)
    assert set(limit._recent) == {3}  # the idle are forgotten


def test_the_setting_is_actions_per_seconds_or_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert Settings.from_env(None).user_rate_limit == (8, 5.0)
    monkeypatch.setenv("USER_RATE_LIMIT", "20/10")
    assert Settings.from_env(None).user_rate_limit == (20, 10.0)
    monkeypatch.setenv("USER_RATE_LIMIT", "off")
    assert Settings.from_env(None).user_rate_limit is None
    monkeypatch.setenv("USER_RATE_LIMIT", "fast")
    with pytest.raises(ConfigError, match="USER_RATE_LIMIT must be actions/seconds"):
        Settings.from_env(None)


async def test_more_than_eight_actions_in_five_seconds_get_a_short_private_answer(world: World) -> None:
    async with running_bot(world.fake, world.bot(timing=dataclasses.replace(FAST, user_window=None))):
        await too_fast(world)  # the setting's own window, 5 s (the other tests' is 20 times shorter)


async def too_fast(world: World) -> None:
    fake, alice, bob = world.fake, world.users["alice"], world.users["bob"]
    alice.locale = "pt-BR"
    asked = [await fake.slash(alice, world.channel, "history", wait=False) for _ in range(10)]
    await fake.wait_for(lambda: all(ix.acknowledged for ix in asked), timeout=10, what="answers")
    answered = [ix for ix in asked if not ix.ephemeral]
    refused = [ix for ix in asked if ix.ephemeral]
    assert len(answered) == 8 and len(refused) == 2  # every refusal answered: no click left hanging
    for ix in refused:
        assert "Você está indo rápido demais" in await private_answer(fake, ix)
    # Nothing else happened for the refused ones: eight public answers in the channel, no more.
    public = [await ix.reply() for ix in answered]
    assert all(not m.ephemeral and m.embeds[0]["title"] == "Recent games" for m in public)
    assert len(fake.channel_messages(world.channel)) == 8
    # Someone else is not held back.
    assert not (await fake.slash(bob, world.channel, "history")).ephemeral


def picture_calls() -> float:
    return REGISTRY.get_sample_value("bot_worker_call_seconds_count", {"lane": "pictures"}) or 0.0


async def test_the_leaderboard_picture_is_drawn_by_the_picture_workers(world: World, bot: RaceBot) -> None:
    before = picture_calls()
    board = await (await world.fake.slash(world.users["bob"], world.channel, "leaderboard")).reply()
    assert board.attachment("leaderboard.png").data.startswith(b"\x89PNG")
    await asyncio.sleep(0)
    assert picture_calls() == before + 1
