"""Every click on a game's components, from its parsed id to the part of the table layer that answers
it; whatever the id says, the clicker gets an answer.

A click belongs to its place: it is applied only to the game its id names (number and token,
``custom_ids``) and only where that game is (its server, and its channel or thread), so a button of
another game with the same number (a new or restored database, another server) changes nothing and
is answered privately. Rights read of the clicker (Manage Server, for the lobby) are then the game's
own server's. A click in a DM (a private prompt, or a click another process passed on) has no place to
compare: its token and the clicker's seat are what tie it to its game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot import logs
from bot.tables import clicks, custom_ids
from bot.tables.answers import GONE, NOT_THIS_GAME, NOTHING_TO_SHOW, UNREADABLE, reply
from bot.tables.directory import Directory
from bot.tables.lobby import on_lobby
from bot.tables.spectating import BET, Spectating
from bot.tables.table import Table

PassOn = Callable[[discord.Interaction, custom_ids.Parsed], Awaitable[bool]]


class Dispatch:
    def __init__(
        self, directory: Directory, pass_on: PassOn | None = None, spectating: Spectating | None = None
    ) -> None:
        self.directory = directory
        self.spectating = spectating  # spectator bets (the **Bet** button and its private steps)
        # A click on a game another process drives (a DM click reaches shard 0 only): passed on to it.
        self.pass_on = pass_on

    async def on_component(
        self, interaction: discord.Interaction, custom_id: object, values: list[str] | None
    ) -> None:
        click = custom_ids.parse(custom_id, values)
        if isinstance(click, custom_ids.Unreadable | custom_ids.BoardPage):
            # A leaderboard page has its own dynamic item (cogs/stats.py); here it is unreadable.
            await reply(interaction, UNREADABLE)
            return
        if not await self.directory.ready_for(interaction):
            return
        table = self.directory.by_id.get(click.game)
        if table is None or table.closed:
            if self.pass_on is None or not await self.pass_on(interaction, click):
                await reply(interaction, GONE)
            return
        if not belongs(table, interaction, click):
            await reply(interaction, NOT_THIS_GAME)
            return
        logs.set_game(table.game_id, table.guild_id)  # this click's task: its lines name the game (bot.logs)
        if isinstance(click, custom_ids.Lobby):
            await on_lobby(self.directory, table, interaction, click.op, click.seat)
        elif isinstance(click, custom_ids.Hand):
            await clicks.show_hand(table, interaction)
        elif self.spectating is not None and (
            isinstance(click, custom_ids.Spectate)
            or (isinstance(click, custom_ids.Ask) and click.topic == BET)
        ):
            await self.spectating.on_click(table, interaction, click)
        elif isinstance(click, custom_ids.Ask):
            await clicks.on_ask(table, interaction, click.topic)
        elif isinstance(click, custom_ids.Spectate):
            await reply(interaction, NOTHING_TO_SHOW)
        elif isinstance(click, custom_ids.MenuPage):
            await clicks.on_menu_page(table, interaction, click)
        else:
            await clicks.on_decision(table, interaction, click)


def belongs(table: Table, interaction: discord.Interaction, click: custom_ids.OfAGame) -> bool:
    """Whether a click is on this table's own components: its token, and its place (a click in a
    server must be in the game's server and in its channel or its thread; a lobby is in a server)."""
    if click.token != table.token:
        return False
    if interaction.guild_id is None:
        return not isinstance(click, custom_ids.Lobby)
    return interaction.guild_id == table.guild_id and interaction.channel_id in (
        table.channel_id,
        table.thread_id,
    )
