"""``/config``: a server manager sees and changes the server's settings; the limits they set hold, counted
from storage (so a game another bot process opened on the same database counts too)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeChannel, FakeInteraction, ImpossibleAction, running_bot, text_of
from tests.cogs.conftest import World
from tests.cogs.timings import FAST


async def a_channel(world: World, bot: RaceBot, name: str) -> FakeChannel:
    channel = world.guild.add_text_channel(name)
    await world.fake.wait_for(lambda: bot.get_channel(channel.id) is not None, timeout=5)
    return channel


async def private(ix: FakeInteraction) -> str:
    """The bot's answer, once it has one, checked to be private: nothing of it is left in public (a
    refused start's public "thinking" placeholder is removed)."""
    await ix._fake.wait_for(
        lambda: any(m.ephemeral and not m.loading for m in ix.messages), what="a private answer"
    )
    assert all(m.ephemeral for m in ix.messages)
    return text_of(ix.messages)


async def other_process_game(bot: RaceBot, world: World, channel: FakeChannel, host: int) -> int:
    """A game another bot process on the same database runs: in storage, not in this bot's memory."""
    return await bot.storage.create_game(
        "hotstreak", world.guild.id, channel.id, 1, {"players": 2, "host_id": host}, [], status="running"
    )


async def test_a_manager_sees_sets_and_resets_settings_privately(world: World, bot: RaceBot) -> None:
    mod = world.users["mod"]
    shown = await private(await world.fake.slash(mod, world.channel, "config show"))
    assert "max_hosted_tables" in shown and "**2** *(default)*" in shown
    assert "max_running_games" in shown and "**10** *(default)*" in shown
    ix = await world.fake.slash(mod, world.channel, "config set", setting="max_running_games", value="3")
    assert "`max_running_games` is now **3**" in await private(ix)
    assert (await bot.storage.get_server_settings(world.guild.id)) == {"max_running_games": 3}
    shown = await private(await world.fake.slash(mod, world.channel, "config show"))
    assert "**3**" in shown
    ix = await world.fake.slash(mod, world.channel, "config reset", setting="max_running_games")
    assert "back to its default, **10**" in await private(ix)
    assert (await bot.storage.get_server_settings(world.guild.id)) == {}
    assert world.fake.channel_messages(world.channel) == []  # all of it private


@pytest.mark.parametrize("value", ["0", "lots", "-1", "99999999999999999999"])
async def test_a_bad_value_is_refused_and_changes_nothing(world: World, bot: RaceBot, value: str) -> None:
    ix = await world.fake.slash(
        world.users["mod"], world.channel, "config set", setting="max_hosted_tables", value=value
    )
    assert "doesn't fit" in await private(ix)
    assert (await bot.storage.get_server_settings(world.guild.id)) == {}


async def test_config_is_for_managers_only(world: World, bot: RaceBot) -> None:
    with pytest.raises(ImpossibleAction, match="lacks the permissions"):
        await world.fake.slash(world.users["alice"], world.channel, "config show")


async def test_a_member_hosts_at_most_two_open_games_counting_games_they_left(
    world: World, bot: RaceBot
) -> None:
    alice = world.users["alice"]
    for name in ("one", "two"):  # two games alice hosts and left, run by another process
        await other_process_game(bot, world, await a_channel(world, bot, name), alice.id)
    refused = await world.fake.slash(alice, world.channel, "hotstreak start")
    answer = await private(refused)
    assert "You already host 2 open games" in answer and "max_hosted_tables" in answer
    assert world.fake.channel_messages(world.channel) == [] and not bot.tables.by_id
    # A manager raises the cap: now alice may.
    ix = await world.fake.slash(
        world.users["mod"], world.channel, "config set", setting="max_hosted_tables", value="3"
    )
    await private(ix)
    lobby = await (await world.fake.slash(alice, world.channel, "hotstreak start")).reply()
    assert "lobby" in lobby.text


async def test_a_server_runs_at_most_its_cap_of_games(world: World, bot: RaceBot) -> None:
    ix = await world.fake.slash(
        world.users["mod"], world.channel, "config set", setting="max_running_games", value="1"
    )
    await private(ix)
    await other_process_game(bot, world, await a_channel(world, bot, "elsewhere"), world.users["bob"].id)
    refused = await world.fake.slash(world.users["alice"], world.channel, "horserace start")
    answer = await private(refused)
    assert "This server already has 1 open game," in answer and "max_running_games" in answer
    assert world.fake.channel_messages(world.channel) == []


async def test_a_start_beyond_the_bots_own_cap_is_refused_privately(world: World) -> None:
    """Issue 26, point 10: whatever each server allows, the process runs at most MAX_GAMES_AT_ONCE
    games (lobbies included); a start beyond it gets a short private answer and opens nothing."""
    settings = dataclasses.replace(world.bot().settings, max_games_at_once=1)
    async with running_bot(world.fake, RaceBot(settings, timing=FAST)) as bot:
        lobby = await (await world.fake.slash(world.users["alice"], world.channel, "hotstreak start")).reply()
        assert "lobby" in lobby.text
        elsewhere = await a_channel(world, bot, "elsewhere")
        refused = await world.fake.slash(world.users["bob"], elsewhere, "horserace start")
        assert "running as many games as I can right now" in await private(refused)
        assert world.fake.channel_messages(elsewhere) == [] and len(bot.tables.by_id) == 1


async def test_season_settings_take_a_channel_or_a_role_and_warn_at_once_about_what_the_bot_cannot_do(
    world: World,
) -> None:
    role = world.guild.add_role("Champion")
    recaps = world.guild.add_text_channel("recaps")
    async with running_bot(world.fake, world.bot()):
        mod, channel = world.users["mod"], world.channel
        ix = await world.fake.slash(mod, channel, "config set", setting="recap_channel", value="#recaps")
        assert f"`recap_channel` is now **<#{recaps.id}>**" in await private(ix)
        ix = await world.fake.slash(mod, channel, "config set", setting="recap_channel", value="nowhere")
        assert "`recap_channel` is a channel (pick it with #), or none." in await private(ix)
        # The invite asks for no Manage Roles: the admin is told at once, not at the season's end.
        ix = await world.fake.slash(mod, channel, "config set", setting="champion_role", value=role.mention)
        answer = await private(ix)
        assert f"`champion_role` is now **<@&{role.id}>**" in answer
        assert "⚠️ I won't be able to give this role yet: I need the **Manage Roles** permission." in answer
        ix = await world.fake.slash(mod, channel, "config set", setting="season", value="fortnightly")
        assert "`season` is one of: monthly, weekly, quarterly, off." in await private(ix)
