"""The bot stops cleanly on SIGTERM (``docker stop``) and SIGINT (Ctrl-C): no new games, the moves in
progress saved, closed within a few seconds with exit code 0, and every game carries on after a restart."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

import pytest

from bot import shutdown
from bot.client import PERMISSIONS, RaceBot
from bot.config import Settings
from bot.fakediscord import FakeChannel, FakeDiscord, running_bot, text_of
from bot.storage import Storage
from bot.tables.answers import RESTARTING
from tests.bot.test_cli import clean_env, stop_bot
from tests.cogs.conftest import private_answer
from tests.cogs.timings import FAST

# SIGTERM gives the bot GRACE_SECONDS for the moves in progress and CLOSE_SECONDS to close; docker stop
# kills after 10 s.
STOPPED_WITHIN = shutdown.GRACE_SECONDS + shutdown.CLOSE_SECONDS


async def start_bot_process(fake: FakeDiscord, cwd: Path, db: Path) -> asyncio.subprocess.Process:
    """``python -m bot`` exactly as deployed, pointed at the fake."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=clean_env(
            cwd,
            DISCORD_TOKEN=fake.token,
            DATABASE_URL=str(db),
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            LOG_LEVEL="INFO",
            DEFAULT_WHERE="channel",  # the test reads the game in its channel
        ),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def stored_actions(db: Path) -> tuple[str, int]:
    storage = await Storage.open(str(db), read_only=True)
    try:
        game = await storage.load_game(1)
        return ("none", 0) if game is None else (game.status, len(game.actions))
    finally:
        await storage.close()


async def until_stored(db: Path, actions: int) -> None:
    for _ in range(120):
        if (await stored_actions(db))[1] >= actions:
            return
        await asyncio.sleep(0.25)
    raise AssertionError(f"fewer than {actions} actions were stored in 30 s")


async def a_game_that_plays_itself(fake: FakeDiscord, channel: FakeChannel) -> None:
    """A Horse Race Game whose host leaves at once: the AI rolls for every seat, one roll a second or so."""
    host = fake.add_user("dave", guild=channel.guild)
    await fake.wait_for(lambda: "horserace start" in fake.command_names(), timeout=30, what="the commands")
    await fake.wait_ready(timeout=30)
    await asyncio.sleep(
        2.5
    )  # discord.py's wait for the guilds (2 s) before the bot is ready and resumes games
    start = await fake.slash(
        host, channel, "horserace start", timeout=15, races=5, players=3, bots=2, pace=0.0
    )
    await start.wait_response(timeout=15)
    await fake.wait_for(
        lambda: any("Race 1" in text_of(m) for m in channel.messages), timeout=15, what="the first race"
    )
    leave = await fake.slash(host, channel, "horserace leave", timeout=15)
    await leave.wait_response(timeout=15)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_stops_the_bot_mid_game_within_seconds_and_the_game_carries_on_after(
    tmp_path: Path, signum: signal.Signals
) -> None:
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test Server", bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        process = await start_bot_process(fake, tmp_path, db)
        try:
            await a_game_that_plays_itself(fake, channel)
            await until_stored(db, 4)  # rolls under way
            asked = time.monotonic()
            err = await stop_bot(process, signum)
            took = time.monotonic() - asked
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        log = err.decode()
        assert process.returncode == 0, log
        assert took < STOPPED_WITHIN, f"took {took:.1f} s"
        assert "Traceback" not in log and "WARNING" not in log, log  # no voice-library warnings either
        assert f"Stopping ({signum.name}): no new games" in log and "Stopped" in log
        status, played = await stored_actions(db)
        assert status == "running" and played > 0  # stopped, not ended: the game waits for the bot

        # Started again, the bot resumes the game from its stored log and plays on.
        again = await start_bot_process(fake, tmp_path, db)
        try:
            await fake.wait_for(
                lambda: any("carries on from where it stopped" in text_of(m) for m in channel.messages),
                timeout=30,
                what="the game to resume",
            )
            await until_stored(db, played + 1)  # and plays on
        finally:
            await stop_bot(again, signal.SIGTERM)
        assert again.returncode == 0


async def test_while_stopping_a_new_game_is_refused_with_a_short_answer(tmp_path: Path) -> None:
    async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guild = fake.add_guild("Test Server", bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        alice = fake.add_user("alice", guild=guild)
        bot = RaceBot(Settings(token=fake.token, database_url=str(tmp_path / "bot.db")), timing=FAST)
        async with running_bot(fake, bot):
            bot.stopping = True
            ix = await fake.slash(alice, channel, "hotstreak start")
            assert await private_answer(fake, ix) == RESTARTING
            assert fake.channel_messages(channel) == []  # no lobby
            assert await bot.storage.unfinished_games() == []  # nothing stored


async def test_a_start_waiting_for_its_seat_when_the_stop_begins_is_refused_privately(tmp_path: Path) -> None:
    """The start is acknowledged first (publicly: a lobby would fill that answer); the refusal found
    after it replaces the public placeholder with a private answer, and nothing is opened."""
    async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guild = fake.add_guild("Test Server", bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        alice = fake.add_user("alice", guild=guild)
        bot = RaceBot(Settings(token=fake.token, database_url=str(tmp_path / "bot.db")), timing=FAST)
        async with running_bot(fake, bot):
            async with bot.tables.seating(guild.id):  # another start in this server holds the seating
                ix = await fake.slash(alice, channel, "hotstreak start", wait=False)
                await fake.wait_for(lambda: ix.callbacks, what="the start acknowledged")
                bot.stopping = True  # the stop begins while this start waits
            assert await private_answer(fake, ix) == RESTARTING
            assert all(m.ephemeral for m in ix.messages)  # the public placeholder is gone
            assert fake.channel_messages(channel) == []  # no lobby
            assert await bot.storage.unfinished_games() == []  # nothing stored


async def test_the_stop_waits_for_the_move_in_progress_then_closes(tmp_path: Path) -> None:
    """A table's step holds its lock; the stop takes the lock after it, so the step ends whole."""
    async with FakeDiscord() as fake:
        bot = RaceBot(Settings(token=fake.token, database_url=str(tmp_path / "bot.db")), timing=FAST)
        async with running_bot(fake, bot):
            lock = asyncio.Lock()
            bot.tables.by_id[99] = TableInAStep(lock)  # type: ignore[assignment]
            finished: list[float] = []

            async def step() -> None:
                async with lock:
                    await asyncio.sleep(0.3)
                    finished.append(time.monotonic())

            running = asyncio.create_task(step())
            await asyncio.sleep(0)  # the step has the lock
            await shutdown.stop(bot)
            assert finished, "the stop did not wait for the step in progress"
            assert running.done() and not running.cancelled()
            assert bot.is_closed() and bot.stopping


async def test_a_second_signal_stops_at_once_without_waiting_for_moves(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        bot = RaceBot(Settings(token=fake.token, database_url=str(tmp_path / "bot.db")), timing=FAST)
        async with running_bot(fake, bot):
            stuck = asyncio.Lock()
            await stuck.acquire()  # a step that would never end
            bot.tables.by_id[99] = TableInAStep(stuck)  # type: ignore[assignment]
            request = shutdown.StopRequest()
            request(signal.SIGTERM)
            request(signal.SIGTERM)
            began = time.monotonic()
            await shutdown.stop(bot, request)
            assert time.monotonic() - began < 1.0 and bot.is_closed()


class TableInAStep:
    """Stands for a table whose step holds its lock (what the stop waits for)."""

    def __init__(self, lock: asyncio.Lock) -> None:
        self.lock = lock

    async def stop(self) -> None:
        return None
