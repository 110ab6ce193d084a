"""The commands every game has (rules, status, cancel, leave), shared by the game cogs.

``TableCommands`` is the base of each game's ``GroupCog``: discord.py collects app commands
through the class hierarchy, so every game's ``rules`` command is one method. A game's cog names
its catalog ``kind``; its presenter is the one the tables made from the catalog (loading a cog
registers nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.catalog import Entry, entry
from bot.i18n import _
from bot.tables.answers import followup, reply
from bot.tables.presenter import Presenter
from bot.tables.seats import is_manager
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.client import RaceBot


def command_mention(group: str, command: str) -> str:
    """A command as the reader's Discord shows it (``/<game> iniciar`` in Portuguese): the names'
    translations are those of the slash commands (bot.i18n.commands)."""
    from bot.i18n import current
    from bot.i18n.commands import localized_name

    language = current()
    return f"/{localized_name(group, language)} {localized_name(command, language)}"


# Every game's ``start`` takes ``where`` (the server's ``/config`` default when left out).
WHERE_HELP = "Play in a thread of its own (the server's default unless set) or in this channel"
WHERE_CHOICES = [
    app_commands.Choice(name="in a thread of its own", value="thread"),
    app_commands.Choice(name="in this channel", value="channel"),
]


class TableCommands(commands.GroupCog):
    """A game's command group; subclasses set ``kind`` and add their own ``start``."""

    kind: str

    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot
        self.entry: Entry = entry(self.kind)
        self.presenter: Presenter = bot.tables.presenters[self.kind]
        super().__init__()

    async def open_table(self, interaction: discord.Interaction, settings: dict, bots: int) -> None:
        await self.bot.tables.open(interaction, self.kind, settings, bots)

    @app_commands.command(name="rules", description="How to play this game")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, self.presenter)

    @app_commands.command(name="status", description="Where the game in this channel stands")
    async def status(self, interaction: discord.Interaction) -> None:
        await show_status(self.bot, interaction, self.presenter)

    @app_commands.command(
        name="cancel", description="Cancel the game in this channel (host or Manage Server)"
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        await cancel_game(self.bot, interaction, self.presenter)

    @app_commands.command(name="leave", description="Leave the game; an AI takes your seat")
    async def leave(self, interaction: discord.Interaction) -> None:
        await leave_game(self.bot, interaction, self.presenter)


def table_here(bot: RaceBot, interaction: discord.Interaction, presenter: Presenter) -> Table | None:
    table = bot.tables.in_channel(interaction.channel_id or 0)
    return table if table is not None and table.presenter.kind == presenter.kind else None


async def show_status(bot: RaceBot, interaction: discord.Interaction, presenter: Presenter) -> None:
    if not await bot.tables.ready_for(interaction):
        return
    table = table_here(bot, interaction, presenter)
    if table is None:
        await reply(
            interaction,
            _(
                "No {game} game in this channel. Start one with `{command}`.",
                game=presenter.title,
                command=command_mention(presenter.entry.command, "start"),
            ),
        )
        return
    embed = discord.Embed(
        title=_("{game} — game #{number}", game=presenter.title, number=table.game_id),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name=_("Players"),
        value="\n".join(s.mention() + (_(" *(AI)*") if s.is_ai else "") for s in table.seats),
    )
    if table.engine is None:
        embed.description = _("Waiting in the lobby for the host to start.")
    else:
        waiting = sorted({table.seats[d.player].shown for d in table.human_pending() if d.player is not None})
        lines = table.presenter.status_lines(table.view())
        if waiting:
            lines.append(_("Waiting for: {names}", names=", ".join(waiting)))
        if table.deadline:
            lines.append(_("Deadline: {deadline}", deadline=table.view().deadline_mark()))
        embed.description = "\n".join(lines) or _("The table is playing.")
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def cancel_game(bot: RaceBot, interaction: discord.Interaction, presenter: Presenter) -> None:
    if not await bot.tables.ready_for(interaction):
        return
    table = table_here(bot, interaction, presenter)
    if table is None:
        await reply(interaction, _("No {game} game in this channel.", game=presenter.title))
        return
    if not is_manager(interaction.user, table.host_id):
        await reply(interaction, _("Only the host or someone with Manage Server can cancel the game."))
        return
    # Closing writes to the database, which may wait for a lock longer than Discord's three seconds.
    # The answer is public either way (it fills the "thinking" placeholder): the channel learns the truth.
    await interaction.response.defer(thinking=True)
    outcome = await bot.tables.cancel(table, interaction.user)
    if outcome.applied:
        await interaction.followup.send(outcome.answer)
    else:
        await followup(interaction, outcome.answer)


async def leave_game(bot: RaceBot, interaction: discord.Interaction, presenter: Presenter) -> None:
    if not await bot.tables.ready_for(interaction):
        return
    table = table_here(bot, interaction, presenter)
    seat = None if table is None else table.seat_of(interaction.user.id)
    if table is None or seat is None:
        await reply(interaction, _("You're not in a {game} game in this channel.", game=presenter.title))
        return
    if table.engine is None:
        await reply(interaction, _("Use the lobby's **Leave** button to leave before the game starts."))
        return
    # Answer first, privately: the table's lock is held while a step is announced at the game's pace,
    # and the database may wait for a lock; either can outlast the three seconds Discord gives.
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await table.replace_with_ai(interaction.user.id)
    await followup(interaction, outcome.answer)


async def send_rules(interaction: discord.Interaction, presenter: Presenter) -> None:
    embed = discord.Embed(
        title=_("How to play {game}", game=presenter.title), description=presenter.rules_text()[:4000]
    )
    await interaction.response.send_message(embed=embed, ephemeral=True)


__all__ = [
    "cancel_game",
    "leave_game",
    "send_rules",
    "show_status",
    "table_here",
]
