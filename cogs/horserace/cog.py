"""Slash commands for The Horse Race Game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.games.horserace.settings import DEFAULT_BANK
from cogs.common import WHERE_CHOICES, WHERE_HELP, TableCommands


@app_commands.guild_only()
class HorseRaceCog(
    TableCommands,
    group_name="horserace",
    group_description="The Horse Race Game: dice, horses and a jackpot",
):
    kind = "horserace"

    @app_commands.command(name="start", description="Open a Horse Race Game lobby in this channel")
    @app_commands.describe(
        races="How many races (ends after them)",
        bank="Starting money per player",
        fee="Entry fee per race",
        rolls="auto (default): the bot rolls for everyone; manual: press Roll on your turn",
        end="When the game ends (default: after the races)",
        minutes="With end=minutes: how long the game lasts",
        players="Seats at the table (2 to 15); starts by itself when people fill them",
        bots="AI players to seat right away",
        pace="Seconds between rolls when the bot rolls",
        where=WHERE_HELP,
    )
    @app_commands.choices(
        where=WHERE_CHOICES,
        rolls=[
            app_commands.Choice(name="auto", value="auto"),
            app_commands.Choice(name="manual", value="manual"),
        ],
        end=[
            app_commands.Choice(name="after the races", value="races"),
            app_commands.Choice(name="when a player goes broke", value="broke"),
            app_commands.Choice(name="after some minutes", value="minutes"),
        ],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        races: app_commands.Range[int, 1, 50] = 5,
        bank: app_commands.Range[int, 1, 1000] = DEFAULT_BANK,
        fee: app_commands.Range[int, 1, 100] = 1,
        rolls: str = "auto",
        end: str = "races",
        minutes: app_commands.Range[int, 1, 240] = 30,
        players: app_commands.Range[int, 2, 15] = 15,
        bots: app_commands.Range[int, 0, 14] = 0,
        pace: app_commands.Range[float, 0.0, 10.0] | None = None,
        where: str | None = None,
    ) -> None:
        settings = {
            "players": players,
            "races": races,
            "bank": bank,
            "fee": fee,
            "rolls": rolls,
            "end": end,
            "minutes": minutes,
            "pace": self.bot.timing.default_pace if pace is None else pace,
        }
        settings["where"] = where
        await self.open_table(interaction, settings, bots)
