"""Discord's global rate limit in the fake (requests per second across routes, interactions exempt, 429
with ``global: true``) and the traffic counters a benchmark reads."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
from discord import app_commands

from bot.fakediscord import FakeDiscord, running_bot


class PingBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Answer at once")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")
            await interaction.followup.send("and a followup")

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def burst(fake: FakeDiscord, count: int) -> list[aiohttp.ClientResponse]:
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:

        async def one() -> aiohttp.ClientResponse:
            async with session.get(f"{fake.api_base}/users/@me", headers=auth) as response:
                await response.read()
                return response

        return list(await asyncio.gather(*(one() for _ in range(count))))


async def test_requests_beyond_the_global_limit_get_a_global_429_like_discords() -> None:
    async with FakeDiscord(global_limit=5) as fake:
        answers = await burst(fake, 8)
        assert sorted(r.status for r in answers) == [200] * 5 + [429] * 3
        refused = next(r for r in answers if r.status == 429)
        assert refused.headers["X-RateLimit-Global"] == "true"
        assert refused.headers["X-RateLimit-Scope"] == "global"
        assert refused.headers["Via"] and 0 < float(refused.headers["Retry-After"]) <= 1.0
        (record, *_) = [r for r in fake.requests if r.status == 429]
        assert record.error is not None and record.error["global"] is True
        assert (fake.traffic.http_429, fake.traffic.global_429) == (3, 3)


async def test_no_limit_by_default_but_the_traffic_is_counted(fake_discord: FakeDiscord) -> None:
    answers = await burst(fake_discord, 60)
    assert {r.status for r in answers} == {200}
    assert fake_discord.traffic.requests == 60 and fake_discord.traffic.peak_second() >= 30
    assert fake_discord.traffic.per_route[("GET", "/users/@me")] == 60


async def test_discord_py_waits_out_the_global_limit_and_every_message_arrives() -> None:
    async with FakeDiscord(global_limit=4) as fake:
        games = fake.add_guild("G").add_text_channel("games")
        async with running_bot(fake, discord.Client(intents=discord.Intents.default())) as bot:
            channel = bot.get_channel(games.id)
            assert isinstance(channel, discord.TextChannel)
            await asyncio.gather(*(channel.send(f"card {n}") for n in range(10)))
        assert sorted(m.content for m in fake.channel_messages(games)) == sorted(
            f"card {n}" for n in range(10)
        )
        assert fake.traffic.global_429 > 0
        assert max(fake.traffic.limited_per_second.values()) <= 2 * 4  # two sliding windows at most


async def test_interaction_answers_and_followups_are_exempt() -> None:
    async with FakeDiscord(global_limit=3) as fake:
        guild = fake.add_guild("G")
        games, alice = guild.add_text_channel("games"), fake.add_user("alice", guild=guild)
        async with running_bot(fake, PingBot()):
            await burst(fake, 6)  # the limit is spent for this second
            interaction = await fake.slash(alice, games, "ping")
            await interaction.followup()
        assert interaction.response is not None and interaction.response.accepted
        answers = [r for r in fake.requests if r.path.startswith(("/interactions/", "/webhooks/"))]
        assert answers and all(r.status < 400 for r in answers)


async def test_user_fetches_are_counted_per_user_for_the_bench(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.add_guild("G")
    alice, bob = fake_discord.add_user("alice", guild=guild), fake_discord.add_user("bob", guild=guild)
    async with running_bot(fake_discord, discord.Client(intents=discord.Intents.default())) as bot:
        for user in (alice, alice, alice, bob):
            await bot.fetch_user(user.id)
    assert fake_discord.traffic.user_fetches == {alice.id: 3, bob.id: 1}
    summary = fake_discord.traffic.summary()
    assert summary["user_fetches"] == 4 and summary["most_fetched_user"] == 3
    assert summary["requests"] == fake_discord.traffic.requests and summary["requests_per_s"] > 0
