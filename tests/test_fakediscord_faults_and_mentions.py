"""The fake Discord breaks chosen requests the way a network does (dropped, reset, held, rate limited),
answers a repeated enforced nonce with the first message, and says who each message pings."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest

from bot.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Pings, running_bot

MESSAGES = "/channels/{channel_id}/messages"


@dataclass
class Scene:
    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    other: FakeChannel
    alice: FakeUser
    bob: FakeUser
    bot: discord.Client

    def channel(self, fake_channel: FakeChannel | None = None) -> discord.TextChannel:
        found = self.bot.get_channel((fake_channel or self.games).id)
        assert isinstance(found, discord.TextChannel)
        return found


async def scene(fake: FakeDiscord, client: discord.Client) -> AsyncIterator[Scene]:
    guild = fake.add_guild("Test Server")
    games, other = guild.add_text_channel("games"), guild.add_text_channel("other")
    alice, bob = fake.add_user("alice", guild=guild), fake.add_user("bob", guild=guild)
    async with running_bot(fake, client) as bot:
        yield Scene(fake, guild, games, other, alice, bob, bot)


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> AsyncIterator[Scene]:
    async for made in scene(fake_discord, discord.Client(intents=discord.Intents.default())):
        yield made


def texts(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.content for m in fake.channel_messages(channel)]


# ---- faults -------------------------------------------------------------------------------------------------
async def test_a_dropped_post_reaches_the_bot_as_a_server_disconnect_and_posts_nothing(world: Scene) -> None:
    rule = world.fake.faults.drop_next(method="POST", route=MESSAGES, channel=world.games)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await world.channel().send("lost")
    await world.channel().send("delivered")
    assert texts(world.fake, world.games) == ["delivered"]
    assert [r.fault for r in world.fake.faults.injected] == ["drop"] and rule.spent
    assert world.fake.refused_requests == []


async def test_a_reset_connection_is_a_client_connection_error(world: Scene) -> None:
    world.fake.faults.reset_next(route=MESSAGES)
    with pytest.raises(aiohttp.ClientConnectionError):
        await world.channel().send("lost")
    assert texts(world.fake, world.games) == []


async def test_faults_hit_only_the_chosen_channel_and_after_the_skipped_ones(world: Scene) -> None:
    world.fake.faults.drop_next(2, channel=world.games, skip=1)
    await world.channel(world.other).send("elsewhere")
    await world.channel().send("first passes")
    for _ in range(2):
        with pytest.raises(aiohttp.ClientConnectionError):
            await world.channel().send("dropped")
    await world.channel().send("then fine")
    assert texts(world.fake, world.games) == ["first passes", "then fine"]
    assert texts(world.fake, world.other) == ["elsewhere"]
    assert world.fake.faults.armed == []


async def test_a_held_request_times_out_in_the_bot_and_the_fake_lets_go_of_it(world: Scene) -> None:
    world.fake.faults.timeout_next(seconds=30.0, route=MESSAGES)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.2):
            await world.channel().send("held")
    world.fake.faults.release()
    await world.channel().send("next")
    assert texts(world.fake, world.games) == ["next"]
    assert [r.fault for r in world.fake.requests if r.fault] == ["timeout"]


async def test_an_applied_drop_posts_the_message_though_the_bot_never_hears_so(world: Scene) -> None:
    world.fake.faults.drop_next(route=MESSAGES, applied=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await world.channel().send("posted anyway")
    assert texts(world.fake, world.games) == ["posted anyway"]
    assert world.fake.faults.injected[0].status == 200


async def test_429s_on_chosen_requests_are_waited_out_by_discord_py(world: Scene) -> None:
    world.fake.faults.rate_limit_next(3, retry_after=0.01, route=MESSAGES)
    await world.channel().send("after three 429s")
    assert texts(world.fake, world.games) == ["after three 429s"]
    posts = [r for r in world.fake.requests if r.method == "POST"]
    assert [r.status for r in posts] == [429, 429, 429, 200]
    assert posts[0].error is not None and posts[0].error["retry_after"] == 0.01
    assert world.fake.refused_requests == []


async def test_a_server_error_that_discord_py_does_not_retry_reaches_the_bot(world: Scene) -> None:
    world.fake.faults.error_next(status=503, route=MESSAGES)
    with pytest.raises(discord.DiscordServerError):
        await world.channel().send("x")


# ---- nonces -------------------------------------------------------------------------------------------------
async def test_a_retried_post_with_an_enforced_nonce_returns_the_first_message(world: Scene) -> None:
    world.fake.faults.drop_next(route=MESSAGES, applied=True)
    with pytest.raises(aiohttp.ClientConnectionError):
        await world.channel().send("turn 7", nonce="game1-turn7")
    retried = await world.channel().send("turn 7", nonce="game1-turn7")
    (posted,) = world.fake.channel_messages(world.games)
    assert retried.id == posted.id and posted.nonce == "game1-turn7"
    assert [r.message for r in world.fake.nonce_replays] == [posted]


async def test_a_nonce_is_forgotten_after_the_window_and_unenforced_ones_never_match() -> None:
    async with FakeDiscord(nonce_window=0.0) as fake:
        async for world in scene(fake, discord.Client(intents=discord.Intents.default())):
            await world.channel().send("a", nonce=5)
            await world.channel().send("b", nonce=5)
            assert texts(fake, world.games) == ["a", "b"]
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        games = fake.add_guild("G").add_text_channel("games")
        url, auth = f"{fake.api_base}/channels/{games.id}/messages", {"Authorization": f"Bot {fake.token}"}
        for body in ({"content": "c", "nonce": "n"}, {"content": "d", "nonce": "n"}):
            async with session.post(url, json=body, headers=auth) as response:
                assert response.status == 200
        async with session.post(url, json={"content": "e", "nonce": "x" * 26}, headers=auth) as response:
            assert (response.status, (await response.json())["code"]) == (400, 50035)
        assert texts(fake, games) == ["c", "d"] and fake.nonce_replays == []


# ---- mentions -----------------------------------------------------------------------------------------------
async def test_without_allowed_mentions_every_mention_in_the_content_pings(world: Scene) -> None:
    role = world.guild.add_role("racers", mentionable=True)
    hidden = world.guild.add_role("mods")
    content = f"{world.alice.mention} <@!{world.bob.id}> {role.mention} {hidden.mention} @everyone @here"
    sent = await world.channel().send(content, embed=discord.Embed(description=f"<@{world.bob.id}>"))
    message = world.fake.messages[sent.id]
    assert message.allowed_mentions is None
    pings = world.fake.pings(message)
    assert pings.users == {world.alice.id, world.bob.id} and pings.roles == {role.id}
    assert not pings.everyone and not pings.here  # the bot may not Mention Everyone
    granted = world.fake.pings(message, permissions=False)
    assert granted.everyone and granted.here and granted.roles == {role.id, hidden.id}


async def test_allowed_mentions_as_sent_decide_who_is_pinged(world: Scene) -> None:
    content = f"{world.alice.mention} and {world.bob.mention} @everyone"
    quiet = await world.channel().send(content, allowed_mentions=discord.AllowedMentions.none())
    only_alice = await world.channel().send(
        content,
        allowed_mentions=discord.AllowedMentions(everyone=False, users=[discord.Object(world.alice.id)]),
    )
    quiet_message, alice_message = world.fake.messages[quiet.id], world.fake.messages[only_alice.id]
    assert quiet_message.allowed_mentions == {"parse": []}
    assert not world.fake.pings(quiet_message, permissions=False)
    assert world.fake.pings(alice_message, permissions=False).users == {world.alice.id}
    assert not world.fake.pings(alice_message, permissions=False).everyone


async def test_a_client_wide_default_is_recorded_on_every_message() -> None:
    client = discord.Client(
        intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none()
    )
    async with FakeDiscord() as fake:
        async for world in scene(fake, client):
            await world.channel().send(f"{world.alice.mention} @everyone")
            (message,) = fake.channel_messages(world.games)
            assert message.allowed_mentions == {"parse": []} and not fake.pings(message, permissions=False)


async def test_a_reply_pings_its_author_unless_told_not_to(world: Scene) -> None:
    said = await world.fake.say(world.alice, world.games, "hello")
    partial = world.channel().get_partial_message(said.id)
    loud = world.fake.messages[(await partial.reply("hi")).id]
    polite = world.fake.messages[(await partial.reply("hi", mention_author=False)).id]
    assert loud.reference is said and world.fake.pings(loud).users == {world.alice.id}
    assert not world.fake.pings(polite)


async def test_an_edit_with_allowed_mentions_replaces_them(world: Scene) -> None:
    sent = await world.channel().send("quiet", allowed_mentions=discord.AllowedMentions.none())
    await sent.edit(content=world.alice.mention, allowed_mentions=discord.AllowedMentions(users=True))
    message = world.fake.messages[sent.id]
    assert message.edits[0].allowed_mentions == {"parse": []}
    assert world.fake.pings(message).users == {world.alice.id}


async def test_contradictory_allowed_mentions_are_refused_like_discord(fake_discord: FakeDiscord) -> None:
    games = fake_discord.add_guild("G").add_text_channel("games")
    body = {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{fake_discord.api_base}/channels/{games.id}/messages",
            json=body,
            headers={"Authorization": f"Bot {fake_discord.token}"},
        ) as response:
            error = await response.json()
    assert response.status == 400 and "allowed_mentions" in error["errors"]
    assert fake_discord.channel_messages(games) == []


class ShoutBot(discord.Client):
    """Answers /shout with a mention of the caller, its followup with none allowed."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = discord.app_commands.CommandTree(self)

        @self.tree.command(description="Mention me")
        async def shout(interaction: discord.Interaction) -> None:
            only_caller = discord.AllowedMentions(everyone=False, roles=False, users=[interaction.user])
            await interaction.response.send_message(
                f"{interaction.user.mention} @everyone", allowed_mentions=only_caller
            )
            await interaction.followup.send(
                f"{interaction.user.mention} again", allowed_mentions=discord.AllowedMentions.none()
            )

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def test_interaction_answers_and_followups_record_their_allowed_mentions() -> None:
    async with FakeDiscord() as fake:
        async for world in scene(fake, ShoutBot()):
            interaction = await fake.slash(world.alice, world.games, "shout")
            answer, again = await interaction.reply(), await interaction.followup()
            assert fake.pings(answer, permissions=False) == Pings(users=frozenset({world.alice.id}))
            assert again.allowed_mentions == {"parse": []} and not fake.pings(again)
