"""Start the bot: read settings, check the database, point discord.py at its endpoints, run until stopped
(``bot.shutdown``: SIGTERM and SIGINT stop it cleanly, exit code 0).

Whatever stops the bot before it is running (a setting, the database, the token) ends the process
with one ``error: ...`` line and a non-zero code, never a traceback: the person reading it is
setting the bot up, not debugging it.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from urllib.parse import quote

from bot.config import ConfigError, Settings

BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN (401 Unauthorized). Copy the token again from the Bot tab of your "
    "application at https://discord.com/developers/applications ('Reset Token' makes a new one)."
)


def run() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from bot import logs

    database_password = logs.password_of(settings.database_url)
    logs.setup(
        settings.log_level,
        settings.log_format,
        secrets=(settings.token, database_password, quote(database_password or "")),
        shard_count=settings.shard_count,
    )
    import aiohttp
    import discord

    from bot import collector, workers
    from bot.client import make_bot
    from bot.discord_endpoints import use_endpoints
    from bot.shutdown import serve
    from bot.storage import StorageError

    collector.tune_malloc()  # before any thread starts (bot.collector)
    quiet_voice_warnings()
    # Until the bot runs and takes over both signals (bot.shutdown), SIGTERM ends start-up like Ctrl-C.
    signal.signal(signal.SIGTERM, _interrupt)

    try:
        # Before logging in: RaceBot opens the storage in setup_hook, which discord.py runs only after
        # a successful login, so a corrupt or locked database would otherwise surface late and as a
        # traceback (or not at all, hidden behind a network error).
        asyncio.run(check_storage(settings.database_url))
        use_endpoints(settings.api_base, settings.gateway_url)
        workers.start(workers.processes_for(settings.work_processes))  # pictures and odds (bot.workers)
        collector.tune()  # everything is imported: the collector need not walk it again (bot.collector)
        collector.keep_trimmed()  # freed memory back to the system (bot.collector)
        bot = make_bot(settings)
        asyncio.run(serve(bot, settings.token))
    except KeyboardInterrupt:  # Ctrl-C before the bot was running: nothing to clean up
        return 0
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(f"error: {BAD_TOKEN}", file=sys.stderr)
        return 1
    except aiohttp.ClientConnectorError as error:
        # Logging in is not retried by discord.py (reconnecting later is): say where it tried.
        print(f"error: Could not reach Discord at {discord.http.Route.BASE}: {error}", file=sys.stderr)
        return 1
    finally:
        workers.stop()
    return bot.exit_code  # 3 when bot.health stopped an unhealthy process


async def check_storage(url: str | None) -> None:
    """Open (creating and migrating if needed) and close the database; raises StorageError if it can't."""
    from bot.storage import Storage

    storage = await Storage.open(url)
    await storage.close()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def quiet_voice_warnings() -> None:
    """discord.py warns at start that the voice libraries (PyNaCl, davey) are missing; the bot uses no voice."""
    import discord

    # The flags discord.py itself clears after warning once; davey's exists from discord.py 2.6 on.
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)
