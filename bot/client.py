"""The bot: opens storage, loads each catalogued game's cog, syncs slash commands, resumes stored games."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import emojis, metrics, workers
from bot.config import Settings
from bot.discord_io import permissions
from bot.discord_io.global_pacer import GlobalPacer, guild_finder, install, limit_from_env
from bot.discord_io.outbox import PictureOutbox
from bot.discord_io.pacer import ChannelPacer
from bot.games.catalog import ENTRIES
from bot.health import MetricsServer
from bot.i18n.commands import CommandTranslator
from bot.languages import Languages
from bot.rate_limit import ALLOWED, REFUSED, TOO_FAST, RateLimit
from bot.storage import Storage
from bot.tables.answers import reply
from bot.tables.components import Component
from bot.tables.lease import LeaseKeeper
from bot.tables.registry import Tables
from bot.tables.routing import Router
from bot.tables.timing import Timing

log = logging.getLogger(__name__)

# Each catalogued game's command group, then the commands every game shares.
EXTENSIONS = (*(entry.cog for entry in ENTRIES), "cogs.stats", "cogs.config", "cogs.about", "cogs.seasons")

# What the invite asks for, and nothing more: one list (bot.discord_io.permissions), which the start
# check, the README and the operators' docs read too.
PERMISSIONS = permissions.PERMISSIONS


# Nobody is pinged unless a message names whom it means to ping (``Outgoing.ping``): never
# @everyone, @here or a role, whatever a player's display name says.
QUIET = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)


class RaceTree(app_commands.CommandTree["RaceBot"]):
    async def interaction_check(self, interaction: discord.Interaction[RaceBot]) -> bool:
        """Every command is answered in the language of the member who used it."""
        interaction.client.languages.hear(interaction)
        return True


class RaceBot(commands.Bot):
    storage: Storage

    def __init__(
        self, settings: Settings, *, timing: Timing | None = None, extensions: tuple[str, ...] = EXTENSIONS
    ) -> None:
        # Guilds only: channels and permissions. No privileged intents, no message content.
        intents = discord.Intents.none()
        intents.guilds = True
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:  # ShardedRaceBot: these shards in this process
            shards = {"shard_count": settings.shard_count, "shard_ids": list(settings.own_shards)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=QUIET,
            tree_cls=RaceTree,
            http_trace=metrics.http_trace(),  # every REST request counted (bot.metrics)
            **shards,
        )
        self.settings = settings
        workers.time_limits(settings.worker_timeout, settings.ai_timeout)  # every worker call's limit
        self.timing = timing or Timing()
        self.pacer = ChannelPacer(self.timing.channel_burst, self.timing.channel_window)
        self.requests = GlobalPacer(limit_from_env())  # Discord's global limit, kept by the bot itself
        install(self.http, self.requests, guild_finder(self))  # servers take turns (issue 26, point 10)
        self.outbox = PictureOutbox(self.requests, self.pacer)
        self.languages = Languages(self)  # who reads which language (bot.i18n)
        self.tables = Tables(self)
        self.leases = LeaseKeeper(
            self,
            self.tables.directory,
            settings.own_shards,
            settings.shard_count or 1,
            self.tables.resume_all,
        )
        self.router = Router(self, self.tables.directory)
        self.leases.after_tick = self.router.drain
        self._extensions = extensions
        self._resumed = False
        self.stopping = False  # set by bot.shutdown on SIGTERM/SIGINT: no new games from then on
        self.exit_code = 0  # bot.health sets 3 when it stops an unhealthy process
        self.metrics_server: MetricsServer | None = None
        limit = settings.user_rate_limit
        self.rate_limit = (
            RateLimit(limit[0], self.timing.user_window or limit[1]) if limit is not None else None
        )
        self._answering: set[asyncio.Task[None]] = set()
        self.gate_interactions()

    def gate_interactions(self) -> None:
        """The per-user rate limit (``bot.rate_limit``), checked where every interaction passes once:
        the gateway's ``INTERACTION_CREATE`` parser, before discord.py hands it to the command tree or
        to a component's handler. (discord.py offers no public hook before both: the tree's
        ``interaction_check`` sees only commands, an item's only its own clicks.)"""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def gate(data: Any) -> None:
            if self.rate_limit is not None and data.get("type") in (2, 3, 5):  # not autocomplete (4)
                user = (data.get("member") or {}).get("user") or data.get("user") or {}
                verdict = self.rate_limit.check(int(user.get("id", 0)))
                if verdict != ALLOWED:
                    if verdict == REFUSED:  # logged once per window; every refusal is answered
                        log.info(
                            "User %s is going too fast; their actions are refused for now", user.get("id")
                        )
                    answer = discord.Interaction(data=data, state=self._connection)
                    task = asyncio.create_task(self._too_fast(answer), name="too-fast")
                    self._answering.add(task)
                    task.add_done_callback(self._answering.discard)
                    return
            parse(data)

        parsers["INTERACTION_CREATE"] = gate

    async def _too_fast(self, interaction: discord.Interaction) -> None:
        self.languages.hear(interaction)  # in the clicker's language
        await reply(interaction, TOO_FAST)

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(
            self.settings.database_url, busy_timeout=self.timing.storage_busy_timeout
        )
        self.storage.hold_leases_as(self.leases.owner, self.timing.lease_seconds)
        if self.settings.metrics_port is not None:  # /healthz and /metrics (bot.health)
            self.metrics_server = MetricsServer(self, self.settings.metrics_host, self.settings.metrics_port)
            await self.metrics_server.start()
        self.add_dynamic_items(Component)
        await self.tree.set_translator(CommandTranslator())  # commands in each member's language
        for extension in self._extensions:
            await self.load_extension(extension)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        # The pieces' emojis: in the background, so a start never waits for them (text uses Unicode meanwhile).
        self._emoji_task = asyncio.create_task(emojis.install(self), name="emojis")

    async def on_ready(self) -> None:
        log.info(
            "Logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds)
        )
        if self.application_id:
            log.info("Invite link (only the permissions the bot needs): %s", invite_url(self.application_id))
        if not self._resumed:
            self._resumed = True
            await self.tables.resume_all()
            await self.router.start()
            self.leases.start()

    async def on_game_component(
        self, interaction: discord.Interaction, custom_id: str, values: list[str] | None
    ) -> None:
        """A click on any of the games' components (``bot.tables.components``)."""
        await self.tables.on_component(interaction, custom_id, values)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Counted here, synchronously: an event handler would be one more task per click, and one
        # scheduled by the last disconnect would never run at close (bot.metrics).
        if event_name == "interaction" and args:
            metrics.INTERACTIONS.labels(getattr(args[0].type, "name", "unknown")).inc()
        elif event_name == ("shard_disconnect" if self.settings.shard_count else "disconnect"):
            metrics.DISCORD_DISCONNECTS.labels("gateway").inc()  # once per session lost, sharded or not
        super().dispatch(event_name, *args, **kwargs)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread deleted by someone: its game closes and its channel is told."""
        await self.tables.thread_gone(payload.thread_id)

    async def close(self) -> None:
        task = getattr(self, "_emoji_task", None)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.metrics_server is not None:
            await self.metrics_server.stop()
        seasons = self.get_cog("SeasonsCog")
        if seasons is not None:  # a recap being posted is posted and marked before the storage closes
            await seasons.stop()  # type: ignore[attr-defined]
        await self.leases.stop()
        await self.router.stop()
        await self.tables.stop_all()
        if hasattr(self, "storage") and self.storage.lease_owner is not None:
            await self.leases.release_all()
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()


class ShardedRaceBot(RaceBot, commands.AutoShardedBot):
    """The bot with ``SHARD_COUNT`` set: one gateway session per shard in ``SHARD_IDS``, in one process."""


def make_bot(settings: Settings, **options: Any) -> RaceBot:
    """The bot for these settings: sharded when ``SHARD_COUNT`` is set, a single session otherwise."""
    return (ShardedRaceBot if settings.shard_count is not None else RaceBot)(settings, **options)


def invite_url(client_id: int) -> str:
    return discord.utils.oauth_url(
        client_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )
