"""After a crash, on PostgreSQL: the crashed process's running game, whose lease has not run out yet, is
in no process's memory; the database still keeps it the channel's one game and its players' one table,
and people hear the same refusals as when a game is in memory."""

from __future__ import annotations

import pytest

from bot.client import PERMISSIONS, make_bot
from bot.config import Settings
from bot.fakediscord import FakeDiscord, running_bot
from bot.storage import Storage
from tests.bot.storage.databases import Database
from tests.cogs.conftest import private_answer
from tests.cogs.timings import FAST


@pytest.mark.timeout(60)
async def test_a_crashed_process_s_game_still_holds_its_channel_and_its_players(database: Database) -> None:
    async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guild = fake.add_guild("Server", bot_permissions=PERMISSIONS.value)
        channel, elsewhere, third = (guild.add_text_channel(name) for name in ("games", "more", "third"))
        alice, bob = fake.add_user("alice", guild=guild), fake.add_user("bob", guild=guild)
        # The process that crashed: its game runs in #games with alice seated, its lease still live.
        dead = await Storage.open(database.url)
        try:
            dead.hold_leases_as("crashed-process", 3600)
            seats = [
                {"user_id": alice.id, "name": "alice", "ai": None},
                {"user_id": None, "name": "AI", "ai": "easy"},
            ]
            game_id = await dead.create_game(
                "hotstreak", guild.id, channel.id, 7, {"host_id": alice.id}, seats
            )
        finally:
            await dead.close()
        settings = Settings(token=fake.token, database_url=database.url, default_where="channel")
        bot = make_bot(settings, timing=FAST)
        async with running_bot(fake, bot):
            assert not bot.tables.by_id  # not resumed: another process's lease
            again = await fake.slash(bob, channel, "hotstreak start", pace=0.0)
            answer = await private_answer(fake, again)
            assert answer == f"Hot Streak is already being played here (game #{game_id})."
            assert fake.channel_messages(channel) == []  # no second lobby

            lobby = await (await fake.slash(bob, elsewhere, "hotstreak start", pace=0.0)).reply()
            join = await fake.click_button(alice, lobby, "Join")
            answer = await private_answer(fake, join)
            assert answer == f"You're already playing in {channel.mention}; one game at a time."
            stored = await database.fetch("SELECT seats FROM games WHERE channel_id = ?", elsewhere.id)
            assert alice.mention not in lobby.text and str(alice.id) not in stored[0][0]

            start = await fake.slash(alice, third, "hotstreak start", pace=0.0)
            answer = await private_answer(fake, start)
            assert answer == f"You're already playing in {channel.mention}; finish or leave that game first."
            assert fake.channel_messages(third) == []
            count = await database.fetch("SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')")
            assert count == [(2,)]
