"""Every table of the bot, composed: finding and closing them (``directory``), opening lobbies
(``opening``), carrying stored games on (``resuming``), ending them (``endings``) and answering
clicks (``dispatch``). Only this module makes tables, so only it knows how a table is wired: its
place in Discord, a presenter of its own, and the ending hook that brings it back here."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_io.outbox import PictureOutbox
from bot.discord_io.pacer import ChannelPacer
from bot.discord_io.place import Client, Place, Wires
from bot.games.catalog import CATALOG, Entry
from bot.i18n import _, speaking
from bot.server_settings import WHERE
from bot.tables import routing
from bot.tables.answers import CANCEL_UNSAVED
from bot.tables.directory import Directory
from bot.tables.dispatch import Dispatch
from bot.tables.endings import Endings
from bot.tables.host import Host
from bot.tables.opening import Opening
from bot.tables.presenter import Presenter
from bot.tables.resuming import Resuming
from bot.tables.seats import shown
from bot.tables.spectating import Spectating
from bot.tables.table import Outcome, Table

__all__ = ["Tables"]


class Bot(Host, Client, Protocol):
    """What the registry needs of the bot (``bot.client.RaceBot``)."""

    pacer: ChannelPacer
    outbox: PictureOutbox
    stopping: bool  # shutting down: take no new games


class Tables:
    def __init__(self, bot: Bot, catalog: dict[str, Entry] | None = None) -> None:
        self.bot = bot
        self.catalog = dict(CATALOG if catalog is None else catalog)
        # One presenter per game for what is not a table's (titles, rules); each table makes its own.
        self.presenters: dict[str, Presenter] = {
            kind: entry.presenter_class()(entry) for kind, entry in self.catalog.items()
        }
        self.wires = Wires(bot, bot.pacer, bot.outbox, bot.timing)
        self.directory = Directory(bot)
        self.endings = Endings(self.directory)
        self.opening = Opening(
            self.directory,
            self.catalog,
            self._build_new,
            stopping=lambda: bot.stopping,
            default_where=lambda: str(
                getattr(getattr(bot, "settings", None), "default_where", WHERE.default)
            ),
        )
        self.resuming = Resuming(
            self.directory,
            self.endings,
            self.catalog,
            self._build_resumed,
            get_channel=bot.get_channel,
            pacer=bot.pacer,
            may_drive=self._may_drive,
        )
        self.spectating = Spectating(bot)
        self.directory.on_closed = lambda table: self.spectating.on_end(table, "closed")
        self.dispatch = Dispatch(self.directory, self._pass_on, self.spectating)

    def build(self, kind: str, *, channel_id: int, **fields: Any) -> Table:
        """A table wired to this bot: its place in Discord, a presenter of its own, its ending hook."""
        entry = self.catalog[kind]
        meta = fields.get("meta") or {}
        thread = meta.get("thread_id")
        place = Place(
            self.wires,
            game_id=fields["game_id"],
            channel_id=channel_id,
            thread_id=int(thread) if thread else None,
        )
        table = Table(self.bot, entry, entry.presenter_class()(entry), place, **fields)
        table.on_end = self._on_end
        table.after_publish = self.spectating.after_publish
        return table

    def _build_new(self, kind: str, *, channel_id: int, **fields: Any) -> Table:
        table = self.build(kind, channel_id=channel_id, **fields)
        self.spectating.opened(table.game_id)  # no spectator bets yet
        return table

    def _build_resumed(self, kind: str, *, channel_id: int, **fields: Any) -> Table:
        table = self.build(kind, channel_id=channel_id, **fields)
        self.spectating.resumed(table)  # its spectator bets looked up (aside)
        return table

    def _on_end(self, table: Table, why: str) -> None:
        self.spectating.on_end(table, why)  # spectator bets paid or refunded, aside
        self.endings.on_end(table, why)

    async def _may_drive(self, game: Any) -> bool:
        keeper = getattr(self.bot, "leases", None)
        return keeper is None or bool(await keeper.may_drive(game))

    async def _pass_on(self, interaction: discord.Interaction, click: Any) -> bool:
        return await routing.pass_on(self.bot, interaction, click)

    # --- finding (the directory) ---------------------------------------------------

    @property
    def by_id(self) -> dict[int, Table]:
        return self.directory.by_id

    @property
    def resumed(self) -> Any:
        return self.directory.resumed

    def in_channel(self, channel_id: int) -> Table | None:
        return self.directory.in_channel(channel_id)

    def in_thread(self, thread_id: int) -> Table | None:
        return self.directory.in_thread(thread_id)

    def of_user(self, guild_id: int, user_id: int) -> Table | None:
        return self.directory.of_user(guild_id, user_id)

    def seating(self, guild_id: int) -> Any:
        return self.directory.seating(guild_id)

    def seating_locks(self) -> list[Any]:
        return self.directory.seating_locks()

    async def ready_for(self, interaction: discord.Interaction) -> bool:
        return await self.directory.ready_for(interaction)

    # --- opening, resuming, clicks ----------------------------------------------------

    async def open(
        self, interaction: discord.Interaction, kind: str, settings: dict[str, Any], bots: int
    ) -> Table | None:
        return await self.opening.open(interaction, kind, settings, bots)

    async def resume_all(self) -> set[int]:
        """Carry on the stored games; the ids of those given up for good (damaged, unknown kind)."""
        given_up = await self.resuming.resume_all()
        await self.spectating.refund_closed()  # spectator bets of games that closed while no one was here
        return given_up

    async def on_component(
        self, interaction: discord.Interaction, custom_id: object, values: list[str] | None
    ) -> None:
        await self.dispatch.on_component(interaction, custom_id, values)

    # --- closing ------------------------------------------------------------------------

    async def close(self, table: Table, status: str, why: str, *, keep_if_unsaved: bool = False) -> bool:
        return await self.directory.close(table, status, why, keep_if_unsaved=keep_if_unsaved)

    async def thread_gone(self, thread_id: int) -> None:
        """A game's thread was deleted by someone: its game closes and its channel is told."""
        table = self.directory.in_thread(thread_id)
        if table is not None:
            await self.endings.thread_gone(table)

    async def cancel(self, table: Table, member: discord.abc.User) -> Outcome:
        """``/<game> cancel``: closed without results, unless it has just ended (its results stand)."""
        title = table.presenter.title
        async with table.lock:  # a move being stored and announced finishes first; then the truth is known
            if table.settled or (table.engine is not None and table.engine.is_over):
                return Outcome(
                    _(
                        "{game} #{number} had just ended; its results stand.",
                        game=title,
                        number=table.game_id,
                    )
                )
            if table.closed:
                return Outcome(_("{game} #{number} has already ended.", game=title, number=table.game_id))
            why = f"Cancelled by {shown(member.display_name)}."  # stored with the game, in English
            if not await self.directory.close(table, "cancelled", why, keep_if_unsaved=True):
                return Outcome(CANCEL_UNSAVED)
        with speaking(table.language):  # public: the channel's language, not the canceller's
            notice = _(
                "🛑 {game} #{number} was cancelled by {player}. No results were recorded.",
                game=table.presenter.title,
                number=table.game_id,
                player=member.mention,
            )
        return Outcome(notice, applied=True)

    async def stop_all(self) -> None:
        self.endings.stop()
        await self.directory.stop_all()
