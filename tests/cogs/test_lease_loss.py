"""A process that loses a game's lease to another process stops driving that game at once: it stores no
further move and says nothing more in the channel (the new owner speaks)."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.client import PERMISSIONS, make_bot
from bot.config import Settings
from bot.fakediscord import FakeDiscord, running_bot
from tests.bot.storage.databases import Database
from tests.cogs.timings import FAST

QUICK_LEASES = dataclasses.replace(FAST, turn_seconds=0.2, phase_seconds=0.2, lease_renew_seconds=0.2)


@pytest.mark.timeout(120)
async def test_a_process_that_lost_a_lease_stops_driving_the_game(database: Database) -> None:
    async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guild = fake.add_guild("Server", bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        dave = fake.add_user("dave", guild=guild)
        bot = make_bot(Settings(token=fake.token, database_url=database.url), timing=QUICK_LEASES)
        async with running_bot(fake, bot):
            start = await fake.slash(dave, channel, "horserace start", players=3, bots=2, pace=0.0, races=3)
            await start.wait_response(timeout=10)

            async def stored() -> int:
                return int((await database.fetch("SELECT COUNT(*) FROM actions"))[0][0])

            for _ in range(200):
                if await stored() >= 3:
                    break
                await asyncio.sleep(0.05)
            (game_id,) = bot.tables.by_id
            # Another process takes the game over (as after a hang longer than the lease).
            await database.execute(
                "UPDATE leases SET owner = ?, expires_at = ? WHERE game_id = ?", "elsewhere", 4e9, game_id
            )
            await fake.wait_for(lambda: not bot.tables.by_id, timeout=10, what="the bot to let the game go")
            count, posted = await stored(), len(fake.channel_messages(channel))
            await asyncio.sleep(1.0)
            assert await stored() == count  # not one more move from this process
            assert len(fake.channel_messages(channel)) == posted
            assert (await database.fetch("SELECT status FROM games"))[0][0] == "running"  # not closed either
