"""A click belongs to its place (issue 26, point 8): a button moves only the game it was made for, in
that game's server and channel, whatever number its id carries; an expired lobby keeps no buttons."""

from __future__ import annotations

import asyncio
import dataclasses

import discord

from bot.client import RaceBot
from bot.fakediscord import FakeChannel, FakeMessage, running_bot
from bot.fakediscord.posting import delete_message
from bot.tables.components import button
from tests.cogs.conftest import FAST, World, private_answer

ANOTHER_GAME = "belongs to another game"


async def open_lobby(world: World, channel: FakeChannel | None = None) -> FakeMessage:
    ix = await world.fake.slash(world.users["alice"], channel or world.channel, "hotstreak start", pace=0.0)
    return await ix.reply()


async def copied(world: World, bot: RaceBot, channel: FakeChannel, custom_ids: list[str]) -> FakeMessage:
    """A message in ``channel`` whose buttons carry ``custom_ids`` (as another game's, or an old
    database's, buttons with the same ids would)."""
    view = discord.ui.View(timeout=None)
    for n, custom_id in enumerate(custom_ids):
        view.add_item(button(custom_id, f"copy {n}"))
    target = bot.get_channel(channel.id)
    assert isinstance(target, discord.abc.Messageable)
    sent = await target.send("(buttons of somewhere else)", view=view)
    return world.fake.messages[sent.id]


async def seats_of(bot: RaceBot, channel: FakeChannel) -> list[str]:
    game = await bot.storage.active_game_in_channel(channel.id)
    assert game is not None
    return [seat["name"] for seat in game.seats]


async def test_a_game_s_button_in_another_server_or_channel_is_refused_and_changes_nothing(
    world: World,
) -> None:
    """Server B's manager pressing a copy of server A's lobby's Cancel (the same id: another bot's
    database, or a restored one) does not cancel A's lobby, and a stranger's Join there seats nobody."""
    other_guild = world.fake.add_guild("Other Server")
    elsewhere = other_guild.add_text_channel("elsewhere")
    mallory = world.fake.add_user("mallory", guild=other_guild, manage_guild=True)
    next_door = world.guild.add_text_channel("next-door")
    async with running_bot(world.fake, world.bot()) as bot:
        lobby = await open_lobby(world)
        join, cancel = lobby.button("Join").custom_id, lobby.button("Cancel").custom_id
        assert join is not None and cancel is not None
        far = await copied(world, bot, elsewhere, [join, cancel])
        near = await copied(world, bot, next_door, [join])
        refused = await world.fake.click(mallory, far, cancel)
        assert ANOTHER_GAME in await private_answer(world.fake, refused)
        refused = await world.fake.click(mallory, far, join)
        assert ANOTHER_GAME in await private_answer(world.fake, refused)
        refused = await world.fake.click(world.users["bob"], near, join)
        assert ANOTHER_GAME in await private_answer(world.fake, refused)
        assert await seats_of(bot, world.channel) == ["alice"]
        assert bot.tables.in_channel(world.channel.id) is not None
        # The same button in its own channel works.
        await (await world.fake.click(world.users["bob"], lobby, join)).wait_response()
        await world.fake.wait_for(lambda: world.users["bob"].mention in lobby.text, timeout=5)


async def test_a_new_database_s_game_1_does_not_take_an_old_game_1_s_buttons(world: World) -> None:
    """The bot starts again on a fresh database: its first game is number 1 again, in the same
    channel; the old lobby's buttons, and a button from before tokens, move nothing."""
    async with running_bot(world.fake, world.bot()) as bot:
        old = await open_lobby(world)
        assert bot.tables.in_channel(world.channel.id).game_id == 1  # type: ignore[union-attr]
    world.db = world.db.with_name("fresh.db")
    async with running_bot(world.fake, world.bot()) as bot:
        new = await open_lobby(world)
        assert bot.tables.in_channel(world.channel.id).game_id == 1  # type: ignore[union-attr]
        old_join = old.button("Join").custom_id
        assert old_join is not None
        refused = await world.fake.click(world.users["bob"], old, old_join)
        assert ANOTHER_GAME in await private_answer(world.fake, refused)
        before_tokens = await copied(world, bot, world.channel, ["g:1:lobby:join", "g:1:lobby:cancel"])
        for custom_id in ("g:1:lobby:join", "g:1:lobby:cancel"):
            refused = await world.fake.click(world.users["mod"], before_tokens, custom_id)
            assert ANOTHER_GAME in await private_answer(world.fake, refused)
        assert await seats_of(bot, world.channel) == ["alice"]
        assert bot.tables.in_channel(world.channel.id) is not None
        assert old_join != new.button("Join").custom_id  # the same number, another token


async def test_an_expired_lobby_s_message_has_no_buttons(world: World) -> None:
    quick = dataclasses.replace(FAST, lobby_seconds=1.0)
    async with running_bot(world.fake, world.bot(timing=quick)) as bot:
        lobby = await open_lobby(world)
        assert lobby.buttons
        await world.fake.wait_for(lambda: not bot.tables.by_id, timeout=10)
        await world.fake.wait_for(lambda: not lobby.components, timeout=5, what="the lobby without buttons")
        assert "nobody started it in time" in lobby.text
        await asyncio.sleep(0.3)
        closing = [m for m in world.fake.channel_messages(world.channel) if "nobody started it" in m.text]
        assert closing == [lobby]  # said once, by the lobby's own message: no second line


async def test_an_expired_lobby_whose_message_was_deleted_says_so_in_a_line_of_its_own(world: World) -> None:
    quick = dataclasses.replace(FAST, lobby_seconds=1.0)
    async with running_bot(world.fake, world.bot(timing=quick)) as bot:
        lobby = await open_lobby(world)
        delete_message(world.fake, lobby)
        await world.fake.wait_for(lambda: not bot.tables.by_id, timeout=10)
        await world.fake.wait_for(
            lambda: any(
                "nobody started it in time" in m.text for m in world.fake.channel_messages(world.channel)
            ),
            timeout=5,
            what="the closing line",
        )
