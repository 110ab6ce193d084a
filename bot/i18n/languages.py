"""The languages the bot speaks, and which one a Discord locale gets."""

from __future__ import annotations

from typing import Literal

Language = Literal["en", "pt-BR"]

DEFAULT: Language = "en"
#: Each language the bot speaks: its Babel locale (numbers, plural rules) and its name in itself.
LANGUAGES: dict[Language, tuple[str, str]] = {
    "en": ("en_US", "English"),
    "pt-BR": ("pt_BR", "Português do Brasil"),
}


def from_locale(locale: object) -> Language:
    """The language for a Discord locale (``discord.Locale`` or its value, like ``"pt-BR"``);
    English for every locale the bot has no catalog for. Ruling: Portugal's Portuguese is not a
    Discord locale, so any ``pt`` is Brazilian."""
    value = str(getattr(locale, "value", locale) or "")
    if value.lower().startswith("pt"):
        return "pt-BR"
    return DEFAULT


def babel_locale(language: Language) -> str:
    return LANGUAGES[language][0]
