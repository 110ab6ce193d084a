"""Channel permissions in the fake Discord, as the real discord.py client meets them: overwrites per
channel (threads take their parent's), role changes heard by the bot, and Discord's answers: 50001
Missing Access where the bot cannot see, 50013 Missing Permissions where it may not post or attach,
embeds dropped without Embed Links (50006 for a message left empty)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest

from bot.fakediscord import FakeChannel, FakeDiscord, FakeGuild, running_bot
from bot.fakediscord.model import BOT_PERMISSIONS


@dataclass
class Scene:
    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    bot: discord.Client

    def channel(self) -> discord.TextChannel:
        found = self.bot.get_channel(self.games.id)
        assert isinstance(found, discord.TextChannel)
        return found

    def mine(self) -> discord.Permissions:
        channel = self.channel()
        return channel.permissions_for(channel.guild.me)

    async def until_bot_sees(self, check: object, what: str) -> None:
        await self.fake.wait_for(lambda: bool(check(self.mine())), timeout=5, what=what)  # type: ignore[operator]


@pytest.fixture
async def scene(fake_discord: FakeDiscord) -> AsyncIterator[Scene]:
    guild = fake_discord.add_guild("Test Server", bot_permissions=BOT_PERMISSIONS)
    games = guild.add_text_channel("games")
    async with running_bot(fake_discord, discord.Client(intents=discord.Intents.default())) as bot:
        yield Scene(fake_discord, guild, games, bot)


def picture() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n" + b"x" * 50), filename="board.png")


async def test_an_overwrite_denying_send_messages_refuses_posts_with_50013_and_the_bot_sees_it(
    scene: Scene,
) -> None:
    assert scene.guild.bot_role is not None
    scene.fake.set_permissions(
        scene.games, scene.guild.bot_role, deny=discord.Permissions(send_messages=True)
    )
    await scene.until_bot_sees(lambda p: not p.send_messages, "the overwrite in the bot's cache")
    with pytest.raises(discord.Forbidden) as refused:
        await scene.channel().send("hello")
    assert refused.value.code == 50013
    # Another channel is untouched.
    other = scene.guild.add_text_channel("other")
    await scene.fake.wait_for(lambda: scene.bot.get_channel(other.id) is not None, timeout=5)
    channel = scene.bot.get_channel(other.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("still fine")
    # Removing the overwrite gives it back.
    scene.fake.set_permissions(scene.games, scene.guild.bot_role)
    await scene.until_bot_sees(lambda p: p.send_messages, "the overwrite gone")
    await scene.channel().send("back")


async def test_without_view_channel_discord_answers_missing_access(scene: Scene) -> None:
    scene.fake.set_permissions(scene.games, scene.guild.everyone, deny=discord.Permissions(view_channel=True))
    await scene.until_bot_sees(lambda p: not p.view_channel, "the channel hidden")
    with pytest.raises(discord.Forbidden) as refused:
        await scene.channel().send("hello")
    assert refused.value.code == 50001
    with pytest.raises(discord.Forbidden) as fetched:
        await scene.bot.fetch_channel(scene.games.id)
    assert fetched.value.code == 50001


async def test_a_member_overwrite_wins_over_the_roles(scene: Scene) -> None:
    scene.fake.set_permissions(
        scene.games, scene.guild.everyone, deny=discord.Permissions(send_messages=True)
    )
    scene.fake.set_permissions(
        scene.games, scene.fake.bot_user, allow=discord.Permissions(send_messages=True)
    )
    await scene.fake.wait_for(lambda: len(scene.channel().overwrites) == 2, timeout=5)
    assert scene.mine().send_messages
    await scene.channel().send("allowed for me alone")


async def test_without_attach_files_a_file_is_refused_and_the_text_alone_goes_through(scene: Scene) -> None:
    assert scene.guild.bot_role is not None
    scene.fake.set_role_permissions(
        scene.guild, scene.guild.bot_role, BOT_PERMISSIONS & ~discord.Permissions(attach_files=True).value
    )
    everyone = scene.guild.everyone
    scene.fake.set_role_permissions(
        scene.guild, everyone, everyone.permissions & ~discord.Permissions(attach_files=True).value
    )
    await scene.until_bot_sees(lambda p: not p.attach_files, "the role change")
    with pytest.raises(discord.Forbidden) as refused:
        await scene.channel().send("a picture", file=picture())
    assert refused.value.code == 50013
    sent = await scene.channel().send("a picture")
    with pytest.raises(discord.Forbidden):
        await sent.edit(attachments=[picture()])


async def test_without_embed_links_embeds_are_dropped_and_an_embed_alone_is_refused(scene: Scene) -> None:
    scene.fake.set_permissions(scene.games, scene.guild.everyone, deny=discord.Permissions(embed_links=True))
    assert scene.guild.bot_role is not None
    scene.fake.set_permissions(scene.games, scene.guild.bot_role, deny=discord.Permissions(embed_links=True))
    await scene.until_bot_sees(lambda p: not p.embed_links, "the overwrite")
    message = await scene.channel().send("text", embed=discord.Embed(title="Results"))
    assert scene.fake.messages[message.id].embeds == []
    with pytest.raises(discord.HTTPException) as refused:
        await scene.channel().send(embed=discord.Embed(title="Results"))
    assert refused.value.code == 50006


async def test_a_thread_takes_its_parents_overwrites_and_needs_send_messages_in_threads(scene: Scene) -> None:
    lobby = await scene.channel().send("lobby")
    thread = await lobby.create_thread(name="Game #1")
    await thread.send("in the thread")
    assert scene.guild.bot_role is not None
    scene.fake.set_permissions(
        scene.games, scene.guild.bot_role, deny=discord.Permissions(send_messages_in_threads=True)
    )
    await scene.until_bot_sees(lambda p: not p.send_messages_in_threads, "the overwrite")
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("refused")
    assert refused.value.code == 50013
    await scene.channel().send("the channel itself still takes posts")
    with pytest.raises(Exception, match="no permission overwrites"):
        scene.fake.set_permissions(scene.fake.channels[thread.id], scene.guild.everyone, deny=1)
