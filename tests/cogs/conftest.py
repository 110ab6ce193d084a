"""The real bot (RaceBot) on a fake Discord, with a real SQLite file and fast timings."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.client import EXTENSIONS, PERMISSIONS, RaceBot
from bot.config import Settings
from bot.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    running_bot,
    text_of,
)
from bot.tables.timing import Timing
from tests.bot.storage.databases import Database, postgres_database, postgres_server
from tests.cogs.timings import FAST


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    db: Path
    users: dict[str, FakeUser] = field(default_factory=dict)
    where: str = "channel"

    def bot(self, timing: Timing = FAST, extensions: tuple[str, ...] = EXTENSIONS) -> RaceBot:
        # These tests read a game in its channel, as on a bot started with DEFAULT_WHERE=channel; the
        # thread tests (test_threads.py) use the bot's own default, a thread per game.
        settings = Settings(token=self.fake.token, database_url=str(self.db), default_where=self.where)
        return RaceBot(settings, timing=timing, extensions=extensions)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        # The bot gets exactly what its invite asks for, so every test proves that is enough.
        guild = fake.add_guild("Test Server", bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        users = {
            "alice": fake.add_user("alice", guild=guild),
            "bob": fake.add_user("bob", guild=guild),
            "carol": fake.add_user("carol", guild=guild, dms_open=False),
            "dave": fake.add_user("dave", guild=guild),
            "mod": fake.add_user("mod", guild=guild, manage_guild=True),
        }
        yield World(fake, guild, channel, tmp_path / "bot.db", users)
        assert fake.unknown_routes == []
        assert fake.rate_limit_violations == []


@pytest.fixture
async def bot(world: World) -> AsyncIterator[RaceBot]:
    async with running_bot(world.fake, world.bot()) as running:
        yield running


async def private_answer(fake: FakeDiscord, ix: FakeInteraction) -> str:
    """What the bot told only this user about their click or command (an ephemeral reply or followup)."""
    await fake.wait_for(
        lambda: any(m.ephemeral for m in ix.messages), timeout=5.0, what="an ephemeral answer"
    )
    return text_of([m for m in ix.messages if m.ephemeral])


async def until_quiet(message: FakeMessage, quiet: float = 2.0) -> None:
    """Until ``message`` has gone ``quiet`` seconds without an edit. A prompt or board is posted first as
    text (with its ping) and edited once its picture is drawn off the event loop, which on a busy machine
    may come a second or more later; a test comparing the message before and after a click reads it
    once it stays as it is (nothing else moves it meanwhile: the click is what is under test)."""
    for _ in range(60):
        edits = len(message.edits)
        await asyncio.sleep(quiet)
        if len(message.edits) == edits:
            return
    raise AssertionError("the message never stopped changing")


async def join(fake: FakeDiscord, lobby: FakeMessage, user: FakeUser) -> None:
    """``user`` presses Join and, like a person, waits to see their name in the lobby."""
    await (await fake.click_button(user, lobby, "Join")).wait_response()
    await fake.wait_for(lambda: user.mention in lobby.text, timeout=5, what=f"{user.name} in the lobby")


# PostgreSQL, for the tests of several processes and of the database's faults: a server per test module
# (started here, or TEST_POSTGRES_URL's), and a fresh database per test. They skip without PostgreSQL,
# except under CI=true, where they refuse to.
@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    yield from postgres_server()


@pytest.fixture
async def database(postgres_url: str) -> AsyncIterator[Database]:
    async for database in postgres_database(postgres_url):
        yield database
