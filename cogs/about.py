"""``/help``, ``/invite`` and ``/privacy show|erase``: what a member or a server admin asks of any bot.

Every answer is private (ephemeral) and in the asker's language. ``/help`` lists the commands as the
bot registered them (so a new command is listed without touching this file) and each game of the
catalog with its summary; ``/invite`` reads the one permission list (``bot.discord_io.permissions``).

Ruling: Discord cannot run a command group by its bare name, so the policy is ``/privacy show`` and
the erasure ``/privacy erase`` (like ``/config show``). The erasure asks first (two buttons on the
private answer, which keep working after a restart) and is refused while the person is at an open table.
"""

from __future__ import annotations

import re
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
from bot.tables import custom_ids
from cogs.common import command_mention

if TYPE_CHECKING:
    from bot.client import RaceBot

STORAGE_DOWN = N_("I can't reach my storage right now; nothing was erased. Please try again in a moment.")
AT_A_TABLE = N_(
    "You're at a table that is still open (seated, its host, or your seat played by an AI since you left). "
    "Let it end, then try again; nothing was erased."
)
# What is stored, each with how long it is kept (PRIVACY.md says the same at more length).
STORED = (
    N_(
        "**Results** of finished games: your Discord id, the name you had then, your place, money and "
        "bets, per server, and the ratings worked out from your places. Kept until you erase them: they "
        "make the server's leaderboards, `/stats` and `/history`."
    ),
    N_(
        "**Spectator bets** (play chips, of no real value): your id and name, your chips per server and "
        "each bet you made and what it paid. Kept until you erase them: they make the spectators' board."
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


class PrivacyButton(discord.ui.DynamicItem[discord.ui.Item[Any]], template=custom_ids.PRIVACY_TEMPLATE):
    """``/privacy erase``'s two buttons, on an answer only its asker sees; they work after a restart."""

    def __init__(self, item: discord.ui.Item[Any], op: str, user_id: int) -> None:
        super().__init__(item)
        self.op = op
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PrivacyButton:
        return cls(item, match["op"], int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client: Any = interaction.client
        client.languages.hear(interaction)
        if interaction.user.id != self.user_id:  # the answer is private: only a forged click gets here
            await interaction.response.send_message(_("This button isn't yours."), ephemeral=True)
            return
        if self.op == "keep":
            await interaction.response.edit_message(content=_("Nothing was erased."), view=None)
            return
        await interaction.response.defer()  # the database may take a moment
        await interaction.edit_original_response(content=await erase(client, self.user_id), view=None)


async def erase(bot: RaceBot, user_id: int) -> str:
    """Erase what is stored about ``user_id``; what to tell them (in the current language)."""
    try:
        erased = await bot.storage.erase_player(user_id)
    except StorageError:
        return _(STORAGE_DOWN)
    if erased.seated:
        return _(AT_A_TABLE)
    bot.languages.forget(user_id)
    return _(
        "Done. Your id and name are gone from every game; your results stay, for the others' "
        "standings, as **{pseudonym}**.",
        pseudonym=erased.name,
    )


def confirm_buttons(user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op, label, style in (
        ("erase", _("Erase my data"), discord.ButtonStyle.danger),
        ("keep", _("Cancel"), discord.ButtonStyle.secondary),
    ):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_ids.privacy(op, user_id)
        )
        view.add_item(PrivacyButton(button, op, user_id))
    return view


class AboutCog(commands.Cog):
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PrivacyButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PrivacyButton)

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
        await interaction.followup.send(_(ASK), view=confirm_buttons(interaction.user.id), ephemeral=True)


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(AboutCog(bot))
