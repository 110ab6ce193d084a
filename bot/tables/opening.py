"""Opening a lobby (``/<game> start``): one game per channel, one game per player in a server, the
server's caps, where the game plays (a thread of its own or the channel), and whether the bot may show
it there: no lobby opens where a required permission is missing (``bot.discord_io.permissions``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, Protocol

import discord

from bot.config import DEFAULT_MAX_GAMES_AT_ONCE
from bot.discord_io import permissions
from bot.discord_io.delivery import TRANSIENT
from bot.discord_io.outgoing import message_kwargs
from bot.discord_io.permissions import Needed, required
from bot.games.catalog import Entry
from bot.i18n import _, _n
from bot.server_settings import MAX_GAMES, MAX_HOSTED, WHERE
from bot.storage import StorageError
from bot.tables.answers import (
    RESTARTING,
    SAVE_FAILED,
    STORAGE_BUSY,
    cannot_play_here,
    no_pictures_here,
    private_after_defer,
    reply,
)
from bot.tables.directory import Directory
from bot.tables.lobby import expire_lobby, lobby_message, start_game
from bot.tables.seats import Seat, ai_seat
from bot.tables.table import Table

log = logging.getLogger(__name__)


class Builder(Protocol):
    """Makes a table (with its place, presenter and ending hook): ``bot.tables.registry.Tables.build``."""

    def __call__(self, kind: str, *, channel_id: int, **fields: Any) -> Table: ...


class Opening:
    def __init__(
        self,
        directory: Directory,
        catalog: dict[str, Entry],
        build: Builder,
        *,
        stopping: Callable[[], bool],
        default_where: Callable[[], str],
    ) -> None:
        self.directory = directory
        self.host = directory.host
        self.catalog = catalog
        self.build = build
        self.stopping = stopping
        self.default_where = default_where
        self._reserved = 0  # starts past the bot-wide cap's check whose table is not made yet

    async def open(
        self, interaction: discord.Interaction, kind: str, settings: dict[str, Any], bots: int
    ) -> Table | None:
        """``/<game> start``: one game per channel, one game per player in a server."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if self.stopping():  # shutting down (bot.shutdown): a new game would only be cut short
            await reply(interaction, RESTARTING)
            return None
        if not await self.directory.ready_for(interaction):
            return None
        entry = self.catalog[kind]
        # From memory: answered at once, privately.
        refusal = self._seated_elsewhere(interaction) or self._bot_is_full()
        if refusal is not None:
            await reply(interaction, refusal)
            return None
        # Acknowledge before anything that may wait: the seating lock and the cap counts queue behind
        # every game's writes on the one database writer. Public, since the lobby fills this answer; a
        # refusal found later (a cap, or a start that won a race) still reaches only the user.
        await interaction.response.defer(thinking=True)
        async with self.directory.seating(interaction.guild_id):  # two starts in one channel: one lobby
            if self.stopping():  # the stop began while this start waited for the lock
                await private_after_defer(interaction, RESTARTING)
                return None
            refusal = self._seated_elsewhere(interaction) or await self._over_a_cap(
                interaction.guild_id, interaction.user.id
            )
            if settings.get("where") not in WHERE.choices:  # not chosen: the server's default
                settings["where"] = await self._default_where(interaction.guild_id)
            lacking = self._lacking(interaction, str(settings["where"]))
            if refusal is None and required(lacking):
                refusal = cannot_play_here([n.name for n in required(lacking)])
            # Last, and with no wait between the check and the reservation: starts in other servers
            # (other seating locks) cannot together pass the bot-wide cap.
            refusal = refusal or self._bot_is_full()
            if refusal is not None:
                await private_after_defer(interaction, refusal)
                return None
            self._reserved += 1
            try:
                table = await self._create(interaction, entry, settings, bots)
            finally:
                self._reserved -= 1
            if table is None:
                return None
        await self.host.languages.refresh(interaction.guild_id)  # the lobby speaks the server's language
        # The timer first: a lobby whose message could not be posted must still close by itself.
        timer = asyncio.create_task(expire_lobby(self.directory, table, self.host.timing.lobby_seconds))
        self.directory.lobby_timers[table.game_id] = timer
        lobby: discord.Message | None
        try:
            lobby = await interaction.followup.send(**message_kwargs(lobby_message(table)), wait=True)
        except (discord.HTTPException, *TRANSIENT):
            log.exception("Could not answer the start of game %s; posting its lobby", table.game_id)
            lobby = await table.send(lobby_message(table))  # retried, with a nonce
        if any(n.flag == "attach_files" for n in lacking):  # the lobby opens; the host hears why no pictures
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(no_pictures_here(), ephemeral=True)
        if len(table.seats) >= int(settings["players"]):
            # The host's own command filled every seat (with ``bots``): the table they asked for, so it
            # starts now. Add AI in a lobby never starts a game (bot/tables/lobby.py).
            await start_game(table, lobby)
        return table

    @staticmethod
    def _lacking(interaction: discord.Interaction, where: str) -> list[Needed]:
        """The permissions the bot lacks where this game would be shown: the channel, and the thread
        it would start there (``bot.discord_io.permissions``). Ruling: a channel whose permissions are
        not in the cache is not refused (the game finds out when it posts, and pauses then)."""
        channel = interaction.channel
        want_thread = where == "thread" and isinstance(channel, discord.TextChannel)
        return permissions.lacking(channel, want_thread=want_thread) or []

    async def _create(
        self, interaction: discord.Interaction, entry: Entry, settings: dict[str, Any], bots: int
    ) -> Table | None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        seats = [Seat(name=interaction.user.display_name, user_id=interaction.user.id)]
        level = str(settings.get("ai_level", "normal"))
        for _seat in range(min(bots, int(settings["players"]) - 1)):
            seats.append(ai_seat(seats, level))
        settings["host_id"] = interaction.user.id
        meta = {"lobby_closes": time.time() + self.host.timing.lobby_seconds}
        seed = secrets.randbits(48)
        try:
            game_id = await self.host.storage.create_game(
                entry.kind,
                interaction.guild_id,
                interaction.channel_id,
                seed,
                settings,
                [s.to_json() for s in seats],
                status="lobby",
                meta=meta,
            )
        except StorageError:
            log.exception("Could not create a game")
            await private_after_defer(interaction, SAVE_FAILED)
            return None
        table = self.build(
            entry.kind,
            game_id=game_id,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            seed=seed,
            seats=seats,
            settings=settings,
            meta=meta,
        )
        self.directory.by_id[game_id] = table
        return table

    def _seated_elsewhere(self, interaction: discord.Interaction) -> str | None:
        """Why this start is refused by the games already seated here (in memory, so instant)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        existing = self.directory.in_channel(interaction.channel_id)
        if existing is not None:
            title = existing.presenter.title
            return _(
                "{game} is already being played here (game #{number}).", game=title, number=existing.game_id
            )
        other = self.directory.of_user(interaction.guild_id, interaction.user.id)
        if other is not None:
            where = f"<#{other.place.place_id}>"
            return _("You're already playing in {channel}; finish or leave that game first.", channel=where)
        return None

    def _bot_is_full(self) -> str | None:
        """Issue 26, point 10: a bot-wide cap (``MAX_GAMES_AT_ONCE``, bot.config) on the games this
        process runs at once, lobbies included, whatever each server allows (`max_games`).

        Ruling: counted per process, from memory (instant, so answered before anything waits): what a
        process carries is what docs/scaling.md measured (its cores, its share of the global limit),
        and a bot of one process is the common case. With several processes each has the cap."""
        most = getattr(getattr(self.host, "settings", None), "max_games_at_once", DEFAULT_MAX_GAMES_AT_ONCE)
        running = sum(1 for table in self.directory.by_id.values() if not table.closed)
        if most is None or running + self._reserved < int(most):
            return None
        return _("I'm running as many games as I can right now; try again in a few minutes.")

    async def _default_where(self, guild_id: int) -> str:
        """The server's `/config` choice, else the bot's own default (``DEFAULT_WHERE``), else a thread."""
        fallback = self.default_where()
        try:
            stored = await self.host.storage.get_server_settings(guild_id)
        except StorageError:
            return fallback
        return str(WHERE.read(stored)) if WHERE.key in stored else fallback

    async def _over_a_cap(self, guild_id: int, user_id: int) -> str | None:
        """Why this user may not open one more table in this server now, if they may not.

        Counts come from storage, so they hold when several bot processes share a database. Checked
        after acknowledging the command: behind a busy database writer, these reads can outlast the
        three seconds Discord gives.
        """
        try:
            stored = await self.host.storage.get_server_settings(guild_id)
            hosted = await self.host.storage.count_open_tables_hosted(guild_id, user_id)
            games = await self.host.storage.count_running_games(guild_id)
        except StorageError:
            log.exception("Could not count the open games of server %s", guild_id)
            return STORAGE_BUSY
        most_hosted, most_games = MAX_HOSTED.read(stored), MAX_GAMES.read(stored)
        if hosted >= int(most_hosted):
            return _n(
                "You already host {n} open game in this server, the most it allows "
                "(`{setting}`, games you left included); let one end or cancel it first.",
                "You already host {n} open games in this server, the most it allows "
                "(`{setting}`, games you left included); let one end or cancel it first.",
                hosted,
                setting=MAX_HOSTED.key,
            )
        if games >= int(most_games):
            return _n(
                "This server already has {n} open game, the most it allows (`{setting}`); "
                "try again when one has ended.",
                "This server already has {n} open games, the most it allows (`{setting}`); "
                "try again when one has ended.",
                games,
                setting=MAX_GAMES.key,
            )
        return None
