"""Threads and application emojis in the fake Discord, driven by the real discord.py client: a game's
thread is started from its lobby message, archived, woken by the next message, deleted; the bot hears
each change; and its own emojis are uploaded once, listed, and refused when a name is taken."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest

from bot.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, running_bot
from bot.fakediscord.model import BOT_PERMISSIONS

PNG = b"\x89PNG\r\n\x1a\n" + b"mascot" * 20


class ThreadWatcher(discord.Client):
    """A bot that writes down every thread event it hears."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.heard: list[tuple[str, int, bool]] = []  # (event, thread id, archived)

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.heard.append(("create", thread.id, thread.archived))

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        # Raw: discord.py forgets an archived thread, so its unarchiving is a thread_join, not an update.
        self.heard.append(("update", payload.thread_id, payload.data["thread_metadata"]["archived"]))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.heard.append(("delete", payload.thread_id, False))


@dataclass
class Scene:
    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    alice: FakeUser
    bot: ThreadWatcher

    def channel(self) -> discord.TextChannel:
        found = self.bot.get_channel(self.games.id)
        assert isinstance(found, discord.TextChannel)
        return found

    async def heard(self, event: str, thread_id: int, archived: bool = False) -> None:
        await self.fake.wait_for(
            lambda: (event, thread_id, archived) in self.bot.heard, what=f"the bot to hear {event}"
        )


async def scene(fake: FakeDiscord, bot_permissions: int = BOT_PERMISSIONS) -> AsyncIterator[Scene]:
    guild = fake.add_guild("Test Server", bot_permissions=bot_permissions)
    games = guild.add_text_channel("games")
    alice = fake.add_user("alice", guild=guild)
    async with running_bot(fake, ThreadWatcher()) as bot:
        yield Scene(fake, guild, games, alice, bot)


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> AsyncIterator[Scene]:
    async for made in scene(fake_discord):
        yield made


async def game_thread(world: Scene) -> tuple[discord.Message, discord.Thread, FakeChannel]:
    lobby = await world.channel().send("Hot Streak lobby")
    thread = await lobby.create_thread(name="Hot Streak #1")
    return lobby, thread, world.fake.channels[thread.id]


# ---- threads ------------------------------------------------------------------------------------------------
async def test_a_thread_started_from_a_message_has_its_id_and_the_channel_as_parent(world: Scene) -> None:
    lobby, thread, fake_thread = await game_thread(world)
    assert thread.id == lobby.id and thread.parent_id == world.games.id and thread.name == "Hot Streak #1"
    assert world.fake.threads_in(world.games) == [fake_thread] and fake_thread.is_thread
    assert world.fake.messages[lobby.id].thread is fake_thread
    await world.heard("create", thread.id)
    assert world.bot.get_channel(thread.id) is not None
    posted = await thread.send("Race 1 begins")
    assert [m.content for m in world.fake.channel_messages(fake_thread)] == ["Race 1 begins"]
    assert world.fake.messages[posted.id].visible_to(world.alice)


async def test_a_message_has_at_most_one_thread(world: Scene) -> None:
    lobby, _, _ = await game_thread(world)
    with pytest.raises(discord.HTTPException) as refused:
        await lobby.create_thread(name="again")
    assert refused.value.code == 160004


async def test_archiving_is_heard_and_the_next_message_unarchives(world: Scene) -> None:
    _, thread, fake_thread = await game_thread(world)
    await thread.edit(archived=True)
    assert fake_thread.archived
    await world.heard("update", thread.id, archived=True)
    world.fake.unarchive_thread(fake_thread)
    world.fake.archive_thread(fake_thread)  # Discord's inactivity timer
    await thread.send("the game goes on")
    assert not fake_thread.archived
    await world.heard("update", thread.id, archived=False)
    assert world.fake.channel_messages(fake_thread)[-1].content == "the game goes on"


async def test_a_locked_archived_thread_refuses_the_bot_with_50083(world: Scene) -> None:
    _, thread, fake_thread = await game_thread(world)
    world.fake.archive_thread(fake_thread, locked=True)
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("let me in")
    assert refused.value.code == 50083 and fake_thread.archived


async def test_a_deleted_thread_is_heard_and_gone(world: Scene) -> None:
    _, thread, fake_thread = await game_thread(world)
    await thread.send("before")
    world.fake.delete_channel(fake_thread)
    await world.heard("delete", thread.id)
    with pytest.raises(discord.NotFound) as gone:
        await thread.send("after")
    assert gone.value.code == 10003
    assert world.fake.threads_in(world.games) == []
    assert not any(m.visible_to(world.alice) for m in fake_thread.messages)


async def test_the_bot_deletes_a_thread_only_with_manage_threads(world: Scene) -> None:
    _, thread, fake_thread = await game_thread(world)
    with pytest.raises(discord.Forbidden):
        await thread.delete()
    assert not fake_thread.deleted
    async with FakeDiscord() as fake:
        async for moderator in scene(fake, BOT_PERMISSIONS | discord.Permissions(manage_threads=True).value):
            _, thread, fake_thread = await game_thread(moderator)
            await thread.delete()
            assert fake_thread.deleted
            await moderator.heard("delete", thread.id)


async def test_a_bot_without_create_public_threads_gets_missing_permissions(
    fake_discord: FakeDiscord,
) -> None:
    without = BOT_PERMISSIONS & ~discord.Permissions(create_public_threads=True).value
    async for world in scene(fake_discord, without):
        lobby = await world.channel().send("lobby")
        with pytest.raises(discord.Forbidden) as refused:
            await lobby.create_thread(name="game")
        assert refused.value.code == 50013
        assert world.fake.threads_in(world.games) == []


async def test_a_bare_public_thread_leaves_a_notice_in_its_channel(world: Scene) -> None:
    thread = await world.channel().create_thread(name="side bets", type=discord.ChannelType.public_thread)
    (notice,) = world.fake.channel_messages(world.games)
    assert notice.type == 18 and notice.content == "side bets"
    assert thread.type is discord.ChannelType.public_thread


async def test_users_start_threads_and_talk_in_them(world: Scene) -> None:
    said = await world.fake.say(world.alice, world.games, "who wants a game?")
    fake_thread = world.fake.start_thread(world.alice, said, "game talk")
    await world.heard("create", fake_thread.id)
    world.fake.archive_thread(fake_thread)
    await world.fake.say(world.alice, fake_thread, "me!")
    assert not fake_thread.archived and world.alice.id in fake_thread.member_ids


async def test_a_restarted_bot_finds_active_threads_in_its_guild(world: Scene) -> None:
    _, thread, _ = await game_thread(world)
    async with running_bot(world.fake, ThreadWatcher()) as again:
        guild = again.get_guild(world.guild.id)
        assert guild is not None and guild.get_thread(thread.id) is not None
        assert [t.id for t in await guild.active_threads()] == [thread.id]


# ---- application emojis -------------------------------------------------------------------------------------
async def test_the_bot_uploads_lists_and_deletes_its_emojis(world: Scene) -> None:
    emoji = await world.bot.create_application_emoji(name="gobbler", image=PNG)
    (stored,) = world.fake.application_emojis.values()
    assert (stored.id, stored.name, stored.image) == (emoji.id, "gobbler", PNG)
    assert [e.name for e in await world.bot.fetch_application_emojis()] == ["gobbler"]
    with pytest.raises(discord.HTTPException) as taken:
        await world.bot.create_application_emoji(name="gobbler", image=PNG)
    assert taken.value.code == 50035 and "already taken" in taken.value.text
    await emoji.delete()
    assert world.fake.application_emojis == {} and await world.bot.fetch_application_emojis() == []


async def test_emojis_from_an_earlier_run_are_listed_and_usable_in_buttons(world: Scene) -> None:
    mum = world.fake.add_application_emoji("mum")
    assert mum.image.startswith(b"\x89PNG")  # a real picture, so screenshots can draw it
    (listed,) = await world.bot.fetch_application_emojis()
    assert listed.id == mum.id and str(listed) == mum.markdown
    view = discord.ui.View().add_item(discord.ui.Button(label="Mum", emoji=listed, custom_id="bet:mum"))
    sent = await world.channel().send(f"Bet on {listed}", view=view)
    assert world.fake.messages[sent.id].buttons[0].emoji == "mum"
    world.fake.application_emojis.clear()
    with pytest.raises(discord.HTTPException) as refused:
        await world.channel().send("stale", view=view)
    assert refused.value.code == 50035


async def test_the_emoji_list_is_discords_items_object(fake_discord: FakeDiscord) -> None:
    url = f"{fake_discord.api_base}/applications/{fake_discord.application_id}/emojis"
    auth = {"Authorization": f"Bot {fake_discord.token}"}
    image = "data:image/png;base64," + base64.b64encode(PNG).decode()
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"name": "x", "image": image}, headers=auth) as response:
            assert response.status == 400  # names are 2 to 32 characters
        async with session.post(url, json={"name": "fish", "image": image}, headers=auth) as response:
            created = await response.json()
        async with session.get(url, headers=auth) as response:
            listing = await response.json()
    assert listing == {"items": [created]} and created["name"] == "fish" and created["require_colons"]
