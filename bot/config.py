"""Settings from the environment (or a ``.env`` file beside the bot); the token never comes from anywhere else."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot import rate_limit
from bot.storage.location import database_location

TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, "
    "open its Bot tab, press 'Reset Token', and put the token in the environment or in a .env file "
    "(see .env.example)."
)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Games (lobbies included) one bot process runs at once, unless MAX_GAMES_AT_ONCE says otherwise: the
#: most docs/scaling.md measured one 2-core process carrying with every latency target met (500).
DEFAULT_MAX_GAMES_AT_ONCE = 500


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
    shard_count: int | None = None  # None: one unsharded session, as before
    shard_ids: tuple[int, ...] | None = None  # None with a shard_count: every shard in this process
    # Where games play in a server that has not chosen with `/config set where` (DEFAULT_WHERE).
    default_where: str = "thread"
    # Worker processes for pictures and odds (WORK_PROCESSES; bot.workers): None for one fewer than
    # the cores (at least one), 0 for threads in the bot's own process.
    work_processes: int | None = None
    # Where PRIVACY.md and TERMS.md are published (DOCS_URL, e.g. the repository's web address):
    # /privacy links them there; None: /privacy names the files without a link.
    docs_url: str | None = None
    # /healthz and /metrics (bot.health): off unless METRICS_PORT is set; 0 picks a free port (tests).
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    log_format: str = "text"  # LOG_FORMAT: text, or json (one object per line; bot.logs)
    # Seconds a call may run in a worker before the worker is replaced (bot.workers): WORKER_TIMEOUT for
    # pictures, odds and replays, AI_TIMEOUT for an AI decision (then the easy AI decides in-process).
    worker_timeout: float = 30.0
    ai_timeout: float = 5.0
    # Actions (commands, clicks) a person may take in a window of seconds (USER_RATE_LIMIT, e.g. 8/5;
    # bot.rate_limit); None: no limit.
    user_rate_limit: tuple[int, float] | None = (8, 5.0)
    # MAX_GAMES_AT_ONCE: the most games (lobbies included) this process runs at once, whatever the
    # servers allow each (`/config`'s max_games); a start beyond it is refused. None: no cap.
    max_games_at_once: int | None = DEFAULT_MAX_GAMES_AT_ONCE

    @property
    def own_shards(self) -> tuple[int, ...]:
        """The shards this process runs (shard 0 of 1 when unsharded)."""
        if self.shard_ids is not None:
            return self.shard_ids
        return tuple(range(self.shard_count or 1))

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
        limit = os.environ.get("DISCORD_GLOBAL_LIMIT", "").strip().lower()
        if limit and limit not in ("0", "none", "off") and not _positive_number(limit):
            raise ConfigError(
                f"DISCORD_GLOBAL_LIMIT must be requests per second (e.g. 50) or none, not {limit!r}."
            )
        workers = os.environ.get("WORK_PROCESSES", "").strip().lower()
        if workers not in ("", "auto") and not (
            workers.isascii() and workers.isdigit() and int(workers) <= 64
        ):
            raise ConfigError(
                f"WORK_PROCESSES must be a number of processes (0 to 64) or auto, not {workers!r}."
            )
        port = os.environ.get("METRICS_PORT", "").strip()
        if port and not (port.isascii() and port.isdigit() and int(port) <= 65535):
            raise ConfigError(f"METRICS_PORT must be a port number (1 to 65535), not {port!r}.")
        worker_timeout = seconds_setting("WORKER_TIMEOUT", os.environ.get("WORKER_TIMEOUT", ""), 30.0)
        ai_timeout = seconds_setting("AI_TIMEOUT", os.environ.get("AI_TIMEOUT", ""), 5.0)
        limit_text = os.environ.get("USER_RATE_LIMIT", "").strip()
        try:
            user_rate_limit = rate_limit.parse(limit_text) if limit_text else (8, 5.0)
        except ValueError:
            raise ConfigError(
                f"USER_RATE_LIMIT must be actions/seconds (e.g. 8/5) or off, not {limit_text!r}."
            ) from None
        log_format = os.environ.get("LOG_FORMAT", "text").strip().lower() or "text"
        if log_format not in ("text", "json"):
            raise ConfigError(f"LOG_FORMAT must be text or json, not {log_format!r}.")
        max_running = os.environ.get("MAX_GAMES_AT_ONCE", "").strip().lower()
        if (
            max_running
            and max_running not in ("none", "off")
            and not (max_running.isascii() and max_running.isdigit() and int(max_running) > 0)
        ):
            raise ConfigError(
                f"MAX_GAMES_AT_ONCE must be a number of games (e.g. 500) or none, not {max_running!r}."
            )
        database_url = os.environ.get("DATABASE_URL") or None
        try:
            # Checked here so a wrong URL stops the bot before it connects, not inside setup_hook.
            database_location(database_url)
        except ValueError as error:
            raise ConfigError(str(error)) from None
        shard_count, shard_ids = shard_settings(
            os.environ.get("SHARD_COUNT", "").strip(), os.environ.get("SHARD_IDS", "").strip()
        )
        return cls(
            token=token,
            database_url=database_url,
            api_base=os.environ.get("DISCORD_API_BASE") or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            shard_count=shard_count,
            shard_ids=shard_ids,
            default_where=where,
            work_processes=None if workers in ("", "auto") else int(workers),
            docs_url=docs_url(os.environ.get("DOCS_URL", "")),
            metrics_port=int(port) if port else None,
            metrics_host=os.environ.get("METRICS_HOST", "").strip() or "127.0.0.1",
            log_format=log_format,
            worker_timeout=worker_timeout,
            ai_timeout=ai_timeout,
            user_rate_limit=user_rate_limit,
            max_games_at_once=(
                None
                if max_running in ("none", "off")
                else int(max_running)
                if max_running
                else DEFAULT_MAX_GAMES_AT_ONCE
            ),
        )


def shard_settings(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` checked together: ids only make sense within a count."""
    if not count_text:
        if ids_text:
            raise ConfigError(
                f"SHARD_IDS is set ({ids_text!r}) but SHARD_COUNT is not; set both (e.g. 2 and 0,1)."
            )
        return None, None
    if not (count_text.isascii() and count_text.isdigit() and 0 < int(count_text) <= 4096):
        raise ConfigError(f"SHARD_COUNT must be a whole number from 1 to 4096, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise ConfigError(
            f"SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not {ids_text!r}."
        )
    ids = [int(part) for part in parts]
    if any(i >= count for i in ids):
        raise ConfigError(
            f"SHARD_IDS {ids_text!r} names a shard outside SHARD_COUNT={count} (shards are 0 to {count - 1})."
        )
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS {ids_text!r} names a shard twice.")
    return count, tuple(sorted(ids))


def seconds_setting(name: str, text: str, default: float) -> float:
    """A positive number of seconds, from ``text`` (the setting ``name``); ``default`` when unset."""
    text = text.strip()
    if not text:
        return default
    if not _positive_number(text):
        raise ConfigError(f"{name} must be a number of seconds above 0 (e.g. {default:g}), not {text!r}.")
    return float(text)


def _positive_number(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return value > 0 and value != float("inf")


def docs_url(value: str) -> str | None:
    """DOCS_URL without its trailing slash; None when unset. Only http(s) addresses: Discord links nothing else."""
    value = value.strip().rstrip("/")
    if not value:
        return None
    if not value.startswith(("https://", "http://")):
        raise ConfigError(f"DOCS_URL must start with https:// (or http://), not {value!r}.")
    return value
