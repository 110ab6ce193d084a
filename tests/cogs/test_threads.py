"""A game in a thread of its own, through the fake Discord: the channel keeps the lobby, a link and the
standings; an archived thread comes back; a deleted one closes its game; no permission, no thread."""

from __future__ import annotations

import dataclasses

from bot.client import PERMISSIONS
from bot.fakediscord import FakeChannel, FakeMessage, running_bot, text_of
from bot.fakediscord.threads import CREATE_PUBLIC_THREADS
from bot.storage import Storage
from tests.cogs.conftest import World, join


def threaded(world: World) -> World:
    """The same world, with the bot's own default: a thread per game."""
    return dataclasses.replace(world, where="thread")


def text(world: World, channel: FakeChannel) -> str:
    return text_of(world.fake.channel_messages(channel))


def the_thread(world: World, channel: FakeChannel | None = None) -> FakeChannel | None:
    found = world.fake.threads_in(channel or world.channel)
    return found[0] if found else None


async def auto_game(world: World, channel: FakeChannel | None = None, **options: object) -> FakeMessage:
    """A Horse Race game with the bot rolling and one AI seat: it starts as soon as it is opened."""
    options = {"races": 1, "rolls": "auto", "pace": 0.0, "players": 2, "bots": 1, **options}
    ix = await world.fake.slash(world.users["alice"], channel or world.channel, "horserace start", **options)
    return await ix.reply()


async def test_a_game_runs_in_its_own_thread_and_the_channel_keeps_the_lobby_a_link_and_the_standings(
    world: World,
) -> None:
    world = threaded(world)
    async with running_bot(world.fake, world.bot()):
        lobby = await auto_game(world)
        await world.fake.wait_for(lambda: the_thread(world) is not None, timeout=20, what="the game's thread")
        thread = the_thread(world)
        assert thread is not None and thread.id == lobby.id  # started from the lobby message
        assert "Horse Race" in thread.name and thread.type == 11  # a public thread
        # The channel is free for another game while this one runs in its thread.
        ix = await world.fake.slash(world.users["bob"], world.channel, "hotstreak start")
        assert "Hot Streak" in text_of(await ix.reply())
        await world.fake.wait_for(lambda: "Final standings" in text(world, thread), timeout=60)
        await world.fake.wait_for(lambda: "Final standings" in text(world, world.channel), timeout=10)
    in_thread, in_channel = text(world, thread), text(world, world.channel)
    assert "board.png" in in_thread and "wins race" in in_thread
    assert f"is on in <#{thread.id}>" in in_channel
    assert "board.png" not in in_channel and "wins race" not in in_channel


async def test_where_channel_plays_in_the_channel(world: World) -> None:
    world = threaded(world)
    async with running_bot(world.fake, world.bot()):
        await auto_game(world, where="channel")
        await world.fake.wait_for(lambda: "Final standings" in text(world, world.channel), timeout=60)
    assert the_thread(world) is None and "board.png" in text(world, world.channel)


async def test_an_archived_thread_is_unarchived_by_the_next_message(world: World) -> None:
    world = threaded(world)
    async with running_bot(world.fake, world.bot()):
        lobby = await auto_game(world, rolls="manual", bots=0)
        await join(world.fake, lobby, world.users["bob"])  # full: the game starts
        await world.fake.wait_for(lambda: the_thread(world) is not None, timeout=20)
        thread = the_thread(world)
        assert thread is not None
        await world.fake.wait_for(lambda: "to roll" in text(world, thread), timeout=20)
        world.fake.archive_thread(thread)  # a day without a message
        before = len(world.fake.channel_messages(thread))
        ix = await world.fake.slash(world.users["alice"], thread, "horserace status")
        await ix.wait_response()
        await world.fake.slash(world.users["alice"], world.channel, "horserace status")
        # The game goes on: the late player is rolled for at the deadline, in the thread, unarchived.
        world.fake.archive_thread(thread)
        await world.fake.wait_for(lambda: len(world.fake.channel_messages(thread)) > before, timeout=60)
        assert not thread.archived


async def test_a_deleted_thread_closes_its_game_and_the_players_are_told_in_the_channel(world: World) -> None:
    world = threaded(world)
    async with running_bot(world.fake, world.bot()) as bot:
        lobby = await auto_game(world, rolls="manual", bots=0)
        await join(world.fake, lobby, world.users["bob"])
        await world.fake.wait_for(lambda: the_thread(world) is not None, timeout=20)
        thread = the_thread(world)
        assert thread is not None
        await world.fake.wait_for(lambda: "to roll" in text(world, thread), timeout=20)
        world.fake.delete_channel(thread)
        await world.fake.wait_for(lambda: "thread was deleted" in text(world, world.channel), timeout=20)
        told = world.fake.channel_messages(world.channel)[-1]
        assert world.users["alice"].mention in told.text and world.users["bob"].mention in told.text
        assert bot.tables.in_channel(thread.id) is None
    async with await Storage.open(str(world.db)) as storage:
        (game,) = [g for g in [await storage.load_game(lobby_game_id(lobby))] if g is not None]
    assert game.status == "abandoned"


def lobby_game_id(lobby: FakeMessage) -> int:
    return int(lobby.text.split("Game #")[1].split()[0])


async def test_a_restart_resumes_the_game_in_its_thread(world: World) -> None:
    world = threaded(world)
    async with running_bot(world.fake, world.bot()):
        lobby = await auto_game(world, rolls="manual", bots=0)
        await join(world.fake, lobby, world.users["bob"])
        await world.fake.wait_for(lambda: the_thread(world) is not None, timeout=20)
        thread = the_thread(world)
        assert thread is not None
        await world.fake.wait_for(lambda: "to roll" in text(world, thread), timeout=20)
    world.fake.archive_thread(thread)  # and the cache of the next process does not hold it
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "carries on" in text(world, thread), timeout=20)
    assert "carries on" not in text(world, world.channel)


async def test_without_the_thread_permission_the_game_plays_in_the_channel_and_says_why_once(
    world: World,
) -> None:
    world = threaded(world)
    guild = world.fake.add_guild("No threads", bot_permissions=PERMISSIONS.value & ~CREATE_PUBLIC_THREADS)
    channel = guild.add_text_channel("games")
    world.users["alice"] = world.fake.add_user("alice2", guild=guild)
    async with running_bot(world.fake, world.bot()) as bot:
        for games in (1, 2):
            await auto_game(world, channel)
            await world.fake.wait_for(
                lambda n=games: text(world, channel).count("Final standings") >= n, timeout=60
            )
            await world.fake.wait_for(lambda: bot.tables.in_channel(channel.id) is None, timeout=10)
    shown = text(world, channel)
    assert shown.count("games here are played in this channel") == 1 and "Create Public Threads" in shown
    assert "board.png" in shown
    assert world.fake.threads_in(channel) == []
