"""The private answers to clicks and commands: short, specific, in the clicker's language.

The marked constants (``N_``) are translated when sent by ``reply`` and ``followup``; elsewhere show
them with ``_()``. Cogs import their answers from here, never from the table.
"""

from __future__ import annotations

import contextlib

import discord

from bot.i18n import N_, _, _n

SAVE_FAILED = N_("I couldn't save that, so it was not applied. Please try again in a moment.")
CANCEL_UNSAVED = N_("I couldn't save the cancellation, so the game goes on. Please try again in a moment.")
STALE = N_("That was already decided: this button is from an earlier step.")
UNREADABLE = N_("I couldn't read this button; it may be from an older version of the bot.")
GAME_BROKE = N_("That move broke the game's rules engine (a bug on our side), so the game was closed.")
GONE = N_("This game has ended; these buttons no longer do anything.")
RESTARTING = N_("The bot is restarting; try again in a minute.")
STARTING = N_("I'm starting up; try again in a few seconds.")
STORAGE_BUSY = N_("I can't reach my storage right now; please try again in a moment.")
NOT_THIS_GAME = N_("This button belongs to another game, so it did nothing here.")
ELSEWHERE = N_("This button belongs to a game's channel; use it there.")
NOT_PLAYING = N_("You're not playing in this game.")
NOT_STARTED = N_("The game hasn't started yet.")
PICK_FIRST = N_("Pick an option first.")
NOT_YOUR_MENU = N_("This menu isn't yours.")
NOTHING_TO_SHOW = N_("There's nothing to show for that right now.")
PAUSED = N_("This game is paused: I lost a permission where it is played. Try again once it is back.")
# How a missing permission is given back: said with every message that names one (``permissions``).
HOW_TO_GRANT = N_(
    "A server manager can grant permissions to my role in **Server Settings › Roles**, and should check "
    "this channel's **Edit Channel › Permissions**: an override there for @everyone, for one of my "
    "roles or for me takes a permission away even when my role has it."
)


def permission_names(names: list[str]) -> str:
    """Discord's names of some permissions (marked constants), bold, in the current language."""
    return ", ".join(f"**{_(name)}**" for name in names)


def cannot_play_here(names: list[str]) -> str:
    """Why ``/<game> start`` is refused here: the required permissions the bot lacks, and how to
    grant them (in the current language)."""
    return " ".join(
        (
            _n(
                "I can't run a game here: I'm missing the {permissions} permission in this channel.",
                "I can't run a game here: I'm missing these permissions in this channel: {permissions}.",
                len(names),
                permissions=permission_names(names),
            ),
            _(HOW_TO_GRANT),
        )
    )


def no_pictures_here() -> str:
    """The lobby opens, but the host is told privately that the game will have no pictures."""
    return " ".join(
        (
            _(
                "ℹ️ I don't have the {permission} permission in this channel, so this game will be "
                "played without pictures.",
                permission=permission_names([N_("Attach Files")]),
            ),
            _(HOW_TO_GRANT),
        )
    )


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
