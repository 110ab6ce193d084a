"""Start the bot: read settings, point discord.py at its endpoints, run until stopped."""

from __future__ import annotations

import logging
import sys

from bot.config import ConfigError, Settings


def run() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    from bot.client import RaceBot
    from bot.discord_endpoints import use_endpoints

    use_endpoints(settings.api_base, settings.gateway_url)
    RaceBot(settings).run(settings.token, log_handler=None)
    return 0
