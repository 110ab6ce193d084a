"""``/leaderboard``, ``/stats`` and ``/history``: what the results table remembers, per server."""

from __future__ import annotations

import asyncio
import io
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.catalog import titles
from bot.leaderboard_image import BoardLine, alt_text, money, render_leaderboard
from bot.storage import StorageError, period_start
from bot.tables import custom_ids
from bot.tables.components import button
from bot.tables.seats import shown
from bot.words import count

if TYPE_CHECKING:
    from bot.client import RaceBot

PER_PAGE = 10
GAME_TITLES = titles()  # from the catalog: a new game is offered here by its catalog line
PERIODS = {"all": "All time", "month": "This month", "week": "This week"}
STORAGE_DOWN = "I can't read the results right now (storage problem); please try again later."


class StatsCog(commands.Cog):
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot
        bot.set_page_handler(self.on_page)

    async def board(self, guild_id: int, game: str, period: str, page: int) -> dict:
        kind = None if game == "all" else game
        rows, total = await self.bot.storage.leaderboard(guild_id, kind, period_start(period), page, PER_PAGE)
        pages = max(1, -(-total // PER_PAGE))
        title = f"Leaderboard — {GAME_TITLES.get(game, 'all games')}"
        subtitle = f"{PERIODS[period]} · page {page + 1} of {pages} · {total} players"
        lines = [BoardLine(r.rank, r.name, r.net, r.games, r.wins, r.win_rate) for r in rows]
        image = await asyncio.to_thread(render_leaderboard, title, subtitle, lines)
        text = "\n".join(
            f"`{line.rank:>3}.` **{shown(line.name)}** {money(line.net)} · {count(line.games, 'game')} · "
            f"{count(line.wins, 'win')} ({line.win_rate:.0%})"
            for line in lines
        )
        embed = discord.Embed(
            title=title, description=text or "No finished games yet.", colour=discord.Colour.gold()
        )
        embed.set_footer(text=subtitle)
        embed.set_image(url="attachment://leaderboard.png")
        file = discord.File(io.BytesIO(image), filename="leaderboard.png", description=alt_text(title, lines))
        view = discord.ui.View(timeout=None)
        view.add_item(button(custom_ids.board_page(game, period, page - 1), "◀ Previous", disabled=page <= 0))
        view.add_item(
            button(custom_ids.board_page(game, period, page + 1), "Next ▶", disabled=page + 1 >= pages)
        )
        return {"embed": embed, "file": file, "view": view}

    @app_commands.command(name="leaderboard", description="This server's top players by net winnings")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (default: all)", period="Which period (default: all time)")
    @app_commands.choices(
        game=[app_commands.Choice(name="All games", value="all")]
        + [app_commands.Choice(name=title, value=kind) for kind, title in GAME_TITLES.items()],
        period=[app_commands.Choice(name=title, value=key) for key, title in PERIODS.items()],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, game: str = "all", period: str = "all"
    ) -> None:
        await interaction.response.defer()
        try:
            page = await self.board(interaction.guild_id or 0, game, period, 0)
        except StorageError:
            await interaction.followup.send(STORAGE_DOWN, ephemeral=True)
            return
        await interaction.followup.send(**page)

    async def on_page(self, interaction: discord.Interaction, click: custom_ids.BoardPage) -> None:
        game, period, page = click.scope, click.period, click.page
        if game not in GAME_TITLES and game != "all" or period not in PERIODS or page < 0:
            await interaction.response.send_message("This button is not valid any more.", ephemeral=True)
            return
        await interaction.response.defer()
        try:
            content = await self.board(interaction.guild_id or 0, game, period, page)
        except StorageError:
            await interaction.followup.send(STORAGE_DOWN, ephemeral=True)
            return
        file = content.pop("file")
        await interaction.edit_original_response(attachments=[file], **content)

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose record (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user
        await interaction.response.defer()  # before the database: a slow read must not fail the command
        try:
            records = await self.bot.storage.player_stats(interaction.guild_id or 0, target.id)
        except StorageError:
            await interaction.followup.send(STORAGE_DOWN, ephemeral=True)
            return
        embed = discord.Embed(title=f"{shown(target.display_name)}'s record", colour=discord.Colour.teal())
        if not records:
            embed.description = "No finished games in this server yet."
        for record in records:
            streak = (
                f"{record.streak} win{'s' if record.streak != 1 else ''} in a row"
                if record.streak > 0
                else f"{-record.streak} without a win"
                if record.streak < 0
                else "—"
            )
            lines = [
                f"Games **{record.games}** · wins **{record.wins}** ({record.wins / max(1, record.games):.0%})",
                f"Total winnings **{money(record.total_net)}** · best **{money(record.best_net)}**",
                f"Current streak: {streak}",
            ]
            if record.favourite_stake:
                lines.append(f"Favourite bet: **{record.favourite_stake}**")
            if record.stakes_won or record.stakes_lost:
                lines.append(f"Bets: {record.stakes_won} won, {record.stakes_lost} lost")
            embed.add_field(
                name=GAME_TITLES.get(record.kind, record.kind), value="\n".join(lines), inline=False
            )
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="history", description="The last games in this server and who won")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # before the database, like /stats
        try:
            rows = await self.bot.storage.history(interaction.guild_id or 0, 10)
        except StorageError:
            await interaction.followup.send(STORAGE_DOWN, ephemeral=True)
            return
        lines = [
            f"`#{row.game_id}` {GAME_TITLES.get(row.kind, row.kind)} · <t:{int(row.finished_at)}:R> · "
            f"{row.players} players · won by **{', '.join(shown(w) for w in row.winners) or 'nobody'}**"
            for row in rows
        ]
        embed = discord.Embed(
            title="Recent games",
            description="\n".join(lines) or "No finished games yet.",
            colour=discord.Colour.blue(),
        )
        embed.timestamp = datetime.fromtimestamp(time.time(), UTC)
        await interaction.followup.send(embed=embed)


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(StatsCog(bot))
