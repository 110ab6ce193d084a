"""The lobby before a game: join, leave, add AI, kick, start, cancel — the same for every game."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord

from bot.storage import StorageError
from bot.tables.components import GameButton, GameSelect, option_value
from bot.tables.presenter import Outgoing
from bot.tables.seats import AI_LEVELS, Seat, ai_seat
from bot.tables.table import SAVE_FAILED, Table, message_kwargs, reply

OPS = ("join", "leave", "ai", "start", "cancel", "kick")


def lobby_message(table: Table, note: str = "") -> Outgoing:
    presenter = table.presenter
    capacity = int(table.settings.get("players", presenter.max_players))
    lines = []
    for index, seat in enumerate(table.seats, start=1):
        tag = " — host" if seat.user_id == table.host_id else ""
        kind = f" *(AI, {seat.ai})*" if seat.is_ai else ""
        lines.append(f"`{index}.` {seat.mention()}{kind}{tag}")
    embed = discord.Embed(
        title=f"{presenter.title} — lobby",
        description="\n".join(lines) or "*Nobody yet.*",
        colour=discord.Colour.gold(),
    )
    embed.add_field(name="Seats", value=f"{len(table.seats)} / {capacity}")
    for name, value in presenter.lobby_fields(table):
        embed.add_field(name=name, value=value)
    closes = int(table.meta.get("lobby_closes", time.time()))
    embed.add_field(name="Lobby closes", value=f"<t:{closes}:R>")
    embed.set_footer(
        text=f"Game #{table.game_id} · the host or a server manager can start early, kick or cancel"
    )
    view = discord.ui.View(timeout=None)
    gid = table.game_id
    full = len(table.seats) >= capacity
    view.add_item(GameButton(f"g:{gid}:lobby:join", "Join", style=discord.ButtonStyle.success, disabled=full))
    view.add_item(GameButton(f"g:{gid}:lobby:leave", "Leave"))
    view.add_item(GameButton(f"g:{gid}:lobby:ai", "Add AI", disabled=full))
    view.add_item(GameButton(f"g:{gid}:lobby:start", "Start", style=discord.ButtonStyle.primary))
    view.add_item(GameButton(f"g:{gid}:lobby:cancel", "Cancel", style=discord.ButtonStyle.danger))
    kickable = [(i, s) for i, s in enumerate(table.seats) if s.user_id != table.host_id]
    if kickable:
        options = [discord.SelectOption(label=s.name[:100], value=option_value(i)) for i, s in kickable]
        view.add_item(GameSelect(f"gs:{gid}:lobby:kick", options, placeholder="Remove a seat (host only)"))
    return Outgoing(content=note, embed=embed, view=view)


async def on_lobby(table: Table, interaction: discord.Interaction, op: str, values: list[str] | None) -> None:
    if table.engine is not None:
        await reply(interaction, "This game has already started.")
        return
    user = interaction.user
    manager = table.is_manager(user)
    capacity = int(table.settings.get("players", table.presenter.max_players))
    seats = list(table.seats)
    if op == "join":
        if table.seat_of(user.id) is not None:
            await reply(interaction, "You're already in this game.")
            return
        other = table.bot.tables.of_user(table.guild_id, user.id)
        if other is not None:
            await reply(interaction, f"You're already playing in <#{other.channel_id}>; one game at a time.")
            return
        if len(seats) >= capacity:
            await reply(interaction, "The table is full.")
            return
        seats.append(Seat(name=user.display_name, user_id=user.id))
    elif op == "leave":
        index = table.seat_of(user.id)
        if index is None:
            await reply(interaction, "You're not in this game.")
            return
        seats.pop(index)
        if user.id == table.host_id:
            successor = next((s for s in seats if s.user_id is not None), None)
            if successor is None:
                await _close(
                    table, interaction, "The host left and nobody else had joined, so the lobby closed."
                )
                return
            table.host_id = successor.user_id  # type: ignore[assignment]
            table.settings["host_id"] = table.host_id
    elif op in ("ai", "start", "cancel", "kick") and not manager:
        await reply(interaction, "Only the host or someone with Manage Server can do that.")
        return
    elif op == "ai":
        if len(seats) >= capacity:
            await reply(interaction, "The table is full.")
            return
        level = str(table.settings.get("ai_level", "normal"))
        seats.append(ai_seat(seats, level if level in AI_LEVELS else "normal"))
    elif op == "kick":
        index = int(values[0]) if values else -1
        if not 0 <= index < len(seats) or seats[index].user_id == table.host_id:
            await reply(interaction, "That seat can't be removed.")
            return
        seats.pop(index)
    elif op == "cancel":
        await _close(table, interaction, f"Cancelled by {user.display_name}.")
        return
    elif op == "start":
        if len(seats) < table.presenter.min_players:
            await reply(
                interaction, f"At least {table.presenter.min_players} players are needed (add an AI?)."
            )
            return
        await interaction.response.defer()
        await start_game(table, interaction.message)
        return
    else:
        await reply(interaction, "Unknown lobby button.")
        return
    try:
        await table.bot.storage.update_game(
            table.game_id, seats=[s.to_json() for s in seats], settings=table.settings
        )
    except StorageError:
        await reply(interaction, SAVE_FAILED)
        return
    table.seats = seats
    await interaction.response.edit_message(**message_kwargs(lobby_message(table), editing=True))
    if len(seats) >= capacity and table.settings.get("autostart", True):
        await start_game(table, interaction.message)


async def start_game(table: Table, message: discord.Message | None) -> None:
    """Fix the seats, store the engine's settings, and let the game run."""
    async with table.lock:
        if table.engine is not None or table.closed:
            return
        engine_settings: dict[str, Any] = await table.presenter.starting_settings(table)
        table.settings["engine"] = engine_settings
        try:
            await table.bot.storage.update_game(
                table.game_id,
                status="running",
                settings=table.settings,
                seats=[s.to_json() for s in table.seats],
            )
        except StorageError:
            await table.send(Outgoing(content=SAVE_FAILED))
            return
        table.start_engine([])
        if message is not None:
            started = message_kwargs(lobby_message(table, "The game has started."), editing=True)
            await table.edit(message, **{**started, "view": None})
        for out in await table.presenter.snapshot(table):
            await table.send(out)
    table.run()


async def _close(table: Table, interaction: discord.Interaction, why: str) -> None:
    await table.bot.tables.close(table, "cancelled", why)
    await interaction.response.edit_message(content=f"🛑 {why}", embed=None, view=None)


async def expire_lobby(table: Table, seconds: float) -> None:
    """An abandoned lobby closes by itself."""
    await asyncio.sleep(seconds)
    if table.engine is None and not table.closed:
        await table.bot.tables.close(table, "cancelled", "Nobody started the game in time.")
        await table.send(
            Outgoing(content=f"🛑 The {table.presenter.title} lobby closed: nobody started it in time.")
        )
