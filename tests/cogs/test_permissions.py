"""Missing channel permissions, through the fake Discord and the real client: found before a game
starts (the start is refused privately, naming exactly what to grant; no lobby opens), and never
silent in the middle of one (the game pauses, the host is told, the bot tries again, the game goes on
once the permission is back or is closed with its players told; without Attach Files alone it goes on
without pictures)."""

from __future__ import annotations

import asyncio
import dataclasses
import re

import discord
import pytest

from bot.client import RaceBot
from bot.discord_io.permissions import NEEDED
from bot.fakediscord import FakeChannel, FakeMessage, running_bot, text_of
from tests.cogs.conftest import World, join, private_answer
from tests.cogs.timings import FAST

ROLL_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):\d+:roll:")
NAMES = {n.flag: n.name for n in NEEDED}
REQUIRED = [n.flag for n in NEEDED if n.required]
# The pause looks again 5 times a second; the bot waits long enough for a test to give a permission back.
PATIENT = dataclasses.replace(
    FAST, permission_retry_seconds=0.2, permission_wait_seconds=60.0, turn_seconds=2.0
)
# ... or gives up after a second.
IMPATIENT = dataclasses.replace(PATIENT, permission_wait_seconds=1.0)


def deny(world: World, flag: str, channel: FakeChannel | None = None) -> None:
    """A server manager adds an override in the channel taking ``flag`` away from the bot's role."""
    assert world.guild.bot_role is not None
    world.fake.set_permissions(
        channel or world.channel, world.guild.bot_role, deny=discord.Permissions(**{flag: True})
    )


def give_back(world: World, channel: FakeChannel | None = None) -> None:
    assert world.guild.bot_role is not None
    world.fake.set_permissions(channel or world.channel, world.guild.bot_role)


async def bot_lacks(world: World, bot: RaceBot, flag: str, lacking: bool = True) -> None:
    """Until the bot's cache has heard the override (Discord tells it over the gateway)."""

    def heard() -> bool:
        channel = bot.get_channel(world.channel.id)
        assert isinstance(channel, discord.TextChannel)
        return getattr(channel.permissions_for(channel.guild.me), flag) is not lacking

    await world.fake.wait_for(heard, timeout=5, what=f"the bot to hear about {flag}")


def shown(world: World, channel: FakeChannel | None = None) -> str:
    return text_of(world.fake.channel_messages(channel or world.channel))


def dms(world: World, name: str) -> str:
    return text_of(world.fake.dm_messages(world.users[name]))


# ---- the start ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("flag", REQUIRED)
async def test_a_start_without_a_required_permission_is_refused_naming_exactly_it(
    world: World, flag: str
) -> None:
    world = dataclasses.replace(world, where="thread" if flag == "send_messages_in_threads" else "channel")
    deny(world, flag)
    async with running_bot(world.fake, world.bot()) as bot:
        await bot_lacks(world, bot, flag)
        ix = await world.fake.slash(world.users["alice"], world.channel, "horserace start", players=2, bots=1)
        answer = await private_answer(world.fake, ix)
        assert f"**{NAMES[flag]}**" in answer
        others = [name for other, name in NAMES.items() if other != flag and f"**{name}**" in answer]
        assert others == []
        assert "Server Settings › Roles" in answer and "Edit Channel › Permissions" in answer
        # No lobby: nothing public was left behind, and no game is open.
        assert [m for m in ix.messages if not m.ephemeral and not m.deleted] == []
        assert bot.tables.in_channel(world.channel.id) is None and bot.tables.by_id == {}
        assert world.fake.threads_in(world.channel) == []
        # Given back, the same start opens a lobby.
        give_back(world)
        await bot_lacks(world, bot, flag, lacking=False)
        again = await world.fake.slash(world.users["alice"], world.channel, "hotstreak start")
        assert "lobby" in text_of(await again.reply())


async def test_the_refusal_is_in_the_members_language(world: World) -> None:
    world.users["alice"].locale = "pt-BR"
    deny(world, "embed_links")
    async with running_bot(world.fake, world.bot()) as bot:
        await bot_lacks(world, bot, "embed_links")
        ix = await world.fake.slash(world.users["alice"], world.channel, "horserace start")
        answer = await private_answer(world.fake, ix)
    assert "**Inserir links**" in answer and "Embed Links" not in answer


# ---- without Attach Files: no pictures, the game goes on ----------------------------------------------
async def test_without_attach_files_the_lobby_opens_and_the_game_goes_on_without_pictures(
    world: World,
) -> None:
    deny(world, "attach_files")
    async with running_bot(world.fake, world.bot()) as bot:
        await bot_lacks(world, bot, "attach_files")
        ix = await world.fake.slash(
            world.users["alice"], world.channel, "horserace start", races=1, rolls="auto", players=2, bots=1
        )
        assert "without pictures" in await private_answer(world.fake, ix)
        await world.fake.wait_for(lambda: "Final standings" in shown(world), timeout=60)
    messages = world.fake.channel_messages(world.channel)
    assert [a for m in messages for a in m.attachments] == []
    assert shown(world).count("goes on without pictures") == 1
    assert "wins race" in shown(world)


# ---- in the middle of a game ------------------------------------------------------------------------------
def boards(world: World) -> list[FakeMessage]:
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ]


def roll_button(world: World) -> tuple[int, str] | None:
    found = boards(world)
    for button in found[-1].buttons if found else []:
        match = ROLL_ID.match(button.custom_id or "")
        if match:
            return int(match.group(1)), str(button.custom_id)
    return None


async def manual_game(world: World) -> None:
    """Alice hosts a one-race Horse Race game with Bob, rolling by hand; it waits for a first roll."""
    ix = await world.fake.slash(
        world.users["alice"], world.channel, "horserace start", races=1, rolls="manual"
    )
    lobby = await ix.reply()
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await world.fake.wait_for(lambda: roll_button(world) is not None, timeout=10, what="a roll button")


async def pause_with_a_roll(world: World, bot: RaceBot) -> tuple[int, str]:
    """The channel is hidden from the bot; the player on turn rolls, and the bot cannot show it."""
    deny(world, "view_channel")
    await bot_lacks(world, bot, "view_channel")
    found = roll_button(world)
    assert found is not None
    seat, custom_id = found
    player = world.users["alice" if seat == 0 else "bob"]
    await (await world.fake.click(player, boards(world)[-1], custom_id)).wait_response()
    await world.fake.wait_for(lambda: "paused" in dms(world, "alice"), timeout=10, what="the host told")
    return seat, custom_id


async def test_a_permission_taken_away_pauses_the_game_tells_the_host_and_it_goes_on_once_back(
    world: World,
) -> None:
    # Turns of 4 s: with 2 s a loaded CI machine once took over 1.5 s between the next prompt going
    # out and the check below, and the turn ran out while nothing was paused.
    timing = dataclasses.replace(PATIENT, turn_seconds=4.0)
    async with running_bot(world.fake, world.bot(timing=timing)) as bot:
        await manual_game(world)
        seat, custom_id = await pause_with_a_roll(world, bot)
        told = dms(world, "alice")
        assert "**View Channel**" in told and "Send Messages" not in told  # exactly what to grant
        assert "Edit Channel › Permissions" in told
        table = bot.tables.in_channel(world.channel.id)
        assert table is not None and table.place.pause.paused
        player = world.users["alice" if seat == 0 else "bob"]
        again = await world.fake.click(player, boards(world)[-1], custom_id)
        assert "paused" in await private_answer(world.fake, again)
        before = len(world.fake.requests)
        await asyncio.sleep(timing.turn_seconds * 1.5)  # paused longer than a turn lasts
        looks = timing.turn_seconds * 1.5 / timing.permission_retry_seconds
        assert len(world.fake.requests) - before < looks + 25  # a look every 0.2 s, not a flood
        give_back(world)
        await world.fake.wait_for(lambda: "I can post here again" in shown(world), timeout=10)
        # The game goes on: the other player's roll is asked for, and nobody's time ran out.
        await world.fake.wait_for(
            lambda: (found := roll_button(world)) is not None and found[0] != seat,
            timeout=10,
            what="the next roll",
        )
        # The turn that was running when the game paused had its clock stopped: nobody's time is up,
        # and the next player may roll.
        await asyncio.sleep(0.5)
        assert "Time's up" not in shown(world)
        found = roll_button(world)
        assert found is not None
        other = world.users["alice" if found[0] == 0 else "bob"]
        await (await world.fake.click(other, boards(world)[-1], found[1])).wait_response()
        await world.fake.wait_for(lambda: roll_button(world) != found, timeout=10, what="the roll applied")
        assert "Time's up" not in shown(world)
        assert dms(world, "alice").count("paused") == 1  # the host was told once
        assert not table.place.pause.paused and not table.closed


@pytest.mark.parametrize("flag", ["send_messages", "embed_links"])
async def test_each_required_permission_taken_away_once_the_lobby_is_open_pauses_the_game_until_it_is_back(
    world: World, flag: str
) -> None:
    async with running_bot(world.fake, world.bot(timing=PATIENT)) as bot:
        ix = await world.fake.slash(
            world.users["alice"], world.channel, "horserace start", races=1, rolls="auto", players=3, bots=1
        )
        lobby = await ix.reply()
        deny(world, flag)  # after the start check: the game finds out when it posts
        await bot_lacks(world, bot, flag)
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: "paused" in dms(world, "alice"), timeout=20, what="the host told")
        told = dms(world, "alice")
        assert f"**{NAMES[flag]}**" in told
        assert [name for other, name in NAMES.items() if other != flag and f"**{name}**" in told] == []
        table = bot.tables.in_channel(world.channel.id)
        assert table is not None and table.place.pause.paused
        await asyncio.sleep(1.0)  # five looks, and nothing moves on meanwhile
        assert table.place.pause.paused and not table.closed
        assert "Final standings" not in shown(world)
        give_back(world)
        await world.fake.wait_for(lambda: "I can post here again" in shown(world), timeout=10)
        await world.fake.wait_for(lambda: "Final standings" in shown(world), timeout=60)
        assert dms(world, "alice").count("paused") == 1
        if flag == "embed_links":  # nothing was posted with its embed dropped
            assert all(m.embeds for m in world.fake.channel_messages(world.channel) if "wins race" in m.text)


async def test_a_permission_that_does_not_come_back_closes_the_game_and_its_players_are_told(
    world: World,
) -> None:
    async with running_bot(world.fake, world.bot(timing=IMPATIENT)) as bot:
        await manual_game(world)
        table = bot.tables.in_channel(world.channel.id)
        assert table is not None
        await pause_with_a_roll(world, bot)
        for name in ("alice", "bob"):
            await world.fake.wait_for(
                lambda n=name: "was closed" in dms(world, n), timeout=10, what=f"{name} told of the close"
            )
            assert "**View Channel**" in dms(world, name)
        await world.fake.wait_for(lambda: bot.tables.by_id == {}, timeout=5)
        assert table.closed
        game = await bot.storage.load_game(table.game_id)
        assert game is not None and game.status == "abandoned"


async def test_in_a_thread_a_lost_send_messages_in_threads_pauses_the_game(world: World) -> None:
    world = dataclasses.replace(world, where="thread")
    async with running_bot(world.fake, world.bot(timing=PATIENT)) as bot:
        ix = await world.fake.slash(
            world.users["alice"],
            world.channel,
            "horserace start",
            races=2,
            rolls="auto",
            pace=0.2,
            players=2,
            bots=1,
        )
        await ix.reply()
        await world.fake.wait_for(lambda: world.fake.threads_in(world.channel) != [], timeout=20)
        thread = world.fake.threads_in(world.channel)[0]
        deny(world, "send_messages_in_threads")
        await bot_lacks(world, bot, "send_messages_in_threads")
        await world.fake.wait_for(lambda: "paused" in dms(world, "alice"), timeout=30, what="the host told")
        told = dms(world, "alice")
        assert "**Send Messages in Threads**" in told and f"<#{thread.id}>" in told
        give_back(world)
        await world.fake.wait_for(lambda: "I can post here again" in shown(world, thread), timeout=10)
