"""A table survives the network: posts that lose their connection or get 429s are retried (never posted
twice), and a channel that is gone for good closes its game and tells the players by DM."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot
from tests.cogs.conftest import World, join

MESSAGES = "/channels/{channel_id}/messages"


@pytest.fixture
async def bot(world: World) -> AsyncIterator[RaceBot]:
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace", "cogs.stats"))) as running:
        yield running


def standings(world: World) -> FakeMessage | None:
    return next((m for m in world.fake.channel_messages(world.channel) if "Final standings" in m.text), None)


async def started_game(world: World, races: int = 2) -> None:
    ix = await world.fake.slash(
        world.users["alice"], world.channel, "horserace start", races=races, rolls="auto", pace=0.0
    )
    lobby = await ix.reply()
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()


async def test_lost_connections_and_429s_on_posts_end_in_a_normal_game_with_no_message_twice(
    world: World, bot: RaceBot
) -> None:
    faults = world.fake.faults
    # Two posts of the game lose their connection: one after Discord posted it, one before.
    faults.drop_next(method="POST", route=MESSAGES, channel=world.channel, applied=True)
    faults.reset_next(method="POST", route=MESSAGES, channel=world.channel, skip=2)
    faults.rate_limit_next(3, retry_after=0.01, method="POST", route=MESSAGES, channel=world.channel, skip=3)
    await started_game(world)
    [table] = bot.tables.by_id.values()
    await world.fake.wait_for(lambda: standings(world) is not None, timeout=60)
    await world.fake.wait_for(lambda: not bot.tables.by_id, timeout=10, what="the table to close")
    assert sorted(r.fault for r in faults.injected) == ["429", "429", "429", "drop", "reset"]
    messages = world.fake.channel_messages(world.channel)
    posted = [m for m in messages if m.nonce is not None]
    assert posted and all(n == 1 for n in Counter(m.nonce for m in posted).values())
    assert len(world.fake.nonce_replays) == 1  # the applied drop's retry got the first message back
    assert len([m for m in messages if "wins race" in m.text]) == 2
    game = await bot.storage.load_game(table.game_id)
    assert game is not None and game.status == "finished"


async def test_a_deleted_channel_closes_the_game_and_its_players_hear_by_dm(
    world: World, bot: RaceBot
) -> None:
    await started_game(world, races=20)
    await world.fake.wait_for(
        lambda: any("Race 1" in m.text for m in world.fake.channel_messages(world.channel)), timeout=10
    )
    [table] = bot.tables.by_id.values()
    world.fake.delete_channel(world.channel)
    await world.fake.wait_for(lambda: not bot.tables.by_id, timeout=10, what="the game to close")
    for name in ("alice", "bob"):
        await world.fake.wait_for(
            lambda user=world.users[name]: any(
                "its channel is gone" in m.text for m in world.fake.dm_messages(user)
            ),
            timeout=10,
        )
    game = await bot.storage.load_game(table.game_id)
    assert game is not None and game.status == "abandoned"
