"""A Downforce game killed with SIGKILL at random moments, the race included, resumes after every restart
and finishes with each seat's money equal to the same seeded game played without interruption; its
results are stored exactly once."""

from __future__ import annotations

import asyncio
import random
import signal

import pytest

from bot.games.base import Action
from bot.games.catalog import entry
from bot.storage import Storage
from bot.tables.seats import Seat
from tests.cogs.conftest import World
from tests.cogs.test_restart import start_bot, uninterrupted, wait_identified

KILLS = 12


@pytest.mark.timeout(300)  # many bot restarts; slow on a busy machine, not a speed test
# A bot killed in the middle of uploading a picture leaves the fake Discord half a multipart body,
# and aiohttp warns while it gives up on it: the fake's concern, not the bot's.
@pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
async def test_a_downforce_game_survives_sigkill_mid_race(world: World) -> None:
    channel = world.guild.add_text_channel("table-downforce")
    log = (world.db.parent / "bot.log").open("ab")
    process = start_bot(world, log)
    try:
        await wait_identified(world, 1)
        await world.fake.wait_for(lambda: "downforce start" in world.fake.command_names(), timeout=30)
        # dave never clicks: his bids, cards, end spaces and bets are all decided at their deadlines.
        options = {"pace": 0.0, "bots": 2, "players": 3, "track": "river-station", "betting": "odds"}
        ix = await world.fake.slash(world.users["dave"], channel, "downforce start", timeout=15, **options)
        await ix.wait_response(timeout=15)
        storage = await Storage.open(str(world.db), read_only=True)  # the bot holds the file
        try:
            rng = random.Random(20261201)
            identifies, kills, mid_race = 1, 0, 0
            while True:
                game = await storage.load_game(1)
                if game is not None and game.status == "finished":
                    break
                if kills >= KILLS:  # enough: let it finish in peace (bounded time on a busy machine)
                    await asyncio.sleep(0.5)
                    continue
                await asyncio.sleep(rng.uniform(0.5, 3.0))
                game = await storage.load_game(1)
                played = [a for a in (game.actions if game else []) if Action.from_json(a).kind == "play"]
                if game is not None and game.status != "finished" and played:
                    mid_race += 1
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=10)
                kills += 1
                process = start_bot(world, log)
                identifies += 1
                await wait_identified(world, identifies)
            print(f"{kills} restarts after SIGKILL, {mid_race} of them mid-race")
            assert mid_race >= 1, "no kill came during the race"
            results = await storage.game_results(game.id)
            seats = [Seat.from_json(s) for s in game.seats]
            assert [r.seat for r in results] == list(range(len(seats)))  # stored once per seat
            expected = uninterrupted(entry("downforce"), game.seed, seats, game.settings)
            assert [r.cash for r in results] == expected
            # The results are stored before the final scores are posted (with the replay, which takes
            # a few seconds to encode): wait for them as a player would.
            await world.fake.wait_for(
                lambda: any("Final scores" in m.text for m in world.fake.channel_messages(channel)),
                timeout=60,
            )
            channel_text = "\n".join(m.text for m in world.fake.channel_messages(channel))
            assert "carries on from where it stopped" in channel_text
            assert "Final scores" in channel_text
        finally:
            await storage.close()
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        log.close()
