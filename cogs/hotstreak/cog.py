"""Slash commands for Hot Streak; the table and the presenter do the rest."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.common import WHERE_CHOICES, WHERE_HELP, TableCommands


@app_commands.guild_only()
class HotStreakCog(
    TableCommands, group_name="hotstreak", group_description="Hot Streak: bet on racing mascots"
):
    kind = "hotstreak"

    @app_commands.command(name="start", description="Open a Hot Streak lobby in this channel")
    @app_commands.describe(
        players="Seats at the table (2 to 8); the game starts by itself when people fill them",
        pace="Seconds between flipped cards (0 to 10)",
        bots="AI players to seat right away",
        where=WHERE_HELP,
    )
    @app_commands.choices(where=WHERE_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 8] = 8,
        pace: app_commands.Range[float, 0.0, 10.0] | None = None,
        bots: app_commands.Range[int, 0, 7] = 0,
        where: str | None = None,
    ) -> None:
        settings: dict[str, Any] = {
            "players": players,
            "pace": self.bot.timing.default_pace if pace is None else pace,
        }
        settings["where"] = where
        await self.open_table(interaction, settings, bots)
