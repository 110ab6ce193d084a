"""Sharding in the fake Discord: sessions identify as ``[shard_id, shard_count]``, each hears only its own
guilds (``(guild_id >> 22) % shard_count``), DMs and DM clicks reach shard 0 only, and several sessions are
connected at once, as two bot processes with one shard each would be."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from bot.fakediscord import FakeDiscord, FakeGuild, running_bot


class Listener(discord.Client):
    """A bot for one shard that writes down what reaches it."""

    def __init__(self, shard_id: int, shard_count: int = 2) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents, shard_id=shard_id, shard_count=shard_count)
        self.messages: list[str] = []
        self.clicks: list[str] = []
        self.channels: list[str] = []

    async def on_message(self, message: discord.Message) -> None:
        self.messages.append(message.content)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.clicks.append(str((interaction.data or {}).get("custom_id")))

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.channels.append(channel.name)


@pytest.fixture
def sharded() -> FakeDiscord:
    return FakeDiscord(shard_count=2)


@contextlib.asynccontextmanager
async def two_processes(fake: FakeDiscord) -> AsyncIterator[tuple[Listener, Listener]]:
    async with running_bot(fake, Listener(0)) as zero, running_bot(fake, Listener(1)) as one:
        await fake.wait_for_shards(0, 1)
        yield zero, one


def guilds_on_both_shards(fake: FakeDiscord) -> tuple[FakeGuild, FakeGuild]:
    return fake.add_guild("Zero", shard=0), fake.add_guild("One", shard=1)


async def test_guild_ids_can_be_made_for_a_chosen_shard(sharded: FakeDiscord) -> None:
    made = [sharded.add_guild(f"g{n}", shard=n % 2) for n in range(6)]
    assert [sharded.shard_of(g) for g in made] == [0, 1, 0, 1, 0, 1]
    assert [(g.id >> 22) % 2 for g in made] == [0, 1, 0, 1, 0, 1]
    assert [g.id for g in made] == sorted({g.id for g in made})
    assert sharded.shard_of(made[1], 1) == 0


async def test_gateway_bot_recommends_the_fakes_shard_count(sharded: FakeDiscord) -> None:
    async with sharded, aiohttp.ClientSession() as session:
        async with session.get(
            f"{sharded.api_base}/gateway/bot", headers={"Authorization": f"Bot {sharded.token}"}
        ) as response:
            assert (await response.json())["shards"] == 2


async def test_each_shard_is_told_of_its_own_guilds_and_hears_only_them(sharded: FakeDiscord) -> None:
    async with sharded:
        zero, one = guilds_on_both_shards(sharded)
        alice = sharded.add_user("alice")
        zero.add_member(alice)
        one.add_member(alice)
        async with two_processes(sharded) as (bot0, bot1):
            assert [g.name for g in bot0.guilds] == ["Zero"] and [g.name for g in bot1.guilds] == ["One"]
            assert sharded.gateway.connected_shards() == [(0, 2), (1, 2)]
            await sharded.say(alice, zero.add_text_channel("zero-games"), "in zero")
            await sharded.say(alice, one.add_text_channel("one-games"), "in one")
            await sharded.wait_for(lambda: bot0.messages and bot1.messages and bot1.channels)
            assert (bot0.messages, bot1.messages) == (["in zero"], ["in one"])
            assert (bot0.channels, bot1.channels) == (["zero-games"], ["one-games"])


async def test_dms_and_clicks_in_dms_reach_shard_zero_only(sharded: FakeDiscord) -> None:
    async with sharded:
        _, one = guilds_on_both_shards(sharded)
        alice = sharded.add_user("alice", guild=one)
        async with two_processes(sharded) as (bot0, bot1):
            # The shard-1 process, which owns alice's game, DMs her a button.
            user = await bot1.fetch_user(alice.id)
            view = discord.ui.View().add_item(discord.ui.Button(label="Bet", custom_id="bet:1"))
            await user.send("Your bet?", view=view)
            (dm,) = sharded.dm_messages(alice)
            await sharded.say(alice, sharded.dm_channel(alice), "hello bot")
            await sharded.click(alice, dm, "bet:1", wait=False)
            await sharded.wait_for(lambda: bot0.clicks and "hello bot" in bot0.messages)
            assert bot0.clicks == ["bet:1"] and bot1.clicks == []
            assert "hello bot" not in bot1.messages


async def test_interactions_in_a_guild_go_to_the_guilds_shard(sharded: FakeDiscord) -> None:
    async with sharded:
        _, one = guilds_on_both_shards(sharded)
        games = one.add_text_channel("games")
        alice = sharded.add_user("alice", guild=one)
        async with two_processes(sharded) as (bot0, bot1):
            channel = bot1.get_channel(games.id)
            assert isinstance(channel, discord.TextChannel)
            view = discord.ui.View().add_item(discord.ui.Button(label="Join", custom_id="join"))
            lobby = sharded.messages[(await channel.send("lobby", view=view)).id]
            await sharded.click(alice, lobby, "join", wait=False)
            await sharded.wait_for(lambda: bot1.clicks)
            assert bot0.clicks == []


async def test_an_auto_sharded_client_opens_every_recommended_shard(sharded: FakeDiscord) -> None:
    async with sharded:
        zero, one = guilds_on_both_shards(sharded)
        client = discord.AutoShardedClient(intents=discord.Intents.default())
        async with running_bot(sharded, client):
            assert sharded.gateway.connected_shards() == [(0, 2), (1, 2)]
            assert {g.name: g.shard_id for g in client.guilds} == {"Zero": 0, "One": 1}


async def test_an_unsharded_session_hears_everything(fake_discord: FakeDiscord) -> None:
    a, b = fake_discord.add_guild("A"), fake_discord.add_guild("B")
    async with running_bot(fake_discord, discord.Client(intents=discord.Intents.default())) as bot:
        assert {g.id for g in bot.guilds} == {a.id, b.id}
        assert fake_discord.gateway.connected_shards() == [(0, 1)]


async def test_a_shard_outside_its_count_is_closed_with_4010(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake_discord.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        identify = {"token": fake_discord.token, "intents": 0, "properties": {}, "shard": [2, 2]}
        await ws.send_str(json.dumps({"op": 2, "d": identify}))
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 4010


async def test_a_restarted_shard_process_comes_back_while_the_other_stays(sharded: FakeDiscord) -> None:
    async with sharded:
        _, one = guilds_on_both_shards(sharded)
        alice = sharded.add_user("alice", guild=one)
        games = one.add_text_channel("games")
        async with running_bot(sharded, Listener(0)) as bot0:
            async with running_bot(sharded, Listener(1)):
                await sharded.wait_for_shards(0, 1)
            assert sharded.gateway.connected_shards() == [(0, 2)]
            async with running_bot(sharded, Listener(1)) as again:
                await sharded.wait_for_shards(0, 1)
                assert [g.name for g in again.guilds] == ["One"]
                await sharded.say(alice, games, "still here")
                await sharded.wait_for(lambda: again.messages)
                assert again.messages == ["still here"] and bot0.messages == []
