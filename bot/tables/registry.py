"""Every open table of the bot: find one by game, channel or player; open, resume and close them."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import GameError
from bot.storage import StorageError, StoredGame
from bot.tables.lobby import OPS, expire_lobby, lobby_message, on_lobby, start_game
from bot.tables.presenter import Outgoing, Presenter
from bot.tables.seats import Seat, ai_seat
from bot.tables.table import SAVE_FAILED, Table, followup, message_kwargs, reply

if TYPE_CHECKING:
    from bot.client import RaceBot

log = logging.getLogger(__name__)

GONE = "This game has ended; these buttons no longer do anything."
RESTARTING = "The bot is restarting; try again in a minute."


class Tables:
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot
        self.presenters: dict[str, Presenter] = {}
        self.by_id: dict[int, Table] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        self.seating = asyncio.Lock()

    def add_presenter(self, presenter: Presenter) -> None:
        self.presenters[presenter.kind] = presenter

    def in_channel(self, channel_id: int) -> Table | None:
        return next((t for t in self.by_id.values() if t.channel_id == channel_id and not t.closed), None)

    def of_user(self, guild_id: int, user_id: int) -> Table | None:
        return next(
            (
                t
                for t in self.by_id.values()
                if t.guild_id == guild_id and not t.closed and t.seat_of(user_id) is not None
            ),
            None,
        )

    def forget(self, table: Table) -> None:
        self.by_id.pop(table.game_id, None)
        timer = self._lobby_timers.pop(table.game_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    # --- opening a lobby -------------------------------------------------------

    async def open(
        self, interaction: discord.Interaction, presenter: Presenter, settings: dict[str, Any], bots: int
    ) -> Table | None:
        """``/<game> start``: one game per channel, one game per player in a server."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if self.bot.stopping:  # shutting down (bot.shutdown): a new game would only be cut short
            await reply(interaction, RESTARTING)
            return None
        async with self.seating:  # two starts at once in one channel must not both get a lobby
            existing = self.in_channel(interaction.channel_id)
            if existing is not None:
                title = existing.presenter.title
                await reply(
                    interaction, f"A {title} game is already running here (game #{existing.game_id})."
                )
                return None
            other = self.of_user(interaction.guild_id, interaction.user.id)
            if other is not None:
                await reply(
                    interaction,
                    f"You're already playing in <#{other.channel_id}>; finish or leave that game first.",
                )
                return None
            # Acknowledge before touching the database, so a slow disk never makes the command time out.
            await interaction.response.defer()
            seats = [Seat(name=interaction.user.display_name, user_id=interaction.user.id)]
            level = str(settings.get("ai_level", "normal"))
            for _ in range(min(bots, int(settings["players"]) - 1)):
                seats.append(ai_seat(seats, level))
            settings["host_id"] = interaction.user.id
            meta = {"lobby_closes": time.time() + self.bot.timing.lobby_seconds}
            seed = secrets.randbits(48)
            try:
                game_id = await self.bot.storage.create_game(
                    presenter.kind,
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
                await followup(interaction, SAVE_FAILED)
                return None
            table = Table(
                self.bot,
                presenter,
                game_id=game_id,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                seed=seed,
                seats=seats,
                settings=settings,
                meta=meta,
            )
            self.by_id[game_id] = table
        lobby = await interaction.followup.send(**message_kwargs(lobby_message(table)), wait=True)
        self._lobby_timers[game_id] = asyncio.create_task(expire_lobby(table, self.bot.timing.lobby_seconds))
        if len(seats) >= int(settings["players"]):
            await start_game(table, lobby)
        return table

    async def close(self, table: Table, status: str, why: str) -> None:
        await table.stop()
        self.forget(table)
        try:
            await self.bot.storage.close_game(table.game_id, status, why)
        except StorageError:
            log.exception("Could not mark game %s as %s", table.game_id, status)

    # --- clicks ---------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction, game_id: int, rest: str, values: list[str] | None
    ) -> None:
        if rest.startswith("page:"):
            await self.bot.dispatch_page(interaction, rest.split(":")[1:])
            return
        table = self.by_id.get(game_id)
        if table is None or table.closed:
            await reply(interaction, GONE)
            return
        parts = rest.split(":")
        try:
            if parts[0] == "lobby" and parts[1] in OPS:
                await on_lobby(table, interaction, parts[1], values)
            elif parts[0] == "s" and parts[1] == "lobby":
                await on_lobby(table, interaction, parts[2], values)
            elif parts[0] == "hand":
                await table.show_hand(interaction)
            elif parts[0] == "d":
                seat, n, kind = int(parts[1]), int(parts[2]), parts[3]
                await table.on_decision(interaction, seat, n, kind, json.loads(":".join(parts[4:])))
            elif parts[0] == "s":
                seat, n, kind = int(parts[1]), int(parts[2]), parts[3]
                if not values:
                    await reply(interaction, "Pick an option first.")
                    return
                await table.on_decision(interaction, seat, n, kind, json.loads(values[0]))
            else:
                await reply(
                    interaction, "I don't know this button (it may be from an older version of the bot)."
                )
        except (ValueError, IndexError, json.JSONDecodeError):
            await reply(
                interaction, "I couldn't read this button; it may be from an older version of the bot."
            )

    # --- after a restart --------------------------------------------------------

    async def resume_all(self) -> None:
        """Carry on every stored game that had not ended; close the ones that can't go on."""
        try:
            stored = await self.bot.storage.unfinished_games()
        except StorageError:
            log.exception("Could not read the stored games; none were resumed")
            return
        for game in stored:
            if game.id in self.by_id:
                continue
            try:
                await self._resume(game)
            except Exception:
                log.exception("Could not resume game %s", game.id)

    async def _resume(self, game: StoredGame) -> None:
        presenter = self.presenters.get(game.kind)
        if presenter is None:
            return
        table = Table(
            self.bot,
            presenter,
            game_id=game.id,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            host_id=int(game.settings.get("host_id", 0)),
            seed=game.seed,
            seats=[Seat.from_json(s) for s in game.seats],
            settings=dict(game.settings),
            meta=dict(game.meta),
        )
        if table.channel is None:
            await self.close(table, "abandoned", "The game's channel is gone.")
            await self._tell_players(
                table, f"Your {presenter.title} game #{game.id} was closed: its channel is gone."
            )
            return
        if time.time() - game.updated_at > self.bot.timing.stale_after_seconds:
            await self.close(table, "abandoned", "Idle for too long.")
            await table.send(
                Outgoing(content=f"🛑 {presenter.title} game #{game.id} was closed: it waited too long.")
            )
            return
        self.by_id[game.id] = table
        if game.status == "lobby":
            await table.send(Outgoing(content="♻️ I restarted; here is the lobby again."))
            await table.send(lobby_message(table))
            left = max(5.0, float(table.meta.get("lobby_closes", 0)) - time.time())
            self._lobby_timers[game.id] = asyncio.create_task(expire_lobby(table, left))
            return
        try:
            table.start_engine(game.actions)
        except GameError:
            log.exception("Game %s could not be replayed", game.id)
            await self.close(table, "abandoned", "Its stored history could not be replayed.")
            await table.send(
                Outgoing(content=f"🛑 {presenter.title} game #{game.id} could not be resumed and was closed.")
            )
            return
        table.adopt_stored_deadline()
        await table.send(
            Outgoing(
                content=f"♻️ I restarted; {presenter.title} game #{game.id} carries on from where it stopped."
            )
        )
        if table.engine is not None and table.engine.is_over:
            # Stopped between storing the last action and announcing it: settle and show the end now.
            await table.publish(table.last_events)
        elif table.engine is not None:
            for out in await presenter.snapshot(table):
                await table.send(out)
        table.run()

    async def _tell_players(self, table: Table, text: str) -> None:
        for index in range(len(table.seats)):
            await table.send(Outgoing(content=text, seat=index))

    async def stop_all(self) -> None:
        for table in list(self.by_id.values()):
            await table.stop()
        for timer in self._lobby_timers.values():
            timer.cancel()
