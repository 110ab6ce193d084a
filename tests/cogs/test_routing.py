"""A player's secret pick in a DM reaches the shard-0 process only (as on Discord); when another process
drives the game, the click is acknowledged at once, passed on through the database, applied once by the
game's owner, and the player is answered."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.client import PERMISSIONS, RaceBot, make_bot
from bot.config import Settings
from bot.fakediscord import FakeDiscord, running_bot
from bot.storage import Storage
from bot.tables.answers import STALE
from tests.bot.storage.databases import Database
from tests.cogs.timings import FAST

# Bets are left to the AI at once; secret picks wait for the player.
ROUTING = dataclasses.replace(FAST, turn_seconds=0.2, phase_seconds=60.0)


def shard_bot(fake: FakeDiscord, database: Database, shard: int) -> RaceBot:
    settings = Settings(token=fake.token, database_url=database.url, shard_count=2, shard_ids=(shard,))
    return make_bot(settings, timing=ROUTING)


@pytest.mark.timeout(120)
async def test_a_dm_click_on_another_shards_game_is_applied_once_by_its_owner(database: Database) -> None:
    async with FakeDiscord(shard_count=2, rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guild = fake.add_guild("Shard one", shard=1, bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        alice = fake.add_user("alice", guild=guild)
        async with (
            running_bot(fake, shard_bot(fake, database, 0)) as zero,
            running_bot(fake, shard_bot(fake, database, 1)) as one,
        ):
            await fake.wait_for_shards(0, 1)
            start = await fake.slash(alice, channel, "hotstreak start", players=2, bots=1, pace=0.0)
            await start.wait_response(timeout=10)
            await fake.wait_for(
                lambda: any(m.selects for m in fake.dm_messages(alice)),
                timeout=30,
                what="a secret pick by DM",
            )
            (game_id,) = one.tables.by_id
            assert zero.tables.by_id == {}  # the game is shard 1's
            message = next(m for m in fake.dm_messages(alice) if m.selects)
            menu = message.selects[0]
            storage: Storage = one.storage
            before = len((await storage.load_game(game_id)).actions)  # type: ignore[union-attr]

            click = await fake.select(alice, message, menu.custom_id, [menu.values[0]], wait=False)
            again = await fake.select(alice, message, menu.custom_id, [menu.values[0]], wait=False)
            await fake.wait_for(
                lambda: bool(click.text) and bool(again.text), timeout=15, what="answers to both clicks"
            )
            assert click.acknowledged and not click.late and again.acknowledged and not again.late
            # The same pick twice is applied once. Which of the two counts is not promised: each is passed
            # on by its own task after its own acknowledgement, so the second can reach the database first.
            texts = sorted([click.text, again.text], key=lambda text: STALE in text)
            assert "secret pick is in" in texts[0], texts  # passed on: answered privately by the owner
            assert STALE in texts[1], texts
            game = await storage.load_game(game_id)
            assert game is not None
            mine = [a for a in game.actions[before:] if a["player"] == 0 and a["kind"] == "submit"]
            assert len(mine) == 1
            # Nothing left waiting: each click is deleted once handled, just after its answer went out.
            for _ in range(100):
                if not await storage.routed_clicks([game_id]):
                    break
                await asyncio.sleep(0.1)
            assert await storage.routed_clicks([game_id]) == []
