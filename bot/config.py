"""Settings from the environment (or a ``.env`` file beside the bot); the token never comes from anywhere else."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.storage.location import database_location

TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
    "open its Bot tab, press 'Reset Token', and put the token in the environment or in a .env file "
    "(see .env.example)."
)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_url: str | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # Where games play in a server that has not chosen with `/config set where` (DEFAULT_WHERE).
    default_where: str = "thread"

    @classmethod
    def from_env(cls, env_file: Path | None = Path(".env")) -> Settings:
        if env_file is not None and env_file.exists():
            load_dotenv(env_file, override=False)
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(TOKEN_HELP)
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        # ASCII digits only ("²".isdigit() is True but int() refuses it), and never 0: a falsy id
        # would silently sync the commands globally instead of to the development server.
        if guild and not (guild.isascii() and guild.isdigit() and int(guild) > 0):
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        where = os.environ.get("DEFAULT_WHERE", "thread").strip().lower() or "thread"
        if where not in ("thread", "channel"):
            raise ConfigError(f"DEFAULT_WHERE must be thread or channel, not {where!r}.")
        database_url = os.environ.get("DATABASE_URL") or None
        try:
            # Checked here so a wrong URL stops the bot before it connects, not inside setup_hook.
            database_location(database_url)
        except ValueError as error:
            raise ConfigError(str(error)) from None
        return cls(
            token=token,
            database_url=database_url,
            api_base=os.environ.get("DISCORD_API_BASE") or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            default_where=where,
        )
