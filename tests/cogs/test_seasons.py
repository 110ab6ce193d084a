"""A season's end on the real bot and the fake Discord: the season rolls over while the bot is down (and
a process died between claiming the recap and posting it), and while two shard processes run on one
database, one of them killed between its claim and its post: each recap is posted exactly once, with its
picture and the replay of the season's most dramatic race, pinging exactly its winners; the champion role
is moved when the bot may, and the recap says why when it may not. (Two claims of one recap at the same
moment: tests/bot/storage/test_storage_seasons.py.)"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import discord
import pytest

import bot.seasons
from bot.client import PERMISSIONS
from bot.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser, running_bot
from bot.fakediscord.mentions import pings
from bot.games.base import Action
from bot.games.catalog import entry
from bot.storage import Storage
from bot.tables.results import result_row
from bot.tables.seats import Seat
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock
from tests.bot.test_seasons import utc
from tests.cogs.conftest import World
from tests.cogs.test_restart import ROOT
from tests.cogs.timings import FAST

MANAGE_ROLES = discord.Permissions(manage_roles=True).value
NOVEMBER = utc(2026, 11, 10)
DECEMBER = utc(2026, 12, 1, 0, 0, 30)


class SeasonClock:
    """The seasons' "now" for the bot under test (``bot.seasons.now``)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def season_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[SeasonClock]:
    clock = SeasonClock(utc(2026, 11, 20))
    monkeypatch.setattr(bot.seasons, "now", clock)
    monkeypatch.setattr(bot.seasons, "CHECK_SECONDS", 0.2)
    monkeypatch.setattr(bot.seasons, "STALE_CLAIM_SECONDS", 10.0)
    yield clock


async def store_played(
    storage: Storage, kind: str, guild: FakeGuild, channel: FakeChannel, seed: int, people: list[FakeUser]
) -> int:
    """A whole game of ``people`` (their moves the AI's), stored as a table stores it: its seed, its action
    log and its results, so the recap can replay it."""
    game = entry(kind)
    settings: dict = {"engine": {"races": 1} if kind == "horserace" else {}}
    engine = game.new_engine(len(people), seed, game.stored_engine_settings(settings))
    seats = [Seat(user.name, user.id) for user in people]
    game_id = await storage.create_game(
        kind, guild.id, channel.id, seed, settings, [s.to_json() for s in seats]
    )
    seq = 0
    while not engine.is_over:
        decision = engine.pending()[0]
        if decision.player is None:
            action = Action(None, decision.kind, decision.options[0])
        else:
            rng = random.Random(f"{seed}:{seq}")
            choice = game.choose(engine.view(decision.player), decision, "easy", rng)
            action = Action(decision.player, decision.kind, choice)
        engine.apply(action)
        await storage.append_action(game_id, seq, action.to_json())
        seq += 1
    assert await storage.finish_game(game_id, [result_row(seats, r) for r in engine.results()])
    return game_id


def recaps(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [
        m for m in fake.channel_messages(channel) if any(a.filename == "recap.png" for a in m.attachments)
    ]


def assert_a_whole_recap(message: FakeMessage, winners: set[int]) -> None:
    names = sorted(a.filename for a in message.attachments)
    assert names[0].endswith(".gif") and names[1] == "recap.png", names  # the picture and the replay
    assert "lead changed" in message.content and "The season is over" in message.content
    pinged = pings(message)
    assert pinged.users == winners and not pinged.roles and not pinged.everyone
    assert {str(u) for u in (message.allowed_mentions or {}).get("users") or []} == {str(u) for u in winners}


@pytest.mark.timeout(120)
async def test_a_season_that_ended_while_the_bot_was_down_is_recapped_once(
    world: World, season_clock: SeasonClock
) -> None:
    fake, guild, games = world.fake, world.guild, world.channel
    guild.bot_role.position = 10  # the champion role is below the bot's own
    guild.bot_role.permissions |= MANAGE_ROLES
    champion_role = guild.add_role("Champion")
    recap_channel = guild.add_text_channel("recaps")
    alice, bob, dave = world.users["alice"], world.users["bob"], world.users["dave"]
    old_champion = fake.add_user("last-champion", guild=guild, roles=[champion_role])

    storage = await Storage.open(str(world.db), clock=Clock(NOVEMBER))
    try:
        await store_played(storage, "hotstreak", guild, games, 3, [alice, bob, dave])
        await store_played(storage, "horserace", guild, games, 5, [alice, bob, dave])
        await storage.set_server_setting(guild.id, "recap_channel", str(recap_channel.id))
        await storage.set_server_setting(guild.id, "champion_role", str(champion_role.id))
        # October's champion was given the role by October's recap.
        october = ("monthly:2026-10", utc(2026, 10, 1), utc(2026, 11, 1))
        assert await storage.claim_recap(guild.id, *october, utc(2026, 11, 1, 0, 1), 10.0)
        await storage.mark_recap_posted(guild.id, october[0], 1, old_champion.id)
    finally:
        await storage.close()

    async with running_bot(fake, world.bot()) as bot:  # 20 November: the season runs on
        await asyncio.sleep(0.5)
        assert recaps(fake, recap_channel) == []

    # The bot is down across midnight of 1 December. Another process claimed November's recap at
    # 00:00:01 and died before posting it.
    storage = await Storage.open(str(world.db))
    try:
        assert await storage.claim_recap(
            guild.id, "monthly:2026-11", utc(2026, 11, 1), utc(2026, 12, 1), utc(2026, 12, 1, 0, 0, 1), 10.0
        )
    finally:
        await storage.close()

    season_clock.now = DECEMBER
    async with running_bot(fake, world.bot()) as bot:
        await fake.wait_for(lambda: recaps(fake, recap_channel), timeout=60, what="the recap")
        (message,) = recaps(fake, recap_channel)
        stored = await bot.storage.season_recap(
            guild.id, "monthly:2026-11", utc(2026, 11, 1), utc(2026, 12, 1)
        )
        winners = {p.user_id for g in stored.per_game for p in g.top}
        winners |= {g.best_win.user_id for g in stored.per_game if g.best_win}
        assert stored.champion is not None
        winners.add(stored.champion.user_id)
        assert_a_whole_recap(message, winners)
        champion = fake.users[stored.champion.user_id]
        await fake.wait_for(lambda: bot.get_cog("SeasonsCog").posted, timeout=5, what="the recap marked")  # type: ignore[union-attr]
        assert champion_role in guild.member(champion).roles  # type: ignore[union-attr]
        assert champion_role not in guild.member(old_champion).roles  # type: ignore[union-attr]
        assert "new" in (message.embeds[0].get("description") or "")
        # The ratings started December from their soft reset.
        assert await bot.storage.recompute_ratings(guild.id) == await bot.storage.stored_ratings(guild.id)

    season_clock.now = DECEMBER + 3600
    async with running_bot(fake, world.bot()):  # restarted again: nothing more to post
        await asyncio.sleep(0.6)
    assert len(recaps(fake, recap_channel)) == 1


def start_process(
    fake: FakeDiscord, database: Database, shard: int, log: IO[bytes], **env: str
) -> subprocess.Popen[bytes]:
    """One bot process serving one of two shards (``tests/cogs/restart_runner.py``), its seasons' clock
    and faults set by ``env``."""
    environment = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": database.url,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "TEST_TIMING": "shards",
        **env,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cogs.restart_runner"], cwd=ROOT, env=environment, stderr=log
    )


@pytest.mark.timeout(180)
async def test_two_bot_processes_one_killed_between_claim_and_post_post_each_recap_once(
    tmp_path: Path, database: Database
) -> None:
    """Two processes, one shard each, on one PostgreSQL database, start after 1 December: the shard-0
    process claims its server's recap and is killed (SIGKILL) before posting it; the shard-1 process
    posts its own. Started again, the shard-0 process takes the stale claim over and posts it: one recap
    in each server, with its picture and replay; the role given where the bot may, and why not where
    it may not."""
    async with FakeDiscord(shard_count=2, rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        allowed = fake.add_guild("Roles allowed", shard=0, bot_permissions=PERMISSIONS.value | MANAGE_ROLES)
        refused = fake.add_guild("No Manage Roles", shard=1, bot_permissions=PERMISSIONS.value)
        allowed.bot_role.position = 10
        channels, roles, people = {}, {}, {}
        storage = await Storage.open(database.url, clock=Clock(NOVEMBER))
        try:
            for n, guild in enumerate((allowed, refused)):
                channels[guild.id] = guild.add_text_channel("games")  # no recap channel: the last game's
                roles[guild.id] = guild.add_role("Champion")
                people[guild.id] = [fake.add_user(f"p{n}{i}", guild=guild) for i in range(3)]
                await store_played(storage, "hotstreak", guild, channels[guild.id], 11 + n, people[guild.id])
                await storage.set_server_setting(guild.id, "champion_role", str(roles[guild.id].id))
        finally:
            await storage.close()

        log = (tmp_path / "bots.log").open("ab")
        now = str(DECEMBER)
        processes = {
            0: start_process(fake, database, 0, log, SEASON_NOW=now, SEASON_STALE="2", KILL_AFTER_CLAIM="1"),
            1: start_process(fake, database, 1, log, SEASON_NOW=now, SEASON_STALE="2"),
        }
        try:
            await fake.wait_for(lambda: processes[0].poll() is not None, timeout=60, what="shard 0 to die")
            assert processes[0].returncode == -signal.SIGKILL  # killed between its claim and its post
            await fake.wait_for(
                lambda: recaps(fake, channels[refused.id]), timeout=60, what="shard 1's recap"
            )
            assert recaps(fake, channels[allowed.id]) == []
            later = str(DECEMBER + 3)  # the dead process's claim is stale by then
            processes[0] = start_process(fake, database, 0, log, SEASON_NOW=later, SEASON_STALE="2")
            await fake.wait_for(
                lambda: recaps(fake, channels[allowed.id]), timeout=60, what="shard 0's recap"
            )
            await asyncio.sleep(1.0)  # a few more ticks of both processes
            said = {}
            for guild in (allowed, refused):
                (message,) = recaps(fake, channels[guild.id])
                assert any(a.filename.endswith(".gif") for a in message.attachments)
                said[guild.id] = message.embeds[0].get("description", "")
            assert "is the new" in said[allowed.id]
            assert (
                said[refused.id]
                == "I couldn't give the champion role: I need the **Manage Roles** permission."
            )
            holders = [p for p in people[allowed.id] if roles[allowed.id] in allowed.member(p).roles]  # type: ignore[union-attr]
            assert len(holders) == 1
        finally:
            for process in processes.values():
                if process.poll() is None:
                    process.send_signal(signal.SIGKILL)
                    process.wait(timeout=10)
            log.close()
        assert fake.unknown_routes == []
