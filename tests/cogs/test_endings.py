"""An ending is never lost or told twice (issue 26, points 4, 7 and 12).

* A game that ends while PostgreSQL is down keeps its table, closed and leased, until its results
  are saved: it is not resumed when the database comes back (no second "Final standings", no false
  "I restarted").
* A lobby closed while PostgreSQL is down stays closed when it comes back.
* A real bot process killed between storing a game's results and posting them: the next start posts
  the ending (the last race and the final standings), once.

The outages are real: the bot reaches the PostgreSQL server through a relay the test cuts (every
connection dropped, new ones refused), as a server that goes away or a network that fails does.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.client import make_bot
from bot.config import Settings
from bot.fakediscord import FakeChannel, FakeUser, running_bot
from bot.games.base import Action
from bot.games.catalog import Start, entry
from bot.storage import Storage
from bot.tables.seats import Seat, ai_seat
from tests.bot.storage.databases import Database
from tests.cogs.conftest import World
from tests.cogs.test_restart import ROOT, wait_identified
from tests.cogs.timings import FAST

# Leases of 0.6 s, renewed ten times a second: an outage of a second outlives them.
# Discord's pace scaled down five times more than FAST's (the fake checks it): a race is quicker.
QUICK = dataclasses.replace(
    FAST,
    turn_seconds=0.2,
    phase_seconds=0.2,
    lease_seconds=0.6,
    lease_renew_seconds=0.1,
    channel_window=0.05,
)
OUTAGE = 1.0
TICKS = 0.5  # five lease ticks: long enough for a resume to have begun


class Relay:
    """A TCP relay to the PostgreSQL server that can be cut and restored."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.url = url
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.down = False
        self.cuts = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> str:
        """Start relaying; the URL that reaches the server through the relay."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        parts = urlsplit(self.url)
        credentials = parts.netloc.rpartition("@")[0]
        netloc = f"{credentials}@127.0.0.1:{port}" if credentials else f"127.0.0.1:{port}"
        return urlunsplit(parts._replace(netloc=netloc))

    async def __aexit__(self, *exc_info: object) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        self.down = True
        self.cuts += 1
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    def restore(self) -> None:
        self.down = False

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        self._writers.update((writer, up_writer))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                if self.down:
                    break
                writer.write(data)
                await writer.drain()
        writer.transport.abort()
        self._writers.discard(writer)


def texts(fake: Any, channel: Any) -> list[str]:
    return [m.text for m in fake.channel_messages(channel)]


@pytest.mark.timeout(120)
async def test_a_game_that_ends_while_postgresql_is_down_is_told_once(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        relay = Relay(database.url)
        url = await stack.enter_async_context(relay)
        fake = await stack.enter_async_context(_fake())
        guild, channel, dave = _place(fake)
        await store_nearly_over(database.url, channel, dave)  # the bot resumes it; its last roll ends it
        original = Storage.finish_game

        async def down_as_it_ends(self: Storage, *args: Any, **kwargs: Any) -> bool:
            if relay.cuts == 0:  # the database goes away as the game ends, for longer than a lease
                relay.cut()
                asyncio.get_running_loop().call_later(OUTAGE, relay.restore)
            return await original(self, *args, **kwargs)

        monkeypatch.setattr(Storage, "finish_game", down_as_it_ends)
        bot = make_bot(Settings(token=fake.token, database_url=url, default_where="channel"), timing=QUICK)
        await stack.enter_async_context(running_bot(fake, bot))
        await fake.wait_for(
            lambda: any("are saved now" in t for t in texts(fake, channel)), timeout=60, what="saved now"
        )
        await asyncio.sleep(TICKS)
        said = texts(fake, channel)
        assert any("I couldn't save the results" in t for t in said)
        assert sum("I restarted" in t for t in said) == 1, said  # the start's own, not another
        assert sum("Final standings" in t for t in said) == 1, said
        assert [r[0] for r in await database.fetch("SELECT status FROM games")] == ["finished"]
        assert not bot.tables.by_id  # let go once saved


@pytest.mark.timeout(120)
async def test_a_lobby_closed_while_postgresql_is_down_stays_closed(database: Database) -> None:
    async with contextlib.AsyncExitStack() as stack:
        relay = Relay(database.url)
        url = await stack.enter_async_context(relay)
        fake = await stack.enter_async_context(_fake())
        guild, channel, dave = _place(fake)
        bot = make_bot(
            Settings(token=fake.token, database_url=url, default_where="channel"),
            timing=dataclasses.replace(QUICK, lobby_seconds=0.5),
        )
        await stack.enter_async_context(running_bot(fake, bot))
        start = await fake.slash(dave, channel, "horserace start", players=3)
        lobby = await start.reply()
        relay.cut()
        await fake.wait_for(lambda: any("lobby closed" in t for t in texts(fake, channel)), timeout=10)
        await asyncio.sleep(OUTAGE)  # past its lease
        relay.restore()

        async def stored_closed() -> bool:
            rows = await database.fetch("SELECT status FROM games")
            return [r[0] for r in rows] == ["cancelled"]

        for _ in range(100):
            if await stored_closed():
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(TICKS)
        said = texts(fake, channel)
        assert not any("here is the lobby again" in t for t in said), said
        assert await stored_closed()
        assert not lobby.buttons  # nothing left to start it with
        assert not any("game has started" in t.lower() for t in texts(fake, channel))
        assert not await database.fetch("SELECT 1 FROM actions")


@pytest.mark.timeout(120)
async def test_an_ending_stored_but_not_posted_is_posted_after_sigkill(
    world: World, database: Database
) -> None:
    # Its last roll left: the first step of the process, which dies as soon as it has stored the results.
    await store_nearly_over(database.url, world.channel, world.users["dave"])
    log = (world.db.parent / "bot.log").open("ab")
    process = start_dying_bot(world, database.url, log)
    try:
        await wait_identified(world, 1)
        assert await asyncio.to_thread(process.wait, 60) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
        log.close()
    [(status,)] = await database.fetch("SELECT status FROM games")
    assert status == "finished"
    assert not any("Final standings" in t for t in texts(world.fake, world.channel))
    # The next start comes within the killed process's lease (as a supervisor restarts it): the ending
    # is posted once that lease runs out. The kill was a real process's; the restart is in this one.
    await database.execute("UPDATE leases SET expires_at = ?", time.time() + 600)
    settings = Settings(token=world.fake.token, database_url=database.url, default_where="channel")
    timing = dataclasses.replace(QUICK, channel_window=FAST.channel_window)  # the world's fake's pace
    async with running_bot(world.fake, make_bot(settings, timing=timing)) as bot:
        await asyncio.wait_for(bot.tables.resumed.wait(), 30)
        await asyncio.sleep(TICKS)
        assert not any("Final standings" in t for t in texts(world.fake, world.channel))
        await database.execute("UPDATE leases SET expires_at = ?", time.time() - 1)  # it runs out
        await world.fake.wait_for(
            lambda: any("Final standings" in t for t in texts(world.fake, world.channel)), timeout=30
        )
        await world.fake.wait_for(lambda: not bot.tables.by_id, timeout=10, what="the ending noted as told")
        assert await bot.storage.unannounced_games() == []  # the next start tells nothing again
        assert len(await bot.storage.game_results(1)) == 3  # settled once
        await asyncio.sleep(TICKS)
    said = texts(world.fake, world.channel)
    assert sum("Final standings" in t for t in said) == 1, said


async def store_nearly_over(url: str, channel: FakeChannel, dave: FakeUser) -> None:
    """A Horse Race game of one race, stored with every roll but the last (dave and two AI seats): a
    bot that starts resumes it, and its first step ends it."""
    game = entry("horserace")
    seed = 20261203
    seats = [Seat(name=dave.name, user_id=dave.id)]
    seats += [ai_seat(seats), ai_seat([*seats, ai_seat(seats)])]
    settings: dict[str, Any] = {"players": 3, "pace": 0.0, "races": 1, "rolls": "auto", "host_id": dave.id}
    settings["engine"] = game.engine_settings(Start(3, seed, time.time(), dict(settings), {}))
    engine = game.new_engine(3, seed, game.stored_engine_settings(settings))
    actions: list[Action] = []
    while not engine.is_over:
        decision = engine.pending()[0]
        rng = random.Random(len(actions))
        choice = (
            decision.options[0]
            if decision.player is None
            else game.choose(engine.view(decision.player), decision, "normal", rng)
        )
        actions.append(Action(decision.player, decision.kind, choice))
        engine.apply(actions[-1])
    async with await Storage.open(url) as storage:
        game_id = await storage.create_game(
            "horserace", channel.guild.id, channel.id, seed, settings, [s.to_json() for s in seats]
        )
        for seq, action in enumerate(actions[:-1]):
            await storage.append_action(game_id, seq, action.to_json())


def start_dying_bot(world: World, url: str, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """The real bot in a process of its own (``restart_runner``), set to die right after it stores a
    game's results."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": world.fake.token,
        "DEFAULT_WHERE": "channel",
        "DATABASE_URL": url,
        "DISCORD_API_BASE": world.fake.api_base,
        "DISCORD_GATEWAY_URL": world.fake.gateway_url,
        "KILL_AFTER_SETTLING": "1",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cogs.restart_runner"], cwd=ROOT, env=env, stderr=log
    )


async def test_a_lobby_whose_time_ran_out_while_no_process_drove_it_is_not_shown_again(world: World) -> None:
    """As when a process stopped before it could store a lobby's close (the database down as it
    expired): the next start closes it rather than posting it with live buttons."""
    async with await Storage.open(str(world.db)) as storage:
        settings = {"players": 3, "pace": 0.0, "host_id": world.users["alice"].id}
        seats = [{"user_id": world.users["alice"].id, "name": "alice", "ai": None}]
        await storage.create_game(
            "hotstreak",
            world.guild.id,
            world.channel.id,
            7,
            settings,
            seats,
            status="lobby",
            meta={"lobby_closes": 1.0},
        )
    async with running_bot(world.fake, world.bot()) as bot:
        await world.fake.wait_for(
            lambda: any("lobby closed" in t for t in texts(world.fake, world.channel)), timeout=10
        )
        assert not any("here is the lobby again" in t for t in texts(world.fake, world.channel))
        assert not any(m.buttons for m in world.fake.channel_messages(world.channel))
        game = await bot.storage.load_game(1)
        assert game is not None and game.status == "cancelled"


@contextlib.asynccontextmanager
async def _fake() -> AsyncIterator[Any]:
    from bot.fakediscord import FakeDiscord

    async with FakeDiscord(rate_limit=(QUICK.channel_burst, QUICK.channel_window)) as fake:
        yield fake


def _place(fake: Any) -> tuple[Any, Any, Any]:
    from bot.client import PERMISSIONS

    guild = fake.add_guild("Server", bot_permissions=PERMISSIONS.value)
    return guild, guild.add_text_channel("games"), fake.add_user("dave", guild=guild)
