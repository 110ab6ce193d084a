"""The kill-and-restart test (test_restart.py) again, with the bot on PostgreSQL instead of a SQLite file.

The same test body runs; only where the database is changes: the bot process gets a PostgreSQL
``DATABASE_URL`` (a schema of its own on the test server), and the test reads the games from it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import IO, Any

import pytest

from bot.storage import Storage
from tests.bot.storage.databases import Database
from tests.cogs import test_restart
from tests.cogs.conftest import World


@pytest.mark.timeout(300)  # dozens of bot restarts; slow on a busy machine, not a speed test
async def test_games_survive_sigkill_at_random_moments_on_postgresql(
    world: World, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    def start_bot(world: World, log: IO[bytes]) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DISCORD_TOKEN": world.fake.token,
            "DEFAULT_WHERE": "channel",  # the test reads the game in its channel
            "DATABASE_URL": database.url,
            "DISCORD_API_BASE": world.fake.api_base,
            "DISCORD_GATEWAY_URL": world.fake.gateway_url,
        }
        return subprocess.Popen(
            [sys.executable, "-m", "tests.cogs.restart_runner"], cwd=test_restart.ROOT, env=env, stderr=log
        )

    class OnPostgres:
        """``Storage`` as test_restart uses it, opening the PostgreSQL database whatever path it is given."""

        @staticmethod
        async def open(_url: str | None, **options: Any) -> Storage:
            return await Storage.open(database.url, **options)

    monkeypatch.setattr(test_restart, "start_bot", start_bot)
    monkeypatch.setattr(test_restart, "Storage", OnPostgres)
    await test_restart.test_games_survive_sigkill_at_random_moments(world)
    assert not world.db.exists()  # nothing went to a SQLite file
