"""Slash commands in each reader's language: discord.py's ``Translator`` fed from the same catalogs.

Discord shows a command's localized name, description, options and choices to members whose
client is in that locale; the command still arrives under its English name, so nothing else in the
bot changes. Names are in the ``command name`` context (``start`` the command is not "Start" the
button) and the rest in ``command``. A translated name Discord would refuse (upper case, spaces,
over 32 characters) is left out, since one bad name would make Discord refuse every command.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT, Language, from_locale
from bot.i18n.catalogs import translations

NAME_PLACES = {Where.command_name, Where.group_name, Where.parameter_name}
NAME_CONTEXT = "command name"
TEXT_CONTEXT = "command"
VALID_NAME = re.compile(r"^[-_\w]{1,32}$")


def context_for(where: Where) -> str:
    return NAME_CONTEXT if where in NAME_PLACES else TEXT_CONTEXT


def translate(message: str, where: Where, language: Language) -> str | None:
    """The translation, or None where the catalog has none (Discord then shows the English)."""
    context = context_for(where)
    text = translations(language).pgettext(context, message)
    if text == message:
        return None
    if context == NAME_CONTEXT and not (VALID_NAME.match(text) and text == text.lower()):
        return None
    limit = 32 if context == NAME_CONTEXT else 100
    return text if len(text) <= limit else None


def localized_name(name: str, language: Language) -> str:
    """A command, group or option name as members speaking ``language`` see it (for messages that
    tell them what to type)."""
    if language == DEFAULT:
        return name
    return translate(name, Where.command_name, language) or name


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        language = from_locale(locale)
        if language == DEFAULT:
            return None
        return translate(string.message, context.location, language)
