"""``/config show|set|reset``: a server's settings, for members with Manage Server.

Ruling: one ``set`` command with the setting as a choice and the value as text (autocompleted
from the setting's choices) reads best in Discord's picker and needs no new command per setting;
each setting is declared once in ``bot/server_settings.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _
from bot.server_settings import SETTINGS, Setting
from bot.storage import StorageError

if TYPE_CHECKING:
    from bot.client import RaceBot

ONLY_MANAGERS = N_("Only members with **Manage Server** can change this server's settings.")
STORAGE_DOWN = N_("I can't reach the settings right now (storage problem); please try again in a moment.")
NOTHING_CHANGED = N_(
    "I can't reach the settings right now (storage problem); please try again in a moment. Nothing was changed."
)

SETTING_CHOICES = [
    app_commands.Choice(name=f"{s.key}: {s.description}"[:100], value=s.key) for s in SETTINGS.values()
]


def may_configure(interaction: discord.Interaction) -> bool:
    """Discord hides the commands from others by default, but a server can change who sees them."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ConfigCog(commands.GroupCog, group_name="config", group_description="This server's bot settings"):
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot
        super().__init__()

    async def _allowed(self, interaction: discord.Interaction) -> bool:
        if may_configure(interaction):
            return True
        await interaction.response.send_message(_(ONLY_MANAGERS), ephemeral=True)
        return False

    @app_commands.command(name="show", description="Every setting of this server and its value")
    async def show(self, interaction: discord.Interaction) -> None:
        if not await self._allowed(interaction):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # before reading the database
        try:
            stored = await self.bot.storage.get_server_settings(interaction.guild_id or 0)
        except StorageError:
            await interaction.followup.send(_(STORAGE_DOWN), ephemeral=True)
            return
        embed = discord.Embed(title=_("Server settings"), colour=discord.Colour.blurple())
        for setting in SETTINGS.values():
            value = setting.read(stored)
            note = "" if setting.key in stored else _(" *(default)*")
            meaning = setting.meaning(str(value))
            embed.add_field(
                name=setting.key,
                value=f"**{setting.show(value)}**{f' ({meaning})' if meaning else ''}{note}\n"
                f"{_(setting.description)}",
                inline=False,
            )
        embed.set_footer(
            text=_(
                "Change one with {set}, or put it back with {reset}.",
                set=config_command("set"),
                reset=config_command("reset"),
            )
        )
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="set", description="Change one setting of this server")
    @app_commands.describe(setting="Which setting", value="Its new value")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def set(self, interaction: discord.Interaction, setting: str, value: str) -> None:
        if not await self._allowed(interaction):
            return
        chosen = SETTINGS.get(setting)
        if chosen is None:
            await interaction.response.send_message(
                _("There is no setting `{setting}`.", setting=setting), ephemeral=True
            )
            return
        try:
            parsed = chosen.parse(_by_name(interaction.guild, chosen, value))
        except ValueError as error:
            await interaction.response.send_message(
                _("That value doesn't fit: {reason}", reason=error), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.bot.storage.set_server_setting(interaction.guild_id or 0, chosen.key, parsed)
        except StorageError:
            await interaction.followup.send(_(NOTHING_CHANGED), ephemeral=True)
            return
        await self.bot.languages.refresh(interaction.guild_id, force=True)
        done = _("✅ `{setting}` is now **{value}**.", setting=chosen.key, value=chosen.show(parsed))
        warning = _warning(interaction.guild, chosen, parsed)
        await interaction.followup.send(f"{done}\n{warning}" if warning else done, ephemeral=True)

    @set.autocomplete("value")
    async def value_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        chosen = SETTINGS.get(str(getattr(interaction.namespace, "setting", "") or ""))
        if chosen is None:
            return []
        options = _suggestions(chosen)
        return [
            app_commands.Choice(name=_suggestion_name(chosen, o), value=o)
            for o in options
            if typed.lower() in _suggestion_name(chosen, o).lower()
        ][:25]

    @app_commands.command(name="reset", description="Put one setting back to its default")
    @app_commands.describe(setting="Which setting")
    @app_commands.choices(setting=SETTING_CHOICES)
    async def reset(self, interaction: discord.Interaction, setting: str) -> None:
        if not await self._allowed(interaction):
            return
        chosen = SETTINGS.get(setting)
        if chosen is None:
            await interaction.response.send_message(
                _("There is no setting `{setting}`.", setting=setting), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.bot.storage.clear_server_setting(interaction.guild_id or 0, chosen.key)
        except StorageError:
            await interaction.followup.send(_(NOTHING_CHANGED), ephemeral=True)
            return
        await self.bot.languages.refresh(interaction.guild_id, force=True)
        await interaction.followup.send(
            _(
                "✅ `{setting}` is back to its default, **{value}**.",
                setting=chosen.key,
                value=chosen.show(chosen.default),
            ),
            ephemeral=True,
        )


def _by_name(guild: discord.Guild | None, setting: Setting, value: str) -> str:
    """A channel or role typed by its name (``#recaps``, ``@Champion``, ``Champion``) as its id; any
    other value as typed."""
    if guild is None or not setting.refers_to:
        return value
    name = value.strip().lstrip("#@").lower()
    found = guild.text_channels if setting.refers_to == "channel" else guild.roles
    match = next((str(x.id) for x in found if x.name.lower() == name), None)
    return match or value


def _warning(guild: discord.Guild | None, setting: Setting, value: object) -> str:
    """What the admin must know at once about the value just set (the bot could not use it as it is)."""
    if guild is None or not value:
        return ""
    if setting.key == "champion_role":
        from cogs.seasons import role_problem

        problem = role_problem(guild.get_role(int(str(value))), guild.me)
        return _("⚠️ I won't be able to give this role yet: {why}", why=problem) if problem else ""
    if setting.key == "recap_channel":
        channel = guild.get_channel(int(str(value)))
        me = guild.me
        if channel is None or me is None:
            return _("⚠️ I can't see that channel.")
        allowed = channel.permissions_for(me)
        if not (
            allowed.view_channel and allowed.send_messages and allowed.attach_files and allowed.embed_links
        ):
            return _(
                "⚠️ I can't post the recap there yet: I need View Channel, Send Messages, Embed Links and "
                "Attach Files in {channel}.",
                channel=channel.mention,
            )
    return ""


def _suggestions(setting: Setting) -> list[str]:
    if setting.choices:
        return list(setting.choices)
    if isinstance(setting.default, bool):
        return [_("yes"), _("no")]
    if setting.refers_to:
        return ["none"]
    return [str(setting.default)]


def _suggestion_name(setting: Setting, value: str) -> str:
    """A suggestion as the admin reads it: the value to type, and what it means in their language."""
    meaning = setting.meaning(value)
    return f"{value} — {meaning}"[:100] if meaning else value


def config_command(name: str) -> str:
    """``/config set`` as the reader's Discord shows it (``/config definir`` in Portuguese)."""
    from bot.i18n import current
    from bot.i18n.commands import localized_name

    return f"/{localized_name('config', current())} {localized_name(name, current())}"


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(ConfigCog(bot))
