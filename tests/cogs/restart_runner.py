"""The real bot in a process of its own, with fast timings, for the kill-and-restart test.

Run as ``python -m tests.cogs.restart_runner`` with DISCORD_TOKEN, DATABASE_URL, DISCORD_API_BASE
and DISCORD_GATEWAY_URL pointing at a FakeDiscord (and SHARD_COUNT / SHARD_IDS for the shards test,
with ``TEST_TIMING=shards``; ``SEASON_NOW`` and ``KILL_AFTER_CLAIM`` for the seasons' test).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from typing import Any

from bot.client import make_bot
from bot.config import Settings
from bot.discord_endpoints import use_endpoints
from tests.cogs.timings import RESTART, SHARDS


def die_after_settling() -> None:
    """``KILL_AFTER_SETTLING=1``: the process kills itself (SIGKILL) the moment a table has stored a
    game's results and before it posts them: the window test_endings.py needs, hit every time."""
    from bot.storage import Storage

    original = Storage.finish_game

    async def finish_then_die(self: Storage, *args: Any, **kwargs: Any) -> bool:
        stored = await original(self, *args, **kwargs)
        if stored and not kwargs.get("announced", False):
            os.kill(os.getpid(), signal.SIGKILL)
        return stored

    Storage.finish_game = finish_then_die  # type: ignore[method-assign]


def die_after_claiming() -> None:
    """``KILL_AFTER_CLAIM=1``: the process kills itself (SIGKILL) the moment it has claimed a season's
    recap and before it posts it: the crash a recap must survive (tests/cogs/test_seasons.py)."""
    from bot.storage import Storage

    original = Storage.claim_recap

    async def claim_then_die(self: Storage, *args: Any, **kwargs: Any) -> bool:
        claimed = await original(self, *args, **kwargs)
        if claimed:
            os.kill(os.getpid(), signal.SIGKILL)
        return claimed

    Storage.claim_recap = claim_then_die  # type: ignore[method-assign]


def season_clock() -> None:
    """``SEASON_NOW``: the seasons' "now" (Unix seconds), checked every 0.2 s, a claim stale after
    ``SEASON_STALE`` seconds (tests/cogs/test_seasons.py)."""
    import bot.seasons

    now = float(os.environ["SEASON_NOW"])
    bot.seasons.now = lambda: now
    bot.seasons.CHECK_SECONDS = 0.2
    bot.seasons.STALE_CLAIM_SECONDS = float(os.environ.get("SEASON_STALE", "600"))


def main() -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if os.environ.get("KILL_AFTER_SETTLING"):
        die_after_settling()
    if os.environ.get("KILL_AFTER_CLAIM"):
        die_after_claiming()
    if os.environ.get("SEASON_NOW"):
        season_clock()
    settings = Settings.from_env(env_file=None)
    use_endpoints(settings.api_base, settings.gateway_url)
    timing = SHARDS if os.environ.get("TEST_TIMING") == "shards" else RESTART
    bot = make_bot(settings, timing=timing)
    bot._connection.guild_ready_timeout = 0.05  # the fake sends every guild at once
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
