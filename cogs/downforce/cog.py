"""Slash commands for Downforce; the table and the presenter do the rest."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import WHERE_CHOICES, WHERE_HELP, TableCommands


@app_commands.guild_only()
class DownforceCog(
    TableCommands,
    group_name="downforce",
    group_description="Downforce: buy cars at secret auctions, race them, bet on the winner",
):
    kind = "downforce"

    @app_commands.command(name="start", description="Open a Downforce lobby in this channel")
    @app_commands.describe(
        players="Seats at the table (2 to 6); the game starts by itself when people fill them",
        track="The track to race on",
        betting="How bets pay: standard 9/6/3, or by the car's position when you bet",
        powers="Power cards that come with the cars at auction",
        bots="AI players to seat right away",
        pace="Seconds between cards played by AI players (0 to 10)",
        where=WHERE_HELP,
    )
    @app_commands.choices(
        where=WHERE_CHOICES,
        track=[
            app_commands.Choice(name="River Station", value="river-station"),
            app_commands.Choice(name="Marina Bay", value="marina-bay"),
            app_commands.Choice(name="Crosstown Speedway (crossover loop)", value="crosstown-speedway"),
            app_commands.Choice(name="Switchback Pass (cracked spaces)", value="switchback-pass"),
            app_commands.Choice(name="Aloha Sands (ramps)", value="aloha-sands"),
            app_commands.Choice(name="Savanna Stretch (animals)", value="savanna-stretch"),
        ],
        powers=[
            app_commands.Choice(name="off", value="off"),
            app_commands.Choice(name="base (the six base powers)", value="base"),
            app_commands.Choice(name="all (six of all twelve)", value="all"),
        ],
        betting=[
            app_commands.Choice(name="standard (9/6/3, 6/4/2, 3/2/1)", value="standard"),
            app_commands.Choice(name="odds (position when you bet x 3/2/1...)", value="odds"),
            app_commands.Choice(name="odds, winner only", value="odds-winner-only"),
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 6] = 4,
        track: str = "river-station",
        betting: str = "standard",
        powers: str = "off",
        bots: app_commands.Range[int, 0, 5] = 0,
        pace: app_commands.Range[float, 0.0, 10.0] | None = None,
        where: str | None = None,
    ) -> None:
        settings = {
            "players": players,
            "track": track,
            "betting": betting,
            "powers": powers,
            "pace": self.bot.timing.default_pace if pace is None else pace,
            "where": where,
        }
        await self.open_table(interaction, settings, bots)
