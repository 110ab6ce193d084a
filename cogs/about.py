"""``/help``, ``/invite`` and ``/privacy show|erase``: what a member or a server admin asks of any bot.

Every answer is private (ephemeral) and in the asker's language. ``/help`` lists the commands as the
bot registered them (so a new command is listed without touching this file) and each game of the
catalog with its summary; ``/invite`` reads the one permission list (``bot.discord_io.permissions``).

Ruling: Discord cannot run a command group by its bare name, so the policy is ``/privacy show`` and
the erasure ``/privacy erase`` (like ``/config show``). The erasure asks first (two buttons on the
private answer, for five minutes) and is refused while the person is at an open table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from bot.discord_io.permissions import NEEDED
from bot.games.catalog import ENTRIES
from bot.i18n import N_, _, current
from bot.i18n.commands import localized_name, translate
from bot.storage import StorageError
from cogs.common import command_mention

if TYPE_CHECKING:
    from bot.client import RaceBot

CONFIRM_SECONDS = 300.0
STORAGE_DOWN = N_("I can't reach my storage right now; nothing was erased. Please try again in a moment.")
AT_A_TABLE = N_(
    "You're at a table that is still open (seated, its host, or your seat played by an AI since you left). "
    "Let it end, then try again; nothing was erased."
)
# What is stored, each with how long it is kept (PRIVACY.md says the same at more length).
STORED = (
    N_(
        "**Results** of finished games: your Discord id, the name you had then, your place, money and "
        "bets, per server. Kept until you erase them: they make the server's leaderboards, `/stats` "
        "and `/history`."
    ),
    N_(
        "**Games**: who sat where (id and name), who hosted, the moves (by seat), the server and "
        "channel. Kept until you erase them: a game is resumed after a restart from them."
    ),
    N_(
        "**Clicks passed between the bot's processes**: your id, name and the click. Deleted once "
        "applied, and after 15 minutes at most."
    ),
    N_(
        "**Your Discord language**, learnt from each command and click: in memory only, never "
        "written down; forgotten at a restart."
    ),
    N_("I can't read messages, and I keep no DMs: what I send you stays in Discord only."),
)
ERASE_HOW = N_(
    "`/privacy erase` replaces your id and name everywhere with a pseudonym (*Erased player …*), so "
    "other players' standings stay right, and deletes your clicks in transit. Not while you're at an "
    "open table."
)
ASK = N_(
    "Erase what I store about you, in every server? Your results stay, for the other players' standings, "
    "under a pseudonym nobody can trace back to you; your id and name go from every game; your clicks "
    "in transit are deleted. This cannot be undone."
)


def _files(docs_url: str | None) -> str:
    if docs_url is None:
        return _("The full policy and the terms: `PRIVACY.md` and `TERMS.md` with the bot's source.")
    privacy, terms = f"{docs_url}/PRIVACY.md", f"{docs_url}/TERMS.md"
    return _(
        "The full policy: [PRIVACY.md]({privacy}) · the terms: [TERMS.md]({terms})",
        privacy=privacy,
        terms=terms,
    )


def _command_lines(bot: RaceBot) -> list[str]:
    """Every slash command of the bot, one line each, in the reader's language."""
    language = current()

    def name(text: str) -> str:
        return localized_name(text, language)

    def said(text: str) -> str:
        return translate(text, Where.command_description, language) or text

    lines: list[str] = []
    for command in bot.tree.get_commands():
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                lines.append(f"`/{name(command.name)} {name(sub.name)}` — {said(sub.description)}")
        elif isinstance(command, app_commands.Command):
            lines.append(f"`/{name(command.name)}` — {said(command.description)}")
    return lines


class ConfirmErase(discord.ui.View):
    """The private question's two buttons; only its asker sees them (the answer is ephemeral)."""

    def __init__(self, bot: RaceBot, user_id: int) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.bot = bot
        self.user_id = user_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        self.bot.languages.hear(interaction)
        return interaction.user.id == self.user_id

    @discord.ui.button(label="Erase my data", style=discord.ButtonStyle.danger)
    async def erase(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.defer()  # the database may take a moment
        try:
            erased = await self.bot.storage.erase_player(self.user_id)
        except StorageError:
            text = _(STORAGE_DOWN)
        else:
            if erased.seated:
                text = _(AT_A_TABLE)
            else:
                self.bot.languages.forget(self.user_id)
                text = _(
                    "Done. Your id and name are gone from every game; your results stay, for the others' "
                    "standings, as **{pseudonym}**.",
                    pseudonym=erased.name,
                )
        await interaction.edit_original_response(content=text, view=None)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content=_("Nothing was erased."), view=None)


def _translated(view: ConfirmErase) -> ConfirmErase:
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = _(item.label)
    return view


# Marked for the catalogs: the buttons' labels above, translated when the view is sent.
_LABELS = (N_("Erase my data"), N_("Cancel"))


class AboutCog(commands.Cog):
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="Every command, and each game in two lines")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title=_("Commands"),
            description="\n".join(_command_lines(self.bot)),
            colour=discord.Colour.blurple(),
        )
        for game in ENTRIES:
            rules = _("Rules: `{command}`", command=command_mention(game.command, "rules"))
            embed.add_field(name=_(game.title), value=f"{_(game.summary)}\n{rules}"[:1024], inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="invite", description="Add the bot to a server, and the permissions it asks for"
    )
    async def invite(self, interaction: discord.Interaction) -> None:
        from bot.client import invite_url

        lines = [
            f"**{_(needed.name)}**"
            + ("" if needed.required else " " + _("*(optional)*"))
            + f" — {_(needed.why)}"
            for needed in NEEDED
        ]
        url = invite_url(self.bot.application_id or 0)
        embed = discord.Embed(
            title=_("Add me to a server"),
            url=url,
            description=_("[Invite link]({url}): it asks for these permissions only, and why:", url=url)
            + "\n"
            + "\n".join(f"- {line}" for line in lines),
            colour=discord.Colour.blurple(),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    privacy = app_commands.Group(name="privacy", description="What the bot stores about you, and erasing it")

    @privacy.command(
        name="show", description="What the bot stores about you, for how long, and how to erase it"
    )
    async def privacy_show(self, interaction: discord.Interaction) -> None:
        text = "\n\n".join(
            [*(f"- {_(kind)}" for kind in STORED), _(ERASE_HOW), _files(self.bot.settings.docs_url)]
        )
        embed = discord.Embed(
            title=_("What I store about you"), description=text, colour=discord.Colour.blurple()
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @privacy.command(name="erase", description="Erase what the bot stores about you (asks first)")
    async def privacy_erase(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # before the database
        try:
            seated = await self.bot.storage.at_open_table(interaction.user.id)
        except StorageError:
            await interaction.followup.send(_(STORAGE_DOWN), ephemeral=True)
            return
        if seated:
            await interaction.followup.send(_(AT_A_TABLE), ephemeral=True)
            return
        view = _translated(ConfirmErase(self.bot, interaction.user.id))
        await interaction.followup.send(_(ASK), view=view, ephemeral=True)


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(AboutCog(bot))
