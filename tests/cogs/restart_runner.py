"""The real bot in a process of its own, with fast timings, for the kill-and-restart test.

Run as ``python -m tests.cogs.restart_runner`` with DISCORD_TOKEN, DATABASE_URL, DISCORD_API_BASE
and DISCORD_GATEWAY_URL pointing at a FakeDiscord.
"""

from __future__ import annotations

import logging
import sys

from bot.client import make_bot
from bot.config import Settings
from bot.discord_endpoints import use_endpoints
from tests.cogs.timings import RESTART


def main() -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    settings = Settings.from_env(env_file=None)
    use_endpoints(settings.api_base, settings.gateway_url)
    bot = make_bot(settings, timing=RESTART)
    bot._connection.guild_ready_timeout = 0.05  # the fake sends every guild at once
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
