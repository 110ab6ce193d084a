"""The private answers to clicks and commands: short, specific, in the clicker's language.

The marked constants (``N_``) are translated when sent by ``reply`` and ``followup``; elsewhere show
them with ``_()``. Cogs import their answers from here, never from the table.
"""

from __future__ import annotations

import contextlib

import discord

from bot.i18n import N_, _

SAVE_FAILED = N_("I couldn't save that, so it was not applied. Please try again in a moment.")
CANCEL_UNSAVED = N_("I couldn't save the cancellation, so the game goes on. Please try again in a moment.")
STALE = N_("That was already decided: this button is from an earlier step.")
UNREADABLE = N_("I couldn't read this button; it may be from an older version of the bot.")
GAME_BROKE = N_("That move broke the game's rules engine (a bug on our side), so the game was closed.")
GONE = N_("This game has ended; these buttons no longer do anything.")
RESTARTING = N_("The bot is restarting; try again in a minute.")
STARTING = N_("I'm starting up; try again in a few seconds.")
STORAGE_BUSY = N_("I can't reach my storage right now; please try again in a moment.")
ELSEWHERE = N_("This button belongs to a game's channel; use it there.")
NOT_PLAYING = N_("You're not playing in this game.")
NOT_STARTED = N_("The game hasn't started yet.")
PICK_FIRST = N_("Pick an option first.")
NOT_YOUR_MENU = N_("This menu isn't yours.")
NOTHING_TO_SHOW = N_("There's nothing to show for that right now.")


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short private answer, whether or not the interaction was acknowledged already; ``text`` may
    be a marked constant, translated here into the clicker's language."""
    if interaction.response.is_done():
        await followup(interaction, text)
    else:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(_(text), ephemeral=True)


async def followup(interaction: discord.Interaction, text: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(_(text), ephemeral=True)


async def private_after_defer(interaction: discord.Interaction, text: str) -> None:
    """A private answer to a command already deferred publicly: the public "thinking" placeholder is
    removed, so the next followup is a new message and may be ephemeral (the first followup after a
    deferral would fill the placeholder, in public)."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()
    await followup(interaction, text)
